/* Scalar factors of a vector product gathered into one scalar op
 * (fp-inexact by a rounding, as GLSL allows, like the algebraic rules):
 *   (x * a) * b  ->  x * (a * b)        (x * a) / b  ->  x * (a / b)
 *   (x / a) * b  ->  x * (b / a)        (x / a) / b  ->  x / (a * b)
 * with x a vector and a, b scalars read in every component (a replicated
 * swizzle), the inner op read by the outer one only; |x * a| is |x| * |a|
 * and -(x * a) is x * -a, so an ABS or NEG between them moves to the
 * scalar (and to x, a free source modifier).
 * The R500 then makes the scalar in its alpha unit and keeps one vector
 * op in RGB: warp's step, |p * 2.04| / dot(p, p) - 0.9, takes two RGB
 * slots instead of three; normalize(v) * k one vector product.
 * Both scalars constant is the algebraic rules' case (mul_mul folds them).
 * Not a rule of ir/algebraic_rules.c: whether it pays depends on the
 * length of the chains to the op (a depth measured over the whole
 * function before the walk), and the reader counts it asks are kept up to
 * date as it rewrites (x gains a reader each time).
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (the new
 * ops get fresh ids).  Leaves the inner ops to DCE. */
#include "ir.h"
#include "ir_pass.h"

#include <stdlib.h>

/* Whether s reads one component in its first n entries; its index. */
static bool replicated(const struct ir_src *s, int n, int *comp)
{
	for (int c = 1; c < n; c++)
		if ((s->swz[c] & 3) != (s->swz[0] & 3))
			return false;
	*comp = s->swz[0] & 3;
	return true;
}

/* The source reading component comp of s's value in every entry. */
static struct ir_src scalar_of(const struct ir_src *s, int comp)
{
	struct ir_src r = *s;
	for (int c = 0; c < 4; c++)
		r.swz[c] = (uint8_t)comp;
	return r;
}

struct gather {
	struct ir_func *f;
	uint16_t *uses;   /* by id: readers (saturating) */
	uint16_t *depth;  /* by id: ops on the longest chain to it (PHIs 0) */
	uint32_t n;
	bool failed, progress;
};

static int depth_of(const struct gather *g, const struct ir_src *s)
{
	return s->def && s->def->id < g->n ? g->depth[s->def->id] : 0;
}

static bool used_once(const struct gather *g, const struct ir_instr *d)
{
	return d && d->id < g->n && g->uses[d->id] == 1;
}

/* Each value's depth, in program order (a PHI's sources come later). */
static void measure_depth(struct ir_instr *in, void *ud)
{
	struct gather *g = ud;
	int depth = 0;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		if (in->op != IR_OP_PHI && depth < depth_of(g, &in->src[i]))
			depth = depth_of(g, &in->src[i]);
	if (in->id < g->n)
		g->depth[in->id] = (uint16_t)(depth + (depth < UINT16_MAX - 1 && in->nsrc > 0));
}

/* A new op before `at` (NULL and g->failed when memory ran out). */
static struct ir_instr *op_before(struct gather *g, struct ir_instr *at, enum ir_op op, int ncomp,
				  int nsrc, const struct ir_src *src)
{
	struct ir_instr *r = ir_build_before(g->f, at, op, ncomp, IR_FLOAT, nsrc, src);
	g->failed |= !r;
	return r;
}

static bool gather_in(struct gather *g, struct ir_instr *in)
{
	int n = in->ncomp, bc;
	if (n < 2 || in->base != IR_FLOAT || (in->op != IR_OP_MUL && in->op != IR_OP_DIV))
		return false;
	/* the outer scalar b, and the other source o */
	int bi = -1;
	for (int i = in->op == IR_OP_DIV ? 1 : 0; i < 2 && bi < 0; i++)
		if (replicated(&in->src[i], n, &bc) && !replicated(&in->src[1 - i], n, &(int){ 0 }))
			bi = i;
	if (bi < 0)
		return false;
	const struct ir_src *os = &in->src[1 - bi];
	struct ir_instr *mod = NULL, *inner = os->def;
	uint8_t through[4] = { os->swz[0], os->swz[1], os->swz[2], os->swz[3] };
	if (inner && (inner->op == IR_OP_ABS || inner->op == IR_OP_NEG) && used_once(g, inner)) {
		mod = inner;
		struct ir_src t = ir_src_through(&mod->src[0], through);
		for (int c = 0; c < 4; c++)
			through[c] = t.swz[c];
		inner = mod->src[0].def;
	}
	if (!inner || inner->base != IR_FLOAT || !used_once(g, inner) ||
	    (inner->op != IR_OP_MUL && inner->op != IR_OP_DIV))
		return false;
	/* the inner scalar a (the divisor of a DIV), and x */
	int ai = -1, ac;
	for (int i = inner->op == IR_OP_DIV ? 1 : 0; i < 2 && ai < 0; i++) {
		struct ir_src a = ir_src_through(&inner->src[i], through);
		struct ir_src x = ir_src_through(&inner->src[1 - i], through);
		if (replicated(&a, n, &ac) && !replicated(&x, n, &(int){ 0 }))
			ai = i;
	}
	if (ai < 0)
		return false;
	struct ir_src a = scalar_of(&inner->src[ai], inner->src[ai].swz[through[0] & 3] & 3);
	struct ir_src b = scalar_of(&in->src[bi], bc);
	if (ir_src_float_const(&a) && ir_src_float_const(&b))
		return false; /* the algebraic rules fold the constants */
	/* outside loops, only where the chain to `in` gets no longer: when b
	 * comes last, (x * a) is made while b is awaited, and a * b would
	 * follow it (phong's reflect, 2 * n * dot(n, l)); in a loop the RGB
	 * slot pays, a trip's chains interleaving with the next's */
	int dx = depth_of(g, &inner->src[1 - ai]), da = depth_of(g, &inner->src[ai]);
	int db = depth_of(g, &in->src[bi]);
	int before = (dx > da ? dx : da) + 1, after = (da > db ? da : db) + 1;
	before = (before > db ? before : db) + 1;
	after = (after > dx ? after : dx) + 1;
	if (after > before && !ir_cf_loop_around(ir_instr_cf(in))) /* not in a loop */
		return false;
	struct ir_src x = ir_src_through(&inner->src[1 - ai], through);
	if (mod) { /* |x * a| = |x| * |a|, -(x * a) = x * -a */
		struct ir_instr *ma = op_before(g, in, mod->op, 1, 1, &a);
		if (!ma)
			return false;
		a = ir_src_of(ma);
		if (mod->op == IR_OP_ABS) {
			struct ir_instr *mx = op_before(g, in, IR_OP_ABS, n, 1, &x);
			if (!mx)
				return false;
			x = ir_src_of(mx);
		}
	}
	bool inner_div = inner->op == IR_OP_DIV, outer_div = in->op == IR_OP_DIV;
	enum ir_op sop = inner_div == outer_div ? IR_OP_MUL : IR_OP_DIV;
	/* (x*a)*b: a*b; (x*a)/b: a/b; (x/a)*b: b/a; (x/a)/b: a*b, x / it */
	struct ir_src s0 = inner_div && !outer_div ? b : a, s1 = inner_div && !outer_div ? a : b;
	struct ir_instr *s = op_before(g, in, sop, 1, 2, (struct ir_src[]){ s0, s1 });
	if (!s)
		return false;
	in->op = inner_div && outer_div ? IR_OP_DIV : IR_OP_MUL;
	in->src[0] = x;
	in->src[1] = ir_src_comp(s, 0);
	/* x's value has one reader more (the inner op, dead now, is still
	 * counted: x is then never taken for a value read once) */
	if (x.def && x.def->id < g->n && g->uses[x.def->id] < UINT16_MAX)
		g->uses[x.def->id]++;
	return true;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct gather *g = ud;
	if (!g->failed && in->id < g->n && gather_in(g, in))
		g->progress = true;
}

static bool mul_or_div(const struct ir_instr *in)
{
	return in && (in->op == IR_OP_MUL || in->op == IR_OP_DIV);
}

/* A vector MUL or DIV reading one, maybe through an ABS or NEG: what
 * gather_in needs before it looks closer.  Without one the pass skips
 * its reader counts and depths (most of its cost on a small function). */
static bool may_gather(const struct ir_instr *in, void *ud)
{
	(void)ud;
	if (in->ncomp < 2 || in->base != IR_FLOAT || !mul_or_div(in))
		return false;
	for (int i = 0; i < 2; i++) {
		const struct ir_instr *d = in->src[i].def;
		if (d && (d->op == IR_OP_ABS || d->op == IR_OP_NEG))
			d = d->src[0].def;
		if (mul_or_div(d))
			return true;
	}
	return false;
}

bool ir_opt_scalar_factor(struct ir_func *f)
{
	if (!ir_any_instr(f, may_gather, NULL))
		return false;
	size_t n = (size_t)f->next_id + 1;
	struct gather g = { f, ir_count_uses(f), calloc(n, sizeof(uint16_t)), f->next_id, false,
			    false };
	if (!g.uses || !g.depth) {
		free(g.uses);
		free(g.depth);
		return false;
	}
	ir_foreach_instr(f, measure_depth, &g);
	/* the ops made go before the one visited: the walk does not see them */
	ir_foreach_instr(f, visit, &g);
	free(g.uses);
	free(g.depth);
	return g.progress;
}
