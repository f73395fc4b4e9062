/* State shared by the frontend's stages for one compile: where memory and
 * diagnostics go, the file name, and the dialect the #version selected. */
#ifndef USCC_FE_H
#define USCC_FE_H

#include <stdbool.h>
#include "arena.h"
#include "diag.h"
#include "glsl.h"
#include "extensions.h"

struct fe_ctx {
	struct arena *arena;
	struct diag_sink *diag;
	const char *file;
	enum glsl_stage stage;
	int version;            /* 100, 110 or 120 */
	bool es;                /* version 100 */
	unsigned ext_on;        /* bit e: extension e enabled (extensions.h) */
	unsigned ext_warn;      /* ... with `warn` (itself or `all`): warn on each use */
	bool after_syntax_errors; /* sema: do not report undeclared names */
	struct limits limits;   /* resource limits of this compile (compile_limits.def) */
};

static inline struct src_loc fe_loc(const struct fe_ctx *fe, int line, int col)
{
	struct src_loc l = { fe->file, line, col };
	return l;
}

#endif
