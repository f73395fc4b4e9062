/* Hazards, all in one place (ISA.md §6.9, §6.10, §8 quirks 1-3):
 *
 *  - the program ends with an OUT carrying TEX_SEM_WAIT (an empty OUT is
 *    appended when the last slot is not an OUT);
 *  - each run of TEX lookups ends with ACQUIRE + WAIT on its last lookup;
 *    a lookup whose coordinates come from an earlier lookup of the same
 *    run splits the run there;
 *  - the first instruction after a run that reads or writes a temporary
 *    a lookup of the run writes gets TEX_SEM_WAIT (checked per temporary,
 *    conservatively, from the address fields);
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

/* Temporary t, or with aL added any temporary (loop_array.c). */
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

static void tex_semaphores(struct cg_ctx *cg)
{
	uint64_t unacq[2] = { 0, 0 }, inflight[2] = { 0, 0 };
	for (int i = 0; i < cg->ninst; i++) {
		struct r500_inst *in = &cg->code[i];
		if (in->cmn.type == R500_TYPE_TEX) {
			uint64_t rd[2] = { 0, 0 };
			add_temp(rd, in->tex.src_addr);
			if (in->tex.inst == R500_TEX_DXDY) {
				add_temp(rd, in->tex.dx_addr);
				add_temp(rd, in->tex.dy_addr);
			}
			if (meets(rd, unacq)) { /* split the run before this lookup */
				struct r500_inst *prev = &cg->code[i - 1];
				prev->tex.sem_acquire = 1;
				prev->cmn.tex_sem_wait = 1;
				memcpy(inflight, unacq, sizeof inflight);
				memset(unacq, 0, sizeof unacq);
			}
			if (meets(rd, inflight)) {
				in->cmn.tex_sem_wait = 1;
				memset(inflight, 0, sizeof inflight);
			}
			if (in->cmn.rgb_wmask || in->cmn.alpha_wmask)
				add_temp(unacq, in->tex.dst_addr);
			bool last = i + 1 >= cg->ninst || cg->code[i + 1].cmn.type != R500_TYPE_TEX;
			if (last) {
				in->tex.sem_acquire = 1;
				in->cmn.tex_sem_wait = 1;
				memcpy(inflight, unacq, sizeof inflight);
				memset(unacq, 0, sizeof unacq);
			}
			continue;
		}
		uint64_t use[2] = { 0, 0 };
		if (is_alu(in)) {
			alu_reads(in, use);
			alu_writes(in, use);
		}
		if (meets(use, inflight) || in->cmn.type == R500_TYPE_FC) {
			in->cmn.tex_sem_wait = 1;
			memset(inflight, 0, sizeof inflight);
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
