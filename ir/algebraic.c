/* The engine of the algebraic rule table (algebraic.h): matching a
 * pattern at an instruction, checking its conditions, building the
 * replacement; and the `algebraic` pass, which applies the table.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (the root
 * is rewritten in place; new ops and constants get fresh ids).  Leaves
 * the ops the pattern took apart to DCE. */
#include "algebraic.h"
#include "ir_pass.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* What the rules may ask about readers, counted over the function when a
 * rule first asks (most functions never do) and not updated as the walk
 * rewrites: a value made by the walk (id >= n) counts as unknown. */
struct census {
	bool counted, divisors_marked;
	uint32_t n_uses, n_divisors;  /* the ids each covers */
	uint16_t *uses;        /* by id: readers (ir_count_uses) */
	uint8_t *not_divisor;  /* by id: read other than as a DIV's divisor */
};

/* The rules to try at an op, in table order: first[op], next[r]; -1
 * ends.  The op each source of a rule's root must have (IR_OP_COUNT:
 * any), and whether the root takes its sources in either order: the
 * cheap look that most tries end at. */
struct alg_index {
	int8_t first[IR_OP_COUNT], next[ALG_MAX_RULES];
	uint8_t need[ALG_MAX_RULES][3];
	bool either_order[ALG_MAX_RULES];
};

struct alg_walk {
	struct ir_func *f;
	int *fired;
	const struct alg_index *ix;
	struct census census;
	bool failed, progress;
};

enum { NVARS = 26 };

/* The sources the pattern's leaves captured, in the root's components. */
struct bindings {
	uint32_t bound;
	struct ir_src src[NVARS];
};

static void mark_not_divisor(struct ir_instr *in, void *ud)
{
	struct census *c = ud;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++) {
		const struct ir_instr *d = in->src[k].def;
		if (d && d->id < c->n_divisors && !(in->op == IR_OP_DIV && k == 1))
			c->not_divisor[d->id] = 1;
	}
}

/* The readers of each value, counted when first asked. */
static bool census_uses(struct alg_walk *w)
{
	struct census *c = &w->census;
	if (!c->counted) {
		c->counted = true;
		c->n_uses = w->f->next_id;
		c->uses = ir_count_uses(w->f);
	}
	return c->uses;
}

/* Which values are read other than as a divisor, marked when first
 * asked. */
static bool census_divisors(struct alg_walk *w)
{
	struct census *c = &w->census;
	if (!c->divisors_marked) {
		c->divisors_marked = true;
		c->n_divisors = w->f->next_id;
		c->not_divisor = calloc((size_t)c->n_divisors + 1, 1);
		if (c->not_divisor)
			ir_foreach_instr(w->f, mark_not_divisor, c);
	}
	return c->not_divisor;
}

static bool all_comps(const struct ir_src *k, int n, bool (*test)(float))
{
	for (int c = 0; c < n; c++)
		if (!test(ir_src_const_comp(k, c)))
			return false;
	return true;
}

static bool positive(float v) { return v > 0.0f && isfinite(v); }
static bool is_one(float v) { return v == 1.0f; }
static bool is_two(float v) { return v == 2.0f; }

/* Whether the value s reads (n components) meets pred. */
static bool pred_holds(struct alg_walk *w, enum alg_pred pred, const struct ir_src *s, int n)
{
	const struct ir_instr *d = s->def;
	switch (pred) {
	case ALG_ANY:
		return true;
	case ALG_NOT_CONST:
		return !ir_src_float_const(s);
	case ALG_NOT_PRODUCT:
		return !ir_src_float_const(s) && d->op != IR_OP_MUL;
	case ALG_ONE_READER:
		return census_uses(w) && d->id < w->census.n_uses && w->census.uses[d->id] == 1;
	case ALG_DIVISOR_ONLY:
		return census_divisors(w) && d->id < w->census.n_divisors &&
		       !w->census.not_divisor[d->id];
	case ALG_POSITIVE:
		return all_comps(s, n, positive);
	case ALG_IS_ONE:
		return all_comps(s, n, is_one);
	case ALG_IS_TWO:
		return all_comps(s, n, is_two);
	case ALG_PRED_COUNT:
		break;
	}
	return false;
}

static bool match(struct alg_walk *w, const struct alg_node *p, const struct ir_src *s, int n,
		  struct bindings *b);

/* Whether d could be what p matches, by its op alone: the walk tries
 * every rule of an op at each instruction, and most fail here. */
static bool shape_ok(const struct alg_node *p, const struct ir_instr *d)
{
	if (!d)
		return false;
	if (p->kind == ALG_OP)
		return d->op == p->op;
	return p->kind != ALG_KONST || d->op == IR_OP_CONST;
}

/* The sources of op d (read through s) against p's, in the order `order`. */
static bool match_srcs(struct alg_walk *w, const struct alg_node *p, const struct ir_src *s,
		       int n, const int order[3], struct bindings *b)
{
	const struct ir_src *ds = s->def->src;
	for (int i = 0; i < p->nsrc; i++)
		if (!shape_ok(p->src[i], ds[order[i]].def))
			return false;
	for (int i = 0; i < p->nsrc; i++) {
		struct ir_src t = { .def = ds[order[i]].def };
		for (int c = 0; c < 4; c++) /* ir_src_through, inline */
			t.swz[c] = ds[order[i]].swz[s->swz[c] & 3];
		if (!match(w, p->src[i], &t, n, b))
			return false;
	}
	return true;
}

static bool match(struct alg_walk *w, const struct alg_node *p, const struct ir_src *s, int n,
		  struct bindings *b)
{
	const struct ir_instr *d = s->def;
	if (!d)
		return false;
	if (p->kind == ALG_VAR || p->kind == ALG_KONST) {
		if (p->kind == ALG_KONST && !ir_src_float_const(s))
			return false;
		uint32_t bit = 1u << (p->var - 'a');
		if (b->bound & bit) {
			if (!ir_src_same(&b->src[p->var - 'a'], s, n))
				return false;
		} else {
			b->bound |= bit;
			b->src[p->var - 'a'] = *s;
		}
		return pred_holds(w, p->pred, s, n);
	}
	if (p->kind != ALG_OP || d->op != p->op || d->base != IR_FLOAT || d->nsrc != p->nsrc)
		return false;
	static const int straight[3] = { 0, 1, 2 }, swapped[3] = { 1, 0, 2 };
	uint32_t bound = b->bound; /* what a failed try bound is unbound again */
	bool ok = match_srcs(w, p, s, n, straight, b);
	if (!ok && p->nsrc == 2 && (ir_op_infos[p->op].flags & IRF_COMMUTATIVE)) {
		b->bound = bound;
		ok = match_srcs(w, p, s, n, swapped, b);
	}
	/* conditions on the op last: a census is taken only for a tree that
	 * matched */
	return ok && pred_holds(w, p->pred, s, n);
}

/* --- the replacement --- */

static bool konst_tree(const struct alg_node *p)
{
	if (p->kind == ALG_KONST || p->kind == ALG_IMM)
		return true;
	if (p->kind != ALG_OP)
		return false;
	for (int i = 0; i < p->nsrc; i++)
		if (!konst_tree(p->src[i]))
			return false;
	return true;
}

/* Component c of a constant subtree, in plain fp32. */
static float konst_eval(const struct alg_node *p, const struct bindings *b, int c)
{
	if (p->kind == ALG_IMM)
		return p->imm;
	if (p->kind == ALG_KONST)
		return ir_src_const_comp(&b->src[p->var - 'a'], c);
	float x = konst_eval(p->src[0], b, c);
	float y = p->nsrc > 1 ? konst_eval(p->src[1], b, c) : 0.0f;
	switch (p->op) {
	case IR_OP_NEG: return -x;
	case IR_OP_RCP: return 1.0f / x;
	case IR_OP_LOG2: return log2f(x);
	case IR_OP_ADD: return x + y;
	case IR_OP_SUB: return x - y;
	case IR_OP_MUL: return x * y;
	default: return NAN; /* the table's test keeps other ops out */
	}
}

/* Whether every constant of replacement p is finite (ALG_FINITE rules). */
static bool konsts_finite(const struct alg_node *p, const struct bindings *b, int n)
{
	if (konst_tree(p)) {
		for (int c = 0; c < n; c++)
			if (!isfinite(konst_eval(p, b, c)))
				return false;
		return true;
	}
	for (int i = 0; p->kind == ALG_OP && i < p->nsrc; i++)
		if (!konsts_finite(p->src[i], b, n))
			return false;
	return true;
}

/* A compwise unary op over the distinct components s reads (n entries):
 * each component is an op of its own on the R500 (a vector over a
 * replicated scalar, p / length(p), needs one). */
static struct ir_src build_compact(struct alg_walk *w, struct ir_instr *root, enum ir_op op,
				   const struct ir_src *s, int n)
{
	uint8_t distinct[4] = { 0, 0, 0, 0 }, at[4] = { 0, 0, 0, 0 };
	int nd = 0;
	for (int c = 0; c < n; c++) {
		int k = 0;
		while (k < nd && distinct[k] != (s->swz[c] & 3))
			k++;
		if (k == nd)
			distinct[nd++] = s->swz[c] & 3;
		at[c] = (uint8_t)k;
	}
	struct ir_src x = *s;
	for (int k = 0; k < 4; k++)
		x.swz[k] = distinct[k < nd ? k : nd - 1];
	struct ir_instr *r = ir_build_before(w->f, root, op, nd, IR_FLOAT, 1, &x);
	w->failed |= !r;
	struct ir_src out = { .def = r };
	for (int c = 0; c < 4; c++)
		out.swz[c] = at[c < n ? c : n - 1];
	return out;
}

/* The value of replacement p (n components) as a source, new
 * instructions before `root`. */
static struct ir_src build(struct alg_walk *w, struct ir_instr *root, const struct alg_node *p,
			   const struct bindings *b, int n)
{
	if (p->kind == ALG_VAR)
		return b->src[p->var - 'a'];
	if (konst_tree(p)) {
		float v[4] = { 0, 0, 0, 0 };
		for (int c = 0; c < n; c++)
			v[c] = konst_eval(p, b, c);
		struct ir_instr *k = ir_build_const_before(w->f, root, n, IR_FLOAT, v);
		w->failed |= !k;
		return k ? ir_src_of(k) : (struct ir_src){ 0 };
	}
	struct ir_src srcs[3];
	for (int i = 0; i < p->nsrc; i++)
		srcs[i] = build(w, root, p->src[i], b, n);
	if (w->failed)
		return (struct ir_src){ 0 };
	if (p->flags & ALG_COMPACT)
		return build_compact(w, root, p->op, &srcs[0], n);
	struct ir_instr *in = ir_build_before(w->f, root, p->op, n, IR_FLOAT, p->nsrc, srcs);
	w->failed |= !in;
	return in ? ir_src_of(in) : (struct ir_src){ 0 };
}

/* Rewrites `in` as the replacement's root: its op and sources, a MOV for
 * a bare capture. */
static void rewrite_root(struct alg_walk *w, struct ir_instr *in, const struct alg_node *p,
			 const struct bindings *b)
{
	int n = in->ncomp;
	struct ir_src srcs[3];
	int nsrc = 1;
	enum ir_op op = IR_OP_MOV;
	if (p->kind == ALG_VAR) {
		srcs[0] = b->src[p->var - 'a'];
	} else {
		op = p->op;
		nsrc = p->nsrc;
		for (int i = 0; i < nsrc; i++)
			srcs[i] = build(w, in, p->src[i], b, n);
	}
	if (w->failed)
		return;
	in->op = op;
	in->nsrc = (uint8_t)nsrc;
	for (int i = 0; i < IR_MAX_SRCS; i++)
		in->src[i] = i < nsrc ? srcs[i] : (struct ir_src){ 0 };
}

/* The op pattern node p asks of what it matches; IR_OP_COUNT: any. */
static uint8_t op_needed(const struct alg_node *p)
{
	return p->kind == ALG_OP ? p->op : p->kind == ALG_KONST ? IR_OP_CONST : IR_OP_COUNT;
}

static bool op_fits(uint8_t need, uint8_t op)
{
	return need == IR_OP_COUNT || need == op;
}

/* Whether `in`, its sources' ops op[], could be what rule r matches (by
 * the ops of its sources alone, in either order where that is allowed). */
static bool root_shape_ok(const struct alg_walk *w, int r, const struct ir_instr *in,
			  const uint8_t op[3])
{
	const uint8_t *need = w->ix->need[r];
	if (in->nsrc != alg_rules[r].pattern->nsrc)
		return false;
	if (op_fits(need[0], op[0]) && op_fits(need[1], op[1]) && op_fits(need[2], op[2]))
		return true;
	return w->ix->either_order[r] && op_fits(need[0], op[1]) && op_fits(need[1], op[0]);
}

static bool try_rule(struct alg_walk *w, struct ir_instr *in, const struct alg_rule *r)
{
	struct bindings b;
	b.bound = 0; /* the sources are written as they are bound */
	struct ir_src root = { .def = in, .swz = { 0, 1, 2, 3 } };
	if (!match(w, r->pattern, &root, in->ncomp, &b))
		return false;
	if ((r->flags & ALG_FINITE) && !konsts_finite(r->replacement, &b, in->ncomp))
		return false;
	rewrite_root(w, in, r->replacement, &b);
	return !w->failed;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct alg_walk *w = ud;
	if (w->failed || in->ncomp == 0 || in->base != IR_FLOAT)
		return;
	if (w->ix->first[in->op] < 0)
		return;
	uint8_t op[3] = { IR_OP_COUNT, IR_OP_COUNT, IR_OP_COUNT };
	for (int i = 0; i < in->nsrc && i < 3; i++)
		op[i] = in->src[i].def ? (uint8_t)in->src[i].def->op : IR_OP_COUNT;
	for (int r = w->ix->first[in->op]; r >= 0; r = w->ix->next[r]) {
		if (root_shape_ok(w, r, in, op) && try_rule(w, in, &alg_rules[r])) {
			w->progress = true;
			if (w->fired)
				w->fired[r]++;
			return;
		}
	}
}

/* The index of the rules enabled (NULL: all of them). */
static void index_rules(struct alg_index *ix, const bool *enabled)
{
	memset(ix->first, -1, sizeof ix->first);
	for (int r = alg_nrules - 1; r >= 0; r--)
		if (!enabled || enabled[r]) {
			const struct alg_node *p = alg_rules[r].pattern;
			ix->next[r] = ix->first[p->op];
			ix->first[p->op] = (int8_t)r;
			for (int i = 0; i < 3; i++)
				ix->need[r][i] = i < p->nsrc ? op_needed(p->src[i]) : IR_OP_COUNT;
			ix->either_order[r] = p->nsrc == 2 &&
					      (ir_op_infos[p->op].flags & IRF_COMMUTATIVE);
		}
}

/* The whole table's index, made once per process: the pass runs in every
 * round of every compile, and making it each time was 5 % of a small
 * shader's compile. */
static struct alg_index whole_table;
static pthread_once_t whole_table_once = PTHREAD_ONCE_INIT;

static void index_whole_table(void)
{
	index_rules(&whole_table, NULL);
}

bool alg_apply(struct ir_func *f, const bool *enabled, int *fired)
{
	struct alg_index some;
	struct alg_walk w = { .f = f, .fired = fired, .ix = &whole_table };
	if (enabled) {
		index_rules(&some, enabled);
		w.ix = &some;
	} else {
		pthread_once(&whole_table_once, index_whole_table);
	}
	/* in program order, so that a chain folds in one run: each op finds
	 * the one below already rewritten; the ops made go before the one
	 * visited, where the walk does not see them */
	ir_foreach_instr(f, visit, &w);
	free(w.census.uses);
	free(w.census.not_divisor);
	return w.progress;
}

bool ir_opt_algebraic(struct ir_func *f)
{
	return alg_apply(f, NULL, NULL);
}
