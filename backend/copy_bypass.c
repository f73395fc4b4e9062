/* Copy bypass: the readers of a plain copy d <- s read s instead, and the
 * copy goes.  copy_fold.c removes a copy by making s's writer write d; it
 * cannot when s is an input (a varying's register), has other readers, or
 * its writer writes more than the copy takes.  Isel makes such copies
 * where a value is gathered into a new vector: the coordinates of a
 * projective lookup (texture2DProj's xy / q), a shadow lookup's
 * coordinates beside the reference, a swizzled varying.
 *
 * Safe when d and s are SSA (not multi, no array element): s holds the
 * value the copy gave d wherever d is read, so a reader of d.c reads
 * s.(copy's swizzle of c).  Every reader of d must read only components
 * the copy wrote (all or none of them move), each from a register
 * component, not a constant swizzle.  MDH and MDV are left alone: they
 * ignore their operand's swizzle (ISA.md §6.7), so isel copies a
 * swizzled source for them on purpose.  s may also be a uniform's or an
 * immediate's slot, when every reader of d is an ALU op (a lookup reads
 * its coordinates from a temporary).
 *
 * Needs: copy_fold's pass (what it can fold, it folds better: s's life
 * does not grow).  Gives: fewer ops before merge and scheduling. */
#include "cg.h"

/* Each vreg's readers, as a list of (op, operand) nodes: built once, and
 * spliced from d's list onto s's when d's readers move to s, so a stage
 * over n ops stays linear however the copies chain. */
struct readers {
	int *head;     /* per vreg: first node, -1 none */
	int *next;     /* per node */
	int *op, *opnd;
};

static bool readers_build(struct cg_ctx *cg, struct readers *rd)
{
	int n = 0;
	for (int i = 0; i < cg->nops; i++)
		for (int k = 0; k < cg_op_nopnd(&cg->ops[i]); k++)
			n += cg->ops[i].src[k].file == CG_FILE_VREG;
	rd->head = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nvregs + 1));
	rd->next = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	rd->op = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	rd->opnd = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	if (!rd->head || !rd->next || !rd->op || !rd->opnd)
		return false;
	for (int v = 0; v < cg->nvregs; v++)
		rd->head[v] = -1;
	int m = 0;
	for (int i = 0; i < cg->nops; i++)
		for (int k = 0; k < cg_op_nopnd(&cg->ops[i]); k++) {
			const struct cg_opnd *o = &cg->ops[i].src[k];
			if (o->file != CG_FILE_VREG || o->index < 0 || o->index >= cg->nvregs)
				continue;
			rd->op[m] = i;
			rd->opnd[m] = k;
			rd->next[m] = rd->head[o->index];
			rd->head[o->index] = m++;
		}
	return true;
}

/* The operand node m stands for, when a live op other than `copy` still
 * reads vreg d through it; NULL otherwise. */
static struct cg_opnd *reader(struct cg_ctx *cg, const struct readers *rd, int m, int copy,
			      int d)
{
	struct cg_op *op = &cg->ops[rd->op[m]];
	struct cg_opnd *o = &op->src[rd->opnd[m]];
	if (op->dead || rd->op[m] == copy || o->file != CG_FILE_VREG || o->index != d)
		return NULL;
	return o;
}

/* Whether every live reader of d reads only components op `copy` wrote,
 * and none is a derivative. */
static bool readers_covered(struct cg_ctx *cg, const struct readers *rd, int copy, int d)
{
	for (int m = rd->head[d]; m >= 0; m = rd->next[m]) {
		const struct cg_opnd *o = reader(cg, rd, m, copy, d);
		if (!o)
			continue;
		const struct cg_op *op = &cg->ops[rd->op[m]];
		if (op->opc == CG_MDH || op->opc == CG_MDV)
			return false;
		unsigned ent = cg_op_entries(op, rd->opnd[m]);
		for (int j = 0; j < 4; j++)
			if ((ent & (1u << j)) &&
			    (o->swz[j] >= 4 || cg->vregs[d].writer[o->swz[j]] != copy))
				return false;
	}
	return true;
}

/* Operand o read d; it reads s through the copy's swizzle.  Entries the
 * op does not read are mapped too (to some component the copy wrote), so
 * that no swizzle names a component s lacks. */
static void redirect(struct cg_opnd *o, const struct cg_op *copy)
{
	int any = __builtin_ctz(copy->wmask);
	o->file = copy->src[0].file;
	o->index = copy->src[0].index;
	for (int j = 0; j < 4; j++)
		if (o->swz[j] < 4)
			o->swz[j] = copy->src[0].swz[(copy->wmask & (1u << o->swz[j])) ? o->swz[j] : any];
}

/* Whether every live reader of d may read a constant slot instead: an
 * ALU op's operand (a lookup reads its coordinates from a temporary). */
static bool readers_take_const(struct cg_ctx *cg, const struct readers *rd, int copy, int d)
{
	for (int m = rd->head[d]; m >= 0; m = rd->next[m])
		if (reader(cg, rd, m, copy, d) && cg_opc_infos[cg->ops[rd->op[m]].opc].tex)
			return false;
	return true;
}

/* Bypasses copy op i if it can; whether it did.  The copy's source is a
 * vreg, or a uniform's or an immediate's slot (isel gathers a vector of a
 * constant's lanes and a zero, of which only the lanes read survive):
 * its readers read the slot itself. */
static bool bypass(struct cg_ctx *cg, struct readers *rd, int i)
{
	struct cg_op *copy = &cg->ops[i];
	const struct cg_opnd *src = cg_op_plain_copy(copy);
	int s = cg_op_copy_source(copy);
	bool slot = src && src->file == CG_FILE_CONST;
	if ((s < 0 && !slot) || copy->wmask == 0)
		return false;
	int d = copy->dst;
	const struct cg_vreg *dv = &cg->vregs[d];
	if (dv->multi || dv->input >= 0 || dv->array >= 0 ||
	    (s >= 0 && (cg->vregs[s].multi || cg->vregs[s].array >= 0)))
		return false;
	for (int c = 0; c < 4; c++)
		if ((copy->wmask & (1u << c)) && copy->src[0].swz[c] >= 4)
			return false;
	if (!readers_covered(cg, rd, i, d) || (slot && !readers_take_const(cg, rd, i, d)))
		return false;
	int last = -1;
	for (int m = rd->head[d]; m >= 0; m = rd->next[m]) {
		last = m;
		struct cg_opnd *o = reader(cg, rd, m, i, d);
		if (!o)
			continue;
		redirect(o, copy);
		if (s >= 0)
			cg->vregs[s].used |= (uint8_t)cg_op_vreg_comps(&cg->ops[rd->op[m]], rd->opnd[m]);
	}
	if (last >= 0 && s >= 0) { /* d's readers are s's now */
		rd->next[last] = rd->head[s];
		rd->head[s] = rd->head[d];
	}
	rd->head[d] = -1;
	for (int c = 0; c < 4; c++)
		cg->vregs[d].writer[c] = -1;
	cg->vregs[d].used = 0;
	copy->dead = true;
	return true;
}

bool cg_copy_bypass(struct cg_ctx *cg)
{
	struct readers rd;
	if (!readers_build(cg, &rd))
		return cg->failed = true, false;
	for (int i = 0; i < cg->nops; i++)
		bypass(cg, &rd, i);
	return !cg->failed;
}
