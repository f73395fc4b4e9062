/* Isel of local arrays in consecutive temporaries (the plan:
 * plan_arrays.c).
 * An array's elements are multi vregs (cg_vreg.array, .elem) that
 * regalloc puts in consecutive temporaries; a read through aL is one
 * operand CG_FILE_TEMP_REL on the element addressed in pass 0, a write
 * one late op with dst_rel; at a constant element, the element's vreg. */
#include "isel.h"

/* Marks element e of array a; its lanes are fixed (a scalar in R), as
 * every element must lie in the same lanes of its temporary. */
static void make_member(struct cg_ctx *cg, int v, int a, int e)
{
	struct cg_vreg *r = &cg->vregs[v];
	r->array = a;
	r->elem = e;
	for (int c = 0; c < r->ncomp; c++)
		r->lane[c] = (uint8_t)c;
	cg->arrays[a].vreg[e] = v;
}

/* The operands of MAD(-index, 1, limit), >= 0 while the access is inside
 * the array: the guard of a read and of a write. */
static bool guard_operands(struct isel *s, const struct cg_arr_access *x, struct cg_opnd *neg_idx,
			   struct cg_opnd *lim)
{
	if (!isel_opnd(s, x->idx, 1, neg_idx) || !cg_const_opnd(s->cg, &x->limit, 1, s->loc, lim))
		return false;
	*neg_idx = opnd_neg(opnd_entry(*neg_idx, 0));
	return true;
}

/* The R predicate bit: limit - index >= 0, for a guarded write. */
static bool guard_predicate(struct isel *s, const struct cg_arr_access *x)
{
	struct cg_opnd ni, lim;
	if (!guard_operands(s, x, &ni, &lim))
		return false;
	struct cg_op *p = isel_alu(s, CG_MAD, -1, 1, &ni, &ONE, &lim);
	if (!p)
		return false;
	p->alu_result = p->pred_write = true;
	p->alu_cmp = R500_CMP_GE0;
	return true;
}

/* Value v written to the element x addresses through aL: one late op
 * (after every read of the old elements in its region), predicated on
 * the guard where passes may leave the array. */
static bool rel_write(struct isel *s, const struct cg_array *arr, const struct cg_arr_access *x,
		      int n, struct cg_opnd v)
{
	if (!isel_stable_opnd(s, n, &v) || (x->guard && !guard_predicate(s, x)))
		return false;
	struct cg_op *w = isel_alu(s, CG_MAD, arr->vreg[x->pos], mask_of(n), &v, &ONE, &ZERO);
	if (!w)
		return false;
	w->late = w->dst_rel = true;
	w->predicated = x->guard;
	return true;
}

bool isel_arrays_start(struct isel *s)
{
	struct cg_ctx *cg = s->cg;
	for (int a = 0; a < cg->narrays; a++) {
		struct cg_array *arr = &cg->arrays[a];
		for (int e = 0; e < arr->n; e++) {
			int v = cg_new_vreg(cg, arr->ncomp);
			if (v < 0)
				return false;
			cg->vregs[v].multi = true;
			make_member(cg, v, a, e);
			if (arr->zero[e] && !isel_late_copy(s, v, arr->ncomp, ZERO))
				return false;
		}
	}
	return true;
}

/* An element operand: its vreg, or through aL. */
static struct cg_opnd element(const struct isel *s, const struct cg_array *arr,
			      const struct cg_arr_access *x)
{
	struct cg_opnd t = vopnd(arr->vreg[x->pos]);
	if (x->rel)
		t.file = CG_FILE_TEMP_REL;
	return t;
}

/* An IR STORE: a late copy into the element (under if-converted IFs the
 * old element where they fail). */
static bool store(struct isel *s, struct ir_instr *in, const struct cg_arr_access *x)
{
	const struct cg_array *arr = &s->cg->arrays[x->array];
	int n = arr->ncomp;
	struct cg_opnd v, c;
	bool always;
	if (x->pos < 0)
		return true; /* names no element: no effect (ir_array) */
	if (!isel_opnd(s, &in->src[0], n, &v) || !isel_path_condition(s, NULL, &c, &always))
		return false;
	if (x->forwarded) { /* a LOAD of its block reads the value (plan_arrays.c) */
		int r = isel_mad(s, n, v, ONE, ZERO);
		if (r < 0)
			return false;
		v = vopnd(r);
		s->vreg_of[in->id] = r;
	}
	if (!always) {
		struct cg_opnd old = element(s, arr, x), ce = opnd_entry(c, 0);
		int d = isel_op(s, CG_CND, n, &v, &old, &ce);
		if (d < 0)
			return false;
		v = vopnd(d);
	}
	if (!x->rel)
		return isel_late_copy(s, arr->vreg[x->pos], n, v);
	return rel_write(s, arr, x, n, v);
}

/* An IR LOAD through aL past the last element gives the last element. */
static int load(struct isel *s, const struct cg_arr_access *x)
{
	const struct cg_array *arr = &s->cg->arrays[x->array];
	struct cg_opnd t = element(s, arr, x), ni, lim;
	if (!x->guard)
		return isel_mad(s, arr->ncomp, t, ONE, ZERO);
	if (!guard_operands(s, x, &ni, &lim))
		return -1;
	int g = isel_mad(s, 1, ni, ONE, lim);
	if (g < 0)
		return -1;
	struct cg_opnd gv = vopnd(g), last = vopnd(arr->vreg[arr->n - 1]);
	return isel_op(s, CG_CMP, arr->ncomp, &t, &last, &gv);
}

bool isel_array_access(struct isel *s, struct ir_instr *in, const struct cg_arr_access *x)
{
	struct cg_ctx *cg = s->cg;
	switch (x->role) {
	case CG_ARR_LOAD: {
		int r = x->fwd	  ? s->vreg_of[x->fwd->id]
			: x->direct ? cg->arrays[x->array].vreg[x->pos]
				    : load(s, x);
		if (r < 0)
			return false;
		s->vreg_of[in->id] = r;
		return true;
	}
	case CG_ARR_STORE:
		return store(s, in, x);
	case CG_ARR_NONE:
		break;
	}
	return cg_error(cg, in->loc, "internal error: bad array access");
}
