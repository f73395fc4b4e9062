/* Jumps as flags.  Each loop and each function body has a bool variable
 * `alive` (the rest of this iteration / body runs) and each loop an `exit`
 * (leave at the end of this iteration).  `break` clears alive and sets
 * exit, `continue` clears alive, `return` stores the value and does both
 * for every loop up to its function.  The statements after one that may
 * jump run under `if (alive)`.  The flags are variables like any other,
 * SSA-renamed, so ifs join them with PHIs and loops carry them: any number
 * of exits works with no BREAK or CONTINUE here (lower_loop.c adds one
 * BREAK per loop). */
#include "lower_int.h"

#include <string.h>

/* A break or continue for the innermost loop (not inside a nested loop). */
bool lower_has_jump(const struct ast_node *n)
{
	if (!n)
		return false;
	if (n->kind == AST_BREAK || n->kind == AST_CONTINUE || n->kind == AST_RETURN)
		return true;
	if (n->kind == AST_FOR || n->kind == AST_WHILE || n->kind == AST_DO || n->kind < AST_BLOCK)
		return false; /* a nested loop's jumps are its own */
	for (int i = 0; i < 4; i++)
		for (const struct ast_node *k = n->kid[i]; k; k = k->next) {
			if (lower_has_jump(k))
				return true;
			if (n->kind != AST_BLOCK)
				break;
		}
	return false;
}

/* A return anywhere in `n`, nested loops included. */
bool lower_has_return(const struct ast_node *n)
{
	if (!n)
		return false;
	if (n->kind == AST_RETURN)
		return true;
	if (n->kind < AST_BLOCK)
		return false; /* expressions */
	for (int i = 0; i < 4; i++)
		for (const struct ast_node *k = n->kid[i]; k; k = k->next) {
			if (lower_has_return(k))
				return true;
			if (n->kind != AST_BLOCK)
				break;
		}
	return false;
}

bool lower_may_jump(const struct ast_node *n)
{
	return lower_has_jump(n) || lower_has_return(n);
}

/* --- flags --- */

struct lv *lower_flag_value(struct sema_symbol *s)
{
	return &((struct lvar *)s->lower_data)->elems[0];
}

void lower_set_flag(struct lower *l, struct sema_symbol *s, bool v)
{
	if (s)
		*lower_flag_value(s) = lower_bool(l, v);
}

/* Is the flag a compile-time constant, and which? */
bool lower_flag_known(struct sema_symbol *s, bool *v)
{
	return lower_lv_known(lower_flag_value(s), v);
}

bool lower_is_flag(const struct lower *l, const struct sema_symbol *s)
{
	for (const struct lower_jctx *j = l->jc; j; j = j->outer)
		if (s == j->alive || s == j->exit || s == j->ret)
			return true;
	return false;
}

static struct sema_symbol *new_flag(struct lower *l, const char *name, bool v)
{
	struct sema_symbol *s = lower_temp(l, name, &glsl_type_bool);
	lower_set_flag(l, s, v);
	return s;
}

/* --- statement lists: what follows a jump runs under `if (alive)` --- */

static bool is_jump(const struct ast_node *s)
{
	return s->kind == AST_BREAK || s->kind == AST_CONTINUE || s->kind == AST_RETURN;
}

/* A run of statements first..last under one `if (alive)`. */
struct run {
	struct ast_node *first, *last;
};

static void run_arm(struct lower *l, void *ud)
{
	const struct run *r = ud;
	for (struct ast_node *s = r->first; s && !l->failed; s = s->next) {
		lower_stmt(l, s);
		if (s == r->last)
			break;
	}
}

/* The variables a run declares at its top level live on after it (the
 * statements after the run use them): they are made before its IF, and
 * their declarations inside only set them (lower_decl). */
static void hoist_decls(struct lower *l, const struct run *r)
{
	for (struct ast_node *s = r->first; s && !l->failed; s = s->next) {
		for (struct ast_node *d = s->kind == AST_DECL ? s->kid[0] : NULL; d; d = d->next) {
			if (!d->sym)
				continue;
			d->sym->lower_data = NULL;
			struct lvar *v = lower_var(l, d->sym);
			if (!v) {
				l->failed = true;
				return;
			}
			v->hoisted = true;
		}
		if (s == r->last)
			break;
	}
}

/* The statements after one that may jump run in runs, each up to the
 * next statement that may jump, each under `if (alive)`: one after the
 * other, not nested, so a thousand early returns nest no deeper than one. */
void lower_list(struct lower *l, struct ast_node *s)
{
	bool guarded = false; /* s runs only while alive */
	while (s && !l->failed) {
		if (!guarded) {
			lower_stmt(l, s);
			if (is_jump(s))
				return; /* what follows a jump never runs */
			guarded = l->jc && lower_may_jump(s);
			s = s->next;
			continue;
		}
		bool k;
		if (lower_flag_known(l->jc->alive, &k)) {
			if (!k)
				return;
			guarded = false;
			continue;
		}
		struct run r = { s, s };
		while (r.last->next && !is_jump(r.last) && !lower_may_jump(r.last))
			r.last = r.last->next;
		hoist_decls(l, &r);
		lower_branch(l, lv_comp(lower_flag_value(l->jc->alive), 0, 0), run_arm, &r, NULL, NULL);
		if (is_jump(r.last))
			return;
		s = r.last->next;
	}
}

void lower_stmt_arm(struct lower *l, void *ud)
{
	lower_stmt(l, ud);
}

/* --- jumps --- */

void lower_jump(struct lower *l, struct ast_node *n)
{
	struct lower_jctx *j = l->jc;
	if (!j || !j->is_loop) {
		lower_refuse(l, n->loc, "'break' or 'continue' outside a loop");
		return;
	}
	lower_set_flag(l, j->alive, false);
	if (n->kind == AST_BREAK)
		lower_set_flag(l, j->exit, true);
}

void lower_return(struct lower *l, struct ast_node *n)
{
	struct lower_jctx *fn = l->jc;
	while (fn && fn->is_loop)
		fn = fn->outer;
	if (!fn) {
		lower_refuse(l, n->loc, "'return' outside a function");
		return;
	}
	if (n->kid[0] && fn->ret) {
		struct lvar *v = fn->ret->lower_data;
		if (lower_is_agg(fn->ret->type))
			lower_agg(l, n->kid[0], v->elems);
		else
			v->elems[0] = lower_expr(l, n->kid[0]);
	}
	for (struct lower_jctx *j = l->jc; j; j = j->outer) {
		lower_set_flag(l, j->alive, false);
		if (!j->is_loop)
			break;
		lower_set_flag(l, j->exit, true);
	}
}

/* Pushes the context of a loop: alive and exit start true and false. */
void lower_push_loop(struct lower *l, struct lower_jctx *j)
{
	memset(j, 0, sizeof *j);
	j->is_loop = true;
	j->outer = l->jc;
	j->alive = new_flag(l, "<alive>", true);
	j->exit = new_flag(l, "<exit>", false);
	if (!l->failed)
		l->jc = j;
}

/* A function body: `return` stores into a variable of the return type
 * and clears the body's `alive` flag. */
void lower_function_body(struct lower *l, struct ast_node *body, const struct glsl_type *ret,
			 struct lv *result)
{
	struct lower_jctx fn;
	memset(&fn, 0, sizeof fn);
	int nv = l->nvars;
	struct lower_jctx *saved = l->jc;
	l->jc = NULL; /* the callee's returns are its own */
	fn.alive = new_flag(l, "<alive>", true);
	if (ret->base != GLSL_VOID && ret->base != GLSL_ERROR)
		fn.ret = lower_temp(l, "<return value>", ret);
	if (!l->failed) {
		l->jc = &fn;
		lower_stmt(l, body);
	}
	if (fn.ret && !l->failed) {
		struct lvar *v = fn.ret->lower_data;
		memcpy(result, v->elems, sizeof *result * (size_t)v->nelems);
	}
	l->jc = saved;
	l->nvars = nv;
}

