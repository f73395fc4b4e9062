/* Semantic analysis: scopes, declarations, expression typing with GLSL's
 * rules, overload resolution (user and built-in functions) and the constant
 * expressions the language requires (array sizes, const initializers). */
#ifndef USCC_FE_SEMA_H
#define USCC_FE_SEMA_H

#include "ast.h"
#include "fe.h"

/* Constant values: every scalar component as a float (ints and bools are
 * exact in float for the values GLSL constants take), column-major. */
struct sema_const {
	float v[16];
};

/* Built-in variables the lowering treats specially. */
enum sema_builtin_var {
	SEMA_VAR_USER,
	SEMA_VAR_FRAGCOORD, SEMA_VAR_FRONTFACING, SEMA_VAR_POINTCOORD,
	SEMA_VAR_FRAGCOLOR, SEMA_VAR_FRAGDATA, SEMA_VAR_FRAGDEPTH,
	SEMA_VAR_VARYING_IN,   /* gl_Color, gl_TexCoord[] ...: inputs by name */
	SEMA_VAR_UNIFORM,      /* gl_ModelViewMatrix ...: uniforms by name */
	SEMA_VAR_CONST,        /* gl_MaxTextureCoords ...: cval */
	SEMA_VAR_VERTEX,       /* vertex-stage built-ins */
};

struct sema_symbol {
	const char *name;
	const struct glsl_type *type;
	enum ast_storage storage;
	enum sema_builtin_var builtin;
	bool read_only;            /* cannot be assigned */
	bool is_param;
	bool invariant, centroid;
	struct sema_const *cval;   /* const with a constant value */
	struct src_loc loc;
	int uses;                  /* times read or written in the program */
	int max_index;             /* unsized arrays: largest constant index used */
	bool dyn_indexed;          /* arrays: indexed by a non-constant somewhere */
	struct ast_node *init;     /* uniforms (1.20): the initializer, or NULL */
	void *lower_data;          /* scratch for the lowering */
	unsigned lower_stamp;      /* scratch for the lowering (lower_cond.c) */
};

struct sema_param {
	const char *name;
	const struct glsl_type *type;
	enum ast_storage qual;     /* NONE (= in), IN, OUT, INOUT */
	bool is_const;
	struct sema_symbol *sym;   /* set while the body is checked */
};

struct sema_function {
	const char *name;
	const struct glsl_type *ret;
	struct sema_param *params;
	int nparams;
	struct ast_node *def;      /* the AST_FUNCTION with a body, or NULL */
	struct src_loc loc;
	bool visiting, recursive;  /* for the recursion check */
	bool checked;              /* no recursion below this one */
	int ret_prec;              /* ES: the return type's precision (enum ast_precision) */
	int lower_effects;         /* lowering: 0 not known yet, 1 pure, 2 has effects */
	struct sema_function *next_overload;
	struct sema_function **calls; /* functions called by the body */
	int ncalls;
};

/* The checked program. */
struct sema_program {
	struct ast_node *unit;
	struct sema_function *main;
	struct sema_symbol **globals; /* user and used built-in globals, declaration order */
	int nglobals, capglobals;
};

/* Checks the translation unit; false when there were errors. */
bool sema_check(struct fe_ctx *fe, struct ast_node *unit, struct sema_program *prog);

/* Folds a constant expression sema's own rules do not cover (built-in
 * calls, matrix products) by evaluating its lowering (const_fold.c). */
bool lower_fold_const(struct fe_ctx *fe, struct ast_node *e, struct sema_const *out);

/* --- built-in functions (builtins.c) --- */
enum sema_bi {
#define BI(e) SEMA_BI_##e,
#include "builtin_ops.def"
#undef BI
	SEMA_BI_COUNT
};
struct sema_bi_sig {
	const char *name;
	const char *sig;           /* return type code, then parameter codes */
	enum sema_bi op;
	unsigned dialects;         /* 1: GLSL 1.10, 2: 1.20, 4: ES 1.00 */
	unsigned stages;           /* 1: fragment, 2: vertex */
	int ext;                   /* 0: core; e + 1: only with extension e enabled */
};
extern const struct sema_bi_sig sema_bi_table[];
extern const int sema_bi_count;
/* True when the row exists in the compile's dialect (and, for an
 * extension's row, while the extension is on). */
bool sema_bi_in_dialect(const struct fe_ctx *fe, const struct sema_bi_sig *b);
/* The extension that would declare built-in `name` in this dialect,
 * when it is off; NULL otherwise (for "undeclared" errors). */
const char *sema_ext_hint(const struct fe_ctx *fe, const char *name);
/* True when `name` names some built-in function of the compile. */
bool sema_bi_exists(const struct fe_ctx *fe, const char *name);

/* --- built-in variables (builtins.c) --- */
/* The most names sema_declare_builtins may declare (types and variables). */
unsigned sema_builtins_max(void);
void sema_declare_builtins(struct fe_ctx *fe, void (*declare)(void *ud, struct sema_symbol *),
			   void (*declare_type)(void *ud, const struct glsl_type *), void *ud);
/* Name of built-in struct type i in this dialect (NULL: not in it);
 * false past the last.  The parser knows them as type names. */
bool sema_bi_struct_name(const struct fe_ctx *fe, int i, const char **name);

#endif
