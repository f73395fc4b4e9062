/* Constants lane by lane: a component of a vector value that is a
 * constant, wherever the value's other components are not, is read as
 * that constant.  `vec3 x = vec3(uv, 0.0); vec3 p = floor(x), f = fract(x);
 * f = f * f * (3.0 - 2.0 * f);` has p.z = 0 and f.z = 0, so
 * `p.xy + vec2(37.0, 17.0) * p.z` reads a 0 and folds to p.xy, and
 * `mix(a, b, f.z)` to a (constant_fold).  constant_fold folds an op only
 * when all of its sources are constants; this pass follows the constant
 * lanes through VEC, MOV and the component-wise ops (computed by
 * ir_eval_op, as the interpreter computes them) and DOTs of constants.
 * A source that reads only constant lanes becomes a constant of its own.
 * Needs: valid IR.  Keeps: control flow, ids (new constants get fresh
 * ids).  Leaves dead ops to DCE. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <stdlib.h>

struct lanes {
	uint8_t known;  /* bit c: component c is a constant */
	float v[4];
};

struct lane_pass {
	struct ir_func *f;
	struct lanes *l;  /* by id */
	uint32_t n;
	bool failed, progress;
};

static const struct lanes *lanes_of(const struct lane_pass *s, const struct ir_instr *d)
{
	return d && d->id < s->n && d->base == IR_FLOAT ? &s->l[d->id] : NULL;
}

/* Whether entry e of source src reads a constant lane; its value. */
static bool lane(const struct lane_pass *s, const struct ir_src *src, int e, float *v)
{
	const struct lanes *l = lanes_of(s, src->def);
	int c = src->swz[e] & 3;
	if (src->def && src->def->op == IR_OP_CONST && src->def->base == IR_FLOAT) {
		*v = src->def->imm[c]; /* the constants this pass makes too */
		return true;
	}
	if (!l || !(l->known >> c & 1))
		return false;
	*v = l->v[c];
	return true;
}

static bool compwise(const struct ir_instr *in)
{
	const struct ir_op_info *oi = &ir_op_infos[in->op];
	return (oi->flags & IRF_COMPWISE) && !(oi->flags & (IRF_QUAD | IRF_SIDE | IRF_BOOL)) &&
	       oi->src_type == 'f' && oi->res_type == 'f' && ir_op_is_evaluable(in->op) &&
	       in->nsrc >= 1 && in->nsrc <= IR_MAX_SRCS;
}

/* The constant lanes of in's value, from its sources' (program order:
 * a PHI, whose sources may come later, has none; a CONST's lanes are
 * read off it by lane()). */
static void find_lanes(struct lane_pass *s, struct ir_instr *in)
{
	struct lanes *out = &s->l[in->id];
	*out = (struct lanes){ 0 };
	if (in->base != IR_FLOAT || in->ncomp < 1 || in->ncomp > 4)
		return;
	float res[4];
	if (in->op == IR_OP_MOV || in->op == IR_OP_VEC) {
		for (int c = 0; c < in->ncomp && (in->op == IR_OP_MOV || c < in->nsrc); c++) {
			bool vec = in->op == IR_OP_VEC;
			if (lane(s, &in->src[vec ? c : 0], vec ? 0 : c, &out->v[c]))
				out->known |= (uint8_t)(1u << c);
		}
		return;
	}
	int width = ir_op_dot_width(in->op);
	if (width) { /* constant when every product is */
		float src[2][4] = { { 0 } };
		for (int c = 0; c < width; c++)
			for (int i = 0; i < 2; i++)
				if (!lane(s, &in->src[i], c, &src[i][c]))
					return;
		if (ir_eval_op(in->op, 1, width, (const float(*)[4])src, res)) {
			out->v[0] = res[0];
			out->known = 1;
		}
		return;
	}
	if (!compwise(in))
		return;
	for (int c = 0; c < in->ncomp; c++) {
		float one[IR_MAX_SRCS][4];
		bool all = true;
		for (int i = 0; i < in->nsrc && all; i++)
			all = lane(s, &in->src[i], c, &one[i][0]);
		if (all && ir_eval_op(in->op, 1, 1, (const float(*)[4])one, res)) {
			out->v[c] = res[0];
			out->known |= (uint8_t)(1u << c);
		}
	}
}

/* Source i of `in` as a constant when every lane it reads is one. */
static void replace_src(struct lane_pass *s, struct ir_instr *in, int i)
{
	struct ir_src *src = &in->src[i];
	const struct lanes *l = lanes_of(s, src->def);
	if (!l || !l->known || src->def->op == IR_OP_CONST)
		return;
	int n = ir_src_ncomp(s->f, in, i);
	float v[4] = { 0, 0, 0, 0 };
	for (int e = 0; e < n; e++)
		if (!lane(s, src, e, &v[e]))
			return;
	struct ir_instr *k = ir_build_const_before(s->f, in, n, IR_FLOAT, v);
	if (!k) {
		s->failed = true;
		return;
	}
	*src = ir_src_of(k);
	s->progress = true;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct lane_pass *s = ud;
	if (in->id >= s->n || s->failed)
		return;
	/* sources first: the lanes of `in` are found from what it reads */
	if (in->op != IR_OP_PHI && in->op != IR_OP_CONST)
		for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
			replace_src(s, in, i);
	find_lanes(s, in);
}

/* Whether `in` is a VEC of constants and other values: the only op that
 * makes some lanes constant and not all (the rest follow from it). */
static bool mixes_constants(const struct ir_instr *in, void *ud)
{
	(void)ud;
	if (in->op != IR_OP_VEC || in->base != IR_FLOAT)
		return false;
	bool some = false, all = true;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		bool k = in->src[i].def && in->src[i].def->op == IR_OP_CONST;
		some |= k;
		all &= k;
	}
	return some && !all;
}

bool ir_opt_lane_const(struct ir_func *f)
{
	if (!ir_any_instr(f, mixes_constants, NULL))
		return false;
	struct lane_pass s = { f, calloc((size_t)f->next_id + 1, sizeof(struct lanes)), f->next_id,
			       false, false };
	if (!s.l)
		return false;
	/* the constants made go before the op visited: the walk does not
	 * see them (lane() reads any constant) */
	ir_foreach_instr(f, visit, &s);
	free(s.l);
	return s.progress;
}
