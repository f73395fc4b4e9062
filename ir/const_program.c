/* Splitting out the constant program (const_program.h).
 *
 * A value is uniform-only when it is a constant, a uniform element read
 * at a constant index, or an op ir_eval computes whose sources are all
 * uniform-only.  Such a value has one value for the whole draw wherever
 * it sits (inside an IF or a loop too), and evaluating it where the
 * pixel program would not is harmless: the ops are pure.
 *
 * A root is a uniform-only op read by something that is not: an op
 * of the pixel program, a PHI, an IF condition.  Moving a root saves the
 * pixel program its op tree (the cost below, in R500 instructions as
 * isel expands them) and costs it a new uniform (a constant slot, or a
 * part of one for narrow values).  Roots are taken costliest first,
 * within IR_CP_MAX_OUTPUTS, IR_CP_MAX_INSTRS and the constant file. */
#include "const_program.h"
#include "cp_prepare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir_cost.h"
#include "ir_eval.h"
#include "ir_pass.h"

enum { CP_NOT = 0, CP_LEAF = 1, CP_OP = 2 };

/* Constant slots kept free of the new uniforms for the program's
 * immediates (its own uniforms are counted: nuniform_vec4). */
enum { CP_IMMEDIATE_ROOM = 32 };

/* Instructions a part of a root too big to move must cost the pixel
 * program to move on its own. */
enum { CP_PART_COST = 32 };

struct split {
	struct ir_func *f;
	struct ir_pass_ctx *ctx;  /* the clean-ups of f run through it (may be NULL) */
	uint8_t *kind;            /* by id: CP_* */
	int *cost;                /* by id: R500 instructions of the op tree */
	bool *root, *need;
	struct ir_instr **by_id;
	struct ir_instr **clone;  /* by id: the copy in the constant program */
	struct ir_instr **roots;
	int nroots;
	struct ir_instr **order;  /* every instruction in program order */
	int norder;
	struct ir_instr **stack;  /* closure's walk */
	unsigned *mark, gen;
};

static void classify(struct ir_instr *in, void *ud)
{
	struct split *s = ud;
	if (in->id >= s->f->next_id)
		return;
	s->by_id[in->id] = in;
	s->order[s->norder++] = in;
	if (in->op == IR_OP_CONST || (in->op == IR_OP_UNIFORM && in->nsrc == 0)) {
		s->kind[in->id] = CP_LEAF;
		return;
	}
	if (in->op == IR_OP_PHI || in->ncomp == 0 || !ir_op_is_evaluable(in->op) || in->nsrc < 1)
		return;
	long cost = ir_cost(s->f)->op_cost(in->op);
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		const struct ir_instr *d = in->src[i].def;
		if (!d || d->id >= s->f->next_id || s->kind[d->id] == CP_NOT)
			return;
		cost += s->cost[d->id];
	}
	s->kind[in->id] = CP_OP;
	s->cost[in->id] = cost > 100000 ? 100000 : (int)cost;
}

/* A free modifier (MOV, NEG, ABS) of an op is no root of its own: the
 * pixel program applies it to the op's new uniform, so -u and u take one
 * slot. */
static void mark_root(struct split *s, const struct ir_instr *d)
{
	int (*op_cost)(enum ir_op) = ir_cost(s->f)->op_cost;
	while (d && d->id < s->f->next_id && s->kind[d->id] == CP_OP && op_cost(d->op) == 0 &&
	       d->op != IR_OP_B2F && d->nsrc == 1 && d->src[0].def &&
	       d->src[0].def->id < s->f->next_id && s->kind[d->src[0].def->id] == CP_OP)
		d = d->src[0].def;
	if (d && d->id < s->f->next_id && s->kind[d->id] == CP_OP)
		s->root[d->id] = true;
}

static void find_roots(struct ir_instr *in, void *ud)
{
	struct split *s = ud;
	if (in->id < s->f->next_id && s->kind[in->id] != CP_NOT)
		return;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		mark_root(s, in->src[i].def);
}

/* Whether every instruction of the list, at any depth, is uniform-only
 * (IFs on uniform-only conditions, no loop): the split leaves it empty. */
static bool all_moves(const struct split *s, const struct ir_cf_list *l)
{
	for (const struct ir_cf *c = l->first; c; c = c->next) {
		if (c->kind == IR_CF_LOOP)
			return false;
		if (c->kind == IR_CF_IF) {
			const struct ir_instr *d = c->cond.def;
			if (!d || d->id >= s->f->next_id || s->kind[d->id] == CP_NOT ||
			    !all_moves(s, &c->then_list) || !all_moves(s, &c->else_list))
				return false;
			continue;
		}
		for (const struct ir_instr *in = c->block.first; in; in = in->next)
			if (in->id >= s->f->next_id || s->kind[in->id] == CP_NOT)
				return false;
	}
	return true;
}

static void find_cond_roots(struct split *s, const struct ir_cf_list *l)
{
	for (const struct ir_cf *c = l->first; c; c = c->next) {
		if (c->kind == IR_CF_IF) {
			/* an IF the split empties, with no PHI after it, goes
			 * (rewrite_pixel_program): its condition is read by
			 * nothing then */
			const struct ir_cf *n = c->next;
			bool phis = n && n->kind == IR_CF_BLOCK && n->block.first &&
				    n->block.first->op == IR_OP_PHI;
			if (phis || !all_moves(s, &c->then_list) || !all_moves(s, &c->else_list))
				mark_root(s, c->cond.def);
			find_cond_roots(s, &c->then_list);
			find_cond_roots(s, &c->else_list);
		} else if (c->kind == IR_CF_LOOP) {
			find_cond_roots(s, &c->body);
		}
	}
}

/* Instructions the constant program gains by taking root r (those not
 * yet needed), marking them needed when `take`; counting stops past
 * `budget`. */
static int closure(struct split *s, struct ir_instr *r, bool take, int budget)
{
	int n = 0, sp = 0;
	s->gen++;
	s->stack[sp++] = r;
	s->mark[r->id] = s->gen;
	while (sp > 0 && n <= budget) {
		struct ir_instr *in = s->stack[--sp];
		if (s->need[in->id])
			continue;
		n++;
		if (take)
			s->need[in->id] = true;
		for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
			struct ir_instr *d = in->src[i].def;
			if (d && d->id < s->f->next_id && s->mark[d->id] != s->gen) {
				s->mark[d->id] = s->gen;
				s->stack[sp++] = d;
			}
		}
	}
	return n;
}

static int by_cost(const void *a, const void *b, void *ud)
{
	const struct split *s = ud;
	const struct ir_instr *x = *(struct ir_instr *const *)a, *y = *(struct ir_instr *const *)b;
	int cx = s->cost[x->id], cy = s->cost[y->id];
	if (cx != cy)
		return cx > cy ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Insertion sort: roots are few (qsort_r is not portable C). */
static void sort_roots(struct split *s, struct ir_instr **v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && by_cost(&v[j - 1], &v[j], s) > 0; j--) {
			struct ir_instr *t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static bool worth(const struct split *s, const struct ir_instr *r)
{
	/* a bool comes back through one F2B */
	return s->cost[r->id] >= (r->base == IR_BOOL ? 2 : 1);
}

/* Picks the roots to move: s->roots / nroots, their trees in s->need. */
static void choose(struct split *s)
{
	struct ir_func *f = s->f;
	int ncand = 0;
	for (uint32_t i = 0; i < f->next_id; i++)
		if (s->root[i] && s->by_id[i] && worth(s, s->by_id[i]))
			s->roots[ncand++] = s->by_id[i];
	sort_roots(s, s->roots, ncand);
	int room = ir_cost(f)->const_slots - CP_IMMEDIATE_ROOM - f->nuniform_vec4, instrs = 0,
	    taken = 0;
	if (room > IR_CP_MAX_OUTPUTS)
		room = IR_CP_MAX_OUTPUTS;
	/* the costliest few are weighed (each weighing walks its tree) */
	if (ncand > 4 * IR_CP_MAX_OUTPUTS)
		ncand = 4 * IR_CP_MAX_OUTPUTS;
	int weighed = 0, cap = (int)f->next_id;
	for (int k = 0; k < ncand && taken < room && weighed < 4 * IR_CP_MAX_OUTPUTS; k++) {
		struct ir_instr *r = s->roots[k];
		int add = closure(s, r, false, IR_CP_MAX_INSTRS);
		weighed++;
		if (instrs + add + 1 > IR_CP_MAX_INSTRS) { /* + its OUTPUT */
			/* too big: its large uniform-only operands may fit (a
			 * long select chain over a constant array moves in
			 * part); small ones stay, a piece of an expression can
			 * cost the pixel program more as a constant read */
			for (int i = 0; i < r->nsrc && i < IR_MAX_SRCS && ncand < cap; i++) {
				struct ir_instr *d = r->src[i].def;
				if (d && d->id < f->next_id && s->kind[d->id] == CP_OP &&
				    !s->root[d->id] && s->cost[d->id] >= CP_PART_COST) {
					s->root[d->id] = true; /* a candidate once */
					s->roots[ncand++] = d;
				}
			}
			continue;
		}
		closure(s, r, true, IR_CP_MAX_INSTRS);
		instrs += add + 1;
		s->roots[taken++] = r;
	}
	s->nroots = taken;
}

static const char *vec_type(int n)
{
	static const char *const t[] = { "float", "float", "vec2", "vec3", "vec4" };
	return t[n < 1 ? 1 : n > 4 ? 4 : n];
}

static struct ir_func *copy_uniforms(const struct ir_func *f, struct arena *arena)
{
	struct ir_func *cp = ir_func_create(arena, f->stage);
	for (int i = 0; cp && i < f->nuniforms; i++) {
		const struct ir_uniform *u = &f->uniforms[i];
		if (ir_func_add_uniform(cp, u->name, u->type, u->array_len, u->nvec4, u->ncomp) != i ||
		    (u->init && !ir_func_set_uniform_init(cp, i, u->init)))
			return NULL;
		cp->uniforms[i].base = u->base; /* the same elements, however f laid them */
		cp->uniforms[i].member_major = u->member_major;
	}
	if (cp)
		cp->nuniform_vec4 = f->nuniform_vec4;
	return cp;
}

/* The constant program: the needed instructions in program order, then
 * one OUTPUT per root. */
static struct ir_func *build_program(struct split *s)
{
	struct ir_func *f = s->f;
	struct ir_func *cp = copy_uniforms(f, f->arena);
	if (!cp)
		return NULL;
	struct ir_builder b;
	ir_builder_init(&b, cp);
	/* program order: a definition comes before its uses (ids need not) */
	for (int j = 0; j < s->norder; j++) {
		struct ir_instr *in = s->order[j];
		uint32_t i = in->id;
		if (!s->need[i])
			continue;
		struct ir_src src[IR_MAX_SRCS];
		for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++) {
			src[k] = in->src[k];
			src[k].def = s->clone[in->src[k].def->id];
		}
		b.loc = in->loc;
		struct ir_instr *c = ir_build(&b, in->op, in->ncomp, in->base, in->nsrc, src);
		if (!c)
			return NULL;
		memcpy(c->imm, in->imm, sizeof c->imm);
		c->index = in->index;
		c->offset = in->offset;
		s->clone[i] = c;
	}
	for (int k = 0; k < s->nroots; k++) {
		struct ir_instr *r = s->roots[k];
		char name[16];
		snprintf(name, sizeof name, "$cp%d", k);
		int o = ir_func_add_output(cp, name, k, r->ncomp);
		struct ir_instr *v = s->clone[r->id];
		if (o < 0 || !v)
			return NULL;
		if (r->base == IR_BOOL && !(v = ir_build_alu1(&b, IR_OP_B2F, r->ncomp, ir_src_of(v))))
			return NULL;
		struct ir_instr *out = ir_build(&b, IR_OP_OUTPUT, 0, IR_FLOAT, 1,
						(struct ir_src[]){ ir_src_of(v) });
		if (!out)
			return NULL;
		out->index = o;
	}
	return cp;
}

/* Each root of f becomes a read of its new uniform. */
static bool rewrite_pixel_program(struct split *s)
{
	struct ir_func *f = s->f;
	for (int k = 0; k < s->nroots; k++) {
		struct ir_instr *r = s->roots[k];
		char name[16];
		snprintf(name, sizeof name, "$cp%d", k);
		int u = ir_func_add_uniform(f, name, vec_type(r->ncomp), 0, 1, r->ncomp);
		if (u < 0)
			return false;
		struct ir_instr *rd = ir_build_before(f, r, IR_OP_UNIFORM, r->ncomp, IR_FLOAT, 0, NULL);
		if (!rd)
			return false;
		rd->index = u;
		rd->offset = 0;
		if (r->base == IR_BOOL &&
		    !(rd = ir_build_before(f, r, IR_OP_F2B, r->ncomp, IR_BOOL, 1,
				      (struct ir_src[]){ ir_src_of(rd) })))
			return false;
		ir_forward(r, rd);
	}
	ir_apply_forwards(f);
	ir_pass_run_split(s->ctx, f, IR_SPLIT_CP_DCE, ir_opt_dce);
	/* an IF whose work all moved is left empty; its condition would
	 * still cost the pixel program (an IF holding such an IF empties
	 * the next round) */
	for (int round = 0; round < 8 && ir_pass_run_split(s->ctx, f, IR_SPLIT_CP_DEAD_BRANCH,
								 ir_opt_dead_branch);
	     round++)
		ir_pass_run_split(s->ctx, f, IR_SPLIT_CP_DCE, ir_opt_dce);
	return !(s->ctx && s->ctx->failed);
}

bool ir_uniform_is_cp_output(const struct ir_uniform *u)
{
	return u && u->name && u->name[0] == '$';
}

static bool already_split(const struct ir_func *f)
{
	for (int i = 0; i < f->nuniforms; i++)
		if (ir_uniform_is_cp_output(&f->uniforms[i]))
			return true;
	return false;
}

struct ir_func *ir_split_constant_program(struct ir_func *f, struct ir_pass_ctx *ctx,
					  bool *failed)
{
	*failed = false;
	if (already_split(f))
		return NULL;
	if (!ir_cp_prepare(f, ctx) || (ctx && ctx->failed)) {
		*failed = true;
		return NULL;
	}
	size_t n = (size_t)f->next_id + 1;
	struct split s = { .f = f, .ctx = ctx };
	s.kind = calloc(n, 1);
	s.cost = calloc(n, sizeof *s.cost);
	s.root = calloc(n, 1);
	s.need = calloc(n, 1);
	s.by_id = calloc(n, sizeof *s.by_id);
	s.clone = calloc(n, sizeof *s.clone);
	s.roots = calloc(n, sizeof *s.roots);
	s.stack = calloc(n, sizeof *s.stack);
	s.order = calloc(n, sizeof *s.order);
	s.mark = calloc(n, sizeof *s.mark);
	struct ir_func *cp = NULL;
	bool ok = s.kind && s.cost && s.root && s.need && s.by_id && s.clone && s.roots &&
		  s.stack && s.mark && s.order;
	if (ok) {
		ir_foreach_instr(f, classify, &s);
		ir_foreach_instr(f, find_roots, &s);
		find_cond_roots(&s, &f->body);
		choose(&s);
	}
	if (ok && s.nroots > 0) {
		cp = build_program(&s);
		ok = cp && rewrite_pixel_program(&s);
		if (!ok)
			cp = NULL;
	}
	*failed = !ok;
	free(s.kind);
	free(s.cost);
	free(s.root);
	free(s.need);
	free(s.by_id);
	free(s.clone);
	free(s.roots);
	free(s.stack);
	free(s.order);
	free(s.mark);
	return cp;
}
