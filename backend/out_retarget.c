/* Output retargeting: a vector built only to be sent to a render target
 * costs a copy per part it gathers.  `gl_FragColor = vec4(t.rgb, c.a)`
 * becomes a copy of c.a into the vector beside the lookup's rgb, then an
 * OUT of the vector: two ALU slots where one does, because the RGB and
 * the alpha unit of one instruction read their own registers (ISA.md
 * §6.2).  Here the copy writes its components of the target itself and
 * the OUT keeps the rest; the scheduler can then pair the two halves.
 *
 * For an OUT that is a plain copy of an SSA vreg d, and a group of its
 * components in one unit (the RGB ones, or alpha) read from d components
 * that one plain copy W (of a vreg, a constant or inline values) writes
 * and nothing else reads: W writes those
 * components of the target instead, where it stands.  Safe when nothing
 * between W and the OUT is a barrier (both run for the same pixels) or
 * writes the same target (the last write still wins), as outputs are
 * latched and never read back.  The group must not be the whole OUT:
 * that is one copy either way (copy_fold.c's and copy_bypass.c's case).
 *
 * Needs: copy_bypass's pass (bypassed copies are gone).  Gives: fewer
 * gathered components; runs before merge. */
#include "cg.h"

/* A live OUT to a render target that copies an SSA vreg's components
 * unchanged: that vreg, or -1. */
static int output_copy_source(const struct cg_ctx *cg, const struct cg_op *op)
{
	const struct cg_opnd *s = &op->src[0];
	if (op->dead || op->opc != CG_MAD || op->dst >= 0 || op->out < 0 ||
	    op->out >= CG_OUT_DEPTH || op->clamp || op->omod || op->late || op->alu_result ||
	    op->predicated || op->presub || s->file != CG_FILE_VREG || s->mod != R500_MOD_NONE ||
	    !cg_opnd_const_swizzles(&op->src[1], op->wmask, CG_SWZ_ONE) ||
	    !cg_opnd_const_swizzles(&op->src[2], op->wmask, CG_SWZ_ZERO))
		return -1;
	const struct cg_vreg *v = &cg->vregs[s->index];
	if (v->multi || v->input >= 0 || v->array >= 0)
		return -1;
	for (int c = 0; c < 4; c++)
		if ((op->wmask & (1u << c)) && s->swz[c] >= 4)
			return -1;
	return s->index;
}

/* Whether a live op other than `except` reads one of d's components in
 * `comps`. */
static bool read_elsewhere(const struct cg_ctx *cg, int d, unsigned comps, int except)
{
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || i == except)
			continue;
		for (int k = 0; k < cg_op_nopnd(op); k++)
			if (op->src[k].file == CG_FILE_VREG && op->src[k].index == d &&
			    (cg_op_vreg_comps(op, k) & comps))
				return true;
	}
	return false;
}

/* Whether ops strictly between `from` and `to` let a write of target
 * `out` move from `to` back to `from`. */
static bool clear_between(const struct cg_ctx *cg, int from, int to, int out)
{
	for (int i = from + 1; i < to; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (!op->dead && (cg_op_barrier(op) || op->out == out))
			return false;
	}
	return true;
}

/* Retargets the copy writing the components of OUT op `o` in `group` (a
 * mask of its components), if it can; whether it did. */
static bool retarget(struct cg_ctx *cg, int o, unsigned group)
{
	struct cg_op *out = &cg->ops[o];
	int d = out->src[0].index, w = -1;
	unsigned comps = 0;       /* d's components the group reads */
	for (int c = 0; c < 4; c++) {
		if (!(group & (1u << c)))
			continue;
		int x = out->src[0].swz[c], wc = cg->vregs[d].writer[x];
		if (wc < 0 || (w >= 0 && wc != w))
			return false;
		w = wc;
		comps |= 1u << x;
	}
	struct cg_op *copy = &cg->ops[w];
	/* a copy of anything but d itself: a vreg, a constant, inline values */
	const struct cg_opnd *cs = cg_op_plain_copy(copy);
	if (w > o || !cs || (cs->file == CG_FILE_VREG && cs->index == d) || copy->predicated ||
	    copy->write_inactive ||
	    copy->dst != d ||
	    copy->wmask != comps)
		return false;
	for (int c = 0; c < 4; c++) /* the rest of the OUT reads none of them */
		if ((out->wmask & ~group & (1u << c)) && (comps & (1u << out->src[0].swz[c])))
			return false;
	if (read_elsewhere(cg, d, comps, o) || !clear_between(cg, w, o, out->out))
		return false;
	struct cg_opnd src[3];
	for (int k = 0; k < 3; k++)
		src[k] = copy->src[k];
	for (int c = 0; c < 4; c++) {
		if (!(group & (1u << c)))
			continue;
		int x = out->src[0].swz[c];
		for (int k = 0; k < 3; k++)
			copy->src[k].swz[c] = src[k].swz[x];
	}
	copy->dst = -1;
	copy->wmask = (uint8_t)group;
	copy->out = out->out;
	copy->out_ncomp = out->out_ncomp;
	out->wmask &= (uint8_t)~group;
	for (int x = 0; x < 4; x++)
		if (comps & (1u << x))
			cg->vregs[d].writer[x] = -1;
	cg->vregs[d].used &= (uint8_t)~comps;
	return true;
}

bool cg_retarget_output(struct cg_ctx *cg)
{
	for (int o = 0; o < cg->nops; o++) {
		if (output_copy_source(cg, &cg->ops[o]) < 0)
			continue;
		/* output component c is lane c: 0..2 the RGB unit, 3 alpha */
		static const unsigned groups[2] = { 0x7, 0x8 };
		for (int g = 0; g < 2; g++) {
			unsigned group = cg->ops[o].wmask & groups[g];
			if (group && group != cg->ops[o].wmask)
				retarget(cg, o, group);
		}
	}
	return !cg->failed;
}
