/* uscc's IR: SSA over vector values (1..4 components of float or bool) with
 * per-source swizzles, in structured control flow (blocks, if, loop), like
 * Mesa's NIR.  It knows neither GLSL syntax nor the R500.
 *
 * An instruction is its own SSA value.  A source names a defining
 * instruction and a swizzle: component c of the source is component
 * swz[c] of the def.  Opcodes, their source counts and flags are in
 * ir_ops.def.
 *
 * Control flow is a tree of ir_cf nodes.  A function body is a cf list;
 * an IF holds a bool scalar condition source and two cf lists; a LOOP holds
 * one body list that repeats until a BREAK (an instruction, inside an IF).
 * PHI: an instruction at the start of the first block after an IF takes
 * (then value, else value); an instruction at the start of a loop body's
 * first block takes (value before the loop, value at the end of the
 * iteration / at each CONTINUE in order); values that leave a loop through
 * BREAK come through PHIs at the start of the block after the loop, one
 * source per BREAK in program order. */
#ifndef USCC_IR_H
#define USCC_IR_H

#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "texture.h"
#include "diag.h"
#include "name_map.h"

enum ir_op {
#define OP(e, name, nsrc, flags, src_type, res_type) IR_OP_##e,
#include "ir_ops.def"
#undef OP
	IR_OP_COUNT
};

enum ir_op_flags { IRF_COMPWISE = 1, IRF_BOOL = 2, IRF_SIDE = 4, IRF_QUAD = 8,
		   IRF_COMMUTATIVE = 16, IRF_MEM = 32 };

/* One row of ir_ops.def. */
struct ir_op_info {
	const char *name;
	int nsrc;
	unsigned flags;
	char src_type, res_type;  /* 'f', 'b', 'r', 'e': see ir_ops.def */
};
extern const struct ir_op_info ir_op_infos[IR_OP_COUNT];

enum ir_base { IR_FLOAT, IR_BOOL };

/* How a TEX finds its level: src1 is the bias or the LOD of those kinds;
 * the GRAD kinds take dPdx in src1 and dPdy in src2 (explicit gradients,
 * GL_ARB_shader_texture_lod's *Grad functions). */
enum ir_tex_kind { IR_TEX_PLAIN, IR_TEX_BIAS, IR_TEX_LOD, IR_TEX_PROJ, IR_TEX_PROJ_BIAS,
		   IR_TEX_PROJ_LOD, IR_TEX_GRAD, IR_TEX_PROJ_GRAD, IR_TEX_KIND_COUNT };
/* Sampler targets; also the container's sampler "target" */
/* enum ir_tex_target (IR_TARGET_1D ... RECT) is util/texture.h's: the
 * sampling rules below the IR use it too. */

enum { IR_MAX_SRCS = 4 };

struct ir_instr;
struct ir_block;
struct ir_cost_model;

struct ir_src {
	struct ir_instr *def;
	uint8_t swz[4];
};

struct ir_instr {
	enum ir_op op;
	uint32_t id;          /* printed as %id; unique in the function */
	uint8_t ncomp;        /* 1..4; 0 for instructions without a value */
	uint8_t base;         /* enum ir_base */
	uint8_t nsrc;
	struct ir_src src[IR_MAX_SRCS];
	float imm[4];         /* CONST (bool: 0 or 1) */
	int index;            /* INPUT, UNIFORM, OUTPUT, TEX, LOAD, STORE: table index */
	int offset;           /* UNIFORM, LOAD, STORE: element in the entry */
	uint8_t tex_kind;     /* TEX: enum ir_tex_kind */
	uint8_t tex_shadow;   /* TEX: depth compare against coord .z (1D/2D) */
	struct src_loc loc;
	struct ir_block *block;
	struct ir_instr *prev, *next;
	void *pass_data;      /* scratch for the pass running now: it clears
				 them first (ir_clear_pass_data) */
	struct ir_instr *forward; /* replaced by (ir_forward), NULL otherwise */
};

enum ir_cf_kind { IR_CF_BLOCK, IR_CF_IF, IR_CF_LOOP };

struct ir_cf;
struct ir_cf_list {
	struct ir_cf *first, *last;
};

struct ir_block {
	struct ir_instr *first, *last;
};

struct ir_cf {
	enum ir_cf_kind kind;
	struct ir_cf *prev, *next, *parent;
	struct ir_block block;          /* BLOCK */
	struct ir_src cond;             /* IF: bool scalar */
	struct ir_cf_list then_list;    /* IF */
	struct ir_cf_list else_list;    /* IF */
	struct ir_cf_list body;         /* LOOP */
	bool doubled;                   /* LOOP: its body is two trips already
					   (loop_unroll's partial unrolling) */
};

/* What the shader reads from the rasterizer. */
struct ir_input {
	const char *name;     /* "gl_TexCoord[0]", "gl_Color", "gl_FragCoord", "v_normal" */
	uint8_t ncomp;
	bool centroid;
};

/* A uniform: nvec4 consecutive vec4 elements (matrix columns, array
 * elements, struct members flattened by the frontend). */
struct ir_uniform {
	const char *name;     /* GLSL name, e.g. "u_light" or "gl_LightSource[0].diffuse" */
	const char *type;     /* GLSL type name of one element: "vec3", "mat4", "float" */
	int array_len;        /* 0 when not an array */
	int nvec4;            /* elements (vec4 slots) in total */
	uint8_t ncomp;        /* components used in each element */
	int base;             /* first element in the flattened uniform value array */
	/* The GLSL 1.20 initializer (`uniform vec4 c = vec4(1.0);`), the value
	 * glLinkProgram gives the uniform, or NULL when it has none.  nvec4
	 * vec4s in the same element order as the flattened value array
	 * (init[e] is element e: matrix columns, array elements, struct
	 * members as flattened); components 0..ncomp-1 hold the value, the
	 * rest 0; bool 0/1, int as float.  Used when a run gives no value. */
	const float (*init)[4];
	/* A member of a uniform array of structs, laid out member-major (all
	 * lights[k].pos, then all lights[k].color), so that a computed struct
	 * index is an element index: `name` is the member's path with "[]"
	 * where the struct index goes ("lights[].m"), array_len the number of
	 * structs, nvec4 / array_len columns each.  Column-major too: element
	 * c * array_len + k is column c of the GL uniform "lights[k].m"
	 * (ir_uniform_member_name), so that every column is read at the
	 * struct index itself (a loop counter: aL); a read at an index is
	 * clamped to its column's run (ir_uniform_index_range). */
	bool member_major;
};

struct ir_sampler {
	const char *name;
	uint8_t target;       /* enum ir_tex_target */
	bool shadow;
	int unit;             /* texture unit, assigned by the frontend in order */
	uint8_t compare;      /* shadow: enum tex_compare (util/shadow.h), the unit's state */
	uint8_t depth_mode;   /* shadow: enum tex_depth_mode */
};

struct ir_output {
	const char *name;     /* "gl_FragColor", "gl_FragData[1]", "gl_FragDepth" */
	int target;           /* render target 0..3, or -1 for depth */
	uint8_t ncomp;
};

/* A local array: `length` elements of ncomp components of one base,
 * read by LOAD and written by STORE (ir_ops.def), lowered to SSA values or
 * selects by ir/lower_arrays.c.  Every element starts as zero (false).
 * The element an access names is e = offset + src (fp32 add; offset alone
 * without a src).  When e equals no k in 0..length-1 (out of range, not an
 * integer, NaN), a LOAD reads element length-1 and a STORE does nothing:
 * what the select chains the frontend used to build give. */
struct ir_array {
	const char *name;     /* for dumps: the GLSL variable ("a", "s[].color") */
	int length;           /* >= 1 */
	uint8_t ncomp;        /* 1..4 */
	uint8_t base;         /* enum ir_base */
};

enum ir_stage { IR_STAGE_FRAGMENT, IR_STAGE_VERTEX };

struct ir_func {
	struct arena *arena;
	enum ir_stage stage;
	struct ir_cf_list body;
	uint32_t next_id;
	uint32_t id_budget;          /* growth budget: passes that copy code (unrolling)
					keep next_id within it; 0 = none */
	const struct ir_cost_model *cost; /* the target's costs the passes ask
					     (ir_cost.h); NULL: a vec4 machine's */
	int unrolled_loops;          /* loops loop_unroll unrolled: a
					program too long is compiled again with loops
					kept only when there were some */
	struct ir_input *inputs;     int ninputs;
	struct ir_uniform *uniforms; int nuniforms;
	int nuniform_vec4;           /* sum of nvec4 */
	struct ir_sampler *samplers; int nsamplers;
	struct ir_output *outputs;   int noutputs;
	struct ir_array *arrays;     int narrays;
	/* name -> index+1 of the tables above, kept by ir_func_add_* */
	struct name_map input_names, uniform_names, sampler_names, output_names;
};

/* --- construction (ir.c) --- */
struct ir_func *ir_func_create(struct arena *arena, enum ir_stage stage);
int ir_func_add_input(struct ir_func *f, const char *name, int ncomp);
int ir_func_add_uniform(struct ir_func *f, const char *name, const char *type, int array_len,
			int nvec4, int ncomp);
/* Gives uniform `u` its initializer: nvec4 vec4s copied into the arena
 * (see ir_uniform.init); false on a bad index or out of memory. */
bool ir_func_set_uniform_init(struct ir_func *f, int u, const float (*init)[4]);
/* The values a run uses when it gives none: each uniform's initializer,
 * else 0.  Fills vals[0 .. f->nuniform_vec4). */
void ir_uniform_defaults(const struct ir_func *f, float (*vals)[4]);
/* The GL name of struct k's member in a member-major uniform: its name
 * with k in the "[]" ("lights[2].pos"), written to buf; false when it
 * does not fit, u is not member-major or k is out of range. */
bool ir_uniform_member_name(const struct ir_uniform *u, int k, char *buf, size_t size);
/* vec4 elements per array element of a uniform whose type is named
 * `type` (ir_uniform.type, a container record's): a matrix has one per
 * column (matN and matCxR: C), anything else 1. */
int ir_type_columns(const char *type);
/* The length of a member-major uniform's member when it is an array
 * ("lights[].w" of `vec2 w[2]`: 2; its element e's column c of struct k
 * in element (e * columns + c) * array_len + k), else 0. */
int ir_uniform_member_len(const struct ir_uniform *u);
/* A member-major uniform with no member path ("m[]"): a uniform array of
 * matrices held column-major, which GL names as the array "m". */
bool ir_uniform_is_matrix_array(const struct ir_uniform *u);
/* The element of u holding vec4 `col` of its array element k (of the GL
 * uniform "lights[k].m" when member-major; of a member array, column c of
 * its element e is col e * columns + c); k 0 when not an array. */
int ir_uniform_element(const struct ir_uniform *u, int k, int col);
/* The elements a read of u at element `offset` plus an index is clamped
 * to (rounded to nearest; NaN gives *first): all of u's, or of a
 * member-major uniform, the run of offset's column (the GL array). */
void ir_uniform_index_range(const struct ir_uniform *u, int offset, int *first, int *last);
int ir_func_add_sampler(struct ir_func *f, const char *name, int target, bool shadow);
int ir_func_add_output(struct ir_func *f, const char *name, int target, int ncomp);
/* A local array (see ir_array); its index, -1 when memory runs out. */
int ir_func_add_array(struct ir_func *f, const char *name, int length, int ncomp,
		      enum ir_base base);
/* A copy of f in f's arena (ir_clone.c): its own tables, control flow
 * and instructions, the same ids; names and initializers are shared (the
 * arena keeps them).  NULL when memory runs out. */
struct ir_func *ir_func_clone(const struct ir_func *f);
/* Lookup by name; -1 when absent. */
int ir_func_find_input(const struct ir_func *f, const char *name);
int ir_func_find_uniform(const struct ir_func *f, const char *name);
int ir_func_find_sampler(const struct ir_func *f, const char *name);
int ir_func_find_output(const struct ir_func *f, const char *name);

/* A builder appends at the end of a block. */
struct ir_builder {
	struct ir_func *func;
	struct ir_block *block;
	struct ir_cf_list *list;   /* list that holds `block` */
	struct ir_cf *parent;      /* cf node owning `list`, NULL at top level */
	struct src_loc loc;        /* attached to new instructions */
};
void ir_builder_init(struct ir_builder *b, struct ir_func *f); /* end of body */

/* Identity swizzle source of a def. */
struct ir_src ir_src_of(struct ir_instr *def);
/* Source reading component `comp` of def, replicated. */
struct ir_src ir_src_comp(struct ir_instr *def, int comp);
struct ir_src ir_src_swz(struct ir_instr *def, const uint8_t swz[4]);
/* What s reads, read again through swizzle `through`: entry c reads
 * component s.swz[through[c]] of s's value (a reader of a MOV of s, with
 * the MOV's source s and the reader's swizzle `through`, reads this). */
struct ir_src ir_src_through(const struct ir_src *s, const uint8_t through[4]);

/* New instruction appended by the builder; sources copied. */
struct ir_instr *ir_build(struct ir_builder *b, enum ir_op op, int ncomp, enum ir_base base,
			  int nsrc, const struct ir_src *srcs);
struct ir_instr *ir_build_const(struct ir_builder *b, int ncomp, enum ir_base base,
				const float v[4]);
struct ir_instr *ir_build_constf(struct ir_builder *b, float x);
struct ir_instr *ir_build_alu1(struct ir_builder *b, enum ir_op op, int ncomp, struct ir_src a);
struct ir_instr *ir_build_alu2(struct ir_builder *b, enum ir_op op, int ncomp, struct ir_src a,
			       struct ir_src c);
struct ir_instr *ir_build_alu3(struct ir_builder *b, enum ir_op op, int ncomp, struct ir_src a,
			       struct ir_src c, struct ir_src d);
/* Structured control flow: push an IF / LOOP, then build into its lists. */
struct ir_cf *ir_build_if(struct ir_builder *b, struct ir_src cond);
void ir_builder_enter(struct ir_builder *b, struct ir_cf_list *list, struct ir_cf *parent);
void ir_builder_after(struct ir_builder *b, struct ir_cf *node); /* continue after node */
struct ir_cf *ir_build_loop(struct ir_builder *b);

/* Control-flow list editing, shared by the builder and the passes that
 * restructure code (dead_branch, loop_unroll). */
struct ir_cf *ir_cf_create(struct ir_func *f, enum ir_cf_kind kind, struct ir_cf *parent);
void ir_cf_list_append(struct ir_cf_list *list, struct ir_cf *cf);
/* Puts cf into `list` right before `before` (a node of that list). */
void ir_cf_list_insert_before(struct ir_cf_list *list, struct ir_cf *before, struct ir_cf *cf);
/* Puts the nodes of `taken` where `node` is in `list` (taken is left
 * empty, node out of the list). */
void ir_cf_list_splice(struct ir_cf_list *list, struct ir_cf *node, struct ir_cf_list *taken);
/* Takes node out of `list`. */
void ir_cf_list_remove(struct ir_cf_list *list, struct ir_cf *node);
/* No instruction and no control flow in the list. */
bool ir_cf_list_is_empty(const struct ir_cf_list *list);
/* An IF whose only content is a BREAK, with no else. */
bool ir_cf_is_break_if(const struct ir_cf *cf);
void ir_block_append(struct ir_block *bl, struct ir_instr *instr);
/* The block right before `loop` in `list`: the block there, or a new one
 * put there; NULL when memory runs out. */
struct ir_block *ir_loop_preheader(struct ir_func *f, struct ir_cf_list *list, struct ir_cf *loop);
/* BREAKs (IR_JUMP_BREAK) and / or CONTINUEs (IR_JUMP_CONTINUE) in a cf
 * node or list: jumps of the loop holding it, so a nested loop's own do
 * not count. */
enum { IR_JUMP_BREAK = 1, IR_JUMP_CONTINUE = 2, IR_JUMP_ANY = 3 };
int ir_cf_jumps(const struct ir_cf *cf, unsigned which);
int ir_cf_list_jumps(const struct ir_cf_list *list, unsigned which);
/* Whether the list is one block holding a BREAK and nothing else (the
 * side of an `if (c) break;`). */
bool ir_cf_list_is_break(const struct ir_cf_list *list);
/* Whether a and b read the same components in entries 0..n-1 (ir_src_same:
 * of the same value too). */
bool ir_swz_same(const struct ir_src *a, const struct ir_src *b, int n);
bool ir_src_same(const struct ir_src *a, const struct ir_src *b, int n);
/* Whether s reads components 0..n-1 in order. */
bool ir_swz_identity(const struct ir_src *s, int n);
/* Whether s reads a float CONST; component c of it, read through s's
 * swizzle (s must read a CONST). */
bool ir_src_float_const(const struct ir_src *s);
float ir_src_const_comp(const struct ir_src *s, int c);
/* Sets every instruction's pass_data to NULL (a pass starting). */
void ir_clear_pass_data(struct ir_func *f);
/* The cf node (a BLOCK) holding instruction d, NULL when it has none. */
const struct ir_cf *ir_instr_cf(const struct ir_instr *d);
/* The innermost loop holding cf node c (c itself excluded), NULL when
 * none does. */
const struct ir_cf *ir_cf_loop_around(const struct ir_cf *c);
/* Whether instruction d sits inside cf node `node` (in one of its lists,
 * at any depth). */
bool ir_instr_inside(const struct ir_instr *d, const struct ir_cf *node);
/* Joins each run of adjacent blocks of `list` into one; a block that
 * starts with PHIs stays separate (its PHIs belong to the join). */
void ir_cf_list_merge_blocks(struct ir_cf_list *list);

/* Remove an instruction (its uses must be gone). */
void ir_instr_remove(struct ir_instr *instr);
/* Insert `instr` (already built elsewhere or fresh) before `before`. */
void ir_instr_insert_before(struct ir_instr *before, struct ir_instr *instr);
/* A new instruction (fresh id, `before`'s location, sources copied)
 * inserted before `before`: what passes that rewrite in place add. */
struct ir_instr *ir_build_before(struct ir_func *f, struct ir_instr *before, enum ir_op op,
				 int ncomp, enum ir_base base, int nsrc, const struct ir_src *srcs);
/* A copy of `in` with a fresh id, in no block (block and links cleared,
 * no pass_data, not forwarded), for a pass that clones code; NULL when
 * memory runs out. */
struct ir_instr *ir_instr_copy(struct ir_func *f, const struct ir_instr *in);
/* A constant (imm = v) inserted before `before`, as ir_build_before. */
struct ir_instr *ir_build_const_before(struct ir_func *f, struct ir_instr *before, int ncomp,
				      enum ir_base base, const float v[4]);
/* Replacing values without a walk of the function per replacement:
 * ir_forward(old, rep) marks every use of `old` as a use of `rep` (which
 * gives the same components in the same order; sources keep their
 * swizzles, and rep is never forwarded back to old); `old` may leave its
 * block at once.  A pass that meets sources as it goes resolves them with
 * ir_src_forward (following chains); ir_apply_forwards rewrites every
 * source and IF condition of the function in one walk, for the readers
 * met before their def was replaced, and clears the marks. */
void ir_forward(struct ir_instr *old, struct ir_instr *rep);
void ir_src_forward(struct ir_src *s);
void ir_apply_forwards(struct ir_func *f);

/* Iteration over every instruction in program order (recursing into
 * control flow).  The callback may not remove the instruction. */
typedef void (*ir_instr_fn)(struct ir_instr *instr, void *ud);
void ir_foreach_instr(struct ir_func *f, ir_instr_fn fn, void *ud);
/* fn on the condition of every IF, at any depth (program order). */
typedef void (*ir_cond_fn)(struct ir_src *cond, void *ud);
void ir_foreach_cond(struct ir_func *f, ir_cond_fn fn, void *ud);
/* Readers of each value, by id below f->next_id (saturating at
 * UINT16_MAX): the sources of every instruction and every IF condition.
 * A calloc'd array of next_id + 1 entries the caller frees; NULL when
 * memory runs out. */
uint16_t *ir_count_uses(struct ir_func *f);
/* reader[d->id] = in for each value d (id below n) that `in` reads: over
 * the function in order, each value's last reader. */
void ir_note_reader(struct ir_instr *in, struct ir_instr **reader, uint32_t n);
/* Whether some instruction satisfies pred (program order, stopping at the
 * first): a pass's cheap look for its pattern before it allocates. */
typedef bool (*ir_instr_pred)(const struct ir_instr *in, void *ud);
bool ir_any_instr(const struct ir_func *f, ir_instr_pred pred, void *ud);
/* Whether f has an IF or a LOOP (cheap: they nest only in each other,
 * so the top level tells).  Straight-line code lets the passes of flow
 * control skip their set-up. */
bool ir_func_has_flow(const struct ir_func *f);
/* A pass's walk: fn on every instruction in program order (the same
 * rules), returning whether it changed it; whether any changed. */
typedef bool (*ir_rewrite_fn)(struct ir_func *f, struct ir_instr *instr);
bool ir_rewrite_each(struct ir_func *f, ir_rewrite_fn fn);

/* --- printing, parsing, validation (ir_print.c, ir_parse.c, ir_validate.c) --- */
/* Textual IR of the function as an arena string. */
char *ir_print(const struct ir_func *f, struct arena *arena);
/* Parse textual IR (what ir_print gives); NULL and diagnostics on error. */
struct ir_func *ir_parse(const char *text, const char *filename, struct arena *arena,
			 struct diag_sink *diag);
/* Structural and SSA checks; reports through `diag`, returns true if valid. */
bool ir_validate(const struct ir_func *f, struct diag_sink *diag);

#endif
