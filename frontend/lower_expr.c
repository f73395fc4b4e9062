/* Lowering of expressions of basic types: operators with GLSL's typing
 * (broadcast, linear algebra), swizzles, indexes, constructors and calls. */
#include "lower_int.h"

#include <string.h>

/* --- loads --- */

/* A struct member or array element reached through members: loaded by
 * its leaf when the path is constant or only the index on a variable
 * held in IR arrays or on a member-major uniform array of structs is not,
 * else sliced from the whole value. */
static struct lv load_member(struct lower *l, struct ast_node *e)
{
	struct sema_symbol *sym;
	int leaf;
	if (lower_path(e, &sym, &leaf))
		return lower_load_var(l, e, sym, leaf, NULL);
	struct lvar *v;
	struct lv r, dyn;
	bool has_dyn;
	if (lower_mem_path(l, e, &v, &leaf, &dyn, &has_dyn)) { /* an element of IR arrays */
		lower_var_get(l, v, leaf, 1, has_dyn ? &dyn : NULL, &r);
		return r;
	}
	if (lower_uniform_path(l, e, &sym, &leaf, &dyn, &has_dyn)) /* one indexed load */
		return lower_load_var(l, e, sym, leaf, has_dyn ? &dyn : NULL);
	lower_agg_slice(l, e, &r);
	return r;
}

/* --- operators --- */

static int ncomp_total(const struct lv *v)
{
	return v->ncols * v->rows;
}

/* Component-wise binary op with scalar broadcast, column by column. */
static struct lv compwise2(struct lower *l, enum ir_op op, const struct lv *a, const struct lv *b)
{
	const struct lv *shape = ncomp_total(a) >= ncomp_total(b) ? a : b;
	struct lv r = *shape;
	for (int c = 0; c < shape->ncols; c++) {
		struct ir_src s[2] = {
			a->ncols == 1 && a->rows == 1 ? lv_comp(a, 0, 0) : a->col[c],
			b->ncols == 1 && b->rows == 1 ? lv_comp(b, 0, 0) : b->col[c],
		};
		struct ir_instr *in = lv_build(l, op, shape->rows, 2, s);
		if (!in)
			return r;
		r.col[c] = ir_src_of(in);
		r.base = in->base;
	}
	return r;
}

static struct lv compwise1(struct lower *l, enum ir_op op, const struct lv *a)
{
	struct lv r = *a;
	for (int c = 0; c < a->ncols; c++) {
		struct ir_instr *in = lv_build(l, op, a->rows, 1, &a->col[c]);
		if (!in)
			return r;
		r.col[c] = ir_src_of(in);
		r.base = in->base;
	}
	return r;
}

static struct ir_instr *dot(struct lower *l, struct ir_src a, struct ir_src b, int n)
{
	static const enum ir_op ops[5] = { IR_OP_MUL, IR_OP_MUL, IR_OP_DOT2, IR_OP_DOT3, IR_OP_DOT4 };
	struct ir_src s[2] = { a, b };
	return lv_build(l, ops[n], 1, 2, s);
}

/* matrix * vector: sum of columns scaled by the vector's components */
static struct lv mat_times_vec(struct lower *l, const struct lv *m, const struct lv *v)
{
	struct ir_instr *acc = NULL;
	for (int c = 0; c < m->ncols; c++) {
		struct ir_src k = lv_comp(v, 0, c);
		if (!acc) {
			struct ir_src s[2] = { m->col[c], k };
			acc = lv_build(l, IR_OP_MUL, m->rows, 2, s);
		} else {
			struct ir_src s[3] = { m->col[c], k, ir_src_of(acc) };
			acc = lv_build(l, IR_OP_MAD, m->rows, 3, s);
		}
		if (!acc)
			return lower_zero(l, &glsl_type_float);
	}
	return lv_of(acc);
}

/* vector * matrix: one dot product per column */
static struct lv vec_times_mat(struct lower *l, const struct lv *v, const struct lv *m)
{
	struct ir_src comps[4];
	for (int c = 0; c < m->ncols; c++) {
		struct ir_instr *d = dot(l, v->col[0], m->col[c], m->rows);
		if (!d)
			return lower_zero(l, &glsl_type_float);
		comps[c] = ir_src_comp(d, 0);
	}
	return lv_vec(l, comps, m->ncols);
}

static struct lv mat_times_mat(struct lower *l, const struct lv *a, const struct lv *b)
{
	struct lv r;
	memset(&r, 0, sizeof r);
	r.ncols = b->ncols;
	r.rows = a->rows;
	for (int c = 0; c < b->ncols; c++) {
		struct lv col = { { b->col[c] }, 1, b->rows, IR_FLOAT };
		struct lv p = mat_times_vec(l, a, &col);
		r.col[c] = p.col[0];
	}
	return r;
}

/* An integer division's quotient from the float one: trunc(q * (1 +
 * 2^-22)).  The R500 has no divide: a / b is a * rcp(b), and for an
 * exact quotient that product may fall an ulp short (41 * rcp(41) is
 * 0.99999994): truncated, it would be the integer below.  The factor
 * lifts every exact quotient of ints below 2^21 in magnitude back to or
 * past itself and moves no other past the next integer (it is at least
 * 1 / |b| away from it, relatively more than 2^-21); the exact division
 * of the interpreter and the CPU gets the same integers. */
static struct lv int_quotient(struct lower *l, const struct lv *q)
{
	struct ir_instr *k = ir_build_constf(&l->b, 1.0f + 0x1p-22f);
	if (!k) {
		l->failed = true;
		return *q;
	}
	struct lv kv = lv_scalar(k, 0);
	struct lv lifted = compwise2(l, IR_OP_MUL, q, &kv);
	return compwise1(l, IR_OP_TRUNC, &lifted);
}

static struct lv arith(struct lower *l, int op, struct lv a, struct lv b, bool is_int,
		       const struct glsl_type *ta, const struct glsl_type *tb)
{
	if (op == '*' && glsl_is_matrix(ta) && glsl_is_matrix(tb))
		return mat_times_mat(l, &a, &b);
	if (op == '*' && glsl_is_matrix(ta) && glsl_is_vector(tb))
		return mat_times_vec(l, &a, &b);
	if (op == '*' && glsl_is_vector(ta) && glsl_is_matrix(tb))
		return vec_times_mat(l, &a, &b);
	enum ir_op iop = op == '+' ? IR_OP_ADD : op == '-' ? IR_OP_SUB : op == '*' ? IR_OP_MUL
										    : IR_OP_DIV;
	struct lv r = compwise2(l, iop, &a, &b);
	if (is_int && op == '/')
		r = int_quotient(l, &r);
	return r;
}

/* Whole-value equality: component compares reduced with ALL / ANY. */
static struct lv equality(struct lower *l, bool eq, const struct lv *a, const struct lv *b)
{
	struct ir_instr *acc = NULL;
	for (int c = 0; c < a->ncols; c++) {
		struct ir_src s[2] = { a->col[c], b->col[c] };
		struct ir_instr *cmp = lv_build(l, eq ? IR_OP_EQ : IR_OP_NE, a->rows, 2, s);
		if (cmp && a->rows > 1) {
			struct ir_src x = ir_src_of(cmp);
			cmp = lv_build(l, eq ? IR_OP_ALL : IR_OP_ANY, 1, 1, &x);
		}
		if (!cmp)
			return lower_zero(l, &glsl_type_bool);
		if (acc) {
			struct ir_src s2[2] = { ir_src_of(acc), ir_src_of(cmp) };
			acc = lv_build(l, eq ? IR_OP_AND : IR_OP_OR, 1, 2, s2);
		} else {
			acc = cmp;
		}
	}
	return lv_of(acc);
}

/* Converts an int-typed value where GLSL 1.20 converts implicitly: ints
 * are floats already, so only the shape matters. */
/* Structs and arrays are equal when every leaf is. */
static struct lv agg_equality(struct lower *l, struct ast_node *e)
{
	bool eq = e->op == AST_OP_EQ;
	int n = lower_leaf_count(e->kid[0]->ty);
	struct lv *a = arena_alloc(l->f->arena, sizeof *a * (size_t)n);
	struct lv *b = arena_alloc(l->f->arena, sizeof *b * (size_t)n);
	if (!a || !b || n == 0) {
		l->failed = true;
		return lower_zero(l, &glsl_type_bool);
	}
	lower_agg(l, e->kid[0], a);
	lower_agg(l, e->kid[1], b);
	struct lv acc = equality(l, eq, &a[0], &b[0]);
	for (int i = 1; i < n && !l->failed; i++) {
		struct lv x = equality(l, eq, &a[i], &b[i]);
		struct ir_src s[2] = { lv_comp(&acc, 0, 0), lv_comp(&x, 0, 0) };
		acc = lv_of(lv_build(l, eq ? IR_OP_AND : IR_OP_OR, 1, 2, s));
	}
	return acc;
}

static struct lv lower_binary(struct lower *l, struct ast_node *e)
{
	if ((e->op == AST_OP_EQ || e->op == AST_OP_NE) && lower_is_agg(e->kid[0]->ty))
		return agg_equality(l, e);
	if (e->op == ',') {
		lower_effect(l, e->kid[0]);
		return lower_expr(l, e->kid[1]);
	}
	if ((e->op == AST_OP_AND || e->op == AST_OP_OR) && lower_has_effects(l, e->kid[1]))
		return lower_short_circuit(l, e);
	struct lv a = lower_expr(l, e->kid[0]);
	struct lv b = lower_expr(l, e->kid[1]);
	const struct glsl_type *ta = e->kid[0]->ty, *tb = e->kid[1]->ty;
	struct ir_src s[2] = { lv_comp(&a, 0, 0), lv_comp(&b, 0, 0) };
	switch (e->op) {
	case ',': return b;
	case '+': case '-': case '*': case '/':
		return arith(l, e->op, a, b, e->ty->base == GLSL_INT, ta, tb);
	case '<': return lv_of(lv_build(l, IR_OP_LT, 1, 2, s));
	case AST_OP_GE: return lv_of(lv_build(l, IR_OP_GE, 1, 2, s));
	case '>': { struct ir_src r[2] = { s[1], s[0] }; return lv_of(lv_build(l, IR_OP_LT, 1, 2, r)); }
	case AST_OP_LE: { struct ir_src r[2] = { s[1], s[0] }; return lv_of(lv_build(l, IR_OP_GE, 1, 2, r)); }
	case AST_OP_EQ: case AST_OP_NE:
		return equality(l, e->op == AST_OP_EQ, &a, &b);
	case AST_OP_AND: return lv_of(lv_build(l, IR_OP_AND, 1, 2, s));
	case AST_OP_OR: return lv_of(lv_build(l, IR_OP_OR, 1, 2, s));
	case AST_OP_XOR: return lv_of(lv_build(l, IR_OP_XOR, 1, 2, s));
	default: return lower_refuse_lv(l, e, "this operator");
	}
}

static struct lv one_like(struct lower *l, const struct glsl_type *t)
{
	float ones[16];
	for (int i = 0; i < 16; i++)
		ones[i] = 1;
	return lower_const(l, t, ones);
}

static struct lv lower_unary(struct lower *l, struct ast_node *e)
{
	struct lv a = lower_expr(l, e->kid[0]);
	switch (e->op) {
	case '+': return a;
	case '-': return compwise1(l, IR_OP_NEG, &a);
	case '!': return compwise1(l, IR_OP_NOT, &a);
	default: {
		struct lv one = one_like(l, &glsl_type_float);
		bool inc = e->op == AST_OP_PREINC || e->op == AST_OP_POSTINC;
		struct lv n = compwise2(l, inc ? IR_OP_ADD : IR_OP_SUB, &a, &one);
		lower_store(l, e->kid[0], n);
		return e->op == AST_OP_PREINC || e->op == AST_OP_PREDEC ? n : a;
	}
	}
}

static struct lv swizzle(const struct lv *a, const uint8_t *swz, int n)
{
	struct lv r = *a;
	struct ir_src s = a->col[0];
	for (int i = 0; i < 4; i++)
		r.col[0].swz[i] = s.swz[swz[i < n ? i : 0]];
	r.rows = (uint8_t)n;
	return r;
}

static struct lv lower_index(struct lower *l, struct ast_node *e)
{
	struct ast_node *base = e->kid[0], *idx = e->kid[1];
	const struct glsl_type *bt = base->ty;
	int k;
	struct lv dyn;
	bool is_const = lower_index_value(l, idx, &k, &dyn);
	if (bt->base == GLSL_ARRAY) {
		if (base->kind != AST_IDENT || !base->sym)
			return load_member(l, e);
		if (is_const && (k < 0 || k >= bt->length))
			return lower_zero(l, e->ty); /* undefined in GLSL: read 0 */
		return lower_load_var(l, e, base->sym, is_const ? k : 0, is_const ? NULL : &dyn);
	}
	struct lv a = lower_expr(l, base);
	if (!is_const) {
		bool mat = glsl_is_matrix(bt);
		int n = mat ? bt->cols : bt->rows;
		struct lv r = a;
		r.ncols = 1;
		if (!mat)
			r.rows = 1;
		r.col[0] = mat ? a.col[0] : lv_comp(&a, 0, 0);
		for (int k = 1; k < n; k++) {
			struct lv x = r;
			x.col[0] = mat ? a.col[k] : lv_comp(&a, 0, k);
			r = lower_select_lv(l, lower_index_is(l, &dyn, k), &x, &r);
		}
		return r;
	}
	if (k < 0 || k >= (glsl_is_matrix(bt) ? bt->cols : bt->rows))
		return lower_zero(l, e->ty); /* undefined in GLSL: read 0 */
	if (glsl_is_matrix(bt)) {
		struct lv r = a;
		r.col[0] = a.col[k];
		r.ncols = 1;
		return r;
	}
	uint8_t swz[4] = { (uint8_t)k, 0, 0, 0 };
	return swizzle(&a, swz, 1);
}

/* --- constructors --- */

static struct lv construct(struct lower *l, struct ast_node *e)
{
	const struct glsl_type *t = e->ty;
	if (!glsl_is_basic(t))
		return lower_refuse_lv(l, e, "constructing arrays or structs");
	/* flatten the arguments into scalar sources (column-major) */
	struct ir_src comps[16];
	int n = 0, nargs = 0;
	struct lv first;
	memset(&first, 0, sizeof first);
	for (struct ast_node *a = e->kid[0]; a; a = a->next, nargs++) {
		struct lv v = lower_expr(l, a);
		if (nargs == 0)
			first = v;
		for (int c = 0; c < v.ncols; c++)
			for (int r = 0; r < v.rows && n < 16; r++)
				comps[n++] = lv_comp(&v, c, r);
	}
	if (l->failed || n == 0)
		return lower_zero(l, t);
	enum ir_base want = t->base == GLSL_BOOL ? IR_BOOL : IR_FLOAT;
	/* conversions between bool, int and float, component by component */
	for (int i = 0; i < n; i++) {
		struct ir_src *s = &comps[i];
		enum ir_base have = s->def ? (enum ir_base)s->def->base : IR_FLOAT;
		const struct glsl_type *st = NULL;
		int k = 0;
		for (struct ast_node *a = e->kid[0]; a; a = a->next) {
			int w = glsl_components(a->ty);
			if (i < k + w) {
				st = a->ty;
				break;
			}
			k += w;
		}
		struct ir_instr *cv = NULL;
		if (have == IR_BOOL && want == IR_FLOAT)
			cv = ir_build_alu1(&l->b, IR_OP_B2F, 1, *s);
		else if (have == IR_FLOAT && want == IR_BOOL)
			cv = ir_build_alu1(&l->b, IR_OP_F2B, 1, *s);
		else if (t->base == GLSL_INT && st && st->base == GLSL_FLOAT)
			cv = ir_build_alu1(&l->b, IR_OP_TRUNC, 1, *s);
		if (cv)
			*s = ir_src_comp(cv, 0);
	}
	bool single_scalar = nargs == 1 && first.ncols == 1 && first.rows == 1;
	struct lv r;
	memset(&r, 0, sizeof r);
	r.ncols = t->cols;
	r.rows = t->rows;
	r.base = (uint8_t)want;
	if (glsl_is_matrix(t) && nargs == 1 && first.ncols > 1) {
		/* matrix from matrix: overlapping part, identity elsewhere */
		struct lv id;
		float idv[16];
		for (int c = 0; c < t->cols; c++)
			for (int rr = 0; rr < t->rows; rr++)
				idv[c * t->rows + rr] = c == rr;
		id = lower_const(l, t, idv);
		for (int c = 0; c < t->cols; c++) {
			struct ir_src cs[4];
			for (int rr = 0; rr < t->rows; rr++)
				cs[rr] = c < first.ncols && rr < first.rows ? lv_comp(&first, c, rr)
									     : lv_comp(&id, c, rr);
			r.col[c] = lv_vec(l, cs, t->rows).col[0];
		}
		return r;
	}
	if (glsl_is_matrix(t) && single_scalar) {
		struct lv z = lower_zero(l, &glsl_type_float);
		for (int c = 0; c < t->cols; c++) {
			struct ir_src cs[4];
			for (int rr = 0; rr < t->rows; rr++)
				cs[rr] = rr == c ? comps[0] : lv_comp(&z, 0, 0);
			r.col[c] = lv_vec(l, cs, t->rows).col[0];
		}
		return r;
	}
	if (single_scalar) {
		r.col[0] = comps[0]; /* broadcast: swizzle already replicates */
		return r;
	}
	for (int c = 0; c < t->cols; c++) {
		struct ir_src cs[4];
		for (int rr = 0; rr < t->rows; rr++)
			cs[rr] = comps[c * t->rows + rr];
		/* components all from one def: a swizzle, no instruction */
		bool same = true;
		for (int rr = 1; rr < t->rows; rr++)
			same &= cs[rr].def == cs[0].def;
		if (same) {
			struct ir_src s = cs[0];
			for (int rr = 0; rr < 4; rr++)
				s.swz[rr] = cs[rr < t->rows ? rr : 0].swz[0];
			r.col[c] = s;
		} else {
			r.col[c] = lv_vec(l, cs, t->rows).col[0];
		}
	}
	return r;
}

/* A call of a user function as a value (of a basic type). */
static struct lv lower_call_user(struct lower *l, struct ast_node *call)
{
	const struct glsl_type *t = call->fn->ret;
	struct lv result = lower_zero(l, glsl_is_basic(t) ? t : &glsl_type_float);
	if (lower_is_agg(t)) {
		lower_refuse(l, call->loc, "a call returning an array or struct used as a value");
		return result;
	}
	lower_inline_call(l, call, &result);
	return result;
}

/* A builtin call whose sampler argument args[at] is `s[i]` with i not
 * constant (a loop counter: GLSL counts it a constant-index expression):
 * the call once per element of s, the one at i selected.  The loop
 * unroller makes i constant, and the selects and the other lookups fold
 * away; a loop kept as a loop does every lookup. */
static struct lv call_each_sampler(struct lower *l, struct ast_node *e, struct lv *args, int n,
				   int at, struct ast_node *a)
{
	struct ast_node *arr = a->kind == AST_INDEX ? a->kid[0] : NULL;
	int k;
	struct lv dyn;
	if (!arr || arr->ty->base != GLSL_ARRAY || lower_index_value(l, a->kid[1], &k, &dyn))
		return lower_refuse_lv(l, a, "a sampler expression");
	int len = arr->ty->length;
	struct lv *each = arena_alloc(l->f->arena, sizeof *each * (size_t)len);
	if (!each) {
		l->failed = true;
		return lower_zero(l, e->ty);
	}
	for (int i = 0; i < len && !l->failed; i++) {
		struct sema_const c = { .v = { (float)i } };
		struct ast_node idx = *a->kid[1], elem = *a;
		idx.cval = &c;
		elem.kid[1] = &idx;
		args[at] = lower_sampler(l, &elem);
		if (args[at].rows == 0xff)
			return lower_refuse_lv(l, a, "a sampler expression");
		each[i] = lower_builtin(l, e, args, n);
	}
	struct lv r = each[len - 1];
	lower_select_dynamic(l, &dyn, each, len, 1, &r);
	return r;
}

static struct lv lower_call(struct lower *l, struct ast_node *e)
{
	if (e->type)
		return construct(l, e);
	if (e->fn)
		return lower_call_user(l, e);
	struct lv args[4];
	int n = 0, dyn_sampler = -1;
	struct ast_node *dyn_arg = NULL;
	for (struct ast_node *a = e->kid[0]; a && n < 4; a = a->next) {
		if (a->ty->base == GLSL_SAMPLER) {
			args[n] = lower_sampler(l, a);
			if (args[n].rows == 0xff) {
				if (dyn_arg)
					return lower_refuse_lv(l, a, "a sampler expression");
				dyn_sampler = n;
				dyn_arg = a;
			}
			n++;
			continue;
		}
		args[n++] = lower_expr(l, a);
	}
	if (dyn_arg)
		return call_each_sampler(l, e, args, n, dyn_sampler, dyn_arg);
	return lower_builtin(l, e, args, n);
}

struct lv lower_expr(struct lower *l, struct ast_node *e)
{
	if (l->failed)
		return lower_zero(l, &glsl_type_float);
	if (l->expr_depth > 3000) {
		lower_refuse(l, e->loc, "expression nested too deeply");
		return lower_zero(l, &glsl_type_float);
	}
	struct src_loc saved = l->b.loc;
	l->b.loc = e->loc;
	struct lv r;
	if (e->cval && glsl_is_basic(e->ty) && e->kind != AST_ASSIGN &&
	    !(e->kind == AST_UNARY && e->op >= AST_OP_PREINC)) {
		r = lower_const(l, e->ty, e->cval->v);
		l->b.loc = saved;
		return r;
	}
	l->expr_depth++;
	switch (e->kind) {
	case AST_IDENT:
		if (!e->sym)
			r = lower_refuse_lv(l, e, "this identifier");
		else if (e->sym->type->base == GLSL_ARRAY || e->sym->type->base == GLSL_STRUCT)
			r = lower_refuse_lv(l, e, "using a whole array or struct as a value");
		else
			r = lower_load_var(l, e, e->sym, 0, NULL);
		break;
	case AST_UNARY: r = lower_unary(l, e); break;
	case AST_BINARY: r = lower_binary(l, e); break;
	case AST_ASSIGN: {
		if (lower_is_agg(e->ty)) {
			int n = lower_leaf_count(e->ty);
			struct lv *tmp = arena_alloc(l->f->arena, sizeof *tmp * (size_t)n);
			if (tmp)
				lower_agg(l, e, tmp);
			r = lower_zero(l, &glsl_type_float);
			break;
		}
		struct lv v = lower_expr(l, e->kid[1]);
		if (e->op != '=') {
			struct lv old = lower_expr(l, e->kid[0]);
			v = arith(l, e->op, old, v, e->ty->base == GLSL_INT, e->kid[0]->ty, e->kid[1]->ty);
		}
		lower_store(l, e->kid[0], v);
		r = v;
		break;
	}
	case AST_TERNARY: r = lower_ternary(l, e); break;
	case AST_CALL: r = lower_call(l, e); break;
	case AST_FIELD:
		if (!e->nswz) {
			r = load_member(l, e);
		} else {
			struct lv a = lower_expr(l, e->kid[0]);
			r = swizzle(&a, e->swz, e->nswz);
		}
		break;
	case AST_INDEX: r = lower_index(l, e); break;
	default: r = lower_refuse_lv(l, e, "this expression"); break;
	}
	l->b.loc = saved;
	l->expr_depth--;
	return r;
}
