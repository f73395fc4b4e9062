/* Known conditions: what an IF's condition says inside its branches.
 *
 * 1. A bool PHI after an IF whose sources are known on their sides (a
 *    constant, or what the side's condition tells: the else side of
 *    `if (c)` knows c is false) is a constant when they agree, else the
 *    IF's condition or its negation.  The frontend makes such flags for
 *    every `return`, `break` and `continue` it lowers: "did the then side
 *    run".
 * 2. Inside the then side of `if (c)`, c is true; inside the else side,
 *    false; through NOT, c = !d tells d, and a true AND (a false OR) tells
 *    both of its operands.  A source reading a known bool there reads a
 *    constant instead, and an IF there on a known bool gets a constant
 *    condition (dead_branch then takes its side).  Only sources of
 *    ordinary instructions and IF conditions change: a PHI's sources
 *    belong to the edges it joins, not to the place the PHI stands.
 *
 * Needs: valid IR.  Keeps: control flow (dead_branch removes what this
 * makes dead).  New constants get fresh ids; PHIs of rule 1 are replaced
 * and removed. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <stdlib.h>
#include <string.h>

struct fact {
	const struct ir_instr *def;
	int comp;
	bool value;
};

/* The facts known at a point: a stack, entered and left with the
 * branches (the walk is recursive, the stack shared). */
struct facts {
	struct ir_func *f;
	struct fact *v;
	int n, cap;
	bool progress, failed;
};

enum { MAX_FACTS = 4096, MAX_DERIVE = 8 };

static void push(struct facts *k, const struct ir_instr *def, int comp, bool value, int depth)
{
	if (!def || def->base != IR_BOOL || comp < 0 || comp > 3 || depth > MAX_DERIVE ||
	    k->n >= MAX_FACTS)
		return;
	if (k->n == k->cap) {
		int ncap = k->cap ? 2 * k->cap : 32;
		struct fact *nv = realloc(k->v, sizeof *nv * (size_t)ncap);
		if (!nv) {
			k->failed = true;
			return;
		}
		k->v = nv;
		k->cap = ncap;
	}
	k->v[k->n++] = (struct fact){ def, comp, value };
	/* what the value tells about the operands */
	int sc = def->nsrc > 0 ? def->src[0].swz[comp] & 3 : 0;
	if (def->op == IR_OP_NOT)
		push(k, def->src[0].def, sc, !value, depth + 1);
	else if (def->op == IR_OP_MOV)
		push(k, def->src[0].def, sc, value, depth + 1);
	else if ((def->op == IR_OP_AND && value) || (def->op == IR_OP_OR && !value))
		for (int i = 0; i < 2; i++)
			push(k, def->src[i].def, def->src[i].swz[comp] & 3, value, depth + 1);
}

/* Component comp of bool def when the facts decide it: a fact, a
 * constant, or NOT / MOV / AND / OR of what they decide; -1 otherwise. */
static int known_at(const struct facts *k, const struct ir_instr *def, int comp, int depth)
{
	if (!def || def->base != IR_BOOL || comp < 0 || comp > 3)
		return -1;
	if (def->op == IR_OP_CONST)
		return def->imm[comp] != 0.0f;
	for (int i = k->n - 1; i >= 0; i--)
		if (k->v[i].def == def && k->v[i].comp == comp)
			return k->v[i].value;
	if (depth >= MAX_DERIVE || k->n == 0)
		return -1;
	int a = def->nsrc > 0 ? known_at(k, def->src[0].def, def->src[0].swz[comp] & 3, depth + 1)
			      : -1;
	switch (def->op) {
	case IR_OP_NOT:
		return a < 0 ? -1 : !a;
	case IR_OP_MOV:
		return a;
	case IR_OP_AND:
	case IR_OP_OR: {
		int b = known_at(k, def->src[1].def, def->src[1].swz[comp] & 3, depth + 1);
		bool and = def->op == IR_OP_AND;
		if (a == !and || b == !and) /* false AND x, true OR x */
			return !and;
		return a < 0 || b < 0 ? -1 : and ? (a && b) : (a || b);
	}
	default:
		return -1;
	}
}

static int lookup(const struct facts *k, const struct ir_instr *def, int comp)
{
	return known_at(k, def, comp, 0);
}

/* The source's components (n of them) as constants when every one is
 * known: a new CONST before `at`, or at the end of block `end` when at is
 * NULL; NULL otherwise. */
static struct ir_instr *known_value(struct facts *k, const struct ir_src *s, int n,
				    struct ir_instr *at, struct ir_block *end)
{
	const struct ir_instr *d = s->def;
	if (!d || d->base != IR_BOOL || d->op == IR_OP_CONST || n < 1 || n > 4 || k->n == 0)
		return NULL;
	float v[4] = { 0 };
	for (int c = 0; c < n; c++) {
		int x = lookup(k, d, s->swz[c] & 3);
		if (x < 0)
			return NULL;
		v[c] = x ? 1.0f : 0.0f;
	}
	struct ir_builder b = { .func = k->f, .block = end, .loc = d->loc };
	struct ir_instr *cst = at ? ir_build_const_before(k->f, at, n, IR_BOOL, v)
				  : ir_build_const(&b, n, IR_BOOL, v);
	k->failed |= !cst;
	return cst;
}

static void rewrite_sources(struct facts *k, struct ir_instr *in)
{
	if (in->op == IR_OP_PHI || k->n == 0)
		return;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		int n = ir_src_ncomp(k->f, in, i);
		struct ir_instr *c = known_value(k, &in->src[i], n, in, NULL);
		if (!c)
			continue;
		in->src[i].def = c;
		for (int j = 0; j < 4; j++)
			in->src[i].swz[j] = (uint8_t)(j < n ? j : 0);
		k->progress = true;
	}
}

/* The bool scalar a PHI source gives when control comes from the side
 * of `if (cond)` where cond is `side`: a constant, or what that side
 * knows; -1 when unknown. */
static int side_value(struct facts *k, const struct ir_src *s, const struct ir_src *cond,
		      bool side)
{
	const struct ir_instr *d = s->def;
	if (!d)
		return -1;
	int base = k->n;
	push(k, cond->def, cond->swz[0] & 3, side, 0);
	int v = lookup(k, d, s->swz[0] & 3);
	k->n = base;
	return v;
}

/* Rule 1 on the join after IF node `cf`. */
static void flag_phis(struct facts *k, struct ir_cf *cf)
{
	struct ir_cf *after = cf->next;
	if (!after || after->kind != IR_CF_BLOCK)
		return;
	struct ir_instr *first_other = after->block.first;
	while (first_other && first_other->op == IR_OP_PHI)
		first_other = first_other->next;
	for (struct ir_instr *in = after->block.first, *next; in && in->op == IR_OP_PHI; in = next) {
		next = in->next;
		if (in->base != IR_BOOL || in->ncomp != 1 || in->nsrc != 2 || !cf->cond.def)
			continue;
		int ta = side_value(k, &in->src[0], &cf->cond, true);
		int tb = side_value(k, &in->src[1], &cf->cond, false);
		if (ta < 0 || tb < 0)
			continue;
		/* after the join's PHIs: before its first other instruction, or
		 * at the end of a block of PHIs only */
		enum ir_op op = ta == tb ? IR_OP_CONST : ta ? IR_OP_MOV : IR_OP_NOT;
		int nsrc = op == IR_OP_CONST ? 0 : 1;
		struct ir_builder bl = { .func = k->f, .block = &after->block, .loc = in->loc };
		struct ir_instr *rep = first_other
			? ir_build_before(k->f, first_other, op, 1, IR_BOOL, nsrc, &cf->cond)
			: ir_build(&bl, op, 1, IR_BOOL, nsrc, &cf->cond);
		if (!rep) {
			k->failed = true;
			return;
		}
		for (int c = 0; op == IR_OP_CONST && c < 4; c++)
			rep->imm[c] = (float)ta;
		ir_forward(in, rep);
		ir_instr_remove(in);
		k->progress = true;
	}
}

static void walk(struct facts *k, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf && !k->failed; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (struct ir_instr *in = cf->block.first; in; in = in->next) {
				for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
					ir_src_forward(&in->src[i]);
				rewrite_sources(k, in);
			}
			break;
		case IR_CF_IF: {
			ir_src_forward(&cf->cond);
			/* a condition the enclosing branches decide: a constant at
			 * the end of the block before the IF */
			struct ir_cf *prev = cf->prev;
			struct ir_instr *c = prev && prev->kind == IR_CF_BLOCK
					     ? known_value(k, &cf->cond, 1, NULL, &prev->block) : NULL;
			if (c) {
				cf->cond.def = c;
				for (int j = 0; j < 4; j++)
					cf->cond.swz[j] = 0;
				k->progress = true;
			}
			int base = k->n;
			push(k, cf->cond.def, cf->cond.swz[0] & 3, true, 0);
			walk(k, &cf->then_list);
			k->n = base;
			push(k, cf->cond.def, cf->cond.swz[0] & 3, false, 0);
			walk(k, &cf->else_list);
			k->n = base;
			flag_phis(k, cf);
			break;
		}
		case IR_CF_LOOP:
			walk(k, &cf->body);
			break;
		}
	}
}

bool ir_opt_known_cond(struct ir_func *f)
{
	struct facts k = { .f = f };
	walk(&k, &f->body);
	free(k.v);
	ir_apply_forwards(f);
	return k.progress && !k.failed;
}
