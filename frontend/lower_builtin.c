/* Lowering of built-in function calls into IR ops (see builtin_ops.def).
 * Arguments arrive lowered; a sampler argument has ncols 0 and its
 * sampler table index in `rows`. */
#include "lower_int.h"
#include "ir_eval.h"

#include <string.h>

static struct ir_instr *op1(struct lower *l, enum ir_op op, int n, struct ir_src a)
{
	return lv_build(l, op, n, 1, &a);
}

static struct ir_instr *op2(struct lower *l, enum ir_op op, int n, struct ir_src a, struct ir_src b)
{
	struct ir_src s[2] = { a, b };
	return lv_build(l, op, n, 2, s);
}

static struct ir_instr *op3(struct lower *l, enum ir_op op, int n, struct ir_src a, struct ir_src b,
			    struct ir_src c)
{
	struct ir_src s[3] = { a, b, c };
	return lv_build(l, op, n, 3, s);
}

static struct ir_src S(struct ir_instr *in)
{
	return in ? ir_src_of(in) : (struct ir_src){ 0 };
}

static struct ir_src K(struct lower *l, float x)
{
	return ir_src_comp(ir_build_constf(&l->b, x), 0);
}

static struct ir_src dotn(struct lower *l, struct ir_src a, struct ir_src b, int n)
{
	static const enum ir_op ops[5] = { IR_OP_MUL, IR_OP_MUL, IR_OP_DOT2, IR_OP_DOT3, IR_OP_DOT4 };
	struct ir_instr *d = op2(l, ops[n], 1, a, b);
	return d ? ir_src_comp(d, 0) : (struct ir_src){ 0 };
}

/* pow(x, k) for a constant integer k with |k| <= 4 multiplies: real
 * shaders write pow(v, 2.0) and expect v*v for v < 0 too, where GLSL
 * leaves pow undefined (and the R500's EX2(LN2(v) * 2) gives NaN); one or
 * two vector multiplications are also cheaper than LN2, MUL and EX2 for
 * every component.  Lowered here, so that every level (-O0 included) and
 * the IR interpreter, the reference, compute it alike. */
static bool small_int_exponent(struct ir_src y, int n, int *k)
{
	if (!y.def || y.def->op != IR_OP_CONST || y.def->base != IR_FLOAT)
		return false;
	float v = y.def->imm[y.swz[0] & 3];
	for (int c = 1; c < n; c++)
		if (y.def->imm[y.swz[c] & 3] != v)
			return false;
	if (!(v >= -4.0f && v <= 4.0f) || v != (float)(int)v)
		return false;
	*k = (int)v;
	return true;
}

static struct ir_instr *pow_by_multiplication(struct lower *l, int n, struct ir_src x, int k)
{
	int m = k < 0 ? -k : k;
	if (m == 0)
		return op1(l, IR_OP_MOV, n, K(l, 1.0f));
	struct ir_instr *r = m == 1 ? op1(l, IR_OP_MOV, n, x) : op2(l, IR_OP_MUL, n, x, x);
	if (m == 3)
		r = op2(l, IR_OP_MUL, n, S(r), x);
	else if (m == 4)
		r = op2(l, IR_OP_MUL, n, S(r), S(r));
	return k < 0 ? op1(l, IR_OP_RCP, n, S(r)) : r;
}

/* Unary component-wise built-ins. */
static const struct {
	enum sema_bi bi;
	enum ir_op op;
} bi_unary[] = {
	{ SEMA_BI_SIN, IR_OP_SIN }, { SEMA_BI_COS, IR_OP_COS }, { SEMA_BI_TAN, IR_OP_TAN },
	{ SEMA_BI_ASIN, IR_OP_ASIN }, { SEMA_BI_ACOS, IR_OP_ACOS }, { SEMA_BI_ATAN, IR_OP_ATAN },
	{ SEMA_BI_EXP2, IR_OP_EXP2 }, { SEMA_BI_LOG2, IR_OP_LOG2 }, { SEMA_BI_SQRT, IR_OP_SQRT },
	{ SEMA_BI_INVERSESQRT, IR_OP_RSQ }, { SEMA_BI_ABS, IR_OP_ABS }, { SEMA_BI_SIGN, IR_OP_SIGN },
	{ SEMA_BI_FLOOR, IR_OP_FLOOR }, { SEMA_BI_CEIL, IR_OP_CEIL }, { SEMA_BI_FRACT, IR_OP_FRACT },
	{ SEMA_BI_DFDX, IR_OP_DDX }, { SEMA_BI_DFDY, IR_OP_DDY }, { SEMA_BI_NOT, IR_OP_NOT },
};

/* Binary component-wise built-ins (second operand may be a scalar). */
static const struct {
	enum sema_bi bi;
	enum ir_op op;
	bool swap;
} bi_binary[] = {
	{ SEMA_BI_ATAN2, IR_OP_ATAN2, false }, { SEMA_BI_POW, IR_OP_POW, false },
	{ SEMA_BI_MIN, IR_OP_MIN, false }, { SEMA_BI_MAX, IR_OP_MAX, false },
	{ SEMA_BI_STEP, IR_OP_STEP, false },
	{ SEMA_BI_LESSTHAN, IR_OP_LT, false }, { SEMA_BI_GREATERTHANEQUAL, IR_OP_GE, false },
	{ SEMA_BI_GREATERTHAN, IR_OP_LT, true }, { SEMA_BI_LESSTHANEQUAL, IR_OP_GE, true },
	{ SEMA_BI_EQUAL, IR_OP_EQ, false }, { SEMA_BI_NOTEQUAL, IR_OP_NE, false },
};

static struct lv texture(struct lower *l, struct ast_node *call, enum sema_bi bi, struct lv *a,
			 int nargs)
{
	int sampler = a[0].rows;
	const struct glsl_type *st = call->kid[0]->ty;
	struct lv coord = a[1];
	enum ir_tex_kind kind = IR_TEX_PLAIN;
	switch (bi) {
	case SEMA_BI_TEXBIAS: kind = IR_TEX_BIAS; break;
	case SEMA_BI_TEXLOD: kind = IR_TEX_LOD; break;
	case SEMA_BI_TEXPROJ: kind = IR_TEX_PROJ; break;
	case SEMA_BI_TEXPROJBIAS: kind = IR_TEX_PROJ_BIAS; break;
	case SEMA_BI_TEXPROJLOD: kind = IR_TEX_PROJ_LOD; break;
	case SEMA_BI_TEXGRAD: kind = IR_TEX_GRAD; break;
	case SEMA_BI_TEXPROJGRAD: kind = IR_TEX_PROJ_GRAD; break;
	default: break;
	}
	bool proj = ir_tex_kind_is_proj(kind);
	struct ir_src c = coord.col[0];
	if (proj && coord.rows < 4) {
		/* the divisor is the last component: move it to .w */
		struct ir_src comps[4];
		struct ir_src zero = K(l, 0);
		for (int i = 0; i < 3; i++)
			comps[i] = i < coord.rows - 1 ? lv_comp(&coord, 0, i) : zero;
		comps[3] = lv_comp(&coord, 0, coord.rows - 1);
		c = S(lv_build(l, IR_OP_VEC, 4, 4, comps));
	}
	if (sampler < 0 || sampler >= l->f->nsamplers) {
		lower_refuse(l, call->loc, "this sampler is not supported yet");
		return lower_zero(l, glsl_type_vec(GLSL_FLOAT, 4));
	}
	/* the bias or LOD is a scalar; gradients are whole vectors */
	int nextra = ir_tex_kind_nextra(kind);
	struct ir_src s[3] = { c };
	for (int i = 0; i < nextra && 2 + i < nargs; i++)
		s[1 + i] = nextra == 2 ? a[2 + i].col[0] : lv_comp(&a[2 + i], 0, 0);
	struct ir_instr *t = lv_build(l, IR_OP_TEX, 4, 1 + nextra, s);
	if (!t)
		return lower_zero(l, glsl_type_vec(GLSL_FLOAT, 4));
	t->index = sampler;
	t->tex_kind = (uint8_t)kind;
	t->tex_shadow = st->shadow;
	return lv_of(t);
}

struct lv lower_builtin(struct lower *l, struct ast_node *call, struct lv *a, int nargs)
{
	const struct sema_bi_sig *sig = &sema_bi_table[call->builtin - 1];
	enum sema_bi bi = sig->op;
	const struct glsl_type *rt = call->ty;
	int n = rt->rows;                          /* result width */
	int w = nargs > 0 && a[0].ncols ? a[0].rows : 1; /* first argument width */
	for (size_t i = 0; i < sizeof bi_unary / sizeof bi_unary[0]; i++)
		if (bi_unary[i].bi == bi)
			return lv_of(op1(l, bi_unary[i].op, n, a[0].col[0]));
	int k;
	if (bi == SEMA_BI_POW && small_int_exponent(lv_bcast(&a[1], n), n, &k))
		return lv_of(pow_by_multiplication(l, n, lv_bcast(&a[0], n), k));
	for (size_t i = 0; i < sizeof bi_binary / sizeof bi_binary[0]; i++)
		if (bi_binary[i].bi == bi) {
			struct ir_src x = lv_bcast(&a[0], n), y = lv_bcast(&a[1], n);
			return lv_of(bi_binary[i].swap ? op2(l, bi_binary[i].op, n, y, x)
						       : op2(l, bi_binary[i].op, n, x, y));
		}
	struct ir_src x = nargs > 0 ? lv_bcast(&a[0], n) : (struct ir_src){ 0 };
	struct ir_src y = nargs > 1 ? lv_bcast(&a[1], n) : (struct ir_src){ 0 };
	struct ir_src z = nargs > 2 ? lv_bcast(&a[2], n) : (struct ir_src){ 0 };
	switch (bi) {
	case SEMA_BI_RADIANS:
		return lv_of(op2(l, IR_OP_MUL, n, x, K(l, 0.017453292519943295f)));
	case SEMA_BI_DEGREES:
		return lv_of(op2(l, IR_OP_MUL, n, x, K(l, 57.29577951308232f)));
	case SEMA_BI_EXP:
		return lv_of(op1(l, IR_OP_EXP2, n, S(op2(l, IR_OP_MUL, n, x, K(l, 1.4426950408889634f)))));
	case SEMA_BI_LOG:
		return lv_of(op2(l, IR_OP_MUL, n, S(op1(l, IR_OP_LOG2, n, x)), K(l, 0.6931471805599453f)));
	case SEMA_BI_MOD: {
		/* x - y * floor(x / y) */
		struct ir_src fl = S(op1(l, IR_OP_FLOOR, n, S(op2(l, IR_OP_DIV, n, x, y))));
		return lv_of(op2(l, IR_OP_SUB, n, x, S(op2(l, IR_OP_MUL, n, y, fl))));
	}
	case SEMA_BI_CLAMP:
		return lv_of(op3(l, IR_OP_CLAMP, n, x, y, z));
	case SEMA_BI_MIX:
		return lv_of(op3(l, IR_OP_MIX, n, x, y, z));
	case SEMA_BI_SMOOTHSTEP: {
		/* t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 t) */
		struct ir_src t = S(op1(l, IR_OP_SAT, n, S(op2(l, IR_OP_DIV, n, S(op2(l, IR_OP_SUB, n, z, x)),
								 S(op2(l, IR_OP_SUB, n, y, x))))));
		struct ir_src p = S(op3(l, IR_OP_MAD, n, t, K(l, -2), K(l, 3)));
		return lv_of(op2(l, IR_OP_MUL, n, S(op2(l, IR_OP_MUL, n, t, t)), p));
	}
	case SEMA_BI_LENGTH:
		if (w == 1)
			return lv_of(op1(l, IR_OP_ABS, 1, a[0].col[0]));
		return lv_of(op1(l, IR_OP_SQRT, 1, dotn(l, a[0].col[0], a[0].col[0], w)));
	case SEMA_BI_DISTANCE: {
		struct ir_src d = S(op2(l, IR_OP_SUB, w, a[0].col[0], a[1].col[0]));
		if (w == 1)
			return lv_of(op1(l, IR_OP_ABS, 1, d));
		return lv_of(op1(l, IR_OP_SQRT, 1, dotn(l, d, d, w)));
	}
	case SEMA_BI_DOT:
		return lv_of(dotn(l, a[0].col[0], a[1].col[0], w).def);
	case SEMA_BI_CROSS: {
		/* a.yzx * b.zxy - a.zxy * b.yzx */
		static const uint8_t yzx[4] = { 1, 2, 0, 0 }, zxy[4] = { 2, 0, 1, 0 };
		struct ir_src ay = a[0].col[0], az = a[0].col[0], by = a[1].col[0], bz = a[1].col[0];
		for (int i = 0; i < 4; i++) {
			ay.swz[i] = a[0].col[0].swz[yzx[i]];
			az.swz[i] = a[0].col[0].swz[zxy[i]];
			by.swz[i] = a[1].col[0].swz[yzx[i]];
			bz.swz[i] = a[1].col[0].swz[zxy[i]];
		}
		struct ir_src t = S(op2(l, IR_OP_MUL, 3, az, by));
		return lv_of(op2(l, IR_OP_SUB, 3, S(op2(l, IR_OP_MUL, 3, ay, bz)), t));
	}
	case SEMA_BI_NORMALIZE: {
		/* x * rsq(dot(x, x)) */
		struct ir_src r = ir_src_comp(op1(l, IR_OP_RSQ, 1, dotn(l, x, x, n)), 0);
		return lv_of(op2(l, IR_OP_MUL, n, x, r));
	}
	case SEMA_BI_FACEFORWARD: {
		/* dot(Nref, I) < 0 ? N : -N */
		struct ir_src d = dotn(l, z, y, n);
		struct ir_src neg = S(op2(l, IR_OP_LT, 1, d, K(l, 0)));
		return lv_of(op3(l, IR_OP_SELECT, n, ir_src_comp(neg.def, 0), x,
				 S(op1(l, IR_OP_NEG, n, x))));
	}
	case SEMA_BI_REFLECT: {
		/* I - 2 dot(N, I) N */
		struct ir_src d = dotn(l, y, x, n);
		struct ir_src d2 = S(op2(l, IR_OP_MUL, 1, d, K(l, 2)));
		return lv_of(op2(l, IR_OP_SUB, n, x, S(op2(l, IR_OP_MUL, n, ir_src_comp(d2.def, 0), y))));
	}
	case SEMA_BI_REFRACT: {
		/* k = 1 - eta^2 (1 - dot(N,I)^2); k < 0 ? 0 : eta I - (eta dot + sqrt(k)) N */
		struct ir_src eta = lv_comp(&a[2], 0, 0);
		struct ir_src d = dotn(l, y, x, n);
		struct ir_src omd = S(op2(l, IR_OP_SUB, 1, K(l, 1), S(op2(l, IR_OP_MUL, 1, d, d))));
		struct ir_src e2 = S(op2(l, IR_OP_MUL, 1, eta, eta));
		struct ir_src k = S(op2(l, IR_OP_SUB, 1, K(l, 1), S(op2(l, IR_OP_MUL, 1, e2, omd))));
		struct ir_src f = S(op3(l, IR_OP_MAD, 1, eta, d, S(op1(l, IR_OP_SQRT, 1, k))));
		struct ir_src v = S(op2(l, IR_OP_SUB, n, S(op2(l, IR_OP_MUL, n, eta, x)),
					S(op2(l, IR_OP_MUL, n, ir_src_comp(f.def, 0), y))));
		struct ir_src neg = S(op2(l, IR_OP_LT, 1, k, K(l, 0)));
		return lv_of(op3(l, IR_OP_SELECT, n, ir_src_comp(neg.def, 0), K(l, 0), v));
	}
	case SEMA_BI_MATRIXCOMPMULT: {
		struct lv r = a[0];
		for (int c = 0; c < a[0].ncols; c++)
			r.col[c] = S(op2(l, IR_OP_MUL, a[0].rows, a[0].col[c], a[1].col[c]));
		return r;
	}
	case SEMA_BI_OUTERPRODUCT: {
		struct lv r;
		memset(&r, 0, sizeof r);
		r.ncols = rt->cols;
		r.rows = rt->rows;
		for (int c = 0; c < rt->cols; c++)
			r.col[c] = S(op2(l, IR_OP_MUL, rt->rows, a[0].col[0], lv_comp(&a[1], 0, c)));
		return r;
	}
	case SEMA_BI_TRANSPOSE: {
		struct lv r;
		memset(&r, 0, sizeof r);
		r.ncols = rt->cols;
		r.rows = rt->rows;
		for (int c = 0; c < rt->cols; c++) {
			struct ir_src comps[4];
			for (int rr = 0; rr < rt->rows; rr++)
				comps[rr] = lv_comp(&a[0], rr, c);
			r.col[c] = S(lv_build(l, IR_OP_VEC, rt->rows, rt->rows, comps));
		}
		return r;
	}
	case SEMA_BI_ANY:
		return lv_of(op1(l, IR_OP_ANY, 1, a[0].col[0]));
	case SEMA_BI_ALL:
		return lv_of(op1(l, IR_OP_ALL, 1, a[0].col[0]));
	case SEMA_BI_FWIDTH: {
		struct ir_src dx = S(op1(l, IR_OP_ABS, n, S(op1(l, IR_OP_DDX, n, x))));
		struct ir_src dy = S(op1(l, IR_OP_ABS, n, S(op1(l, IR_OP_DDY, n, x))));
		return lv_of(op2(l, IR_OP_ADD, n, dx, dy));
	}
	case SEMA_BI_NOISE:
		return lower_zero(l, rt); /* the spec allows a constant */
	case SEMA_BI_FTRANSFORM: {
		/* gl_ModelViewProjectionMatrix * gl_Vertex, column by column */
		const char *mvp = "gl_ModelViewProjectionMatrix";
		int u = ir_func_find_uniform(l->f, mvp);
		if (u < 0)
			u = ir_func_add_uniform(l->f, mvp, "mat4", 0, 4, 4);
		int in = ir_func_find_input(l->f, "gl_Vertex");
		if (in < 0)
			in = ir_func_add_input(l->f, "gl_Vertex", 4);
		struct ir_instr *v = ir_build(&l->b, IR_OP_INPUT, 4, IR_FLOAT, 0, NULL);
		if (!v || u < 0 || in < 0) {
			l->failed = true;
			return lower_zero(l, rt);
		}
		v->index = in;
		struct ir_instr *acc = NULL;
		for (int c = 0; c < 4; c++) {
			struct ir_instr *col = ir_build(&l->b, IR_OP_UNIFORM, 4, IR_FLOAT, 0, NULL);
			if (!col) {
				l->failed = true;
				return lower_zero(l, rt);
			}
			col->index = u;
			col->offset = c;
			acc = acc ? op3(l, IR_OP_MAD, 4, S(col), ir_src_comp(v, c), S(acc))
				  : op2(l, IR_OP_MUL, 4, S(col), ir_src_comp(v, c));
		}
		return lv_of(acc);
	}
	case SEMA_BI_TEX: case SEMA_BI_TEXBIAS: case SEMA_BI_TEXPROJ: case SEMA_BI_TEXPROJBIAS:
	case SEMA_BI_TEXLOD: case SEMA_BI_TEXPROJLOD: case SEMA_BI_TEXGRAD: case SEMA_BI_TEXPROJGRAD:
		return texture(l, call, bi, a, nargs);
	default:
		lower_refuse(l, call->loc, "'%s' is not supported yet", sig->name);
		return lower_zero(l, rt);
	}
}
