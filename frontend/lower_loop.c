/* Lowering of loops.  Jumps inside are flags (lower_jump.c), so a loop's
 * IR has at most two BREAKs and no CONTINUE:
 *
 *     loop { if (!cond) break;  body;  step;  if (exit) break; }
 *
 * (a do-while: loop { body; if (!exit) exit = !cond; if (exit) break; }).
 * The step runs on every pass, and the last BREAK leaves with the values
 * from before it, as if it had not run.
 * The test first, as its own BREAK, leaves the body unconditional: the
 * backend needs no select per carried value for the pass that ends the
 * loop, and finds the counter of a `for` as in a loop without jumps.
 * A loop without jumps keeps the plain form `loop { if (!cond) break;
 * body; step }`.  Every loop stays a loop, a `for` with a constant trip
 * count too: unrolling is ir/opt_loop_unroll.c's choice (and a candidate
 * may keep loops).  Variables the loop may assign get PHIs at the head
 * (value before the loop, value at the end of the body) and after the
 * loop (one source: the single BREAK). */
#include "lower_int.h"

#include <string.h>

static const struct ast_node *lvalue_root(const struct ast_node *t)
{
	while (t && (t->kind == AST_FIELD || t->kind == AST_INDEX))
		t = t->kid[0];
	return t;
}

/* May `n` assign `sym`?  Calls of user functions may assign anything. */
static bool assigns(const struct ast_node *n, const struct sema_symbol *sym)
{
	if (!n)
		return false;
	if (n->kind == AST_ASSIGN || (n->kind == AST_UNARY && n->op >= AST_OP_PREINC)) {
		const struct ast_node *t = lvalue_root(n->kid[0]);
		if (t && t->sym == sym)
			return true;
	}
	if (n->kind == AST_CALL && n->fn)
		return true;
	for (int i = 0; i < 4; i++)
		for (const struct ast_node *k = n->kid[i]; k; k = k->next) {
			if (assigns(k, sym))
				return true;
			if (n->kind != AST_BLOCK && n->kind != AST_CALL)
				break;
		}
	return false;
}

/* --- general loops --- */

struct loop_state {
	int nv;                      /* variables that existed before the loop */
	bool *carried;               /* [nv]: has head PHIs */
	struct lv **brk[2];          /* values at each BREAK, in program order */
	int nbrk;
};

/* A loop condition's value: an expression or `bool b = expr`. */
static struct lv cond_value(struct lower *l, struct ast_node *cond)
{
	if (cond->kind != AST_DECL)
		return lower_expr(l, cond);
	lower_stmt(l, cond);
	struct ast_node *d = cond->kid[0];
	if (l->failed || !d || !d->sym || !d->sym->lower_data)
		return lower_bool(l, false);
	return *lower_flag_value(d->sym);
}

/* `if (c) break;` with the values there (or `snap`, the values at an
 * earlier point of the pass) recorded for the exit PHIs. */
static void break_if_with(struct lower *l, struct loop_state *ls, struct ir_src c,
			  struct lv **snap)
{
	struct ir_cf *cf = ir_build_if(&l->b, c);
	if (!cf) {
		l->failed = true;
		return;
	}
	ir_builder_enter(&l->b, &cf->then_list, cf);
	if (!snap)
		snap = lower_snapshot(l, ls->nv);
	if (!snap || ls->nbrk >= 2 || !ir_build(&l->b, IR_OP_BREAK, 0, IR_FLOAT, 0, NULL))
		l->failed = true;
	else
		ls->brk[ls->nbrk++] = snap;
	ir_builder_after(&l->b, cf);
}

static void break_if(struct lower *l, struct loop_state *ls, struct ir_src c)
{
	break_if_with(l, ls, c, NULL);
}

/* The plain form's exit test: if (!cond) break; */
static void exit_unless(struct lower *l, struct loop_state *ls, struct ast_node *cond)
{
	struct lv c = cond_value(l, cond);
	struct ir_instr *nc = lower_not(l, &c);
	if (nc)
		break_if(l, ls, ir_src_of(nc));
}

/* Head PHIs: one per column of each element of each carried variable. */
static void make_head_phis(struct lower *l, struct loop_state *ls)
{
	for (int i = 0; i < ls->nv && !l->failed; i++) {
		if (!ls->carried[i])
			continue;
		struct lvar *v = l->vars[i];
		for (int e = 0; e < v->nelems; e++) {
			struct lv *x = &v->elems[e];
			for (int c = 0; c < x->ncols; c++) {
				struct ir_src s[2] = { x->col[c], x->col[c] };
				struct ir_instr *phi = lv_build(l, IR_OP_PHI, x->rows, 2, s);
				if (!phi)
					return;
				phi->base = x->base;
				x->col[c] = ir_src_of(phi);
			}
		}
	}
}

/* Fills the head PHIs' back-edge sources with the end of the body. */
static void patch_head_phis(struct lower *l, struct loop_state *ls, struct lv **head,
			    struct lv **end)
{
	for (int i = 0; i < ls->nv; i++) {
		if (!ls->carried[i])
			continue;
		struct lvar *v = l->vars[i];
		for (int e = 0; e < v->nelems; e++)
			for (int c = 0; c < head[i][e].ncols; c++) {
				struct ir_instr *phi = head[i][e].col[c].def;
				if (phi && phi->op == IR_OP_PHI)
					phi->src[1] = end[i][e].col[c];
			}
	}
}

/* Exit PHIs after the loop: one source per BREAK. */
static void make_exit_phis(struct lower *l, struct loop_state *ls)
{
	for (int i = 0; i < ls->nv && !l->failed; i++) {
		if (!ls->carried[i])
			continue;
		struct lvar *v = l->vars[i];
		for (int e = 0; e < v->nelems; e++) {
			struct lv *x = &v->elems[e];
			*x = ls->brk[0][i][e];
			for (int c = 0; c < x->ncols; c++) {
				struct ir_src srcs[2];
				for (int b = 0; b < ls->nbrk; b++)
					srcs[b] = ls->brk[b][i][e].col[c];
				struct ir_instr *phi = lv_build(l, IR_OP_PHI, x->rows, ls->nbrk, srcs);
				if (!phi)
					return;
				phi->base = x->base;
				x->col[c] = ir_src_of(phi);
			}
		}
	}
}

/* The do-while test after a body that may jump: if (!exit) exit = !cond; */
struct do_test {
	struct ast_node *cond;
	struct sema_symbol *exit;
};

static void do_test_arm(struct lower *l, void *ud)
{
	struct do_test *t = ud;
	struct lv c = cond_value(l, t->cond);
	struct ir_instr *nc = lower_not(l, &c);
	if (nc)
		*lower_flag_value(t->exit) = lv_of(nc);
}

/* The body of a loop that may jump: the test's BREAK first (for and
 * while), the flags' BREAK at the end. */
static void flagged_body(struct lower *l, struct loop_state *ls, struct ast_node *n,
			 struct ast_node *cond, struct ast_node *body, struct ast_node *step)
{
	struct lower_jctx j;
	lower_push_loop(l, &j);
	if (l->failed)
		return;
	bool tested = cond && n->kind != AST_DO;
	if (tested)
		exit_unless(l, ls, cond);
	lower_stmt(l, body);
	bool ex;
	bool known = lower_flag_known(j.exit, &ex);
	struct lv **before_step = NULL;
	if (step && !(known && ex)) {
		/* `continue` runs the step, `break` does not: the step runs
		 * every pass, and a pass that breaks leaves with the values from
		 * before it (so that the counter of a `for` is a plain i + 1) */
		if (!known && !(before_step = lower_snapshot(l, ls->nv)))
			return;
		lower_effect(l, step);
	}
	if (n->kind == AST_DO && cond) {
		struct do_test t = { cond, j.exit };
		known = lower_flag_known(j.exit, &ex);
		if (!known)
			lower_branch(l, lv_comp(lower_flag_value(j.exit), 0, 0), NULL, NULL, do_test_arm, &t);
		else if (!ex)
			do_test_arm(l, &t);
	}
	l->jc = j.outer;
	if (l->failed)
		return;
	if (lower_flag_known(j.exit, &ex) && !ex) { /* the body never breaks */
		if (!tested)
			lower_refuse(l, n->loc, "a loop that never ends");
		return;
	}
	break_if_with(l, ls, lv_comp(lower_flag_value(j.exit), 0, 0), before_step);
}

/* Opens a loop: its cf node, the head PHIs of the variables
 * `carried` marks (of those existing now) and their values there in
 * *head; false when it failed. */
static bool loop_open(struct lower *l, struct loop_state *ls, bool *carried, struct ir_cf **cf,
		      struct lv ***head)
{
	memset(ls, 0, sizeof *ls);
	ls->nv = l->nvars;
	ls->carried = carried;
	*cf = ir_build_loop(&l->b);
	if (!*cf) {
		l->failed = true;
		return false;
	}
	ir_builder_enter(&l->b, &(*cf)->body, *cf);
	make_head_phis(l, ls);
	*head = lower_snapshot(l, ls->nv);
	return true;
}

/* Closes a loop opened by loop_open: the back edges of the head PHIs,
 * then the exit PHIs after it. */
static void loop_close(struct lower *l, struct loop_state *ls, struct ir_cf *cf, struct lv **head)
{
	struct lv **end = lower_snapshot(l, ls->nv);
	if (l->failed || !head || !end || !ls->nbrk) {
		l->failed = true;
		return;
	}
	patch_head_phis(l, ls, head, end);
	ir_builder_after(&l->b, cf);
	make_exit_phis(l, ls);
}

static bool *carried_array(struct lower *l)
{
	bool *c = arena_alloc(l->f->arena, sizeof *c * (size_t)(l->nvars ? l->nvars : 1));
	if (!c)
		l->failed = true;
	return c;
}

void lower_loop(struct lower *l, struct ast_node *n)
{
	struct ast_node *cond, *body, *step = NULL;
	int nv_outer = l->nvars; /* the for's own counter ends with the loop */
	if (n->kind == AST_FOR) {
		lower_stmt(l, n->kid[0]);
		cond = n->kid[1];
		step = n->kid[2];
		body = n->kid[3];
	} else if (n->kind == AST_WHILE) {
		cond = n->kid[0];
		body = n->kid[1];
	} else {
		cond = n->kid[1];
		body = n->kid[0];
	}
	if (l->failed)
		return;
	bool *carried = carried_array(l);
	if (!carried)
		return;
	bool jumps = lower_may_jump(body);
	bool returns = lower_has_return(body);
	for (int i = 0; i < l->nvars; i++) {
		struct sema_symbol *s = l->vars[i]->sym;
		if (lower_is_flag(l, s)) /* only a return changes an outer loop's flags */
			carried[i] = returns;
		else /* an IR array's elements are memory: no PHIs */
			carried[i] = l->vars[i]->array < 0 &&
				     (assigns(body, s) || assigns(cond, s) || assigns(step, s));
	}
	struct loop_state ls;
	struct ir_cf *cf;
	struct lv **head;
	if (!loop_open(l, &ls, carried, &cf, &head))
		return;
	if (jumps) {
		flagged_body(l, &ls, n, cond, body, step);
	} else {
		if (n->kind != AST_DO && cond)
			exit_unless(l, &ls, cond);
		lower_stmt(l, body);
		if (step)
			lower_effect(l, step);
		if (n->kind == AST_DO && cond)
			exit_unless(l, &ls, cond);
		if (!l->failed && !ls.nbrk)
			lower_refuse(l, n->loc, "a loop that never ends");
	}
	loop_close(l, &ls, cf, head);
	l->nvars = nv_outer;
}

void lower_flagged_loop(struct lower *l, const bool *carried_in, lower_arm_fn body, void *ud,
			struct src_loc loc)
{
	bool *carried = carried_array(l);
	if (!carried)
		return;
	memcpy(carried, carried_in, sizeof *carried * (size_t)l->nvars);
	int nv_outer = l->nvars;
	struct loop_state ls;
	struct ir_cf *cf;
	struct lv **head;
	if (!loop_open(l, &ls, carried, &cf, &head))
		return;
	struct lower_jctx j;
	lower_push_loop(l, &j);
	if (l->failed)
		return;
	body(l, ud);
	l->jc = j.outer;
	bool ex;
	if (!l->failed && lower_flag_known(j.exit, &ex) && !ex) {
		lower_refuse(l, loc, "a loop that never ends");
		return;
	}
	if (!l->failed)
		break_if(l, &ls, lv_comp(lower_flag_value(j.exit), 0, 0));
	loop_close(l, &ls, cf, head);
	l->nvars = nv_outer;
}
