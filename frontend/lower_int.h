/* Internal interface of the lowering (lower.c, lower_expr.c, lower_builtin.c). */
#ifndef USCC_FE_LOWER_INT_H
#define USCC_FE_LOWER_INT_H

#include "lower.h"

/* An r-value of a basic type: one source per matrix column (vectors and
 * scalars have one), each giving `rows` components through its swizzle. */
struct lv {
	struct ir_src col[4];
	uint8_t ncols, rows;
	uint8_t base;            /* enum ir_base */
};

/* A variable's current value: one lv per array element. */
struct lvar {
	struct sema_symbol *sym;
	struct lv *elems;
	int nelems;
	bool written;
	uint64_t written_elems;  /* bit k: element k (< 64) assigned */
	bool hoisted;            /* made ahead of its declaration (lower_list) */
};

struct lower {
	struct fe_ctx *fe;
	struct ir_func *f;
	struct ir_builder b;
	struct lvar **vars;          /* every variable with a value, creation order */
	int nvars, capvars;
	struct ir_instr *zero, *falsev; /* values of variables never assigned */
	struct ir_instr *truev;      /* bool true, made at the start (may be NULL) */
	int inline_depth;
	int depth;
	int expr_depth;
	bool failed;                 /* a construct was refused: stop quietly */
	bool quiet;                  /* constant folding: refuse without diagnostics */
	struct lower_jctx *jc;       /* innermost loop or function body (lower_loop.c) */
	long unroll_copies;          /* copies the enclosing unrolled loops make (0: none) */
	unsigned stamp;              /* last sema_symbol.lower_stamp handed out */
};

void lower_refuse(struct lower *l, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

struct lv lower_expr(struct lower *l, struct ast_node *e);
/* Stores `v` into the l-value expression `e`. */
void lower_store(struct lower *l, struct ast_node *e, struct lv v);
struct lvar *lower_var(struct lower *l, struct sema_symbol *sym);
struct lv lower_zero(struct lower *l, const struct glsl_type *t);
struct lv lower_const(struct lower *l, const struct glsl_type *t, const float *v);
struct lv lower_builtin(struct lower *l, struct ast_node *call, struct lv *args, int nargs);
void lower_stmt(struct lower *l, struct ast_node *n);
struct lv lower_call_user(struct lower *l, struct ast_node *call);
/* A call of a user function returning an array or struct: its leaves. */
void lower_call_user_agg(struct lower *l, struct ast_node *call, struct lv *out);
struct lv lower_sampler(struct lower *l, struct ast_node *a);

/* loops (lower_loop.c) */
void lower_loop(struct lower *l, struct ast_node *n);

/* jumps as flags (lower_jump.c): the context of the innermost loop or
 * function body */
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
struct ir_instr *lower_not(struct lower *l, const struct lv *c);
/* lower_branch arms: a statement, an expression for its effects */
void lower_stmt_arm(struct lower *l, void *ud);
void lower_effect_arm(struct lower *l, void *ud);

struct lv **lower_snapshot(struct lower *l, int n);
void lower_restore(struct lower *l, struct lv **s, int n);
/* if (cond) then_fn(then_ud) else else_fn(else_ud), joining every variable
 * with PHIs; a NULL arm is empty.  Variables made in an arm end with it. */
typedef void (*lower_arm_fn)(struct lower *l, void *ud);
void lower_branch(struct lower *l, struct ir_src cond, lower_arm_fn then_fn, void *then_ud,
		  lower_arm_fn else_fn, void *else_ud);
struct lv lower_bool(struct lower *l, bool v);
/* A variable of the lowering's own, zero, of type `t` (lower_loop.c). */
struct sema_symbol *lower_temp(struct lower *l, const char *name, const struct glsl_type *t);
/* "WHAT is not supported yet", and a zero of e's type (lower_expr.c) */
struct lv lower_refuse_lv(struct lower *l, struct ast_node *e, const char *what);
/* ?:, && and || (lower_cond.c) */
struct lv lower_ternary(struct lower *l, struct ast_node *e);
struct lv lower_short_circuit(struct lower *l, struct ast_node *e);
/* Does evaluating `e` change anything: assignments, ++/--, calls of user
 * functions that write globals, out parameters or discard? */
bool lower_has_effects(struct lower *l, const struct ast_node *e);
/* `c ? a : b` whose sides have effects: only the chosen side runs; its
 * value (leaf_count(e->ty) leaves, none for void) goes to out. */
void lower_ternary_branch(struct lower *l, struct ast_node *e, struct lv *out);
/* Is `v` a compile-time constant bool (its first component), and which? */
bool lower_lv_known(const struct lv *v, bool *val);

/* Folds constant expression `e` (any type) as lower_fold_const does:
 * column c, row k of leaf i in out[i][c][k], the rest 0; false when it
 * is not constant or has not `nleaves` leaves (const_fold.c). */
bool lower_fold_const_leaves(struct fe_ctx *fe, struct ast_node *e, float (*out)[4][4],
			     int nleaves);

/* aggregates (lower_agg.c) */
bool lower_is_agg(const struct glsl_type *t);
int lower_leaf_count(const struct glsl_type *t);
const struct glsl_type *lower_leaf_type(const struct glsl_type *t, int leaf);
void lower_uniform_leaf(struct lower *l, const struct sema_symbol *sym, int leaf,
			const char **name, int *elem, const struct glsl_type **entry);
bool lower_path(const struct ast_node *e, struct sema_symbol **sym, int *leaf);
/* The sampler table name of sampler leaf `leaf` of uniform `sym`:
 * "s", "s[1]", "light.shadow", "m[0].tex[1]". */
const char *lower_sampler_name(struct lower *l, const struct sema_symbol *sym, int leaf);
void lower_agg(struct lower *l, struct ast_node *e, struct lv *out);
/* Evaluates `e` for its effects only (its value, maybe an aggregate, is
 * dropped): expression statements, the left of ',', a for's step. */
void lower_effect(struct lower *l, struct ast_node *e);
void lower_store_agg(struct lower *l, struct ast_node *e, const struct lv *vals);
/* A member or element of an aggregate value that is not a variable path
 * (a call's result, a non-constant index): the whole value, then a slice
 * into out[0 .. leaf_count(e->ty)) (1 for a basic type). */
void lower_agg_slice(struct lower *l, struct ast_node *e, struct lv *out);
/* indexes (lower_expr.c) */
bool lower_index_value(struct lower *l, struct ast_node *idx, int *k, struct lv *dyn);
/* A constant index as an int; -1 (out of range for every array) when the
 * float has no int value (NaN, or beyond the int range). */
int lower_index_int(float v);
struct ir_src lower_index_is(struct lower *l, const struct lv *dyn, int k);
struct lv lower_select_lv(struct lower *l, struct ir_src cond, const struct lv *a,
			  const struct lv *b);
/* leaf `leaf` of variable `sym` (lower_expr.c) */
struct lv lower_load_leaf(struct lower *l, struct ast_node *e, struct sema_symbol *sym, int leaf);

/* helpers on values */
struct lv lv_scalar(struct ir_instr *def, int comp);
struct lv lv_of(struct ir_instr *def);
struct ir_src lv_comp(const struct lv *v, int col, int comp);
/* v as `n` components (scalar replicated), single column */
struct ir_src lv_bcast(const struct lv *v, int n);
struct ir_instr *lv_build(struct lower *l, enum ir_op op, int n, int nsrc, const struct ir_src *s);

#endif
