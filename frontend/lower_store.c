/* Writes: variables are SSA values, so a store replaces the value of the
 * leaves it writes (a swizzle or a constant index merges into the old
 * value; a non-constant index selects, for each place it can name,
 * between the new value and the old), except IR arrays (lower_var),
 * which get STOREs (lower_var_set). */
#include "lower_int.h"

#include <string.h>

/* `old` with components swz[0..n) replaced by those of `v`. */
static struct lv merge(struct lower *l, const struct lv *old, const struct lv *v, const uint8_t *swz,
		       int n)
{
	struct ir_src comps[4];
	for (int c = 0; c < old->rows; c++)
		comps[c] = lv_comp(old, 0, c);
	for (int i = 0; i < n; i++)
		comps[swz[i]] = lv_comp(v, 0, v->rows == 1 ? 0 : i);
	struct lv r = lv_vec(l, comps, old->rows);
	r.base = old->base;
	return r;
}

static struct lvar *store_target(struct lower *l, struct ast_node *e, struct sema_symbol *sym)
{
	(void)e;
	struct lvar *v = lower_var(l, sym);
	if (v)
		v->written = true;
	return v;
}

/* base[dyn] = v: every candidate selects between v and its old value;
 * an element never assigned takes v as it is (it is undefined, so v is
 * as good a value as any, and where dyn names it, the right one). */
static void store_dynamic(struct lower *l, struct ast_node *e, const struct lv *dyn, struct lv v)
{
	struct ast_node *base = e->kid[0];
	const struct glsl_type *bt = base->ty;
	if (bt->base == GLSL_ARRAY) {
		if (base->kind != AST_IDENT || !base->sym) {
			lower_store_agg(l, e, &v);
			return;
		}
		struct lvar *var = store_target(l, e, base->sym);
		if (var && var->array >= 0) {
			lower_var_set(l, var, 0, 1, dyn, &v);
			return;
		}
		for (int k = 0; var && k < var->nelems && !l->failed; k++) {
			var->elems[k] = lower_is_undef(l, &var->elems[k])
				? v : lower_select_lv(l, lower_index_is(l, dyn, k), &v, &var->elems[k]);
			if (k < 64)
				var->written_elems |= 1ull << k;
		}
		return;
	}
	struct lv old = lower_expr(l, base);
	if (glsl_is_matrix(bt)) {
		for (int k = 0; k < bt->cols; k++) {
			struct lv col = old, nv = v;
			col.ncols = nv.ncols = 1;
			col.col[0] = old.col[k];
			old.col[k] = lower_select_lv(l, lower_index_is(l, dyn, k), &nv, &col).col[0];
		}
		lower_store(l, base, old);
		return;
	}
	struct ir_src comps[4];
	for (int k = 0; k < bt->rows; k++) {
		struct ir_src s[3] = { lower_index_is(l, dyn, k), lv_comp(&v, 0, 0), lv_comp(&old, 0, k) };
		struct ir_instr *in = lv_build(l, IR_OP_SELECT, 1, 3, s);
		comps[k] = in ? ir_src_comp(in, 0) : s[2];
	}
	lower_store(l, base, lv_vec(l, comps, bt->rows));
}

void lower_store(struct lower *l, struct ast_node *e, struct lv v)
{
	if (l->failed)
		return;
	switch (e->kind) {
	case AST_IDENT: {
		if (!e->sym || e->sym->type->base == GLSL_ARRAY) {
			lower_refuse_lv(l, e, "assigning a whole array");
			return;
		}
		struct lvar *var = store_target(l, e, e->sym);
		if (var) {
			var->elems[0] = v;
			var->written_elems |= 1;
		}
		return;
	}
	case AST_FIELD: {
		if (!e->nswz) {
			lower_store_agg(l, e, &v);
			return;
		}
		struct lv old = lower_expr(l, e->kid[0]);
		lower_store(l, e->kid[0], merge(l, &old, &v, e->swz, e->nswz));
		return;
	}
	case AST_INDEX: {
		struct ast_node *base = e->kid[0], *idx = e->kid[1];
		int k;
		struct lv dyn;
		if (!lower_index_value(l, idx, &k, &dyn)) {
			store_dynamic(l, e, &dyn, v);
			return;
		}
		int len = base->ty->base == GLSL_ARRAY ? base->ty->length
			  : glsl_is_matrix(base->ty) ? base->ty->cols : base->ty->rows;
		if (k < 0 || k >= len)
			return; /* undefined in GLSL: the write is dropped */
		if (base->ty->base == GLSL_ARRAY) {
			if (base->kind != AST_IDENT || !base->sym) {
				lower_store_agg(l, e, &v);
				return;
			}
			struct lvar *var = store_target(l, e, base->sym);
			if (var && k < var->nelems)
				lower_var_set(l, var, k, 1, NULL, &v);
			return;
		}
		struct lv old = lower_expr(l, base);
		if (glsl_is_matrix(base->ty)) {
			old.col[k] = v.col[0];
			lower_store(l, base, old);
		} else {
			uint8_t swz[1] = { (uint8_t)k };
			lower_store(l, base, merge(l, &old, &v, swz, 1));
		}
		return;
	}
	default:
		lower_refuse_lv(l, e, "assigning to this expression");
		return;
	}
}

/* An l-value path with non-constant indexes: the variable, the constant
 * part of the leaf offset, and each non-constant index with the leaves
 * one step of it moves and the array length. */
enum { DYN_MAX_INDEXES = 8, DYN_MAX_CANDIDATES = 1024 };
struct dyn_path {
	struct sema_symbol *sym;
	int leaf;
	int n;
	struct lv idx[DYN_MAX_INDEXES];
	int stride[DYN_MAX_INDEXES], len[DYN_MAX_INDEXES];
	bool dropped;                /* a constant index out of range */
};

static bool dyn_path(struct lower *l, struct ast_node *e, struct dyn_path *p)
{
	if (e->kind == AST_IDENT) {
		p->sym = e->sym;
		return e->sym != NULL;
	}
	if (e->kind == AST_FIELD && !e->nswz) {
		if (!dyn_path(l, e->kid[0], p))
			return false;
		const struct glsl_type *st = e->kid[0]->ty;
		for (int i = 0; i < e->field && i < st->nfields; i++)
			p->leaf += lower_leaf_count(st->fields[i].type);
		return true;
	}
	if (e->kind != AST_INDEX || e->kid[0]->ty->base != GLSL_ARRAY || !dyn_path(l, e->kid[0], p))
		return false;
	const struct glsl_type *at = e->kid[0]->ty;
	int k, stride = lower_leaf_count(at->elem);
	struct lv dyn;
	if (lower_index_value(l, e->kid[1], &k, &dyn)) {
		if (k < 0 || k >= at->length)
			p->dropped = true; /* undefined in GLSL: nothing to add up */
		else
			p->leaf += k * stride;
		return true;
	}
	if (p->n == DYN_MAX_INDEXES)
		return false;
	p->idx[p->n] = dyn;
	p->stride[p->n] = stride;
	p->len[p->n++] = at->length;
	return true;
}

/* Each place the path can name, leaves pos .. pos + n - 1 of elems,
 * selects between the new value and its old one; touched[pos + i] set. */
static void select_places(struct lower *l, const struct dyn_path *p, long total, const struct lv *vals,
			  int n, struct lv *elems, int nelems, bool *touched)
{
	for (long c = 0; c < total && !l->failed; c++) {
		int pos = p->leaf;
		long rest = c;
		struct ir_src cond = { 0 };
		for (int j = 0; j < p->n; j++) {
			int k = (int)(rest % p->len[j]);
			rest /= p->len[j];
			pos += k * p->stride[j];
			struct ir_src is = lower_index_is(l, &p->idx[j], k);
			if (cond.def) {
				struct ir_src s[2] = { cond, is };
				struct ir_instr *a = lv_build(l, IR_OP_AND, 1, 2, s);
				is = a ? ir_src_comp(a, 0) : is;
			}
			cond = is;
		}
		if (pos < 0 || pos + n > nelems)
			continue;
		for (int i = 0; i < n; i++) {
			elems[pos + i] = cond.def ? lower_select_lv(l, cond, &vals[i], &elems[pos + i]) : vals[i];
			touched[pos + i] = true;
		}
	}
}

/* Stores through non-constant indexes: each place the path can name
 * selects between the new value and its old one.  A variable held in IR
 * arrays (an index inside an element is not constant) has its places
 * loaded, selected into and stored back, all at constant elements. */
static void store_dyn(struct lower *l, struct ast_node *e, const struct lv *vals)
{
	struct dyn_path p;
	memset(&p, 0, sizeof p);
	if (!dyn_path(l, e, &p)) {
		lower_refuse(l, e->loc, "assigning to this part of an array or struct is not supported yet");
		return;
	}
	long total = 1;
	for (int j = 0; j < p.n; j++)
		total *= p.len[j] > 0 ? p.len[j] : 1;
	if (total > DYN_MAX_CANDIDATES) {
		lower_refuse(l, e->loc, "this assignment can reach %ld places (non-constant indexes): "
			     "more than %d", total, DYN_MAX_CANDIDATES);
		return;
	}
	struct lvar *v = lower_var(l, p.sym);
	int n = lower_is_agg(e->ty) ? lower_leaf_count(e->ty) : 1;
	if (!v || p.dropped)
		return; /* out of range: undefined in GLSL, the write is dropped */
	v->written = true;
	struct lv *elems = v->elems;
	bool *touched = arena_alloc(l->f->arena, sizeof *touched * (size_t)v->nelems);
	if (v->array >= 0)
		elems = arena_alloc(l->f->arena, sizeof *elems * (size_t)v->nelems);
	if (!touched || !elems) {
		l->failed = true;
		return;
	}
	memset(touched, 0, sizeof *touched * (size_t)v->nelems);
	if (v->array >= 0) { /* the leaves the path can reach */
		int last = p.leaf + n;
		for (int j = 0; j < p.n; j++)
			last += (p.len[j] - 1) * p.stride[j];
		last = last < v->nelems ? last : v->nelems;
		memcpy(elems, v->elems, sizeof *elems * (size_t)v->nelems);
		if (p.leaf < last)
			lower_var_get(l, v, p.leaf, last - p.leaf, NULL, elems + p.leaf);
	}
	select_places(l, &p, total, vals, n, elems, v->nelems, touched);
	for (int i = 0; i < v->nelems; i++) {
		if (!touched[i])
			continue;
		if (v->array >= 0)
			lower_var_set(l, v, i, 1, NULL, &elems[i]);
		else if (i < 64)
			v->written_elems |= 1ull << i;
	}
}

/* Stores leaves into the variable an l-value path names. */
void lower_store_agg(struct lower *l, struct ast_node *e, const struct lv *vals)
{
	struct sema_symbol *sym;
	int leaf;
	struct lvar *v;
	struct lv dyn;
	bool has_dyn;
	int n = lower_is_agg(e->ty) ? lower_leaf_count(e->ty) : 1;
	if (lower_mem_path(l, e, &v, &leaf, &dyn, &has_dyn)) { /* an element of IR arrays */
		lower_var_set(l, v, leaf, n, has_dyn ? &dyn : NULL, vals);
		return;
	}
	if (!lower_path(e, &sym, &leaf)) {
		store_dyn(l, e, vals);
		return;
	}
	v = lower_var(l, sym);
	if (v && leaf + n <= v->nelems)
		lower_var_set(l, v, leaf, n, NULL, vals);
}
