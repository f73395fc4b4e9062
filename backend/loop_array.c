/* aL relative addressing for local arrays in loops (ISA.md §4.2: a
 * temporary's address plus aL; LOOP sets aL = 0, each ENDLOOP adds the
 * counter's step, as for uniform arrays in loop_rel.c).
 *
 * The frontend makes a local array one SSA value per element.  In a loop
 * whose counter goes i = start, start + step, ... (loop_counter.h):
 *  - a write a[i + c] = v is, for each element e, a select
 *    a_e' = (i + c == key_e) ? v : a_e, where a_e is a PHI at the loop's
 *    head that takes a_e' back.  Such an array is *carried*: its element
 *    PHIs take consecutive temporaries and the write is one op, to the
 *    temporary of the element addressed in pass 0, plus aL;
 *  - a read a[i + c] is a chain of selects (i + c == k) ? a_k : ...
 *    ending in a default.  Over a carried array's PHIs, or over values
 *    made before the loop (a *copied* array: they are copied into
 *    consecutive temporaries before the loop), it is one operand.
 *
 * The IR gives an index outside the keys the default (a read) or no
 * effect (a write); aL does not clamp.  Where the counter's passes may
 * take the index past the elements, the access is guarded: a read is
 * CMP(element, default, limit - index); a write is predicated on
 * limit - index >= 0, so it never writes outside the array.  An index
 * below the elements in pass 0 (it only grows) is not taken.
 *
 * A carried array's write is a late op (cg_op.late): it follows every
 * read of the old elements in its region.  So the element PHIs may be
 * read elsewhere in the loop only before the write in program order, or
 * in its block, and the selected values go nowhere but back to the PHIs.
 *
 * Needs: the IR.  Gives: cg->arrays and cg->arr_access by IR id (the
 * isel side is isel_array.c).  Off at -O0 and with --skip=loop-array. */
#include "loop_array.h"
#include "loop_counter.h"

#include <limits.h>
#include <string.h>

bool la_in_loop(const struct scan *sc, const struct ir_instr *d)
{
	return d->id < (uint32_t)sc->cg->func->next_id + 1 && sc->order[d->id] >= 0;
}

/* Whether d sits in a block of the loop itself, not of a loop inside it. */
bool la_directly_in_loop(const struct scan *sc, const struct ir_instr *d)
{
	if (!la_in_loop(sc, d))
		return false;
	for (const struct ir_cf *cf = ir_instr_cf(d); cf; cf = cf->parent) {
		if (cf == sc->loop)
			return true;
		if (cf->kind == IR_CF_LOOP)
			return false;
	}
	return false;
}

/* cond is (idx == key) on the loop's counter: the index source and key. */
bool la_eq_on_counter(const struct scan *sc, const struct ir_src *cond,
			  const struct ir_src **idx, int *key, float *off)
{
	const struct ir_instr *e = cond->def;
	if (!e || e->op != IR_OP_EQ || e->ncomp != 1 || e->nsrc != 2)
		return false;
	for (int k = 0; k < 2; k++) {
		const struct ir_src *o = &e->src[1 - k];
		if (!o->def || o->def->op != IR_OP_CONST || o->def->base != IR_FLOAT)
			continue;
		float kv = o->def->imm[o->swz[0] & 3];
		if (!loop_counter_small_int(kv, ARR_MAX_KEY) ||
		    !loop_counter_offset(&e->src[k], sc->counter, off) ||
		    !loop_counter_small_int(*off, ARR_MAX_KEY))
			continue;
		*idx = &e->src[k];
		*key = (int)kv;
		return true;
	}
	return false;
}

/* Whether an access at `order`, to element pos0 + p * step in pass p,
 * may go past element hi in a pass that reaches it (always, when the
 * loop's last pass is not known). */
bool la_needs_guard(const struct scan *sc, int order, int pos0, int hi)
{
	if (!sc->counted)
		return true;
	int last = order >= sc->exit_order ? sc->exit_pass - 1 : sc->exit_pass;
	return (double)pos0 + (double)last * sc->step > (double)hi;
}

struct cg_arr_access *la_new_access(struct cg_ctx *cg, const struct ir_instr *in,
					enum cg_arr_role role, int array, int elem)
{
	struct cg_arr_access *a = arena_alloc(cg->arena, sizeof *a);
	if (!a) {
		cg->failed = true;
		return NULL;
	}
	memset(a, 0, sizeof *a);
	a->role = (uint8_t)role;
	a->array = array;
	a->elem = elem;
	cg->arr_access[in->id] = a;
	return a;
}

int la_new_array(struct scan *sc, int n, int ncomp)
{
	struct cg_ctx *cg = sc->cg;
	if (cg->narrays == cg->cap_arrays) {
		int ncap = cg->cap_arrays ? 2 * cg->cap_arrays : 4;
		struct cg_array *na = arena_realloc(cg->arena, cg->arrays,
						    sizeof *na * (size_t)cg->cap_arrays,
						    sizeof *na * (size_t)ncap);
		if (!na)
			return cg->failed = true, -1;
		cg->arrays = na;
		cg->cap_arrays = ncap;
	}
	struct cg_array *a = &cg->arrays[cg->narrays];
	memset(a, 0, sizeof *a);
	a->loop = sc->loop;
	a->n = n;
	a->ncomp = ncomp;
	a->step = (int)sc->step;
	a->vreg = arena_alloc(cg->arena, sizeof(int) * (size_t)n);
	if (!a->vreg)
		return cg->failed = true, -1;
	for (int e = 0; e < n; e++)
		a->vreg[e] = -1;
	return cg->narrays++;
}

/* --- the walk --- */

/* Numbers the loop's instructions in program order (or clears them). */
static void number(struct scan *sc, const struct ir_cf_list *l, bool clear)
{
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				sc->order[in->id] = clear ? -1 : sc->norder++;
			break;
		case IR_CF_IF:
			number(sc, &cf->then_list, clear);
			number(sc, &cf->else_list, clear);
			break;
		case IR_CF_LOOP:
			number(sc, &cf->body, clear);
			break;
		}
		if (cf == sc->exit_if)
			sc->exit_order = sc->norder;
	}
}

/* The loop's arrays on counter sc->counter. */
static void scan_counter(struct scan *sc)
{
	if (!loop_counter_small_int(sc->start, ARR_MAX_KEY) ||
	    !loop_counter_small_int(sc->step, ARR_MAX_STEP))
		return;
	sc->norder = 0;
	sc->exit_order = INT_MAX;
	number(sc, &sc->loop->body, false);
	sc->first_array = sc->cg->narrays;
	la_find_writes(sc);
	la_find_reads(sc);
	sc->exit_if = NULL;
	number(sc, &sc->loop->body, true);
}

/* A counted loop's counter is loop_counter_find's, the one loop_rel.c
 * reads uniform arrays at (aL has one step per loop); another loop takes
 * the first counter of the head that indexes an array. */
static void scan_loop(struct scan *sc, const struct ir_cf *loop)
{
	struct cg_ctx *cg = sc->cg;
	struct loop_counter lc;
	for (int i = 0; i < cg->narr_loops; i++)
		if (cg->arr_loops[i].loop == loop)
			return; /* its aL follows plan_arrays.c's counter */
	sc->loop = loop;
	sc->counted = loop_counter_find(loop, &lc) && !lc.continue_before_exit;
	if (sc->counted) {
		sc->counter = lc.phi;
		sc->start = lc.start;
		sc->step = lc.step;
		sc->exit_if = lc.exit_if;
		sc->exit_pass = lc.exit_pass;
		scan_counter(sc);
		return;
	}
	sc->exit_if = NULL;
	sc->counter = NULL;
	while (!cg->failed && loop_counter_phi(loop, &sc->counter, &sc->start, &sc->step)) {
		int before = cg->narrays;
		scan_counter(sc);
		if (cg->narrays > before)
			return;
	}
}

static void walk(struct scan *sc, const struct ir_cf_list *l)
{
	for (const struct ir_cf *cf = l->first; cf && !sc->cg->failed; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			walk(sc, &cf->then_list);
			walk(sc, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			walk(sc, &cf->body);
			scan_loop(sc, cf);
		}
	}
}

static void count_uses(struct ir_instr *in, void *ud)
{
	int *uses = ud;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++)
		if (in->src[k].def)
			uses[in->src[k].def->id]++;
}

static void count_cond_uses(const struct ir_cf_list *l, int *uses)
{
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			if (cf->cond.def)
				uses[cf->cond.def->id]++;
			count_cond_uses(&cf->then_list, uses);
			count_cond_uses(&cf->else_list, uses);
		} else if (cf->kind == IR_CF_LOOP) {
			count_cond_uses(&cf->body, uses);
		}
	}
}

bool cg_plan_loop_arrays(struct cg_ctx *cg)
{
	struct ir_func *f = cg->func;
	size_t nid = (size_t)f->next_id + 1;
	if (!cg->arr_access) /* plan_arrays.c placed none */
		cg->arr_access = arena_alloc(cg->arena, sizeof *cg->arr_access * nid);
	if (!cg->arr_access)
		return cg->failed = true, false;
	if (cg->narrays == 0)
		memset(cg->arr_access, 0, sizeof *cg->arr_access * nid);
	if (!cg_opt_enabled(cg, SW_LOOP_ARRAY))
		return true;
	struct scan sc = { .cg = cg };
	sc.order = arena_alloc(cg->arena, sizeof(int) * nid);
	sc.uses = arena_alloc(cg->arena, sizeof(int) * nid);
	if (!sc.order || !sc.uses)
		return cg->failed = true, false;
	for (size_t i = 0; i < nid; i++) {
		sc.order[i] = -1;
		sc.uses[i] = 0;
	}
	ir_foreach_instr(f, count_uses, sc.uses);
	count_cond_uses(&f->body, sc.uses);
	walk(&sc, &f->body);
	return !cg->failed;
}
