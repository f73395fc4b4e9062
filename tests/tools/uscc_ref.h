/* uscc-ref: the IR interpreter run as a renderer, the reference that
 * uscc-run's output is compared with (same options, same output). */
#ifndef USCC_REF_H
#define USCC_REF_H

#include <stdbool.h>
#include "glsl.h"
#include "ir.h"
#include "run_args.h"

enum { REF_MAX_ITEMS = 64, REF_MAX_DEFINES = 32, REF_MAX_VERTICES = 4096 };

/* One vertex attribute's values: one vec4 per vertex (or one for all). */
struct ref_attrib {
	const char *name;
	float (*values)[4];
	int nvalues;
};

/* uscc-run's options (run) and uscc-ref's own. */
struct ref_opts {
	struct run_opts run;
	enum glsl_stage stage;
	struct glsl_define defines[REF_MAX_DEFINES]; int ndefines;
	struct ref_attrib attribs[REF_MAX_ITEMS]; int nattribs;
	int nvertices;
	struct glsl_shadow_state shadow[GLSL_SHADOW_UNITS]; /* --shadow, as uscc takes it */
};

/* The textures given, bound by unit with the target the shader's sampler
 * of that unit declares (a cube gets the image on all six faces); false
 * after a message.  Freed with run_textures_free. */
bool ref_textures_load(struct run_textures *t, const struct ref_opts *o,
		       const struct ir_func *f);

/* The flattened uniform values (uniform_values[base + element][c]) for the
 * values given by name: "u" the whole uniform, "u[k]" array element k;
 * elements not given hold their initializer (ir_uniform.init), else 0;
 * malloc'd, NULL when out of memory. */
float (*ref_uniform_values(const struct ref_opts *o, const struct ir_func *f))[4];

/* Each stage's runner; return the exit status (0, 1 runtime failure, 2 I/O). */
int ref_run_fragment(const struct ref_opts *o, const struct ir_func *f);
int ref_run_vertex(const struct ref_opts *o, const struct ir_func *f);

#endif
