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

/* A chain of more than one step (a loop unrolled in part leaves
 * (i + 1) + 1 until the rounds fold it) counts when its constants are
 * whole numbers this small: with a whole start, every value in the
 * passes counted is then a whole number below 2^24, which single
 * precision adds exactly, so the chain equals one addition of its sum. */
enum { CHAIN_MAX_OPS = 8, CHAIN_MAX_CONST = 1024, CHAIN_MAX_START = 1 << 20 };

/* Component 0 of src is phi + *sum (a constant; 0 for phi itself)
 * through MOVs and ADDs or SUBs of a constant; *ops counts the ADDs and
 * SUBs.  One of any constant; more only of small whole numbers. */
static bool offset_chain(const struct ir_src *src, const struct ir_instr *phi, float *sum,
			 int *ops)
{
	const struct ir_instr *d = src->def;
	int comp = src->swz[0] & 3;
	bool whole = true;
	*sum = 0.0f;
	*ops = 0;
	while (d && d != phi) {
		if (d->op == IR_OP_MOV && comp < d->ncomp) {
			comp = d->src[0].swz[comp] & 3;
			d = d->src[0].def;
			continue;
		}
		if ((d->op != IR_OP_ADD && d->op != IR_OP_SUB) || d->ncomp != 1 ||
		    *ops == CHAIN_MAX_OPS)
			return false;
		float c;
		int x; /* the other source */
		if (const_src(&d->src[1], &c))
			x = 0; /* x + c, x - c */
		else if (d->op == IR_OP_ADD && const_src(&d->src[0], &c))
			x = 1; /* c + x */
		else
			return false;
		c = d->op == IR_OP_SUB ? -c : c;
		whole = whole && loop_counter_small_int(c, CHAIN_MAX_CONST);
		*sum += c;
		++*ops;
		comp = d->src[x].swz[0] & 3;
		d = d->src[x].def;
	}
	return d == phi && comp == 0 && (*ops <= 1 || whole);
}

/* src = phi + step, step a constant (offset_chain); *chained when it
 * takes more than one addition. */
static bool is_increment(const struct ir_src *src, const struct ir_instr *phi, float *step,
			 bool *chained)
{
	int ops;
	if (!offset_chain(src, phi, step, &ops) || ops == 0)
		return false;
	*chained = ops > 1;
	return true;
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
 * with one constant step > 0 (a chain of additions from a whole start,
 * see CHAIN_MAX_OPS); 0 otherwise. */
static float counter_step(const struct ir_instr *phi, float *start)
{
	if (phi->op != IR_OP_PHI || phi->ncomp != 1 || phi->nsrc < 2 ||
	    !const_src(&phi->src[0], start))
		return 0.0f;
	float step = 0.0f, s;
	bool chained;
	for (int k = 1; k < phi->nsrc && k < IR_MAX_SRCS; k++) {
		if (!is_increment(&phi->src[k], phi, &s, &chained) || !(s > 0.0f) ||
		    (k > 1 && s != step) ||
		    (chained && !loop_counter_small_int(*start, CHAIN_MAX_START)))
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
	int ops;
	return offset_chain(idx, phi, c, &ops);
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
			bool chained = false;
			bool ahead = !direct && is_increment(&d->src[0], phi, &off, &chained) &&
				     (!chained || loop_counter_small_int(start, CHAIN_MAX_START));
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
