/* Constant expressions that sema cannot fold with its own small rules
 * (built-in functions, matrix products, conversions) are folded by
 * lowering them into a scratch IR function and evaluating it with the
 * IR's own arithmetic (ir_eval.h): the value is exactly what the shader
 * would compute at run time. */
#include "lower_int.h"

#include <string.h>

#include "ir_eval.h"

bool lower_fold_const(struct fe_ctx *fe, struct ast_node *e, struct sema_const *out)
{
	struct lower l;
	memset(&l, 0, sizeof l);
	l.fe = fe;
	l.quiet = true;
	l.f = ir_func_create(fe->arena, IR_STAGE_FRAGMENT);
	if (!l.f)
		return false;
	ir_builder_init(&l.b, l.f);
	const float zero[4] = { 0, 0, 0, 0 };
	l.zero = ir_build_const(&l.b, 4, IR_FLOAT, zero);
	l.falsev = ir_build_const(&l.b, 4, IR_BOOL, zero);
	if (!l.zero || !l.falsev)
		return false;
	struct lv r = lower_expr(&l, e);
	if (l.failed || !l.f->body.first || l.f->body.first != l.f->body.last ||
	    l.f->body.first->kind != IR_CF_BLOCK)
		return false;
	uint32_t n = l.f->next_id;
	float (*val)[4] = arena_alloc(fe->arena, sizeof *val * n);
	if (!val)
		return false;
	for (struct ir_instr *in = l.f->body.first->block.first; in; in = in->next) {
		if (in->id >= n)
			return false;
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
			return false;
		float s[IR_MAX_SRCS][4];
		for (int i = 0; i < in->nsrc; i++) {
			const struct ir_src *src = &in->src[i];
			if (!src->def || src->def->id >= n)
				return false;
			for (int c = 0; c < 4; c++)
				s[i][c] = val[src->def->id][src->swz[c] & 3];
		}
		int n0 = in->nsrc > 0 && in->src[0].def ? in->src[0].def->ncomp : 1;
		if (!ir_eval_op(in->op, in->ncomp, n0, (const float (*)[4])s, val[in->id]))
			return false;
	}
	memset(out, 0, sizeof *out);
	for (int c = 0; c < r.ncols && c < 4; c++)
		for (int k = 0; k < r.rows && k < 4; k++) {
			const struct ir_src *s = &r.col[c];
			if (!s->def || s->def->id >= n)
				return false;
			out->v[c * r.rows + k] = val[s->def->id][s->swz[k] & 3];
		}
	return true;
}
