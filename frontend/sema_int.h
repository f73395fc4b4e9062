/* Internal interface between the parts of semantic analysis. */
#ifndef USCC_FE_SEMA_INT_H
#define USCC_FE_SEMA_INT_H

#include "name_map.h"
#include "sema.h"

struct sema_entry {
	const char *name;
	struct sema_symbol *var;      /* a variable, or */
	struct sema_function *fn;     /* the first overload of a function, or */
	const struct glsl_type *type; /* a struct type */
	struct sema_entry *next;
};

struct sema_scope {
	struct sema_entry *first;     /* every entry, newest first */
	struct name_map names;        /* name -> its newest entry (sema_scope_add) */
	struct sema_scope *up;
	bool float_precision;         /* sema.float_precision when it was entered */
	int float_prec, int_prec;     /* the same for the default precisions */
};

struct sema {
	struct fe_ctx *fe;
	struct arena *a;
	struct sema_program *prog;
	struct sema_scope *scope, *globals;
	struct sema_function *cur_fn;
	int loops;
	int depth;                    /* expression recursion */
	int stmt_depth;               /* statement nesting */
	bool over_limit;              /* a nesting limit was reported: say it once */
	bool float_precision;         /* ES: a default float precision is in effect */
	int float_prec, int_prec;     /* ES: default precisions (enum ast_precision) */
	bool constructing;            /* resolving a constructor's type */
	bool wrote_fragcolor, wrote_fragdata;
	struct sema_symbol **unsized;  /* arrays declared without a size */
	int nunsized, capunsized;
};

void sema_err(struct sema *s, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *sema_tname(struct sema *s, const struct glsl_type *t);
struct sema_entry *sema_lookup(struct sema *s, const char *name);
/* Makes e (its name set) the newest entry of the current scope. */
void sema_scope_add(struct sema *s, struct sema_entry *e);
void sema_push(struct sema *s);
void sema_pop(struct sema *s);

/* Types an expression; &glsl_type_error once diagnosed. */
const struct glsl_type *sema_expr(struct sema *s, struct ast_node *e);
/* Reports and returns false unless `e` (already typed) can be assigned. */
bool sema_check_lvalue(struct sema *s, struct ast_node *e);
/* Implicit conversion (GLSL 1.20: int -> float) of `e` to `to`. */
bool sema_converts(struct sema *s, const struct glsl_type *from, const struct glsl_type *to);
const struct glsl_type *sema_resolve_type(struct sema *s, struct ast_type *t);
/* A constant integer expression (array sizes); -1 after a diagnostic. */
int sema_const_int(struct sema *s, struct ast_node *e);

#endif
