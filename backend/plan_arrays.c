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
 * code between loop boundaries (which are barriers), no LOAD follows a
 * STORE that may write its element (unless the STORE is of the LOAD's
 * block and surely writes it: the LOAD then reads the stored value) and
 * no two STOREs may reach one element.  A guarded read (array_rel.h) may
 * give the last element, so no write may come before it.  Two accesses through aL at
 * different offsets from the one counter never meet in a pass.  Its
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

/* Elements per array (the recogniser of select chains took as many). */
enum { PLAN_MAX_ELEMS = 96 };

struct plan {
	struct cg_ctx *cg;
	const struct ir_func *f;
	bool *ok;             /* by array: still placeable */
	/* this stretch's writes, by array and element: the STORE at a
	 * constant element (or `zero_write`), the STORE through aL at the
	 * element it addresses in pass 0 */
	const struct ir_instr ***stored, ***rel_at;
	bool *any_const, *any_rel;
	bool **zero;          /* by array, element: needs its zero at the top */
	const struct ir_instr **fwd; /* by LOAD id: the STORE whose value it reads */
};

/* The zero an element starts with, as the first stretch's write. */
static const struct ir_instr zero_write;

static bool is_array_op(const struct ir_instr *in, void *ud)
{
	(void)ud;
	return in->op == IR_OP_LOAD || in->op == IR_OP_STORE;
}

static bool is_access(const struct ir_func *f, const struct ir_instr *in)
{
	return (in->op == IR_OP_LOAD || in->op == IR_OP_STORE) && in->index >= 0 &&
	       in->index < f->narrays;
}

/* The element a STORE at a constant writes (its offset plus a constant
 * index, if any), -1 none. */
static int store_element(const struct ir_func *f, const struct ir_instr *in)
{
	bool ix = in->nsrc > 1;
	return ir_array_element(&f->arrays[in->index], in->offset, ix,
				ix ? ir_src_const_comp(&in->src[1], 0) : 0.0f);
}

/* The element a LOAD at a constant reads (ir_array: the last when none). */
static int load_element(const struct ir_func *f, const struct ir_instr *in)
{
	bool ix = in->nsrc > 0;
	int e = ir_array_element(&f->arrays[in->index], in->offset, ix,
				 ix ? ir_src_const_comp(&in->src[0], 0) : 0.0f);
	return e >= 0 ? e : f->arrays[in->index].length - 1;
}

/* A new stretch: nothing written yet. */
static void stretch(struct plan *p)
{
	for (int a = 0; a < p->f->narrays; a++) {
		size_t n = sizeof **p->stored * (size_t)p->f->arrays[a].length;
		memset(p->stored[a], 0, n);
		memset(p->rel_at[a], 0, n);
		p->any_const[a] = p->any_rel[a] = false;
	}
}

/* A LOAD after a write of its own element in this stretch reads the
 * written value, when the write is a STORE of its block (the same path
 * under if-conversion): forwarded; otherwise the late write would come
 * too late. */
static void load_after(struct plan *p, const struct ir_instr *in, const struct ir_instr *w)
{
	struct array_rel r;
	if (w && w != &zero_write && w->block == in->block &&
	    !(array_access_dynamic(w) && array_rel_access(p->f, w, &r) && r.guard))
		p->fwd[in->id] = w;
	else if (w)
		p->ok[in->index] = false;
}

/* One access, in program order.  Through aL, two accesses at different
 * offsets from the one counter never meet in a pass; a constant one and
 * one through aL may. */
static void access(struct plan *p, const struct ir_instr *in)
{
	int a = in->index;
	struct array_rel r;
	bool rel = array_access_dynamic(in);
	if (rel && !array_rel_access(p->f, in, &r)) {
		p->ok[a] = false;
		return;
	}
	if (in->op == IR_OP_LOAD && rel && r.guard) {
		/* past the end it reads the last element, which any write may be */
		p->ok[a] &= !p->any_const[a] && !p->any_rel[a];
	} else if (in->op == IR_OP_LOAD) {
		p->ok[a] &= rel ? !p->any_const[a] : !p->any_rel[a];
		load_after(p, in, rel ? p->rel_at[a][r.pos0] : p->stored[a][load_element(p->f, in)]);
	} else if (rel) {
		p->ok[a] &= !p->any_const[a] && !p->rel_at[a][r.pos0];
		p->rel_at[a][r.pos0] = in;
		p->any_rel[a] = true;
	} else {
		int e = store_element(p->f, in);
		if (e < 0)
			return; /* names no element: no effect */
		p->ok[a] &= !p->any_rel[a] && !p->stored[a][e];
		p->stored[a][e] = in;
		p->any_const[a] = true;
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
		for (int e = 0; e < f->arrays[a].length; e++)
			if (p->zero[a][e]) {
				p->stored[a][e] = &zero_write;
				p->any_const[a] = true;
			}
}

/* Which arrays of p->f can be placed: every dynamic access through aL,
 * the order of the header, a length that leaves temporaries for the
 * rest; which LOADs read a STORE's value. */
static bool choose(struct plan *p)
{
	const struct ir_func *f = p->f;
	struct arena *ar = p->cg->arena;
	size_t na = (size_t)f->narrays + 1, nid = (size_t)f->next_id + 1;
	p->ok = arena_alloc(ar, na);
	p->any_const = arena_alloc(ar, na);
	p->any_rel = arena_alloc(ar, na);
	p->stored = arena_alloc(ar, sizeof *p->stored * na);
	p->rel_at = arena_alloc(ar, sizeof *p->rel_at * na);
	p->zero = arena_alloc(ar, sizeof *p->zero * na);
	p->fwd = arena_alloc(ar, sizeof *p->fwd * nid);
	if (!p->ok || !p->any_const || !p->any_rel || !p->stored || !p->rel_at || !p->zero ||
	    !p->fwd)
		return false;
	memset(p->fwd, 0, sizeof *p->fwd * nid);
	array_rel_arrays(f, p->ok, false);
	for (int a = 0; a < f->narrays; a++) {
		size_t n = (size_t)f->arrays[a].length;
		p->stored[a] = arena_alloc(ar, sizeof **p->stored * n);
		p->rel_at[a] = arena_alloc(ar, sizeof **p->rel_at * n);
		p->zero[a] = arena_alloc(ar, n);
		if (!p->stored[a] || !p->zero[a] || !p->rel_at[a])
			return false;
		p->ok[a] &= f->arrays[a].length <= PLAN_MAX_ELEMS && f->arrays[a].base == IR_FLOAT;
	}
	stretch(p);
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
	const struct plan *p;
	int n;
	int *last_store;      /* by array: the last STORE's place, -1 none */
	bool *forwarded;      /* by id: a STORE some LOAD reads the value of */
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
	x->array = in->index;
	x->fwd = o->p->fwd[in->id];
	x->forwarded = o->forwarded[in->id];
	if (array_access_dynamic(in)) {
		if (!array_rel_access(f, in, &r)) {
			cg_error(cg, in->loc, "internal error: array access not through aL");
			return;
		}
		x->rel = true;
		x->pos = r.pos0;
		x->guard = r.guard;
		x->limit = (float)r.limit;
		x->idx = &in->src[in->op == IR_OP_STORE ? 1 : 0];
		if (!note_loop(cg, &r))
			cg->failed = true;
	} else {
		x->pos = in->op == IR_OP_LOAD ? load_element(f, in) : store_element(f, in);
		x->direct = in->op == IR_OP_LOAD && here > o->last_store[in->index] &&
			    !ir_cf_loop_around(ir_instr_cf(in));
	}
	cg->arr_access[in->id] = x;
}

/* The arrays of cg->func (p's), all placed: one cg_array each (loop
 * NULL), zeros noted, and the role of each access. */
static bool place(struct cg_ctx *cg, const struct plan *p)
{
	const struct ir_func *f = cg->func;
	size_t nid = (size_t)f->next_id + 1;
	cg->arrays = arena_alloc(cg->arena, sizeof *cg->arrays * ((size_t)f->narrays + 1));
	if (!cg->arrays)
		return false;
	cg->cap_arrays = f->narrays + 1;
	for (int a = 0; a < f->narrays; a++) {
		struct cg_array *arr = &cg->arrays[cg->narrays++];
		memset(arr, 0, sizeof *arr);
		arr->n = f->arrays[a].length;
		arr->ncomp = f->arrays[a].ncomp;
		arr->vreg = arena_alloc(cg->arena, sizeof(int) * (size_t)arr->n);
		arr->zero = p->zero[a];
		if (!arr->vreg)
			return false;
		for (int e = 0; e < arr->n; e++)
			arr->vreg[e] = -1;
	}
	struct order o = { cg, p, 0, arena_alloc(cg->arena, sizeof(int) * ((size_t)f->narrays + 1)),
			   arena_alloc(cg->arena, nid) };
	if (!o.last_store || !o.forwarded)
		return false;
	memset(o.forwarded, 0, nid);
	for (size_t i = 0; i < nid; i++)
		if (p->fwd[i])
			o.forwarded[p->fwd[i]->id] = true;
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
	if (f->narrays == 0 || !ir_any_instr(f, is_array_op, NULL))
		return true; /* no access left: nothing to place or lower */
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
		/* the same choice on the copy, for its instructions */
		p = (struct plan){ .cg = cg, .f = g };
		if (!choose(&p))
			return cg->failed = true, false;
		for (int a = 0; a < g->narrays; a++)
			if (!p.ok[a])
				return cg_error(cg, (struct src_loc){ 0 }, "internal error: array %d "
						"placeable no more once others are lowered", a);
	}
	size_t nid = (size_t)cg->func->next_id + 1;
	cg->arr_access = arena_alloc(cg->arena, sizeof *cg->arr_access * nid);
	if (!cg->arr_access)
		return cg->failed = true, false;
	memset(cg->arr_access, 0, sizeof *cg->arr_access * nid);
	if (!place(cg, &p))
		return cg->failed = true, false;
	return true;
}
