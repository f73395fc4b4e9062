/* The #if expression evaluator: integer constants, the unary, binary and
 * conditional operators of C with their precedence, division by zero an
 * error.  `defined` and macros were handled by the caller (pp.c). */
#include "pp.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PP_EXPR_MAX_DEPTH = 200 };

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}


struct pp_expr {
	const char *p;
	int depth;
	bool error;
	const char *why;
};

static void ex_space(struct pp_expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static bool ex_accept(struct pp_expr *e, const char *op)
{
	ex_space(e);
	size_t n = strlen(op);
	if (strncmp(e->p, op, n) != 0)
		return false;
	/* do not take '<' out of '<<' or '<=', '&' out of '&&', ... */
	if (n == 1 && (e->p[1] == op[0] || e->p[1] == '=') && strchr("<>&|=!", op[0]))
		return false;
	if (n == 2 && op[1] != '=' && e->p[2] == '=')
		return false;
	e->p += n;
	return true;
}

static long long ex_cond(struct pp_expr *e);

static long long ex_fail(struct pp_expr *e, const char *why)
{
	if (!e->error)
		e->why = why;
	e->error = true;
	return 0;
}

static long long ex_primary(struct pp_expr *e);

static long long ex_primary_inner(struct pp_expr *e)
{
	ex_space(e);
	if (ex_accept(e, "(")) {
		long long v = ex_cond(e);
		if (!ex_accept(e, ")"))
			return ex_fail(e, "missing ')' in preprocessor expression");
		return v;
	}
	if (ex_accept(e, "-"))
		return -ex_primary(e);
	if (ex_accept(e, "+"))
		return ex_primary(e);
	if (ex_accept(e, "~"))
		return ~ex_primary(e);
	if (ex_accept(e, "!"))
		return !ex_primary(e);
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		unsigned long long v = strtoull(e->p, &end, 0);
		if (is_ident_char((unsigned char)*end) || *end == '.')
			return ex_fail(e, "invalid integer in preprocessor expression");
		e->p = end;
		return (long long)(v & 0xffffffffu) - ((v & 0x80000000u) ? 0x100000000ll : 0);
	}
	if (is_ident_start((unsigned char)*e->p)) {
		/* an identifier that is not a macro evaluates to 0, as in C */
		while (is_ident_char((unsigned char)*e->p))
			e->p++;
		return 0;
	}
	return ex_fail(e, "invalid preprocessor expression");
}

static long long ex_primary(struct pp_expr *e)
{
	if (e->error || ++e->depth > PP_EXPR_MAX_DEPTH)
		return ex_fail(e, "preprocessor expression nested too deeply");
	long long v = ex_primary_inner(e);
	e->depth--;
	return v;
}

/* Binary operators by precedence level, lowest first (C's table). */
static const char *const ex_levels[][4] = {
	{ "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
	{ "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
};
enum { EX_NLEVELS = sizeof ex_levels / sizeof ex_levels[0] };

static long long ex_apply(struct pp_expr *e, const char *op, long long a, long long b)
{
	switch (op[0]) {
	case '|': return op[1] ? (a || b) : (a | b);
	case '&': return op[1] ? (a && b) : (a & b);
	case '^': return a ^ b;
	case '=': return a == b;
	case '!': return a != b;
	case '<': return op[1] == '<' ? (long long)((unsigned long long)a << (b & 31)) : op[1] ? a <= b : a < b;
	case '>': return op[1] == '>' ? a >> (b & 31) : op[1] ? a >= b : a > b;
	case '+': return a + b;
	case '-': return a - b;
	case '*': return a * b;
	default:
		if (b == 0)
			return ex_fail(e, "division by zero in preprocessor expression");
		return op[0] == '/' ? a / b : a % b;
	}
}

static long long ex_binary(struct pp_expr *e, int level)
{
	if (level == EX_NLEVELS)
		return ex_primary(e);
	long long v = ex_binary(e, level + 1);
	for (;;) {
		const char *op = NULL;
		for (int k = 0; k < 4 && ex_levels[level][k]; k++)
			if (ex_accept(e, ex_levels[level][k])) {
				op = ex_levels[level][k];
				break;
			}
		if (!op || e->error)
			return v;
		long long r = ex_binary(e, level + 1);
		v = ex_apply(e, op, v, r);
		v = (int32_t)(uint32_t)(unsigned long long)v;
	}
}

static long long ex_cond(struct pp_expr *e)
{
	long long c = ex_binary(e, 0);
	if (!ex_accept(e, "?"))
		return c;
	if (++e->depth > PP_EXPR_MAX_DEPTH)
		return ex_fail(e, "preprocessor expression nested too deeply");
	long long a = ex_cond(e);
	e->depth--;
	if (!ex_accept(e, ":"))
		return ex_fail(e, "missing ':' in preprocessor expression");
	long long b = ex_cond(e);
	return c ? a : b;
}

const char *pp_eval(const char *text, long long *value)
{
	struct pp_expr e = { text, 0, false, NULL };
	ex_space(&e);
	if (!*e.p)
		return "#if with no expression";
	long long v = ex_cond(&e);
	ex_space(&e);
	if (!e.error && *e.p)
		ex_fail(&e, "invalid preprocessor expression");
	if (e.error)
		return e.why;
	*value = v;
	return NULL;
}
