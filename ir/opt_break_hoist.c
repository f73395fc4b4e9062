/* Break hoisting: a loop's exit test moved back in front of the code it
 * guards.  The frontends lower BREAK through flags (frontend/lower_jump.c:
 * the code after a jump runs under `if (alive)`, and the loop leaves at a
 * `if (exit) break`), so `if (c) break; B` in a loop body arrives as
 *
 *     if (!c) { B }             (or: if (c) {} else { B })
 *     p = PHI(b, o)             the values B changes: b from B, o before
 *     if (c) { break }
 *
 * where every pass runs B's test twice and, once the IF is if-converted,
 * B itself whether or not the pixel leaves (TGSI's `IF c BRK ENDIF` at
 * the top of nir_to_tgsi's loops, GLSL's breaks inside a body).  It
 * becomes
 *
 *     if (c) { break }
 *     B
 *     p = MOV b
 *
 * and the PHIs after the loop, one source per BREAK, take o at that
 * BREAK (the pixels leaving there never ran B).  Only when the side that
 * does not run B is empty, B holds no BREAK or CONTINUE of the loop (the
 * order of the loop's jumps stays), the block between the two IFs holds
 * only the first IF's PHIs, and c is made before the first IF.
 * Needs: valid IR.  Keeps: ids, the order of every BREAK and CONTINUE.
 * Leaves the MOVs for copy propagation. */
#include "ir.h"
#include "ir_pass.h"

/* Which side of `guard` runs B when the break IF's condition c is false:
 * 0 (then, guard tests !c) or 1 (else, guard tests c); -1 for neither. */
static int b_side(const struct ir_cf *guard, const struct ir_src *c)
{
	const struct ir_instr *g = guard->cond.def;
	if ((c->def && ir_src_same(&guard->cond, c, 1)))
		return 1;
	if (g && g->op == IR_OP_NOT && g->nsrc == 1) {
		struct ir_src inner = ir_src_through(&g->src[0], guard->cond.swz);
		if ((c->def && ir_src_same(&inner, c, 1)))
			return 0;
	}
	return -1;
}

/* The block between the two IFs holds only PHIs (of the first). */
static bool only_phis(const struct ir_cf *blk)
{
	for (const struct ir_instr *in = blk->block.first; in; in = in->next)
		if (in->op != IR_OP_PHI || in->nsrc != 2)
			return false;
	return true;
}

/* The exit PHIs' sources at BREAK k that read a PHI of `blk` read that
 * PHI's source from the side that does not run B instead. */
static void exit_sources(struct ir_cf *loop, int k, const struct ir_cf *blk, int other)
{
	struct ir_cf *after = loop->next;
	if (!after || after->kind != IR_CF_BLOCK || !blk)
		return;
	for (struct ir_instr *in = after->block.first; in && in->op == IR_OP_PHI; in = in->next) {
		if (k >= in->nsrc)
			continue;
		struct ir_instr *d = in->src[k].def;
		if (d && d->block == &blk->block && d->op == IR_OP_PHI)
			in->src[k] = ir_src_through(&d->src[other], in->src[k].swz);
	}
}

/* Tries the pattern at `guard` in loop body `list`; true when it moved. */
static bool hoist_at(struct ir_cf *loop, struct ir_cf *guard, int breaks_before)
{
	struct ir_cf_list *list = &loop->body;
	struct ir_cf *blk = guard->next, *brk = blk;
	if (blk && blk->kind == IR_CF_BLOCK)
		brk = blk->next;
	else
		blk = NULL;
	if (!ir_cf_is_break_if(brk) || (blk && !only_phis(blk)))
		return false;
	int side = b_side(guard, &brk->cond);
	if (side < 0)
		return false;
	struct ir_cf_list *b = side == 0 ? &guard->then_list : &guard->else_list;
	if (!ir_cf_list_is_empty(side == 0 ? &guard->else_list : &guard->then_list) ||
	    ir_cf_list_jumps(b, IR_JUMP_ANY) || (blk && brk->cond.def->block == &blk->block))
		return false;
	exit_sources(loop, breaks_before, blk, 1 - side);
	for (struct ir_instr *in = blk ? blk->block.first : NULL; in; in = in->next) {
		in->src[0] = in->src[side];
		in->nsrc = 1;
		in->op = IR_OP_MOV;
	}
	ir_cf_list_remove(list, brk);
	ir_cf_list_insert_before(list, guard, brk);
	ir_cf_list_splice(list, guard, b);
	return true;
}

static bool hoist_list(struct ir_cf_list *list, struct ir_cf *loop)
{
	bool progress = false;
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_LOOP) {
			progress |= hoist_list(&cf->body, cf);
		} else if (cf->kind == IR_CF_IF) {
			progress |= hoist_list(&cf->then_list, NULL);
			progress |= hoist_list(&cf->else_list, NULL);
		}
	}
	/* the loop's own body: BREAKs counted in order for the exit PHIs;
	 * after a move the list changed, so the walk starts over (each move
	 * takes one IF away: it ends) */
	int breaks = 0;
	for (struct ir_cf *cf = loop ? list->first : NULL; cf;) {
		if (cf->kind == IR_CF_IF && hoist_at(loop, cf, breaks)) {
			progress = true;
			cf = list->first;
			breaks = 0;
			continue;
		}
		breaks += ir_cf_jumps(cf, IR_JUMP_BREAK);
		cf = cf->next;
	}
	if (progress)
		ir_cf_list_merge_blocks(list);
	return progress;
}

bool ir_opt_break_hoist(struct ir_func *f)
{
	return hoist_list(&f->body, NULL);
}
