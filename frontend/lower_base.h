/* The base of the lowering (lower_base.c): its state, values (struct lv)
 * and the IR building blocks on them, constants, errors, the leaf layout
 * of arrays and structs, and variables.  Every other lower*.c file builds
 * on these; lower_base.c includes this header only, so it can call no
 * other lower*.c file (lower_int.h says which file is at which layer). */
#ifndef USCC_FE_LOWER_BASE_H
#define USCC_FE_LOWER_BASE_H

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
	int array;               /* >= 0: IR arrays (ir_func.arrays) hold the elements, from
				    this one on: one per column of each leaf of an element
				    (a struct's members, a matrix's columns), read and
				    written by lower_var_get/lower_var_set only; elems then
				    only mark those never assigned (lower_undef) */
	int per;                 /* IR arrays: leaves per element */
	bool declared;           /* IR arrays: lower_decl made it, inside loop `loop` */
	const struct ir_cf *loop;
};

struct lower {
	struct fe_ctx *fe;
	struct ir_func *f;
	struct ir_builder b;
	struct lvar **vars;          /* every variable with a value, creation order */
	int nvars, capvars;
	struct ir_instr *zero, *falsev; /* values of variables never assigned */
	struct ir_instr *undef[2];   /* float, bool: zeros that only mark the elements of
					local arrays never assigned (lower_undef) */
	struct ir_instr *truev;      /* bool true, made at the start (may be NULL) */
	int inline_depth;
	int depth;
	int expr_depth;
	bool failed;                 /* a construct was refused: stop quietly */
	bool quiet;                  /* constant folding: refuse without diagnostics */
	struct lower_jctx *jc;       /* innermost loop or function body (lower_jump.c) */
	unsigned stamp;              /* last sema_symbol.lower_stamp handed out */
};

/* --- the start --- */

/* A fresh lowering of a function of `stage`: its zero, false and true
 * constants first (located at `loc`); false when memory runs out. */
bool lower_begin(struct lower *l, struct fe_ctx *fe, enum ir_stage stage, struct src_loc loc);

/* --- errors --- */

void lower_refuse(struct lower *l, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "WHAT is not supported yet", and a zero of e's type */
struct lv lower_refuse_lv(struct lower *l, struct ast_node *e, const char *what);

/* --- values --- */

struct lv lv_scalar(struct ir_instr *def, int comp);
struct lv lv_of(struct ir_instr *def);
struct ir_src lv_comp(const struct lv *v, int col, int comp);
/* v as `n` components (scalar replicated), single column */
struct ir_src lv_bcast(const struct lv *v, int n);
struct ir_instr *lv_build(struct lower *l, enum ir_op op, int n, int nsrc, const struct ir_src *s);
/* A vector of `n` scalar sources (one VEC; a single source as it is). */
struct lv lv_vec(struct lower *l, struct ir_src *comps, int n);
struct lv lower_const(struct lower *l, const struct glsl_type *t, const float *v);
struct lv lower_zero(struct lower *l, const struct glsl_type *t);
/* A never-assigned element of a local array: zero, like lower_zero, but
 * from a constant of its own, so that lower_is_undef knows it (GLSL
 * leaves it undefined: a store may give it any value). */
struct lv lower_undef(struct lower *l, const struct glsl_type *t);
bool lower_is_undef(const struct lower *l, const struct lv *v);
/* The same values (the same definitions, swizzles and shape). */
bool lv_same(const struct lv *a, const struct lv *b);
/* Candidate `dyn` of n candidates of `width` leaves each (cands[k * width
 * + i]) into out[0 .. width): a select chain from the last candidate
 * down, skipping those equal to what the chain holds (an array whose
 * elements are mostly one value reads in a few selects); an index out of
 * range reads the last candidate (GLSL leaves it undefined). */
void lower_select_dynamic(struct lower *l, const struct lv *dyn, const struct lv *cands, int n,
			  int width, struct lv *out);
struct lv lower_bool(struct lower *l, bool v);
/* Is `v` a compile-time constant bool (its first component), and which? */
bool lower_lv_known(const struct lv *v, bool *val);
struct ir_instr *lower_not(struct lower *l, const struct lv *c);
struct lv lower_select_lv(struct lower *l, struct ir_src cond, const struct lv *a,
			  const struct lv *b);
/* A constant index as an int; -1 (out of range for every array) when the
 * float has no int value (NaN, or beyond the int range). */
int lower_index_int(float v);
/* Does the non-constant index `dyn` equal k? */
struct ir_src lower_index_is(struct lower *l, const struct lv *dyn, int k);

/* --- leaves: arrays and structs flattened --- */

bool lower_is_agg(const struct glsl_type *t);
int lower_leaf_count(const struct glsl_type *t);
const struct glsl_type *lower_leaf_type(const struct glsl_type *t, int leaf);
/* Where a leaf of a uniform lives in the IR uniform table. */
struct uniform_entry {
	const char *name;              /* "u", "light.color", "lights[].pos" */
	const struct glsl_type *type;  /* of the entry: basic, or an array of basic */
	int elem;                      /* the leaf's element of it (0 when basic) */
	int stride;                    /* leaves of the uniform from one element to the next */
	bool member_major;             /* see ir_uniform.member_major */
	/* member-major, a member that is an array ("lights[].w" of `vec2
	 * w[2]`): its length and the leaf's element of it (0 and 0 for a
	 * member that is not an array); element e's column c of struct k
	 * is entry element (e * cols + c) * structs + k */
	int inner_len, inner;
};
void lower_uniform_leaf(struct lower *l, const struct sema_symbol *sym, int leaf,
			struct uniform_entry *out);
/* The sampler table name of sampler leaf `leaf` of uniform `sym`:
 * "s", "s[1]", "light.shadow", "m[0].tex[1]". */
const char *lower_sampler_name(struct lower *l, const struct sema_symbol *sym, int leaf);
bool lower_path(const struct ast_node *e, struct sema_symbol **sym, int *leaf);

/* --- variables --- */

/* The variable of `sym`, made on first use (zero; an array's elements
 * undefined).  A local array (of scalars, vectors, matrices or structs of
 * them) that some expression indexes with a non-constant is held in IR
 * arrays (lvar.array), one per column of each leaf of its element type
 * ("s[].p", "m[][1]"), each indexed by the element: its accesses are
 * LOADs and STOREs that ir/lower_arrays.c lowers late (or the backend
 * addresses through aL), not select chains built here. */
struct lvar *lower_var(struct lower *l, struct sema_symbol *sym);
/* The innermost IR loop being built into, NULL outside loops. */
const struct ir_cf *lower_current_loop(const struct lower *l);
bool lower_is_memory_array(const struct sema_symbol *sym);
/* Leaves first .. first + n - 1 of a variable, read or assigned; dyn:
 * a non-constant element index, `dyn` elements (dyn * per leaves) added
 * to `first` (IR arrays only; the leaves of one element).
 * GLSL leaves an element never assigned undefined, the IR makes it zero:
 * a store at an index, in the loop the array was declared in, first
 * stores its value into every element never assigned on any path there
 * (what the dynamic store would select between: that value is as good
 * as any, and where the index names it, the right one), so that
 * ir/lower_arrays.c needs no select for them. */
void lower_var_get(struct lower *l, struct lvar *v, int first, int n, const struct lv *dyn,
		   struct lv *out);
void lower_var_set(struct lower *l, struct lvar *v, int first, int n, const struct lv *dyn,
		   const struct lv *vals);
/* A variable of the lowering's own, zero, of type `t`. */
struct sema_symbol *lower_temp(struct lower *l, const char *name, const struct glsl_type *t);

#endif
