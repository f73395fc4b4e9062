/* Copy propagation: every source that reads a MOV reads the MOV's own
 * source instead, with the two swizzles composed.  The MOVs themselves are
 * left for DCE.  Needs: valid IR.  Keeps: control flow, ids; scoping stays
 * valid because a MOV's source is visible wherever the MOV is. */
#include "ir.h"
#include "ir_pass.h"

/* Follows chains of MOVs; returns whether the source changed. */
static bool propagate(struct ir_src *s)
{
	bool changed = false;
	for (int guard = 0; guard < 64 && s->def && s->def->op == IR_OP_MOV &&
			    s->def->nsrc == 1 && s->def->src[0].def;
	     guard++) {
		const struct ir_src *m = &s->def->src[0];
		for (int c = 0; c < 4; c++)
			s->swz[c] = m->swz[s->swz[c] & 3];
		s->def = m->def;
		changed = true;
	}
	return changed;
}

static void prop_instr(struct ir_instr *in, void *ud)
{
	bool *progress = ud;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		*progress |= propagate(&in->src[i]);
}

static bool prop_conds(struct ir_cf_list *list)
{
	bool progress = false;
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			progress |= propagate(&cf->cond);
			progress |= prop_conds(&cf->then_list);
			progress |= prop_conds(&cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			progress |= prop_conds(&cf->body);
		}
	}
	return progress;
}

bool ir_opt_copy_prop(struct ir_func *f)
{
	bool progress = false;
	ir_foreach_instr(f, prop_instr, &progress);
	progress |= prop_conds(&f->body);
	return progress;
}
