/* Algebraic rewrites as a table (as Mesa's nir_opt_algebraic): each rule
 * is a pattern tree, a replacement tree, a name and a one-line reason
 * (ir/algebraic_rules.c); the engine (ir/algebraic.c) matches and builds
 * them, and the `algebraic` pass applies the table.
 *
 * Trees are over component-wise float ops.  A pattern leaf captures a
 * source: VAR(x) any value (the same letter twice: the same components
 * of the same value), KONST(a) a float constant; IMM(v) in a replacement
 * is the number v.  The swizzles on the way
 * down are composed, so a capture reads in the root's components.  A
 * commutative op matches either order of its sources.  A node may carry
 * a predicate (enum alg_pred), a condition on what it matched.
 *
 * In a replacement, a subtree made of constants only is computed (plain
 * fp32, per component) into a new constant of the root's width; the root
 * is rewritten in place (a bare VAR makes it a MOV); other ops are new
 * instructions of the root's width before it, or, marked ALG_COMPACT,
 * of only the distinct components they read. */
#ifndef USCC_ALGEBRAIC_H
#define USCC_ALGEBRAIC_H

#include <stdbool.h>
#include <stdint.h>
#include "ir.h"

enum alg_kind { ALG_OP, ALG_VAR, ALG_KONST, ALG_IMM };

/* Conditions a pattern node may carry. */
enum alg_pred {
	ALG_ANY,
	ALG_NOT_CONST,    /* VAR: not a constant */
	ALG_NOT_PRODUCT,  /* VAR: not a constant, not a MUL (a product plus k is
			     one MAD already) */
	ALG_ONE_READER,   /* OP: its value has one reader (the op above) */
	ALG_DIVISOR_ONLY, /* OP: every reader divides by it */
	ALG_POSITIVE,     /* KONST: finite and > 0 in every component */
	ALG_IS_ONE,       /* KONST: 1 in every component */
	ALG_IS_TWO,       /* KONST: 2 in every component */
	ALG_PRED_COUNT
};

enum { ALG_COMPACT = 1 };

struct alg_node {
	uint8_t kind;     /* enum alg_kind */
	uint8_t op;       /* ALG_OP: enum ir_op */
	char var;         /* ALG_VAR, ALG_KONST: capture letter 'a'..'z' */
	uint8_t pred;     /* enum alg_pred */
	uint8_t flags;    /* replacement ops: ALG_COMPACT */
	uint8_t nsrc;
	float imm;        /* ALG_IMM */
	const struct alg_node *src[3];
};

/* EXACT: the replacement gives every value bit for bit; INEXACT: within
 * a rounding or two of each value the tree computes (as GLSL allows). */
enum alg_precision { ALG_EXACT, ALG_INEXACT };

enum { ALG_FINITE = 1 }; /* rule flag: every constant the replacement uses is finite */

struct alg_rule {
	const char *name;
	const char *reason;
	uint8_t precision;  /* enum alg_precision */
	uint8_t flags;      /* ALG_FINITE */
	const struct alg_node *pattern, *replacement;
};

enum { ALG_MAX_RULES = 127 };
extern const struct alg_rule alg_rules[];
extern const int alg_nrules;

/* Applies the rules r with enabled[r] (enabled NULL: all) to every
 * float instruction of f in program order, the first rule that matches,
 * at most one per instruction; whether any fired.  fired[r] (when not
 * NULL) counts rule r's rewrites. */
bool alg_apply(struct ir_func *f, const bool *enabled, int *fired);

#endif
