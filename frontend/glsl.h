/* The GLSL frontend: preprocess, parse, type-check, lower to IR. */
#ifndef USCC_GLSL_H
#define USCC_GLSL_H

#include <stdbool.h>
#include "ir.h"
#include "compile_limits.h"

enum glsl_stage { GLSL_STAGE_FRAGMENT, GLSL_STAGE_VERTEX };

struct glsl_define {
	const char *name;
	const char *value;   /* NULL: "1" for -D NAME; ignored for undefines */
	bool undef;          /* -U NAME */
};

enum { GLSL_SHADOW_UNITS = 16 };
struct glsl_shadow_state {
	uint8_t compare;                   /* enum tex_compare; 0 LEQUAL */
	uint8_t depth_mode;                /* enum tex_depth_mode; 0 LUMINANCE */
};

struct glsl_options {
	enum glsl_stage stage;
	const struct glsl_define *defines; /* -D / -U in command-line order */
	int ndefines;
	const struct limits *limits;       /* NULL: every limit at its default */
	/* each unit's shadow compare state (util/shadow.h enums), NULL: GL's
	 * defaults everywhere; the samplers of unit u get shadow[u] */
	const struct glsl_shadow_state *shadow;
	/* TGSI (tgsi.h): SIN and COS take radians, as tgsi.rst has them,
	 * rather than the revolutions of the TGSI r300 compiles for the R500
	 * (r300_transform_fs_trig_input scales by 1/2pi before nir_to_tgsi) */
	bool tgsi_trig_radians;
};

/* Preprocessed text (uscc -E); NULL on error (diagnostics in `diag`). */
char *glsl_preprocess(const char *source, const char *filename,
		      const struct glsl_options *opts, struct arena *arena,
		      struct diag_sink *diag);

/* Preprocess, parse and type-check only (uscc --check). */
bool glsl_check(const char *source, const char *filename, const struct glsl_options *opts,
		struct arena *arena, struct diag_sink *diag);

/* The whole frontend: returns the shader as an IR function (main with
 * every call inlined), or NULL with diagnostics. */
struct ir_func *glsl_to_ir(const char *source, const char *filename,
			   const struct glsl_options *opts, struct arena *arena,
			   struct diag_sink *diag);

/* Gives f's samplers their unit's shadow compare state from opts->shadow
 * (nothing without it); glsl_to_ir and tgsi_to_ir call it last. */
void glsl_apply_shadow_state(struct ir_func *f, const struct glsl_options *opts);

#endif
