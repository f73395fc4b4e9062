/* libuscc: the public API for a GL driver (INTERFACES.md §2).
 *
 * GLSL fragment shader source -> R500 program in a container (the .bin of
 * docs/container.md), the container's tables, a stable cache key, and a
 * shader cache in memory and on disk.
 *
 * Rules every function keeps:
 * - no global mutable state; calls on distinct objects may run in parallel
 *   threads; a uscc_cache may be shared by threads (it locks) and its
 *   directory by processes (atomic rename; readers validate);
 * - nothing prints, aborts or exits;
 * - all memory comes from the caller's allocator (NULL = malloc/free);
 * - a failure returns a status and, in the result, the same diagnostics
 *   text the `uscc` command prints (gcc-style, with source line and caret);
 * - the same source and options always give byte-identical containers.
 */
#ifndef USCC_H
#define USCC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API's version when the caller was compiled; uscc_version() gives
 * the library's at run time.  MAJOR is the shared library's SONAME
 * version (libuscc.so.MAJOR): it changes when the ABI breaks. */
#define USCC_VERSION_MAJOR 0
#define USCC_VERSION_MINOR 1
#define USCC_VERSION_PATCH 0
#define USCC_STRINGIFY_(x) #x
#define USCC_STRINGIFY(x) USCC_STRINGIFY_(x)
#define USCC_VERSION_STRING                                                   \
	USCC_STRINGIFY(USCC_VERSION_MAJOR) "." USCC_STRINGIFY(USCC_VERSION_MINOR) \
	"." USCC_STRINGIFY(USCC_VERSION_PATCH)

/* Marks the API: libuscc.so is built with hidden visibility and exports
 * these functions and nothing else. */
#if defined(__GNUC__) || defined(__clang__)
#define USCC_API __attribute__((visibility("default")))
#else
#define USCC_API
#endif

/* realloc-like hook: nsize == 0 frees ptr (returns NULL); otherwise
 * (re)allocates, returning NULL on failure.  osize is the old size. */
typedef void *(*uscc_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);
struct uscc_allocator {
	uscc_alloc_fn fn;
	void *ud;
};

enum uscc_status {
	USCC_OK = 0,
	USCC_SHADER_ERROR,      /* invalid shader, or it does not fit the hardware */
	USCC_USAGE_ERROR,       /* bad option, or a request the stage cannot do */
	USCC_CORRUPT_CONTAINER, /* container truncated, corrupt or of another version */
	USCC_IO_ERROR,          /* a cache file could not be written */
	USCC_OUT_OF_MEMORY,
	USCC_NOT_FOUND,         /* cache miss */
};

/* "MAJOR.MINOR.PATCH" of the library (part of every cache key). */
USCC_API const char *uscc_version(void);
USCC_API const char *uscc_status_string(enum uscc_status status);

/* ---- options ---- */

enum uscc_stage { USCC_STAGE_FRAGMENT, USCC_STAGE_VERTEX };
/* The source language: GLSL, a fragment program in the text Mesa's
 * tgsi_dump prints (docs/tgsi.md), or the same program as Mesa's binary
 * tokens (struct tgsi_token words in the host's byte order: the source is
 * their bytes, len = 4 * tgsi_num_tokens; a diagnostic's line is the
 * 1-based number of the word it is about). */
enum uscc_language { USCC_LANGUAGE_GLSL, USCC_LANGUAGE_TGSI, USCC_LANGUAGE_TGSI_TOKENS };

struct uscc_options;

/* Defaults: fragment stage, -O2, no defines, file name "<source>". */
USCC_API struct uscc_options *uscc_options_create(const struct uscc_allocator *alloc);
USCC_API void uscc_options_destroy(struct uscc_options *o);
USCC_API enum uscc_status uscc_options_set_stage(struct uscc_options *o, enum uscc_stage stage);
/* GLSL (the default) or TGSI; TGSI has no preprocessor (no -E, defines
 * do nothing) and is a fragment program. */
USCC_API enum uscc_status uscc_options_set_language(struct uscc_options *o, enum uscc_language lang);
/* 0 (no optimization passes) or 2 (the default). */
USCC_API enum uscc_status uscc_options_set_opt_level(struct uscc_options *o, int level);
/* -D NAME[=VALUE] (value NULL means "1") and -U NAME, applied in call order. */
USCC_API enum uscc_status uscc_options_define(struct uscc_options *o, const char *name, const char *value);
USCC_API enum uscc_status uscc_options_undefine(struct uscc_options *o, const char *name);
/* Warnings become errors. */
USCC_API enum uscc_status uscc_options_set_werror(struct uscc_options *o, bool on);
/* The name diagnostics give the source (not part of the cache key). */
USCC_API enum uscc_status uscc_options_set_filename(struct uscc_options *o, const char *name);
/* Store the measured compile_us in the container.  Off by default: the
 * container then holds compile_us = 0, so output stays byte-identical. */
USCC_API enum uscc_status uscc_options_set_record_time(struct uscc_options *o, bool on);
/* The constant program (on by default): work that depends only on
 * uniforms moves out of the pixel program into a small program the
 * driver runs when the uniforms change (uscc_container_run_constant_program).
 * Off, the pixel program computes everything, for a driver that cannot
 * run it. */
USCC_API enum uscc_status uscc_options_set_constant_program(struct uscc_options *o, bool on);
/* Divergent jumps (off by default): an IF with implicit-LOD lookups or
 * derivatives whose quad's pixels may take different sides jumps, where
 * its lookups' coordinates can be made for inactive pixels too
 * (WRITE_INACTIVE), by the cost rule of other IFs; off, it is
 * if-converted (every pixel runs both sides) unless something else makes
 * it jump.  It pays where most pixels skip the heavy side (a split-screen
 * effect) and costs where most take it: which, only the draws know. */
USCC_API enum uscc_status uscc_options_set_divergent_jumps(struct uscc_options *o, bool on);

/* Skips one optimization by name, for bisecting a miscompile (--skip):
 * an IR pass or an optional backend stage, as uscc_skip_name lists them
 * ('-' and '_' alike).  USCC_USAGE_ERROR for an unknown name or for a
 * backend stage every program needs.  Skipped names are part of the
 * cache key.  The environment variable USCC_SKIP (names separated by
 * commas) skips the same way in every uscc_options_create, so that a
 * driver's compiles can be bisected without rebuilding it; a name there
 * that is not known is reported as a warning by every run. */
USCC_API enum uscc_status uscc_options_skip(struct uscc_options *o, const char *name);
/* The names uscc_options_skip takes, i = 0, 1, ...: the IR passes, then the
 * optional backend stages; NULL past the last. */
USCC_API const char *uscc_skip_name(int i);

/* One step of a compile, as util/pipeline.def lists them in the order
 * they run (uscc --list-steps prints them): its layer ("frontend", "ir"
 * for the passes run in rounds, "ir-once", "split", "backend", "inside"
 * for an optimization made inside the step named by `within`), its name
 * (the heading of its dump), the --skip name that switches it off (NULL:
 * every compile runs it), the lowest -O level it runs at, and a note. */
struct uscc_step {
	const char *layer, *name, *skip, *within, *note;
	int min_level;
};
/* Step i = 0, 1, ... into *out; false past the last. */
USCC_API bool uscc_pipeline_step(int i, struct uscc_step *out);
/* For benchmarks: on zeroes and starts summing the wall time each step
 * takes, over every compile of the process that follows (a step runs once
 * per candidate compiled, the IR passes once per round); off stops it.  The
 * sums are process-wide and unsynchronized: turn them on in a
 * one-threaded process only.  Off by default. */
USCC_API void uscc_step_times_enable(bool on);
/* Step i's sum in nanoseconds (0 for "inside" steps and past the last). */
USCC_API int64_t uscc_step_time_ns(int i);

/* ---- resource limits ----
 * Untrusted sources (WebGL) are bounded: going over a limit refuses the
 * shader with "FILE:LINE:COL: error: too many <what>: <figure>, over the
 * limit of <value> (limit '<name>')".  With every limit at its default,
 * any source of at most 1 MiB compiles or is refused within about 1 s and
 * 256 MiB.  A driver may tighten them; none can be raised above its
 * default.  Changed limits are part of the cache key. */
enum uscc_limit {
	USCC_LIMIT_SOURCE_BYTES,       /* bytes of source text (1 MiB) */
	USCC_LIMIT_LINE_LENGTH,        /* characters in one source line */
	USCC_LIMIT_TOKENS,             /* tokens after preprocessing */
	USCC_LIMIT_PREPROCESSED_BYTES, /* bytes of text after macro expansion */
	USCC_LIMIT_MACRO_DEPTH,        /* levels of nested macro expansion */
	USCC_LIMIT_EXPRESSION_DEPTH,   /* levels of nested expressions */
	USCC_LIMIT_BLOCK_DEPTH,        /* levels of nested blocks and statements */
	USCC_LIMIT_CALL_DEPTH,         /* levels of nested function calls */
	USCC_LIMIT_ARRAY_SIZE,         /* elements in one array */
	USCC_LIMIT_STRUCT_FIELDS,      /* fields in one struct */
	USCC_LIMIT_STRUCT_DEPTH,       /* levels of structs inside structs */
	USCC_LIMIT_IR_INSTRUCTIONS,    /* IR instructions made by inlining and unrolling */
	USCC_LIMIT_COUNT
};
/* The built-in value (also the highest allowed); -1 for an unknown limit. */
USCC_API long uscc_limit_default(enum uscc_limit which);
/* "source-bytes", ... (the names the CLI's --limit takes); NULL if unknown. */
USCC_API const char *uscc_limit_name(enum uscc_limit which);
/* The limit called `name`; USCC_USAGE_ERROR if there is none. */
USCC_API enum uscc_status uscc_limit_find(const char *name, enum uscc_limit *out);
/* Sets a limit to 1..default; anything else is USCC_USAGE_ERROR. */
USCC_API enum uscc_status uscc_options_set_limit(struct uscc_options *o, enum uscc_limit which, long value);
/* The value in force (o NULL: the default); -1 for an unknown limit. */
USCC_API long uscc_options_limit(const struct uscc_options *o, enum uscc_limit which);

/* Shadow samplers: the depth compare is in the R500's code (its TEX word
 * has none), so a program is compiled for the compare state of the
 * texture each unit will hold, as GL sets it per texture
 * (TEXTURE_COMPARE_FUNC, DEPTH_TEXTURE_MODE).  `unit` is the one the
 * container's sampler table gives (0..15).  Unset units get GL's
 * defaults, LEQUAL and LUMINANCE.  The state is part of the cache key. */
enum uscc_compare {
	USCC_COMPARE_LEQUAL, USCC_COMPARE_GEQUAL, USCC_COMPARE_LESS, USCC_COMPARE_GREATER,
	USCC_COMPARE_EQUAL, USCC_COMPARE_NOTEQUAL, USCC_COMPARE_ALWAYS, USCC_COMPARE_NEVER
};
enum uscc_depth_mode {
	USCC_DEPTH_LUMINANCE, USCC_DEPTH_INTENSITY, USCC_DEPTH_ALPHA, USCC_DEPTH_RED
};
USCC_API enum uscc_status uscc_options_set_shadow(struct uscc_options *o, int unit,
						  enum uscc_compare compare,
						  enum uscc_depth_mode mode);

/* ---- r300's conventions ----
 * For Mesa's r300 driver (integrations/mesa-r300): the program takes its
 * inputs, constants and window position the way r300 sets up its own
 * programs, so that the driver uploads and binds it unchanged
 * (docs/container.md, "r300's conventions", says what the container
 * then holds):
 * - every input the shader declares in a temporary, in the order r300's
 *   allocate_hardware_inputs gives them registers: COLOR0, COLOR1, FACE,
 *   GENERIC by index (GLSL: gl_TexCoord[i] is GENERIC i, gl_PointCoord 8,
 *   varyings 9, 10, ...), FOG, WPOS;
 * - WPOS as r300 interpolates it, the clip-space position (input
 *   "gl_r300Position"), and FACE as r300 delivers it, 1.0 on a back face
 *   (input "gl_r300BackFace"); the program makes gl_FragCoord and
 *   gl_FrontFacing from them, with two state constants;
 * - constants: element i of the uniforms (vec4 i of the flattened uniform
 *   values: TGSI's CONST[i]) in slot i, unpacked, every element up to the
 *   last; then r300's state constants (uniforms named gl_r300*: see
 *   uscc_container_constant_info); then the immediates;
 * - no constant program (r300 has no way to run one).
 * Off by default; part of the cache key. */
USCC_API enum uscc_status uscc_options_set_r300_conventions(struct uscc_options *o, bool on);
/* r300's wrap emulation for a unit (its variant key's wrap_mode and
 * clamp_and_scale_before_fetch, set for NPOT textures): the coordinates
 * are wrapped in code before the lookup, as r300's compiler does.  With
 * r300's conventions only; part of the cache key. */
enum uscc_wrap { USCC_WRAP_NONE, USCC_WRAP_REPEAT, USCC_WRAP_MIRRORED_REPEAT, USCC_WRAP_MIRRORED_CLAMP };
USCC_API enum uscc_status uscc_options_set_r300_wrap(struct uscc_options *o, int unit,
						     enum uscc_wrap wrap, bool clamp_and_scale);

/* ---- compiling ---- */

/* Pass as `len` for a NUL-terminated source. */
#define USCC_NUL_TERMINATED ((size_t)-1)

enum uscc_action {
	USCC_ACTION_COMPILE,     /* container bytes (fragment only) */
	USCC_ACTION_ASSEMBLY,    /* -S: the final program as assembly text (fragment only) */
	USCC_ACTION_PREPROCESS,  /* -E: preprocessed text */
	USCC_ACTION_CHECK,       /* --check: no output, diagnostics only */
	USCC_ACTION_DUMP_IR,     /* --dump-ir: IR after optimization at the opt level */
	USCC_ACTION_DUMP_IR_ALL, /* --dump-ir=all: IR after every pass, headed by pass name */
	USCC_ACTION_DUMP_BACKEND,     /* --dump-backend: the backend's middle form after its last stage */
	USCC_ACTION_DUMP_BACKEND_ALL, /* --dump-backend=all: after every stage, headed by its name */
};

struct uscc_result;
struct uscc_container; /* "reading a container" below */

struct uscc_stats {
	int instructions, alu, tex, fc, out, nops, pairs, temps, constants;
	int lower_bound, cycles;
	int64_t compile_us;
};

/* Runs `action` on the source (o NULL: the default options).  *out receives a result (free it with
 * uscc_result_destroy) holding the output, the diagnostics and the status
 * returned; it is NULL only when even the result could not be allocated
 * (USCC_OUT_OF_MEMORY).  The result uses the options' allocator. */
USCC_API enum uscc_status uscc_run(const struct uscc_options *o, enum uscc_action action,
			  const char *source, size_t len, struct uscc_result **out);
/* uscc_run(o, USCC_ACTION_COMPILE, ...) */
USCC_API enum uscc_status uscc_compile(const struct uscc_options *o, const char *source, size_t len,
			      struct uscc_result **out);

USCC_API enum uscc_status uscc_result_status(const struct uscc_result *r);
/* The container bytes or the text (text is NUL-terminated; the NUL is not
 * counted in *size).  NULL with size 0 when the action failed. */
USCC_API const void *uscc_result_data(const struct uscc_result *r, size_t *size);
/* Diagnostics as the CLI prints them; "" when there are none. */
USCC_API const char *uscc_result_diagnostics(const struct uscc_result *r);
/* Figures of a compiled program (COMPILE, ASSEMBLY); compile_us always
 * measured.  Returns false when the result has none. */
USCC_API bool uscc_result_stats(const struct uscc_result *r, struct uscc_stats *out);
/* The same figures as the JSON object of `uscc --stats`; NULL when none. */
USCC_API const char *uscc_result_stats_json(const struct uscc_result *r);
USCC_API void uscc_result_destroy(struct uscc_result *r);
/* The program a successful USCC_ACTION_COMPILE made, as a container: what
 * uscc_container_open would give on uscc_result_data's bytes, without
 * reading and validating them again (the compile validated its program).
 * Borrowed: it lives as long as the result (do not destroy it).  NULL for
 * other actions, failed compiles and a cache hit's result (open its
 * bytes with uscc_container_open). */
USCC_API const struct uscc_container *uscc_result_container(const struct uscc_result *r);

/* ---- reading a container ---- */

struct uscc_container;

struct uscc_uniform_info {
	const char *name, *type;  /* type of one element, e.g. "mat4" */
	int array_len;            /* 0 when not an array */
	int element;              /* vec4 element within the uniform */
	int slot;                 /* constant slot the driver uploads it to */
	const char *swizzle;      /* components of the slot, e.g. "xyzw", "z" */
	/* The GLSL initializer of this element, to upload at link time: 4
	 * floats, init[j] going to component swizzle[j] of the slot; NULL
	 * when the uniform has none (its value is then 0 until set). */
	const float *init;
};
struct uscc_sampler_info {
	const char *name;
	int unit;                 /* 0..15 */
	const char *target;       /* "1D", "2D", "3D", "CUBE", "RECT" */
	bool shadow;
};
struct uscc_input_info {
	const char *name;         /* "gl_TexCoord[0]", "gl_FragCoord", a varying */
	int temp;                 /* temporary it must be interpolated into */
	const char *components;   /* e.g. "xyzw" */
};
struct uscc_output_info {
	const char *name;
	int target;               /* render target 0..3, -1 = depth */
};
struct uscc_flow_info {
	bool uses_fc;             /* program has flow-control instructions */
	uint32_t bool_const;      /* US_FC_BOOL_CONST */
	uint32_t int_const_used;  /* bit n: US_FC_INT_CONST_n must be written */
	uint32_t int_const[32];   /* register values (count | init << 8 | step << 16) */
	int pixsize;              /* US_PIXSIZE */
};

/* Validates and parses a container (never reads past size).  On failure
 * *out is NULL and `err` (if given) holds the reason. */
USCC_API enum uscc_status uscc_container_open(const struct uscc_allocator *alloc, const void *data,
				     size_t size, struct uscc_container **out, char *err,
				     size_t err_len);
USCC_API void uscc_container_destroy(struct uscc_container *c);

/* 6 little-endian dwords per instruction, in upload order. */
USCC_API const uint32_t *uscc_container_code(const struct uscc_container *c, int *ninst);
USCC_API int uscc_container_num_const_slots(const struct uscc_container *c);
/* True when `slot` holds a compiler immediate (its value in v). */
USCC_API bool uscc_container_constant(const struct uscc_container *c, int slot, float v[4]);
USCC_API int uscc_container_num_uniforms(const struct uscc_container *c);
USCC_API bool uscc_container_uniform(const struct uscc_container *c, int i, struct uscc_uniform_info *out);
USCC_API int uscc_container_num_samplers(const struct uscc_container *c);
USCC_API bool uscc_container_sampler(const struct uscc_container *c, int i, struct uscc_sampler_info *out);
USCC_API int uscc_container_num_inputs(const struct uscc_container *c);
USCC_API bool uscc_container_input(const struct uscc_container *c, int i, struct uscc_input_info *out);
USCC_API int uscc_container_num_outputs(const struct uscc_container *c);
USCC_API bool uscc_container_output(const struct uscc_container *c, int i, struct uscc_output_info *out);
USCC_API void uscc_container_flow(const struct uscc_container *c, struct uscc_flow_info *out);
USCC_API void uscc_container_stats(const struct uscc_container *c, struct uscc_stats *out);
/* What else a driver must know: a program that can discard pixels (KIL)
 * or writes depth needs early depth testing off. */
struct uscc_program_info {
	bool uses_kill;           /* a KIL instruction */
	bool writes_depth;        /* an output to depth (US_W_FMT from the shader) */
};
USCC_API void uscc_container_program_info(const struct uscc_container *c,
					  struct uscc_program_info *out);
/* What the driver uploads to a constant slot. */
enum uscc_constant_kind {
	USCC_CONSTANT_UNUSED,     /* nothing reads it */
	USCC_CONSTANT_UNIFORM,    /* a uniform element: `uniform`, an index of the uniform table */
	USCC_CONSTANT_IMMEDIATE,  /* a compiler immediate: `value` */
	USCC_CONSTANT_STATE,      /* driver state (r300's conventions): `state`, `unit` */
	USCC_CONSTANT_COMPUTED,   /* written by the constant program */
};
/* r300's state constants (its RC_STATE_R300_*), from uniforms the
 * program reads under r300's conventions. */
enum uscc_state_constant {
	USCC_STATE_R300_VIEWPORT_SCALE,   /* "gl_r300ViewportScale": the viewport's scale, 1 */
	USCC_STATE_R300_VIEWPORT_OFFSET,  /* "gl_r300ViewportOffset": its offset, 1 */
	USCC_STATE_R300_TEXSCALE_FACTOR,  /* "gl_r300TexScale[unit]": wrap emulation's scale */
};
struct uscc_constant_info {
	enum uscc_constant_kind kind;
	int uniform;                      /* UNIFORM: the first entry in the slot */
	enum uscc_state_constant state;   /* STATE */
	int unit;                         /* STATE of a texture unit, else 0 */
	float value[4];                   /* IMMEDIATE */
};
/* Slot `slot` (0 .. uscc_container_num_const_slots - 1); false when out
 * of range. */
USCC_API bool uscc_container_constant_info(const struct uscc_container *c, int slot,
					   struct uscc_constant_info *out);

/* ---- the constant program ----
 * Work that depends only on uniforms, moved out of the pixel program
 * (uscc_options_set_constant_program; docs/container.md, "CPRG").  A
 * driver runs it whenever a uniform changes, before the draw: put the
 * uniform values where the uniform table says (and the immediates, which
 * it does not read), run it, then upload the slots as usual; it fills the
 * slots of the values it computes, which the uniform table does not list. */

/* Its size: instructions and outputs (0 and 0: the program has none). */
USCC_API void uscc_container_constant_program(const struct uscc_container *c, int *ninst,
					      int *noutputs);
/* Runs it over consts[0 .. nslots).  Pure (it touches only consts), no
 * allocation, safe from many threads on one container (each with its own
 * array), at most 256 operations.  USCC_USAGE_ERROR with consts untouched
 * when consts is NULL or nslots < uscc_container_num_const_slots(c); a
 * program without one returns USCC_OK and changes nothing. */
USCC_API enum uscc_status uscc_container_run_constant_program(const struct uscc_container *c,
							      float (*consts)[4], int nslots);

/* The JSON of `uscc --info`, and the assembly text of `uscc --disasm`:
 * each made on its first call and kept with the container (so not from
 * two threads at once on one container); NULL on allocation failure. */
USCC_API const char *uscc_container_json(const struct uscc_container *c);
USCC_API const char *uscc_container_disasm(const struct uscc_container *c);

/* ---- caching ---- */

/* A stable 64-bit key of (source, stage, opt level, defines, -Werror,
 * record-time, compiler and container version, and the build: a hash of
 * the compiler's sources, so a code generator that changed never gets an
 * older one's code from the cache): the same on every run and machine
 * for one build.  The file name is not part of it. */
/* o NULL: the default options. */
USCC_API uint64_t uscc_cache_key(const struct uscc_options *o, const char *source, size_t len);

struct uscc_cache;

/* dir NULL: memory only.  Otherwise containers are also kept in `dir`
 * (created if missing) as <key in 16 hex digits>.uscc. */
USCC_API enum uscc_status uscc_cache_create(const struct uscc_allocator *alloc, const char *dir,
				   struct uscc_cache **out);
USCC_API void uscc_cache_destroy(struct uscc_cache *c);
/* Hit: USCC_OK and a result holding a copy of the container (no
 * diagnostics, no figures: read them from the container).  Miss:
 * USCC_NOT_FOUND, *out NULL.  Disk entries that fail validation are misses. */
USCC_API enum uscc_status uscc_cache_get(struct uscc_cache *c, uint64_t key, struct uscc_result **out);
/* Stores a container (validated first) under key. */
USCC_API enum uscc_status uscc_cache_put(struct uscc_cache *c, uint64_t key, const void *data,
				size_t size);
/* Get, or compile and put: the result is what uscc_compile would give. */
USCC_API enum uscc_status uscc_cache_compile(struct uscc_cache *c, const struct uscc_options *o,
				    const char *source, size_t len, struct uscc_result **out);
/* Counts of hits and misses since creation. */
USCC_API void uscc_cache_counts(struct uscc_cache *c, uint64_t *hits, uint64_t *misses);

#ifdef __cplusplus
}
#endif

#endif
