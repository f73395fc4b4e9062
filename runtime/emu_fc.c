/* One flow-control slot over a quad, per the emulator model of ISA.md
 * §6.11 and the decisions of §12: B_ELSE swap, the jump decision (all /
 * any of the active pixels), branch counters (INCR/DECR), the loop stack
 * with aL, BREAK/CONTINUE taking pixels out of the loop, and the address
 * stack for call/return.  The quad's pixels share one PC. */
#include "emu_internal.h"

static bool fc_predicate(const struct emu_pixel *px, const struct r500_cmn *m)
{
	int sel = m->rgb_pred_sel & 7;
	bool bit;
	if (sel == R500_PRED_NONE)
		return false; /* PRED_SEL 0 ignores PRED_INV (§12) */
	if (sel == R500_PRED_RGBA)
		bit = px->pred & 1; /* not a replicate mode: read as RRRR */
	else if (sel <= R500_PRED_AAAA)
		bit = px->pred >> (sel - R500_PRED_RRRR) & 1;
	else
		bit = false;
	return bit != (m->rgb_pred_inv & 1);
}

static void b_else(struct emu_quad *q)
{
	for (int i = 0; i < EMU_QUAD; i++) {
		struct emu_pixel *px = &q->px[i];
		if (px->flow == EMU_ACTIVE) {
			px->flow = EMU_INACTIVE;
			px->counter = 0;
		} else if (px->flow == EMU_INACTIVE && px->counter == 0) {
			px->flow = EMU_ACTIVE;
		}
	}
}

/* Pixels that left loop level `depth` (or only its iteration) return. */
static void restore(struct emu_quad *q, int depth, bool only_continued)
{
	for (int i = 0; i < EMU_QUAD; i++) {
		struct emu_pixel *px = &q->px[i];
		if (px->level != depth)
			continue;
		if (px->flow == EMU_CONT_OFF || (!only_continued && px->flow == EMU_LOOP_OFF))
			px->flow = EMU_ACTIVE;
	}
}

static void branch_counters(struct emu_quad *q, int bop, int pop_cnt, const bool want[4],
			    bool jump)
{
	for (int i = 0; i < EMU_QUAD; i++) {
		struct emu_pixel *px = &q->px[i];
		if (bop == R500_FC_B_INCR) {
			if (px->flow == EMU_INACTIVE) {
				px->counter++;
			} else if (px->flow == EMU_ACTIVE && want[i] != jump) {
				px->flow = EMU_INACTIVE;
				px->counter = 0;
			}
		} else if (bop == R500_FC_B_DECR && px->flow == EMU_INACTIVE) {
			px->counter -= pop_cnt;
			if (px->counter < 0)
				px->flow = EMU_ACTIVE;
		}
	}
}

/* Does any pixel of the innermost loop stay in it (BREAK) or in its
 * current iteration (CONTINUE)? */
static bool loop_has_pixels(const struct emu_quad *q, bool iteration)
{
	const struct emu_loop *l = &q->loops[q->nloops - 1];
	for (int i = 0; i < EMU_QUAD; i++) {
		const struct emu_pixel *px = &q->px[i];
		if (!(l->mask >> i & 1))
			continue;
		if (px->flow == EMU_ACTIVE || px->flow == EMU_INACTIVE)
			return true;
		if (!iteration && px->flow == EMU_CONT_OFF)
			return true;
	}
	return false;
}

static bool loop_begin(struct emu_ctx *ctx, struct emu_quad *q, const struct r500_fc *fc,
		       bool decided, int target, bool *jump)
{
	const struct r500_loop_const *ic = &ctx->ic[fc->int_addr & 31];
	*jump = ic->count == 0 || decided;
	if (*jump) { /* skipped: its ENDLOOP neither jumps nor pops (§12) */
		q->skip_endloop = target;
		return true;
	}
	if (q->nloops >= EMU_STACK)
		return emu_fail(ctx, "slot %d: loop stack overflow", q->pc);
	uint8_t mask = 0;
	for (int i = 0; i < EMU_QUAD; i++)
		if (q->px[i].flow == EMU_ACTIVE)
			mask |= (uint8_t)(1u << i);
	q->loops[q->nloops++] = (struct emu_loop){ .count = ic->count, .al = ic->init,
						   .step = ic->step, .mask = mask };
	return true;
}

static bool loop_end(struct emu_ctx *ctx, struct emu_quad *q, bool with_al, bool decided,
		     bool *jump)
{
	*jump = false;
	if (q->pc == q->skip_endloop) {
		q->skip_endloop = -1;
		return true;
	}
	if (q->nloops == 0)
		return emu_fail(ctx, "slot %d: end of a loop that was never entered", q->pc);
	struct emu_loop *l = &q->loops[q->nloops - 1];
	l->count--;
	if (with_al)
		l->al += l->step;
	*jump = l->count > 0 && decided;
	if (!*jump) {
		restore(q, q->nloops, false);
		q->nloops--;
	}
	return true;
}

static bool leave_loop(struct emu_ctx *ctx, struct emu_quad *q, bool cont, const bool want[4],
		       bool *jump)
{
	if (q->nloops == 0)
		return emu_fail(ctx, "slot %d: %s outside a loop", q->pc, cont ? "CONTINUE" : "BREAK");
	for (int i = 0; i < EMU_QUAD; i++) {
		struct emu_pixel *px = &q->px[i];
		if (px->flow == EMU_ACTIVE && want[i]) {
			px->flow = cont ? EMU_CONT_OFF : EMU_LOOP_OFF;
			px->level = q->nloops;
		}
	}
	*jump = !loop_has_pixels(q, cont);
	if (*jump && !cont) { /* a BREAK that jumps leaves the loop: pop it */
		restore(q, q->nloops, false);
		q->nloops--;
	}
	return true;
}

bool emu_exec_fc(struct emu_ctx *ctx, struct emu_quad *q, const struct r500_inst *in)
{
	const struct r500_fc *fc = &in->fc;
	int op = fc->op & 7, target = fc->jump_addr & 511;
	int func = fc->jump_func & 0xFF;
	if ((func >> 4) != (func & 15) && !q->alu_valid)
		emu_warn(ctx, q->pc, 2, "slot %d: jump decision reads an ALU result no ALU slot "
			 "wrote since the last FC slot", q->pc);
	q->alu_valid = false; /* the ALU result does not survive an FC slot */
	if (fc->b_else & 1)
		b_else(q);
	if ((op == R500_FC_ENDLOOP || op == R500_FC_ENDREP) && q->nloops &&
	    q->pc != q->skip_endloop)
		restore(q, q->nloops, true); /* CONTINUE'd pixels come back */

	bool want[EMU_QUAD], any = false, all = true, bval = ctx->bool_const >> (fc->bool_addr & 31) & 1;
	int nact = 0;
	for (int i = 0; i < EMU_QUAD; i++) {
		const struct emu_pixel *px = &q->px[i];
		int idx = px->alu_result * 4 + fc_predicate(px, &in->cmn) * 2 + bval;
		want[i] = fc->jump_func >> idx & 1;
		if (px->flow != EMU_ACTIVE || ((fc->ignore_uncovered & 1) && !px->covered))
			continue;
		nact++;
		any |= want[i];
		all &= want[i];
	}
	bool decided = (fc->jump_any & 1) ? nact > 0 && any : nact == 0 || all;
	bool jump = decided, ok = true;
	switch (op) {
	case R500_FC_LOOP: case R500_FC_REP:
		ok = loop_begin(ctx, q, fc, decided, target, &jump);
		break;
	case R500_FC_ENDLOOP: case R500_FC_ENDREP:
		ok = loop_end(ctx, q, op == R500_FC_ENDLOOP, decided, &jump);
		break;
	case R500_FC_BREAKLOOP: case R500_FC_BREAKREP: case R500_FC_CONTINUE:
		ok = leave_loop(ctx, q, op == R500_FC_CONTINUE, want, &jump);
		break;
	default:
		break;
	}
	if (!ok)
		return false;
	branch_counters(q, jump ? fc->b_op1 & 3 : fc->b_op0 & 3, fc->b_pop_cnt & 31, want, jump);
	int a_op = fc->a_op & 3;
	if (jump && a_op == R500_FC_A_POP) {
		if (q->naddr == 0)
			return emu_fail(ctx, "slot %d: return with an empty address stack", q->pc);
		target = q->addr_stack[--q->naddr];
	} else if (jump && a_op == R500_FC_A_PUSH) {
		if (q->naddr >= EMU_STACK)
			return emu_fail(ctx, "slot %d: address stack overflow", q->pc);
		q->addr_stack[q->naddr++] = q->pc + 1;
	}
	q->pc = jump ? target : q->pc + 1;
	return true;
}
