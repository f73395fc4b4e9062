/* Output merging: two ops that write disjoint channels of the same render
 * target (or of the same vector vreg, e.g. a VEC's constant part and a
 * copied part) and both need the RGB unit can never share a slot, so they cost
 * two instructions; when their operands fit one instruction (per operand
 * the same register and modifier, or constant swizzles only) they become
 * one op writing the union of the channels, e.g. vec4(abs(v.xy), 0.0, 1.0)
 * is one OUT instead of two.  Operands that clash as written may fit in
 * another form of the same MAD (A and B swapped, a copy s * 1 + 0 as
 * 0 * 0 + s), so three copies from three registers, or a product and a
 * negated copy, are one OUT (mad_forms).  Outputs are latched and never read, so the
 * merged op may go where the later of the two was, provided nothing in
 * between writes the same target or is a barrier / late copy (ISA.md §6.6,
 * cg_op.late); a vreg's merged op likewise, when nothing in between (nor
 * the two ops) reads the vreg.
 *
 * Needs: cg_isel (dead ops marked).  Gives: fewer, wider output ops. */
#include "cg.h"

#include <string.h>

static const struct cg_opnd ZERO_OPND = { CG_FILE_NONE, 0, { CG_SWZ_ZERO, CG_SWZ_ZERO, CG_SWZ_ZERO, CG_SWZ_ZERO }, 0 };

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
static bool copy_shaped(const struct cg_opnd src[3], unsigned wmask)
{
	return src[0].file != CG_FILE_NONE && src[0].file != CG_FILE_PRESUB &&
	       cg_opnd_const_swizzles(&src[1], wmask, CG_SWZ_ONE) &&
	       cg_opnd_const_swizzles(&src[2], wmask, CG_SWZ_ZERO);
}

enum { MAX_FORMS = 4 };

/* The ways of writing op's operands with the same value in its channels:
 * as it is, and for a MAD without presubtract also with A and B swapped,
 * and a copy s * 1 + 0 also as 0 * 0 + s (a -0 copied so arrives as +0:
 * GLSL keeps no sign of zero).  Two ops whose operands clash as written
 * may fit in other forms: a copy from a third register goes to the
 * operand the other leaves constant.  Returns how many forms. */
static int mad_forms(const struct cg_op *op, bool alternatives, bool commute,
		     struct cg_opnd forms[MAX_FORMS][3])
{
	int n = 0;
	memcpy(forms[n++], op->src, sizeof forms[0]);
	if (!alternatives || op->opc != CG_MAD || op->presub)
		return n;
	if (commute) {
		struct cg_opnd *f = forms[n++];
		f[0] = op->src[1];
		f[1] = op->src[0];
		f[2] = op->src[2];
	}
	for (int k = 0, written = n; k < written; k++) {
		if (!copy_shaped(forms[k], op->wmask))
			continue;
		struct cg_opnd *c = forms[n++];
		c[0] = c[1] = ZERO_OPND;
		c[2] = forms[k][0];
	}
	return n;
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
	bool alternatives = cg_opt_enabled(cg, SW_MERGE_COPIES);
	struct cg_opnd fa[MAX_FORMS][3], fb[MAX_FORMS][3], src[3];
	/* into a vreg, only two copies take other forms: merging a copy
	 * into a computation makes it wait for both, which costs more than
	 * it saves (measured on both corpora) */
	bool output = b->dst < 0;
	if (!output)
		alternatives &= copy_shaped(a->src, a->wmask) && copy_shaped(b->src, b->wmask);
	int na = mad_forms(a, alternatives && output, output, fa);
	int nb = mad_forms(b, alternatives, output, fb);
	bool fit = false;
	for (int i = 0; i < na && !fit; i++)
		for (int j = 0; j < nb && !fit; j++) {
			memcpy(src, b->src, sizeof src);
			fit = true;
			for (int k = 0; k < nsrc && fit; k++)
				fit = merge_opnd(&fa[i][k], a->wmask, &fb[j][k], b->wmask,
						 output || i + j > 0, &src[k]);
		}
	if (!fit)
		return false;
	for (int k = 0; k < 3; k++)
		b->src[k] = src[k];
	if (b->dst >= 0)
		for (int c = 0; c < 4; c++)
			if (a->wmask & (1u << c))
				cg->vregs[b->dst].writer[c] = ib;
	b->wmask |= a->wmask;
	b->write_inactive |= a->write_inactive; /* the same plain vreg */
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
