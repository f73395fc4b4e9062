/* Constant folding: an instruction whose sources are all constants becomes
 * a constant, computed by ir_eval_op (the interpreter's own arithmetic, so
 * folding never changes a result).  Then algebraic identities, read per
 * component over the components the op uses:
 *   x*1, 1*x, x+0, 0+x, x-0, x/1 -> mov x;   x*0, 0*x -> 0 (ISA §12: 0*x = 0);
 *   mad(0, b, c), mad(a, 0, c) -> mov c;  mad(1, b, c) -> add b, c;
 *   mad(a, b, 0) -> mul a, b;  mix(a, b, 0) -> mov a;  mov of mov -> one mov with composed swizzle;
 *   select(c, a, b) with c the same constant in every component -> mov a or b;
 *   select(c, a, a) -> mov a;  bool select(c, true, false) -> mov c,
 *   select(c, false, true) -> not c;  neg(neg x) -> mov x;
 *   vec(a.i, a.j, ...) of one value -> mov a.ij...;
 *   all/any over a vec with constant components (fold_all_any);
 *   a uniform with a constant runtime index -> the element itself, rounded
 *   and clamped to the array exactly as the interpreter does.
 * Needs: valid IR.  Keeps: ids (instructions change in place), control
 * flow.  Leaves dead constants for DCE. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <math.h>
#include <string.h>

static bool is_const(const struct ir_src *s)
{
	return s->def && s->def->op == IR_OP_CONST;
}

/* Value of the source in the op's component order. */
static void const_value(const struct ir_src *s, float out[4])
{
	for (int c = 0; c < 4; c++)
		out[c] = s->def->imm[s->swz[c] & 3];
}

/* Source i is the constant v in every component the op reads. */
static bool src_is(const struct ir_func *f, const struct ir_instr *in, int i, float v)
{
	if (i >= in->nsrc || !is_const(&in->src[i]))
		return false;
	float val[4];
	const_value(&in->src[i], val);
	for (int c = 0; c < ir_src_ncomp(f, in, i); c++)
		if (val[c] != v)
			return false;
	return true;
}

static bool fold_constants(const struct ir_func *f, struct ir_instr *in)
{
	if (in->op == IR_OP_CONST || !ir_op_is_evaluable(in->op) || in->nsrc < 1)
		return false;
	float s[IR_MAX_SRCS][4];
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		if (!is_const(&in->src[i]))
			return false;
		const_value(&in->src[i], s[i]);
	}
	float out[4];
	if (!ir_eval_op(in->op, in->ncomp, ir_src_ncomp(f, in, 0), (const float(*)[4])s, out))
		return false;
	in->op = IR_OP_CONST;
	in->nsrc = 0;
	memset(in->src, 0, sizeof in->src);
	memcpy(in->imm, out, sizeof in->imm);
	return true;
}

static void become_mov(struct ir_instr *in, int keep)
{
	struct ir_src s = in->src[keep];
	in->op = IR_OP_MOV;
	in->nsrc = 1;
	in->src[0] = s;
	in->base = s.def->base;
}

static void become_zero(struct ir_instr *in)
{
	in->op = IR_OP_CONST;
	in->nsrc = 0;
	memset(in->imm, 0, sizeof in->imm);
}

static void become_binary(struct ir_instr *in, enum ir_op op, int a, int b)
{
	struct ir_src sa = in->src[a], sb = in->src[b];
	in->op = op;
	in->nsrc = 2;
	in->src[0] = sa;
	in->src[1] = sb;
}

/* Sources i and j read the same value in every component the op uses. */
static bool same_src(const struct ir_func *f, const struct ir_instr *in, int i, int j)
{
	if (in->src[i].def != in->src[j].def)
		return false;
	int n = ir_src_ncomp(f, in, i);
	for (int c = 0; c < n; c++)
		if (in->src[i].swz[c] != in->src[j].swz[c])
			return false;
	return true;
}

/* op(inner(x)) is x (-(-x), !!x, f2b(b2f(x))): a MOV of x. */
static bool undo(struct ir_instr *in, enum ir_op inner)
{
	struct ir_instr *d = in->src[0].def;
	if (!d || d->op != inner || d->nsrc != 1 || !d->src[0].def)
		return false;
	in->src[0] = ir_src_through(&d->src[0], in->src[0].swz);
	in->op = IR_OP_MOV;
	return true;
}

/* TGSI's CMP d, -b2f(c), a, b (select(-b2f(c) < 0, a, b)) tests c:
 * -x < 0 is 0 < x (both false for NaN and zeros), and 0 < b2f(c), a 0
 * or a 1, is c. */
static bool compare_zero(const struct ir_func *f, struct ir_instr *in)
{
	struct ir_instr *d = in->src[0].def;
	if (src_is(f, in, 1, 0.0f) && d && d->op == IR_OP_NEG && d->nsrc == 1 && d->src[0].def) {
		struct ir_src x = ir_src_through(&d->src[0], in->src[0].swz);
		in->src[0] = in->src[1];
		in->src[1] = x;
		return true;
	}
	d = in->src[1].def;
	if (src_is(f, in, 0, 0.0f) && d && d->op == IR_OP_B2F && d->nsrc == 1 && d->src[0].def) {
		in->src[0] = ir_src_through(&d->src[0], in->src[1].swz);
		in->nsrc = 1;
		in->op = IR_OP_MOV;
		return true;
	}
	return false;
}

/* vec of components of one value: a mov with the gathered swizzle. */
static bool vec_to_mov(struct ir_instr *in)
{
	if (in->nsrc < 1 || in->nsrc > 4 || in->nsrc != in->ncomp || !in->src[0].def)
		return false;
	struct ir_src s = { in->src[0].def, { 0, 0, 0, 0 } };
	for (int c = 0; c < in->nsrc; c++) {
		if (in->src[c].def != s.def)
			return false;
		s.swz[c] = in->src[c].swz[0];
	}
	for (int c = in->nsrc; c < 4; c++)
		s.swz[c] = s.swz[in->nsrc - 1];
	in->op = IR_OP_MOV;
	in->nsrc = 1;
	in->src[0] = s;
	return true;
}

static bool fold_uniform_index(const struct ir_func *f, struct ir_instr *in)
{
	if (in->nsrc != 1 || !is_const(&in->src[0]) || in->index < 0 || in->index >= f->nuniforms)
		return false;
	float idx = (float)in->offset + in->src[0].def->imm[in->src[0].swz[0] & 3];
	float r = floorf(idx + 0.5f);
	int lo, hi;
	ir_uniform_index_range(&f->uniforms[in->index], in->offset, &lo, &hi);
	in->offset = r != r || r < (float)lo ? lo : r > (float)hi ? hi : (int)r;
	in->nsrc = 0;
	memset(&in->src[0], 0, sizeof in->src[0]);
	return true;
}

/* all/any over a VEC with constant components: all(.., false, ..) is
 * false, any(.., true, ..) true; the other constants drop out, so with one
 * unknown component left the result is that component, with none the
 * constant (bvec4(true, 42.0, x > k, 111) in piglit's all/any tests). */
static bool fold_all_any(const struct ir_func *f, struct ir_instr *in)
{
	const struct ir_instr *d = in->src[0].def;
	if (!d || d->op != IR_OP_VEC)
		return false;
	bool all = in->op == IR_OP_ALL;
	int n = ir_src_ncomp(f, in, 0);
	const struct ir_src *unknown = NULL;
	int nunknown = 0;
	for (int c = 0; c < n; c++) {
		int k = in->src[0].swz[c] & 3;
		if (k >= d->nsrc || !d->src[k].def)
			return false;
		const struct ir_src *e = &d->src[k];
		if (is_const(e)) {
			if ((e->def->imm[e->swz[0] & 3] != 0.0f) != all) { /* decides it */
				become_zero(in);
				in->imm[0] = all ? 0.0f : 1.0f;
				return true;
			}
			continue;
		}
		if (!unknown || unknown->def != e->def || unknown->swz[0] != e->swz[0]) {
			nunknown++;
			unknown = e;
		}
	}
	if (nunknown > 1)
		return false;
	if (!unknown) {
		become_zero(in);
		in->imm[0] = all ? 1.0f : 0.0f;
		return true;
	}
	struct ir_src only = *unknown;
	in->op = IR_OP_MOV;
	in->nsrc = 1;
	in->src[0] = only;
	return true;
}

static bool fold_identity(const struct ir_func *f, struct ir_instr *in)
{
	switch (in->op) {
	case IR_OP_ALL:
	case IR_OP_ANY:
		return fold_all_any(f, in);
	case IR_OP_UNIFORM:
		return fold_uniform_index(f, in);
	case IR_OP_MUL:
		if (src_is(f, in, 0, 0.0f) || src_is(f, in, 1, 0.0f))
			return become_zero(in), true;
		if (src_is(f, in, 1, 1.0f))
			return become_mov(in, 0), true;
		if (src_is(f, in, 0, 1.0f))
			return become_mov(in, 1), true;
		return false;
	case IR_OP_ADD:
		if (src_is(f, in, 1, 0.0f))
			return become_mov(in, 0), true;
		if (src_is(f, in, 0, 0.0f))
			return become_mov(in, 1), true;
		return false;
	case IR_OP_SUB:
		if (src_is(f, in, 1, 0.0f))
			return become_mov(in, 0), true;
		return false;
	case IR_OP_DIV:
		if (src_is(f, in, 1, 1.0f))
			return become_mov(in, 0), true;
		return false;
	case IR_OP_MAD:
		if (src_is(f, in, 0, 0.0f) || src_is(f, in, 1, 0.0f))
			return become_mov(in, 2), true;
		if (src_is(f, in, 0, 1.0f))
			return become_binary(in, IR_OP_ADD, 1, 2), true;
		if (src_is(f, in, 1, 1.0f))
			return become_binary(in, IR_OP_ADD, 0, 2), true;
		if (src_is(f, in, 2, 0.0f))
			return become_binary(in, IR_OP_MUL, 0, 1), true;
		return false;
	case IR_OP_MIX:
		if (src_is(f, in, 2, 0.0f))
			return become_mov(in, 0), true;
		return false;
	case IR_OP_SELECT:
		if (src_is(f, in, 0, 1.0f))
			return become_mov(in, 1), true;
		if (src_is(f, in, 0, 0.0f) || same_src(f, in, 1, 2))
			return become_mov(in, 2), true;
		/* bool select(c, true, false) is c, select(c, false, true) is !c */
		if (in->base == IR_BOOL && src_is(f, in, 1, 1.0f) && src_is(f, in, 2, 0.0f))
			return become_mov(in, 0), true;
		if (in->base == IR_BOOL && src_is(f, in, 1, 0.0f) && src_is(f, in, 2, 1.0f)) {
			become_mov(in, 0);
			in->op = IR_OP_NOT;
			return true;
		}
		return false;
	case IR_OP_LT:
		return compare_zero(f, in);
	case IR_OP_NEG:
		return undo(in, IR_OP_NEG);
	case IR_OP_NOT:
		return undo(in, IR_OP_NOT);
	case IR_OP_F2B:
		/* a bool made a float and tested again (TGSI's SGE ... IF) */
		return undo(in, IR_OP_B2F);
	case IR_OP_VEC:
		return vec_to_mov(in);
	case IR_OP_MOV: {
		struct ir_instr *d = in->src[0].def;
		if (!d || d->op != IR_OP_MOV || d->nsrc != 1 || !d->src[0].def)
			return false;
		in->src[0] = ir_src_through(&d->src[0], in->src[0].swz);
		return true;
	}
	default:
		return false;
	}
}

static bool fold_instr(struct ir_func *f, struct ir_instr *in)
{
	if (fold_constants(f, in))
		return true;
	/* an identity may expose another (mad -> mul -> mov) */
	bool progress = false;
	for (int guard = 0; guard < 4 && fold_identity(f, in); guard++)
		progress = true;
	return fold_constants(f, in) || progress;
}

bool ir_opt_constant_fold(struct ir_func *f)
{
	return ir_rewrite_each(f, fold_instr);
}
