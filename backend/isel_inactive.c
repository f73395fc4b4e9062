/* Jumping IFs whose quad neighbours diverge (issue 25).
 *
 * An implicit-LOD lookup or a derivative reads its operand from the
 * three other pixels of its quad (ISA.md §12), inactive ones included.
 * Under an IF the four pixels may take differently, a real jump leaves
 * the neighbours that did not take this side with whatever their
 * registers held, so isel_cf.c if-converts such IFs.  It may jump after
 * all when the ops computing those operands inside the IF write inactive
 * pixels too (WRITE_INACTIVE), and compute them from values every pixel
 * holds: here the values made outside every IF
 * and loop (the IF itself sits at the top of the function, so that all
 * pixels are active when it starts), constants and uniforms.  A chain
 * through a PHI, a lookup, a derivative, an array access or a loop
 * inside the IF does not qualify.
 *
 * What WRITE_INACTIVE clobbers is safe by construction: only ops
 * cg_op_inactive_safe allows carry it (plain SSA vregs, see cg.h). */
#include "isel.h"
#include "ir_eval.h"

#include <stddef.h>

/* The cf node a block belongs to. */
static const struct ir_cf *cf_of_block(const struct ir_block *b)
{
	return (const struct ir_cf *)((const char *)b - offsetof(struct ir_cf, block));
}

enum where { AT_TOP, IN_REGION, ELSEWHERE };

/* Where def sits: at the top of the function, inside `region` and in no
 * loop there, or elsewhere. */
static enum where where_is(const struct ir_instr *def, const struct ir_cf *region)
{
	if (!def->block)
		return ELSEWHERE;
	const struct ir_cf *cf = cf_of_block(def->block)->parent;
	if (!cf)
		return AT_TOP;
	for (; cf; cf = cf->parent) {
		if (cf == region)
			return IN_REGION;
		if (cf->kind == IR_CF_LOOP)
			return ELSEWHERE;
	}
	return ELSEWHERE;
}

/* Whether every pixel computes src's value right when the region's ops
 * all write inactive pixels too.  `seen` (by id) marks defs checked. */
static bool chain_ok(const struct isel *s, const struct ir_src *src, const struct ir_cf *region,
		     bool *seen, int *nchain)
{
	const struct ir_instr *d = src->def;
	if (!d || d->op == IR_OP_CONST || (d->op == IR_OP_UNIFORM && d->nsrc == 0))
		return true;
	if (d->id >= s->nids)
		return false;
	if (seen[d->id])
		return true;
	seen[d->id] = true;
	enum where w = where_is(d, region);
	if (w == AT_TOP)
		return true;
	if (w == ELSEWHERE || d->op == IR_OP_PHI ||
	    (ir_op_infos[d->op].flags & (IRF_QUAD | IRF_MEM | IRF_SIDE)) ||
	    (s->cg->arr_access && s->cg->arr_access[d->id]))
		return false;
	*nchain += !isel_is_virtual(d);
	for (int k = 0; k < d->nsrc && k < IR_MAX_SRCS; k++)
		if (!chain_ok(s, &d->src[k], region, seen, nchain))
			return false;
	return true;
}

static bool list_ok(const struct isel *s, const struct ir_cf_list *list, const struct ir_cf *region,
		    bool *seen, int *nchain)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_LOOP)
			return false;
		if (cf->kind == IR_CF_IF) {
			if (!list_ok(s, &cf->then_list, region, seen, nchain) ||
			    !list_ok(s, &cf->else_list, region, seen, nchain))
				return false;
			continue;
		}
		for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
			bool quad = in->op == IR_OP_DDX || in->op == IR_OP_DDY ||
				    (in->op == IR_OP_TEX && ir_tex_kind_uses_quad(in->tex_kind));
			for (int k = 0; quad && k < in->nsrc && k < IR_MAX_SRCS; k++)
				if (!chain_ok(s, &in->src[k], region, seen, nchain))
					return false;
		}
	}
	return true;
}

bool isel_inactive_jump_ok(const struct isel *s, const struct ir_cf *cf, int *nchain)
{
	*nchain = 0;
	if (cf->kind != IR_CF_IF || cf->parent || !s->nids)
		return false;
	bool *seen = arena_alloc(s->cg->arena, sizeof *seen * s->nids);
	if (!seen)
		return false;
	for (uint32_t i = 0; i < s->nids; i++)
		seen[i] = false;
	return list_ok(s, &cf->then_list, cf, seen, nchain) &&
	       list_ok(s, &cf->else_list, cf, seen, nchain);
}

/* Pushes the vregs op reads. */
static void push_operands(const struct cg_op *op, int *stack, int *n)
{
	for (int k = 0; k < cg_op_nopnd(op); k++)
		if (op->src[k].file == CG_FILE_VREG)
			stack[(*n)++] = op->src[k].index;
}

/* Only what the neighbours read gets the bit: a pixel that writes an
 * instruction's result executes it (the cost model, runtime/emu_stats.c),
 * so the pixels that skip the side pay for these ops alone. */
void isel_mark_inactive_writes(struct isel *s, int first)
{
	struct cg_ctx *cg = s->cg;
	/* each op pushes at most CG_NOPND vregs, once as a lookup or
	 * derivative and once when marked */
	size_t cap = (size_t)(cg->nops - first + 1) * CG_NOPND * 2;
	int *stack = arena_alloc(cg->arena, sizeof *stack * cap), n = 0;
	if (!stack) {
		cg->failed = true;
		return;
	}
	for (int i = first; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		bool quad = (cg_opc_infos[op->opc].tex && op->opc != CG_KIL) ||
			    op->opc == CG_MDH || op->opc == CG_MDV;
		if (quad && !op->write_inactive)
			push_operands(op, stack, &n);
	}
	while (n > 0) {
		int v = stack[--n];
		const struct cg_vreg *r = &cg->vregs[v];
		if (r->multi || r->input >= 0)
			continue; /* made before the IF (isel_inactive_jump_ok) */
		for (int c = 0; c < r->ncomp; c++) {
			int w = r->writer[c];
			if (w < first || w >= cg->nops || cg->ops[w].write_inactive ||
			    !cg_op_inactive_safe(cg, &cg->ops[w]))
				continue; /* made before the IF, or no plain write: a chain
					   * isel_inactive_jump_ok refused */
			cg->ops[w].write_inactive = true;
			push_operands(&cg->ops[w], stack, &n);
		}
	}
}
