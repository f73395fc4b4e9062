/* One flow-control slot over the whole draw, per the emulator model of
 * ISA.md §6.11 and the decisions of §12: all pixels of the draw (helper
 * pixels included) share one program counter, so the jump decision (all /
 * any of the active pixels; IGNORE_UNCOVERED leaves the helpers out) and
 * the loop counts are taken over the draw, and BREAK/CONTINUE jump only
 * when no pixel of the draw is left in the loop.  Per pixel: the B_ELSE
 * swap, branch counters (INCR/DECR) and leaving the loop.  The loop stack
 * (with aL) and the address stack for call/return are the draw's; their
 * depth, and every jump target, is checked (a fault, never a wild PC). */
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

/* The pixel's own wish to jump: JUMP_FUNC bit (alu*4 + pred*2 + bool). */
static bool wants(const struct emu_pixel *px, const struct r500_inst *in, bool bval)
{
	int idx = px->alu_result * 4 + fc_predicate(px, &in->cmn) * 2 + bval;
	return in->fc.jump_func >> idx & 1;
}

static void b_else(struct emu_ctx *ctx)
{
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		if (px->flow == EMU_ACTIVE) {
			px->flow = EMU_INACTIVE;
			px->counter = 0;
		} else if (px->flow == EMU_INACTIVE && px->counter == 0) {
			px->flow = EMU_ACTIVE;
		}
	}
}

/* Pixels that left loop level `depth` (or only its iteration) return. */
static void restore(struct emu_ctx *ctx, int depth, bool only_continued)
{
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		if (px->level != depth)
			continue;
		if (px->flow == EMU_CONT_OFF || (!only_continued && px->flow == EMU_LOOP_OFF))
			px->flow = EMU_ACTIVE;
	}
}

static void branch_counters(struct emu_ctx *ctx, const struct r500_inst *in, bool bval,
			    bool jump)
{
	const struct r500_fc *fc = &in->fc;
	int bop = jump ? fc->b_op1 & 3 : fc->b_op0 & 3, pop_cnt = fc->b_pop_cnt & 31;
	if (bop != R500_FC_B_INCR && bop != R500_FC_B_DECR)
		return;
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		if (bop == R500_FC_B_INCR) {
			if (px->flow == EMU_INACTIVE) {
				px->counter++;
			} else if (px->flow == EMU_ACTIVE && wants(px, in, bval) != jump) {
				px->flow = EMU_INACTIVE;
				px->counter = 0;
			}
		} else if (px->flow == EMU_INACTIVE) {
			px->counter -= pop_cnt;
			if (px->counter < 0)
				px->flow = EMU_ACTIVE;
		}
	}
}

/* Does any pixel of the draw stay in the innermost loop (BREAK) or in its
 * current iteration (CONTINUE)? */
static bool loop_has_pixels(const struct emu_ctx *ctx, bool iteration)
{
	uint32_t bit = 1u << (ctx->nloops - 1);
	for (long i = 0; i < ctx->npx; i++) {
		const struct emu_pixel *px = &ctx->px[i];
		if (!(px->in_loop & bit))
			continue;
		if (px->flow == EMU_ACTIVE || px->flow == EMU_INACTIVE)
			return true;
		if (!iteration && px->flow == EMU_CONT_OFF)
			return true;
	}
	return false;
}

static bool loop_begin(struct emu_ctx *ctx, const struct r500_fc *fc, bool decided,
		       int target, bool *jump)
{
	const struct r500_loop_const *ic = &ctx->ic[fc->int_addr & 31];
	*jump = ic->count == 0 || decided;
	if (*jump) { /* skipped: its ENDLOOP neither jumps nor pops (§12) */
		ctx->skip_endloop = target;
		return true;
	}
	if (ctx->nloops >= EMU_STACK)
		return emu_fail(ctx, "slot %d: loop stack overflow", ctx->pc);
	uint32_t bit = 1u << ctx->nloops;
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		if (px->flow == EMU_ACTIVE)
			px->in_loop |= bit;
		else
			px->in_loop &= ~bit;
	}
	ctx->loops[ctx->nloops++] = (struct emu_loop){ .count = ic->count, .al = ic->init,
						       .step = ic->step };
	return true;
}

static bool loop_end(struct emu_ctx *ctx, bool with_al, bool decided, bool *jump)
{
	*jump = false;
	if (ctx->pc == ctx->skip_endloop) {
		ctx->skip_endloop = -1;
		return true;
	}
	if (ctx->nloops == 0)
		return emu_fail(ctx, "slot %d: end of a loop that was never entered", ctx->pc);
	struct emu_loop *l = &ctx->loops[ctx->nloops - 1];
	l->count--;
	if (with_al)
		l->al += l->step;
	*jump = l->count > 0 && decided;
	if (!*jump) {
		restore(ctx, ctx->nloops, false);
		ctx->nloops--;
	}
	return true;
}

static bool leave_loop(struct emu_ctx *ctx, const struct r500_inst *in, bool bval, bool cont,
		       bool *jump)
{
	if (ctx->nloops == 0)
		return emu_fail(ctx, "slot %d: %s outside a loop", ctx->pc,
				cont ? "CONTINUE" : "BREAK");
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		if (px->flow == EMU_ACTIVE && wants(px, in, bval)) {
			px->flow = cont ? EMU_CONT_OFF : EMU_LOOP_OFF;
			px->level = (uint8_t)ctx->nloops;
		}
	}
	*jump = !loop_has_pixels(ctx, cont);
	if (*jump && !cont) { /* a BREAK that jumps leaves the loop: pop it */
		restore(ctx, ctx->nloops, false);
		ctx->nloops--;
	}
	return true;
}

/* The collective decision over the draw's active pixels (§6.11). */
static bool decide(const struct emu_ctx *ctx, const struct r500_inst *in, bool bval)
{
	bool any_mode = in->fc.jump_any & 1, skip_helpers = in->fc.ignore_uncovered & 1;
	for (long i = 0; i < ctx->npx; i++) {
		const struct emu_pixel *px = &ctx->px[i];
		if (px->flow != EMU_ACTIVE || (skip_helpers && !px->covered))
			continue;
		if (wants(px, in, bval) == any_mode)
			return any_mode; /* one wish decides "any", one refusal "all" */
	}
	return any_mode ? false : true; /* any of none: no; all of none: yes */
}

bool emu_exec_fc(struct emu_ctx *ctx, const struct r500_inst *in)
{
	const struct r500_fc *fc = &in->fc;
	int op = fc->op & 7, target = fc->jump_addr & 511;
	int func = fc->jump_func & 0xFF;
	bool bval = ctx->bool_const >> (fc->bool_addr & 31) & 1;
	if ((func >> 4) != (func & 15) && !ctx->alu_valid)
		emu_warn(ctx, ctx->pc, 2, "slot %d: jump decision reads an ALU result no ALU slot "
			 "wrote since the last FC slot", ctx->pc);
	ctx->alu_valid = false; /* the ALU result does not survive an FC slot */
	if (fc->b_else & 1)
		b_else(ctx);
	if ((op == R500_FC_ENDLOOP || op == R500_FC_ENDREP) && ctx->nloops &&
	    ctx->pc != ctx->skip_endloop)
		restore(ctx, ctx->nloops, true); /* CONTINUE'd pixels come back */

	bool decided = decide(ctx, in, bval);
	bool jump = decided, ok = true;
	switch (op) {
	case R500_FC_LOOP: case R500_FC_REP:
		ok = loop_begin(ctx, fc, decided, target, &jump);
		break;
	case R500_FC_ENDLOOP: case R500_FC_ENDREP:
		ok = loop_end(ctx, op == R500_FC_ENDLOOP, decided, &jump);
		break;
	case R500_FC_BREAKLOOP: case R500_FC_BREAKREP: case R500_FC_CONTINUE:
		ok = leave_loop(ctx, in, bval, op == R500_FC_CONTINUE, &jump);
		break;
	default:
		break;
	}
	if (!ok)
		return false;
	branch_counters(ctx, in, bval, jump);
	int a_op = fc->a_op & 3;
	if (jump && a_op == R500_FC_A_POP) {
		if (ctx->naddr == 0)
			return emu_fail(ctx, "slot %d: return with an empty address stack", ctx->pc);
		target = ctx->addr_stack[--ctx->naddr];
	} else if (jump && a_op == R500_FC_A_PUSH) {
		if (ctx->naddr >= EMU_STACK)
			return emu_fail(ctx, "slot %d: address stack overflow", ctx->pc);
		ctx->addr_stack[ctx->naddr++] = ctx->pc + 1;
	}
	/* one past the last slot ends the program; further is no slot at all */
	if (jump && target > ctx->p->ninst)
		return emu_fail(ctx, "slot %d: jumps to slot %d, past the end of the program "
				"(%d instructions)", ctx->pc, target, ctx->p->ninst);
	ctx->pc = jump ? target : ctx->pc + 1;
	return true;
}
