/* Lowering of loops.  A `for` with a constant trip count (and no break or
 * continue) is unrolled, the counter a constant in each copy.  Any other
 * loop becomes an IR LOOP: PHIs at the head for the variables the loop
 * may assign (value before the loop, value at the end of the body, one
 * per CONTINUE), the exit test as an IF holding a BREAK, and PHIs after
 * the loop with one source per BREAK (ir.h). */
#include "lower_int.h"

#include <string.h>

enum { LOWER_MAX_UNROLL = 64, LOOP_MAX_EXITS = IR_MAX_SRCS, LOOP_MAX_CONTS = IR_MAX_SRCS - 2 };

struct lower_loop {
	int nv;                      /* variables that existed before the loop */
	bool *carried;               /* [nv]: has head PHIs */
	struct lv **breaks[LOOP_MAX_EXITS];
	int nbreaks;
	struct lv **conts[LOOP_MAX_CONTS];
	int nconts;
	struct ast_node *step;       /* for: lowered before each CONTINUE */
	bool is_do;
	struct sema_symbol *ret;     /* a function body run once: `return` breaks */
	bool once;
	struct lower_loop *outer;
};

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

/* --- unrolling --- */

static bool const_test(int op, float v, float end, bool *go)
{
	switch (op) {
	case '<': *go = v < end; return true;
	case '>': *go = v > end; return true;
	case AST_OP_LE: *go = v <= end; return true;
	case AST_OP_GE: *go = v >= end; return true;
	case AST_OP_NE: *go = v != end; return true;
	default: return false;
	}
}

/* Unrolls `for (T i = A; i OP B; i += C)`; false when the loop does not
 * have that shape or runs too long (nothing has been built then). */
static bool try_unroll(struct lower *l, struct ast_node *n)
{
	struct ast_node *init = n->kid[0], *cond = n->kid[1], *step = n->kid[2];
	struct ast_node *d = init && init->kind == AST_DECL ? init->kid[0] : NULL;
	struct sema_symbol *i = d ? d->sym : NULL;
	if (!i || d->next || !d->kid[1] || !d->kid[1]->cval || !glsl_is_scalar(i->type) ||
	    i->type->base == GLSL_BOOL || !cond || cond->kind != AST_BINARY || !step ||
	    cond->kid[0]->sym != i || !cond->kid[1]->cval || assigns(n->kid[3], i) ||
	    lower_has_jump(n->kid[3]))
		return false;
	float v = d->kid[1]->cval->v[0], end = cond->kid[1]->cval->v[0], inc;
	if (step->kind == AST_UNARY && step->kid[0]->sym == i && step->op >= AST_OP_PREINC)
		inc = step->op == AST_OP_PREINC || step->op == AST_OP_POSTINC ? 1 : -1;
	else if (step->kind == AST_ASSIGN && step->kid[0]->sym == i && step->kid[1]->cval &&
		 (step->op == '+' || step->op == '-'))
		inc = step->op == '+' ? step->kid[1]->cval->v[0] : -step->kid[1]->cval->v[0];
	else
		return false;
	/* count the trip first: a long loop is not unrolled */
	int trips = 0;
	bool go;
	for (float x = v; trips <= LOWER_MAX_UNROLL; x += inc, trips++)
		if (!const_test(cond->op, x, end, &go) || !go)
			break;
	if (trips > LOWER_MAX_UNROLL || !const_test(cond->op, v, end, &go))
		return false;
	i->lower_data = NULL;
	int nv_outer = l->nvars;
	struct lvar *var = lower_var(l, i);
	if (!var)
		return true;
	for (int k = 0; k < trips && !l->failed; k++, v += inc) {
		float x[4] = { v, v, v, v };
		var->elems[0] = lower_const(l, i->type, x);
		lower_stmt(l, n->kid[3]);
	}
	l->nvars = nv_outer; /* the counter is scoped to the loop */
	return true;
}

/* --- general loops --- */

/* The exit test: if (!cond) break; */
static void exit_unless(struct lower *l, struct ast_node *cond)
{
	if (!cond)
		return;
	if (cond->kind == AST_DECL) {
		lower_refuse(l, cond->loc, "a declaration as a loop condition is not supported yet");
		return;
	}
	struct lv c = lower_expr(l, cond);
	struct ir_src cs = lv_comp(&c, 0, 0);
	struct ir_instr *nc = lv_build(l, IR_OP_NOT, 1, 1, &cs);
	if (!nc)
		return;
	struct ir_cf *cf = ir_build_if(&l->b, ir_src_of(nc));
	if (!cf) {
		l->failed = true;
		return;
	}
	ir_builder_enter(&l->b, &cf->then_list, cf);
	struct ast_node brk = { .kind = AST_BREAK, .loc = cond->loc };
	lower_jump(l, &brk);
	ir_builder_after(&l->b, cf);
}

void lower_jump(struct lower *l, struct ast_node *n)
{
	struct lower_loop *lp = l->loop;
	if (!lp) {
		lower_refuse(l, n->loc, "'break' or 'continue' outside a loop");
		return;
	}
	bool brk = n->kind == AST_BREAK;
	if (!brk && lp->step) {
		lower_expr(l, lp->step); /* `continue` in a for loop runs the step */
	}
	if (!brk && lp->is_do) {
		lower_refuse(l, n->loc, "'continue' in a do-while loop is not supported yet");
		return;
	}
	if ((brk && lp->nbreaks == LOOP_MAX_EXITS) || (!brk && lp->nconts == LOOP_MAX_CONTS)) {
		lower_refuse(l, n->loc, "more than %d '%s' statements in one %s are not supported yet",
			     brk ? LOOP_MAX_EXITS - 1 : LOOP_MAX_CONTS,
			     lp->once ? "return" : brk ? "break" : "continue",
			     lp->once ? "function" : "loop");
		return;
	}
	struct lv **snap = lower_snapshot(l, lp->nv);
	if (!snap || !ir_build(&l->b, brk ? IR_OP_BREAK : IR_OP_CONTINUE, 0, IR_FLOAT, 0, NULL)) {
		l->failed = true;
		return;
	}
	if (brk)
		lp->breaks[lp->nbreaks++] = snap;
	else
		lp->conts[lp->nconts++] = snap;
}

/* Head PHIs: one per column of each element of each carried variable. */
static void make_head_phis(struct lower *l, struct lower_loop *lp)
{
	for (int i = 0; i < lp->nv && !l->failed; i++) {
		if (!lp->carried[i])
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

/* Fills the head PHIs' back-edge sources: end of body, then CONTINUEs. */
static void patch_head_phis(struct lower *l, struct lower_loop *lp, struct lv **head,
			    struct lv **end)
{
	for (int i = 0; i < lp->nv; i++) {
		if (!lp->carried[i])
			continue;
		struct lvar *v = l->vars[i];
		for (int e = 0; e < v->nelems; e++)
			for (int c = 0; c < head[i][e].ncols; c++) {
				struct ir_instr *phi = head[i][e].col[c].def;
				if (!phi || phi->op != IR_OP_PHI)
					continue;
				phi->src[1] = end[i][e].col[c];
				for (int k = 0; k < lp->nconts; k++)
					phi->src[2 + k] = lp->conts[k][i][e].col[c];
				phi->nsrc = (uint8_t)(2 + lp->nconts);
			}
	}
}

/* Exit PHIs after the loop: one source per BREAK. */
static void make_exit_phis(struct lower *l, struct lower_loop *lp)
{
	for (int i = 0; i < lp->nv && !l->failed; i++) {
		if (!lp->carried[i])
			continue;
		struct lvar *v = l->vars[i];
		for (int e = 0; e < v->nelems; e++) {
			struct lv *x = &v->elems[e];
			*x = lp->breaks[0][i][e];
			for (int c = 0; c < x->ncols; c++) {
				struct ir_src s[LOOP_MAX_EXITS];
				for (int k = 0; k < lp->nbreaks; k++)
					s[k] = lp->breaks[k][i][e].col[c];
				struct ir_instr *phi = lv_build(l, IR_OP_PHI, x->rows, lp->nbreaks, s);
				if (!phi)
					return;
				phi->base = x->base;
				x->col[c] = ir_src_of(phi);
			}
		}
	}
}

static void lower_general_loop(struct lower *l, struct ast_node *n)
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
	struct lower_loop lp;
	memset(&lp, 0, sizeof lp);
	lp.nv = l->nvars;
	lp.step = step;
	lp.is_do = n->kind == AST_DO;
	lp.outer = l->loop;
	lp.carried = arena_alloc(l->f->arena, sizeof *lp.carried * (size_t)(lp.nv ? lp.nv : 1));
	if (!lp.carried) {
		l->failed = true;
		return;
	}
	for (int i = 0; i < lp.nv; i++) {
		struct sema_symbol *s = l->vars[i]->sym;
		lp.carried[i] = assigns(body, s) || assigns(cond, s) || assigns(step, s);
	}
	struct ir_cf *cf = ir_build_loop(&l->b);
	if (!cf) {
		l->failed = true;
		return;
	}
	ir_builder_enter(&l->b, &cf->body, cf);
	make_head_phis(l, &lp);
	struct lv **head = lower_snapshot(l, lp.nv);
	l->loop = &lp;
	if (n->kind != AST_DO)
		exit_unless(l, cond);
	lower_stmt(l, body);
	if (n->kind == AST_FOR && step)
		lower_expr(l, step);
	if (n->kind == AST_DO)
		exit_unless(l, cond);
	l->loop = lp.outer;
	struct lv **end = lower_snapshot(l, lp.nv);
	if (l->failed || !head || !end) {
		l->failed = true;
		return;
	}
	if (lp.nbreaks == 0) {
		lower_refuse(l, n->loc, "a loop that never ends");
		return;
	}
	patch_head_phis(l, &lp, head, end);
	ir_builder_after(&l->b, cf);
	make_exit_phis(l, &lp);
	l->nvars = nv_outer;
}

/* A function body with a `return` before its end runs as a loop that
 * runs once: each return stores the value into `ret` and breaks. */
void lower_body_once(struct lower *l, struct ast_node *body, struct sema_symbol *ret)
{
	struct lower_loop lp;
	memset(&lp, 0, sizeof lp);
	lp.nv = l->nvars;
	lp.once = true;
	lp.ret = ret;
	lp.outer = l->loop;
	lp.carried = arena_alloc(l->f->arena, sizeof *lp.carried * (size_t)(lp.nv ? lp.nv : 1));
	struct ir_cf *cf = ir_build_loop(&l->b);
	if (!lp.carried || !cf) {
		l->failed = true;
		return;
	}
	for (int i = 0; i < lp.nv; i++)
		lp.carried[i] = true; /* returns may leave with any variable changed */
	ir_builder_enter(&l->b, &cf->body, cf);
	l->loop = &lp;
	lower_stmt(l, body);
	const struct ast_node *last = body->kind == AST_BLOCK ? body->kid[0] : body;
	while (last && last->next)
		last = last->next;
	if (!last || last->kind != AST_RETURN) {
		struct ast_node brk = { .kind = AST_BREAK, .loc = body->loc };
		lower_jump(l, &brk);
	}
	l->loop = lp.outer;
	if (l->failed)
		return;
	ir_builder_after(&l->b, cf);
	make_exit_phis(l, &lp);
}

void lower_return(struct lower *l, struct ast_node *n)
{
	struct lower_loop *lp = l->loop;
	if (!lp->once) {
		lower_refuse(l, n->loc, "'return' inside a loop is not supported yet");
		return;
	}
	if (n->kid[0] && lp->ret) {
		struct lvar *v = lower_var(l, lp->ret);
		if (v)
			v->elems[0] = lower_expr(l, n->kid[0]);
	}
	struct ast_node brk = { .kind = AST_BREAK, .loc = n->loc };
	lower_jump(l, &brk);
}

/* `for` loops with constant bounds are unrolled; anything else loops. */
void lower_loop(struct lower *l, struct ast_node *n)
{
	if (n->kind == AST_FOR && try_unroll(l, n))
		return;
	lower_general_loop(l, n);
}
