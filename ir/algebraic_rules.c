/* The algebraic rule table (algebraic.h): pattern -> replacement, in the
 * order they are tried (the first that matches an instruction fires).
 * x, y: values; a, b, k: constants; reading (x + a) + b as "x plus a
 * constant, plus a constant", whichever side of a commutative op each is.
 * Every rule here is fp-inexact by a rounding or two, as GLSL allows and
 * as every shader compiler does (tests/ir/test_algebraic.c checks each
 * on random inputs within that). */
#include "algebraic.h"

#define NODE(...) (&(const struct alg_node){ __VA_ARGS__ })
#define OP_(o, p, fl, n, ...) \
	NODE(.kind = ALG_OP, .op = IR_OP_##o, .pred = ALG_##p, .flags = (fl), .nsrc = (n), \
	     .src = { __VA_ARGS__ })
#define ADD(s, t) OP_(ADD, ANY, 0, 2, s, t)
#define SUB(s, t) OP_(SUB, ANY, 0, 2, s, t)
#define MUL(s, t) OP_(MUL, ANY, 0, 2, s, t)
#define DIV(s, t) OP_(DIV, ANY, 0, 2, s, t)
#define MAD(s, t, u) OP_(MAD, ANY, 0, 3, s, t, u)
#define NEG(s) OP_(NEG, ANY, 0, 1, s)
#define RCP(s) OP_(RCP, ANY, 0, 1, s)
#define LOG2(s) OP_(LOG2, ANY, 0, 1, s)
#define EXP2(s) OP_(EXP2, ANY, 0, 1, s)
#define POW(s, t) OP_(POW, ANY, 0, 2, s, t)
/* an op whose value has one reader, the op above */
#define ADD1(s, t) OP_(ADD, ONE_READER, 0, 2, s, t)
#define SUB1(s, t) OP_(SUB, ONE_READER, 0, 2, s, t)

#define VAR_(c, p) NODE(.kind = ALG_VAR, .var = (c), .pred = ALG_##p)
#define KONST_(c, p) NODE(.kind = ALG_KONST, .var = (c), .pred = ALG_##p)
#define X VAR_('x', NOT_CONST)   /* in patterns: a value, not a constant */
#define Y VAR_('y', ANY)
#define A KONST_('a', ANY)
#define B KONST_('b', ANY)
#define ONE NODE(.kind = ALG_IMM, .imm = 1.0f)

#define RULE(name, reason, flags, pattern, replacement) \
	{ name, reason, ALG_INEXACT, flags, pattern, replacement }

const struct alg_rule alg_rules[] = {
	/* constant chains: a loop that adds a constant every trip, once
	 * unrolled, becomes one add (the inner op stays for its other
	 * readers, or DCE removes it) */
	RULE("add_add", "(x + a) + b -> x + (a + b): one add for a chain", 0,
	     ADD(ADD(X, A), B), ADD(X, ADD(A, B))),
	RULE("sub_add", "(x - a) + b -> x + (b - a): one add for a chain", 0,
	     ADD(SUB(X, A), B), ADD(X, SUB(B, A))),
	RULE("rsub_add", "(a - x) + b -> (a + b) - x: one op for a chain", 0,
	     ADD(SUB(A, X), B), SUB(ADD(A, B), X)),
	RULE("add_sub", "(x + a) - b -> x + (a - b): one add for a chain", 0,
	     SUB(ADD(X, A), B), ADD(X, SUB(A, B))),
	RULE("sub_sub", "(x - a) - b -> x + -(a + b): one add for a chain", 0,
	     SUB(SUB(X, A), B), ADD(X, NEG(ADD(A, B)))),
	RULE("rsub_sub", "(a - x) - b -> (a - b) - x: one op for a chain", 0,
	     SUB(SUB(A, X), B), SUB(SUB(A, B), X)),
	RULE("add_rsub", "b - (x + a) -> (b - a) - x: one op for a chain", 0,
	     SUB(B, ADD(X, A)), SUB(SUB(B, A), X)),
	RULE("sub_rsub", "b - (x - a) -> (b + a) - x: one op for a chain", 0,
	     SUB(B, SUB(X, A)), SUB(ADD(B, A), X)),
	RULE("rsub_rsub", "b - (a - x) -> x + (b - a): one add for a chain", 0,
	     SUB(B, SUB(A, X)), ADD(X, SUB(B, A))),
	/* a product by 0 is 0 (ISA §12), so (x * inf) * 0 is 0 and x * (inf
	 * * 0) would not be: the products of constants that are not finite
	 * stay apart */
	RULE("mul_mul", "(x * a) * b -> x * (a * b): one product for a chain", ALG_FINITE,
	     MUL(MUL(X, A), B), MUL(X, MUL(A, B))),
	RULE("div_mul", "(x / a) * b -> x * (1/a * b): one product for a chain", ALG_FINITE,
	     MUL(DIV(X, A), B), MUL(X, MUL(RCP(A), B))),
	RULE("mul_div", "(x * a) / b -> x * (a * 1/b): one product for a chain", 0,
	     DIV(MUL(X, A), B), MUL(X, MUL(A, RCP(B)))),
	RULE("div_div", "(x / a) / b -> x * (1/a * 1/b): one product for a chain", 0,
	     DIV(DIV(X, A), B), MUL(X, MUL(RCP(A), RCP(B)))),

	/* a constant offset scaled: one MAD for an ADD and a MUL (texel
	 * offsets scaled to coordinates, (p + e) * 0.01), where the sum has
	 * no other reader (it would stay beside the MAD, and warp's
	 * |(q - 0.9) * 2.04| would lose its scalar factor) and is no
	 * product plus k (one MAD already: refract's 1 - d * d); constants
	 * that are not finite stay apart (inf * (x + a) meets x = -a) */
	RULE("add_mul", "(x + a) * b -> mad(x, b, a * b): one op for two", ALG_FINITE,
	     MUL(ADD1(VAR_('x', NOT_PRODUCT), A), B), MAD(X, B, MUL(A, B))),
	RULE("sub_mul", "(x - a) * b -> mad(x, b, -a * b): one op for two", ALG_FINITE,
	     MUL(SUB1(VAR_('x', NOT_PRODUCT), A), B), MAD(X, B, MUL(NEG(A), B))),
	RULE("rsub_mul", "(a - x) * b -> mad(x, -b, a * b): one op for two", ALG_FINITE,
	     MUL(SUB1(A, VAR_('x', NOT_PRODUCT)), B), MAD(X, NEG(B), MUL(A, B))),
	RULE("add_div", "(x + a) / b -> mad(x, 1/b, a * 1/b): one op for two", ALG_FINITE,
	     DIV(ADD1(VAR_('x', NOT_PRODUCT), A), B), MAD(X, RCP(B), MUL(A, RCP(B)))),
	RULE("sub_div", "(x - a) / b -> mad(x, 1/b, -a * 1/b): one op for two", ALG_FINITE,
	     DIV(SUB1(VAR_('x', NOT_PRODUCT), A), B), MAD(X, RCP(B), MUL(NEG(A), RCP(B)))),
	RULE("rsub_div", "(a - x) / b -> mad(x, -(1/b), a * 1/b): one op for two", ALG_FINITE,
	     DIV(SUB1(A, VAR_('x', NOT_PRODUCT)), B), MAD(X, NEG(RCP(B)), MUL(A, RCP(B)))),

	/* reciprocals */
	RULE("rcp_rcp", "rcp(rcp(y)) -> y: two reciprocals cancel", 0,
	     RCP(RCP(Y)), Y),
	RULE("div_rcp", "x / (1 / y) -> x * y: a product for two divisions", 0,
	     DIV(VAR_('x', ANY), DIV(KONST_('a', IS_ONE), Y)), MUL(VAR_('x', ANY), Y)),
	/* one reciprocal square root for a square root (itself x * rsq(x)
	 * on the R500) and a reciprocal, on the distinct components the
	 * division reads; a square root read otherwise stays (its
	 * reciprocal then costs what the rsq would) */
	RULE("div_sqrt", "x / sqrt(y) -> x * rsq(y): one op for two", 0,
	     DIV(VAR_('x', ANY), OP_(SQRT, DIVISOR_ONLY, 0, 1, Y)),
	     MUL(VAR_('x', ANY), OP_(RSQ, ANY, ALG_COMPACT, 1, Y))),

	/* terms of one value gathered: x * a + x * b -> x * (a + b), with x
	 * alone as x * 1, so x + x is x * 2 (no dearer, an OMOD where it
	 * fits) and a sum of copies folds to one product */
	RULE("mul_add_mul", "x * a + x * b -> x * (a + b): one product", 0,
	     ADD(MUL(X, A), MUL(X, B)), MUL(X, ADD(A, B))),
	RULE("mul_add_div", "x * a + x / b -> x * (a + 1/b): one product", 0,
	     ADD(MUL(X, A), DIV(X, B)), MUL(X, ADD(A, RCP(B)))),
	RULE("div_add_div", "x / a + x / b -> x * (1/a + 1/b): one product", 0,
	     ADD(DIV(X, A), DIV(X, B)), MUL(X, ADD(RCP(A), RCP(B)))),
	RULE("x_add_mul", "x + x * b -> x * (1 + b): one product", 0,
	     ADD(X, MUL(X, B)), MUL(X, ADD(ONE, B))),
	RULE("x_add_div", "x + x / b -> x * (1 + 1/b): one product", 0,
	     ADD(X, DIV(X, B)), MUL(X, ADD(ONE, RCP(B)))),
	RULE("x_add_x", "x + x -> x * 2: one product a sum of copies folds into", 0,
	     ADD(X, X), MUL(X, ADD(ONE, ONE))),
	RULE("mul_sub_mul", "x * a - x * b -> x * (a - b): one product", 0,
	     SUB(MUL(X, A), MUL(X, B)), MUL(X, SUB(A, B))),
	RULE("mul_sub_div", "x * a - x / b -> x * (a - 1/b): one product", 0,
	     SUB(MUL(X, A), DIV(X, B)), MUL(X, SUB(A, RCP(B)))),
	RULE("div_sub_mul", "x / a - x * b -> x * (1/a - b): one product", 0,
	     SUB(DIV(X, A), MUL(X, B)), MUL(X, SUB(RCP(A), B))),
	RULE("div_sub_div", "x / a - x / b -> x * (1/a - 1/b): one product", 0,
	     SUB(DIV(X, A), DIV(X, B)), MUL(X, SUB(RCP(A), RCP(B)))),
	RULE("x_sub_mul", "x - x * b -> x * (1 - b): one product", 0,
	     SUB(X, MUL(X, B)), MUL(X, SUB(ONE, B))),
	RULE("x_sub_div", "x - x / b -> x * (1 - 1/b): one product", 0,
	     SUB(X, DIV(X, B)), MUL(X, SUB(ONE, RCP(B)))),
	RULE("mul_sub_x", "x * a - x -> x * (a - 1): one product", 0,
	     SUB(MUL(X, A), X), MUL(X, SUB(A, ONE))),
	RULE("div_sub_x", "x / a - x -> x * (1/a - 1): one product", 0,
	     SUB(DIV(X, A), X), MUL(X, SUB(RCP(A), ONE))),
	RULE("x_sub_x", "x - x -> x * 0: a product the chain around it folds", 0,
	     SUB(X, X), MUL(X, SUB(ONE, ONE))),

	/* the R500 takes pow as EX2(x * LN2(k)) anyway, and LN2 of a
	 * constant need not run in every pixel (pow(2.0, float(i)) in an
	 * octave loop is exp2(i)) */
	RULE("pow_two", "pow(2, x) -> exp2(x): the same function", 0,
	     POW(KONST_('k', IS_TWO), X), EXP2(X)),
	RULE("pow_const", "pow(k, x) -> exp2(x * log2(k)), k > 0: LN2 once, not per pixel", 0,
	     POW(KONST_('k', POSITIVE), X), EXP2(MUL(X, LOG2(KONST_('k', ANY))))),
};

const int alg_nrules = (int)(sizeof alg_rules / sizeof alg_rules[0]);
_Static_assert(sizeof alg_rules / sizeof alg_rules[0] <= ALG_MAX_RULES,
	       "the engine indexes rules by int8_t");
