/* Constant expressions that sema cannot fold with its own small rules
 * (built-in functions, matrix products, conversions) are folded by
 * lowering them into a scratch IR function and evaluating it with the
 * IR's own arithmetic (ir_eval.h): the value is exactly what the shader
 * would compute at run time.  The same folds the initializers of
 * uniforms (GLSL 1.20), aggregates included. */
#include "lower_int.h"

#include <string.h>

#include "ir_eval.h"

/* A scratch lowering context in the front end's arena. */
static bool scratch_begin(struct lower *l, struct fe_ctx *fe)
{
	memset(l, 0, sizeof *l);
	l->fe = fe;
	l->quiet = true;
	l->f = ir_func_create(fe->arena, IR_STAGE_FRAGMENT);
	if (!l->f)
		return false;
	ir_builder_init(&l->b, l->f);
	const float zero[4] = { 0, 0, 0, 0 };
	l->zero = ir_build_const(&l->b, 4, IR_FLOAT, zero);
	l->falsev = ir_build_const(&l->b, 4, IR_BOOL, zero);
	return l->zero && l->falsev;
}

/* Every value of the scratch function, by id; NULL when it is not one
 * block of evaluable instructions (a uniform read, a texture, a branch). */
static float (*scratch_eval(struct lower *l))[4]
{
	if (l->failed || !l->f->body.first || l->f->body.first != l->f->body.last ||
	    l->f->body.first->kind != IR_CF_BLOCK)
		return NULL;
	uint32_t n = l->f->next_id;
	float (*val)[4] = arena_alloc(l->fe->arena, sizeof *val * n);
	if (!val)
		return NULL;
	for (struct ir_instr *in = l->f->body.first->block.first; in; in = in->next) {
		if (in->id >= n)
			return NULL;
		if (in->op == IR_OP_CONST) {
			memcpy(val[in->id], in->imm, sizeof val[in->id]);
			continue;
		}
		if (in->op == IR_OP_DDX || in->op == IR_OP_DDY) {
			/* every source is a constant: its derivatives are zero */
			memset(val[in->id], 0, sizeof val[in->id]);
			continue;
		}
		if (!ir_op_is_evaluable(in->op) || in->nsrc > IR_MAX_SRCS)
			return NULL;
		float s[IR_MAX_SRCS][4];
		for (int i = 0; i < in->nsrc; i++) {
			const struct ir_src *src = &in->src[i];
			if (!src->def || src->def->id >= n)
				return NULL;
			for (int c = 0; c < 4; c++)
				s[i][c] = val[src->def->id][src->swz[c] & 3];
		}
		int n0 = in->nsrc > 0 && in->src[0].def ? in->src[0].def->ncomp : 1;
		if (!ir_eval_op(in->op, in->ncomp, n0, (const float (*)[4])s, val[in->id]))
			return NULL;
	}
	return val;
}

/* Component (c, k) of a folded value; false if it is not in `val`. */
static bool scratch_comp(const struct lower *l, float (*val)[4], const struct lv *r, int c, int k,
			 float *out)
{
	const struct ir_src *s = &r->col[c];
	if (!s->def || s->def->id >= l->f->next_id)
		return false;
	*out = val[s->def->id][s->swz[k] & 3];
	return true;
}

bool lower_fold_const(struct fe_ctx *fe, struct ast_node *e, struct sema_const *out)
{
	struct lower l;
	if (!scratch_begin(&l, fe))
		return false;
	struct lv r = lower_expr(&l, e);
	float (*val)[4] = scratch_eval(&l);
	if (!val)
		return false;
	memset(out, 0, sizeof *out);
	for (int c = 0; c < r.ncols && c < 4; c++)
		for (int k = 0; k < r.rows && k < 4; k++)
			if (!scratch_comp(&l, val, &r, c, k, &out->v[c * r.rows + k]))
				return false;
	return true;
}

bool lower_fold_const_leaves(struct fe_ctx *fe, struct ast_node *e, float (*out)[4][4],
			     int nleaves)
{
	if (nleaves != lower_leaf_count(e->ty))
		return false;
	struct lower l;
	if (!scratch_begin(&l, fe))
		return false;
	struct lv *leaves = arena_alloc(fe->arena, sizeof *leaves * (size_t)nleaves);
	if (!leaves)
		return false;
	if (lower_is_agg(e->ty))
		lower_agg(&l, e, leaves);
	else
		leaves[0] = lower_expr(&l, e);
	float (*val)[4] = scratch_eval(&l);
	if (!val)
		return false;
	memset(out, 0, sizeof *out * (size_t)nleaves);
	for (int i = 0; i < nleaves; i++)
		for (int c = 0; c < leaves[i].ncols && c < 4; c++)
			for (int k = 0; k < leaves[i].rows && k < 4; k++)
				if (!scratch_comp(&l, val, &leaves[i], c, k, &out[i][c][k]))
					return false;
	return true;
}
