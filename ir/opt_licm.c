/* Loop-invariant code motion: a pure op in a loop whose sources are all
 * defined outside the loop computes the same value on every trip, so it
 * moves to a block right before the loop and runs once.  Loops the
 * unroller keeps (too long or of unknown trip count) are the ones that
 * pay: ro + rd * t's ro and rd, a vec3(uv, 0.05) rebuilt every trip.
 *
 * Only ops of the loop body's own blocks move (not those inside an IF of
 * the body: they may not run on a trip, and hoisting would make every
 * pixel pay them), and only ops without side effects, quad neighbours or
 * lookups (ir_op_is_evaluable, and the reads of uniforms and inputs),
 * and the LOADs of a local array no STORE in the loop writes (an index
 * another loop's counter: the element read is then at aL of the loop
 * it moves to, ir/array_rel.h).
 * Loops are done innermost first, so what leaves an inner loop may leave
 * its outer loop too.  A loop that runs no trip computes the moved ops
 * once for nothing; they are pure, so that costs time, never results.
 * Needs: valid IR.  Keeps: ids; adds a block before a loop that has none. */
#include <stdlib.h>

#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

struct licm {
	struct ir_func *f;
	bool *inside;   /* by id: defined inside the loop being done */
	bool *stored;   /* by array: some STORE in the loop being done writes it */
	bool failed, progress;
};

static void mark_list(struct licm *l, const struct ir_cf_list *list, bool on)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
				if (in->id < l->f->next_id)
					l->inside[in->id] = on;
				if (in->op == IR_OP_STORE && in->index >= 0 && in->index < l->f->narrays)
					l->stored[in->index] = on;
			}
		} else if (cf->kind == IR_CF_IF) {
			mark_list(l, &cf->then_list, on);
			mark_list(l, &cf->else_list, on);
		} else {
			mark_list(l, &cf->body, on);
		}
	}
}

static bool movable(const struct licm *l, const struct ir_instr *in)
{
	bool pure = ir_op_is_evaluable(in->op) || in->op == IR_OP_UNIFORM ||
		    in->op == IR_OP_INPUT ||
		    (in->op == IR_OP_LOAD && in->index >= 0 && in->index < l->f->narrays &&
		     !l->stored[in->index]);
	if (!pure || in->op == IR_OP_PHI)
		return false;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		const struct ir_instr *d = in->src[i].def;
		if (!d || d->id >= l->f->next_id || l->inside[d->id])
			return false;
	}
	return true;
}

static void hoist_loop(struct licm *l, struct ir_cf *loop, struct ir_cf_list *list)
{
	mark_list(l, &loop->body, true);
	struct ir_block *pre = NULL;
	for (struct ir_cf *cf = loop->body.first; cf && !l->failed; cf = cf->next) {
		if (cf->kind != IR_CF_BLOCK)
			continue;
		struct ir_instr *next;
		for (struct ir_instr *in = cf->block.first; in; in = next) {
			next = in->next;
			if (!movable(l, in))
				continue;
			if (!pre && !(pre = ir_loop_preheader(l->f, list, loop))) {
				l->failed = true;
				return;
			}
			ir_instr_remove(in);
			ir_block_append(pre, in);
			l->inside[in->id] = false;
			l->progress = true;
		}
	}
	mark_list(l, &loop->body, false);
}

/* Innermost loops first. */
static void walk(struct licm *l, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf && !l->failed; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			walk(l, &cf->then_list);
			walk(l, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			walk(l, &cf->body);
			hoist_loop(l, cf, list);
		}
	}
}

bool ir_opt_licm(struct ir_func *f)
{
	struct licm l = { f, calloc((size_t)f->next_id + 1, sizeof(bool)),
			  calloc((size_t)f->narrays + 1, sizeof(bool)), false, false };
	if (l.inside && l.stored)
		walk(&l, &f->body);
	free(l.inside);
	free(l.stored);
	return l.progress;
}
