/* Output merging: two ops that write disjoint channels of the same render
 * target (or of the same vector vreg, e.g. a VEC's constant part and a
 * copied part) and both need the RGB unit can never share a slot, so they cost
 * two instructions; when their operands fit one instruction (per operand
 * the same register and modifier, or constant swizzles only) they become
 * one op writing the union of the channels, e.g. vec4(abs(v.xy), 0.0, 1.0)
 * is one OUT instead of two.  Outputs are latched and never read, so the
 * merged op may go where the later of the two was, provided nothing in
 * between writes the same target or is a barrier / late copy (ISA.md §6.6,
 * cg_op.late); a vreg's merged op likewise, when nothing in between (nor
 * the two ops) reads the vreg.
 *
 * Needs: cg_isel (dead ops marked).  Gives: fewer, wider output ops. */
#include "cg.h"

/* Whether component c of what op writes lands in the RGB unit. */
static bool needs_rgb(const struct cg_ctx *cg, const struct cg_op *op)
{
	for (int c = 0; c < 4; c++)
		if ((op->wmask & (1u << c)) && cg_op_lane(cg, op, c) < 3)
			return true;
	return false;
}

/* Mergeable kind: a plain ALU op writing only an output (not depth), or
 * only a vector vreg (fixed lanes, SSA), in the RGB unit. */
static bool mergeable(const struct cg_ctx *cg, const struct cg_op *op)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	if (op->dead || op->late || op->alu_result || info->transcendental || info->dot ||
	    info->tex || op->opc == CG_FC || op->opc == CG_KIL || op->opc == CG_MDH ||
	    op->opc == CG_MDV)
		return false;
	if (op->dst >= 0) {
		const struct cg_vreg *v = &cg->vregs[op->dst];
		if (op->out != CG_OUT_NONE || v->multi || v->input >= 0 || v->ncomp < 2)
			return false;
		for (int c = 0; c < v->ncomp; c++)
			if (v->lane[c] == CG_LANE_ANY)
				return false;
	} else if (op->out < 0 || op->out >= CG_OUT_DEPTH) {
		return false;
	}
	return needs_rgb(cg, op);
}

/* Whether the modifier negates the constant swizzles 0, 0.5, 1 (ABS and
 * NONE leave them alone; NEG and NAB both negate them). */
static bool mod_negates(int mod)
{
	return mod == R500_MOD_NEG || mod == R500_MOD_NAB;
}

static bool reads_file(const struct cg_opnd *o, unsigned entries)
{
	for (int e = 0; e < 4; e++)
		if ((entries & (1u << e)) && o->swz[e] < 4)
			return true;
	return false;
}

/* Whether every entry of `entries` reads the constant 0. */
static bool zeros_only(const struct cg_opnd *o, unsigned entries)
{
	for (int e = 0; e < 4; e++)
		if ((entries & (1u << e)) && o->swz[e] != R500_SWZ_ZERO)
			return false;
	return true;
}

/* One operand serving the entries ea of a and eb of b, if there is one.
 * zero_sign_free: the result is an output, where a zero's sign is lost,
 * so a zero swizzle may take the other's negating modifier. */
static bool merge_opnd(const struct cg_opnd *a, unsigned ea, const struct cg_opnd *b,
		       unsigned eb, bool zero_sign_free, struct cg_opnd *out)
{
	bool na = reads_file(a, ea), nb = reads_file(b, eb);
	const struct cg_opnd *base = na || !nb ? a : b;
	const struct cg_opnd *other = base == a ? b : a;
	unsigned eo = base == a ? eb : ea;
	if (na && nb) {
		if (a->file != b->file || a->index != b->index || a->mod != b->mod)
			return false;
	} else if (eo && other->mod != base->mod &&
		   mod_negates(other->mod) != mod_negates(base->mod) &&
		   !(zero_sign_free && zeros_only(other, eo))) {
		return false; /* the other's constant swizzles would change sign */
	}
	*out = *base;
	for (int e = 0; e < 4; e++)
		if (eo & (1u << e))
			out->swz[e] = other->swz[e];
	return true;
}

/* A copy: MAD s, 1, 0 over its channels, s from a register file. */
static bool copy_shaped(const struct cg_op *op)
{
	return op->opc == CG_MAD && !op->presub && op->src[0].file != CG_FILE_NONE &&
	       op->src[0].file != CG_FILE_PRESUB &&
	       cg_opnd_const_swizzles(&op->src[1], op->wmask, CG_SWZ_ONE) &&
	       cg_opnd_const_swizzles(&op->src[2], op->wmask, CG_SWZ_ZERO);
}

/* Two copies from different registers, gathered into one vector, are one
 * MAD: a's source times 1 plus b's source, each reading 0 in the other's
 * channels (a -0 copied so arrives as +0: GLSL keeps no sign of zero).
 * Fills src; false if they are not two such copies. */
static bool merge_copies(const struct cg_op *a, const struct cg_op *b, struct cg_opnd src[3])
{
	if (!copy_shaped(a) || !copy_shaped(b))
		return false;
	src[0] = a->src[0];
	src[1] = b->src[1];
	src[2] = b->src[0];
	for (int e = 0; e < 4; e++) {
		if (b->wmask & (1u << e))
			src[0].swz[e] = CG_SWZ_ZERO;
		if (a->wmask & (1u << e)) {
			src[1].swz[e] = CG_SWZ_ONE;
			src[2].swz[e] = CG_SWZ_ZERO;
		}
	}
	return true;
}

/* Merges a (earlier) into b; false (nothing changed) if they do not fit. */
static bool merge_pair(struct cg_ctx *cg, int ia, int ib)
{
	struct cg_op *a = &cg->ops[ia], *b = &cg->ops[ib];
	if (a->opc != b->opc || a->out != b->out || a->dst != b->dst || a->clamp != b->clamp ||
	    a->omod != b->omod ||
	    (a->wmask & b->wmask))
		return false;
	if (b->dst >= 0 && (cg_op_reads_vreg(a, b->dst) || cg_op_reads_vreg(b, b->dst)))
		return false;
	int nsrc = cg_opc_infos[b->opc].nsrc;
	struct cg_opnd src[3];
	for (int k = 0; k < 3; k++)
		src[k] = b->src[k];
	bool fit = true;
	for (int k = 0; k < nsrc && fit; k++)
		fit = merge_opnd(&a->src[k], a->wmask, &b->src[k], b->wmask, b->dst < 0, &src[k]);
	if (!fit && !(cg_opt_enabled(cg, SW_MERGE_COPIES) && merge_copies(a, b, src)))
		return false;
	for (int k = 0; k < 3; k++)
		b->src[k] = src[k];
	if (b->dst >= 0)
		for (int c = 0; c < 4; c++)
			if (a->wmask & (1u << c))
				cg->vregs[b->dst].writer[c] = ib;
	b->wmask |= a->wmask;
	if (a->out_ncomp > b->out_ncomp)
		b->out_ncomp = a->out_ncomp;
	a->dead = true;
	return true;
}

bool cg_merge(struct cg_ctx *cg)
{
	/* how many live ops write each vreg: an op whose vreg has no other
	 * writer has nothing to merge with, and its backward walk (to the
	 * region's start) is skipped */
	int *writers = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nvregs + 1));
	if (!writers)
		return cg->failed = true, false;
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead && cg->ops[i].dst >= 0)
			writers[cg->ops[i].dst]++;
	for (int i = 0; i < cg->nops; i++) {
		struct cg_op *b = &cg->ops[i];
		if (!mergeable(cg, b) || (b->dst >= 0 && writers[b->dst] < 2))
			continue;
		for (int j = i - 1; j >= 0; j--) {
			struct cg_op *a = &cg->ops[j];
			if (a->dead)
				continue;
			if (cg_op_barrier(a) || a->late)
				break;
			bool same = b->dst >= 0 ? a->dst == b->dst : a->out == b->out;
			if (!same) {
				/* the merged op goes to i: nothing in between may read
				 * what a writes */
				if (b->dst >= 0 && cg_op_reads_vreg(a, b->dst))
					break;
				continue;
			}
			/* the nearest earlier writer of the target: merge or stop */
			if (mergeable(cg, a) && merge_pair(cg, j, i) && b->dst >= 0)
				writers[b->dst]--;
			break;
		}
	}
	return !cg->failed;
}
