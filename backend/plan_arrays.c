/* The plan of local arrays (ir.h: ir_array) the IR left to the backend:
 * each placed in consecutive temporaries, its LOADs and STOREs one op
 * each (isel_array.c): at a constant element the element's temporary, at
 * a loop's counter (array_rel.h) the temporary of the element addressed
 * in pass 0 plus aL.  The arrays not placed are lowered to selects here,
 * on the backend's copy of the IR (lower_arrays' other mode), so every
 * later stage sees placed arrays or none.
 *
 * A write of an element is a late op (cg_op.late): it follows every other
 * op of its region, and the scheduler does not order two late ops that
 * write one element.  So an array is placed only when, in each stretch of
 * code between loop boundaries (which are barriers), its LOADs all come
 * before its STOREs and no two STOREs may reach one element (two through
 * aL may, at different offsets from the one counter).  Its
 * elements start at zero (ir_array): a late copy at the top, except for
 * elements the top-level code stores at a constant before any LOAD.
 *
 * Needs: the IR.  Gives: cg->func (a lowered copy when some array is not
 * placed), cg->arrays, cg->arr_access by IR id, cg->arr_loops.  Without
 * the candidate's `arrays` (--skip=loop-array, -O0) nothing is placed. */
#include "cg.h"

#include <string.h>

#include "array_rel.h"
#include "ir_eval.h"
#include "ir_pass.h"

/* Elements per array, a quarter of the temporaries. */
enum { PLAN_MAX_ELEMS = 32 };

struct plan {
	struct cg_ctx *cg;
	const struct ir_func *f;
	bool *ok;             /* by array: still placeable */
	bool **stored;        /* by array, element: a write in this stretch */
	bool *rel_stored;     /* by array: an aL write in this stretch */
	bool **rel_at;        /* by array, element: one addressing it in pass 0 */
	bool **zero;          /* by array, element: needs its zero at the top */
};

static bool is_access(const struct ir_func *f, const struct ir_instr *in)
{
	return (in->op == IR_OP_LOAD || in->op == IR_OP_STORE) && in->index >= 0 &&
	       in->index < f->narrays;
}

static int store_element(const struct ir_func *f, const struct ir_instr *in)
{
	return ir_array_element(&f->arrays[in->index], in->offset, false, 0.0f);
}

/* A new stretch: nothing written yet. */
static void stretch(struct plan *p)
{
	for (int a = 0; a < p->f->narrays; a++) {
		memset(p->stored[a], 0, (size_t)p->f->arrays[a].length);
		memset(p->rel_at[a], 0, (size_t)p->f->arrays[a].length);
		p->rel_stored[a] = false;
	}
}

static void access(struct plan *p, const struct ir_instr *in)
{
	int a = in->index, n = p->f->arrays[a].length;
	bool any_const = false;
	for (int e = 0; e < n; e++)
		any_const |= p->stored[a][e];
	struct array_rel r;
	if (in->op == IR_OP_LOAD) {
		p->ok[a] &= !any_const && !p->rel_stored[a];
	} else if (array_access_dynamic(in)) {
		if (!array_rel_access(p->f, in, &r)) {
			p->ok[a] = false;
			return;
		}
		p->ok[a] &= !any_const && !p->rel_at[a][r.pos0];
		p->rel_at[a][r.pos0] = p->rel_stored[a] = true;
	} else {
		int e = store_element(p->f, in);
		if (e < 0)
			return; /* names no element: no effect */
		p->ok[a] &= !p->rel_stored[a] && !p->stored[a][e];
		p->stored[a][e] = true;
	}
}

static void walk(struct plan *p, const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			walk(p, &cf->then_list);
			walk(p, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			stretch(p);
			walk(p, &cf->body);
			stretch(p);
		} else {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				if (is_access(p->f, in))
					access(p, in);
		}
	}
}

/* zero[a][e]: element e may be read before the program writes it.  The
 * top-level blocks before any IF or loop store some at a constant before
 * any LOAD of the array; the others need their zero. */
static void find_zeros(struct plan *p)
{
	const struct ir_func *f = p->f;
	bool *loaded = arena_alloc(p->cg->arena, (size_t)f->narrays + 1);
	if (!loaded)
		return;
	memset(loaded, 0, (size_t)f->narrays + 1);
	for (int a = 0; a < f->narrays; a++)
		memset(p->zero[a], 1, (size_t)f->arrays[a].length);
	for (const struct ir_cf *cf = f->body.first; cf && cf->kind == IR_CF_BLOCK; cf = cf->next)
		for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
			if (!is_access(f, in))
				continue;
			loaded[in->index] |= in->op == IR_OP_LOAD || array_access_dynamic(in);
			int e = in->op == IR_OP_STORE && !loaded[in->index] ? store_element(f, in) : -1;
			if (e >= 0)
				p->zero[in->index][e] = false;
		}
	/* the zeros are the first stretch's first writes */
	for (int a = 0; a < f->narrays; a++)
		memcpy(p->stored[a], p->zero[a], (size_t)f->arrays[a].length);
}

/* Which arrays can be placed: every dynamic access through aL, the order
 * of the header, a length that leaves temporaries for the rest. */
static bool choose(struct plan *p)
{
	const struct ir_func *f = p->f;
	struct arena *ar = p->cg->arena;
	size_t na = (size_t)f->narrays + 1;
	p->ok = arena_alloc(ar, na);
	p->rel_stored = arena_alloc(ar, na);
	p->stored = arena_alloc(ar, sizeof *p->stored * na);
	p->rel_at = arena_alloc(ar, sizeof *p->rel_at * na);
	p->zero = arena_alloc(ar, sizeof *p->zero * na);
	if (!p->ok || !p->rel_stored || !p->stored || !p->rel_at || !p->zero)
		return false;
	array_rel_arrays(f, p->ok);
	for (int a = 0; a < f->narrays; a++) {
		size_t n = (size_t)f->arrays[a].length;
		p->stored[a] = arena_alloc(ar, n);
		p->zero[a] = arena_alloc(ar, n);
		p->rel_at[a] = arena_alloc(ar, n);
		if (!p->stored[a] || !p->zero[a] || !p->rel_at[a])
			return false;
		memset(p->rel_at[a], 0, n);
		p->ok[a] &= f->arrays[a].length <= PLAN_MAX_ELEMS && f->arrays[a].base == IR_FLOAT;
		p->rel_stored[a] = false;
	}
	find_zeros(p);
	walk(p, &f->body);
	return true;
}

static bool note_loop(struct cg_ctx *cg, const struct array_rel *r)
{
	for (int i = 0; i < cg->narr_loops; i++)
		if (cg->arr_loops[i].loop == r->loop)
			return true;
	struct cg_rel_read *n = arena_realloc(cg->arena, cg->arr_loops,
					      sizeof *n * (size_t)cg->narr_loops,
					      sizeof *n * (size_t)(cg->narr_loops + 1));
	if (!n)
		return false;
	cg->arr_loops = n;
	n[cg->narr_loops++] = (struct cg_rel_read){ r->loop, -1, r->step };
	return true;
}

/* Program order, for loads that no store follows. */
struct order {
	struct cg_ctx *cg;
	int n;
	int *last_store;      /* by array: the last STORE's place, -1 none */
};

static void note_store(struct ir_instr *in, void *ud)
{
	struct order *o = ud;
	if (is_access(o->cg->func, in) && in->op == IR_OP_STORE)
		o->last_store[in->index] = o->n;
	o->n++;
}

static void note_access(struct ir_instr *in, void *ud)
{
	struct order *o = ud;
	struct cg_ctx *cg = o->cg;
	const struct ir_func *f = cg->func;
	int here = o->n++;
	if (!is_access(f, in) || cg->failed)
		return;
	struct cg_arr_access *x = arena_alloc(cg->arena, sizeof *x);
	struct array_rel r;
	if (!x)
		return (void)(cg->failed = true);
	memset(x, 0, sizeof *x);
	x->role = in->op == IR_OP_LOAD ? CG_ARR_LOAD : CG_ARR_STORE;
	x->array = x->elem = in->index;
	if (array_access_dynamic(in)) {
		if (!array_rel_access(f, in, &r)) {
			cg_error(cg, in->loc, "internal error: array access not through aL");
			return;
		}
		x->rel = true;
		x->pos = r.pos0;
		if (!note_loop(cg, &r))
			cg->failed = true;
	} else {
		x->pos = in->op == IR_OP_LOAD ? ir_array_element(&f->arrays[in->index], in->offset,
								   false, 0.0f)
					      : store_element(f, in);
		if (x->pos < 0 && in->op == IR_OP_LOAD) /* as ir_array: the last */
			x->pos = f->arrays[in->index].length - 1;
		x->direct = in->op == IR_OP_LOAD && here > o->last_store[in->index] &&
			    !ir_cf_loop_around(ir_instr_cf(in));
	}
	cg->arr_access[in->id] = x;
}

/* The placed arrays: one cg_array each (loop NULL), zeros noted. */
static bool place(struct cg_ctx *cg, struct plan *p, const bool *keep)
{
	const struct ir_func *f = cg->func;
	cg->arrays = arena_alloc(cg->arena, sizeof *cg->arrays * ((size_t)f->narrays + 1));
	if (!cg->arrays)
		return false;
	cg->cap_arrays = f->narrays + 1;
	for (int a = 0, old = 0; a < f->narrays; a++, old++) {
		while (!keep[old]) /* lowering dropped the others, in order */
			old++;
		struct cg_array *arr = &cg->arrays[cg->narrays++];
		memset(arr, 0, sizeof *arr);
		arr->n = f->arrays[a].length;
		arr->ncomp = f->arrays[a].ncomp;
		arr->vreg = arena_alloc(cg->arena, sizeof(int) * (size_t)arr->n);
		arr->zero = p->zero[old];
		if (!arr->vreg)
			return false;
		for (int e = 0; e < arr->n; e++)
			arr->vreg[e] = -1;
	}
	struct order o = { cg, 0, arena_alloc(cg->arena, sizeof(int) * ((size_t)f->narrays + 1)) };
	if (!o.last_store)
		return false;
	for (int a = 0; a < f->narrays; a++)
		o.last_store[a] = -1;
	ir_foreach_instr(cg->func, note_store, &o);
	o.n = 0;
	ir_foreach_instr(cg->func, note_access, &o);
	return !cg->failed;
}

bool cg_plan_arrays(struct cg_ctx *cg)
{
	const struct ir_func *f = cg->func;
	cg->narrays = cg->narr_loops = 0;
	if (f->narrays == 0)
		return true;
	struct plan p = { .cg = cg, .f = f };
	if (!choose(&p))
		return cg->failed = true, false;
	bool all = true;
	for (int a = 0; a < f->narrays; a++) {
		p.ok[a] &= cg_opt_enabled(cg, SW_LOOP_ARRAY);
		all &= p.ok[a];
	}
	if (!all) { /* the others as selects, on a copy: the IR is shared */
		struct ir_func *g = ir_func_clone(f);
		if (!g)
			return cg->failed = true, false;
		ir_lower_arrays_except(g, p.ok);
		cg->func = g;
		int placed = 0;
		for (int a = 0; a < f->narrays; a++)
			placed += p.ok[a];
		if (g->narrays != placed) /* lower_arrays' limit (no frontend makes such loops) */
			return cg_error(cg, (struct src_loc){ 0 }, "a local array stored in a loop "
					"with more than %d jumps", IR_MAX_SRCS - 2);
	}
	size_t nid = (size_t)cg->func->next_id + 1;
	cg->arr_access = arena_alloc(cg->arena, sizeof *cg->arr_access * nid);
	if (!cg->arr_access)
		return cg->failed = true, false;
	memset(cg->arr_access, 0, sizeof *cg->arr_access * nid);
	if (!place(cg, &p, p.ok))
		return cg->failed = true, false;
	return true;
}
