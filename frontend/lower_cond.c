/* Expressions that choose what runs: `?:`, the right side of `&&` and
 * `||`, and expressions evaluated for their effects only.  Pure sides are
 * both computed and selected (SELECT); a side with effects (assignments,
 * ++/--, calls of user functions that write globals or out parameters or
 * discard) runs under an IF, as the specs require, its value joined
 * through a temporary. */
#include "lower_int.h"

#include <string.h>

static bool call_has_effects(struct lower *l, const struct ast_node *call);

/* Calls in `n`: their functions' effects known first (before stamping). */
static bool calls_have_effects(struct lower *l, const struct ast_node *n)
{
	for (; n; n = n->next) {
		if (n->kind == AST_CALL && n->fn && call_has_effects(l, n))
			return true;
		for (int i = 0; i < 4; i++)
			if (calls_have_effects(l, n->kid[i]))
				return true;
	}
	return false;
}

/* Marks the symbols `n` declares with `stamp`. */
static void stamp_decls(struct ast_node *n, unsigned stamp)
{
	for (; n; n = n->next) {
		if (n->kind == AST_DECLARATOR && n->sym)
			n->sym->lower_stamp = stamp;
		for (int i = 0; i < 4; i++)
			stamp_decls(n->kid[i], stamp);
	}
}

/* A discard, or an assignment to what `stamp` does not mark (a global). */
static bool writes_outside(const struct ast_node *n, unsigned stamp)
{
	for (; n; n = n->next) {
		if (n->kind == AST_DISCARD)
			return true;
		if (n->kind == AST_ASSIGN || (n->kind == AST_UNARY && n->op >= AST_OP_PREINC)) {
			const struct ast_node *t = n->kid[0];
			while (t && (t->kind == AST_FIELD || t->kind == AST_INDEX))
				t = t->kid[0];
			if (!t || !t->sym || t->sym->lower_stamp != stamp)
				return true;
		}
		for (int i = 0; i < 4; i++)
			if (writes_outside(n->kid[i], stamp))
				return true;
	}
	return false;
}

/* A call has effects when it writes an out or inout argument, or its
 * function (or one it calls) writes a global or discards. */
static bool call_has_effects(struct lower *l, const struct ast_node *call)
{
	struct sema_function *f = call->fn;
	for (int k = 0; k < f->nparams; k++)
		if (f->params[k].qual == AST_STORAGE_OUT || f->params[k].qual == AST_STORAGE_INOUT)
			return true;
	if (f->lower_effects)
		return f->lower_effects == 2;
	struct ast_node *body = f->def ? f->def->kid[1] : NULL;
	bool effects = !body || calls_have_effects(l, body);
	if (!effects) {
		unsigned stamp = ++l->stamp;
		for (int k = 0; k < f->nparams; k++)
			if (f->params[k].sym)
				f->params[k].sym->lower_stamp = stamp;
		stamp_decls(body, stamp);
		effects = writes_outside(body, stamp);
	}
	f->lower_effects = effects ? 2 : 1;
	return effects;
}

bool lower_has_effects(struct lower *l, const struct ast_node *e)
{
	if (!e)
		return false;
	if (e->kind == AST_ASSIGN || (e->kind == AST_UNARY && e->op >= AST_OP_PREINC) ||
	    (e->kind == AST_CALL && e->fn && call_has_effects(l, e)))
		return true;
	for (int i = 0; i < 4; i++)
		for (const struct ast_node *k = e->kid[i]; k; k = k->next)
			if (lower_has_effects(l, k))
				return true;
	return false;
}

/* An expression statement, the left of ',', a for's step: only what they
 * change matters; a ?: with effects runs one side. */
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

/* One side of a branch: its value into a temporary. */
struct pick {
	struct ast_node *e;
	struct sema_symbol *tmp;
};

static void pick_arm(struct lower *l, void *ud)
{
	struct pick *p = ud;
	struct lvar *v = p->tmp ? p->tmp->lower_data : NULL;
	if (!v)
		lower_effect(l, p->e);
	else if (lower_is_agg(p->tmp->type))
		lower_agg(l, p->e, v->elems);
	else
		v->elems[0] = lower_expr(l, p->e);
}

/* Runs `then` / `otherwise` (NULL: nothing) under `c`, the value of the
 * one that ran (or the temporary's start value `init`) into out. */
static void pick(struct lower *l, struct ir_src c, struct ast_node *then, struct ast_node *otherwise,
		 const struct glsl_type *t, const struct lv *init, struct lv *out)
{
	struct sema_symbol *tmp = NULL;
	if (t->base != GLSL_VOID) {
		tmp = lower_temp(l, "<pick>", t);
		if (!tmp)
			return;
		if (init)
			((struct lvar *)tmp->lower_data)->elems[0] = *init;
	}
	int nv = l->nvars;
	struct pick a = { then, tmp }, b = { otherwise, tmp };
	lower_branch(l, c, then ? pick_arm : NULL, &a, otherwise ? pick_arm : NULL, &b);
	if (!tmp || l->failed)
		return;
	struct lvar *v = tmp->lower_data;
	memcpy(out, v->elems, sizeof *out * (size_t)v->nelems);
	if (nv > 0 && l->vars[nv - 1] == v)
		l->nvars = nv - 1; /* the temporary is done */
}

void lower_ternary_branch(struct lower *l, struct ast_node *e, struct lv *out)
{
	struct lv c = lower_expr(l, e->kid[0]);
	if (!l->failed)
		pick(l, lv_comp(&c, 0, 0), e->kid[1], e->kid[2], e->ty, NULL, out);
}

struct lv lower_ternary(struct lower *l, struct ast_node *e)
{
	if (!glsl_is_basic(e->ty))
		return lower_refuse_lv(l, e, "'?:' on arrays or structs");
	if (lower_has_effects(l, e->kid[1]) || lower_has_effects(l, e->kid[2])) {
		struct lv r = lower_zero(l, e->ty);
		lower_ternary_branch(l, e, &r);
		return r;
	}
	struct lv c = lower_expr(l, e->kid[0]);
	struct lv a = lower_expr(l, e->kid[1]);
	struct lv b = lower_expr(l, e->kid[2]);
	struct lv r = a;
	for (int col = 0; col < a.ncols; col++) {
		struct ir_src s[3] = { lv_comp(&c, 0, 0), a.col[col], b.col[col] };
		struct ir_instr *in = lv_build(l, IR_OP_SELECT, a.rows, 3, s);
		if (!in)
			return r;
		r.col[col] = ir_src_of(in);
	}
	return r;
}

/* a && b, a || b: b runs only when it decides (when it has effects). */
struct lv lower_short_circuit(struct lower *l, struct ast_node *e)
{
	struct lv a = lower_expr(l, e->kid[0]);
	struct lv r = lower_bool(l, e->op == AST_OP_OR);
	if (l->failed)
		return r;
	if (e->op == AST_OP_AND)
		pick(l, lv_comp(&a, 0, 0), e->kid[1], NULL, &glsl_type_bool, &r, &r);
	else
		pick(l, lv_comp(&a, 0, 0), NULL, e->kid[1], &glsl_type_bool, &r, &r);
	return r;
}

