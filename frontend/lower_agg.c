/* Values of arrays and structs: an aggregate expression's leaves (the
 * flattening is lower_base.c's; their stores are lower_store.c's). */
#include "lower_int.h"

#include <string.h>

/* A call of a user function returning an array or struct: its leaves. */
static void lower_call_user_agg(struct lower *l, struct ast_node *call, struct lv *out)
{
	const struct glsl_type *t = call->fn->ret;
	for (int i = 0; i < lower_leaf_count(t); i++)
		out[i] = lower_zero(l, lower_leaf_type(t, i));
	lower_inline_call(l, call, out);
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
	struct lvar *v;
	struct lv dyn;
	bool has_dyn;
	if (lower_mem_path(l, e, &v, &leaf, &dyn, &has_dyn)) { /* an element of IR arrays */
		lower_var_get(l, v, leaf, n, has_dyn ? &dyn : NULL, out);
		return;
	}
	if (lower_uniform_path(l, e, &sym, &leaf, &dyn, &has_dyn)) { /* indexed uniform loads */
		for (int i = 0; i < n; i++)
			out[i] = lower_load_var(l, e, sym, leaf + i, has_dyn ? &dyn : NULL);
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
	lower_select_dynamic(l, &dyn, all, bt->length, n, out);
	return;
zero:
	for (int i = 0; i < n; i++)
		out[i] = lower_zero(l, lower_is_agg(e->ty) ? lower_leaf_type(e->ty, i) : e->ty);
}
