/* Local array accesses through aL (array_rel.h).  The passes that reach
 * an access: 0..exit_pass before the counter's exit IF, 0..exit_pass-1
 * after it, and no CONTINUE may skip that IF (loop_counter.h); the
 * counter's value in pass p is start + p * step, exactly (small whole
 * numbers), so the element is offset + c + start + p * step. */
#include "array_rel.h"

#include <stdlib.h>

#include "loop_counter.h"

bool array_access_dynamic(const struct ir_instr *in)
{
	int ix = in->op == IR_OP_STORE ? 1 : 0;
	return (in->op == IR_OP_LOAD || in->op == IR_OP_STORE) && in->nsrc > ix &&
	       !ir_src_float_const(&in->src[ix]);
}

/* Whether the node of `loop`'s body holding cf comes after exit_if. */
static bool after_exit(const struct ir_cf *loop, const struct ir_cf *cf,
		       const struct ir_cf *exit_if)
{
	while (cf && cf->parent != loop)
		cf = cf->parent;
	for (const struct ir_cf *c = exit_if->next; cf && c; c = c->next)
		if (c == cf)
			return true;
	return false;
}

bool array_rel_access(const struct ir_func *f, const struct ir_instr *in, struct array_rel *out)
{
	if (!array_access_dynamic(in) || in->index < 0 || in->index >= f->narrays)
		return false;
	const struct ir_cf *cf = ir_instr_cf(in), *loop = cf ? ir_cf_loop_around(cf) : NULL;
	struct loop_counter lc;
	if (!loop || !loop_counter_find(loop, &lc) || lc.continue_before_exit ||
	    !loop_counter_small_int(lc.start, ARRAY_REL_MAX_INDEX) ||
	    !loop_counter_small_int(lc.step, ARRAY_REL_MAX_STEP))
		return false;
	float c;
	const struct ir_src *idx = &in->src[in->op == IR_OP_STORE ? 1 : 0];
	if (!loop_counter_offset(idx, lc.phi, &c) || !loop_counter_small_int(c, ARRAY_REL_MAX_INDEX))
		return false;
	int last = after_exit(loop, cf, lc.exit_if) ? lc.exit_pass - 1 : lc.exit_pass;
	int pos0 = in->offset + (int)c + (int)lc.start, len = f->arrays[in->index].length;
	if (last < 0 || pos0 < 0 || pos0 + (long)last * (long)lc.step > len - 1)
		return false;
	if (out)
		*out = (struct array_rel){ loop, pos0, (int)lc.step };
	return true;
}

struct scan {
	const struct ir_func *f;
	bool *rel, *other;
};

static void scan_access(struct ir_instr *in, void *ud)
{
	struct scan *s = ud;
	if (!array_access_dynamic(in) || in->index < 0 || in->index >= s->f->narrays)
		return;
	if (array_rel_access(s->f, in, NULL))
		s->rel[in->index] = true;
	else
		s->other[in->index] = true;
}

void array_rel_arrays(const struct ir_func *f, bool *rel)
{
	bool *other = calloc((size_t)f->narrays + 1, sizeof *other);
	for (int a = 0; a <= f->narrays; a++)
		rel[a] = false;
	if (!other)
		return; /* none: every array lowered, which is always right */
	struct scan s = { f, rel, other };
	ir_foreach_instr((struct ir_func *)f, scan_access, &s);
	for (int a = 0; a < f->narrays; a++)
		rel[a] = rel[a] && !other[a];
	free(other);
}
