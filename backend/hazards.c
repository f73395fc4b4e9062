/* Hazards, all in one place (ISA.md §6.9, §6.10, §8 quirks 1-3):
 *
 *  - the program ends with an OUT carrying TEX_SEM_WAIT (an empty OUT is
 *    appended when the last slot is not an OUT);
 *  - each run of TEX lookups ends with ACQUIRE + WAIT on its last lookup;
 *    a lookup whose coordinates come from an earlier lookup of the same
 *    run splits the run there;
 *  - the first instruction after a run, along every path the flow of
 *    control can take, that reads or writes a temporary a lookup of the
 *    run writes gets TEX_SEM_WAIT (checked per temporary, conservatively,
 *    from the address fields); flow control itself waits only after a
 *    TEXKILL (§6.10);
 *  - NOP on the instruction before MDH/MDV (unless it is a TEX), as Mesa;
 *  - NOP on an ALU/OUT instruction writing a temporary that the next
 *    instruction uses as a presubtract operand while selecting srcp;
 *  - ALU_WAIT on every flow-control instruction.
 *
 * Needs: cg->code from cg_emit (room for one more instruction).
 * Gives: the timing bits and cg->nops_inserted. */
#include "cg.h"
#include "r500_codec.h"

#include <string.h>

static bool is_alu(const struct r500_inst *in)
{
	return in->cmn.type == R500_TYPE_ALU || in->cmn.type == R500_TYPE_OUT;
}

static void empty_out(struct r500_inst *in)
{
	memset(in, 0, sizeof *in);
	in->cmn.type = R500_TYPE_OUT;
	for (int k = 0; k < 3; k++) {
		in->alu.rgb_addr.src[k].addr = R500_INLINE_BIT;
		in->alu.alpha_addr.src[k].addr = R500_INLINE_BIT;
		for (int c = 0; c < 3; c++)
			in->alu.rgb_arg[k].swz[c] = R500_SWZ_ZERO;
		in->alu.alpha_arg[k].swz[0] = R500_SWZ_ZERO;
	}
}

static void add_temp(uint64_t set[2], unsigned t)
{
	set[(t >> 6) & 1] |= 1ull << (t & 63);
}

/* Temporary t, or with aL added any temporary (plan_arrays.c). */
static void add_temp_rel(uint64_t set[2], unsigned t, bool rel)
{
	if (rel)
		set[0] = set[1] = ~0ull;
	else
		add_temp(set, t);
}

/* Temporaries an ALU/OUT instruction reads (any temp address field). */
static void alu_reads(const struct r500_inst *in, uint64_t set[2])
{
	const struct r500_addr_word *w[2] = { &in->alu.rgb_addr, &in->alu.alpha_addr };
	for (int u = 0; u < 2; u++)
		for (int k = 0; k < 3; k++) {
			const struct r500_addr *a = &w[u]->src[k];
			if (!a->cnst && !(a->addr & R500_INLINE_BIT))
				add_temp_rel(set, a->addr, a->rel);
		}
}

static bool meets(const uint64_t a[2], const uint64_t b[2])
{
	return (a[0] & b[0]) || (a[1] & b[1]);
}

static void alu_writes(const struct r500_inst *in, uint64_t set[2])
{
	if (in->cmn.rgb_wmask)
		add_temp_rel(set, in->alu.rgb_addrd, in->alu.rgb_addrd_rel);
	if (in->cmn.alpha_wmask)
		add_temp_rel(set, in->alu.alpha_addrd, in->alu.alpha_addrd_rel);
}

/* Where an instruction starts: the temporaries lookups still write.
 * inflight: acquired, not yet waited for; unacq: the current run's, not
 * yet acquired (empty outside a run: a run's last lookup acquires). */
struct sem_state {
	uint64_t inflight[2], unacq[2];
};

static bool set_flag(uint16_t *bit)
{
	bool was = *bit & 1;
	*bit = 1;
	return !was;
}

/* Instruction i's effect on st; sets the WAIT / ACQUIRE bits it needs
 * (on a split run, the previous lookup's too).  Returns whether it set a
 * bit that was clear. */
static bool sem_step(struct cg_ctx *cg, int i, struct sem_state *st, bool must_wait)
{
	struct r500_inst *in = &cg->code[i];
	bool set = false;
	if (in->cmn.tex_sem_wait & 1) /* the wait comes before anything else */
		memset(st->inflight, 0, sizeof st->inflight);
	if (in->cmn.type == R500_TYPE_TEX) {
		uint64_t rd[2] = { 0, 0 };
		add_temp(rd, in->tex.src_addr);
		if (in->tex.inst == R500_TEX_DXDY) {
			add_temp(rd, in->tex.dx_addr);
			add_temp(rd, in->tex.dy_addr);
		}
		if (meets(rd, st->unacq) && i > 0 && cg->code[i - 1].cmn.type == R500_TYPE_TEX) {
			/* split the run before this lookup */
			struct r500_inst *prev = &cg->code[i - 1];
			set |= set_flag(&prev->tex.sem_acquire);
			set |= set_flag(&prev->cmn.tex_sem_wait);
			memcpy(st->inflight, st->unacq, sizeof st->inflight);
			memset(st->unacq, 0, sizeof st->unacq);
		}
		if (meets(rd, st->inflight)) {
			set |= set_flag(&in->cmn.tex_sem_wait);
			memset(st->inflight, 0, sizeof st->inflight);
		}
		if (in->cmn.rgb_wmask || in->cmn.alpha_wmask)
			add_temp(st->unacq, in->tex.dst_addr);
		if (i + 1 >= cg->ninst || cg->code[i + 1].cmn.type != R500_TYPE_TEX) {
			set |= set_flag(&in->tex.sem_acquire);
			set |= set_flag(&in->cmn.tex_sem_wait);
			memcpy(st->inflight, st->unacq, sizeof st->inflight);
			memset(st->unacq, 0, sizeof st->unacq);
		}
		return set;
	}
	uint64_t use[2] = { 0, 0 };
	if (is_alu(in)) {
		alu_reads(in, use);
		alu_writes(in, use);
	}
	if (must_wait || meets(use, st->inflight)) {
		set |= set_flag(&in->cmn.tex_sem_wait);
		memset(st->inflight, 0, sizeof st->inflight);
	}
	return set;
}

/* Whether a's sets hold all of b's. */
static bool sem_covers(const struct sem_state *a, const struct sem_state *b)
{
	for (int k = 0; k < 2; k++)
		if ((b->inflight[k] & ~a->inflight[k]) || (b->unacq[k] & ~a->unacq[k]))
			return false;
	return true;
}

static void sem_join(struct sem_state *a, const struct sem_state *b)
{
	for (int k = 0; k < 2; k++) {
		a->inflight[k] |= b->inflight[k];
		a->unacq[k] |= b->unacq[k];
	}
}

/* An FC slot that must wait whatever is in flight: the first one after
 * a TEXKILL (Mesa's empirical rule, checked in program order as the
 * validator does), and one that returns to a pushed address (a jump
 * this analysis does not follow). */
static void fc_must_wait(const struct cg_ctx *cg, bool *must)
{
	bool kill = false;
	for (int i = 0; i < cg->ninst; i++) {
		const struct r500_inst *in = &cg->code[i];
		if (in->cmn.type == R500_TYPE_TEX && in->tex.inst == R500_TEX_KILL)
			kill = true;
		if (in->cmn.type != R500_TYPE_FC)
			continue;
		must[i] = kill || (in->fc.a_op & 3) == R500_FC_A_POP ||
			  (in->fc.a_op & 3) == R500_FC_A_PUSH;
		kill = false;
	}
}

/* The semaphore bits, along the flow of control: a lookup in flight at a
 * JUMP, LOOP, BREAK or ENDLOOP is still in flight where that slot leads
 * (both ways), so a lookup issued at the end of a loop trip for the next
 * trip waits only where the next trip reads it.  A forward dataflow over
 * the slots (successors: the next slot and the jump target), solved
 * again from empty whenever a new bit changes the flow (bits are only
 * ever set, so that happens at most a few times per slot). */
static void tex_semaphores(struct cg_ctx *cg)
{
	int n = cg->ninst;
	struct sem_state *at = arena_alloc(cg->arena, sizeof *at * (size_t)(n + 1));
	bool *must = arena_alloc(cg->arena, sizeof *must * (size_t)(n + 1));
	if (!at || !must) {
		cg->failed = true;
		return;
	}
	memset(must, 0, sizeof *must * (size_t)(n + 1));
	fc_must_wait(cg, must);
	for (bool again = true; again;) {
		again = false;
		memset(at, 0, sizeof *at * (size_t)(n + 1));
		for (bool changed = true; changed && !again;) {
			changed = false;
			for (int i = 0; i < n; i++) {
				struct sem_state st = at[i];
				again |= sem_step(cg, i, &st, must[i]);
				int succ[2] = { i + 1, -1 };
				const struct r500_inst *in = &cg->code[i];
				if (in->cmn.type == R500_TYPE_FC && !must[i])
					succ[1] = in->fc.jump_addr & 511;
				for (int k = 0; k < 2; k++) {
					int s = succ[k];
					if (s < 0 || s >= n || sem_covers(&at[s], &st))
						continue;
					sem_join(&at[s], &st);
					changed = true;
				}
			}
		}
	}
}

static void nops(struct cg_ctx *cg)
{
	for (int i = 0; i < cg->ninst; i++)
		if (cg->code[i].cmn.type == R500_TYPE_FC)
			cg->code[i].cmn.alu_wait = 1;
	/* MDH/MDV and presubtract: the rule the validator checks (r500_codec.h) */
	for (int i = 1; i < cg->ninst; i++)
		if (r500_hazard_needs_nop(&cg->code[i - 1], &cg->code[i]))
			cg->code[i - 1].cmn.nop = 1;
	cg->nops_inserted = 0;
	for (int i = 0; i < cg->ninst; i++)
		cg->nops_inserted += cg->code[i].cmn.nop;
}

bool cg_hazards(struct cg_ctx *cg)
{
	if (cg->ninst == 0 || cg->code[cg->ninst - 1].cmn.type != R500_TYPE_OUT) {
		if (cg->ninst >= cg->cap_inst)
			return cg_error(cg, (struct src_loc){ 0 }, "internal error: no room for OUT");
		empty_out(&cg->code[cg->ninst++]);
	}
	tex_semaphores(cg);
	cg->code[cg->ninst - 1].cmn.tex_sem_wait = 1;
	nops(cg);
	return true;
}
