/* Values of arrays and structs: an aggregate expression's leaves (the
 * flattening is lower_base.c's), and stores of leaves through l-value
 * paths, constant or not. */
#include "lower_int.h"

#include <string.h>

void lower_effect(struct lower *l, struct ast_node *e)
{
	if (e->kind == AST_TERNARY && (e->ty->base == GLSL_VOID || lower_has_effects(l, e->kid[1]) ||
				       lower_has_effects(l, e->kid[2]))) {
		struct lv *tmp = arena_alloc(l->f->arena, sizeof *tmp * (size_t)lower_leaf_count(e->ty));
		if (tmp)
			lower_ternary_branch(l, e, tmp);
		return;
	}
	if (!lower_is_agg(e->ty)) {
		lower_expr(l, e);
		return;
	}
	struct lv *tmp = arena_alloc(l->f->arena, sizeof *tmp * (size_t)lower_leaf_count(e->ty));
	if (tmp)
		lower_agg(l, e, tmp);
	else
		l->failed = true;
}

/* Fills out[0 .. leaf_count(e->ty)) with the leaves of an aggregate. */
void lower_agg(struct lower *l, struct ast_node *e, struct lv *out)
{
	int n = lower_leaf_count(e->ty);
	struct sema_symbol *sym;
	int leaf;
	if (l->failed)
		goto zero;
	if (lower_path(e, &sym, &leaf)) {
		for (int i = 0; i < n; i++)
			out[i] = lower_load_var(l, e, sym, leaf + i, NULL);
		return;
	}
	switch (e->kind) {
	case AST_CALL:
		if (e->type) {
			int k = 0;
			for (struct ast_node *a = e->kid[0]; a && k < n; a = a->next) {
				if (lower_is_agg(a->ty)) {
					lower_agg(l, a, out + k);
					k += lower_leaf_count(a->ty);
				} else {
					out[k++] = lower_expr(l, a);
				}
			}
			return;
		}
		if (e->fn) {
			lower_call_user_agg(l, e, out);
			return;
		}
		break;
	case AST_ASSIGN:
		lower_agg(l, e->kid[1], out);
		lower_store_agg(l, e->kid[0], out);
		return;
	case AST_TERNARY: {
		if (lower_has_effects(l, e->kid[1]) || lower_has_effects(l, e->kid[2])) {
			for (int i = 0; i < n; i++)
				out[i] = lower_zero(l, lower_leaf_type(e->ty, i));
			lower_ternary_branch(l, e, out);
			return;
		}
		struct lv c = lower_expr(l, e->kid[0]);
		struct lv *b = arena_alloc(l->f->arena, sizeof *b * (size_t)(n ? n : 1));
		if (!b) {
			l->failed = true;
			goto zero;
		}
		lower_agg(l, e->kid[1], out);
		lower_agg(l, e->kid[2], b);
		for (int i = 0; i < n; i++)
			for (int col = 0; col < out[i].ncols; col++) {
				struct ir_src s[3] = { lv_comp(&c, 0, 0), out[i].col[col], b[i].col[col] };
				struct ir_instr *in = lv_build(l, IR_OP_SELECT, out[i].rows, 3, s);
				if (in)
					out[i].col[col] = ir_src_of(in);
			}
		return;
	}
	case AST_FIELD:
	case AST_INDEX:
		lower_agg_slice(l, e, out);
		return;
	case AST_BINARY:
		if (e->op == ',') {
			lower_effect(l, e->kid[0]);
			lower_agg(l, e->kid[1], out);
			return;
		}
		break;
	default:
		break;
	}
	lower_refuse(l, e->loc, "this use of an array or struct is not supported yet");
zero:
	for (int i = 0; i < n; i++)
		out[i] = lower_zero(l, lower_leaf_type(e->ty, i));
}

void lower_agg_slice(struct lower *l, struct ast_node *e, struct lv *out)
{
	struct ast_node *base = e->kid[0];
	const struct glsl_type *bt = base->ty;
	int n = lower_is_agg(e->ty) ? lower_leaf_count(e->ty) : 1;
	int nb = lower_leaf_count(bt);
	struct lv *all = lower_is_agg(bt) ? arena_alloc(l->f->arena, sizeof *all * (size_t)nb) : NULL;
	if (!all || (e->kind == AST_FIELD && e->nswz)) {
		lower_refuse(l, e->loc, "this use of an array or struct is not supported yet");
		goto zero;
	}
	lower_agg(l, base, all);
	if (e->kind == AST_FIELD) {
		int off = 0;
		for (int i = 0; i < e->field && i < bt->nfields; i++)
			off += lower_leaf_count(bt->fields[i].type);
		if (off + n > nb)
			goto zero;
		memcpy(out, all + off, sizeof *out * (size_t)n);
		return;
	}
	int k;
	struct lv dyn;
	if (bt->base != GLSL_ARRAY)
		goto zero;
	if (lower_index_value(l, e->kid[1], &k, &dyn)) {
		if (k < 0 || k >= bt->length)
			goto zero; /* undefined in GLSL: read 0 */
		memcpy(out, all + k * n, sizeof *out * (size_t)n);
		return;
	}
	/* a non-constant index: a compare/select chain over the elements */
	memcpy(out, all, sizeof *out * (size_t)n);
	for (int j = 1; j < bt->length && !l->failed; j++) {
		struct ir_src is = lower_index_is(l, &dyn, j);
		for (int i = 0; i < n; i++)
			out[i] = lower_select_lv(l, is, &all[j * n + i], &out[i]);
	}
	return;
zero:
	for (int i = 0; i < n; i++)
		out[i] = lower_zero(l, lower_is_agg(e->ty) ? lower_leaf_type(e->ty, i) : e->ty);
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

/* Stores through non-constant indexes: each place the path can name
 * selects between the new value and its old one. */
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
	for (long c = 0; c < total && !l->failed; c++) {
		int pos = p.leaf;
		long rest = c;
		struct ir_src cond = { 0 };
		for (int j = 0; j < p.n; j++) {
			int k = (int)(rest % p.len[j]);
			rest /= p.len[j];
			pos += k * p.stride[j];
			struct ir_src is = lower_index_is(l, &p.idx[j], k);
			if (cond.def) {
				struct ir_src s[2] = { cond, is };
				struct ir_instr *a = lv_build(l, IR_OP_AND, 1, 2, s);
				is = a ? ir_src_comp(a, 0) : is;
			}
			cond = is;
		}
		if (pos < 0 || pos + n > v->nelems)
			continue;
		for (int i = 0; i < n; i++) {
			v->elems[pos + i] = cond.def ? lower_select_lv(l, cond, &vals[i], &v->elems[pos + i])
						     : vals[i];
			if (pos + i < 64)
				v->written_elems |= 1ull << (pos + i);
		}
	}
}

/* Stores leaves into the variable an l-value path names. */
void lower_store_agg(struct lower *l, struct ast_node *e, const struct lv *vals)
{
	struct sema_symbol *sym;
	int leaf;
	if (!lower_path(e, &sym, &leaf)) {
		store_dyn(l, e, vals);
		return;
	}
	struct lvar *v = lower_var(l, sym);
	int n = lower_is_agg(e->ty) ? lower_leaf_count(e->ty) : 1;
	if (!v || leaf + n > v->nelems)
		return;
	v->written = true;
	for (int i = 0; i < n; i++) {
		v->elems[leaf + i] = vals[i];
		if (leaf + i < 64)
			v->written_elems |= 1ull << (leaf + i);
	}
}
