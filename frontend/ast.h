/* The GLSL abstract syntax tree, for the whole language of GLSL 1.10, 1.20
 * and ES 1.00.  One node shape for everything: a kind, a location, up to
 * four children and a `next` link for lists.  Sema fills in the type, the
 * symbol, a constant value and a built-in function choice. */
#ifndef USCC_FE_AST_H
#define USCC_FE_AST_H

#include <stdbool.h>
#include "diag.h"
#include "types.h"

enum ast_kind {
	/* expressions */
	AST_IDENT,      /* name */
	AST_INT,        /* ival */
	AST_FLOAT,      /* fval */
	AST_BOOL,       /* ival */
	AST_UNARY,      /* op: '-', '+', '!', '~', AST_OP_PREINC/PREDEC/POSTINC/POSTDEC; kid0 */
	AST_BINARY,     /* op: char or AST_OP_*; kid0, kid1 */
	AST_ASSIGN,     /* op: '=' or the arithmetic op of `op=`; kid0 = kid1 */
	AST_TERNARY,    /* kid0 ? kid1 : kid2 */
	AST_CALL,       /* name (function) or type (constructor); kid0 = argument list */
	AST_FIELD,      /* kid0 . name (swizzle or struct member) */
	AST_LENGTH,     /* kid0 .length() */
	AST_INDEX,      /* kid0 [kid1] */
	/* statements */
	AST_BLOCK,      /* kid0 = statement list */
	AST_DECL,       /* type; kid0 = declarator list (AST_DECLARATOR); may be empty (struct) */
	AST_DECLARATOR, /* name; kid0 array size (or NULL), kid1 initializer; is_array */
	AST_EXPR_STMT,  /* kid0 (NULL: empty statement) */
	AST_IF,         /* kid0 cond, kid1 then, kid2 else */
	AST_FOR,        /* kid0 init stmt, kid1 cond (expr or AST_DECL), kid2 step, kid3 body */
	AST_WHILE,      /* kid0 cond (expr or AST_DECL), kid1 body */
	AST_DO,         /* kid0 body, kid1 cond */
	AST_BREAK, AST_CONTINUE,
	AST_RETURN,     /* kid0 value or NULL */
	AST_DISCARD,
	AST_PRECISION,  /* type: the precision default for type->spec */
	AST_INVARIANT,  /* kid0 = list of AST_IDENT re-declared invariant */
	/* top level */
	AST_FUNCTION,   /* name, type = return type; kid0 params (AST_PARAM), kid1 body or NULL */
	AST_PARAM,      /* name (may be NULL), type; kid0 array size */
};

enum ast_op {
	AST_OP_LEFT = 256, AST_OP_RIGHT, AST_OP_LE, AST_OP_GE, AST_OP_EQ, AST_OP_NE,
	AST_OP_AND, AST_OP_OR, AST_OP_XOR, AST_OP_PREINC, AST_OP_PREDEC, AST_OP_POSTINC,
	AST_OP_POSTDEC,
};

enum ast_storage {
	AST_STORAGE_NONE, AST_STORAGE_CONST, AST_STORAGE_ATTRIBUTE, AST_STORAGE_VARYING,
	AST_STORAGE_UNIFORM, AST_STORAGE_IN, AST_STORAGE_OUT, AST_STORAGE_INOUT,
};

enum ast_precision { AST_PREC_NONE, AST_PREC_LOW, AST_PREC_MEDIUM, AST_PREC_HIGH };

struct ast_node;

/* A struct specifier as written: the members are AST_DECL nodes. */
struct ast_struct {
	const char *name;           /* NULL when anonymous */
	struct ast_node *members;
	struct src_loc loc;
	const struct glsl_type *type; /* made by sema */
};

/* A fully specified type: qualifiers and a type specifier. */
struct ast_type {
	enum ast_storage storage;
	enum ast_precision precision;
	bool invariant, centroid;
	bool storage_twice;          /* two storage qualifiers: an error for sema */
	const struct glsl_type *builtin; /* built-in type, or NULL */
	const char *type_name;       /* a struct's name, or NULL */
	struct ast_struct *struct_def; /* a struct defined here, or NULL */
	bool is_array;               /* type[...] */
	struct ast_node *array_size; /* NULL: unsized */
	struct src_loc loc;
};

struct ast_node {
	enum ast_kind kind;
	struct src_loc loc;
	int op;
	struct ast_node *kid[4];
	struct ast_node *next;
	const char *name;
	double fval;
	long long ival;
	bool is_array;
	struct ast_type *type;      /* declarations, parameters, functions, constructors */
	/* filled in by sema */
	const struct glsl_type *ty;
	struct sema_symbol *sym;    /* identifiers and declarators: the variable */
	struct sema_const *cval;    /* constant value, when constant */
	struct sema_function *fn;   /* calls: the user function called */
	int builtin;                /* calls: built-in function id + 1 (0: none) */
	uint8_t swz[4];             /* AST_FIELD swizzle */
	uint8_t nswz;               /* 0: not a swizzle */
	int field;                  /* AST_FIELD struct member index */
};

/* Lists under construction in the parser. */
struct ast_list {
	struct ast_node *first, *last;
};

struct ast_node *ast_new(struct arena *a, enum ast_kind kind, struct src_loc loc);
void ast_list_add(struct ast_list *l, struct ast_node *n);
struct ast_type *ast_type_new(struct arena *a, struct src_loc loc);

#endif
