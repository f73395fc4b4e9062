/* Loop prefetch: a lookup at the top of a loop trip whose coordinates do
 * not depend on the trip's own work is issued one trip ahead.
 *
 * A raymarcher's trip starts with `tex(f(pos))`, and everything after it
 * waits for the result: no schedule inside one trip hides the lookup's
 * latency.  But the next trip's pos is known early (pos + step), so the
 * trip can compute the next trip's coordinates and start its lookup; the
 * result reaches the next trip through a new loop PHI, and the lookup's
 * latency is hidden by the rest of the trip.  Before the loop, the first
 * trip's lookup runs once (the prologue).
 *
 * The lookup and its coordinates' ops are pure, so computing them for a
 * trip that never comes (the loop leaves) costs time, never results.
 * Values of the coordinates' computation that the trip reads elsewhere
 * (the coordinates themselves, say) are carried by PHIs too, so the trip
 * computes them once.
 *
 * What qualifies: a loop without CONTINUE whose body starts with a block;
 * a TEX in a block of the body's own list (it runs on every trip that
 * gets there); its sources computed by pure ops of such blocks from loop
 * PHIs and values from before the loop; each PHI's next value (the end of
 * the trip's) computable at the lookup's block by pure ops.  A lookup
 * whose level of detail comes from the quad (no explicit LOD or
 * gradients) also needs every pixel of the quad in the same trip: a loop
 * at the top of the function whose BREAKs' conditions are the same for
 * the whole draw.
 * Needs: valid IR.  Keeps: the ids of what stays; adds PHIs, clones and a
 * block before a loop that has none.  Runs once, after the other passes:
 * run again it would fetch two trips ahead. */
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

enum {
	PF_MAX_TEX_PER_LOOP = 4,  /* lookups prefetched in one loop */
	PF_MAX_TEX = 32,          /* lookups tried in the whole pass */
	PF_MAX_NODES = 256,       /* ops in one lookup's coordinates */
	PF_GROWTH = 8192,         /* new instructions in the whole pass */
	PF_UNIFORM_DEPTH = 48     /* draw-uniform test: deeper is "no" */
};

struct prefetch {
	struct ir_func *f;
	uint32_t limit;            /* ids below it have the arrays below */
	struct ir_cf *loop;
	struct ir_cf *tex_cf;      /* the lookup's block */
	int *block_pos;            /* by id: index of its block in the body's own list;
				    * -1 in an IF of the body, -3 in a nested loop,
				    * -2 outside the loop */
	struct ir_src exit_cond;   /* the body's last IF, `if (e) break`: e (def NULL:
				    * none) */
	struct ir_src *next;       /* by id: value one trip ahead (def NULL: none yet) */
	struct ir_src *init;       /* by id: value of the first trip */
	struct ir_src *now;        /* by id: value at the end of the lookup's block */
	bool *in_closure;          /* by id: an op of the coordinates */
	bool *phi_varies;          /* by id: a loop PHI not uniform over the draw */
	uint8_t *umemo;            /* by id: draw_uniform's answer, 0 = not yet */
	int nnow;                  /* clones made for `now` values */
	bool *now_seen;            /* by id: `now` can be had (the dry run) */
	struct ir_instr **closure; /* the coordinates' ops, sources first */
	int nclosure;
	struct ir_instr **stack;
	int *stack_src;
	struct ir_block *pre;      /* the block before the loop */
	int tried;                 /* lookups tried so far (PF_MAX_TEX) */
	bool failed, progress;
};

/* s read through m: m gives s.def's whole value. */
static struct ir_src compose(struct ir_src m, const struct ir_src *s)
{
	return ir_src_through(&m, s->swz);
}

static bool is_header_phi(const struct prefetch *p, const struct ir_instr *d)
{
	const struct ir_cf *first = p->loop->body.first;
	return d->op == IR_OP_PHI && first && first->kind == IR_CF_BLOCK &&
	       d->block == &first->block;
}

static bool inside_loop(const struct prefetch *p, const struct ir_instr *d)
{
	return d->id < p->limit ? p->block_pos[d->id] != -2 : ir_instr_inside(d, p->loop);
}

/* An op the pass may compute early or twice. */
static bool pure(const struct ir_instr *d)
{
	return ir_op_is_evaluable(d->op) && d->op != IR_OP_PHI;
}

/* A copy of `in` (fresh id, no block) with sources `srcs`. */
static struct ir_instr *clone_op(struct prefetch *p, const struct ir_instr *in,
				 const struct ir_src *srcs)
{
	struct ir_instr *c = p->f->next_id < p->limit ? ir_instr_copy(p->f, in) : NULL;
	if (!c) {
		p->failed = true;
		return NULL;
	}
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		c->src[i] = srcs[i];
	p->block_pos[c->id] = -1;
	return c;
}

/* --- the value of a def at the end of the lookup's block (`now`) --- */

static bool available(const struct prefetch *p, const struct ir_instr *d)
{
	if (!inside_loop(p, d) || is_header_phi(p, d))
		return true;
	int tex_pos = p->block_pos[p->tex_cf->block.first->id];
	return d->id < p->limit && p->block_pos[d->id] >= 0 && p->block_pos[d->id] <= tex_pos;
}

/* Post-order walk from root over the defs `expand` accepts, calling
 * `visit` on each once its sources are done; `done` says a def has its
 * value already.  False when some def can be neither. */
typedef bool (*walk_test)(struct prefetch *p, struct ir_instr *d);
static bool walk(struct prefetch *p, struct ir_instr *root, walk_test done, walk_test expand,
		 walk_test visit)
{
	int sp = 0;
	if (done(p, root))
		return true;
	if (!expand(p, root))
		return false;
	p->stack[sp] = root;
	p->stack_src[sp++] = 0;
	while (sp > 0) {
		struct ir_instr *d = p->stack[sp - 1];
		int i = p->stack_src[sp - 1]++;
		int n = d->op == IR_OP_PHI ? 1 : d->nsrc; /* exit_only_phi: the trip's */
		if (i >= n || i >= IR_MAX_SRCS) {
			sp--;
			if (!visit(p, d))
				return false;
			continue;
		}
		struct ir_instr *s = d->src[i].def;
		if (!s || done(p, s))
			continue;
		if (!expand(p, s) || sp >= PF_MAX_NODES)
			return false;
		p->stack[sp] = s;
		p->stack_src[sp++] = 0;
	}
	return true;
}

static bool now_done(struct prefetch *p, struct ir_instr *d)
{
	if (p->now[d->id].def)
		return true;
	if (!available(p, d))
		return false;
	p->now[d->id] = ir_src_of(d);
	return true;
}

/* Later ops of the body's own blocks; the stack bounds the depth. */
/* Whether bool sources a and b (component 0) always differ: one the NOT
 * of the other, opposite constants, or PHIs of one join whose sources
 * pairwise always differ (depth-bounded). */
static bool complement(const struct ir_src *a, const struct ir_src *b, int depth)
{
	const struct ir_instr *x = a->def, *y = b->def;
	if (!x || !y || depth > 8)
		return false;
	if (y->op == IR_OP_NOT && y->src[0].def == x &&
	    (y->src[0].swz[b->swz[0] & 3] & 3) == (a->swz[0] & 3))
		return true;
	if (x->op == IR_OP_NOT && x->src[0].def == y &&
	    (x->src[0].swz[a->swz[0] & 3] & 3) == (b->swz[0] & 3))
		return true;
	if (x->op == IR_OP_CONST && y->op == IR_OP_CONST)
		return (x->imm[a->swz[0] & 3] != 0.0f) != (y->imm[b->swz[0] & 3] != 0.0f);
	if (x->op != IR_OP_PHI || y->op != IR_OP_PHI || x->block != y->block ||
	    x->nsrc != y->nsrc)
		return false;
	for (int i = 0; i < x->nsrc && i < IR_MAX_SRCS; i++) {
		struct ir_src xa = x->src[i], yb = y->src[i];
		xa.swz[0] = x->src[i].swz[a->swz[0] & 3];
		yb.swz[0] = y->src[i].swz[b->swz[0] & 3];
		if (!complement(&xa, &yb, depth + 1))
			return false;
	}
	return true;
}

/* The last node of the body: `if (e) { break }` -- e, or def NULL. */
static struct ir_src final_exit(const struct ir_cf *loop)
{
	struct ir_src none = { NULL, { 0 } };
	const struct ir_cf *last = loop->body.last;
	if (!last || last->kind != IR_CF_IF || last->else_list.first ||
	    !ir_cf_list_is_break(&last->then_list))
		return none;
	return last->cond;
}

/* A PHI after an IF of the body's own list that takes its else value only
 * on a trip that leaves the loop: the IF's condition is false exactly when
 * the body's final `if (e) break` leaves (a `for` whose body may break
 * steps only while it does not: `if (!exit) step; ...; if (exit) break`).
 * For the next trip, its value is the then value. */
static bool exit_only_phi(const struct prefetch *p, const struct ir_instr *d)
{
	if (d->op != IR_OP_PHI || d->nsrc != 2 || !p->exit_cond.def || is_header_phi(p, d) ||
	    d->id >= p->limit || p->block_pos[d->id] < 0)
		return false;
	const struct ir_cf *after = ir_instr_cf(d), *g = after ? after->prev : NULL;
	return g && g->kind == IR_CF_IF && complement(&g->cond, &p->exit_cond, 0);
}

/* Ops of the body (not of a nested loop): pure ones run early for
 * nothing worse than time; an exit-only PHI gives its then value. */
static bool now_expand(struct prefetch *p, struct ir_instr *d)
{
	if (d->id >= p->limit || p->block_pos[d->id] < -1)
		return false;
	return pure(d) || exit_only_phi(p, d);
}

static bool now_visit(struct prefetch *p, struct ir_instr *d)
{
	if (p->now[d->id].def)
		return true;
	if (++p->nnow > PF_MAX_NODES)
		return false;
	if (d->op == IR_OP_PHI) { /* exit_only_phi */
		p->now[d->id] = compose(p->now[d->src[0].def->id], &d->src[0]);
		return true;
	}
	struct ir_src srcs[IR_MAX_SRCS];
	for (int i = 0; i < d->nsrc && i < IR_MAX_SRCS; i++)
		srcs[i] = compose(p->now[d->src[i].def->id], &d->src[i]);
	struct ir_instr *c = clone_op(p, d, srcs);
	if (!c)
		return false;
	ir_block_append(&p->tex_cf->block, c);
	p->now[d->id] = ir_src_of(c);
	return true;
}

/* The dry run: whether every `now` value can be had, making nothing. */
static bool seen_done(struct prefetch *p, struct ir_instr *d)
{
	return p->now_seen[d->id] || available(p, d);
}

static bool seen_visit(struct prefetch *p, struct ir_instr *d)
{
	if (!p->now_seen[d->id]) {
		if (++p->nnow > PF_MAX_NODES)
			return false;
		p->now_seen[d->id] = true;
	}
	return true;
}

/* --- the coordinates' closure --- */

static bool closure_done(struct prefetch *p, struct ir_instr *d)
{
	return !inside_loop(p, d) || is_header_phi(p, d) || p->in_closure[d->id];
}

/* Ops of the body's blocks up to the lookup's (they run before it). */
static bool closure_expand(struct prefetch *p, struct ir_instr *d)
{
	return (pure(d) || d->op == IR_OP_TEX) && d->id < p->limit && available(p, d) &&
	       p->block_pos[d->id] >= 0;
}

static bool closure_visit(struct prefetch *p, struct ir_instr *d)
{
	if (p->in_closure[d->id])
		return true;
	if (p->nclosure >= PF_MAX_NODES)
		return false;
	p->in_closure[d->id] = true;
	p->closure[p->nclosure++] = d;
	return true;
}

/* --- the lookup's level of detail: every pixel of the quad in the same
 * trip --- */

/* Whether d has one value for the whole draw on every trip of the loop,
 * with the loop PHIs not yet found otherwise assumed so.  Memoized per
 * round; depth-bounded, so deep chains answer "no". */
static bool draw_uniform(struct prefetch *p, const struct ir_instr *d, int depth)
{
	if (d->id >= p->limit || depth > PF_UNIFORM_DEPTH)
		return false;
	if (p->umemo[d->id])
		return p->umemo[d->id] == 1;
	bool yes;
	if (d->op == IR_OP_CONST) {
		yes = true;
	} else if (d->op == IR_OP_PHI) {
		yes = is_header_phi(p, d) && !p->phi_varies[d->id];
	} else if (d->op != IR_OP_UNIFORM && !pure(d)) {
		yes = false;
	} else {
		yes = true;
		for (int i = 0; i < d->nsrc && i < IR_MAX_SRCS && yes; i++)
			yes = draw_uniform(p, d->src[i].def, depth + 1);
	}
	p->umemo[d->id] = yes ? 1 : 2;
	return yes;
}

/* Finds the loop PHIs that vary across the draw: a PHI is uniform when
 * all its sources are, assuming the uniform ones so (a fixpoint from
 * "all uniform" down). */
static void find_varying_phis(struct prefetch *p)
{
	const struct ir_cf *first = p->loop->body.first;
	for (bool changed = true; changed;) {
		changed = false;
		memset(p->umemo, 0, p->limit);
		for (const struct ir_instr *in = first->block.first; in && in->op == IR_OP_PHI;
		     in = in->next) {
			if (p->phi_varies[in->id])
				continue;
			for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
				if (!draw_uniform(p, in->src[i].def, 1)) {
					p->phi_varies[in->id] = true;
					changed = true;
					break;
				}
		}
	}
	memset(p->umemo, 0, p->limit);
}

/* Every IF of `list` that holds a BREAK of the loop decides it for the
 * whole draw. */
static bool breaks_uniform(struct prefetch *p, const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind != IR_CF_IF || !ir_cf_jumps(cf, IR_JUMP_BREAK))
			continue;
		if (!draw_uniform(p, cf->cond.def, 1) || !breaks_uniform(p, &cf->then_list) ||
		    !breaks_uniform(p, &cf->else_list))
			return false;
	}
	return true;
}

/* --- one lookup --- */

static void reset_maps(struct prefetch *p)
{
	for (int i = 0; i < p->nclosure; i++)
		p->in_closure[p->closure[i]->id] = false;
	p->nclosure = 0;
	p->nnow = 0;
	memset(p->now_seen, 0, sizeof *p->now_seen * p->limit);
	memset(p->next, 0, sizeof *p->next * p->limit);
	memset(p->init, 0, sizeof *p->init * p->limit);
	memset(p->now, 0, sizeof *p->now * p->limit);
}

/* The value one trip ahead of a leaf of the closure (a def from before
 * the loop, or a loop PHI: its value at the end of this trip). */
static bool leaf_next(struct prefetch *p, struct ir_instr *d)
{
	if (p->next[d->id].def)
		return true;
	if (!is_header_phi(p, d)) {
		p->next[d->id] = ir_src_of(d);
		p->init[d->id] = ir_src_of(d);
		return true;
	}
	if (d->nsrc != 2)
		return false;
	struct ir_instr *b = d->src[1].def;
	if (!walk(p, b, now_done, now_expand, now_visit))
		return false;
	p->next[d->id] = compose(p->now[b->id], &d->src[1]);
	p->init[d->id] = d->src[0];
	return true;
}

/* Builds the clone of closure op d reading `map`'s values, appended to bl. */
static struct ir_instr *map_clone(struct prefetch *p, struct ir_instr *d, const struct ir_src *map,
				  struct ir_block *bl)
{
	struct ir_src srcs[IR_MAX_SRCS];
	for (int i = 0; i < d->nsrc && i < IR_MAX_SRCS; i++)
		srcs[i] = compose(map[d->src[i].def->id], &d->src[i]);
	struct ir_instr *c = clone_op(p, d, srcs);
	if (c)
		ir_block_append(bl, c);
	return c;
}

/* Marks the closure's ops that something outside it reads (they get a
 * carrying PHI); the walk covers the whole function: PHIs after the loop
 * read values of its trips. */
struct use_scan {
	struct prefetch *p;
	bool *carry;
};

static void scan_read(struct use_scan *u, const struct ir_instr *d)
{
	if (d && d->id < u->p->limit && u->p->in_closure[d->id])
		u->carry[d->id] = true;
}

static void scan_use(struct ir_instr *in, void *ud)
{
	struct use_scan *u = ud;
	if (in->id < u->p->limit && u->p->in_closure[in->id])
		return;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		scan_read(u, in->src[i].def);
}

static void scan_cond(struct ir_src *cond, void *ud)
{
	scan_read(ud, cond->def);
}

static bool prefetch_tex(struct prefetch *p, struct ir_instr *tex, struct ir_cf_list *list,
			 bool *carry)
{
	reset_maps(p);
	p->tex_cf = (struct ir_cf *)ir_instr_cf(tex);
	if (!walk(p, tex, closure_done, closure_expand, closure_visit))
		return false;
	/* only the lookup itself may be a lookup */
	for (int i = 0; i < p->nclosure; i++)
		if (p->closure[i]->op == IR_OP_TEX && p->closure[i] != tex)
			return false;
	/* now clones, two per closure op, a PHI per closure op */
	if ((uint64_t)p->f->next_id + 4u * PF_MAX_NODES >= p->limit)
		return false;
	/* the dry run: every op read is a leaf or in the closure, and each
	 * loop PHI's next value can be had at the lookup's block */
	for (int i = 0; i < p->nclosure; i++) {
		struct ir_instr *d = p->closure[i];
		for (int k = 0; k < d->nsrc && k < IR_MAX_SRCS; k++) {
			struct ir_instr *l = d->src[k].def;
			if (p->in_closure[l->id] || !is_header_phi(p, l))
				continue;
			if (l->nsrc != 2 || !walk(p, l->src[1].def, seen_done, now_expand, seen_visit))
				return false;
		}
	}
	p->nnow = 0;
	struct ir_cf *loop = p->loop;
	if (loop->prev && loop->prev->kind == IR_CF_BLOCK && loop->prev->block.last &&
	    (loop->prev->block.last->op == IR_OP_BREAK ||
	     loop->prev->block.last->op == IR_OP_CONTINUE))
		return false;
	/* the leaves' next values (cannot fail now but for memory) */
	for (int i = 0; i < p->nclosure; i++) {
		struct ir_instr *d = p->closure[i];
		for (int k = 0; k < d->nsrc && k < IR_MAX_SRCS; k++) {
			struct ir_instr *l = d->src[k].def;
			if (!p->in_closure[l->id] && !leaf_next(p, l))
				return false;
		}
	}
	if (!p->pre && !(p->pre = ir_loop_preheader(p->f, list, p->loop)))
		p->failed = true;
	if (p->failed)
		return false;
	/* clones one trip ahead (at the lookup's block end) and for the first
	 * trip (before the loop) */
	for (int i = 0; i < p->nclosure; i++) {
		struct ir_instr *d = p->closure[i];
		struct ir_instr *n = map_clone(p, d, p->next, &p->tex_cf->block);
		struct ir_instr *f = map_clone(p, d, p->init, p->pre);
		if (!n || !f)
			return false;
		p->next[d->id] = ir_src_of(n);
		p->init[d->id] = ir_src_of(f);
	}
	memset(carry, 0, sizeof *carry * p->limit);
	struct use_scan u = { p, carry };
	ir_foreach_instr(p->f, scan_use, &u);
	ir_foreach_cond(p->f, scan_cond, &u);
	/* each value read outside the closure comes from a PHI */
	struct ir_instr *head = p->loop->body.first->block.first;
	for (int i = 0; i < p->nclosure; i++) {
		struct ir_instr *d = p->closure[i];
		if (!carry[d->id])
			continue;
		struct ir_src srcs[2] = { p->init[d->id], p->next[d->id] };
		struct ir_instr *phi = ir_build_before(p->f, head, IR_OP_PHI, d->ncomp,
						       (enum ir_base)d->base, 2, srcs);
		if (!phi) {
			p->failed = true;
			break;
		}
		phi->loc = d->loc;
		ir_forward(d, phi);
	}
	ir_apply_forwards(p->f);
	return !p->failed;
}

static bool loop_qualifies(const struct prefetch *p)
{
	const struct ir_cf *first = p->loop->body.first;
	return first && first->kind == IR_CF_BLOCK && first->block.first &&
	       !ir_cf_list_jumps(&p->loop->body, IR_JUMP_CONTINUE);
}

static void mark_positions(struct prefetch *p, const struct ir_cf_list *list, int pos)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				if (in->id < p->limit)
					p->block_pos[in->id] = pos;
		} else if (cf->kind == IR_CF_IF) {
			mark_positions(p, &cf->then_list, pos == -3 ? -3 : -1);
			mark_positions(p, &cf->else_list, pos == -3 ? -3 : -1);
		} else {
			mark_positions(p, &cf->body, -3);
		}
		if (pos >= 0)
			pos++;
	}
}

static void do_loop(struct prefetch *p, struct ir_cf *loop, struct ir_cf_list *list,
		    uint32_t old_ids, bool *carry)
{
	p->loop = loop;
	p->pre = NULL;
	if (!loop_qualifies(p))
		return;
	p->exit_cond = final_exit(loop);
	bool quad_ok = false;
	if (!loop->parent) {
		find_varying_phis(p);
		quad_ok = breaks_uniform(p, &loop->body);
	}
	struct ir_instr *cand[PF_MAX_TEX_PER_LOOP];
	int ncand = 0;
	for (const struct ir_cf *cf = loop->body.first; cf; cf = cf->next) {
		if (cf->kind != IR_CF_BLOCK)
			continue;
		for (struct ir_instr *in = cf->block.first; in; in = in->next)
			if (in->op == IR_OP_TEX && in->id < old_ids &&
			    (quad_ok || !ir_tex_kind_uses_quad(in->tex_kind)) && ncand < PF_MAX_TEX_PER_LOOP)
				cand[ncand++] = in;
	}
	for (int i = 0; i < ncand && !p->failed && p->tried++ < PF_MAX_TEX; i++) {
		/* positions change as clones come: mark them again */
		for (uint32_t k = 0; k < p->limit; k++)
			p->block_pos[k] = -2;
		mark_positions(p, &loop->body, 0);
		if (prefetch_tex(p, cand[i], list, carry))
			p->progress = true;
	}
}

/* Innermost loops first; only the lookups the program had at the start. */
static void walk_loops(struct prefetch *p, struct ir_cf_list *list, uint32_t old_ids, bool *carry)
{
	for (struct ir_cf *cf = list->first; cf && !p->failed; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			walk_loops(p, &cf->then_list, old_ids, carry);
			walk_loops(p, &cf->else_list, old_ids, carry);
		} else if (cf->kind == IR_CF_LOOP) {
			walk_loops(p, &cf->body, old_ids, carry);
			do_loop(p, cf, list, old_ids, carry);
		}
	}
}

/* Whether some loop of the list holds a lookup (the pass's tables are
 * sized by the function: a shader without one should not pay them). */
static bool loop_with_lookup(const struct ir_cf_list *list, bool in_loop)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = cf->block.first; in && in_loop; in = in->next)
				if (in->op == IR_OP_TEX)
					return true;
		} else if (cf->kind == IR_CF_IF) {
			if (loop_with_lookup(&cf->then_list, in_loop) ||
			    loop_with_lookup(&cf->else_list, in_loop))
				return true;
		} else if (loop_with_lookup(&cf->body, true)) {
			return true;
		}
	}
	return false;
}

bool ir_opt_loop_prefetch(struct ir_func *f)
{
	if (!loop_with_lookup(&f->body, false))
		return false;
	uint32_t old_ids = f->next_id;
	/* room for what 4 * PF_MAX_NODES per lookup may add, not more: the
	 * tables below are sized by it */
	uint64_t growth = 2048 + 4 * (uint64_t)f->next_id;
	uint64_t limit = (uint64_t)f->next_id + (growth < PF_GROWTH ? growth : PF_GROWTH);
	if (f->id_budget && limit > f->id_budget)
		limit = f->id_budget > f->next_id ? f->id_budget : f->next_id;
	struct prefetch p = { .f = f, .limit = (uint32_t)limit };
	size_t n = (size_t)p.limit + 1;
	p.block_pos = malloc(n * sizeof *p.block_pos);
	/* cleared by reset_maps before each lookup: not zeroed here too (the
	 * zeroing of these tables, sized for the clones to come, was 3 % of
	 * a compile with a lookup in a loop) */
	p.next = malloc(n * sizeof *p.next);
	p.init = malloc(n * sizeof *p.init);
	p.now = malloc(n * sizeof *p.now);
	p.now_seen = malloc(n * sizeof *p.now_seen);
	p.in_closure = calloc(n, sizeof *p.in_closure);
	bool *carry = calloc(n, sizeof *carry);
	p.phi_varies = calloc(n, sizeof *p.phi_varies);
	p.umemo = calloc(n, 1);

	p.closure = malloc(PF_MAX_NODES * sizeof *p.closure);
	p.stack = malloc((PF_MAX_NODES + 1) * sizeof *p.stack);
	p.stack_src = malloc((PF_MAX_NODES + 1) * sizeof *p.stack_src);
	if (p.block_pos && p.next && p.init && p.now && p.in_closure && carry && p.closure &&
	    p.stack && p.stack_src && p.phi_varies && p.umemo && p.now_seen)
		walk_loops(&p, &f->body, old_ids, carry);
	free(p.block_pos);
	free(p.next);
	free(p.init);
	free(p.now);
	free(p.in_closure);
	free(carry);
	free(p.phi_varies);
	free(p.umemo);
	free(p.now_seen);

	free(p.closure);
	free(p.stack);
	free(p.stack_src);
	return p.progress;
}
