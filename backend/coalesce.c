/* Copy coalescing, the cheap half of SSA destruction: a late copy
 * p <- s into a multi vreg (PHI, output latch) disappears when the ops
 * computing s can write p themselves.
 *
 * Needs: the schedule (slots fixed, lanes fixed).  Gives: fewer ops and
 * slots; empty ALU slots are removed.
 *
 * Safe when, with w the first slot writing s and c the copy's slot:
 *  - s is plain (SSA, not an input), read through the identity swizzle
 *    without modifier, in the same lanes as p, and what reads s after c
 *    (those reads now read p) does so before anything else writes p and
 *    with no LOOP or ENDLOOP between (a copy of s into p again is no
 *    write: it goes too) -- nested IFs that update a value build it in
 *    place: t2 = t2 * k + c under each IF, not t6 = .., t2 = t6;
 *  - nothing but the copy writes p in [w, c], nothing reads p in (w, c]
 *    (a read in slot w itself happens before the write);
 *  - no LOOP / ENDLOOP lies between w and c (a write inside a loop the copy
 *    is not in would repeat), and if any other flow control lies between
 *    (pixels may leave between the write and the copy), nothing reads p
 *    or s after c either. */
#include "cg.h"

#include <string.h>

static bool is_plain_copy(const struct cg_ctx *cg, const struct cg_op *op)
{
	if (op->dead || !op->late || op->opc != CG_MAD || op->dst < 0 || op->clamp ||
	    op->out != CG_OUT_NONE || !cg->vregs[op->dst].multi ||
	    cg->vregs[op->dst].array >= 0) /* aL reads of an array element are no vreg reads */
		return false;
	const struct cg_opnd *a = &op->src[0], *b = &op->src[1], *c = &op->src[2];
	if (a->file != CG_FILE_VREG || a->mod != R500_MOD_NONE || b->file != CG_FILE_NONE ||
	    b->mod != R500_MOD_NONE || c->file != CG_FILE_NONE || c->mod != R500_MOD_NONE)
		return false;
	const struct cg_vreg *p = &cg->vregs[op->dst], *s = &cg->vregs[a->index];
	if (s->multi || s->input >= 0 || s->ncomp != p->ncomp ||
	    op->wmask != (1u << p->ncomp) - 1)
		return false;
	for (int i = 0; i < p->ncomp; i++)
		if (a->swz[i] != i || b->swz[i] != CG_SWZ_ONE || c->swz[i] != CG_SWZ_ZERO ||
		    s->lane[i] != p->lane[i] || s->writer[i] < 0 ||
		    cg->ops[s->writer[i]].write_inactive) /* would clobber p for others */
			return false;
	return true;
}

/* Whether x is the copy `copy` again: p <- s once more (after the
 * coalescing it would copy p into itself). */
static bool same_copy(const struct cg_ctx *cg, const struct cg_op *x, int p, int s)
{
	return x->dst == p && x->src[0].index == s && is_plain_copy(cg, x);
}

/* Reads of s after the copy (slot c) up to slot `last` may read p
 * instead when p keeps s's value until then for every pixel that reads
 * (each ran the copy: no flow control lies between s's writer and it):
 * no other write of p lies before the last of them (one in its slot
 * writes after it reads), and the only flow control between is IFs
 * entered -- a read in a loop runs again after a later write, and past
 * an ELSE or ENDIF this does not look. */
static bool late_reads_keep(const struct cg_ctx *cg, const struct cg_op *copy, int c, int last)
{
	if (last == c)
		return true;
	for (int k = c + 1; k <= last; k++) {
		if (!cg->slots[k].fc)
			continue;
		const struct r500_fc *fc = &cg->ops[cg->slots[k].tex_op].fc;
		if (fc->op != R500_FC_JUMP || fc->b_else || fc->b_op0 != R500_FC_B_INCR ||
		    fc->b_op1 == R500_FC_B_DECR)
			return false;
	}
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *x = &cg->ops[i];
		if (!x->dead && x != copy && x->dst == copy->dst && x->slot > c && x->slot < last &&
		    !same_copy(cg, x, copy->dst, copy->src[0].index))
			return false;
	}
	return true;
}

static bool try_coalesce(struct cg_ctx *cg, int ci)
{
	struct cg_op *copy = &cg->ops[ci];
	int p = copy->dst, s = copy->src[0].index, c = copy->slot;
	int w = c;
	for (int i = 0; i < cg->vregs[s].ncomp; i++) {
		const struct cg_op *wr = &cg->ops[cg->vregs[s].writer[i]];
		if (wr->dst != s || wr->slot < 0 || wr->slot >= c)
			return false;
		w = wr->slot < w ? wr->slot : w;
	}
	bool fc_between = false;
	for (int k = w + 1; k < c; k++) {
		if (!cg->slots[k].fc)
			continue;
		int op = cg->ops[cg->slots[k].tex_op].fc.op;
		if (op == R500_FC_LOOP || op == R500_FC_ENDLOOP)
			return false;
		fc_between = true;
	}
	/* every condition concerns ops in slot w or later: the others cost one
	 * comparison (this runs once per copy over all ops) */
	int last_read = c; /* the last slot after c that reads s */
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *x = &cg->ops[i];
		if (i == ci || x->dead || x->slot < w)
			continue;
		if (x->dst == p && x->slot <= c)
			return false;
		if (x->slot == w)
			continue;
		if ((x->slot <= c || fc_between) && cg_op_reads_vreg(x, p))
			return false;
		if (x->slot > c && cg_op_reads_vreg(x, s)) { /* same_copy too: it goes */
			if (fc_between)
				return false;
			last_read = x->slot > last_read ? x->slot : last_read;
		}
	}
	if (!late_reads_keep(cg, copy, c, last_read))
		return false;
	/* apply: the writers write p, the readers read p, the copy goes, and
	 * so do the copies of s into p again */
	for (int i = 0; i < cg->nops; i++) {
		struct cg_op *x = &cg->ops[i];
		if (x->dead)
			continue;
		if (i != ci && x->slot > c && same_copy(cg, x, p, s)) {
			cg_unplace_dead(cg, i);
			continue;
		}
		if (x->dst == s)
			x->dst = p;
		for (int k = 0; k < cg_op_nopnd(x); k++)
			if (x->src[k].file == CG_FILE_VREG && x->src[k].index == s)
				x->src[k].index = p;
	}
	cg_rename_in_tables(cg, s, p);
	for (int i = 0; i < 4; i++)
		cg->vregs[s].writer[i] = -1;
	cg_unplace_dead(cg, ci);
	return true;
}

bool cg_coalesce(struct cg_ctx *cg)
{
	bool any = false;
	for (int i = 0; i < cg->nops; i++)
		if (is_plain_copy(cg, &cg->ops[i]) && cg->ops[i].slot >= 0)
			any |= try_coalesce(cg, i);
	if (any)
		cg_compact_slots(cg);
	return !cg->failed;
}
