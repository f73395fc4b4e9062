/* Loop unrolling: a LOOP whose exit is decided at compile time is replaced
 * by copies of its body.  The pass simulates the loop with ir_eval_op on
 * the part of the body whose values are constants (the loop-carried PHIs
 * start from constant entry values and are fed back each iteration); when
 * a BREAK is taken after N whole iterations, the loop becomes N copies of
 * the body plus the body up to that BREAK.  In each copy the head PHIs
 * become MOVs of the entry value (first copy) or of the previous copy's
 * end-of-body value; the BREAK IFs, whose outcome the simulation knows,
 * are dropped; the PHIs after the loop become MOVs of the value at the
 * BREAK taken.  Nested IFs and LOOPs are copied whole (their values count
 * as unknown, but the simulation runs the branch of an IF whose condition
 * it knows, and the PHIs after it); an inner loop is tried before the
 * loop holding it.
 * Shape handled: no CONTINUE of the loop; head PHIs with (entry, end of
 * body); every BREAK alone in one branch of an IF placed directly in the
 * body, the other branch empty, no PHIs after that IF; the values the
 * PHIs read defined outside the loop or in the body's own blocks.
 * Budgets: 64 iterations, 1024 copied instructions, and as many copied
 * instructions that are not constants as the target's cost model says a
 * program may have (ir_cost.h; the R500's 512 slots): past that the
 * program cannot fit, and the compile would fall back to keeping every
 * loop.  (Measured in executed cycles on piglit, the first
 * real-world corpus and corpus 2's training part: 256 left 34 trips of
 * glsl-fs-convolution-2 looping, 11x slower; 1024 gains nothing more and
 * loses loop_too_long_unrolled; more trips or copies change nothing.)
 * A loop over those budgets whose one BREAK leaves after an even number
 * of trips (simulated further, within a budget of simulated instructions
 * per run of the pass) gets its body twice per trip instead (below).
 * Cost: what the pass learns of an instruction of the loop lives in a
 * record its pass_data points to (NULL for everything else), so that
 * trying a loop costs time in the size of its body, not of the function.
 * Needs: valid IR.  Keeps: the ids of everything outside the loop (copies
 * get new ids), the order of side effects.  Leaves the MOVs and the dead
 * conditions for copy propagation, constant folding and DCE. */
#include "ir.h"
#include "ir_cost.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <string.h>

enum { MAX_ITERATIONS = 64, MAX_COPIED = 1024, MAX_GUARDS = 64 };

/* A break IF: its index among the loop's BREAKs and the branch holding it. */
struct break_if {
	const struct ir_cf *node;
	bool in_then;
};

/* What the pass knows of one instruction of the loop (its pass_data). */
struct body_rec {
	int32_t top;                  /* index+1 of the body's top-level node, 0 if nested */
	bool known;                   /* simulation: the value this iteration is val */
	float val[4];
	struct ir_instr *map, *prev_map; /* its copy in this / the last copy */
};

struct unroll {
	struct ir_func *f;
	struct ir_cf *loop;
	struct ir_instr **body;       /* every instruction of the loop, program order */
	struct body_rec *recs;        /* recs[i] belongs to body[i] */
	uint32_t nbody;
	struct break_if *breaks;
	int nbreaks;
	int trips;                    /* whole iterations before the exit */
	int64_t *work;                /* instructions partial unrolling may still
					 simulate in this run of the pass */
	int exit_break;               /* index of the BREAK taken */
	int nguards;                  /* BREAKs of unknown outcome the copies pass */
	int guard_at[MAX_GUARDS];     /* each one's trip * nbreaks + index */
	struct guard *guards;         /* [nguards]: the IFs copied for them */
	int nguard_made;
	/* where copies go: the list replacing the loop, or a guard's branch */
	struct ir_cf_list *out;
	struct ir_cf *out_parent;
};

/* A BREAK whose outcome the simulation does not know, in one copy: the
 * rest of the copies go into the branch of its IF that goes on, and the
 * PHIs after the loop get, after the IF, a PHI of the values at this
 * BREAK (vals, one per PHI) and those from the branch that goes on. */
struct guard {
	struct ir_cf *node;           /* the copy's IF */
	struct ir_cf_list *list;      /* the list holding it */
	struct ir_cf *parent;
	bool in_then;                 /* the BREAK's branch */
	struct ir_src *vals;
};

/* The record of an instruction of the loop; NULL outside it and for the
 * copies the pass makes. */
static struct body_rec *rec_of(const struct ir_instr *in)
{
	return in ? in->pass_data : NULL;
}

/* --- shape --- */

static bool is_empty_branch(const struct ir_cf_list *l)
{
	for (const struct ir_cf *c = l->first; c; c = c->next)
		if (c->kind != IR_CF_BLOCK || c->block.first)
			return false;
	return true;
}

static void collect(struct unroll *u, const struct ir_cf_list *list, int32_t top, bool count)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (top >= 0 && list == &u->loop->body)
			top++;
		int32_t t = list == &u->loop->body ? top : 0;
		if (cf->kind == IR_CF_BLOCK) {
			for (struct ir_instr *in = cf->block.first; in; in = in->next) {
				if (count) {
					u->nbody++;
					continue;
				}
				u->recs[u->nbody].top = t;
				in->pass_data = &u->recs[u->nbody];
				u->body[u->nbody++] = in;
			}
		} else if (cf->kind == IR_CF_IF) {
			collect(u, &cf->then_list, 0, count);
			collect(u, &cf->else_list, 0, count);
		} else {
			collect(u, &cf->body, 0, count);
		}
	}
}

/* A PHI source the copies can read: from outside the loop, or from the
 * body's own blocks before top-level node `limit` (1-based, inclusive). */
static bool src_reachable(const struct unroll *u, const struct ir_src *s, int32_t limit)
{
	(void)u;
	if (!s->def)
		return false;
	const struct body_rec *r = rec_of(s->def);
	if (!r)
		return true;
	return r->top > 0 && r->top <= limit;
}

static const struct ir_cf *head_block(const struct ir_cf *loop)
{
	const struct ir_cf *h = loop->body.first;
	return h && h->kind == IR_CF_BLOCK ? h : NULL;
}

static bool check_shape(struct unroll *u)
{
	struct ir_cf *loop = u->loop;
	int32_t ntop = 0, idx = 0;
	for (const struct ir_cf *cf = loop->body.first; cf; cf = cf->next)
		ntop++;
	u->breaks = arena_alloc(u->f->arena, sizeof *u->breaks * (size_t)(ntop + 1));
	if (!u->breaks)
		return false;
	for (const struct ir_cf *cf = loop->body.first; cf; cf = cf->next) {
		idx++;
		if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				if (in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE)
					return false;
			continue;
		}
		if (cf->kind != IR_CF_IF ||
		    !ir_cf_jumps(cf, IR_JUMP_ANY))
			continue;
		bool in_then = ir_cf_list_is_break(&cf->then_list) && is_empty_branch(&cf->else_list);
		bool in_else = ir_cf_list_is_break(&cf->else_list) && is_empty_branch(&cf->then_list);
		if (!in_then && !in_else)
			return false;
		const struct ir_cf *n = cf->next;
		if (n && n->kind == IR_CF_BLOCK && n->block.first && n->block.first->op == IR_OP_PHI)
			return false;
		u->breaks[u->nbreaks++] = (struct break_if){ cf, in_then };
	}
	if (u->nbreaks == 0)
		return false;
	const struct ir_cf *head = head_block(loop);
	for (const struct ir_instr *in = head ? head->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		if (in->nsrc != 2 || !src_reachable(u, &in->src[1], ntop))
			return false;
	/* the value at BREAK k: before its IF */
	const struct ir_cf *after = loop->next;
	for (const struct ir_instr *in = after && after->kind == IR_CF_BLOCK ? after->block.first :
									 NULL;
	     in && in->op == IR_OP_PHI; in = in->next) {
		if (in->nsrc != u->nbreaks)
			return false;
		for (int k = 0; k < u->nbreaks; k++) {
			int32_t pos = 0;
			for (const struct ir_cf *c = loop->body.first; c != u->breaks[k].node; c = c->next)
				pos++;
			if (!src_reachable(u, &in->src[k], pos))
				return false;
		}
	}
	return true;
}

/* --- simulation --- */

static bool src_value(const struct unroll *u, const struct ir_src *s, float out[4])
{
	(void)u;
	const struct ir_instr *d = s->def;
	const struct body_rec *r = rec_of(d);
	const float *v;
	if (d->op == IR_OP_CONST)
		v = d->imm;
	else if (r && r->known)
		v = r->val;
	else
		return false;
	for (int c = 0; c < 4; c++)
		out[c] = v[s->swz[c] & 3];
	return true;
}

static void eval_instr(struct unroll *u, const struct ir_instr *in)
{
	struct body_rec *r = rec_of(in);
	if (!r || in->op == IR_OP_PHI || !ir_op_is_evaluable(in->op))
		return;
	if (in->op == IR_OP_CONST) {
		memcpy(r->val, in->imm, sizeof in->imm);
		r->known = true;
		return;
	}
	float s[IR_MAX_SRCS][4];
	memset(s, 0, sizeof s);
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		if (!src_value(u, &in->src[i], s[i]))
			return;
	int src0_ncomp = in->nsrc > 0 ? ir_src_ncomp(u->f, in, 0) : 4;
	r->known = ir_eval_op(in->op, in->ncomp, src0_ncomp, (const float(*)[4])s, r->val);
}

/* The block's instructions; `taken` is the branch (0 then, 1 else) of
 * the IF before it whose condition was known, -1 when none: its PHIs take
 * that branch's value. */
static void eval_block(struct unroll *u, const struct ir_block *b, int taken)
{
	for (const struct ir_instr *in = b->first; in; in = in->next) {
		struct body_rec *r = rec_of(in);
		if (in->op == IR_OP_PHI && r && taken >= 0 && taken < in->nsrc)
			r->known = src_value(u, &in->src[taken], r->val);
		else
			eval_instr(u, in);
	}
}

/* A nested IF or LOOP of the body: the branch an IF whose condition is
 * known takes is run (a flag the frontend sets under a constant test is
 * then known, and with it the BREAK it feeds); returns that branch, or -1
 * (the PHIs after it unknown). */
static int eval_nested(struct unroll *u, const struct ir_cf *cf)
{
	float c[4];
	if (cf->kind != IR_CF_IF || !src_value(u, &cf->cond, c))
		return -1;
	const struct ir_cf_list *branch = c[0] != 0.0f ? &cf->then_list : &cf->else_list;
	int taken = -1;
	for (const struct ir_cf *n = branch->first; n; n = n->next) {
		if (n->kind != IR_CF_BLOCK) {
			taken = eval_nested(u, n);
			continue;
		}
		eval_block(u, &n->block, taken);
		taken = -1;
	}
	return c[0] != 0.0f ? 0 : 1;
}

/* Runs the loop on its constants; false when the exit is not decided
 * within the budgets. */
static bool simulate(struct unroll *u, int max_iterations, bool budgets, bool guards)
{
	const struct ir_cf *head = head_block(u->loop);
	int nphi = 0;
	for (const struct ir_instr *in = head ? head->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		nphi++;
	float (*phi_val)[4] = arena_alloc(u->f->arena, sizeof *phi_val * (size_t)(nphi + 1));
	bool *phi_known = arena_alloc(u->f->arena, sizeof *phi_known * (size_t)(nphi + 1));
	if (!phi_val || !phi_known)
		return false;
	uint32_t varying = 0;
	u->nguards = 0;
	for (int it = 0; it <= max_iterations; it++) {
		if (budgets && (uint32_t)(it + 1) * u->nbody > MAX_COPIED)
			return false;
		/* the PHIs read all together, from the last iteration's values */
		int p = 0;
		for (const struct ir_instr *in = head ? head->block.first : NULL;
		     in && in->op == IR_OP_PHI; in = in->next, p++)
			phi_known[p] = src_value(u, &in->src[it == 0 ? 0 : 1], phi_val[p]);
		for (uint32_t i = 0; i < u->nbody; i++)
			u->recs[i].known = false;
		p = 0;
		for (const struct ir_instr *in = head ? head->block.first : NULL;
		     in && in->op == IR_OP_PHI; in = in->next, p++) {
			struct body_rec *r = rec_of(in);
			r->known = phi_known[p];
			memcpy(r->val, phi_val[p], sizeof phi_val[p]);
		}
		int k = 0, taken = -1;
		for (const struct ir_cf *cf = u->loop->body.first; cf; cf = cf->next) {
			if (cf->kind == IR_CF_BLOCK) {
				eval_block(u, &cf->block, taken);
				taken = -1;
				continue;
			}
			if (k >= u->nbreaks || cf != u->breaks[k].node) {
				taken = eval_nested(u, cf);
				continue;
			}
			float c[4];
			taken = -1;
			if (!src_value(u, &cf->cond, c)) {
				/* copies go on under a guard (the exit itself must
				 * be known, at another BREAK) */
				if (!guards || u->nguards == MAX_GUARDS)
					return false;
				u->guard_at[u->nguards++] = it * u->nbreaks + k;
				k++;
				continue;
			}
			if ((c[0] != 0.0f) == u->breaks[k].in_then) {
				u->trips = it;
				u->exit_break = k;
				return true;
			}
			k++;
		}
		for (uint32_t i = 0; i < u->nbody; i++)
			varying += !u->recs[i].known;
		if (budgets && varying > (uint32_t)ir_cost(u->f)->max_instructions)
			return false;
	}
	return false;
}

/* --- copying --- */

static struct ir_instr *clone_instr(struct unroll *u, const struct ir_instr *in)
{
	struct ir_instr *c = ir_instr_copy(u->f, in);
	if (!c)
		return NULL;
	struct body_rec *r = rec_of(in);
	if (r)
		r->map = c;
	return c;
}

static bool clone_list(struct unroll *u, const struct ir_cf_list *from, struct ir_cf_list *to,
		       struct ir_cf *parent)
{
	for (const struct ir_cf *cf = from->first; cf; cf = cf->next) {
		struct ir_cf *n = ir_cf_create(u->f, cf->kind, parent);
		if (!n)
			return false;
		ir_cf_list_append(to, n);
		if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
				struct ir_instr *c = clone_instr(u, in);
				if (!c)
					return false;
				ir_block_append(&n->block, c);
			}
		} else if (cf->kind == IR_CF_IF) {
			n->cond = cf->cond;
			if (!clone_list(u, &cf->then_list, &n->then_list, n) ||
			    !clone_list(u, &cf->else_list, &n->else_list, n))
				return false;
		} else if (!clone_list(u, &cf->body, &n->body, n)) {
			return false;
		}
	}
	return true;
}

/* The source read from this copy (or, `prev`, from the last copy). */
static struct ir_src remap(struct ir_src s, bool prev)
{
	const struct body_rec *r = rec_of(s.def);
	struct ir_instr *c = r ? (prev ? r->prev_map : r->map) : NULL;
	if (c)
		s.def = c;
	return s;
}

/* Points the copies' sources at this copy's values. */
static void fix_list(struct unroll *u, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			for (struct ir_instr *in = cf->block.first; in; in = in->next)
				for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
					in->src[i] = remap(in->src[i], false);
		} else if (cf->kind == IR_CF_IF) {
			cf->cond = remap(cf->cond, false);
			fix_list(u, &cf->then_list);
			fix_list(u, &cf->else_list);
		} else {
			fix_list(u, &cf->body);
		}
	}
}

/* A new block at the end of the list copies go to. */
static struct ir_block *new_block(struct unroll *u)
{
	struct ir_cf *n = ir_cf_create(u->f, IR_CF_BLOCK, u->out_parent);
	if (!n)
		return NULL;
	ir_cf_list_append(u->out, n);
	return &n->block;
}

/* The block at the end of the list copies go to, made when missing. */
static struct ir_block *tail_block(struct unroll *u)
{
	if (u->out->last && u->out->last->kind == IR_CF_BLOCK)
		return &u->out->last->block;
	return new_block(u);
}

static struct ir_cf *after_block(const struct ir_cf *loop)
{
	const struct ir_cf *a = loop->next;
	return a && a->kind == IR_CF_BLOCK ? (struct ir_cf *)a : NULL;
}

/* The copy of break IF k (cf) whose outcome is unknown: an IF with the
 * BREAK's branch empty; the copies go on in its other branch, and the
 * values the PHIs after the loop take at this BREAK are kept. */
static bool open_guard(struct unroll *u, const struct ir_cf *cf, int k)
{
	struct guard *g = &u->guards[u->nguard_made++];
	struct ir_cf *n = ir_cf_create(u->f, IR_CF_IF, u->out_parent);
	const struct ir_cf *after = after_block(u->loop);
	int nphi = 0;
	for (const struct ir_instr *in = after ? after->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		nphi++;
	g->vals = arena_alloc(u->f->arena, sizeof *g->vals * (size_t)(nphi + 1));
	if (!n || !g->vals)
		return false;
	n->cond = remap(cf->cond, false);
	ir_cf_list_append(u->out, n);
	g->node = n;
	g->list = u->out;
	g->parent = u->out_parent;
	g->in_then = u->breaks[k].in_then;
	int p = 0;
	for (const struct ir_instr *in = after ? after->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		g->vals[p++] = remap(in->src[k], false);
	u->out = g->in_then ? &n->else_list : &n->then_list;
	u->out_parent = n;
	return true;
}

/* The PHIs after the loop's guards, innermost first: each takes the
 * values at its BREAK and those from the branch that went on (vals[p],
 * updated to the PHI made). */
static bool close_guards(struct unroll *u, struct ir_src *vals)
{
	const struct ir_cf *after = after_block(u->loop);
	for (int i = u->nguard_made - 1; i >= 0; i--) {
		const struct guard *g = &u->guards[i];
		u->out = g->list;
		u->out_parent = g->parent;
		struct ir_block *bl = new_block(u);
		if (!bl)
			return false;
		int p = 0;
		for (const struct ir_instr *in = after ? after->block.first : NULL;
		     in && in->op == IR_OP_PHI; in = in->next, p++) {
			struct ir_instr *phi = ir_instr_copy(u->f, in);
			if (!phi)
				return false;
			phi->nsrc = 2;
			phi->src[g->in_then ? 0 : 1] = g->vals[p];
			phi->src[g->in_then ? 1 : 0] = vals[p];
			ir_block_append(bl, phi);
			vals[p] = ir_src_of(phi);
		}
	}
	return true;
}

/* One copy of the body into u->out (a part of `out`); the last one stops
 * at the BREAK taken. */
static bool copy_body(struct unroll *u, int it, struct ir_cf_list *out)
{
	for (uint32_t i = 0; i < u->nbody; i++) {
		u->recs[i].prev_map = u->recs[i].map;
		u->recs[i].map = NULL;
	}
	const struct ir_cf *head = head_block(u->loop);
	const struct ir_instr *in = head ? head->block.first : NULL;
	for (; in && in->op == IR_OP_PHI; in = in->next) {
		struct ir_block *bl = tail_block(u);
		struct ir_instr *mov = bl ? clone_instr(u, in) : NULL;
		if (!mov)
			return false;
		mov->op = IR_OP_MOV;
		mov->nsrc = 1;
		mov->src[0] = it == 0 ? in->src[0] : remap(in->src[1], true);
		memset(&mov->src[1], 0, sizeof mov->src[1]);
		ir_block_append(bl, mov);
	}
	int k = 0;
	for (const struct ir_cf *cf = u->loop->body.first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			const struct ir_instr *i0 = cf == head ? in : cf->block.first;
			for (const struct ir_instr *i = i0; i; i = i->next) {
				/* PHIs after a nested IF/LOOP stay at the start of their block */
				struct ir_block *bl = i->op == IR_OP_PHI && i == cf->block.first ?
							      new_block(u) : tail_block(u);
				struct ir_instr *c = bl ? clone_instr(u, i) : NULL;
				if (!c)
					return false;
				ir_block_append(bl, c);
			}
			continue;
		}
		if (k < u->nbreaks && cf == u->breaks[k].node) {
			if (it == u->trips && k == u->exit_break)
				break;
			if (u->nguard_made < u->nguards &&
			    u->guard_at[u->nguard_made] == it * u->nbreaks + k && !open_guard(u, cf, k))
				return false;
			k++;
			continue;
		}
		struct ir_cf_list one = { 0 };
		struct ir_cf tmp = *cf;
		tmp.prev = tmp.next = NULL;
		struct ir_cf_list src = { &tmp, &tmp };
		if (!clone_list(u, &src, &one, u->out_parent))
			return false;
		ir_cf_list_append(u->out, one.first);
	}
	fix_list(u, out);
	return true;
}

/* Replaces the loop by `out` in `list`; the PHIs after it become MOVs of
 * vals. */
static void replace_loop(struct unroll *u, struct ir_cf_list *list, struct ir_cf_list *out,
			 const struct ir_src *vals)
{
	struct ir_cf *loop = u->loop, *after = after_block(loop);
	int p = 0;
	for (struct ir_instr *in = after ? after->block.first : NULL; in && in->op == IR_OP_PHI;
	     in = in->next) {
		in->src[0] = vals[p++];
		in->nsrc = 1;
		in->op = IR_OP_MOV;
	}
	ir_cf_list_splice(list, loop, out);
	ir_cf_list_merge_blocks(list);
}

/* --- partial unrolling ---
 * A loop too long to unroll whose one BREAK leaves after an even number
 * of whole trips runs its body twice per trip: the second copy has no
 * BREAK (on the trips it runs, the first copy's did not leave, and the
 * count is even, so neither would the second's), and the loop PHIs take
 * the second copy's values.  Two independent trips in one block let the
 * scheduler pair their work (warp: two chains of dependent DP3 / RCP /
 * MAD, each alone in its slots).  Once per loop (ir_cf.doubled). */
enum { PARTIAL_MAX_BODY = 160, PARTIAL_MIN_TRIPS = 8, PARTIAL_MAX_WORK = 1 << 18 };

static bool unroll_twice(struct unroll *u)
{
	struct ir_cf *loop = u->loop;
	if (loop->doubled || u->nbreaks != 1 || u->nbody > PARTIAL_MAX_BODY)
		return false;
	/* a uniform array read at the counter is one c[aL + n] operand per
	 * read in a loop the backend counts (loop_rel.c); doubled, the second
	 * copy's counter is no longer the loop's own */
	for (uint32_t i = 0; i < u->nbody; i++)
		if (u->body[i]->op == IR_OP_UNIFORM && u->body[i]->nsrc > 0)
			return false;
	int64_t max_it = PARTIAL_MAX_WORK / (int64_t)(u->nbody + 1);
	if (max_it * (int64_t)(u->nbody + 1) > *u->work)
		max_it = *u->work / (int64_t)(u->nbody + 1);
	if (max_it < 2)
		return false;
	bool found = simulate(u, (int)max_it, false, false);
	*u->work -= (int64_t)((found ? u->trips + 1 : max_it) + 1) * (int64_t)(u->nbody + 1);
	/* a few trips do not pay for a second copy of the body (the code
	 * grows by one body; each trip saves a test and its jumps) */
	if (!found || u->trips < PARTIAL_MIN_TRIPS || u->trips % 2 || u->exit_break != 0)
		return false;
	if (u->f->id_budget && (uint64_t)u->f->next_id + u->nbody > u->f->id_budget)
		return false;
	/* copy 2 reads copy 1, the loop's own instructions, as its "previous
	 * copy": copy_body moves map to prev_map */
	for (uint32_t i = 0; i < u->nbody; i++)
		u->recs[i].map = u->body[i];
	struct ir_cf_list out = { 0 };
	u->out = &out;
	u->out_parent = loop->parent;
	if (!copy_body(u, 1, &out))
		return false;
	/* copy_body's fix-up pointed the loop PHIs' MOVs at copy 2 itself:
	 * they take the values at copy 1's end */
	const struct ir_cf *head = head_block(loop);
	struct ir_instr *mov = out.first && out.first->kind == IR_CF_BLOCK ?
			       out.first->block.first : NULL;
	for (struct ir_instr *phi = head ? head->block.first : NULL; phi && phi->op == IR_OP_PHI;
	     phi = phi->next, mov = mov ? mov->next : NULL) {
		if (!mov || mov->op != IR_OP_MOV)
			return false; /* not copy_body's shape: cannot happen */
		mov->src[0] = phi->src[1];
	}
	for (struct ir_instr *phi = head ? head->block.first : NULL; phi && phi->op == IR_OP_PHI;
	     phi = phi->next)
		phi->src[1] = remap(phi->src[1], false);
	for (struct ir_cf *c = out.first; c; c = c->next)
		c->parent = loop;
	if (out.first) {
		out.first->prev = loop->body.last;
		if (loop->body.last)
			loop->body.last->next = out.first;
		else
			loop->body.first = out.first;
		loop->body.last = out.last;
	}
	ir_cf_list_merge_blocks(&loop->body);
	loop->doubled = true;
	return true;
}

/* Unrolls with the records in place; false leaves the function as it was. */
static bool unroll_loop(struct unroll *u, struct ir_cf_list *list)
{
	if (!check_shape(u))
		return false;
	if (!simulate(u, MAX_ITERATIONS, true, true))
		return unroll_twice(u);
	const struct ir_cf *after = after_block(u->loop);
	uint32_t nphi = 0;
	for (const struct ir_instr *in = after ? after->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		nphi++;
	/* the growth budget (LIMIT_IR_INSTRUCTIONS): copies get new ids */
	if (u->f->id_budget && (uint64_t)u->f->next_id + (uint64_t)(u->trips + 1) * u->nbody +
					   (uint64_t)u->nguards * nphi > u->f->id_budget)
		return false;
	struct ir_cf_list out = { 0 };
	u->out = &out;
	u->out_parent = u->loop->parent;
	u->guards = arena_alloc(u->f->arena, sizeof *u->guards * (size_t)(u->nguards + 1));
	struct ir_src *vals = arena_alloc(u->f->arena, sizeof *vals * (nphi + 1));
	if (!u->guards || !vals)
		return false;
	for (int it = 0; it <= u->trips; it++)
		if (!copy_body(u, it, &out))
			return false; /* out of memory: the function is untouched */
	uint32_t p = 0;
	for (const struct ir_instr *in = after ? after->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		vals[p++] = remap(in->src[u->exit_break], false);
	if (!close_guards(u, vals))
		return false;
	replace_loop(u, list, &out, vals);
	return true;
}

static bool try_unroll(struct ir_func *f, struct ir_cf_list *list, struct ir_cf *loop,
		       int64_t *work)
{
	struct arena *a = f->arena;
	struct unroll u = { .f = f, .loop = loop, .work = work };
	collect(&u, &loop->body, 0, true);
	if (u.nbody > MAX_COPIED)
		return false; /* not even one copy fits: skip the records */
	u.body = arena_alloc(a, sizeof *u.body * (u.nbody + 1));
	u.recs = arena_alloc(a, sizeof *u.recs * (u.nbody + 1));
	if (!u.body || !u.recs)
		return false;
	memset(u.recs, 0, sizeof *u.recs * (u.nbody + 1));
	u.nbody = 0;
	collect(&u, &loop->body, 0, false);
	bool done = unroll_loop(&u, list);
	for (uint32_t i = 0; i < u.nbody; i++)
		u.body[i]->pass_data = NULL;
	f->unrolled_loops += done;
	return done;
}

static bool unroll_list(struct ir_func *f, struct ir_cf_list *list, int64_t *work)
{
	bool progress = false;
	for (struct ir_cf *cf = list->first, *next; cf; cf = next) {
		next = cf->next;
		if (cf->kind == IR_CF_IF) {
			progress |= unroll_list(f, &cf->then_list, work);
			progress |= unroll_list(f, &cf->else_list, work);
		} else if (cf->kind == IR_CF_LOOP) {
			progress |= unroll_list(f, &cf->body, work);
			progress |= try_unroll(f, list, cf, work);
		}
	}
	return progress;
}

bool ir_opt_loop_unroll(struct ir_func *f)
{
	ir_clear_pass_data(f);
	int64_t work = PARTIAL_MAX_WORK; /* for all the loops of one run */
	return unroll_list(f, &f->body, &work);
}
