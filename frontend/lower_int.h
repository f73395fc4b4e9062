/* Internal interface of the lowering (lower.h: AST to SSA IR), for the
 * lower*.c files and const_fold.c.
 *
 * The files form layers.  Each calls only the layers below it, except
 * where the language's own recursion leads back up; each such way up has
 * one entry point:
 *   lower_expr()         a sub-expression's value (its twin lower_agg() for
 *                        the leaves of an array or struct): back to 2
 *   lower_inline_call()  an expression calling a user function, whose body
 *                        is statements: up to 3
 *   lower_stmt()         a statement inside a statement: back to 4
 *
 *   0  lower_base.c     values, constants, IR building blocks, errors, the
 *                       leaf layout of aggregates, variables (lower_base.h)
 *   1  lower_branch.c   an if that joins the variables with PHIs
 *      lower_builtin.c  built-in functions of lowered arguments
 *   2  expressions, each file above those listed before it:
 *      lower_load.c     reads of variables, inputs, uniforms, samplers;
 *                       a uniform's initializer is folded by const_fold.c,
 *                       which lowers it through lower_expr()/lower_agg()
 *      lower_store.c    writes
 *      lower_cond.c     ?:, && and ||; expressions for their effects only
 *      lower_agg.c      values of arrays and structs
 *      lower_expr.c     values of basic types: operators, constructors, calls
 *   3  statements, each file above those listed before it:
 *      lower_jump.c     break, continue and return as flags; statement
 *                       lists; function bodies
 *      lower_call.c     calls of user functions, inlined
 *      lower_loop.c     loops
 *   4  lower.c          statements (lower_stmt) and the program */
#ifndef USCC_FE_LOWER_INT_H
#define USCC_FE_LOWER_INT_H

#include "lower_base.h"

/* --- 1: branches (lower_branch.c) --- */

/* Every variable's value (those in vars[0..n)). */
struct lv **lower_snapshot(struct lower *l, int n);
/* if (cond) then_fn(then_ud) else else_fn(else_ud), joining every variable
 * with PHIs; a NULL arm is empty.  Variables made in an arm end with it. */
typedef void (*lower_arm_fn)(struct lower *l, void *ud);
void lower_branch(struct lower *l, struct ir_src cond, lower_arm_fn then_fn, void *then_ud,
		  lower_arm_fn else_fn, void *else_ud);

/* --- 1: built-in functions (lower_builtin.c) --- */

struct lv lower_builtin(struct lower *l, struct ast_node *call, struct lv *args, int nargs);

/* --- 2: reads (lower_load.c) --- */

/* Element `elem` of variable `sym` (dyn: its non-constant index, or NULL);
 * `e` is the expression that reads it. */
struct lv lower_load_var(struct lower *l, struct ast_node *e, struct sema_symbol *sym, int elem,
			 const struct lv *dyn);
/* Is `e` members and constant indexes of an element of a variable held
 * in IR arrays (lower_var), the element's index constant or not?  Then
 * its variable, first leaf and, for a non-constant index, its value in
 * *dyn (*has_dyn), the index lowered here, once; false, lowering
 * nothing, for any other expression. */
bool lower_mem_path(struct lower *l, struct ast_node *e, struct lvar **v, int *leaf, struct lv *dyn,
		    bool *has_dyn);
/* Is `e` members of `u[i]`, u a uniform array of structs, i not constant
 * (as sema saw it), and is every leaf of it held member-major
 * (lower_uniform_leaf)?  Then u, the first leaf of `e` in element 0 (in
 * element k when i lowered to a constant k in range) and, for an index
 * that is not constant, its value in *dyn (*has_dyn), the index lowered
 * here, once; false, lowering nothing, for any other expression. */
bool lower_uniform_path(struct lower *l, struct ast_node *e, struct sema_symbol **sym, int *leaf,
			struct lv *dyn, bool *has_dyn);
/* An index: true and its int in *k when it is constant, else its value
 * in *dyn. */
bool lower_index_value(struct lower *l, struct ast_node *idx, int *k, struct lv *dyn);
/* A sampler argument: ncols 0, the sampler table index in rows (0xff: not
 * a sampler this lowering can name). */
struct lv lower_sampler(struct lower *l, struct ast_node *a);

/* Folds constant expression `e` (any type) as lower_fold_const does:
 * column c, row k of leaf i in out[i][c][k], the rest 0; false when it
 * is not constant or has not `nleaves` leaves (const_fold.c). */
bool lower_fold_const_leaves(struct fe_ctx *fe, struct ast_node *e, float (*out)[4][4],
			     int nleaves);

/* --- 2: writes (lower_store.c) --- */

/* Stores `v` into the l-value expression `e`. */
void lower_store(struct lower *l, struct ast_node *e, struct lv v);
/* Stores leaves into what the l-value `e` (any type) names. */
void lower_store_agg(struct lower *l, struct ast_node *e, const struct lv *vals);

/* --- 2: ?:, && and ||, effects (lower_cond.c) --- */

/* Does evaluating `e` change anything: assignments, ++/--, calls of user
 * functions that write globals, out parameters or discard? */
bool lower_has_effects(struct lower *l, const struct ast_node *e);
/* Evaluates `e` for its effects only (its value, maybe an aggregate, is
 * dropped): expression statements, the left of ',', a for's step. */
void lower_effect(struct lower *l, struct ast_node *e);
struct lv lower_ternary(struct lower *l, struct ast_node *e);
struct lv lower_short_circuit(struct lower *l, struct ast_node *e);
/* `c ? a : b` whose sides have effects: only the chosen side runs; its
 * value (leaf_count(e->ty) leaves, none for void) goes to out. */
void lower_ternary_branch(struct lower *l, struct ast_node *e, struct lv *out);

/* --- 2: arrays and structs (lower_agg.c) --- */

/* Entry point: the leaves of an aggregate expression into
 * out[0 .. leaf_count(e->ty)). */
void lower_agg(struct lower *l, struct ast_node *e, struct lv *out);
/* A member or element of an aggregate value that is not a variable path
 * (a call's result, a non-constant index): the whole value, then a slice
 * into out[0 .. leaf_count(e->ty)) (1 for a basic type). */
void lower_agg_slice(struct lower *l, struct ast_node *e, struct lv *out);

/* --- 2: basic values (lower_expr.c) --- */

/* Entry point: the value of an expression of a basic type. */
struct lv lower_expr(struct lower *l, struct ast_node *e);

/* --- 3: jumps as flags, statement lists, function bodies (lower_jump.c) --- */

/* The context of the innermost loop or function body. */
struct lower_jctx {
	bool is_loop;                /* false: a function body */
	struct sema_symbol *alive;   /* bool: the rest of the body runs */
	struct sema_symbol *exit;    /* loops: leave at the end of this iteration */
	struct sema_symbol *ret;     /* functions: the return value (NULL: void) */
	struct lower_jctx *outer;    /* NULL above a function body */
};
void lower_jump(struct lower *l, struct ast_node *n);
void lower_return(struct lower *l, struct ast_node *n);
/* Statements from `first` to the end of its list; those after a statement
 * that may jump run under `if (alive)`. */
void lower_list(struct lower *l, struct ast_node *first);
/* Lowers a function body; the return value's leaves go to `result`
 * (lower_leaf_count(ret) of them; untouched for void). */
void lower_function_body(struct lower *l, struct ast_node *body, const struct glsl_type *ret,
			 struct lv *result);
/* break/continue/return of the innermost loop; return anywhere; either */
bool lower_has_jump(const struct ast_node *n);
bool lower_has_return(const struct ast_node *n);
bool lower_may_jump(const struct ast_node *n);
/* Pushes a loop's context (alive true, exit false); pop: l->jc = j->outer. */
void lower_push_loop(struct lower *l, struct lower_jctx *j);
struct lv *lower_flag_value(struct sema_symbol *flag);
void lower_set_flag(struct lower *l, struct sema_symbol *flag, bool v);
bool lower_flag_known(struct sema_symbol *flag, bool *v);
/* Is `s` a flag or return value of the loops and function being lowered? */
bool lower_is_flag(const struct lower *l, const struct sema_symbol *s);
/* a lower_branch arm: a statement */
void lower_stmt_arm(struct lower *l, void *ud);

/* --- 3: calls of user functions (lower_call.c) --- */

/* Entry point: inlines `call`; the return value's leaves go to `result`,
 * which holds zeros of the return type (or one float for void). */
void lower_inline_call(struct lower *l, struct ast_node *call, struct lv *result);

/* --- 3: loops (lower_loop.c) --- */

void lower_loop(struct lower *l, struct ast_node *n);
/* A loop whose body `body` lowers (the TGSI frontend's BGNLOOP):
 * `loop { body; if (exit) break; }` with its jumps as flags (lower_jump.c:
 * the body clears the innermost context's `alive` and sets its `exit`).
 * carried[i] says whether l->vars[i] (of those existing now) may change
 * in the body; `loc` is where a loop that never ends is reported. */
void lower_flagged_loop(struct lower *l, const bool *carried, lower_arm_fn body, void *ud,
			struct src_loc loc);

/* --- 4: statements and the program (lower.c) --- */

/* Entry point: one statement. */
void lower_stmt(struct lower *l, struct ast_node *n);

#endif
