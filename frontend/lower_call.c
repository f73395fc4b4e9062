/* Calls of user functions, inlined: the arguments are evaluated, the
 * parameters bound as variables, the body lowered in place (statements
 * again: this is where an expression leads back to statements), and out
 * and inout arguments copied back. */
#include "lower_int.h"

#include <string.h>

/* The l-value of an out or inout argument, fixed before the call (GLSL
 * 1.20 6.1.1): a copy of its path whose non-constant indexes are read now,
 * in order, into temporaries, so that the copy-back after the call writes
 * where the argument pointed when it was evaluated. */
static struct ast_node *capture_lvalue(struct lower *l, struct ast_node *e)
{
	if (l->failed || !e || (e->kind != AST_INDEX && e->kind != AST_FIELD) || !e->kid[0] ||
	    (e->kind == AST_INDEX && !e->kid[1]))
		return e;
	struct ast_node *c = arena_alloc(l->f->arena, sizeof *c);
	if (!c) {
		l->failed = true;
		return e;
	}
	*c = *e;
	c->kid[0] = capture_lvalue(l, e->kid[0]);
	if (e->kind != AST_INDEX || e->kid[1]->cval || !e->kid[1]->ty)
		return c;
	struct ast_node *idx = arena_alloc(l->f->arena, sizeof *idx);
	struct sema_symbol *t = lower_temp(l, "<index>", e->kid[1]->ty);
	if (!idx || !t) {
		l->failed = true;
		return e;
	}
	struct lv v = lower_expr(l, e->kid[1]);
	((struct lvar *)t->lower_data)->elems[0] = v;
	*idx = *e->kid[1];
	idx->kind = AST_IDENT;
	idx->name = t->name;
	idx->sym = t;
	memset(idx->kid, 0, sizeof idx->kid);
	idx->next = NULL;
	c->kid[1] = idx;
	return c;
}

/* Inlines a call; the return value's leaves go to `result`, which holds
 * zeros of the return type (or one float for void). */
void lower_inline_call(struct lower *l, struct ast_node *call, struct lv *result)
{
	struct sema_function *f = call->fn;
	if (!f->def) {
		lower_refuse(l, call->loc, "function '%s' is declared but never defined", f->name);
		return;
	}
	const struct limits *lim = &l->fe->limits;
	if (++l->inline_depth > lim->v[LIMIT_CALL_DEPTH]) {
		if (!l->quiet)
			limit_error(l->fe->diag, call->loc, lim, LIMIT_CALL_DEPTH, l->inline_depth);
		l->failed = true;
		l->inline_depth--;
		return;
	}
	struct ast_node *body = f->def->kid[1];
	int nv_before_call = l->nvars; /* parameters and locals end with the call */
	/* arguments are evaluated first, then bound: a parameter may share its
	 * name with a variable an argument reads */
	struct lv *args[f->nparams ? f->nparams : 1];
	struct ast_node *places[f->nparams ? f->nparams : 1];
	int k = 0;
	for (struct ast_node *next, *a = call->kid[0]; a && k < f->nparams; a = next, k++) {
		const struct glsl_type *pt = f->params[k].type;
		enum ast_storage q = f->params[k].qual;
		next = a->next;
		places[k] = a;
		if (q == AST_STORAGE_OUT || q == AST_STORAGE_INOUT)
			a = places[k] = capture_lvalue(l, a);
		int n = lower_leaf_count(pt);
		args[k] = arena_alloc(l->f->arena, sizeof(struct lv) * (size_t)n);
		if (!args[k]) {
			l->failed = true;
			return;
		}
		if (pt->base == GLSL_SAMPLER) {
			args[k][0] = lower_sampler(l, a);
			if (args[k][0].rows == 0xff) {
				lower_refuse(l, a->loc, "this sampler argument is not supported yet");
				return;
			}
		} else if (q == AST_STORAGE_OUT)
			for (int i = 0; i < n; i++)
				args[k][i] = lower_zero(l, lower_leaf_type(pt, i));
		else if (lower_is_agg(pt))
			lower_agg(l, a, args[k]);
		else
			args[k][0] = lower_expr(l, a);
	}
	int nargs = k;
	for (k = 0; k < nargs; k++) {
		struct sema_symbol *p = f->params[k].sym;
		if (!p)
			continue;
		p->lower_data = NULL;
		struct lvar *v = lower_var(l, p);
		if (v)
			lower_var_set(l, v, 0, v->nelems, NULL, args[k]);
	}
	struct src_loc saved_loc = l->b.loc;
	lower_function_body(l, body, f->ret, result);
	l->b.loc = saved_loc;
	for (k = 0; k < nargs && !l->failed; k++) {
		struct ast_node *a = places[k];
		enum ast_storage q = f->params[k].qual;
		struct sema_symbol *p = f->params[k].sym;
		if ((q == AST_STORAGE_OUT || q == AST_STORAGE_INOUT) && p && p->lower_data) {
			struct lvar *pv = p->lower_data;
			struct lv *vals = pv->elems;
			if (pv->array >= 0 && (vals = arena_alloc(l->f->arena, sizeof *vals *
								  (size_t)pv->nelems)) != NULL)
				lower_var_get(l, pv, 0, pv->nelems, NULL, vals);
			if (!vals)
				l->failed = true;
			else if (lower_is_agg(p->type))
				lower_store_agg(l, a, vals);
			else
				lower_store(l, a, pv->elems[0]);
		}
	}
	l->inline_depth--;
	l->nvars = nv_before_call;
}
