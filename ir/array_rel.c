/* Local array accesses through aL (array_rel.h).  The counter's value in
 * pass p is start + p * step, exactly (small whole numbers), so the
 * element is offset + c + start + p * step: it only grows.  In a counted
 * loop the passes that reach an access are 0..exit_pass before the
 * counter's exit IF, 0..exit_pass-1 after it, when no CONTINUE may skip
 * that IF (loop_counter.h); elsewhere they are not known. */
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

/* aL's step in `loop`: that of loop_counter_find's counter (the one
 * uniform arrays follow, backend/loop_rel.c) when aL can carry it, else
 * of the first counter PHI of its head whose start and step it can;
 * whether the loop's passes are known (then *lc). */
static bool loop_al_step(const struct ir_cf *loop, float *step, bool *counted,
			 struct loop_counter *lc)
{
	*counted = loop_counter_find(loop, lc) &&
		   loop_counter_small_int(lc->step, ARRAY_REL_MAX_STEP);
	if (*counted) {
		*step = lc->step;
		*counted = !lc->continue_before_exit;
		return true;
	}
	const struct ir_instr *phi = NULL;
	float start;
	while (loop_counter_phi(loop, &phi, &start, step))
		if (loop_counter_small_int(start, ARRAY_REL_MAX_INDEX) &&
		    loop_counter_small_int(*step, ARRAY_REL_MAX_STEP))
			return true;
	return false;
}

/* The element idx names in pass 0 past the array's offset: a counter
 * of `loop` going by aL's step (any of them: aL is pass * step) plus a
 * constant. */
static bool counter_index(const struct ir_cf *loop, const struct ir_src *idx, float step,
			  int *at)
{
	const struct ir_instr *phi = NULL;
	float start, s, c;
	while (loop_counter_phi(loop, &phi, &start, &s))
		if (s == step && loop_counter_small_int(start, ARRAY_REL_MAX_INDEX) &&
		    loop_counter_offset(idx, phi, &c) &&
		    loop_counter_small_int(c, ARRAY_REL_MAX_INDEX)) {
			*at = (int)c + (int)start;
			return true;
		}
	return false;
}

/* Whether in, at the place of node cf of `loop`'s body (any depth),
 * reaches its element through `loop`'s aL (*out then; may be NULL). */
static bool rel_in(const struct ir_func *f, const struct ir_instr *in, const struct ir_cf *cf,
		   const struct ir_cf *loop, struct array_rel *out)
{
	struct loop_counter lc;
	float step;
	bool counted;
	int at;
	const struct ir_src *idx = &in->src[in->op == IR_OP_STORE ? 1 : 0];
	if (!loop_al_step(loop, &step, &counted, &lc) || !counter_index(loop, idx, step, &at))
		return false;
	int pos0 = in->offset + at, len = f->arrays[in->index].length;
	if (pos0 < 0 || pos0 > len - 1)
		return false;
	bool guard = true;
	if (counted) {
		int last = after_exit(loop, cf, lc.exit_if) ? lc.exit_pass - 1 : lc.exit_pass;
		guard = pos0 + (long)last * (long)step > len - 1;
	}
	if (out)
		*out = (struct array_rel){ loop, pos0, (int)step, guard, len - 1 - in->offset };
	return true;
}

bool array_rel_access(const struct ir_func *f, const struct ir_instr *in, struct array_rel *out)
{
	if (!array_access_dynamic(in) || in->index < 0 || in->index >= f->narrays)
		return false;
	const struct ir_cf *cf = ir_instr_cf(in), *loop = cf ? ir_cf_loop_around(cf) : NULL;
	return loop && rel_in(f, in, cf, loop, out);
}

/* Whether some STORE in list (any depth) writes array a. */
static bool stores_into(const struct ir_cf_list *list, int a)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF &&
		    (stores_into(&cf->then_list, a) || stores_into(&cf->else_list, a)))
			return true;
		if (cf->kind == IR_CF_LOOP && stores_into(&cf->body, a))
			return true;
		for (const struct ir_instr *in = cf->kind == IR_CF_BLOCK ? cf->block.first : NULL; in;
		     in = in->next)
			if (in->op == IR_OP_STORE && in->index == a)
				return true;
	}
	return false;
}

/* array_rel_access, or a LOAD that LICM (ir/opt_licm.c) moves out of
 * loops storing nothing into its array, from a block of each one's own
 * body to a block before it, to where it reaches its element through
 * aL. */
static bool rel_once_hoisted(const struct ir_func *f, const struct ir_instr *in)
{
	if (!array_access_dynamic(in) || in->index < 0 || in->index >= f->narrays)
		return false;
	const struct ir_cf *cf = ir_instr_cf(in);
	for (const struct ir_cf *loop = cf ? ir_cf_loop_around(cf) : NULL; loop;
	     cf = loop, loop = ir_cf_loop_around(loop)) {
		if (rel_in(f, in, cf, loop, NULL))
			return true;
		if (in->op != IR_OP_LOAD || cf->parent != loop || stores_into(&loop->body, in->index))
			return false;
	}
	return false;
}

struct scan {
	const struct ir_func *f;
	bool *rel, *other;
	bool hoisted;
};

static void scan_access(struct ir_instr *in, void *ud)
{
	struct scan *s = ud;
	if (!array_access_dynamic(in) || in->index < 0 || in->index >= s->f->narrays)
		return;
	if (s->hoisted ? rel_once_hoisted(s->f, in) : array_rel_access(s->f, in, NULL))
		s->rel[in->index] = true;
	else
		s->other[in->index] = true;
}

void array_rel_arrays(const struct ir_func *f, bool *rel, bool hoisted)
{
	bool *other = calloc((size_t)f->narrays + 1, sizeof *other);
	for (int a = 0; a <= f->narrays; a++)
		rel[a] = false;
	if (!other)
		return; /* none: every array lowered, which is always right */
	struct scan s = { f, rel, other, hoisted };
	ir_foreach_instr((struct ir_func *)f, scan_access, &s);
	for (int a = 0; a < f->narrays; a++)
		rel[a] = rel[a] && !other[a];
	free(other);
}
