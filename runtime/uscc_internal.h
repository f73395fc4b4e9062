/* What the files of libuscc share behind uscc.h. */
#ifndef USCC_INTERNAL_H
#define USCC_INTERNAL_H

#include "arena.h"
#include "glsl.h"
#include "r300_conventions.h"
#include "switches.h"
#include "uscc.h"

struct uscc_options {
	struct mem_allocator alloc;
	enum uscc_stage stage;
	enum uscc_language language;
	int opt_level;
	bool werror, record_time;
	bool no_constant_program;    /* uscc_options_set_constant_program(o, false) */
	bool divergent_jumps;        /* uscc_options_set_divergent_jumps */
	char *filename;
	struct glsl_define *defines; /* names and values allocated with alloc */
	int ndefines, cap;
	struct limits limits;        /* resource limits (util/compile_limits.def) */
	sw_set skip;                 /* the switches turned off (switches.def) */
	char skip_env_bad[64];       /* a USCC_SKIP name not known ("" none) */
	struct glsl_shadow_state shadow[GLSL_SHADOW_UNITS]; /* per unit; zero: GL's default */
	bool r300;                   /* uscc_options_set_r300_conventions */
	struct ir_r300_unit r300_units[IR_R300_UNITS]; /* uscc_options_set_r300_wrap */
};

/* The options of uscc_options_create (no defines, no file name), in o;
 * returns o.  For the calls given NULL options. */
struct uscc_options *uscc_options_init_default(struct uscc_options *o,
					       const struct uscc_allocator *alloc);

/* A result holding `size` bytes of data (copied; a NUL is appended) and
 * the diagnostics text; figures may be NULL (no statistics), else the
 * compile's, from which the result gives uscc_stats and, on the first
 * call of uscc_result_stats_json, the JSON.  NULL on allocation failure. */
struct r500_stats;
struct uscc_result *uscc_result_make(const struct mem_allocator *alloc, enum uscc_status status,
				     const void *data, size_t size, const char *diag,
				     const struct r500_stats *figures);

/* The container view of a program a compile just made, `data` its
 * container bytes (uscc_result_container): the program copied, the code
 * words taken from the bytes, nothing validated again.  NULL when out
 * of memory. */
struct r500_program;
struct uscc_container *uscc_container_of_program(const struct mem_allocator *a,
						 const struct r500_program *p,
						 const void *data, size_t size);

/* The public figures from the backend's (uscc_stats.c). */
struct r500_stats;
void uscc_stats_from(struct uscc_stats *d, const struct r500_stats *s);

/* The allocator behind a public one (NULL = the default). */
struct mem_allocator uscc_allocator_of(const struct uscc_allocator *a);

#endif
