/* Dead code elimination: removes every value instruction that no side
 * effect needs.  Mark and sweep: the roots are the instructions with side
 * effects (IRF_SIDE: output, discard, break, continue) and the IF
 * conditions; whatever they read, directly or through other values, lives.
 * Marking from the roots (instead of counting uses) also removes dead
 * cycles such as a loop PHI that only feeds its own increment.
 * Needs: valid IR.  Keeps: control flow (empty blocks stay), ids. */
#include "ir.h"
#include "ir_pass.h"

struct dce {
	bool *live;                 /* by id */
	struct ir_instr **work;     /* to mark through */
	uint32_t nwork, nids;
};

static void mark(struct dce *d, struct ir_instr *in)
{
	if (!in || in->id >= d->nids || d->live[in->id])
		return;
	d->live[in->id] = true;
	d->work[d->nwork++] = in;
}

static void mark_roots(struct ir_instr *in, void *ud)
{
	if (ir_op_infos[in->op].flags & IRF_SIDE)
		mark(ud, in);
}

static void mark_cond(struct ir_src *cond, void *ud)
{
	mark(ud, cond->def);
}

static bool sweep(const struct dce *d, struct ir_cf_list *list)
{
	bool progress = false;
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			progress |= sweep(d, &cf->then_list);
			progress |= sweep(d, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			progress |= sweep(d, &cf->body);
		} else {
			for (struct ir_instr *in = cf->block.first, *next; in; in = next) {
				next = in->next;
				if (in->id < d->nids && d->live[in->id])
					continue;
				ir_instr_remove(in);
				progress = true;
			}
		}
	}
	return progress;
}

static void count(struct ir_instr *in, void *ud)
{
	(void)in;
	(*(uint32_t *)ud)++;
}

bool ir_opt_dce(struct ir_func *f)
{
	uint32_t n = 0;
	ir_foreach_instr(f, count, &n);
	struct dce d = { .nids = f->next_id };
	d.live = arena_alloc(f->arena, sizeof *d.live * ((size_t)d.nids + 1));
	d.work = arena_alloc(f->arena, sizeof *d.work * ((size_t)n + 1));
	if (!d.live || !d.work)
		return false;
	ir_foreach_instr(f, mark_roots, &d);
	ir_foreach_cond(f, mark_cond, &d);
	while (d.nwork > 0) {
		struct ir_instr *in = d.work[--d.nwork];
		for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
			mark(&d, in->src[i].def);
	}
	return sweep(&d, &f->body);
}
