/* Sinking constant parts: an op that writes constants alone into some
 * components of a vector whose other components other ops compute (a
 * lookup's bias or LOD beside its coordinates, a vec4(x, y, 0, 1)) moves
 * from its slot to the latest slot before the vector's first reader
 * where a unit is free and its constants fit the address tables.
 *
 * The list scheduler places such an op as soon as a unit is free, often
 * in the first slots, since it depends on nothing: the vector's
 * temporary is then held from there on, and a shader with many lookups
 * holds one temporary per lookup for most of the program (bluefire: 36
 * temporaries, 28 of them for the constant .w of lookups to come).  Moved
 * next to the vector's other writers, it holds nothing longer than they
 * do; a slot it leaves empty is dropped.
 *
 * The op stays in its region: it never crosses flow control or a
 * condition write (a barrier), nor reaches its first reader; nor does it
 * go just before a presubtract's reader (a NOP there, if it shares a
 * temporary with the presubtract's sources).  It reads no
 * vreg, so nothing it needs can be later than its old slot, and no other
 * op's placement changes.
 *
 * Needs: the schedule.  Gives: fewer or shorter live ranges, maybe fewer
 * slots (compacted). */
#include "cg.h"

/* Whether op i writes constants alone into part of an SSA vector other
 * ops complete. */
static bool constant_part(const struct cg_ctx *cg, int i)
{
	const struct cg_op *op = &cg->ops[i];
	if (op->dead || op->slot < 0 || op->dst < 0 || op->out != CG_OUT_NONE || op->late ||
	    cg_op_barrier(op) || cg_opc_infos[op->opc].tex || op->opc == CG_KIL ||
	    op->dst_rel)
		return false;
	const struct cg_vreg *v = &cg->vregs[op->dst];
	if (v->multi || v->input >= 0)
		return false;
	for (int k = 0; k < cg_op_nopnd(op); k++)
		if (op->src[k].file != CG_FILE_NONE && op->src[k].file != CG_FILE_CONST &&
		    op->src[k].file != CG_FILE_INLINE && cg_op_entries(op, k))
			return false;
	for (int c = 0; c < 4; c++)
		if (v->writer[c] >= 0 && v->writer[c] != i)
			return true;
	return false;
}

/* Per vreg, the first slot of an op reading it (cg->nslots when none). */
static int *first_reads(struct cg_ctx *cg)
{
	int *first = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nvregs + 1));
	if (!first)
		return NULL;
	for (int v = 0; v < cg->nvregs; v++)
		first[v] = cg->nslots;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->slot < 0)
			continue;
		for (int k = 0; k < cg_op_nopnd(op); k++) {
			const struct cg_opnd *o = &op->src[k];
			if ((o->file == CG_FILE_VREG || o->file == CG_FILE_TEMP_REL) && o->index >= 0 &&
			    o->index < cg->nvregs && op->slot < first[o->index])
				first[o->index] = op->slot;
		}
	}
	return first;
}

/* Per slot, the first slot at or after it that ends its region (flow
 * control or a barrier op); cg->nslots past the last. */
static int *region_ends(struct cg_ctx *cg)
{
	int *end = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nslots + 1));
	if (!end)
		return NULL;
	end[cg->nslots] = cg->nslots;
	for (int p = cg->nslots - 1; p >= 0; p--) {
		const struct cg_slot *s = &cg->slots[p];
		bool boundary = s->fc || (s->rgb >= 0 && cg_op_barrier(&cg->ops[s->rgb])) ||
				(s->alpha >= 0 && cg_op_barrier(&cg->ops[s->alpha]));
		end[p] = boundary ? p : end[p + 1];
	}
	return end;
}

/* Whether ALU slot q reads a presubtract: a write in slot q - 1 to the
 * temporary of its sources costs a NOP (ISA.md 6.10), and which
 * temporary the sunk op gets is not known yet. */
static bool reads_presub(const struct cg_ctx *cg, int q)
{
	const struct cg_slot *s = &cg->slots[q];
	return !s->tex && !s->fc && (s->rgb_srcp || s->alpha_srcp);
}

/* Moves op i to the latest slot before `limit` (and after its own) that
 * takes it; whether it moved. */
static bool sink(struct cg_ctx *cg, int i, int limit)
{
	struct cg_op *op = &cg->ops[i];
	int from = op->slot;
	for (int q = limit - 1; q > from; q--) {
		const struct cg_slot *s = &cg->slots[q];
		if (s->tex || s->fc || (s->rgb >= 0 && s->alpha >= 0) ||
		    (q + 1 < cg->nslots && reads_presub(cg, q + 1)))
			continue;
		if (!cg_slot_try_place(cg, q, i))
			continue;
		cg_slot_remove(cg, from, i);
		return true;
	}
	return false;
}

bool cg_sink_constants(struct cg_ctx *cg)
{
	int *first = first_reads(cg), *end = region_ends(cg);
	if (!first || !end)
		return cg->failed = true, false;
	bool moved = false;
	for (int i = 0; i < cg->nops; i++) {
		if (!constant_part(cg, i))
			continue;
		int from = cg->ops[i].slot;
		int limit = first[cg->ops[i].dst];
		if (end[from] < limit)
			limit = end[from];
		moved |= sink(cg, i, limit);
	}
	if (moved)
		cg_compact_slots(cg);
	return !cg->failed;
}
