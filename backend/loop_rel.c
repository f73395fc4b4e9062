/* aL relative addressing for uniform arrays read at a loop's counter
 * (ISA.md §4.2: a source address plus aL; §2.7 and §6.11: LOOP sets aL
 * from US_FC_INT_CONST's KG, each ENDLOOP adds KB).  In a loop whose counter
 * goes i = start, start + step, ... (loop_counter.h), a read u[i + c]
 * becomes c[slot(u[start + c]) + aL] with aL = 0, step, 2 step, ...: one
 * operand instead of a CMP per element.
 *
 * A read qualifies when its innermost loop is that loop, the index is the
 * counter plus an integer constant, and the elements it reads in every
 * pass that reaches it lie inside the array: the IR clamps indexes, aL
 * does not.  Passes that reach it: 0..exit_pass before the counter's
 * exit IF, 0..exit_pass-1 after it; no CONTINUE may skip that IF.  The
 * array then takes one slot per element, in order (uniform_layout.c).
 *
 * Needs: the IR.  Gives: cg->rel_first / rel_loop by instruction, the
 * list cg->rel_reads, and cg->unif_rel by uniform; isel_cf.c gives the loop its KB, isel its
 * operands.  Off at -O0 and with --skip=loop-rel. */
#include "cg.h"
#include "loop_counter.h"

/* aL's step is KB, a signed byte; reads stay inside a 256-slot file. */
enum { REL_MAX_STEP = 127, REL_MAX_INDEX = 255 };

struct rel_ctx {
	const struct ir_cf *loop;      /* innermost loop, NULL when it has no aL form */
	struct loop_counter counter;
	bool after_exit;               /* past the counter's exit IF */
};

/* The constant c of an index counter + c; false for other indexes. */
static bool index_offset(const struct ir_src *idx, const struct ir_instr *phi, float *c)
{
	return loop_counter_offset(idx, phi, c) && loop_counter_small_int(*c, REL_MAX_INDEX);
}

static void try_read(struct cg_ctx *cg, const struct ir_instr *in, const struct rel_ctx *x)
{
	const struct ir_func *f = cg->func;
	if (!x->loop || in->nsrc < 1 || in->index < 0 || in->index >= f->nuniforms ||
	    in->id >= f->next_id)
		return;
	const struct ir_uniform *u = &f->uniforms[in->index];
	float c;
	if (u->nvec4 < 2 || u->nvec4 > REL_MAX_INDEX + 1 ||
	    !index_offset(&in->src[0], x->counter.phi, &c))
		return;
	int last = x->after_exit ? x->counter.exit_pass - 1 : x->counter.exit_pass;
	float first = (float)in->offset + c + x->counter.start;
	float end = first + (float)last * x->counter.step;
	int lo, hi; /* the elements the IR clamps the index to */
	ir_uniform_index_range(u, in->offset, &lo, &hi);
	if (last < 0 || first < (float)lo || end > (float)hi)
		return;
	if (cg->nrel_reads == cg->cap_rel_reads) {
		int ncap = cg->cap_rel_reads ? 2 * cg->cap_rel_reads : 8;
		struct cg_rel_read *n = arena_realloc(cg->arena, cg->rel_reads,
						      sizeof *n * (size_t)cg->cap_rel_reads,
						      sizeof *n * (size_t)ncap);
		if (!n) {
			cg->failed = true;
			return;
		}
		cg->rel_reads = n;
		cg->cap_rel_reads = ncap;
	}
	cg->rel_reads[cg->nrel_reads++] = (struct cg_rel_read){ x->loop, in->index,
								 (int)x->counter.step };
	cg->rel_first[in->id] = (int)first;
	cg->rel_loop[in->id] = x->loop;
	cg->unif_rel[in->index] = true;
}

static void walk_list(struct cg_ctx *cg, const struct ir_cf_list *l, struct rel_ctx x);

static void walk_loop(struct cg_ctx *cg, const struct ir_cf *loop)
{
	struct rel_ctx x = { 0 };
	struct loop_counter *k = &x.counter;
	if (loop_counter_find(loop, k) && !k->continue_before_exit &&
	    loop_counter_small_int(k->start, REL_MAX_INDEX) &&
	    loop_counter_small_int(k->step, REL_MAX_STEP))
		x.loop = loop;
	walk_list(cg, &loop->body, x);
}

static void walk_list(struct cg_ctx *cg, const struct ir_cf_list *l, struct rel_ctx x)
{
	for (const struct ir_cf *c = l->first; c; c = c->next) {
		switch (c->kind) {
		case IR_CF_BLOCK:
			for (const struct ir_instr *in = c->block.first; in; in = in->next)
				if (in->op == IR_OP_UNIFORM)
					try_read(cg, in, &x);
			break;
		case IR_CF_IF:
			walk_list(cg, &c->then_list, x);
			walk_list(cg, &c->else_list, x);
			break;
		case IR_CF_LOOP:
			walk_loop(cg, c);
			break;
		}
		if (x.loop && c == x.counter.exit_if)
			x.after_exit = true;
	}
}

bool cg_plan_loop_rel(struct cg_ctx *cg)
{
	const struct ir_func *f = cg->func;
	size_t nid = (size_t)f->next_id + 1;
	cg->rel_first = arena_alloc(cg->arena, sizeof *cg->rel_first * nid);
	cg->rel_loop = arena_alloc(cg->arena, sizeof *cg->rel_loop * nid);
	cg->unif_rel = arena_alloc(cg->arena, sizeof *cg->unif_rel * (size_t)(f->nuniforms + 1));
	if (!cg->rel_first || !cg->rel_loop || !cg->unif_rel)
		return cg->failed = true, false;
	for (size_t i = 0; i < nid; i++) {
		cg->rel_first[i] = -1;
		cg->rel_loop[i] = NULL;
	}
	for (int i = 0; i <= f->nuniforms; i++)
		cg->unif_rel[i] = false;
	cg->nrel_reads = 0;
	if (cg_opt_enabled(cg, SW_LOOP_REL))
		walk_list(cg, &f->body, (struct rel_ctx){ 0 });
	return !cg->failed;
}

bool cg_rel_loop_step(const struct cg_ctx *cg, const struct ir_cf *loop, int *step)
{
	for (int i = 0; i < cg->narr_loops; i++)
		if (cg->arr_loops[i].loop == loop) {
			*step = cg->arr_loops[i].step;
			return true;
		}
	for (int i = 0; i < cg->nrel_reads; i++) {
		const struct cg_rel_read *r = &cg->rel_reads[i];
		if (r->loop == loop && cg->unif_rel[r->uniform]) {
			*step = r->step;
			return true;
		}
	}
	return false;
}
