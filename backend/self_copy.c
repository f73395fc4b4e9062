/* Copies register allocation made into no-ops: a plain copy d <- s (MAD
 * s, 1, 0 without modifier, clamp, OMOD or presubtract) where d and s got
 * the same temporary and every component the copy writes already sits in
 * the lane it reads.  Isel makes such copies where copy-fold cannot
 * retarget the writer, as for an input (vec3(gl_TexCoord[0].x, 0.25,
 * 0.75) copies the input's x); the allocator often gives d the input's
 * temporary, and the copy then moves nothing.  It goes, and its slot with
 * it if the slot holds nothing else.
 *
 * Needs: regalloc (temporaries and lanes fixed).  Gives: fewer ops and
 * slots; readers of d read s, the same register and lanes as before (the
 * copy must write all of d, so that whole operands move). */
#include "cg.h"

static bool self_copy(const struct cg_ctx *cg, const struct cg_op *op)
{
	if (op->dead || op->slot < 0 || op->opc != CG_MAD || op->dst < 0 || op->clamp ||
	    op->omod || op->presub || op->alu_result || op->out != CG_OUT_NONE)
		return false;
	const struct cg_opnd *s = &op->src[0];
	if (s->file != CG_FILE_VREG || s->mod != R500_MOD_NONE ||
	    !cg_opnd_const_swizzles(&op->src[1], op->wmask, CG_SWZ_ONE) ||
	    !cg_opnd_const_swizzles(&op->src[2], op->wmask, CG_SWZ_ZERO))
		return false;
	const struct cg_vreg *dv = &cg->vregs[op->dst], *sv = &cg->vregs[s->index];
	if (dv->temp < 0 || dv->temp != sv->temp || dv->multi || s->index == op->dst)
		return false;
	for (int c = 0; c < dv->ncomp; c++) /* the copy writes all of d */
		if (dv->writer[c] != op - cg->ops)
			return false;
	for (int c = 0; c < 4; c++) {
		if (!(op->wmask & (1u << c)))
			continue;
		if (s->swz[c] >= 4 || cg_op_lane(cg, op, c) != cg_opnd_channel(cg, s, c))
			return false;
	}
	return true;
}

/* Readers of d read s instead: entry e of an operand reading d.c reads
 * s.(copy's swizzle of c), the same register and lane. */
static void read_source(struct cg_ctx *cg, const struct cg_op *copy)
{
	int d = copy->dst, s = copy->src[0].index;
	for (int i = 0; i < cg->nops; i++) {
		struct cg_op *x = &cg->ops[i];
		if (x->dead)
			continue;
		for (int k = 0; k < cg_op_nopnd(x); k++) {
			struct cg_opnd *o = &x->src[k];
			if (o->file != CG_FILE_VREG || o->index != d)
				continue;
			o->index = s;
			for (int e = 0; e < 4; e++)
				if (o->swz[e] < 4)
					o->swz[e] = copy->src[0].swz[o->swz[e]];
		}
	}
	cg_rename_in_tables(cg, d, s);
	for (int c = 0; c < 4; c++)
		cg->vregs[d].writer[c] = -1;
}

bool cg_self_copies(struct cg_ctx *cg)
{
	bool any = false;
	for (int i = 0; i < cg->nops; i++) {
		struct cg_op *op = &cg->ops[i];
		if (!self_copy(cg, op))
			continue;
		cg_unplace_dead(cg, i);
		read_source(cg, op);
		any = true;
	}
	if (any)
		cg_compact_slots(cg);
	return !cg->failed;
}
