/* The backend's validator: what the middle form must satisfy once a
 * phase is reached (cg.h, enum cg_phase).  r500_compile runs it after
 * every stage when asked (debug builds, tests), so a stage that breaks
 * the form is named at once instead of surfacing as wrong pixels.
 *
 *  ops:   every live op's opcode, destination and operands are in range;
 *         each component of an SSA vreg has one writer, the one its
 *         writer[] names, and a live reader never reads a component that
 *         nothing live writes;
 *  slots: every live op sits in a slot that names it back in the units it
 *         needs, with fixed lanes; each operand's address index holds that
 *         operand in every unit reading it (ISA.md §6.3), and every slot
 *         names only live ops placed there;
 *  regs:  every vreg a live op touches has a temporary below 128;
 *  code:  instructions exist for the slots. */
#include "cg.h"

#include <stdarg.h>
#include <stdio.h>

struct vctx {
	const struct cg_ctx *cg;
	char *why;
	size_t len;
};

static bool fail(struct vctx *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct vctx *v, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (v->len)
		vsnprintf(v->why, v->len, fmt, ap);
	va_end(ap);
	return false;
}

static bool live(const struct cg_ctx *cg, int i)
{
	return i >= 0 && i < cg->nops && !cg->ops[i].dead;
}

static bool swizzle_ok(const struct cg_ctx *cg, const struct cg_opnd *o, int entry)
{
	int s = o->swz[entry];
	if (s >= CG_SWZ_ZERO)
		return s <= CG_SWZ_ONE;
	switch (o->file) {
	case CG_FILE_VREG:
	case CG_FILE_TEMP_REL:
		return s < cg->vregs[o->index].ncomp;
	case CG_FILE_CONST:
	case CG_FILE_CONST_REL:
	case CG_FILE_INLINE:
		return s < 4;
	default:
		return true;
	}
}

/* A live reader must find component s of vreg r written by a live op
 * (inputs and multi vregs have no single writer to check). */
static bool defined(const struct cg_ctx *cg, int r, int s)
{
	const struct cg_vreg *vr = &cg->vregs[r];
	if (vr->input >= 0 || vr->multi || s >= CG_SWZ_ZERO)
		return true;
	return live(cg, vr->writer[s]);
}

/* What an address table entry may name: nothing, a temporary, a
 * constant slot (plus aL or not) or an inline constant. */
static bool address_file(int file)
{
	return file <= CG_FILE_INLINE || file == CG_FILE_CONST_REL || file == CG_FILE_TEMP_REL;
}

static bool check_operand(struct vctx *v, int i, int k)
{
	const struct cg_ctx *cg = v->cg;
	const struct cg_op *op = &cg->ops[i];
	const struct cg_opnd *o = &op->src[k];
	if (o->mod > R500_MOD_NAB)
		return fail(v, "op %d operand %d: modifier %d", i, k, o->mod);
	switch (o->file) {
	case CG_FILE_NONE:
		return true;
	case CG_FILE_VREG:
		if (o->index < 0 || o->index >= cg->nvregs)
			return fail(v, "op %d operand %d: vreg %d of %d", i, k, o->index, cg->nvregs);
		break;
	case CG_FILE_TEMP_REL: /* aL adds to it: plan_arrays.c checked the elements */
		if (o->index < 0 || o->index >= cg->nvregs || cg->vregs[o->index].array < 0)
			return fail(v, "op %d operand %d: v%d[aL] is no array element", i, k,
				    o->index);
		break;
	case CG_FILE_CONST:
	case CG_FILE_CONST_REL: /* aL adds to it: loop_rel.c checked the elements */
		if (o->index < 0 || o->index >= cg->nconst_slots)
			return fail(v, "op %d operand %d: constant slot %d of %d", i, k, o->index,
				    cg->nconst_slots);
		break;
	case CG_FILE_INLINE:
		if (o->index < 0 || o->index >= R500_INLINE_BIT)
			return fail(v, "op %d operand %d: inline constant code %d", i, k, o->index);
		break;
	case CG_FILE_PRESUB:
		if (k >= CG_NSRC || !op->presub)
			return fail(v, "op %d operand %d reads a presubtract the op has not", i, k);
		return true;
	default:
		return fail(v, "op %d operand %d: register file %d", i, k, o->file);
	}
	unsigned ent = cg_op_entries(op, k);
	for (int j = 0; j < 4; j++) {
		if (!(ent & (1u << j)))
			continue;
		if (!swizzle_ok(cg, o, j))
			return fail(v, "op %d operand %d: swizzle entry %d reads %d", i, k, j,
				    o->swz[j]);
		if (o->file == CG_FILE_VREG && !defined(cg, o->index, o->swz[j]))
			return fail(v, "op %d reads v%d.%d, which no live op writes", i, o->index,
				    o->swz[j]);
	}
	return true;
}

/* A presubtract (ISA.md §4.2, §6.3 step 3, §8 quirk 9): on an ALU op,
 * over raw registers (no modifier), read by some operand; SUB and ADD
 * combine the two sources channel by channel, so both read real, equal
 * channels (checked once lanes are fixed, when the op is placed). */
static bool check_presub(struct vctx *v, int i)
{
	const struct cg_ctx *cg = v->cg;
	const struct cg_op *op = &cg->ops[i];
	int kind = op->presub - 1;
	if (kind > R500_SRCP_INV || cg_opc_infos[op->opc].tex || op->opc == CG_FC ||
	    op->opc == CG_MDH || op->opc == CG_MDV)
		return fail(v, "op %d: presubtract %d on %s", i, kind, cg_opc_infos[op->opc].name);
	unsigned ent = cg_op_entries(op, CG_PSRC0);
	if (!ent)
		return fail(v, "op %d has a presubtract no operand reads", i);
	for (int k = CG_PSRC0; k <= (cg_presub_two(kind) ? CG_PSRC1 : CG_PSRC0); k++) {
		const struct cg_opnd *o = &op->src[k];
		if (o->mod || (o->file != CG_FILE_VREG && o->file != CG_FILE_CONST))
			return fail(v, "op %d: presubtract source %d is not a plain register", i,
				    k - CG_PSRC0);
	}
	if (!cg_presub_two(kind))
		return true;
	for (int j = 0; j < 4; j++) {
		if (!(ent & (1u << j)))
			continue;
		if (op->src[CG_PSRC0].swz[j] >= CG_SWZ_ZERO || op->src[CG_PSRC1].swz[j] >= CG_SWZ_ZERO)
			return fail(v, "op %d: presubtract entry %d reads a constant swizzle", i, j);
		int a = cg_opnd_channel(cg, &op->src[CG_PSRC0], j);
		int b = cg_opnd_channel(cg, &op->src[CG_PSRC1], j);
		if (op->slot >= 0 && (a == CG_LANE_ANY || a != b))
			return fail(v, "op %d: presubtract entry %d combines channels %d and %d", i,
				    j, a, b);
	}
	return true;
}

static bool check_op(struct vctx *v, int i)
{
	const struct cg_ctx *cg = v->cg;
	const struct cg_op *op = &cg->ops[i];
	if (op->opc >= CG_OPC_COUNT)
		return fail(v, "op %d: opcode %d", i, op->opc);
	if (op->dst < -1 || op->dst >= cg->nvregs)
		return fail(v, "op %d: destination vreg %d of %d", i, op->dst, cg->nvregs);
	if (op->out != CG_OUT_NONE && (op->out < 0 || op->out > CG_OUT_DEPTH))
		return fail(v, "op %d: output %d", i, op->out);
	if (op->dst >= 0) {
		const struct cg_vreg *vr = &cg->vregs[op->dst];
		if (op->wmask & ~((1u << vr->ncomp) - 1))
			return fail(v, "op %d: write mask 0x%x past v%d's %d components", i,
				    op->wmask, op->dst, vr->ncomp);
		if (vr->input >= 0)
			return fail(v, "op %d writes input vreg v%d", i, op->dst);
		for (int c = 0; c < 4 && !vr->multi; c++)
			if ((op->wmask & (1u << c)) && vr->writer[c] != i)
				return fail(v, "op %d writes v%d.%d, whose writer is op %d", i,
					    op->dst, c, vr->writer[c]);
	}
	if (op->dst_rel && (op->dst < 0 || cg->vregs[op->dst].array < 0 || !op->late))
		return fail(v, "op %d: an aL write to v%d, no array element or not late", i, op->dst);
	if (op->pred_write && (!op->alu_result || op->dst >= 0 || op->out != CG_OUT_NONE))
		return fail(v, "op %d: a predicate write that writes something else", i);
	if (op->write_inactive && !cg_op_inactive_safe(cg, op))
		return fail(v, "op %d writes inactive pixels but not only a plain vreg", i);
	for (int k = 0; k < cg_op_nopnd(op); k++)
		if (!check_operand(v, i, k))
			return false;
	return !op->presub || check_presub(v, i);
}

static bool check_vregs(struct vctx *v)
{
	const struct cg_ctx *cg = v->cg;
	for (int r = 0; r < cg->nvregs; r++) {
		const struct cg_vreg *vr = &cg->vregs[r];
		if (vr->ncomp < 1 || vr->ncomp > 4)
			return fail(v, "v%d has %d components", r, vr->ncomp);
		for (int c = 0; c < 4; c++) {
			int w = vr->writer[c];
			if (w == -1)
				continue;
			if (vr->multi || c >= vr->ncomp || w < -1 || w >= cg->nops)
				return fail(v, "v%d.%d: writer %d", r, c, w);
			const struct cg_op *op = &cg->ops[w];
			if (!op->dead && (op->dst != r || !(op->wmask & (1u << c))))
				return fail(v, "v%d.%d: writer op %d does not write it", r, c, w);
		}
	}
	return true;
}

static bool addr_holds(const struct cg_addr *a, const struct cg_opnd *o)
{
	return a->file == o->file && a->index == o->index;
}

static bool check_placed_alu(struct vctx *v, int i)
{
	const struct cg_ctx *cg = v->cg;
	const struct cg_op *op = &cg->ops[i];
	const struct cg_slot *s = &cg->slots[op->slot];
	if (s->tex || s->fc)
		return fail(v, "ALU op %d placed in non-ALU slot %d", i, op->slot);
	if (!op->unit || op->unit > CG_UNIT_BOTH)
		return fail(v, "op %d: unit %d", i, op->unit);
	if (((op->unit & CG_UNIT_RGB) != 0) != (s->rgb == i) ||
	    ((op->unit & CG_UNIT_ALPHA) != 0) != (s->alpha == i))
		return fail(v, "op %d: unit %d, but slot %d holds rgb op %d, alpha op %d", i,
			    op->unit, op->slot, s->rgb, s->alpha);
	if (op->dst >= 0)
		for (int c = 0; c < 4; c++)
			if ((op->wmask & (1u << c)) && cg->vregs[op->dst].lane[c] == CG_LANE_ANY)
				return fail(v, "op %d placed with v%d.%d's lane still open", i,
					    op->dst, c);
	unsigned need = cg_op_units(cg, op);
	if (need & ~op->unit)
		return fail(v, "op %d needs units %u, has %u", i, need, op->unit);
	bool deriv = op->opc == CG_MDH || op->opc == CG_MDV;
	for (int k = 0; k < cg_op_nopnd(op); k++) {
		const struct cg_opnd *o = &op->src[k];
		if (o->file == CG_FILE_NONE || (deriv && k == 2))
			continue;
		bool rgb, alpha;
		cg_op_operand_units(cg, op, k, &rgb, &alpha);
		if (!rgb && !alpha)
			continue;
		if (o->file == CG_FILE_PRESUB) {
			if (op->sel[k] != R500_SEL_SRCP)
				return fail(v, "op %d operand %d reads srcp through index %d", i, k,
					    op->sel[k]);
			if ((rgb && s->rgb_srcp != op->presub) ||
			    (alpha && s->alpha_srcp != op->presub))
				return fail(v, "op %d: slot %d's presubtract is %d,%d, not %d", i,
					    op->slot, s->rgb_srcp, s->alpha_srcp, op->presub);
			continue;
		}
		if (k >= CG_NSRC) { /* a presubtract source: address 0 or 1 */
			int K = k - CG_PSRC0;
			if ((rgb && !addr_holds(&s->rgb_addr[K], o)) ||
			    (alpha && !addr_holds(&s->alpha_addr[K], o)))
				return fail(v, "op %d: slot %d's address %d does not hold presubtract "
					    "source %d", i, op->slot, K, K);
			continue;
		}
		if (op->sel[k] > 2)
			return fail(v, "op %d operand %d: address index %d", i, k, op->sel[k]);
		if ((rgb && !addr_holds(&s->rgb_addr[op->sel[k]], o)) ||
		    (alpha && !addr_holds(&s->alpha_addr[op->sel[k]], o)))
			return fail(v, "op %d operand %d: slot %d's address %d does not hold it", i,
				    k, op->slot, op->sel[k]);
	}
	return true;
}

static bool check_placed(struct vctx *v, int i)
{
	const struct cg_ctx *cg = v->cg;
	const struct cg_op *op = &cg->ops[i];
	if (op->slot < 0 || op->slot >= cg->nslots)
		return fail(v, "live op %d has slot %d of %d", i, op->slot, cg->nslots);
	const struct cg_slot *s = &cg->slots[op->slot];
	if (cg_opc_infos[op->opc].tex || op->opc == CG_FC) {
		bool fc = op->opc == CG_FC;
		if (s->tex == fc || s->fc != fc || s->tex_op != i)
			return fail(v, "op %d (%s) is not what slot %d holds", i,
				    cg_opc_infos[op->opc].name, op->slot);
		return true;
	}
	return check_placed_alu(v, i);
}

static bool check_slot_op(struct vctx *v, int sl, int i, const char *what)
{
	const struct cg_ctx *cg = v->cg;
	if (i == -1)
		return true;
	if (!live(cg, i) || cg->ops[i].slot != sl)
		return fail(v, "slot %d: %s op %d is not a live op placed there", sl, what, i);
	return true;
}

static bool check_slots(struct vctx *v)
{
	const struct cg_ctx *cg = v->cg;
	if (cg->nslots < 0 || (cg->nslots && !cg->slots))
		return fail(v, "%d slots", cg->nslots);
	for (int sl = 0; sl < cg->nslots; sl++) {
		const struct cg_slot *s = &cg->slots[sl];
		if (s->tex && s->fc)
			return fail(v, "slot %d is both TEX and FC", sl);
		if (s->tex || s->fc) {
			if (s->tex_op < 0 || !check_slot_op(v, sl, s->tex_op, s->tex ? "TEX" : "FC"))
				return s->tex_op < 0 ? fail(v, "slot %d holds no op", sl) : false;
			continue;
		}
		if (!check_slot_op(v, sl, s->rgb, "rgb") || !check_slot_op(v, sl, s->alpha, "alpha"))
			return false;
		/* WRITE_INACTIVE is one bit for both units */
		bool wi = (s->rgb >= 0 && cg->ops[s->rgb].write_inactive) ||
			  (s->alpha >= 0 && cg->ops[s->alpha].write_inactive);
		if (wi && ((s->rgb >= 0 && !cg_op_inactive_safe(cg, &cg->ops[s->rgb])) ||
			   (s->alpha >= 0 && !cg_op_inactive_safe(cg, &cg->ops[s->alpha]))))
			return fail(v, "slot %d writes inactive pixels beside an op that may not", sl);
		for (int k = 0; k < 3; k++)
			if (!address_file(s->rgb_addr[k].file) || !address_file(s->alpha_addr[k].file))
				return fail(v, "slot %d: address %d has file %d/%d", sl, k,
					    s->rgb_addr[k].file, s->alpha_addr[k].file);
	}
	for (int i = 0; i < cg->nops; i++)
		if (live(cg, i) && !check_placed(v, i))
			return false;
	return true;
}

/* A local array's elements lie in consecutive temporaries, in the same
 * lanes, so that aL reaches each. */
static bool check_arrays(struct vctx *v)
{
	const struct cg_ctx *cg = v->cg;
	for (int a = 0; a < cg->narrays; a++) {
		const struct cg_array *arr = &cg->arrays[a];
		if (arr->n < 1 || arr->vreg[0] < 0)
			continue; /* a loop isel never reached (dead code) */
		int t0 = cg->vregs[arr->vreg[0]].temp;
		for (int e = 0; e < arr->n; e++) {
			const struct cg_vreg *r = arr->vreg[e] >= 0 ? &cg->vregs[arr->vreg[e]] : NULL;
			if (!r || r->array != a || r->elem != e || (t0 >= 0 && r->temp >= 0 &&
								       r->temp != t0 + e))
				return fail(v, "array %d element %d: v%d in t%d, the first in t%d", a,
					    e, r ? arr->vreg[e] : -1, r ? r->temp : -1, t0);
			for (int c = 0; c < r->ncomp; c++)
				if (r->lane[c] != c)
					return fail(v, "array %d element %d: lane %d of v%d", a, e,
						    c, arr->vreg[e]);
		}
	}
	return true;
}

static bool check_regs(struct vctx *v)
{
	const struct cg_ctx *cg = v->cg;
	if (!check_arrays(v))
		return false;
	for (int i = 0; i < cg->nops; i++) {
		if (!live(cg, i))
			continue;
		const struct cg_op *op = &cg->ops[i];
		int regs[1 + CG_NOPND] = { op->dst, -1, -1, -1, -1, -1 };
		for (int k = 0; k < cg_op_nopnd(op); k++)
			if ((op->src[k].file == CG_FILE_VREG || op->src[k].file == CG_FILE_TEMP_REL) &&
			    cg_op_entries(op, k))
				regs[k + 1] = op->src[k].index;
		for (int j = 0; j < 1 + CG_NOPND; j++)
			if (regs[j] >= 0 && (cg->vregs[regs[j]].temp < 0 ||
					     cg->vregs[regs[j]].temp >= R500_NUM_TEMPS))
				return fail(v, "op %d: v%d has temporary %d", i, regs[j],
					    cg->vregs[regs[j]].temp);
	}
	return true;
}

bool cg_validate(const struct cg_ctx *cg, enum cg_phase phase, char *why, size_t len)
{
	struct vctx v = { cg, why, len };
	if (len)
		why[0] = 0;
	if (cg->nops < 0 || cg->nvregs < 0 || (cg->nops && !cg->ops) ||
	    (cg->nvregs && !cg->vregs))
		return fail(&v, "%d ops, %d vregs", cg->nops, cg->nvregs);
	if (!check_vregs(&v))
		return false;
	for (int i = 0; i < cg->nops; i++)
		if (live(cg, i) && !check_op(&v, i))
			return false;
	if (phase >= CG_PHASE_SLOTS && !check_slots(&v))
		return false;
	if (phase >= CG_PHASE_REGS && !check_regs(&v))
		return false;
	if (phase >= CG_PHASE_CODE && (cg->ninst < cg->nslots || (cg->ninst && !cg->code)))
		return fail(&v, "%d instructions for %d slots", cg->ninst, cg->nslots);
	return true;
}
