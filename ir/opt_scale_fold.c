/* Constant scales folded into the constant coefficients of a linear form
 * (fp-inexact by a rounding, as GLSL allows, like the algebraic rules):
 *   (M * p) * k      -> M' * p      a constant scale of a sum of constant
 *                                   multiples (mat * vec as MUL and MAD,
 *                                   vec * mat as DOTs and their VEC, ADD,
 *                                   SUB, NEG): the multiples take k
 *   dot(p * k, c)    -> dot(p, k * c)      mad(p * k, c, y) -> mad(p, k * c, y)
 *                                   when every reader of p * k takes it so
 * with / k as * (1 / k).  Shadertoy's fbm steps, p = m * p * 2.02 and
 * p = p * 2.0 * m, lose their scaling product.  The first form rewrites
 * the values of its tree in place, so every op of the tree must have one
 * reader (the next op of the tree).
 * Not rules of ir/algebraic_rules.c: the first form is a tree of any
 * shape up to MAX_DEPTH ops (no fixed pattern), the second asks how
 * every reader of x * k takes it (a count over the whole function).
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (new
 * constants get fresh ids; the scaling op becomes a MOV for copy_prop).
 * Leaves the dead products to DCE. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <math.h>
#include <stdlib.h>

enum { MAX_DEPTH = 8 };

struct fold {
	struct ir_func *f;
	uint16_t *uses;      /* by id: readers (ir_count_uses) */
	uint16_t *foldable;  /* by id: readers taking it as dot(p * k, c) takes it */
	uint32_t n;
	bool failed, progress;
};

static bool used_once(const struct fold *s, const struct ir_instr *d)
{
	return d && d->id < s->n && s->uses[d->id] == 1;
}

/* Whether s reads a float constant and t does not. */
static bool const_beside(const struct ir_src *s, const struct ir_src *t)
{
	return ir_src_float_const(s) && !ir_src_float_const(t);
}

/* Replaces constant source i of `in` (entries 0..n-1) by itself scaled,
 * entry e by scale[e]: one component read in every entry when the
 * entries are equal (a replicated constant is a scalar to isel). */
static void scale_src(struct fold *s, struct ir_instr *in, int i, int n, const float scale[4])
{
	float v[4] = { 0, 0, 0, 0 };
	bool same = true;
	for (int e = 0; e < n; e++) {
		v[e] = ir_src_const_comp(&in->src[i], e) * scale[e];
		same &= v[e] == v[0] && signbit(v[e]) == signbit(v[0]);
	}
	struct ir_instr *k = ir_build_const_before(s->f, in, same ? 1 : n, IR_FLOAT, v);
	s->failed |= !k;
	if (k)
		in->src[i] = ir_src_of(k);
}

/* The scale of each component of src's value when entry i of the reader
 * scales by by[i], entries 0..n-1; false when two entries read one
 * component at different scales.  Components not read keep 1. */
static bool scale_through(const struct ir_src *src, int n, const float by[4], float out[4])
{
	bool set[4] = { false, false, false, false };
	for (int c = 0; c < 4; c++)
		out[c] = 1.0f;
	for (int i = 0; i < n; i++) {
		int c = src->swz[i] & 3;
		if (set[c] && out[c] != by[i])
			return false;
		set[c] = true;
		out[c] = by[i];
	}
	return true;
}

static bool scale_tree(struct fold *s, struct ir_instr *d, const float scale[4], int depth,
		       bool apply);

/* Source i of d, whose entries 0..n-1 scale by by[]: a constant scaled in
 * its place, or a tree of its own. */
static bool scale_operand(struct fold *s, struct ir_instr *d, int i, int n, const float by[4],
			  int depth, bool apply)
{
	if (ir_src_float_const(&d->src[i])) {
		if (apply)
			scale_src(s, d, i, n, by);
		return true;
	}
	float inner[4];
	return scale_through(&d->src[i], n, by, inner) &&
	       scale_tree(s, d->src[i].def, inner, depth + 1, apply);
}

/* Whether d's value (components scaled by scale[c]) is a linear form of
 * constant multiples read once each; with apply, scales its multiples. */
static bool scale_tree(struct fold *s, struct ir_instr *d, const float scale[4], int depth,
		       bool apply)
{
	if (depth > MAX_DEPTH || s->failed || !used_once(s, d) || d->base != IR_FLOAT)
		return false;
	int n = d->ncomp;
	switch (d->op) {
	case IR_OP_MUL:
	case IR_OP_MAD:
		for (int i = 0; i < 2; i++)
			if (const_beside(&d->src[i], &d->src[1 - i])) {
				if (d->op == IR_OP_MAD &&
				    !scale_operand(s, d, 2, n, scale, depth, apply))
					return false;
				if (apply)
					scale_src(s, d, i, n, scale);
				return true;
			}
		return false;
	case IR_OP_DOT2:
	case IR_OP_DOT3:
	case IR_OP_DOT4: {
		int w = ir_op_dot_width(d->op);
		float by[4] = { scale[0], scale[0], scale[0], scale[0] };
		for (int i = 0; i < 2; i++)
			if (const_beside(&d->src[i], &d->src[1 - i])) {
				if (apply)
					scale_src(s, d, i, w, by);
				return true;
			}
		return false;
	}
	case IR_OP_VEC:
		for (int i = 0; i < d->nsrc && i < IR_MAX_SRCS; i++)
			if (!scale_operand(s, d, i, 1, &scale[i], depth, apply))
				return false;
		return true;
	case IR_OP_ADD:
	case IR_OP_SUB:
		return scale_operand(s, d, 0, n, scale, depth, apply) &&
		       scale_operand(s, d, 1, n, scale, depth, apply);
	case IR_OP_NEG:
	case IR_OP_MOV:
		return scale_operand(s, d, 0, n, scale, depth, apply);
	default:
		return false;
	}
}

/* The scale a product by constant source ks takes in its entries 0..n-1:
 * k, or 1 / k for a divisor; false unless finite and not 0 (a scale by 0
 * or infinity must meet the form's own infinities as it does). */
static bool scale_of(const struct ir_src *ks, int n, bool divisor, float out[4])
{
	for (int i = 0; i < 4; i++) {
		out[i] = i < n ? ir_src_const_comp(ks, i) : 1.0f;
		if (divisor)
			out[i] = 1.0f / out[i];
		if (!isfinite(out[i]) || out[i] == 0.0f)
			return false;
	}
	return true;
}

/* (linear form) * k or / k: k into the form's multiples, in becomes a MOV. */
static bool fold_outer(struct fold *s, struct ir_instr *in)
{
	if (in->base != IR_FLOAT || (in->op != IR_OP_MUL && in->op != IR_OP_DIV))
		return false;
	for (int k = in->op == IR_OP_DIV ? 1 : 0; k < 2; k++) {
		const struct ir_src *ks = &in->src[k], *es = &in->src[1 - k];
		if (!const_beside(ks, es))
			continue;
		float by[4], scale[4];
		if (!scale_of(ks, in->ncomp, in->op == IR_OP_DIV, by) ||
		    !scale_through(es, in->ncomp, by, scale) ||
		    !scale_tree(s, es->def, scale, 0, false))
			return false;
		scale_tree(s, es->def, scale, 0, true);
		if (s->failed)
			return false;
		in->op = IR_OP_MOV;
		in->nsrc = 1;
		in->src[0] = *es;
		return true;
	}
	return false;
}

/* The product x * k (or x / k), k constant, that source i of `in` reads
 * where in multiplies it by a constant (DOT, MAD's product); the index
 * of k in it.  NULL otherwise. */
static struct ir_instr *scaled_read(const struct fold *s, const struct ir_instr *in, int i, int *ki)
{
	bool dot = ir_op_dot_width(in->op) > 0;
	if (in->base != IR_FLOAT || !(dot || in->op == IR_OP_MAD) || i > 1 ||
	    !const_beside(&in->src[1 - i], &in->src[i]))
		return NULL;
	struct ir_instr *m = in->src[i].def;
	if (!m || m->id >= s->n || (m->op != IR_OP_MUL && m->op != IR_OP_DIV))
		return NULL;
	for (int k = m->op == IR_OP_DIV ? 1 : 0; k < 2; k++)
		if (const_beside(&m->src[k], &m->src[1 - k])) {
			*ki = k;
			return m;
		}
	return NULL;
}

static void count_foldable(struct ir_instr *in, void *ud)
{
	struct fold *s = ud;
	int ki;
	for (int i = 0; i < 2 && i < in->nsrc; i++) {
		struct ir_instr *m = scaled_read(s, in, i, &ki);
		if (m && s->foldable[m->id] < UINT16_MAX)
			s->foldable[m->id]++;
	}
}

/* dot(x * k, c) -> dot(x, k * c), likewise MAD's product, where every
 * reader of x * k folds it (so that it goes). */
static bool fold_inner(struct fold *s, struct ir_instr *in)
{
	int ki;
	for (int i = 0; i < 2 && i < in->nsrc; i++) {
		struct ir_instr *m = scaled_read(s, in, i, &ki);
		if (!m || s->foldable[m->id] != s->uses[m->id])
			continue;
		int n = in->op == IR_OP_MAD ? in->ncomp : ir_op_dot_width(in->op);
		struct ir_src k = ir_src_through(&m->src[ki], in->src[i].swz);
		struct ir_src x = ir_src_through(&m->src[1 - ki], in->src[i].swz);
		float by[4];
		if (!scale_of(&k, n, m->op == IR_OP_DIV, by))
			continue;
		scale_src(s, in, 1 - i, n, by);
		if (s->failed)
			return false;
		in->src[i] = x;
		if (x.def && x.def->id < s->n && s->uses[x.def->id] < UINT16_MAX)
			s->uses[x.def->id]++;
		return true;
	}
	return false;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct fold *s = ud;
	if (s->failed || in->id >= s->n)
		return;
	if (fold_inner(s, in) || fold_outer(s, in))
		s->progress = true;
}

/* Whether `in` may start a fold: a product by a constant of a form op,
 * or a DOT / MAD multiplying a product by a constant by a constant. */
static bool may_fold(const struct ir_instr *in, void *ud)
{
	(void)ud;
	if (in->base != IR_FLOAT || in->nsrc < 2)
		return false;
	bool dot = ir_op_dot_width(in->op) > 0;
	if (in->op != IR_OP_MUL && in->op != IR_OP_DIV && in->op != IR_OP_MAD && !dot)
		return false;
	for (int i = 0; i < 2; i++) {
		const struct ir_instr *d = in->src[1 - i].def;
		if (!const_beside(&in->src[i], &in->src[1 - i]) || !d)
			continue;
		switch (d->op) {
		case IR_OP_MUL: case IR_OP_DIV:
			return true;
		case IR_OP_MAD: case IR_OP_DOT2: case IR_OP_DOT3: case IR_OP_DOT4: case IR_OP_VEC:
		case IR_OP_ADD: case IR_OP_SUB: case IR_OP_NEG: case IR_OP_MOV:
			if (in->op == IR_OP_MUL || in->op == IR_OP_DIV)
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

bool ir_opt_scale_fold(struct ir_func *f)
{
	if (!ir_any_instr(f, may_fold, NULL))
		return false;
	struct fold s = { f, ir_count_uses(f), calloc((size_t)f->next_id + 1, sizeof(uint16_t)),
			  f->next_id, false, false };
	if (s.uses && s.foldable) {
		ir_foreach_instr(f, count_foldable, &s);
		/* the constants made go before the op visited: the walk does
		 * not see them */
		ir_foreach_instr(f, visit, &s);
	}
	free(s.uses);
	free(s.foldable);
	return s.progress;
}
