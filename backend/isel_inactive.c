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

#include <string.h>

enum where { AT_TOP, IN_REGION, ELSEWHERE };

/* Where def sits: at the top of the function, inside `region` and in no
 * loop there, or elsewhere. */
static enum where where_is(const struct ir_instr *def, const struct ir_cf *region)
{
	const struct ir_cf *b = ir_instr_cf(def);
	if (!b)
		return ELSEWHERE;
	const struct ir_cf *cf = b->parent;
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

/* The verdict for one IF at the top of the function, kept while isel asks
 * about it and the IFs inside it (the cost rule asks again at every
 * level): a walk of its whole region each time, with an array by id,
 * grew with the square of the nesting. */
struct isel_inactive {
	const struct ir_cf *top;
	bool ok;
	bool *seen;      /* by id: defs checked */
	bool *on_chain;  /* by id: inside `top`, making what the neighbours read */
};

bool isel_inactive_init(struct isel *s)
{
	struct isel_inactive *c = arena_alloc(s->cg->arena, sizeof *c);
	if (!c)
		return false;
	c->top = NULL;
	c->seen = arena_alloc(s->cg->arena, sizeof *c->seen * s->nids);
	c->on_chain = arena_alloc(s->cg->arena, sizeof *c->on_chain * s->nids);
	s->inactive = c;
	return c->seen && c->on_chain;
}

/* Whether every pixel computes src's value right when the ops making it
 * inside `top` write inactive pixels too. */
static bool chain_ok(const struct isel *s, const struct ir_src *src)
{
	struct isel_inactive *c = s->inactive;
	const struct ir_instr *d = src->def;
	if (!d || d->op == IR_OP_CONST || (d->op == IR_OP_UNIFORM && d->nsrc == 0))
		return true;
	if (d->id >= s->nids)
		return false;
	if (c->seen[d->id])
		return true;
	c->seen[d->id] = true;
	enum where at = where_is(d, c->top);
	if (at == AT_TOP)
		return true;
	if (at == ELSEWHERE || d->op == IR_OP_PHI ||
	    (ir_op_infos[d->op].flags & (IRF_QUAD | IRF_MEM | IRF_SIDE)) ||
	    (s->cg->arr_access && s->cg->arr_access[d->id]))
		return false;
	c->on_chain[d->id] = true;
	for (int k = 0; k < d->nsrc && k < IR_MAX_SRCS; k++)
		if (!chain_ok(s, &d->src[k]))
			return false;
	return true;
}

static bool list_ok(const struct isel *s, const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_LOOP)
			return false;
		if (cf->kind == IR_CF_IF) {
			if (!list_ok(s, &cf->then_list) || !list_ok(s, &cf->else_list))
				return false;
			continue;
		}
		for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
			bool quad = in->op == IR_OP_DDX || in->op == IR_OP_DDY ||
				    (in->op == IR_OP_TEX && ir_tex_kind_uses_quad(in->tex_kind));
			for (int k = 0; quad && k < in->nsrc && k < IR_MAX_SRCS; k++)
				if (!chain_ok(s, &in->src[k]))
					return false;
		}
	}
	return true;
}

/* The instructions of list on a chain. */
static int count_chain(const struct isel *s, const struct ir_cf_list *list)
{
	int n = 0;
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF)
			n += count_chain(s, &cf->then_list) + count_chain(s, &cf->else_list);
		else if (cf->kind == IR_CF_BLOCK)
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				n += in->id < s->nids && s->inactive->on_chain[in->id] &&
				     !isel_is_virtual(in);
	}
	return n;
}

/* An IF nested in others qualifies with the one at the top: every
 * lookup and derivative there has its chain from values made before it,
 * and all the IFs between, holding the nested one's lookups, jump too
 * (a nested jump forces them): each that may diverge marks the chains
 * inside it, a quad-uniform one runs its side for whole quads.  Inside a
 * loop none qualifies. */
bool isel_inactive_jump_ok(const struct isel *s, const struct ir_cf *cf, int *nchain)
{
	struct isel_inactive *c = s->inactive;
	*nchain = 0;
	if (!c || cf->kind != IR_CF_IF)
		return false;
	const struct ir_cf *top = cf;
	for (; top->parent; top = top->parent)
		if (top->parent->kind == IR_CF_LOOP)
			return false;
	if (c->top != top) {
		c->top = top;
		memset(c->seen, 0, sizeof *c->seen * s->nids);
		memset(c->on_chain, 0, sizeof *c->on_chain * s->nids);
		c->ok = list_ok(s, &top->then_list) && list_ok(s, &top->else_list);
	}
	if (!c->ok)
		return false;
	*nchain = count_chain(s, &cf->then_list) + count_chain(s, &cf->else_list);
	return true;
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
