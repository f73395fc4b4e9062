/* Recognizing a loop's counter (loop_counter.h).  The form is the one
 * the frontend gives `for (int i = c; i < N; i += s)` and its variants;
 * anything else is "no counter", which costs only code quality. */
#include "loop_counter.h"

#include <math.h>

static bool const_src(const struct ir_src *src, float *v)
{
	if (!src->def || src->def->op != IR_OP_CONST || src->def->base != IR_FLOAT)
		return false;
	*v = src->def->imm[src->swz[0] & 3];
	return true;
}

/* src = phi + step (step a constant), reading the phi's component 0 */
static bool is_increment(const struct ir_src *src, const struct ir_instr *phi, float *step)
{
	const struct ir_instr *d = src->def;
	if (!d || d->op != IR_OP_ADD || d->ncomp != 1 || (src->swz[0] & 3) != 0)
		return false;
	for (int k = 0; k < 2; k++)
		if (d->src[k].def == phi && (d->src[k].swz[0] & 3) == 0 &&
		    const_src(&d->src[1 - k], step))
			return true;
	return false;
}

bool loop_breaks_at_top(const struct ir_cf *loop)
{
	for (const struct ir_cf *c = loop->body.first; c; c = c->next)
		for (const struct ir_instr *in = c->kind == IR_CF_BLOCK ? c->block.first : NULL; in;
		     in = in->next)
			if (in->op == IR_OP_BREAK)
				return true;
	return false;
}

/* The counter PHI's step when every source after the first is phi + step
 * with one constant step > 0; 0 otherwise. */
static float counter_step(const struct ir_instr *phi, float *start)
{
	if (phi->op != IR_OP_PHI || phi->ncomp != 1 || phi->nsrc < 2 ||
	    !const_src(&phi->src[0], start))
		return 0.0f;
	float step = 0.0f, s;
	for (int k = 1; k < phi->nsrc && k < IR_MAX_SRCS; k++) {
		if (!is_increment(&phi->src[k], phi, &s) || !(s > 0.0f) || (k > 1 && s != step))
			return 0.0f;
		step = s;
	}
	return step;
}

/* The pass in which `x >= limit` first holds, x being the PHI or (ahead)
 * the PHI plus `off`, computed as the IR does; -1 when not within the
 * bound. */
static int exit_pass(float start, float step, bool ahead, float off, float limit)
{
	float i = start;
	for (int p = 0; p < LOOP_COUNTER_MAX_PASSES; p++) {
		if ((ahead ? i + off : i) >= limit)
			return p;
		i = i + step;
	}
	return -1;
}

bool loop_counter_phi(const struct ir_cf *loop, const struct ir_instr **phi, float *start,
		      float *step)
{
	const struct ir_cf *first = loop->body.first;
	if (!first || first->kind != IR_CF_BLOCK)
		return false;
	const struct ir_instr *p = *phi ? (*phi)->next : first->block.first;
	for (; p && p->op == IR_OP_PHI; p = p->next)
		if ((*step = counter_step(p, start)) > 0.0f) {
			*phi = p;
			return true;
		}
	return false;
}

bool loop_counter_small_int(float x, float lim)
{
	return x == floorf(x) && fabsf(x) <= lim;
}

bool loop_counter_offset(const struct ir_src *idx, const struct ir_instr *phi, float *c)
{
	const struct ir_instr *d = idx->def;
	if ((idx->swz[0] & 3) != 0 || !d)
		return false;
	if (d == phi) {
		*c = 0.0f;
		return true;
	}
	return is_increment(idx, phi, c);
}

bool loop_counter_find(const struct ir_cf *loop, struct loop_counter *out)
{
	const struct ir_cf *first = loop->body.first;
	const struct ir_block *head = first && first->kind == IR_CF_BLOCK ? &first->block : NULL;
	bool cont = false;
	for (const struct ir_cf *c = loop->body.first; c;
	     cont = cont || ir_cf_jumps(c, IR_JUMP_CONTINUE), c = c->next) {
		if (c->kind != IR_CF_IF || !ir_cf_list_jumps(&c->then_list, IR_JUMP_BREAK))
			continue;
		const struct ir_instr *d = c->cond.def;
		bool inv = false;
		while (d && d->op == IR_OP_NOT) {
			inv = !inv;
			d = d->src[0].def;
		}
		float limit;
		if (!d || d->nsrc != 2 || (d->op != IR_OP_GE && d->op != IR_OP_LT) ||
		    (d->op == IR_OP_GE) == inv || !const_src(&d->src[1], &limit))
			continue;
		for (const struct ir_instr *phi = head ? head->first : NULL;
		     phi && phi->op == IR_OP_PHI; phi = phi->next) {
			float start, off = 0.0f, step = counter_step(phi, &start);
			if (!(step > 0.0f))
				continue;
			bool direct = d->src[0].def == phi && (d->src[0].swz[0] & 3) == 0;
			bool ahead = !direct && is_increment(&d->src[0], phi, &off);
			if (!direct && !ahead)
				continue;
			int p = exit_pass(start, step, ahead, off, limit);
			if (p < 0)
				continue;
			*out = (struct loop_counter){ .phi = phi, .start = start, .step = step,
						      .exit_if = c, .exit_pass = p,
						      .continue_before_exit = cont };
			return true;
		}
	}
	return false;
}
