/* Jumping IFs whose quad neighbours diverge (issue 25).
 *
 * An implicit-LOD lookup or a derivative reads its operand from the
 * three other pixels of its quad (ISA.md §12), inactive ones included.
 * Under an IF the four pixels may take differently, a real jump leaves
 * the neighbours that did not take this side with whatever their
 * registers held, so isel_cf.c if-converts such IFs.  It may jump after
 * all when the ops computing those operands inside the IF write inactive
 * pixels too (WRITE_INACTIVE), and compute them from values every pixel
 * holds: here the values made outside every IF and loop (all pixels are
 * active there), constants and uniforms.  A chain through a PHI, a
 * lookup, a derivative, an array access or a loop does not qualify.
 *
 * What WRITE_INACTIVE clobbers is safe by construction: only ops
 * cg_op_inactive_safe allows carry it (plain SSA vregs, see cg.h). */
#include "isel.h"
#include "ir_eval.h"

#include <stddef.h>
#include <string.h>

/* The cf node a block belongs to. */
static const struct ir_cf *cf_of_block(const struct ir_block *b)
{
	return (const struct ir_cf *)((const char *)b - offsetof(struct ir_cf, block));
}

enum where { AT_TOP, IN_REGION, ELSEWHERE };

/* Whether the instruction sits inside cf (at any depth). */
static bool inside(const struct ir_instr *in, const struct ir_cf *cf)
{
	for (const struct ir_cf *p = cf_of_block(in->block)->parent; p; p = p->parent)
		if (p == cf)
			return true;
	return false;
}

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

/* The walk over the operands of an IF's lookups and derivatives. */
struct chains {
	const struct isel *s;
	const struct ir_cf *top;   /* the IF at the top of the function holding them */
	const struct ir_cf *inner; /* the IF asked about (top or inside it) */
	bool *seen;                /* by id: defs checked */
	int nchain;                /* instructions inside `inner` making them */
};

/* Whether every pixel computes src's value right when the ops making it
 * inside `top` write inactive pixels too. */
static bool chain_ok(struct chains *w, const struct ir_src *src)
{
	const struct ir_instr *d = src->def;
	if (!d || d->op == IR_OP_CONST || (d->op == IR_OP_UNIFORM && d->nsrc == 0))
		return true;
	if (d->id >= w->s->nids)
		return false;
	if (w->seen[d->id])
		return true;
	w->seen[d->id] = true;
	enum where at = where_is(d, w->top);
	if (at == AT_TOP)
		return true;
	if (at == ELSEWHERE || d->op == IR_OP_PHI ||
	    (ir_op_infos[d->op].flags & (IRF_QUAD | IRF_MEM | IRF_SIDE)) ||
	    (w->s->cg->arr_access && w->s->cg->arr_access[d->id]))
		return false;
	w->nchain += !isel_is_virtual(d) && inside(d, w->inner);
	for (int k = 0; k < d->nsrc && k < IR_MAX_SRCS; k++)
		if (!chain_ok(w, &d->src[k]))
			return false;
	return true;
}

static bool list_ok(struct chains *w, const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_LOOP)
			return false;
		if (cf->kind == IR_CF_IF) {
			if (!list_ok(w, &cf->then_list) || !list_ok(w, &cf->else_list))
				return false;
			continue;
		}
		for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
			bool quad = in->op == IR_OP_DDX || in->op == IR_OP_DDY ||
				    (in->op == IR_OP_TEX && ir_tex_kind_uses_quad(in->tex_kind));
			for (int k = 0; quad && k < in->nsrc && k < IR_MAX_SRCS; k++)
				if (!chain_ok(w, &in->src[k]))
					return false;
		}
	}
	return true;
}

/* An IF nested in others qualifies with the one at the top: every
 * lookup and derivative there has its chain from values made before it,
 * and all the IFs between, holding the nested one's lookups, jump too
 * (a nested jump forces them, isel_cf.c): each that may diverge marks
 * the chains inside it, a quad-uniform one runs its side for whole
 * quads.  Inside a loop none qualifies. */
bool isel_inactive_jump_ok(const struct isel *s, const struct ir_cf *cf, int *nchain)
{
	*nchain = 0;
	if (cf->kind != IR_CF_IF || !s->nids)
		return false;
	const struct ir_cf *top = cf;
	for (; top->parent; top = top->parent)
		if (top->parent->kind == IR_CF_LOOP)
			return false;
	struct chains w = { s, top, cf, arena_alloc(s->cg->arena, sizeof(bool) * s->nids), 0 };
	if (!w.seen)
		return false;
	for (uint32_t i = 0; i < s->nids; i++)
		w.seen[i] = false;
	bool ok = list_ok(&w, &top->then_list) && list_ok(&w, &top->else_list);
	*nchain = w.nchain;
	return ok;
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
	/* a nested IF marked its own chains: this walk goes on through them
	 * (`done`, not the bit, says which ops it has seen) */
	int nops = cg->nops - first;
	size_t cap = (size_t)(nops + 1) * CG_NOPND * 2; /* an op pushes its
							 * operands at most twice */
	int *stack = arena_alloc(cg->arena, sizeof *stack * cap), n = 0;
	bool *done = arena_alloc(cg->arena, sizeof *done * (size_t)(nops + 1));
	if (!stack || !done) {
		cg->failed = true;
		return;
	}
	memset(done, 0, sizeof *done * (size_t)(nops + 1));
	for (int i = first; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (!op->dead && ((cg_opc_infos[op->opc].tex && op->opc != CG_KIL) ||
				  op->opc == CG_MDH || op->opc == CG_MDV))
			push_operands(op, stack, &n);
	}
	while (n > 0) {
		int v = stack[--n];
		const struct cg_vreg *r = &cg->vregs[v];
		if (r->multi || r->input >= 0)
			continue; /* made before the IF (isel_inactive_jump_ok) */
		for (int c = 0; c < r->ncomp; c++) {
			int w = r->writer[c];
			if (w < first || w >= cg->nops || done[w - first] ||
			    !cg_op_inactive_safe(cg, &cg->ops[w]))
				continue; /* made before the IF, or no plain write: a chain
					   * isel_inactive_jump_ok refused */
			done[w - first] = true;
			cg->ops[w].write_inactive = true;
			push_operands(&cg->ops[w], stack, &n);
		}
	}
}
