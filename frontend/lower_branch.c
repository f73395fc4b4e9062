/* Branches: `if (cond) then else` where variables are SSA values, so the
 * two arms' values of every variable are joined after it with PHIs.  The
 * arms are callbacks: this file lowers nothing itself, and cond, jump,
 * loop and statement lowering all branch through it. */
#include "lower_int.h"

#include <string.h>

/* Copies every variable's value (those in vars[0..n)). */
struct lv **lower_snapshot(struct lower *l, int n)
{
	struct lv **s = arena_alloc(l->f->arena, sizeof *s * (size_t)(n ? n : 1));
	if (!s)
		return NULL;
	for (int i = 0; i < n; i++) {
		struct lvar *v = l->vars[i];
		s[i] = arena_alloc(l->f->arena, sizeof **s * (size_t)v->nelems);
		if (!s[i])
			return NULL;
		memcpy(s[i], v->elems, sizeof **s * (size_t)v->nelems);
	}
	return s;
}

static void lower_restore(struct lower *l, struct lv **s, int n)
{
	for (int i = 0; i < n; i++)
		memcpy(l->vars[i]->elems, s[i], sizeof **s * (size_t)l->vars[i]->nelems);
}

static bool same_src(const struct ir_src *a, const struct ir_src *b, int n)
{
	return a->def == b->def && memcmp(a->swz, b->swz, (size_t)n) == 0;
}

void lower_branch(struct lower *l, struct ir_src cond, lower_arm_fn then_fn, void *then_ud,
		  lower_arm_fn else_fn, void *else_ud)
{
	if (l->failed)
		return;
	int nv = l->nvars;
	if (cond.def && cond.def->op == IR_OP_CONST) {
		/* a constant condition: only the arm taken is lowered (a call in
		 * the other may name a function never defined: piglit's
		 * glsl-const-folding-01) */
		bool taken = cond.def->imm[cond.swz[0] & 3] != 0;
		lower_arm_fn fn = taken ? then_fn : else_fn;
		if (fn)
			fn(l, taken ? then_ud : else_ud);
		l->nvars = nv;
		return;
	}
	bool written[nv ? nv : 1];
	for (int i = 0; i < nv; i++)
		written[i] = l->vars[i]->written;
	struct lv **before = lower_snapshot(l, nv);
	struct ir_cf *cf = ir_build_if(&l->b, cond);
	if (!cf || !before) {
		l->failed = true;
		return;
	}
	ir_builder_enter(&l->b, &cf->then_list, cf);
	if (then_fn)
		then_fn(l, then_ud);
	l->nvars = nv;
	struct lv **then_v = lower_snapshot(l, nv);
	lower_restore(l, before, nv);
	ir_builder_enter(&l->b, &cf->else_list, cf);
	if (else_fn)
		else_fn(l, else_ud);
	l->nvars = nv;
	struct lv **else_v = lower_snapshot(l, nv);
	ir_builder_after(&l->b, cf);
	if (!then_v || !else_v || l->failed) {
		l->failed = true;
		return;
	}
	for (int i = 0; i < nv; i++) {
		struct lvar *v = l->vars[i];
		v->written |= written[i];
		for (int e = 0; v->array >= 0 && e < v->nelems; e++) /* assigned on either side */
			v->elems[e] = lower_is_undef(l, &then_v[i][e]) ? else_v[i][e] : then_v[i][e];
		for (int e = 0; v->array < 0 && e < v->nelems; e++) {
			struct lv *a = &then_v[i][e], *b = &else_v[i][e], *out = &v->elems[e];
			*out = *a;
			for (int col = 0; col < a->ncols; col++) {
				if (same_src(&a->col[col], &b->col[col], a->rows))
					continue;
				struct ir_src s[2] = { a->col[col], b->col[col] };
				struct ir_instr *phi = lv_build(l, IR_OP_PHI, a->rows, 2, s);
				if (!phi)
					return;
				phi->base = a->base;
				out->col[col] = ir_src_of(phi);
			}
		}
	}
}
