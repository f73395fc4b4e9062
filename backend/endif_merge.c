/* Nested IFs that end together close with one ENDIF (endif-merge).
 *
 * An ENDIF is a JUMP that never jumps and lowers every inactive pixel's
 * branch counter by B_POP_CNT (ISA.md 6.11): m ENDIFs in a row lower it
 * by m, one a slot, so one ENDIF with B_POP_CNT = m does the same work in
 * one slot (the CTM guide's own example).  A jump that landed on the
 * j-th of the run (an IF without ELSE or an ELSE closing the j-1-th)
 * skipped the first j - 1; it now lands after the merged ENDIF and, when
 * it jumps, lowers the counters by the m - j + 1 it still owed, through
 * its own B_OP1 = DECR and B_POP_CNT.  A pixel active before a DECR stays
 * active, so the counts add up the same way at once as one by one.
 *
 * Such runs close an unrolled loop's early exits, `if (a) { if (b) { ..
 * } }`, and every IF nest whose bodies end at the same place.
 *
 * Needs: registers assigned (slots final but for this).  Gives: fewer FC
 * slots; jump targets still name ops (emit resolves them). */
#include "cg.h"

enum { MAX_POP = 31 }; /* B_POP_CNT is 5 bits */

/* The op of an ENDIF in slot k, -1 when the slot holds something else. */
static int endif_at(const struct cg_ctx *cg, int k)
{
	const struct cg_slot *sl = &cg->slots[k];
	if (!sl->fc || sl->tex_op < 0)
		return -1;
	const struct cg_op *op = &cg->ops[sl->tex_op];
	const struct r500_fc *fc = &op->fc;
	bool endif = fc->op == R500_FC_JUMP && fc->jump_any && !fc->b_else && fc->jump_func == 0 &&
		     fc->a_op == R500_FC_A_NONE && fc->b_op0 == R500_FC_B_DECR &&
		     fc->b_op1 == R500_FC_B_NONE && fc->b_pop_cnt >= 1 &&
		     op->fc_target == sl->tex_op && op->fc_delta == 1;
	return endif ? sl->tex_op : -1;
}

/* The slot a jump of op x lands on, -1 for none. */
static int lands_on(const struct cg_ctx *cg, const struct cg_op *x)
{
	if (x->dead || x->opc != CG_FC || x->fc_target < 0 || x->fc_target >= cg->nops ||
	    cg->ops[x->fc_target].slot < 0)
		return -1;
	return cg->ops[x->fc_target].slot + x->fc_delta;
}

/* The B_POP_CNT a jump landing on slot `at` of the run [a, b] still owes:
 * the ENDIFs from there on. */
static int owed_from(const struct cg_ctx *cg, int at, int b)
{
	int owed = 0;
	for (int k = at; k <= b; k++)
		owed += cg->ops[endif_at(cg, k)].fc.b_pop_cnt;
	return owed;
}

/* Whether every jump into the run [a, b] past its first slot can take on
 * the ENDIFs it skips no more: a JUMP whose B_OP1 lowers or does nothing,
 * within B_POP_CNT's range (the run's own ENDIFs never jump). */
static bool jumps_can_follow(const struct cg_ctx *cg, int a, int b)
{
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *x = &cg->ops[i];
		int at = lands_on(cg, x);
		if (at <= a || at > b || (x->slot >= a && x->slot <= b))
			continue;
		const struct r500_fc *fc = &x->fc;
		int had = fc->b_op1 == R500_FC_B_DECR ? fc->b_pop_cnt : 0;
		if (fc->op != R500_FC_JUMP || fc->a_op != R500_FC_A_NONE ||
		    (fc->b_op1 != R500_FC_B_NONE && fc->b_op1 != R500_FC_B_DECR) ||
		    had + owed_from(cg, at, b) > MAX_POP)
			return false;
	}
	return true;
}

/* The run [a, b] as the ENDIF in slot a: the jumps into it retargeted,
 * the others' slots emptied. */
static void merge_run(struct cg_ctx *cg, int a, int b)
{
	int keep = endif_at(cg, a), pops = owed_from(cg, a, b);
	for (int i = 0; i < cg->nops; i++) {
		struct cg_op *x = &cg->ops[i];
		int at = lands_on(cg, x);
		if (at < a || at > b + 1 || (x->slot >= a && x->slot <= b))
			continue;
		if (at > a && at <= b) {
			int had = x->fc.b_op1 == R500_FC_B_DECR ? x->fc.b_pop_cnt : 0;
			x->fc.b_op1 = R500_FC_B_DECR;
			x->fc.b_pop_cnt = (uint16_t)(had + owed_from(cg, at, b));
		}
		x->fc_target = keep;
		x->fc_delta = (int8_t)(at == a ? 0 : 1);
	}
	for (int k = a + 1; k <= b; k++) {
		struct cg_op *op = &cg->ops[endif_at(cg, k)];
		op->dead = true;
		op->slot = -1;
		cg->slots[k].fc = false;
		cg->slots[k].tex_op = -1;
	}
	cg->ops[keep].fc.b_pop_cnt = (uint16_t)pops;
}

bool cg_endif_merge(struct cg_ctx *cg)
{
	bool any = false;
	for (int a = 0; a < cg->nslots && !cg->failed; a++) {
		if (endif_at(cg, a) < 0)
			continue;
		int b = a, pops = cg->ops[endif_at(cg, a)].fc.b_pop_cnt;
		while (b + 1 < cg->nslots && endif_at(cg, b + 1) >= 0 &&
		       pops + cg->ops[endif_at(cg, b + 1)].fc.b_pop_cnt <= MAX_POP)
			pops += cg->ops[endif_at(cg, ++b)].fc.b_pop_cnt;
		if (b > a && jumps_can_follow(cg, a, b)) {
			merge_run(cg, a, b);
			any = true;
		}
		a = b;
	}
	if (any)
		cg_compact_slots(cg);
	return !cg->failed;
}
