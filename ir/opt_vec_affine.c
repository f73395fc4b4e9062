/* A VEC whose components are components of one value, some of them moved
 * by a constant, becomes one op over that value:
 *   vec3(p.x + e, p.y, p.z)       -> p.xyz + (e, -0, -0)
 *   vec2(uv.x * 2.0, 1.0 - uv.y)  -> uv.xy * (2, -1) + (-0, 1)
 * (finite differences, the classic normal from a height or distance
 * function, and texture offsets are written this way).  Unchanged, the
 * backend computes the moved components, then copies every component
 * into the new vector: a slot or more, each time.
 *
 * Each component k is x.c * m_k + b_k with m_k, b_k constants: x.c alone
 * (1, -0), x.c + k and k + x.c (1, k), x.c - k (1, -k), k - x.c (-1, k),
 * -x.c (-1, -0), x.c * k (k, -0), mad(x.c, k1, k2) (k1, k2).  The result
 * is ADD(x, b) when every m is 1, MUL(x, m) when every b is -0, else
 * MAD(x, m, b); -0 is the additive identity that keeps every value, -0
 * included, so each component is bit for bit what it was (x * 1 and
 * x * -1 are exact; x - k is x + -k).  The VEC becomes that op in place;
 * the moved components' ops stay for their other readers or go with DCE.
 * Not rules of ir/algebraic_rules.c: a VEC gathers 2 to 4 terms, each of
 * eight forms, which must all be of one value (a pattern per combination
 * would be thousands).
 * Needs: valid IR.  Keeps: control flow, ids (new constants get fresh
 * ids); x is visible at the VEC, since the ops it feeds are. */
#include "ir.h"
#include "ir_pass.h"

#include <math.h>

/* Component k of the VEC: x.comp * m + b.  False when it is no such
 * form of a non-constant value. */
struct affine {
	const struct ir_instr *x;
	uint8_t comp;
	float m, b;
};

static bool affine_of(const struct ir_src *s, struct affine *a)
{
	const struct ir_instr *d = s->def;
	int c = s->swz[0] & 3;
	*a = (struct affine){ d, (uint8_t)c, 1.0f, -0.0f };
	const struct ir_src *x = NULL;
	switch (d->op) {
	case IR_OP_ADD:
	case IR_OP_SUB:
	case IR_OP_MUL:
		for (int i = 0; i < 2 && !x; i++)
			if (ir_src_float_const(&d->src[1 - i]) && !ir_src_float_const(&d->src[i])) {
				x = &d->src[i];
				float k = ir_src_const_comp(&d->src[1 - i], c);
				if (d->op == IR_OP_MUL)
					a->m = k;
				else if (d->op == IR_OP_ADD)
					a->b = k;
				else if (i == 0)
					a->b = -k;
				else
					a->m = -1.0f, a->b = k;
			}
		break;
	case IR_OP_NEG:
		x = &d->src[0];
		a->m = -1.0f;
		break;
	case IR_OP_MAD:
		for (int i = 0; i < 2 && !x; i++)
			if (ir_src_float_const(&d->src[1 - i]) && ir_src_float_const(&d->src[2]) &&
			    !ir_src_float_const(&d->src[i])) {
				x = &d->src[i];
				a->m = ir_src_const_comp(&d->src[1 - i], c);
				a->b = ir_src_const_comp(&d->src[2], c);
			}
		break;
	default:
		break;
	}
	if (x) {
		a->x = x->def;
		a->comp = (uint8_t)(x->swz[c] & 3);
	}
	return a->x && a->x->op != IR_OP_CONST && a->x->base == IR_FLOAT && a->x->ncomp > 0;
}

/* Rewrites VEC v as one op over a value; whether it did. */
static bool widen(struct ir_func *f, struct ir_instr *v)
{
	int n = v->ncomp;
	if (v->op != IR_OP_VEC || v->base != IR_FLOAT || n < 2 || n > 4 || v->nsrc != n)
		return false;
	struct affine a[4];
	bool moved = false, all_add = true, all_mul = true;
	for (int k = 0; k < n; k++) {
		if (!v->src[k].def || !affine_of(&v->src[k], &a[k]) || a[k].x != a[0].x)
			return false;
		bool unit_m = a[k].m == 1.0f, no_b = a[k].b == 0.0f && signbit(a[k].b);
		moved |= !(unit_m && no_b);
		all_add &= unit_m;
		all_mul &= no_b;
	}
	if (!moved)
		return false; /* copy_prop reads a VEC of one value through */
	float m[4] = { 1, 1, 1, 1 }, b[4] = { -0.0f, -0.0f, -0.0f, -0.0f };
	struct ir_src x = { .def = (struct ir_instr *)a[0].x };
	for (int k = 0; k < 4; k++) {
		int j = k < n ? k : n - 1;
		x.swz[k] = a[j].comp;
		if (k < n) {
			m[k] = a[k].m;
			b[k] = a[k].b;
		}
	}
	struct ir_instr *km = all_add ? NULL : ir_build_const_before(f, v, n, IR_FLOAT, m);
	struct ir_instr *kb = all_mul ? NULL : ir_build_const_before(f, v, n, IR_FLOAT, b);
	if ((!all_add && !km) || (!all_mul && !kb))
		return false;
	struct ir_src sm = { .def = km, .swz = { 0, 1, 2, 3 } };
	struct ir_src sb = { .def = kb, .swz = { 0, 1, 2, 3 } };
	v->src[0] = x;
	if (all_add) {
		v->op = IR_OP_ADD;
		v->nsrc = 2;
		v->src[1] = sb;
	} else if (all_mul) {
		v->op = IR_OP_MUL;
		v->nsrc = 2;
		v->src[1] = sm;
	} else {
		v->op = IR_OP_MAD;
		v->nsrc = 3;
		v->src[1] = sm;
		v->src[2] = sb;
	}
	for (int i = v->nsrc; i < IR_MAX_SRCS; i++)
		v->src[i] = (struct ir_src){ 0 };
	return true;
}

bool ir_opt_vec_affine(struct ir_func *f)
{
	return ir_rewrite_each(f, widen);
}
