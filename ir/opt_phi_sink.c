/* An op both sides of an IF end with moves below it: a PHI after an IF
 * merging op(a, k) from one side and op(b, k) from the other is op(phi(a,
 * b), k), one op instead of two.  `if (c) o = s * x; else o = s * y;`
 * (a split-screen effect's opacity on both halves) multiplies once.
 *
 * A PHI after an IF of two or more components qualifies when both its
 * sources read, unswizzled, a value of its width made by the same
 * lane-wise float op (not a
 * derivative or a lookup), read by nothing else, whose sources agree at
 * every position but at most one: there they meet in a new PHI; the
 * others must be made outside the IF (visible after it), or be loads of
 * one uniform, input or constant, which each side made for itself and
 * which are made again after the IF.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (new PHIs
 * and ops get fresh ids; the old ops are left to DCE). */
#include "ir.h"
#include "ir_pass.h"

#include <stdlib.h>
#include <string.h>

struct sink {
	struct ir_func *f;
	uint16_t *uses;            /* by id, ids below n */
	uint32_t n;
	bool failed, progress;
};

/* A lane-wise float op of float sources with no neighbours. */
static bool sinkable_op(const struct ir_instr *in)
{
	const struct ir_op_info *oi = &ir_op_infos[in->op];
	return in->base == IR_FLOAT && in->op != IR_OP_MOV && (oi->flags & IRF_COMPWISE) &&
	       !(oi->flags & (IRF_QUAD | IRF_BOOL | IRF_SIDE)) && oi->src_type == 'f' &&
	       oi->res_type == 'f' && in->nsrc >= 1 && in->nsrc <= IR_MAX_SRCS;
}

/* The IF the PHI follows, or NULL (a loop's PHIs). */
static const struct ir_cf *if_before(const struct ir_instr *phi)
{
	const struct ir_cf *b = ir_instr_cf(phi);
	return b && b->prev && b->prev->kind == IR_CF_IF ? b->prev : NULL;
}

/* The op one side gives the PHI through source s, or NULL. */
static struct ir_instr *side_op(const struct sink *s, const struct ir_instr *phi,
				const struct ir_src *src)
{
	struct ir_instr *d = src->def;
	if (!d || d->id >= s->n || s->uses[d->id] != 1 ||
	    d->ncomp != phi->ncomp || !ir_swz_identity(src, phi->ncomp) || !sinkable_op(d))
		return NULL;
	return d;
}

/* A value of no sources: a uniform, an input or a constant. */
static bool is_load(const struct ir_instr *d)
{
	return d && d->nsrc == 0 &&
	       (d->op == IR_OP_UNIFORM || d->op == IR_OP_INPUT || d->op == IR_OP_CONST);
}

/* Whether sources x and y read the same value: the same one, or loads of
 * the same thing, in the same components. */
static bool agree_at(const struct ir_src *x, const struct ir_src *y, int n)
{
	if (ir_src_same(x, y, n))
		return true;
	const struct ir_instr *a = x->def, *b = y->def;
	if (!is_load(a) || !is_load(b) || a->op != b->op || a->index != b->index ||
	    a->offset != b->offset || a->ncomp != b->ncomp || a->base != b->base ||
	    memcmp(a->imm, b->imm, sizeof a->imm) != 0)
		return false;
	for (int c = 0; c < n; c++)
		if ((x->swz[c] & 3) != (y->swz[c] & 3))
			return false;
	return true;
}

/* The one position where a and b read different values (-1: none), or
 * -2 when they differ in more, or share a value made inside `at` that is
 * no load. */
static int differing_position(const struct ir_instr *a, const struct ir_instr *b,
			      const struct ir_cf *at)
{
	int p = -1;
	for (int i = 0; i < a->nsrc; i++) {
		if (agree_at(&a->src[i], &b->src[i], a->ncomp)) {
			const struct ir_instr *d = a->src[i].def;
			if (!d || (ir_instr_inside(d, at) && !is_load(d)))
				return -2;
			continue;
		}
		if (p >= 0)
			return -2;
		p = i;
	}
	return p;
}

/* `in` (in no block) into phi's block after its PHIs: before `next`, the
 * first instruction after them, or last when there is none. */
static void place(struct ir_instr *phi, struct ir_instr *next, struct ir_instr *in)
{
	if (next)
		ir_instr_insert_before(next, in);
	else
		ir_block_append(phi->block, in);
}

/* The first instruction after the PHIs of phi's block, or NULL. */
static struct ir_instr *after_phis(struct ir_instr *phi)
{
	struct ir_instr *in = phi;
	while (in && in->op == IR_OP_PHI)
		in = in->next;
	return in;
}

static void try_phi(struct sink *s, struct ir_instr *phi)
{
	/* scalars are left: two scalar ops ride in the alpha unit beside
	 * vector work (and 1 - x is a free presubtract of its reader), so
	 * one op after the PHI seldom saves an instruction (stellarium's
	 * planet lost 8) */
	const struct ir_cf *at = if_before(phi);
	if (!at || phi->nsrc != 2 || phi->base != IR_FLOAT || phi->ncomp < 2)
		return;
	struct ir_instr *a = side_op(s, phi, &phi->src[0]), *b = side_op(s, phi, &phi->src[1]);
	if (!a || !b || a == b || a->op != b->op || a->nsrc != b->nsrc)
		return;
	int p = differing_position(a, b, at);
	if (p == -2)
		return;
	struct ir_src src[IR_MAX_SRCS];
	for (int i = 0; i < a->nsrc; i++)
		src[i] = a->src[i];
	if (p >= 0) { /* the differing sources meet in a PHI beside this one */
		struct ir_instr *m = ir_build_before(s->f, phi, IR_OP_PHI, a->ncomp, IR_FLOAT, 2,
						     (struct ir_src[]){ a->src[p], b->src[p] });
		if (!m) {
			s->failed = true;
			return;
		}
		src[p] = ir_src_of(m);
	}
	struct ir_instr *next = after_phis(phi);
	for (int i = 0; i < a->nsrc; i++) {
		struct ir_instr *d = src[i].def;
		if (i == p || !ir_instr_inside(d, at))
			continue;
		struct ir_instr *load = ir_instr_copy(s->f, d); /* made again after the IF */
		if (!load) {
			s->failed = true;
			return;
		}
		place(phi, next, load);
		src[i].def = load;
	}
	struct ir_instr *op = ir_instr_copy(s->f, a);
	if (!op) {
		s->failed = true;
		return;
	}
	for (int i = 0; i < a->nsrc; i++)
		op->src[i] = src[i];
	op->loc = phi->loc;
	place(phi, next, op);
	ir_forward(phi, op);
	s->uses[a->id] = s->uses[b->id] = 0; /* taken: not sunk twice */
	s->progress = true;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct sink *s = ud;
	if (in->op == IR_OP_PHI && !s->failed)
		try_phi(s, in);
}

bool ir_opt_phi_sink(struct ir_func *f)
{
	if (!ir_func_has_flow(f))
		return false;
	struct sink s = { .f = f, .n = f->next_id };
	s.uses = ir_count_uses(f);
	if (s.uses) {
		ir_foreach_instr(f, visit, &s);
		if (s.progress)
			ir_apply_forwards(f);
	}
	free(s.uses);
	return s.progress;
}
