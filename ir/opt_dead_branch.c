/* Dead branch elimination: an IF whose condition is a constant is replaced
 * by the branch it always takes; the PHIs after it become MOVs of the
 * taken side's value, and neighbouring blocks are merged; BREAKs on the
 * side never taken go with it, and the PHIs after their loop lose those
 * sources (not the loop's last BREAK, nor a side with a CONTINUE).  An IF whose
 * branches are both empty (what folding the code inside them leaves,
 * typically in unrolled loops) goes too: its PHIs become SELECTs of the
 * condition, which constant folding then resolves or isel makes a CMP.  A loop whose
 * body ends in its only jump, an unconditional BREAK, runs once: its body
 * takes its place; so does one with a second BREAK under an IF of its own
 * (the loop's test), which becomes an IF around the rest of the body.
 * Needs: valid IR.  Keeps: ids, the order of every BREAK/CONTINUE.
 * Leaves the condition and the MOVs for copy propagation and DCE. */
#include "ir.h"
#include "ir_pass.h"

static void phis_to_movs(struct ir_cf *after, int keep)
{
	if (!after || after->kind != IR_CF_BLOCK)
		return;
	for (struct ir_instr *in = after->block.first; in && in->op == IR_OP_PHI; in = in->next) {
		if (in->nsrc <= keep)
			continue;
		in->src[0] = in->src[keep];
		in->nsrc = 1;
		in->op = IR_OP_MOV;
	}
}

/* Only CONSTs in the list's blocks (what folding leaves of a branch that
 * picks a value), and no control flow. */
static bool only_consts(const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind != IR_CF_BLOCK)
			return false;
		for (const struct ir_instr *in = cf->block.first; in; in = in->next)
			if (in->op != IR_OP_CONST)
				return false;
	}
	return true;
}

/* Moves the CONSTs of `list` to the end of block `to`. */
static void move_consts(struct ir_cf_list *list, struct ir_block *to)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next)
		while (cf->block.first) {
			struct ir_instr *in = cf->block.first;
			ir_instr_remove(in);
			ir_block_append(to, in);
		}
}

/* PHI(then, else) after an IF -> SELECT(cond, then, else). */
static void phis_to_selects(struct ir_cf *after, struct ir_src cond)
{
	if (!after || after->kind != IR_CF_BLOCK)
		return;
	for (struct ir_instr *in = after->block.first; in && in->op == IR_OP_PHI; in = in->next) {
		if (in->nsrc != 2)
			continue;
		in->src[2] = in->src[1];
		in->src[1] = in->src[0];
		in->src[0] = cond;
		for (int c = 1; c < 4; c++)
			in->src[0].swz[c] = cond.swz[0];
		in->nsrc = 3;
		in->op = IR_OP_SELECT;
	}
}

/* A loop whose body ends in a BREAK every pass reaches, its only jump:
 * it runs once.  The head PHIs take the value before the loop, the PHIs
 * after it the value at that BREAK, and the body takes the loop's place. */
static bool run_once(struct ir_cf_list *list, struct ir_cf *loop)
{
	struct ir_cf *last = loop->body.last, *head = loop->body.first;
	if (!last || last->kind != IR_CF_BLOCK || !last->block.last ||
	    last->block.last->op != IR_OP_BREAK || ir_cf_list_jumps(&loop->body, IR_JUMP_ANY) != 1)
		return false;
	ir_instr_remove(last->block.last);
	phis_to_movs(head, 0);
	phis_to_movs(loop->next, 0);
	ir_cf_list_splice(list, loop, &loop->body);
	return true;
}

/* The same with a second BREAK before the last, under an IF of its own at
 * the top of the body (a loop's test as its own BREAK): `loop { A; if (c)
 * break; B; break; }` is `A; if (c) {} else { B }`, and the PHIs after the
 * loop, one source per BREAK in order, are that IF's (then, else). */
static bool run_once_two_breaks(struct ir_cf_list *list, struct ir_cf *loop)
{
	struct ir_cf *last = loop->body.last, *head = loop->body.first;
	if (!last || last->kind != IR_CF_BLOCK || !last->block.last ||
	    last->block.last->op != IR_OP_BREAK || ir_cf_list_jumps(&loop->body, IR_JUMP_ANY) != 2)
		return false;
	struct ir_cf *brk = head;
	while (brk && !ir_cf_is_break_if(brk))
		brk = brk->next;
	if (!brk || brk == head)
		return false;
	ir_instr_remove(last->block.last);
	ir_instr_remove(brk->then_list.first->block.first);
	/* B, the nodes after the IF, go to its else list */
	struct ir_cf *b_first = brk->next;
	if (b_first) {
		for (struct ir_cf *c = b_first; c; c = c->next)
			c->parent = brk;
		b_first->prev = NULL;
		brk->else_list.first = b_first;
		brk->else_list.last = loop->body.last;
		brk->next = NULL;
		loop->body.last = brk;
	}
	phis_to_movs(head, 0);
	ir_cf_list_splice(list, loop, &loop->body);
	return true;
}

/* Counts into *n the BREAKs of the loop holding `list` (not of loops
 * inside it) before node `target`, in program order; true once found. */
static bool breaks_before(const struct ir_cf_list *list, const struct ir_cf *target, int *n)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf == target)
			return true;
		if (cf->kind == IR_CF_IF) {
			if (breaks_before(&cf->then_list, target, n) ||
			    breaks_before(&cf->else_list, target, n))
				return true;
		} else if (cf->kind == IR_CF_BLOCK) {
			*n += ir_cf_jumps(cf, IR_JUMP_BREAK);
		}
	}
	return false;
}

/* The side of IF `cf` that never runs (then_side: its then list) holds
 * jumps of `loop`: when they are BREAKs only, and not all of the loop's,
 * the PHIs after the loop lose their sources at those BREAKs (one source
 * per BREAK, in order) and the side may go.  False, nothing changed,
 * otherwise (a CONTINUE's head PHI sources stay as they are). */
static bool drop_breaks(struct ir_cf *loop, const struct ir_cf *cf, bool then_side)
{
	const struct ir_cf_list *never = then_side ? &cf->then_list : &cf->else_list;
	int n = ir_cf_list_jumps(never, IR_JUMP_BREAK), first = 0;
	int total = loop ? ir_cf_list_jumps(&loop->body, IR_JUMP_BREAK) : 0;
	if (!loop || ir_cf_list_jumps(never, IR_JUMP_CONTINUE) || n >= total ||
	    !breaks_before(&loop->body, cf, &first))
		return false;
	if (!then_side)
		first += ir_cf_list_jumps(&cf->then_list, IR_JUMP_BREAK);
	struct ir_cf *after = loop->next;
	struct ir_instr *phis = after && after->kind == IR_CF_BLOCK ? after->block.first : NULL;
	for (struct ir_instr *in = phis; in && in->op == IR_OP_PHI; in = in->next)
		if (in->nsrc != total)
			return false; /* not the IR the validator passed */
	for (struct ir_instr *in = phis; in && in->op == IR_OP_PHI; in = in->next) {
		for (int k = first; k + n < in->nsrc; k++)
			in->src[k] = in->src[k + n];
		in->nsrc = (uint8_t)(in->nsrc - n);
	}
	return true;
}

static bool fold_list(struct ir_func *f, struct ir_cf_list *list, struct ir_cf *loop)
{
	bool progress = false;
	for (struct ir_cf *cf = list->first, *next; cf; cf = next) {
		next = cf->next;
		if (cf->kind == IR_CF_LOOP) {
			progress |= fold_list(f, &cf->body, cf);
			struct ir_cf *first = cf->body.first;
			if (run_once(list, cf) || run_once_two_breaks(list, cf)) {
				next = first ? first : next; /* the spliced body may fold too */
				progress = true;
			}
			continue;
		}
		if (cf->kind != IR_CF_IF)
			continue;
		const struct ir_instr *c = cf->cond.def;
		if (c && c->op != IR_OP_CONST && only_consts(&cf->then_list) &&
		    only_consts(&cf->else_list)) {
			struct ir_cf_list none = { NULL, NULL };
			if (!ir_cf_list_is_empty(&cf->then_list) || !ir_cf_list_is_empty(&cf->else_list)) {
				/* the constants a side picks go before the IF */
				struct ir_cf *pre = cf->prev;
				if (!pre || pre->kind != IR_CF_BLOCK) {
					pre = ir_cf_create(f, IR_CF_BLOCK, cf->parent);
					if (!pre)
						return progress;
					ir_cf_list_insert_before(list, cf, pre);
				}
				move_consts(&cf->then_list, &pre->block);
				move_consts(&cf->else_list, &pre->block);
			}
			phis_to_selects(cf->next, cf->cond);
			ir_cf_list_splice(list, cf, &none);
			progress = true;
			continue;
		}
		if (!c || c->op != IR_OP_CONST) {
			progress |= fold_list(f, &cf->then_list, loop);
			progress |= fold_list(f, &cf->else_list, loop);
			continue;
		}
		bool taken_then = c->imm[cf->cond.swz[0] & 3] != 0.0f;
		struct ir_cf_list *never = taken_then ? &cf->else_list : &cf->then_list;
		if (ir_cf_list_jumps(never, IR_JUMP_ANY) && !drop_breaks(loop, cf, !taken_then)) {
			progress |= fold_list(f, &cf->then_list, loop);
			progress |= fold_list(f, &cf->else_list, loop);
			continue;
		}
		struct ir_cf_list *taken = taken_then ? &cf->then_list : &cf->else_list;
		phis_to_movs(cf->next, taken_then ? 0 : 1);
		/* continue with the first spliced node, which may fold too */
		next = taken->first ? taken->first : cf->next;
		ir_cf_list_splice(list, cf, taken);
		progress = true;
	}
	if (progress)
		ir_cf_list_merge_blocks(list);
	return progress;
}

bool ir_opt_dead_branch(struct ir_func *f)
{
	return fold_list(f, &f->body, NULL);
}
