/* The GLSL extensions uscc accepts (extensions.def): their names, the
 * dialects that have them, and whether a compile has one enabled. */
#ifndef USCC_EXTENSIONS_H
#define USCC_EXTENSIONS_H

#include <stdbool.h>
#include <stddef.h>

enum { FE_DESK = 1u, FE_ES = 2u };

enum fe_ext {
#define EXT(e, name, dialects, on) FE_EXT_##e,
#include "extensions.def"
#undef EXT
	FE_EXT_COUNT
};

struct fe_ctx;

/* The extension's "GL_..." name. */
const char *fe_ext_name(enum fe_ext e);

/* The extension named by the n bytes at `name` that exists in the
 * compile's dialect; -1 when there is none. */
int fe_ext_lookup(const struct fe_ctx *fe, const char *name, size_t n);

/* The extensions on before any #extension, for the compile's dialect
 * (called again when #version changes the dialect). */
void fe_ext_reset(struct fe_ctx *fe);

/* True when the extension exists in the compile's dialect. */
bool fe_ext_in_dialect(const struct fe_ctx *fe, enum fe_ext e);

/* Enabled by `#extension NAME : enable|require|warn` (or `all : warn`). */
bool fe_ext_on(const struct fe_ctx *fe, enum fe_ext e);

/* Enabled with `warn`: every use gets a warning. */
bool fe_ext_warns(const struct fe_ctx *fe, enum fe_ext e);

#endif
