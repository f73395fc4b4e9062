/* Expression typing (GLSL 1.20 / ES 1.00 chapter 5): operators, swizzles,
 * indexing, constructors, calls with overload resolution, and folding of
 * constant expressions. */
#include "sema_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


static const struct glsl_type *err_t = &glsl_type_error;

static struct sema_const *const_new(struct sema *s)
{
	return arena_alloc(s->a, sizeof(struct sema_const));
}

bool sema_converts(struct sema *s, const struct glsl_type *from, const struct glsl_type *to)
{
	if (glsl_type_equal(from, to))
		return true;
	/* GLSL 1.20 converts int, ivecN to float, vecN implicitly */
	return s->fe->version == 120 && !s->fe->es && from->base == GLSL_INT &&
	       to->base == GLSL_FLOAT && from->cols == 1 && to->cols == 1 && from->rows == to->rows;
}

static const char *op_name(int op)
{
	static const char *const names[] = { "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "^^",
					      "++", "--", "++", "--" };
	static const char *const chars[128] = {
		['+'] = "+", ['-'] = "-", ['*'] = "*", ['/'] = "/", ['%'] = "%", ['<'] = "<",
		['>'] = ">", ['&'] = "&", ['|'] = "|", ['^'] = "^", ['!'] = "!", ['~'] = "~",
		[','] = ",", ['='] = "=",
	};
	if (op >= AST_OP_LEFT && op <= AST_OP_POSTDEC)
		return names[op - AST_OP_LEFT];
	return op > 0 && op < 128 && chars[op] ? chars[op] : "?";
}

/* --- constants --- */

static const struct glsl_type *set_type(struct ast_node *e, const struct glsl_type *t)
{
	e->ty = t;
	return t;
}

/* Folds a component-wise operation on constants with broadcast. */
static struct sema_const *fold_binary(struct sema *s, int op, const struct ast_node *a,
				      const struct ast_node *b, const struct glsl_type *rt)
{
	if (!a->cval || !b->cval || !glsl_is_basic(rt))
		return NULL;
	if (op == '*' && (glsl_is_matrix(a->ty) || glsl_is_matrix(b->ty)) &&
	    !(glsl_is_scalar(a->ty) || glsl_is_scalar(b->ty)))
		return NULL; /* linear algebra: not folded */
	struct sema_const *c = const_new(s);
	if (!c)
		return NULL;
	int n = glsl_components(rt);
	int na = glsl_components(a->ty), nb = glsl_components(b->ty);
	bool isint = a->ty->base == GLSL_INT;
	for (int i = 0; i < n; i++) {
		float x = a->cval->v[na == 1 ? 0 : i], y = b->cval->v[nb == 1 ? 0 : i];
		float r = 0;
		switch (op) {
		case '+': r = x + y; break;
		case '-': r = x - y; break;
		case '*': r = x * y; break;
		case '/':
			if (isint)
				r = y != 0 ? truncf(x / y) : 0;
			else
				r = x / y;
			break;
		case '<': r = x < y; break;
		case '>': r = x > y; break;
		case AST_OP_LE: r = x <= y; break;
		case AST_OP_GE: r = x >= y; break;
		case AST_OP_AND: r = x && y; break;
		case AST_OP_OR: r = x || y; break;
		case AST_OP_XOR: r = (x != 0) != (y != 0); break;
		default: return NULL;
		}
		c->v[i] = r;
	}
	if (op == AST_OP_EQ || op == AST_OP_NE) {
		bool eq = true;
		for (int i = 0; i < na; i++)
			eq &= a->cval->v[i] == b->cval->v[i];
		c->v[0] = (op == AST_OP_EQ) == eq;
	}
	return c;
}

int sema_const_int(struct sema *s, struct ast_node *e)
{
	const struct glsl_type *t = sema_expr(s, e);
	if (t->base == GLSL_ERROR)
		return -1;
	if (t != &glsl_type_int || !e->cval) {
		sema_err(s, e->loc, "array size must be a constant integer expression");
		return -1;
	}
	float v = e->cval->v[0];
	if (v <= 0) {
		sema_err(s, e->loc, "array size must be positive, not %g", v);
		return -1;
	}
	const struct limits *lim = &s->fe->limits;
	if (v > (float)lim->v[LIMIT_ARRAY_SIZE]) {
		limit_error(s->fe->diag, e->loc, lim, LIMIT_ARRAY_SIZE, v > 2e9f ? 2000000000L : (long)v);
		return -1;
	}
	return (int)v;
}

/* --- l-values --- */

bool sema_check_lvalue(struct sema *s, struct ast_node *e)
{
	switch (e->kind) {
	case AST_IDENT: {
		struct sema_symbol *v = e->sym;
		if (!v)
			return false;
		const char *why = NULL;
		if (v->storage == AST_STORAGE_CONST)
			why = "a constant";
		else if (v->storage == AST_STORAGE_UNIFORM)
			why = "a uniform";
		else if (v->storage == AST_STORAGE_ATTRIBUTE)
			why = "an attribute";
		else if (v->storage == AST_STORAGE_VARYING && s->fe->stage == GLSL_STAGE_FRAGMENT)
			why = "a varying in a fragment shader";
		else if (v->read_only)
			why = "a read-only variable";
		else if (v->is_param && v->storage == AST_STORAGE_CONST)
			why = "a const parameter";
		if (why) {
			sema_err(s, e->loc, "cannot assign to %s ('%s')", why, v->name);
			return false;
		}
		if (v->builtin == SEMA_VAR_FRAGCOLOR || v->builtin == SEMA_VAR_FRAGDATA) {
			bool color = v->builtin == SEMA_VAR_FRAGCOLOR;
			if ((color && s->wrote_fragdata) || (!color && s->wrote_fragcolor))
				sema_err(s, e->loc, "a shader cannot write both gl_FragColor and gl_FragData");
			s->wrote_fragcolor |= color;
			s->wrote_fragdata |= !color;
		}
		return true;
	}
	case AST_FIELD:
		if (e->nswz) {
			for (int i = 0; i < e->nswz; i++)
				for (int j = 0; j < i; j++)
					if (e->swz[i] == e->swz[j]) {
						sema_err(s, e->loc,
							 "swizzle '%s' repeats a component: cannot assign to it",
							 e->name);
						return false;
					}
		}
		return sema_check_lvalue(s, e->kid[0]);
	case AST_INDEX: {
		/* ES 1.00 has one draw buffer; GL_EXT_draw_buffers brings the rest */
		const struct ast_node *b = e->kid[0];
		if (s->fe->es && b->kind == AST_IDENT && b->sym && b->sym->builtin == SEMA_VAR_FRAGDATA &&
		    !fe_ext_on(s->fe, FE_EXT_DRAW_BUFFERS) &&
		    !(e->kid[1]->cval && e->kid[1]->cval->v[0] == 0.0f))
			sema_err(s, e->loc, "writing gl_FragData other than [0] needs '#extension "
				 "GL_EXT_draw_buffers : enable'");
		return sema_check_lvalue(s, e->kid[0]);
	}
	default:
		sema_err(s, e->loc, "cannot assign to this expression");
		return false;
	}
}

/* --- operators --- */

/* The type of `a op b` for arithmetic operators, NULL if invalid. */
static const struct glsl_type *arith_type(struct sema *s, int op, const struct glsl_type *a,
					  const struct glsl_type *b)
{
	if (!glsl_is_numeric(a) || !glsl_is_numeric(b))
		return NULL;
	if (a->base != b->base) {
		/* 1.20: int operand converted to float */
		if (s->fe->version == 120 && !s->fe->es && a->cols == 1 && b->cols == 1) {
			if (a->base == GLSL_INT)
				a = glsl_type_vec(GLSL_FLOAT, a->rows);
			else
				b = glsl_type_vec(GLSL_FLOAT, b->rows);
		} else {
			return NULL;
		}
		if (a->base != b->base)
			return NULL;
	}
	if (glsl_is_scalar(a))
		return b;
	if (glsl_is_scalar(b))
		return a;
	if (op == '*' && (glsl_is_matrix(a) || glsl_is_matrix(b))) {
		if (glsl_is_matrix(a) && glsl_is_matrix(b))
			return a->cols == b->rows ? glsl_type_mat(b->cols, a->rows) : NULL;
		if (glsl_is_matrix(a)) /* mat * column vector */
			return a->cols == b->rows ? glsl_type_vec(GLSL_FLOAT, a->rows) : NULL;
		return a->rows == b->rows ? glsl_type_vec(GLSL_FLOAT, b->cols) : NULL;
	}
	return glsl_type_equal(a, b) ? a : NULL;
}

static const struct glsl_type *check_binary(struct sema *s, struct ast_node *e)
{
	int op = e->op;
	const struct glsl_type *a = sema_expr(s, e->kid[0]);
	const struct glsl_type *b = sema_expr(s, e->kid[1]);
	if (a->base == GLSL_ERROR || b->base == GLSL_ERROR)
		return err_t;
	if (op == ',') {
		/* a constant expression in GLSL ES only */
		if (s->fe->es && e->kid[0]->cval && e->kid[1]->cval)
			e->cval = e->kid[1]->cval;
		return b;
	}
	const struct glsl_type *r = NULL;
	switch (op) {
	case '%': case '&': case '|': case '^': case AST_OP_LEFT: case AST_OP_RIGHT:
		sema_err(s, e->loc, "operator '%s' is reserved in this GLSL version", op_name(op));
		return err_t;
	case '+': case '-': case '*': case '/':
		r = arith_type(s, op, a, b);
		break;
	case '<': case '>': case AST_OP_LE: case AST_OP_GE:
		if (glsl_is_scalar(a) && glsl_is_scalar(b) && glsl_is_numeric(a) &&
		    arith_type(s, op, a, b))
			r = &glsl_type_bool;
		break;
	case AST_OP_EQ: case AST_OP_NE:
		if ((sema_converts(s, a, b) || sema_converts(s, b, a)) && !glsl_has_sampler(a) &&
		    a->base != GLSL_VOID && !(a->base == GLSL_ARRAY && s->fe->version < 120))
			r = &glsl_type_bool;
		break;
	case AST_OP_AND: case AST_OP_OR: case AST_OP_XOR:
		if (a == &glsl_type_bool && b == &glsl_type_bool)
			r = &glsl_type_bool;
		break;
	}
	if (!r) {
		sema_err(s, e->loc, "invalid operands to '%s' (%s and %s)", op_name(op),
			 sema_tname(s, a), sema_tname(s, b));
		return err_t;
	}
	e->cval = fold_binary(s, op, e->kid[0], e->kid[1], r);
	return r;
}

static const struct glsl_type *check_unary(struct sema *s, struct ast_node *e)
{
	const struct glsl_type *a = sema_expr(s, e->kid[0]);
	if (a->base == GLSL_ERROR)
		return err_t;
	int op = e->op;
	if (op == '~') {
		sema_err(s, e->loc, "operator '~' is reserved in this GLSL version");
		return err_t;
	}
	if (op == '!') {
		if (a != &glsl_type_bool) {
			sema_err(s, e->loc, "operator '!' needs a bool, not %s", sema_tname(s, a));
			return err_t;
		}
	} else if (!glsl_is_numeric(a)) {
		sema_err(s, e->loc, "operator '%s' needs a number, not %s", op_name(op),
			 sema_tname(s, a));
		return err_t;
	}
	if (op >= AST_OP_PREINC) {
		if (!sema_check_lvalue(s, e->kid[0]))
			return err_t;
		return a;
	}
	if (e->kid[0]->cval) {
		e->cval = const_new(s);
		if (e->cval)
			for (int i = 0; i < glsl_components(a); i++) {
				float x = e->kid[0]->cval->v[i];
				e->cval->v[i] = op == '-' ? -x : op == '!' ? !x : x;
			}
	}
	return a;
}

static const struct glsl_type *check_assign(struct sema *s, struct ast_node *e)
{
	const struct glsl_type *a = sema_expr(s, e->kid[0]);
	const struct glsl_type *b = sema_expr(s, e->kid[1]);
	if (a->base == GLSL_ERROR || b->base == GLSL_ERROR)
		return err_t;
	if (!sema_check_lvalue(s, e->kid[0]))
		return err_t;
	if (e->op != '=') {
		if (e->op == '%' || e->op == '&' || e->op == '|' || e->op == '^' ||
		    e->op == AST_OP_LEFT || e->op == AST_OP_RIGHT) {
			sema_err(s, e->loc, "operator '%s=' is reserved in this GLSL version",
				 op_name(e->op));
			return err_t;
		}
		const struct glsl_type *r = arith_type(s, e->op, a, b);
		if (!r || !glsl_type_equal(r, a)) {
			sema_err(s, e->loc, "invalid operands to '%s=' (%s and %s)", op_name(e->op),
				 sema_tname(s, a), sema_tname(s, b));
			return err_t;
		}
		return a;
	}
	if (glsl_has_sampler(a)) {
		sema_err(s, e->loc, "cannot assign to a sampler");
		return err_t;
	}
	if (a->base == GLSL_ARRAY && (s->fe->version < 120 || s->fe->es)) {
		sema_err(s, e->loc, "arrays cannot be assigned in this GLSL version");
		return err_t;
	}
	if (!sema_converts(s, b, a)) {
		sema_err(s, e->loc, "cannot assign %s to %s", sema_tname(s, b), sema_tname(s, a));
		return err_t;
	}
	return a;
}

static const struct glsl_type *check_ternary(struct sema *s, struct ast_node *e)
{
	const struct glsl_type *c = sema_expr(s, e->kid[0]);
	const struct glsl_type *a = sema_expr(s, e->kid[1]);
	const struct glsl_type *b = sema_expr(s, e->kid[2]);
	if (c->base == GLSL_ERROR || a->base == GLSL_ERROR || b->base == GLSL_ERROR)
		return err_t;
	if (c != &glsl_type_bool) {
		sema_err(s, e->kid[0]->loc, "condition of '?:' must be a bool, not %s",
			 sema_tname(s, c));
		return err_t;
	}
	if (glsl_has_sampler(a) || glsl_has_sampler(b)) {
		sema_err(s, e->loc, "samplers cannot be operands of '?:'");
		return err_t;
	}
	if ((a->base == GLSL_ARRAY && s->fe->version < 120) ||
	    (!sema_converts(s, a, b) && !sema_converts(s, b, a))) {
		sema_err(s, e->loc, "the two sides of '?:' differ in type (%s and %s)",
			 sema_tname(s, a), sema_tname(s, b));
		return err_t;
	}
	const struct glsl_type *r = sema_converts(s, a, b) ? b : a;
	if (e->kid[0]->cval && e->kid[1]->cval && e->kid[2]->cval)
		e->cval = e->kid[0]->cval->v[0] ? e->kid[1]->cval : e->kid[2]->cval;
	return r;
}

/* --- swizzles, members, indexing --- */

static int swizzle_comp(char c, int *set)
{
	static const char *const sets[3] = { "xyzw", "rgba", "stpq" };
	for (int k = 0; k < 3; k++) {
		const char *p = strchr(sets[k], c);
		if (p && c) {
			*set = k;
			return (int)(p - sets[k]);
		}
	}
	return -1;
}

static const struct glsl_type *check_field(struct sema *s, struct ast_node *e)
{
	const struct glsl_type *a = sema_expr(s, e->kid[0]);
	if (a->base == GLSL_ERROR)
		return err_t;
	if (a->base == GLSL_STRUCT) {
		for (int i = 0; i < a->nfields; i++)
			if (strcmp(a->fields[i].name, e->name) == 0) {
				e->field = i;
				return a->fields[i].type;
			}
		sema_err(s, e->loc, "'%s' has no member '%s'", sema_tname(s, a), e->name);
		return err_t;
	}
	if (!glsl_is_vector(a)) {
		sema_err(s, e->loc, "cannot select '%s' from %s", e->name, sema_tname(s, a));
		return err_t;
	}
	size_t n = strlen(e->name);
	int set0 = -1;
	if (n > 4) {
		sema_err(s, e->loc, "swizzle '%s' has more than 4 components", e->name);
		return err_t;
	}
	for (size_t i = 0; i < n; i++) {
		int set;
		int c = swizzle_comp(e->name[i], &set);
		if (c < 0 || (set0 >= 0 && set != set0)) {
			sema_err(s, e->loc, "invalid swizzle '%s'", e->name);
			return err_t;
		}
		set0 = set;
		if (c >= a->rows) {
			sema_err(s, e->loc, "swizzle '%s' reads past the end of a %s", e->name,
				 sema_tname(s, a));
			return err_t;
		}
		e->swz[i] = (uint8_t)c;
	}
	e->nswz = (uint8_t)n;
	const struct glsl_type *r = glsl_type_vec(a->base, (int)n);
	if (e->kid[0]->cval) {
		e->cval = const_new(s);
		if (e->cval)
			for (size_t i = 0; i < n; i++)
				e->cval->v[i] = e->kid[0]->cval->v[e->swz[i]];
	}
	return r;
}

static const struct glsl_type *check_index(struct sema *s, struct ast_node *e)
{
	const struct glsl_type *a = sema_expr(s, e->kid[0]);
	const struct glsl_type *i = sema_expr(s, e->kid[1]);
	if (a->base == GLSL_ERROR || i->base == GLSL_ERROR)
		return err_t;
	if (i != &glsl_type_int) {
		sema_err(s, e->kid[1]->loc, "index must be an int, not %s", sema_tname(s, i));
		return err_t;
	}
	int len;
	const struct glsl_type *r;
	if (a->base == GLSL_ARRAY) {
		len = a->length;
		r = a->elem;
	} else if (glsl_is_matrix(a)) {
		len = a->cols;
		r = glsl_type_vec(GLSL_FLOAT, a->rows);
	} else if (glsl_is_vector(a)) {
		len = a->rows;
		r = glsl_type_vec(a->base, 1);
	} else {
		sema_err(s, e->loc, "cannot index %s", sema_tname(s, a));
		return err_t;
	}
	if (a->base == GLSL_ARRAY && !e->kid[1]->cval && e->kid[0]->kind == AST_IDENT && e->kid[0]->sym)
		e->kid[0]->sym->dyn_indexed = true; /* the lowering keeps it an IR array */
	if (e->kid[1]->cval) {
		float k = e->kid[1]->cval->v[0];
		if (!(k >= 0) || (len > 0 && k >= len)) { /* NaN too */
			sema_err(s, e->kid[1]->loc, "index %.0f is out of range [0, %d)", k, len);
			return err_t;
		}
		const struct limits *lim = &s->fe->limits;
		if (len == 0 && k >= (float)lim->v[LIMIT_ARRAY_SIZE]) {
			/* the index sizes an array declared without a size */
			limit_error(s->fe->diag, e->kid[1]->loc, lim, LIMIT_ARRAY_SIZE,
				    k > 2e9f ? 2000000000L : (long)k + 1);
			return err_t;
		}
		/* an array declared without a size gets one from its largest index */
		if (a->base == GLSL_ARRAY && len == 0 && e->kid[0]->kind == AST_IDENT && e->kid[0]->sym &&
		    e->kid[0]->sym->max_index < (int)k)
			e->kid[0]->sym->max_index = (int)k;
		if (e->kid[0]->cval && glsl_is_basic(a)) {
			e->cval = const_new(s);
			int w = glsl_components(r);
			if (e->cval)
				for (int c = 0; c < w; c++)
					e->cval->v[c] = e->kid[0]->cval->v[(int)k * w + c];
		}
	} else if (a->base == GLSL_ARRAY && a->length == 0) {
		sema_err(s, e->loc, "an array of unknown size must be indexed by a constant");
		return err_t;
	}
	return r;
}

/* --- constructors --- */

static const struct glsl_type *check_constructor(struct sema *s, struct ast_node *e,
						 const struct glsl_type *t)
{
	int nargs = 0;
	bool bad = false, allconst = true;
	for (struct ast_node *a = e->kid[0]; a; a = a->next) {
		nargs++;
		bad |= sema_expr(s, a)->base == GLSL_ERROR;
		allconst &= a->cval != NULL;
	}
	if (bad)
		return err_t;
	const char *tn = sema_tname(s, t);
	if (nargs == 0) {
		sema_err(s, e->loc, "constructor '%s' needs arguments", tn);
		return err_t;
	}
	if (glsl_has_sampler(t)) {
		sema_err(s, e->loc, "samplers cannot be constructed ('%s')", tn);
		return err_t;
	}
	if (t->base == GLSL_STRUCT || t->base == GLSL_ARRAY) {
		int want = t->base == GLSL_STRUCT ? t->nfields : t->length;
		if (t->base == GLSL_ARRAY && want == 0) {
			want = nargs;
			t = glsl_type_array(s->a, t->elem, nargs);
		}
		if (nargs != want) {
			sema_err(s, e->loc, "constructor '%s' takes %d arguments, %d given", tn, want,
				 nargs);
			return err_t;
		}
		int k = 0;
		for (struct ast_node *a = e->kid[0]; a; a = a->next, k++) {
			const struct glsl_type *ft = t->base == GLSL_STRUCT ? t->fields[k].type : t->elem;
			if (!sema_converts(s, a->ty, ft)) {
				sema_err(s, a->loc, "argument %d of '%s' must be %s, not %s", k + 1, tn,
					 sema_tname(s, ft), sema_tname(s, a->ty));
				return err_t;
			}
		}
		return t;
	}
	if (!glsl_is_basic(t)) {
		sema_err(s, e->loc, "cannot construct %s", tn);
		return err_t;
	}
	int need = glsl_components(t), have = 0, k = 0;
	for (struct ast_node *a = e->kid[0]; a; a = a->next, k++) {
		if (!glsl_is_basic(a->ty)) {
			sema_err(s, a->loc, "argument %d of '%s' must be a scalar, vector or matrix, not %s",
				 k + 1, tn, sema_tname(s, a->ty));
			return err_t;
		}
		if (have >= need && !(nargs == 1)) {
			sema_err(s, a->loc, "too many arguments to constructor '%s'", tn);
			return err_t;
		}
		if (glsl_is_matrix(t) && glsl_is_matrix(a->ty) && nargs > 1) {
			sema_err(s, a->loc, "a matrix built from a matrix takes no other argument");
			return err_t;
		}
		have += glsl_components(a->ty);
	}
	bool single_scalar = nargs == 1 && glsl_is_scalar(e->kid[0]->ty);
	bool mat_from_mat = nargs == 1 && glsl_is_matrix(t) && glsl_is_matrix(e->kid[0]->ty);
	if (mat_from_mat && s->fe->version < 120) {
		sema_err(s, e->loc, "constructing a matrix from a matrix needs GLSL 1.20");
		return err_t;
	}
	if (!single_scalar && !mat_from_mat && have < need) {
		sema_err(s, e->loc, "not enough components for constructor '%s' (%d of %d)", tn, have,
			 need);
		return err_t;
	}
	if (allconst && !mat_from_mat) {
		struct sema_const *c = const_new(s);
		if (c) {
			float flat[64];
			int n = 0;
			for (struct ast_node *a = e->kid[0]; a; a = a->next)
				for (int i = 0; i < glsl_components(a->ty) && n < 64; i++)
					flat[n++] = a->cval->v[i];
			for (int i = 0; i < n; i++) {
				if (t->base == GLSL_INT)
					flat[i] = truncf(flat[i]);
				else if (t->base == GLSL_BOOL)
					flat[i] = flat[i] != 0;
			}
			if (single_scalar && glsl_is_matrix(t)) {
				for (int col = 0; col < t->cols; col++)
					for (int row = 0; row < t->rows; row++)
						c->v[col * t->rows + row] = col == row ? flat[0] : 0;
			} else {
				for (int i = 0; i < need; i++)
					c->v[i] = single_scalar ? flat[0] : flat[i];
			}
			e->cval = c;
		}
	}
	return t;
}

/* --- calls --- */

struct bi_binding {
	int n;                         /* genType width */
	const struct glsl_type *m;     /* matrix type */
	int c, r;                      /* outerProduct */
};

static const struct glsl_type *sampler_of(char code)
{
	static const char codes[] = "pqQuhHeEX";
	static const char *const names[] = { "sampler1D", "sampler2D", "sampler3D", "samplerCube",
					     "sampler1DShadow", "sampler2DShadow", "sampler2DRect",
					     "sampler2DRectShadow", "samplerExternalOES" };
	const char *p = strchr(codes, code);
	return p ? glsl_type_by_name(names[p - codes]) : NULL;
}

/* Does argument type t match code; binds generic widths. */
static bool bi_match(char code, const struct glsl_type *t, struct bi_binding *bd)
{
	int *slot = NULL;
	enum glsl_base base = GLSL_FLOAT;
	bool vec_only = false;
	switch (code) {
	case 'f': return t == &glsl_type_float;
	case 'b': return t == &glsl_type_bool;
	case '2': case '3': case '4': return t == glsl_type_vec(GLSL_FLOAT, code - '0');
	case 'g': slot = &bd->n; break;
	case 'V': slot = &bd->n; vec_only = true; break;
	case 'B': slot = &bd->n; vec_only = true; base = GLSL_BOOL; break;
	case 'I': slot = &bd->n; vec_only = true; base = GLSL_INT; break;
	case 'c': slot = &bd->c; vec_only = true; break;
	case 'r': slot = &bd->r; vec_only = true; break;
	case 'm':
		if (!glsl_is_matrix(t) || (bd->m && bd->m != t))
			return false;
		bd->m = t;
		return true;
	default: {
		const struct glsl_type *st = sampler_of(code);
		return st && glsl_type_equal(st, t);
	}
	}
	if (t->base != base || t->cols != 1 || (vec_only && t->rows < 2))
		return false;
	if (*slot && *slot != t->rows)
		return false;
	*slot = t->rows;
	return true;
}

static const struct glsl_type *bi_result(char code, const struct bi_binding *bd)
{
	switch (code) {
	case 'v': return &glsl_type_void;
	case 'f': return &glsl_type_float;
	case 'b': return &glsl_type_bool;
	case '2': case '3': case '4': return glsl_type_vec(GLSL_FLOAT, code - '0');
	case 'g': case 'V': return glsl_type_vec(GLSL_FLOAT, bd->n);
	case 'B': return glsl_type_vec(GLSL_BOOL, bd->n);
	case 'm': return bd->m;
	case 'M': return glsl_type_mat(bd->r, bd->c); /* c * r: |r| columns of |c| */
	case 'T': return bd->m ? glsl_type_mat(bd->m->rows, bd->m->cols) : NULL;
	default: return NULL;
	}
}

static const char *call_signature(struct sema *s, struct ast_node *e)
{
	char buf[512];
	size_t n = (size_t)snprintf(buf, sizeof buf, "%s(", e->name);
	for (struct ast_node *a = e->kid[0]; a && n < sizeof buf; a = a->next)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", sema_tname(s, a->ty),
				      a->next ? ", " : "");
	if (n < sizeof buf)
		snprintf(buf + n, sizeof buf - n, ")");
	return arena_strdup(s->a, buf);
}

/* An extension enabled with `warn` warns at each use of what it adds. */
static void warn_extension_use(struct sema *s, const struct ast_node *e, const struct sema_bi_sig *b)
{
	if (b->ext && fe_ext_warns(s->fe, (enum fe_ext)(b->ext - 1)))
		diag_warning(s->fe->diag, e->loc, "'%s' uses extension %s, which is set to warn",
			     e->name, fe_ext_name((enum fe_ext)(b->ext - 1)));
}

static const struct glsl_type *check_builtin_call(struct sema *s, struct ast_node *e, int nargs)
{
	unsigned st = s->fe->stage == GLSL_STAGE_VERTEX ? 2u : 1u;
	bool name_seen = false;
	for (int i = 0; i < sema_bi_count; i++) {
		const struct sema_bi_sig *b = &sema_bi_table[i];
		if (strcmp(b->name, e->name) != 0 || !sema_bi_in_dialect(s->fe, b))
			continue;
		name_seen = true;
		if ((int)strlen(b->sig) - 1 != nargs || !(b->stages & st))
			continue;
		struct bi_binding bd = { 0, NULL, 0, 0 };
		bool ok = true;
		int k = 1;
		for (struct ast_node *a = e->kid[0]; a && ok; a = a->next, k++)
			ok = bi_match(b->sig[k], a->ty, &bd);
		if (!ok)
			continue;
		e->builtin = i + 1;
		warn_extension_use(s, e, b);
		const struct glsl_type *r = bi_result(b->sig[0], &bd);
		return r ? r : err_t;
	}
	/* GLSL 1.20: arguments convert from int to float when nothing matches
	 * exactly (ints are floats in the IR, so nothing else changes) */
	if (name_seen && s->fe->version == 120 && !s->fe->es)
		for (int i = 0; i < sema_bi_count; i++) {
			const struct sema_bi_sig *b = &sema_bi_table[i];
			if (strcmp(b->name, e->name) != 0 || !sema_bi_in_dialect(s->fe, b) ||
			    (int)strlen(b->sig) - 1 != nargs || !(b->stages & st))
				continue;
			struct bi_binding bd = { 0, NULL, 0, 0 };
			bool ok = true;
			int k = 1;
			for (struct ast_node *a = e->kid[0]; a && ok; a = a->next, k++) {
				const struct glsl_type *at = a->ty;
				if (at->base == GLSL_INT && at->cols == 1)
					at = glsl_type_vec(GLSL_FLOAT, at->rows);
				ok = bi_match(b->sig[k], at, &bd);
			}
			if (!ok)
				continue;
			e->builtin = i + 1;
			warn_extension_use(s, e, b);
			const struct glsl_type *r = bi_result(b->sig[0], &bd);
			return r ? r : err_t;
		}
	if (!name_seen)
		return NULL;
	sema_err(s, e->loc, "no matching overload for '%s'", call_signature(s, e));
	return err_t;
}

static bool params_match(struct sema *s, const struct sema_function *f, struct ast_node *args,
			 bool exact)
{
	int k = 0;
	for (struct ast_node *a = args; a; a = a->next, k++) {
		if (k >= f->nparams)
			return false;
		const struct glsl_type *pt = f->params[k].type;
		enum ast_storage q = f->params[k].qual;
		bool ok = exact || q == AST_STORAGE_INOUT ? glsl_type_equal(a->ty, pt)
			  : q == AST_STORAGE_OUT ? sema_converts(s, pt, a->ty) /* converted on copy-out */
						 : sema_converts(s, a->ty, pt);
		if (!ok)
			return false;
	}
	return k == f->nparams;
}

static const struct glsl_type *check_user_call(struct sema *s, struct ast_node *e,
					       struct sema_function *fns)
{
	struct sema_function *found = NULL;
	for (struct sema_function *f = fns; f && !found; f = f->next_overload)
		if (params_match(s, f, e->kid[0], true))
			found = f;
	if (!found) {
		int n = 0;
		for (struct sema_function *f = fns; f; f = f->next_overload)
			if (params_match(s, f, e->kid[0], false))
				found = f, n++;
		if (n > 1) {
			sema_err(s, e->loc, "ambiguous call '%s'", call_signature(s, e));
			return err_t;
		}
	}
	if (!found) {
		sema_err(s, e->loc, "no matching overload for '%s'", call_signature(s, e));
		return err_t;
	}
	int k = 0;
	for (struct ast_node *a = e->kid[0]; a; a = a->next, k++) {
		enum ast_storage q = found->params[k].qual;
		if ((q == AST_STORAGE_OUT || q == AST_STORAGE_INOUT) && !sema_check_lvalue(s, a))
			return err_t;
	}
	e->fn = found;
	if (s->cur_fn) {
		struct sema_function *c = s->cur_fn;
		struct sema_function **t = arena_grow(s->a, c->calls, (size_t)c->ncalls, sizeof *t);
		if (t) {
			t[c->ncalls++] = found;
			c->calls = t;
		}
	}
	return found->ret;
}

static const struct glsl_type *check_call(struct sema *s, struct ast_node *e)
{
	if (e->type) {
		s->constructing = true; /* a constructor's type needs no precision */
		const struct glsl_type *t = sema_resolve_type(s, e->type);
		s->constructing = false;
		if (t->base == GLSL_ERROR) {
			for (struct ast_node *a = e->kid[0]; a; a = a->next)
				sema_expr(s, a);
			return err_t;
		}
		return check_constructor(s, e, t);
	}
	int nargs = 0;
	bool bad = false;
	for (struct ast_node *a = e->kid[0]; a; a = a->next, nargs++)
		bad |= sema_expr(s, a)->base == GLSL_ERROR;
	if (bad)
		return err_t;
	for (struct ast_node *a = e->kid[0]; a; a = a->next)
		if (a->ty->base == GLSL_VOID) {
			sema_err(s, a->loc, "a void value cannot be an argument");
			return err_t;
		}
	struct sema_entry *en = sema_lookup(s, e->name);
	if (en && en->fn)
		return check_user_call(s, e, en->fn);
	if (en && en->type)
		return err_t; /* struct constructors come through e->type */
	if (en && en->var && en->var->builtin == SEMA_VAR_USER) {
		sema_err(s, e->loc, "'%s' is not a function", e->name);
		return err_t;
	}
	const struct glsl_type *r = check_builtin_call(s, e, nargs);
	if (r)
		return r;
	const char *ext = sema_ext_hint(s->fe, e->name);
	if (ext)
		sema_err(s, e->loc, "function '%s' undeclared: it needs '#extension %s : enable'",
			 e->name, ext);
	else if (!s->fe->after_syntax_errors)
		sema_err(s, e->loc, "function '%s' undeclared", e->name);
	return err_t;
}

static const struct glsl_type *check_ident(struct sema *s, struct ast_node *e)
{
	struct sema_entry *en = sema_lookup(s, e->name);
	if (!en || !en->var) {
		if (en && en->fn)
			sema_err(s, e->loc, "'%s' is a function, not a variable", e->name);
		else if (en && en->type)
			sema_err(s, e->loc, "'%s' is a type, not a variable", e->name);
		else if (sema_ext_hint(s->fe, e->name))
			sema_err(s, e->loc, "'%s' undeclared: it needs '#extension %s : enable'",
				 e->name, sema_ext_hint(s->fe, e->name));
		else if (!s->fe->after_syntax_errors)
			sema_err(s, e->loc, "'%s' undeclared", e->name);
		/* declare it as an error so that later uses stay quiet */
		struct sema_symbol *v = arena_alloc(s->a, sizeof *v);
		struct sema_entry *ne = arena_alloc(s->a, sizeof *ne);
		if (v && ne && !en) {
			v->name = e->name;
			v->type = err_t;
			ne->name = e->name;
			ne->var = v;
			sema_scope_add(s, ne);
		}
		return err_t;
	}
	e->sym = en->var;
	en->var->uses++;
	if (en->var->cval)
		e->cval = en->var->cval;
	return en->var->type;
}

/* Is `e` an operation on constants that the lowering can fold?  (Built-in
 * calls with constant arguments are constant expressions from GLSL 1.20
 * on; folding them earlier is harmless: the value is the same.) */
static bool foldable(const struct ast_node *e)
{
	switch (e->kind) {
	case AST_CALL:
		if (e->fn || (!e->builtin && !e->type))
			return false;
		for (const struct ast_node *a = e->kid[0]; a; a = a->next)
			if (!a->cval)
				return false;
		if (e->builtin) {
			enum sema_bi op = sema_bi_table[e->builtin - 1].op;
			/* 4.3.3: any built-in but the texture lookups: the derivatives
			 * of a constant are 0, noise is 0 here; ftransform has no
			 * constant arguments to begin with */
			if (op >= SEMA_BI_TEX && op <= SEMA_BI_TEXPROJGRAD)
				return false;
		}
		return true;
	case AST_BINARY:
		return e->op != ',' && e->kid[0]->cval && e->kid[1]->cval;
	case AST_UNARY:
		return e->op < AST_OP_PREINC && e->kid[0]->cval;
	case AST_INDEX:
	case AST_FIELD:
		return e->kid[0]->cval && (e->kind == AST_FIELD || e->kid[1]->cval);
	default:
		return false;
	}
}

const struct glsl_type *sema_expr(struct sema *s, struct ast_node *e)
{
	if (!e)
		return err_t;
	const struct limits *lim = &s->fe->limits;
	if (++s->depth > lim->v[LIMIT_EXPRESSION_DEPTH]) {
		if (!s->over_limit)
			limit_error(s->fe->diag, e->loc, lim, LIMIT_EXPRESSION_DEPTH, s->depth);
		s->over_limit = true;
		s->depth--;
		return set_type(e, err_t);
	}
	const struct glsl_type *t = err_t;
	switch (e->kind) {
	case AST_IDENT: t = check_ident(s, e); break;
	case AST_INT:
	case AST_FLOAT:
	case AST_BOOL:
		t = e->kind == AST_INT ? &glsl_type_int
		    : e->kind == AST_FLOAT ? &glsl_type_float : &glsl_type_bool;
		e->cval = const_new(s);
		if (e->cval)
			e->cval->v[0] = e->kind == AST_FLOAT ? (float)e->fval : (float)e->ival;
		break;
	case AST_UNARY: t = check_unary(s, e); break;
	case AST_BINARY: t = check_binary(s, e); break;
	case AST_ASSIGN: t = check_assign(s, e); break;
	case AST_TERNARY: t = check_ternary(s, e); break;
	case AST_CALL: t = check_call(s, e); break;
	case AST_FIELD: t = check_field(s, e); break;
	case AST_INDEX: t = check_index(s, e); break;
	case AST_LENGTH: {
		const struct glsl_type *a = sema_expr(s, e->kid[0]);
		if (a->base == GLSL_ERROR)
			break;
		if (strcmp(e->name, "length") != 0 || a->base != GLSL_ARRAY || s->fe->version < 120) {
			sema_err(s, e->loc, "'%s()' is not a method of %s", e->name, sema_tname(s, a));
			break;
		}
		if (a->length == 0) {
			sema_err(s, e->loc, "'length()' of an array declared without a size");
			break;
		}
		t = &glsl_type_int;
		e->cval = const_new(s);
		if (e->cval)
			e->cval->v[0] = (float)a->length;
		break;
	}
	default:
		sema_err(s, e->loc, "expression expected");
		break;
	}
	s->depth--;
	set_type(e, t ? t : err_t);
	if (!e->cval && glsl_is_basic(e->ty) && foldable(e)) {
		struct sema_const c;
		if (lower_fold_const(s->fe, e, &c)) {
			e->cval = const_new(s);
			if (e->cval)
				*e->cval = c;
		}
	}
	return e->ty;
}
