/* Emission: scheduled, allocated slots -> struct r500_inst, field by field
 * (ISA.md §4).  Operand swizzles are resolved here from the vregs' lanes;
 * unused address fields hold 0x80 (inline 0, §4.2 tip) and unused
 * swizzles the 0 code (never code 7, §3).
 *
 * Needs: cg_schedule and cg_regalloc done.  Gives: cg->code / cg->ninst
 * (no hazard bits yet: hazards.c sets NOP, waits and the final OUT). */
#include "cg.h"

#include <assert.h>
#include <string.h>

static void emit_addrs(const struct cg_ctx *cg, const struct cg_addr *in, uint8_t srcp,
		       struct r500_addr_word *w)
{
	for (int k = 0; k < 3; k++) {
		struct r500_addr *a = &w->src[k];
		a->rel = 0;
		a->cnst = 0;
		switch (in[k].file) {
		case CG_FILE_VREG:
			a->addr = (uint16_t)cg->vregs[in[k].index].temp;
			break;
		case CG_FILE_TEMP_REL:
			a->addr = (uint16_t)cg->vregs[in[k].index].temp;
			a->rel = 1;
			break;
		case CG_FILE_CONST:
			a->addr = (uint16_t)in[k].index;
			a->cnst = 1;
			break;
		case CG_FILE_CONST_REL:
			a->addr = (uint16_t)in[k].index;
			a->cnst = 1;
			a->rel = 1;
			break;
		case CG_FILE_INLINE:
			a->addr = (uint16_t)(R500_INLINE_BIT | in[k].index);
			break;
		default:
			a->addr = R500_INLINE_BIT;
			break;
		}
	}
	w->srcp_op = srcp ? srcp - 1u : 0; /* 0 (BIAS) is inert unless selected */
}

/* Which operand feeds hardware input A/B/C of an op, -1 none. */
static int arg_operand(const struct cg_op *op, int arg)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	if (op->opc == CG_MDH || op->opc == CG_MDV)
		return arg; /* A = src0, B = -1, C = src0 (same operand) */
	return arg < info->nsrc ? arg : -1;
}

/* The operand entry feeding lane L of the op's result, -1 none. */
static int lane_entry(const struct cg_ctx *cg, const struct cg_op *op, int lane)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	if (info->dot)
		return op->opc == CG_DP3 && lane == 3 ? -1 : lane;
	if (info->transcendental) {
		for (int c = 0; c < 4; c++)
			if (op->wmask & (1u << c))
				return c; /* one component per op */
		return -1;
	}
	for (int c = 0; c < 4; c++)
		if ((op->wmask & (1u << c)) && cg_op_lane(cg, op, c) == lane)
			return c;
	return -1;
}

static struct r500_arg make_arg(const struct cg_ctx *cg, const struct cg_op *op, int arg,
				int lanes_lo, int lanes_hi)
{
	struct r500_arg a = { 0, { R500_SWZ_ZERO, R500_SWZ_ZERO, R500_SWZ_ZERO }, 0 };
	if (lanes_lo == 3) /* alpha inputs have one swizzle */
		a.swz[1] = a.swz[2] = 0;
	int k = arg_operand(op, arg);
	if (k < 0)
		return a;
	const struct cg_opnd *o = &op->src[k];
	a.sel = op->sel[k];
	a.mod = o->mod;
	for (int L = lanes_lo; L <= lanes_hi; L++) {
		int e = lane_entry(cg, op, L);
		if (e >= 0)
			a.swz[L - lanes_lo] = (uint16_t)cg_op_channel(cg, op, k, e);
	}
	return a;
}

static unsigned lanes_written(const struct cg_ctx *cg, const struct cg_op *op, bool to_temp)
{
	unsigned m = 0;
	if (to_temp && op->dst < 0)
		return 0;
	if (!to_temp && op->out == CG_OUT_NONE)
		return 0;
	for (int c = 0; c < 4; c++)
		if (op->wmask & (1u << c)) {
			int lane = cg_op_lane(cg, op, c);
			assert(lane >= 0 && lane < 4); /* regalloc fixed every lane */
			m |= 1u << (lane & 3);
		}
	return m;
}

static void emit_rgb(const struct cg_ctx *cg, const struct cg_op *op, struct r500_inst *in)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	struct r500_alu *alu = &in->alu;
	alu->rgb_op = (uint16_t)info->rgb_op;
	unsigned wl = lanes_written(cg, op, true), ol = lanes_written(cg, op, false);
	if (op->dst >= 0) {
		alu->rgb_addrd = (uint16_t)cg->vregs[op->dst].temp;
		alu->rgb_addrd_rel = op->dst_rel;
	}
	if (op->predicated)
		in->cmn.rgb_pred_sel = R500_PRED_RRRR;
	if (op->opc == CG_DP3 || op->opc == CG_DP4) /* result in R only when asked */
		wl &= 7;
	in->cmn.rgb_wmask = (uint16_t)(wl & 7);
	if (op->out >= 0 && op->out < CG_OUT_DEPTH) {
		in->cmn.rgb_omask = (uint16_t)(ol & 7);
		alu->rgb_target = (uint16_t)op->out;
	}
	in->cmn.rgb_clamp = op->clamp;
	alu->rgb_omod = op->omod;
	if (!info->transcendental)
		for (int arg = 0; arg < 3; arg++)
			alu->rgb_arg[arg] = make_arg(cg, op, arg, 0, 2);
}

static void emit_alpha(const struct cg_ctx *cg, const struct cg_op *op, struct r500_inst *in)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	struct r500_alu *alu = &in->alu;
	alu->alpha_op = (uint16_t)info->alpha_op;
	unsigned wl = lanes_written(cg, op, true), ol = lanes_written(cg, op, false);
	if (op->dst >= 0) {
		alu->alpha_addrd = (uint16_t)cg->vregs[op->dst].temp;
		alu->alpha_addrd_rel = op->dst_rel;
	}
	if (op->predicated)
		in->cmn.alpha_pred_sel = R500_PRED_RRRR;
	in->cmn.alpha_wmask = (wl >> 3) & 1;
	if (op->out == CG_OUT_DEPTH) {
		alu->w_omask = 1;
	} else if (op->out >= 0) {
		in->cmn.alpha_omask = (ol >> 3) & 1;
		alu->alpha_target = (uint16_t)op->out;
	}
	in->cmn.alpha_clamp = op->clamp;
	alu->alpha_omod = op->omod;
	for (int arg = 0; arg < 3; arg++)
		alu->alpha_arg[arg] = make_arg(cg, op, arg, 3, 3);
}

static void emit_alu(const struct cg_ctx *cg, const struct cg_slot *s, struct r500_inst *in)
{
	bool out = (s->rgb >= 0 && cg->ops[s->rgb].out != CG_OUT_NONE) ||
		   (s->alpha >= 0 && cg->ops[s->alpha].out != CG_OUT_NONE);
	in->cmn.type = out ? R500_TYPE_OUT : R500_TYPE_ALU;
	emit_addrs(cg, s->rgb_addr, s->rgb_srcp, &in->alu.rgb_addr);
	emit_addrs(cg, s->alpha_addr, s->alpha_srcp, &in->alu.alpha_addr);
	for (int k = 0; k < 3; k++) {
		in->alu.rgb_arg[k] = (struct r500_arg){ 0, { R500_SWZ_ZERO, R500_SWZ_ZERO,
							     R500_SWZ_ZERO }, 0 };
		in->alu.alpha_arg[k] = (struct r500_arg){ 0, { R500_SWZ_ZERO, 0, 0 }, 0 };
	}
	if (s->rgb >= 0)
		emit_rgb(cg, &cg->ops[s->rgb], in);
	if (s->alpha >= 0)
		emit_alpha(cg, &cg->ops[s->alpha], in);
	/* one bit for both units: cg_slot_try_place pairs such an op only
	 * with one that may write inactive pixels as well */
	in->cmn.write_inactive = (s->rgb >= 0 && cg->ops[s->rgb].write_inactive) ||
				 (s->alpha >= 0 && cg->ops[s->alpha].write_inactive);
	if (s->rgb >= 0 && s->alpha < 0 && cg_opc_infos[cg->ops[s->rgb].opc].dot)
		in->alu.alpha_op = R500_AOP_MAD; /* DP3 alone: alpha idle */
	/* an IF's condition: the ALU result compares R (or alpha) with 0; a
	 * guard (isel_array.c): the R predicate bit */
	for (int u = 0; u < 2; u++) {
		int o = u ? s->alpha : s->rgb;
		if (o < 0 || !cg->ops[o].alu_result)
			continue;
		if (cg->ops[o].pred_write) {
			assert(o == s->rgb); /* its lane is R (cg_op_lane) */
			in->cmn.rgb_omask = 1;
			in->alu.rgb_target = cg->ops[o].alu_cmp;
			continue;
		}
		in->alu.alu_wmask = 1;
		in->cmn.alu_result_op = cg->ops[o].alu_cmp;
		in->cmn.alu_result_sel = (uint16_t)(o == s->rgb ? 0 : 1);
	}
}

/* Flow control: the op carries its encoding (ISA.md §6.11's table);
 * only the jump target, an op's slot plus a delta, is resolved here. */
static void emit_fc(const struct cg_ctx *cg, const struct cg_op *op, struct r500_inst *in)
{
	in->cmn.type = R500_TYPE_FC;
	in->fc = op->fc;
	if (op->fc_target >= 0 && op->fc_target < cg->nops)
		in->fc.jump_addr = (uint16_t)(cg->ops[op->fc_target].slot + op->fc_delta);
}

static void emit_tex(const struct cg_ctx *cg, const struct cg_op *op, struct r500_inst *in)
{
	in->cmn.type = R500_TYPE_TEX;
	struct r500_tex *t = &in->tex;
	t->tex_id = op->tex_unit;
	t->inst = op->tex_inst;
	t->unscaled = op->tex_unscaled;
	const struct cg_opnd *o = &op->src[0];
	const struct cg_vreg *cr = &cg->vregs[o->index];
	/* a lookup reads and writes allocated temps (isel made its sources
	 * plain vregs; regalloc gave every live vreg a temp) */
	assert(o->file == CG_FILE_VREG && cr->temp >= 0 && cr->temp < R500_NUM_TEMPS);
	assert(op->dst < 0 || (cg->vregs[op->dst].temp >= 0 &&
			       cg->vregs[op->dst].temp < R500_NUM_TEMPS));
	t->src_addr = (uint16_t)cr->temp;
	for (int i = 0; i < 4; i++)
		t->src_swz[i] = (uint16_t)(cr->lane[o->swz[i] & 3] & 3);
	if (op->opc == CG_TXD) { /* gradients: TEX_ADDR_DXDY (ISA.md §4.8) */
		const struct cg_vreg *dx = &cg->vregs[op->src[1].index];
		const struct cg_vreg *dy = &cg->vregs[op->src[2].index];
		assert(op->src[1].file == CG_FILE_VREG && op->src[2].file == CG_FILE_VREG);
		assert(dx->temp >= 0 && dy->temp >= 0);
		t->dx_addr = (uint16_t)dx->temp;
		t->dy_addr = (uint16_t)dy->temp;
		for (int i = 0; i < 4; i++) {
			t->dx_swz[i] = (uint16_t)(dx->lane[op->src[1].swz[i] & 3] & 3);
			t->dy_swz[i] = (uint16_t)(dy->lane[op->src[2].swz[i] & 3] & 3);
		}
	}
	for (int i = 0; i < 4; i++)
		t->dst_swz[i] = (uint16_t)i;
	if (op->dst >= 0) {
		unsigned wl = lanes_written(cg, op, true);
		t->dst_addr = (uint16_t)cg->vregs[op->dst].temp;
		in->cmn.rgb_wmask = (uint16_t)(wl & 7);
		in->cmn.alpha_wmask = (wl >> 3) & 1;
	}
}

bool cg_emit(struct cg_ctx *cg)
{
	cg->cap_inst = cg->nslots + 2;
	/* not zeroed: each instruction is cleared as it is emitted (hazards
	 * clears the one it adds) */
	cg->code = arena_alloc_unzeroed(cg->arena, sizeof *cg->code * (size_t)cg->cap_inst);
	if (!cg->code)
		return cg->failed = true, false;
	for (int p = 0; p < cg->nslots; p++) {
		struct r500_inst *in = &cg->code[p];
		memset(in, 0, sizeof *in);
		const struct cg_slot *s = &cg->slots[p];
		if (s->fc)
			emit_fc(cg, &cg->ops[s->tex_op], in);
		else if (s->tex)
			emit_tex(cg, &cg->ops[s->tex_op], in);
		else
			emit_alu(cg, s, in);
	}
	cg->ninst = cg->nslots;
	return true;
}
