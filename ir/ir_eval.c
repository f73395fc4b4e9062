/* Per-component arithmetic of the IR opcodes (see ir_eval.h). */
#include "ir_eval.h"

#include <float.h>
#include <math.h>

float ir_flush_denorm(float x)
{
	if (x != 0.0f && fabsf(x) < FLT_MIN)
		return copysignf(0.0f, x);
	return x;
}

static float b(bool v)
{
	return v ? 1.0f : 0.0f;
}

/* 0 * anything is 0 (ISA §12: US_CONFIG.ZERO_TIMES_ANYTHING). */
static float mul0(float x, float y)
{
	if (x == 0.0f || y == 0.0f)
		return 0.0f;
	return x * y;
}

static float op_neg(float x) { return -x; }
static float op_abs(float x) { return fabsf(x); }
static float op_sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : 0.0f; }
static float op_fract(float x) { return x - floorf(x); }
static float op_sat(float x) { return x > 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }
static float op_rcp(float x) { return 1.0f / x; }
static float op_rsq(float x) { return 1.0f / sqrtf(x); }
static float op_not(float x) { return b(x == 0.0f); }
static float op_b2f(float x) { return b(x != 0.0f); }
static float op_mov(float x) { return x; }

static float (*const unary_ops[IR_OP_COUNT])(float) = {
	[IR_OP_MOV] = op_mov,     [IR_OP_NEG] = op_neg,   [IR_OP_ABS] = op_abs,
	[IR_OP_SIGN] = op_sign,   [IR_OP_FLOOR] = floorf, [IR_OP_CEIL] = ceilf,
	[IR_OP_FRACT] = op_fract, [IR_OP_TRUNC] = truncf, [IR_OP_SAT] = op_sat,
	[IR_OP_RCP] = op_rcp,     [IR_OP_RSQ] = op_rsq,   [IR_OP_SQRT] = sqrtf,
	[IR_OP_EXP2] = exp2f,     [IR_OP_LOG2] = log2f,   [IR_OP_SIN] = sinf,
	[IR_OP_COS] = cosf,       [IR_OP_TAN] = tanf,     [IR_OP_ASIN] = asinf,
	[IR_OP_ACOS] = acosf,     [IR_OP_ATAN] = atanf,   [IR_OP_NOT] = op_not,
	[IR_OP_B2F] = op_b2f,     [IR_OP_F2B] = op_b2f,
};

static float op_add(float x, float y) { return x + y; }
static float op_sub(float x, float y) { return x - y; }
static float op_div(float x, float y) { return x / y; }
/* ISA §12: MIN = A<B ? A : B, MAX = A>B ? A : B */
static float op_min(float x, float y) { return x < y ? x : y; }
static float op_max(float x, float y) { return x > y ? x : y; }
static float op_step(float edge, float x) { return x < edge ? 0.0f : 1.0f; }
/* GLSL leaves pow(x<0, y) undefined; like the hardware's EX2(y*LN2(x)) it is NaN */
static float op_pow(float x, float y) { return x < 0.0f ? NAN : powf(x, y); }
static float op_lt(float x, float y) { return b(x < y); }
static float op_ge(float x, float y) { return b(x >= y); }
static float op_eq(float x, float y) { return b(x == y); }
static float op_ne(float x, float y) { return b(x != y); }
static float op_and(float x, float y) { return b(x != 0.0f && y != 0.0f); }
static float op_or(float x, float y) { return b(x != 0.0f || y != 0.0f); }
static float op_xor(float x, float y) { return b((x != 0.0f) != (y != 0.0f)); }

static float (*const binary_ops[IR_OP_COUNT])(float, float) = {
	[IR_OP_ADD] = op_add, [IR_OP_SUB] = op_sub,   [IR_OP_MUL] = mul0,
	[IR_OP_DIV] = op_div, [IR_OP_MIN] = op_min,   [IR_OP_MAX] = op_max,
	[IR_OP_STEP] = op_step, [IR_OP_POW] = op_pow,   [IR_OP_ATAN2] = atan2f,
	[IR_OP_LT] = op_lt,   [IR_OP_GE] = op_ge,     [IR_OP_EQ] = op_eq,
	[IR_OP_NE] = op_ne,   [IR_OP_AND] = op_and,   [IR_OP_OR] = op_or,
	[IR_OP_XOR] = op_xor,
};

static float op_mad(float x, float y, float z)
{
	if (x == 0.0f || y == 0.0f)
		return z + 0.0f;
	return fmaf(x, y, z);
}
static float op_clamp(float x, float lo, float hi) { return op_min(op_max(x, lo), hi); }
static float op_mix(float x, float y, float t) { return x + (y - x) * t; }
static float op_select(float c, float x, float y) { return c != 0.0f ? x : y; }

static float (*const ternary_ops[IR_OP_COUNT])(float, float, float) = {
	[IR_OP_MAD] = op_mad, [IR_OP_CLAMP] = op_clamp, [IR_OP_MIX] = op_mix,
	[IR_OP_SELECT] = op_select,
};

/* Width of the dot products. */
static const int dot_width[IR_OP_COUNT] = {
	[IR_OP_DOT2] = 2, [IR_OP_DOT3] = 3, [IR_OP_DOT4] = 4,
};

int ir_op_dot_width(enum ir_op op)
{
	return (unsigned)op < IR_OP_COUNT ? dot_width[op] : 0;
}

bool ir_op_is_evaluable(enum ir_op op)
{
	if ((unsigned)op >= IR_OP_COUNT)
		return false;
	return unary_ops[op] || binary_ops[op] || ternary_ops[op] || dot_width[op] ||
	       op == IR_OP_CONST || op == IR_OP_VEC || op == IR_OP_ANY || op == IR_OP_ALL;
}

static float dot(const float *x, const float *y, int n)
{
	double sum = 0.0;
	for (int c = 0; c < n; c++)
		sum += (double)mul0(x[c], y[c]);
	return (float)sum;
}

bool ir_eval_op(enum ir_op op, int ncomp, int src0_ncomp, const float s[][4], float out[4])
{
	if ((unsigned)op >= IR_OP_COUNT || ncomp < 1 || ncomp > 4)
		return false;
	for (int c = 0; c < 4; c++)
		out[c] = 0.0f;
	if (src0_ncomp < 1 || src0_ncomp > 4)
		src0_ncomp = 4;
	if (unary_ops[op]) {
		for (int c = 0; c < ncomp; c++)
			out[c] = unary_ops[op](s[0][c]);
	} else if (binary_ops[op]) {
		for (int c = 0; c < ncomp; c++)
			out[c] = binary_ops[op](s[0][c], s[1][c]);
	} else if (ternary_ops[op]) {
		for (int c = 0; c < ncomp; c++)
			out[c] = ternary_ops[op](s[0][c], s[1][c], s[2][c]);
	} else if (dot_width[op]) {
		out[0] = dot(s[0], s[1], dot_width[op]);
	} else if (op == IR_OP_VEC) {
		for (int c = 0; c < ncomp; c++)
			out[c] = s[c][0];
	} else if (op == IR_OP_ANY || op == IR_OP_ALL) {
		bool any = false, all = true;
		for (int c = 0; c < src0_ncomp; c++) {
			any |= s[0][c] != 0.0f;
			all &= s[0][c] != 0.0f;
		}
		out[0] = b(op == IR_OP_ANY ? any : all);
	} else {
		return false; /* CONST is read from imm by the caller */
	}
	for (int c = 0; c < ncomp; c++)
		out[c] = ir_flush_denorm(out[c]);
	return true;
}

static const int target_dims[] = {
	[IR_TARGET_1D] = 1, [IR_TARGET_2D] = 2, [IR_TARGET_3D] = 3, [IR_TARGET_CUBE] = 3,
	[IR_TARGET_RECT] = 2,
};

bool ir_tex_kind_is_proj(int kind)
{
	return kind == IR_TEX_PROJ || kind == IR_TEX_PROJ_BIAS || kind == IR_TEX_PROJ_LOD ||
	       kind == IR_TEX_PROJ_GRAD;
}

bool ir_tex_kind_uses_quad(int kind)
{
	return kind != IR_TEX_LOD && kind != IR_TEX_PROJ_LOD && kind != IR_TEX_GRAD &&
	       kind != IR_TEX_PROJ_GRAD;
}

int ir_tex_kind_nextra(int kind)
{
	switch (kind) {
	case IR_TEX_PLAIN:
	case IR_TEX_PROJ:
		return 0;
	case IR_TEX_GRAD:
	case IR_TEX_PROJ_GRAD:
		return 2;
	default:
		return 1;
	}
}

int ir_tex_grad_ncomp(int target)
{
	return target < 0 || target > IR_TARGET_RECT ? 3 : target_dims[target];
}

int ir_tex_coord_ncomp(int target, int kind, bool shadow)
{
	if (ir_tex_kind_is_proj(kind))
		return 4;
	if (shadow)
		return 3;
	if (target < 0 || target > IR_TARGET_RECT)
		return 4;
	return target_dims[target];
}

static int clamp_ncomp(int n)
{
	return n < 1 ? 1 : n > 4 ? 4 : n;
}

int ir_array_element(const struct ir_array *a, int offset, bool has_src, float src)
{
	float e = has_src ? (float)offset + src : (float)offset;
	if (!(e >= 0.0f && e < (float)a->length) || e != floorf(e))
		return -1;
	return (int)e;
}

int ir_src_ncomp(const struct ir_func *f, const struct ir_instr *in, int i)
{
	const struct ir_instr *def = in->src[i].def;
	switch (in->op) {
	case IR_OP_VEC:
	case IR_OP_UNIFORM:
	case IR_OP_DISCARD:
	case IR_OP_LOAD:
		return 1;
	case IR_OP_STORE:
		if (i > 0)
			return 1;
		if (f && in->index >= 0 && in->index < f->narrays)
			return clamp_ncomp(f->arrays[in->index].ncomp);
		return clamp_ncomp(def ? def->ncomp : 4);
	case IR_OP_DOT2:
	case IR_OP_DOT3:
	case IR_OP_DOT4:
		return dot_width[in->op];
	case IR_OP_ANY:
	case IR_OP_ALL:
		return clamp_ncomp(def ? def->ncomp : 4);
	case IR_OP_OUTPUT:
		if (f && in->index >= 0 && in->index < f->noutputs &&
		    f->outputs[in->index].ncomp >= 1)
			return clamp_ncomp(f->outputs[in->index].ncomp);
		return clamp_ncomp(def ? def->ncomp : 4);
	case IR_OP_TEX:
		if (i > 0 && ir_tex_kind_nextra(in->tex_kind) < 2)
			return 1;
		if (i > 0)
			return f && in->index >= 0 && in->index < f->nsamplers
				       ? ir_tex_grad_ncomp(f->samplers[in->index].target) : 3;
		/* a lookup on a shadow sampler compares, flagged or not (as the
		 * interpreter and isel treat it): it reads the reference too */
		if (f && in->index >= 0 && in->index < f->nsamplers)
			return ir_tex_coord_ncomp(f->samplers[in->index].target, in->tex_kind,
						  in->tex_shadow || f->samplers[in->index].shadow);
		return 4;
	default:
		return clamp_ncomp(in->ncomp ? in->ncomp : 4);
	}
}
