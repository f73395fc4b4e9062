/* lower_arrays: local arrays (ir.h: ir_array) to SSA values, for a
 * backend that has no memory for them.  Each element is a variable; one
 * walk over the structured control flow keeps its current value (mem2reg
 * without dominance frontiers: the tree says where values join):
 *   - a STORE at a constant element sets that element; at an index, every
 *     element becomes select(index == k, value, element);
 *   - a LOAD at a constant element becomes a MOV of its value; at an
 *     index, a select chain from the last element down (an index that
 *     names no element reads the last one, as ir_array defines);
 *   - after an IF, PHIs (then, else) join what the branches left
 *     different; at a loop head, PHIs (before, end of body, each CONTINUE)
 *     for the elements the body may store; after a loop, PHIs with one source
 *     per BREAK.
 * An index that is a constant is an element (ir_array_element).  Every
 * element starts as a zero of the array's shape.  An array stored inside
 * a loop whose jumps would need PHIs of more than IR_MAX_SRCS sources
 * stays an array (no frontend makes such loops; the backend refuses the
 * ops with a diagnostic).  The table keeps the arrays not lowered.
 *
 * Two modes.  The IR step (ir_lower_arrays, in every round) keeps an
 * array every dynamic access of which a backend can address through a
 * loop's aL (array_rel.h): the backend places it in consecutive registers
 * or lowers it itself.  ir_lower_arrays_except, the backend's, lowers
 * every array but the ones it is told to keep. */
#include "array_rel.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <stdlib.h>
#include <string.h>

/* The current values, one source per element of every lowered array. */
typedef struct ir_src *state_t;

/* The loop being walked: the values at each BREAK and CONTINUE. */
struct loop_ctx {
	state_t brk[IR_MAX_SRCS], cont[IR_MAX_SRCS];
	int nbrk, ncont;
};

/* The compares of the last indexed access met, e == k for each k, which
 * the next accesses of its block at the same index reuse: the arrays of
 * one GLSL array of matrices or structs (one per column and member) and
 * reads of one element compare the index once (-O0 and the backend's
 * lowering have no CSE to merge the copies). */
struct index_memo {
	const struct ir_block *block; /* NULL: none */
	struct ir_src index;          /* the access's index source */
	int offset;
	struct ir_src e;              /* offset + index */
	struct ir_src *is;            /* is[k].def NULL: not made yet */
	int n;
};

struct lower {
	struct ir_func *f;
	struct arena *tmp;
	struct index_memo memo;
	struct ir_instr **made;  /* what the walk made or turned into a MOV */
	int nmade;
	int *first_var;       /* by array: its element 0's variable, -1 not lowered */
	int nvars;
	struct ir_instr **zero; /* by array: the initial value */
	struct loop_ctx *loop;
	bool failed;
};

static bool lowered(const struct lower *l, const struct ir_instr *in)
{
	return (in->op == IR_OP_LOAD || in->op == IR_OP_STORE) && in->index >= 0 &&
	       in->index < l->f->narrays && l->first_var[in->index] >= 0;
}

static state_t state_copy(struct lower *l, const struct ir_src *from)
{
	state_t s = arena_alloc(l->tmp, sizeof *s * (size_t)(l->nvars + 1));
	if (!s)
		l->failed = true;
	else if (from)
		memcpy(s, from, sizeof *s * (size_t)l->nvars);
	return s;
}

/* --- which arrays can be lowered --- */

/* Marks in `stored` the arrays some STORE in `list` (any depth) writes. */
static void stores_in(const struct ir_cf_list *list, bool *stored)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			stores_in(&cf->then_list, stored);
			stores_in(&cf->else_list, stored);
		} else if (cf->kind == IR_CF_LOOP) {
			stores_in(&cf->body, stored);
		}
		for (const struct ir_instr *in = cf->block.first; cf->kind == IR_CF_BLOCK && in;
		     in = in->next)
			if (in->op == IR_OP_STORE && in->index >= 0)
				stored[in->index] = true;
	}
}

/* A loop's PHIs hold 2 + CONTINUEs sources at its head and one per BREAK
 * after it: arrays stored in a loop that needs more are kept. */
static void refuse_wide_loops(struct lower *l, const struct ir_cf_list *list, bool *keep,
			      bool *scratch)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			refuse_wide_loops(l, &cf->then_list, keep, scratch);
			refuse_wide_loops(l, &cf->else_list, keep, scratch);
		} else if (cf->kind == IR_CF_LOOP) {
			if (2 + ir_cf_list_jumps(&cf->body, IR_JUMP_CONTINUE) > IR_MAX_SRCS ||
			    ir_cf_list_jumps(&cf->body, IR_JUMP_BREAK) > IR_MAX_SRCS) {
				memset(scratch, 0, (size_t)l->f->narrays);
				stores_in(&cf->body, scratch);
				for (int a = 0; a < l->f->narrays; a++)
					keep[a] |= scratch[a];
			}
			refuse_wide_loops(l, &cf->body, keep, scratch);
		}
	}
}

/* --- building --- */

/* Keeps `in` in the list of what the walk made, for the sweep of what
 * nothing reads. */
static void note_made(struct lower *l, struct ir_instr *in)
{
	if (!in || l->failed)
		return;
	struct ir_instr **m = arena_grow(l->tmp, l->made, (size_t)l->nmade, sizeof *m);
	if (!m) {
		l->failed = true;
		return;
	}
	l->made = m;
	l->made[l->nmade++] = in;
}

/* A new instruction before `before`, or at the end of `bl` when before is
 * NULL. */
static struct ir_instr *emit(struct lower *l, struct ir_block *bl, struct ir_instr *before,
			     enum ir_op op, int ncomp, enum ir_base base, int nsrc,
			     const struct ir_src *srcs)
{
	struct ir_instr *in = NULL;
	if (before) {
		in = ir_build_before(l->f, before, op, ncomp, base, nsrc, srcs);
	} else if ((in = arena_alloc(l->f->arena, sizeof *in)) != NULL) {
		memset(in, 0, sizeof *in);
		in->op = op;
		in->id = l->f->next_id++;
		in->ncomp = (uint8_t)ncomp;
		in->base = (uint8_t)base;
		in->nsrc = (uint8_t)nsrc;
		memcpy(in->src, srcs, sizeof *srcs * (size_t)nsrc);
		ir_block_append(bl, in);
	}
	if (!in)
		l->failed = true;
	note_made(l, in);
	return in;
}

static struct ir_instr *emit_constf(struct lower *l, struct ir_instr *before, float x)
{
	const float v[4] = { x, x, x, x };
	struct ir_instr *k = ir_build_const_before(l->f, before, 1, IR_FLOAT, v);
	if (!k)
		l->failed = true;
	note_made(l, k);
	return k;
}

/* The block `node` of `list` is, or a new one put before it (appended
 * when node is NULL): where PHIs go at the start of a loop body or after
 * an IF or a loop. */
static struct ir_block *block_at(struct lower *l, struct ir_cf_list *list, struct ir_cf *node,
				 struct ir_cf *parent)
{
	if (node && node->kind == IR_CF_BLOCK)
		return &node->block;
	struct ir_cf *b = ir_cf_create(l->f, IR_CF_BLOCK, parent);
	if (!b) {
		l->failed = true;
		return NULL;
	}
	if (node)
		ir_cf_list_insert_before(list, node, b);
	else
		ir_cf_list_append(list, b);
	return &b->block;
}

/* A PHI of array a's shape after the PHIs that start bl. */
static struct ir_instr *phi_at(struct lower *l, struct ir_block *bl, const struct ir_array *a,
			       int nsrc, const struct ir_src *srcs)
{
	if (!bl)
		return NULL;
	struct ir_instr *before = bl->first;
	while (before && before->op == IR_OP_PHI)
		before = before->next;
	return emit(l, bl, before, IR_OP_PHI, a->ncomp, (enum ir_base)a->base, nsrc, srcs);
}

/* --- accesses --- */

/* The element a constant access names (-1: none), or -2 when its index
 * is not a constant.  ix: the index source's slot. */
static int const_element(const struct ir_func *f, const struct ir_instr *in, int ix)
{
	const struct ir_array *a = &f->arrays[in->index];
	if (in->nsrc <= ix)
		return ir_array_element(a, in->offset, false, 0.0f);
	if (!ir_src_float_const(&in->src[ix]))
		return -2;
	return ir_array_element(a, in->offset, true, ir_src_const_comp(&in->src[ix], 0));
}

/* Marks in `vars` the variables some STORE of a lowered array in `list`
 * (any depth) may write: its element, or all of them at an index. */
static void stored_vars(const struct lower *l, const struct ir_cf_list *list, bool *vars)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			stored_vars(l, &cf->then_list, vars);
			stored_vars(l, &cf->else_list, vars);
		} else if (cf->kind == IR_CF_LOOP) {
			stored_vars(l, &cf->body, vars);
		}
		for (const struct ir_instr *in = cf->block.first; cf->kind == IR_CF_BLOCK && in;
		     in = in->next) {
			if (in->op != IR_OP_STORE || !lowered(l, in))
				continue;
			int v0 = l->first_var[in->index], k = const_element(l->f, in, 1);
			for (int j = 0; j < l->f->arrays[in->index].length; j++)
				vars[v0 + j] |= k == -2 || k == j;
		}
	}
}

/* The element's number as a scalar source: offset + index. */
static struct ir_src element_value(struct lower *l, struct ir_instr *in, int ix)
{
	struct index_memo *m = &l->memo;
	if (m->block == in->block && m->offset == in->offset && ir_src_same(&m->index, &in->src[ix], 1))
		return m->e;
	struct ir_src idx = ir_src_comp(in->src[ix].def, in->src[ix].swz[0]), e = idx;
	if (in->offset != 0) {
		struct ir_instr *k = emit_constf(l, in, (float)in->offset);
		struct ir_src s[2] = { idx, k ? ir_src_comp(k, 0) : idx };
		struct ir_instr *add = emit(l, NULL, in, IR_OP_ADD, 1, IR_FLOAT, 2, s);
		e = add ? ir_src_comp(add, 0) : idx;
	}
	if (m->is) {
		m->block = in->block;
		m->index = in->src[ix];
		m->offset = in->offset;
		m->e = e;
		memset(m->is, 0, sizeof *m->is * (size_t)m->n);
	}
	return e;
}

/* e == k, before `in` (e: element_value's). */
static struct ir_src element_is(struct lower *l, struct ir_instr *in, struct ir_src e, int k)
{
	struct index_memo *m = &l->memo;
	bool memo = m->block == in->block && ir_src_same(&m->e, &e, 1) && k < m->n;
	if (memo && m->is[k].def)
		return m->is[k];
	struct ir_instr *c = emit_constf(l, in, (float)k);
	struct ir_src s[2] = { e, c ? ir_src_comp(c, 0) : e };
	struct ir_instr *eq = emit(l, NULL, in, IR_OP_EQ, 1, IR_BOOL, 2, s);
	if (eq && memo)
		m->is[k] = ir_src_comp(eq, 0);
	return eq ? ir_src_comp(eq, 0) : e;
}

static struct ir_src select_before(struct lower *l, struct ir_instr *in, const struct ir_array *a,
				   struct ir_src cond, struct ir_src yes, struct ir_src no)
{
	struct ir_src s[3] = { cond, yes, no };
	struct ir_instr *sel = emit(l, NULL, in, IR_OP_SELECT, a->ncomp, (enum ir_base)a->base, 3, s);
	return sel ? ir_src_of(sel) : no;
}

static void lower_load(struct lower *l, struct ir_instr *in, state_t st)
{
	const struct ir_array *a = &l->f->arrays[in->index];
	const struct ir_src *var = &st[l->first_var[in->index]];
	int k = const_element(l->f, in, 0);
	struct ir_src r = var[k >= 0 ? k : a->length - 1];
	if (k == -2) {
		struct ir_src e = element_value(l, in, 0);
		for (int j = a->length - 2; j >= 0 && !l->failed; j--)
			if (!ir_src_same(&var[j], &r, a->ncomp))
				r = select_before(l, in, a, element_is(l, in, e, j), var[j], r);
	}
	in->op = IR_OP_MOV;
	in->nsrc = 1;
	in->src[0] = r;
	in->index = in->offset = 0;
	note_made(l, in);
}

static void lower_store(struct lower *l, struct ir_instr *in, state_t st)
{
	const struct ir_array *a = &l->f->arrays[in->index];
	struct ir_src *var = &st[l->first_var[in->index]];
	int k = const_element(l->f, in, 1);
	if (k >= 0) {
		var[k] = in->src[0];
	} else if (k == -2) {
		struct ir_src e = element_value(l, in, 1);
		for (int j = 0; j < a->length && !l->failed; j++)
			if (!ir_src_same(&var[j], &in->src[0], a->ncomp)) /* (already the value) */
				var[j] = select_before(l, in, a, element_is(l, in, e, j), in->src[0], var[j]);
	}
	ir_instr_remove(in);
}

/* --- the walk --- */

static void walk_list(struct lower *l, struct ir_cf_list *list, state_t st);

static void walk_block(struct lower *l, struct ir_block *bl, state_t st)
{
	for (struct ir_instr *in = bl->first, *next; in && !l->failed; in = next) {
		next = in->next;
		if (lowered(l, in) && in->op == IR_OP_LOAD) {
			lower_load(l, in, st);
		} else if (lowered(l, in)) {
			lower_store(l, in, st);
		} else if (l->loop && (in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE)) {
			bool brk = in->op == IR_OP_BREAK;
			int *n = brk ? &l->loop->nbrk : &l->loop->ncont;
			if (*n < IR_MAX_SRCS)
				(brk ? l->loop->brk : l->loop->cont)[(*n)++] = state_copy(l, st);
		}
	}
}

/* The variables of array a: first_var[a] .. + length. */
static void for_vars(const struct lower *l, int a, int *from, int *to)
{
	*from = l->first_var[a];
	*to = *from < 0 ? *from : *from + l->f->arrays[a].length;
}

static void walk_if(struct lower *l, struct ir_cf_list *list, struct ir_cf *cf, state_t st)
{
	state_t then_st = state_copy(l, st), else_st = state_copy(l, st);
	if (l->failed)
		return;
	walk_list(l, &cf->then_list, then_st);
	walk_list(l, &cf->else_list, else_st);
	struct ir_block *after = NULL;
	for (int a = 0; a < l->f->narrays && !l->failed; a++) {
		int v0, v1;
		for_vars(l, a, &v0, &v1);
		for (int v = v0; v < v1 && !l->failed; v++) {
			st[v] = then_st[v];
			if (ir_src_same(&then_st[v], &else_st[v], l->f->arrays[a].ncomp))
				continue;
			if (!after)
				after = block_at(l, list, cf->next, cf->parent);
			struct ir_src s[2] = { then_st[v], else_st[v] };
			struct ir_instr *phi = phi_at(l, after, &l->f->arrays[a], 2, s);
			if (phi)
				st[v] = ir_src_of(phi);
		}
	}
}

static void walk_loop(struct lower *l, struct ir_cf_list *list, struct ir_cf *cf, state_t st)
{
	bool *stored = arena_alloc(l->tmp, (size_t)l->nvars + 1);
	state_t entry = state_copy(l, st);
	if (!stored || l->failed) {
		l->failed = true;
		return;
	}
	memset(stored, 0, (size_t)l->nvars + 1);
	stored_vars(l, &cf->body, stored);
	/* head PHIs: (entry, end of body, CONTINUEs) filled once the body is walked */
	struct ir_block *head = NULL;
	int ncont = ir_cf_list_jumps(&cf->body, IR_JUMP_CONTINUE);
	for (int a = 0; a < l->f->narrays && !l->failed; a++) {
		int v0, v1;
		for_vars(l, a, &v0, &v1);
		for (int v = v0; v < v1 && !l->failed; v++) {
			if (!stored[v])
				continue;
			if (!head)
				head = block_at(l, &cf->body, cf->body.first, cf);
			struct ir_src s[IR_MAX_SRCS];
			for (int i = 0; i < 2 + ncont; i++)
				s[i] = entry[v];
			struct ir_instr *phi = phi_at(l, head, &l->f->arrays[a], 2 + ncont, s);
			if (phi)
				st[v] = ir_src_of(phi);
		}
	}
	state_t head_st = state_copy(l, st);
	struct loop_ctx ctx = { .nbrk = 0 }, *outer = l->loop;
	l->loop = &ctx;
	if (!l->failed)
		walk_list(l, &cf->body, st);
	l->loop = outer;
	struct ir_block *after = NULL;
	for (int a = 0; a < l->f->narrays && !l->failed; a++) {
		int v0, v1;
		for_vars(l, a, &v0, &v1);
		for (int v = v0; v < v1 && !l->failed; v++) {
			if (!stored[v])
				continue;
			struct ir_instr *phi = head_st[v].def;
			phi->src[1] = st[v];
			for (int i = 0; i < ctx.ncont && i < ncont; i++)
				phi->src[2 + i] = ctx.cont[i][v];
			/* after the loop: what each BREAK left (none: never left) */
			st[v] = head_st[v];
			if (ctx.nbrk == 0)
				continue;
			if (!after)
				after = block_at(l, list, cf->next, cf->parent);
			struct ir_src s[IR_MAX_SRCS];
			for (int b = 0; b < ctx.nbrk; b++)
				s[b] = ctx.brk[b][v];
			struct ir_instr *exit = phi_at(l, after, &l->f->arrays[a], ctx.nbrk, s);
			if (exit)
				st[v] = ir_src_of(exit);
		}
	}
}

static void walk_list(struct lower *l, struct ir_cf_list *list, state_t st)
{
	for (struct ir_cf *cf = list->first; cf && !l->failed; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK)
			walk_block(l, &cf->block, st);
		else if (cf->kind == IR_CF_IF)
			walk_if(l, list, cf, st);
		else
			walk_loop(l, list, cf, st);
	}
}

/* --- the pass --- */

/* Each lowered array's zero, at the top of the function. */
static state_t initial_state(struct lower *l)
{
	state_t st = state_copy(l, NULL);
	struct ir_block *top = block_at(l, &l->f->body, l->f->body.first, NULL);
	for (int a = 0; a < l->f->narrays && st && top && !l->failed; a++) {
		int v0, v1;
		for_vars(l, a, &v0, &v1);
		if (v0 < 0)
			continue;
		const struct ir_array *arr = &l->f->arrays[a];
		struct ir_instr *z = emit(l, top, top->first, IR_OP_CONST, arr->ncomp,
					  (enum ir_base)arr->base, 0, NULL);
		for (int v = v0; z && v < v1; v++) {
			st[v] = ir_src_of(z);
			for (int c = arr->ncomp; c < 4; c++)
				st[v].swz[c] = (uint8_t)(arr->ncomp - 1);
		}
	}
	return st;
}

/* --- what nothing reads --- */

/* Removes what the walk made (PHIs, selects, compares, constants, the
 * MOVs loads became) that nothing reads, and then what only those read:
 * the head PHIs of an array a loop writes before it reads (one declared
 * in the loop), the selects of an element never read again, a column
 * loaded and not used.  No DCE follows this pass at -O0 or in the
 * backend's lowering.  (Dead PHIs that read each other stay.) */
static void sweep_unread(struct lower *l)
{
	uint16_t *uses = ir_count_uses(l->f);
	bool *made = arena_alloc(l->tmp, (size_t)l->f->next_id + 1);
	/* each made one comes back at most once more, when its last reader goes */
	struct ir_instr **work = arena_alloc(l->tmp, sizeof *work * (2 * (size_t)l->nmade + 1));
	if (!uses || !made || !work) {
		free(uses);
		return;
	}
	memset(made, 0, (size_t)l->f->next_id + 1);
	for (int i = 0; i < l->nmade; i++) {
		made[l->made[i]->id] = true;
		work[i] = l->made[i];
	}
	int n = l->nmade;
	while (n > 0) {
		struct ir_instr *in = work[--n];
		if (!in->block || uses[in->id] != 0)
			continue;
		for (int i = 0; i < in->nsrc; i++) {
			struct ir_instr *d = in->src[i].def;
			if (d && uses[d->id] != UINT16_MAX && uses[d->id]-- == 1 && made[d->id])
				work[n++] = d;
		}
		ir_instr_remove(in);
	}
	free(uses);
}

/* Drops the lowered arrays from the table; the kept ones are renumbered
 * in their accesses. */
static void renumber_access(struct ir_instr *in, void *ud)
{
	const int *renum = ud;
	if (in->op == IR_OP_LOAD || in->op == IR_OP_STORE)
		in->index = renum[in->index];
}

static void compact_table(struct lower *l)
{
	int *renum = arena_alloc(l->tmp, sizeof *renum * ((size_t)l->f->narrays + 1));
	if (!renum) {
		l->failed = true;
		return;
	}
	int n = 0;
	for (int a = 0; a < l->f->narrays; a++) {
		renum[a] = l->first_var[a] >= 0 ? -1 : n;
		if (renum[a] >= 0)
			l->f->arrays[n++] = l->f->arrays[a];
	}
	if (n < l->f->narrays && n > 0)
		ir_foreach_instr(l->f, renumber_access, renum);
	l->f->narrays = n;
}

static bool has_array_op(const struct ir_instr *in, void *ud)
{
	(void)ud;
	return in->op == IR_OP_LOAD || in->op == IR_OP_STORE;
}

/* Lowers the arrays but those keep_in marks (NULL: none) and, with
 * keep_rel, those array_rel_arrays names. */
static bool lower_arrays(struct ir_func *f, const bool *keep_in, bool keep_rel)
{
	if (f->narrays == 0 || !ir_any_instr(f, has_array_op, NULL))
		return false;
	struct lower l = { .f = f, .tmp = arena_create(&mem_default_allocator) };
	if (!l.tmp)
		return false;
	bool *keep = arena_alloc(l.tmp, (size_t)f->narrays + 1);
	bool *scratch = arena_alloc(l.tmp, (size_t)f->narrays + 1);
	l.first_var = arena_alloc(l.tmp, sizeof *l.first_var * ((size_t)f->narrays + 1));
	bool progress = false;
	if (keep && scratch && l.first_var) {
		memset(keep, 0, (size_t)f->narrays + 1);
		if (keep_rel)
			array_rel_arrays(f, keep, true);
		for (int a = 0; keep_in && a < f->narrays; a++)
			keep[a] |= keep_in[a];
		refuse_wide_loops(&l, &f->body, keep, scratch);
		for (int a = 0; a < f->narrays; a++) {
			l.first_var[a] = keep[a] ? -1 : l.nvars;
			l.nvars += keep[a] ? 0 : f->arrays[a].length;
			progress |= !keep[a];
		}
	}
	for (int a = 0; a < f->narrays; a++)
		l.memo.n = f->arrays[a].length > l.memo.n ? f->arrays[a].length : l.memo.n;
	l.memo.is = arena_alloc(l.tmp, sizeof *l.memo.is * (size_t)(l.memo.n + 1));
	if (progress) {
		state_t st = initial_state(&l);
		if (st && !l.failed)
			walk_list(&l, &f->body, st);
		if (!l.failed)
			sweep_unread(&l);
		compact_table(&l);
	}
	arena_destroy(l.tmp);
	return progress;
}

bool ir_lower_arrays(struct ir_func *f)
{
	return lower_arrays(f, NULL, true);
}

bool ir_lower_arrays_except(struct ir_func *f, const bool *keep)
{
	return lower_arrays(f, keep, false);
}
