/* Copy folding: a plain copy d.c <- s.c (MAD s, 1, 0 without modifiers,
 * clamp or OMOD) disappears when the op computing s can write d itself.
 * Isel makes such copies where a value becomes part of a vector: the
 * coordinates of a lookup with a bias in .w, a vec4(v.xy, ...) whose .xy
 * come from one op.  Each costs a slot (or half of one) and keeps s alive
 * beside d.
 *
 * Safe when s is plain (SSA, not an input) and read by nothing but the
 * copy, every component the copy reads is written by one op W that
 * writes nothing else, and W is an ALU op without side work (no output,
 * not late, not a condition); then W writes those components of d
 * instead.  d is SSA per component too, so writing d.c where W stands
 * instead of where the copy stood changes no value anyone reads: nothing
 * else writes d.c, and every reader of d.c depended on the copy, which
 * depended on W.  Two shapes:
 *  - identity: component c of the copy reads s.c, W keeps its operands;
 *  - a scalar s (one component) copied into d.c: W's operand entry 0
 *    moves to entry c (componentwise and transcendental ops read entry c
 *    for result component c; dot products read all their terms anyway).
 *
 * Needs: cg_isel (dead ops marked, writers known).  Gives: fewer ops;
 * runs before merge, so that the retargeted op may merge with its
 * neighbours writing the other components of d. */
#include "cg.h"

#include <string.h>

/* A plain copy into an SSA vreg: its source vreg, or -1. */
static int copy_source(const struct cg_ctx *cg, const struct cg_op *op)
{
	int s = cg_op_copy_source(op);
	if (s < 0)
		return -1;
	const struct cg_vreg *d = &cg->vregs[op->dst], *v = &cg->vregs[s];
	return d->multi || d->input >= 0 || v->multi || v->input >= 0 ? -1 : s;
}

/* The writer may take another destination: an ALU op writing only s.
 * Not MDH/MDV: their operand C is src0 again and both units read src0
 * (emit.c), so their lanes do not move like a componentwise op's. */
static bool retargetable(const struct cg_op *w, int s)
{
	const struct cg_opc_info *info = &cg_opc_infos[w->opc];
	return !w->dead && w->dst == s && !info->tex && w->opc != CG_FC && w->opc != CG_KIL &&
	       w->opc != CG_MDH && w->opc != CG_MDV &&
	       !w->late && !w->alu_result && w->out == CG_OUT_NONE;
}

/* Reads of each vreg component by live ops, counted per operand entry (a
 * component two entries read counts twice, so cg_op_vreg_comps' mask will
 * not do). */
static uint8_t (*count_reads(struct cg_ctx *cg))[4]
{
	uint8_t (*reads)[4] = arena_alloc(cg->arena, sizeof *reads * (size_t)(cg->nvregs + 1));
	if (!reads)
		return NULL;
	memset(reads, 0, sizeof *reads * (size_t)(cg->nvregs + 1));
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead)
			continue;
		for (int k = 0; k < 3; k++) {
			const struct cg_opnd *o = &op->src[k];
			unsigned ent = cg_op_entries(op, k);
			for (int j = 0; o->file == CG_FILE_VREG && j < 4; j++)
				if ((ent & (1u << j)) && o->swz[j] < 4 && reads[o->index][o->swz[j]] < 255)
					reads[o->index][o->swz[j]]++;
		}
	}
	return reads;
}

/* Folds copy op i if it can; whether it did. */
static bool fold(struct cg_ctx *cg, int i, uint8_t (*reads)[4])
{
	struct cg_op *copy = &cg->ops[i];
	int s = copy_source(cg, copy);
	if (s < 0)
		return false;
	struct cg_vreg *sv = &cg->vregs[s], *dv = &cg->vregs[copy->dst];
	bool scalar = sv->ncomp == 1;
	unsigned wmask = copy->wmask, read = 0;
	if (scalar && (wmask & (wmask - 1)))
		return false; /* one component of d per scalar */
	for (int c = 0; c < 4; c++)
		if (wmask & (1u << c)) {
			if (copy->src[0].swz[c] != (scalar ? 0 : c))
				return false;
			read |= 1u << (scalar ? 0 : c);
		}
	/* the copy is the only reader of s, and reads each component once */
	for (int j = 0; j < 4; j++)
		if (reads[s][j] != ((read >> j) & 1))
			return false;
	int w = sv->writer[scalar ? 0 : __builtin_ctz(wmask)];
	if (w < 0 || !retargetable(&cg->ops[w], s) || cg->ops[w].wmask != read)
		return false;
	struct cg_op *wop = &cg->ops[w];
	for (int c = 0; c < 4; c++) {
		if (!(wmask & (1u << c)))
			continue;
		int lane = scalar ? dv->lane[c] : sv->lane[c];
		if (dv->lane[c] == CG_LANE_ANY || lane != dv->lane[c])
			return false; /* the value must land where d has it */
	}
	if (scalar && !cg_opc_infos[wop->opc].dot) {
		int c = __builtin_ctz(wmask);
		for (int k = 0; k < 3; k++)
			wop->src[k].swz[c] = wop->src[k].swz[0];
	}
	wop->dst = copy->dst;
	wop->wmask = (uint8_t)wmask;
	for (int c = 0; c < 4; c++) {
		if (wmask & (1u << c))
			dv->writer[c] = w;
		sv->writer[c] = -1;
	}
	sv->used = 0;
	copy->dead = true;
	reads[s][0] = reads[s][1] = reads[s][2] = reads[s][3] = 0;
	return true;
}

bool cg_copy_fold(struct cg_ctx *cg)
{
	uint8_t (*reads)[4] = count_reads(cg);
	if (!reads)
		return cg->failed = true, false;
	for (int i = 0; i < cg->nops; i++)
		fold(cg, i, reads);
	return !cg->failed;
}
