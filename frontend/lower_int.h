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
};

struct lower {
	struct fe_ctx *fe;
	struct ir_func *f;
	struct ir_builder b;
	struct lvar **vars;          /* every variable with a value, creation order */
	int nvars, capvars;
	struct ir_instr *zero, *falsev; /* values of variables never assigned */
	int inline_depth;
	int depth;
	int expr_depth;
	bool failed;                 /* a construct was refused: stop quietly */
	bool quiet;                  /* constant folding: refuse without diagnostics */
	struct lower_loop *loop;     /* innermost loop being lowered */
	/* the function being inlined: where its return value goes */
	struct lv *ret;
	bool returned;
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
struct lv lower_sampler(struct lower *l, struct ast_node *a);

/* loops (lower_loop.c) and what they share with lower.c */
void lower_loop(struct lower *l, struct ast_node *n);
void lower_jump(struct lower *l, struct ast_node *n);
void lower_return(struct lower *l, struct ast_node *n);
void lower_body_once(struct lower *l, struct ast_node *body, struct sema_symbol *ret);
void lower_function_body(struct lower *l, struct ast_node *body, const struct glsl_type *ret,
			 struct lv *result);
bool lower_has_jump(const struct ast_node *n);
struct lv **lower_snapshot(struct lower *l, int n);
void lower_restore(struct lower *l, struct lv **s, int n);

/* aggregates (lower_agg.c) */
bool lower_is_agg(const struct glsl_type *t);
int lower_leaf_count(const struct glsl_type *t);
const struct glsl_type *lower_leaf_type(const struct glsl_type *t, int leaf);
void lower_uniform_leaf(struct lower *l, const struct sema_symbol *sym, int leaf,
			const char **name, int *elem, const struct glsl_type **entry);
bool lower_path(const struct ast_node *e, struct sema_symbol **sym, int *leaf);
void lower_agg(struct lower *l, struct ast_node *e, struct lv *out);
void lower_store_agg(struct lower *l, struct ast_node *e, const struct lv *vals);
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
