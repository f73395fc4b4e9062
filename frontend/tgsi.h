/* The TGSI frontend: a fragment program in the text Mesa's tgsi_dump
 * prints (what Gallium drivers such as r300 receive), to uscc's IR.
 * The names it gives inputs, constants, samplers and outputs are
 * docs/tgsi.md's. */
#ifndef USCC_TGSI_H
#define USCC_TGSI_H

#include "glsl.h"
#include "ir.h"

/* The program as an IR function, or NULL with diagnostics.  Of `opts`
 * (NULL: the defaults) it takes the limits and the units' shadow
 * compare state; defines mean nothing to TGSI. */
struct ir_func *tgsi_to_ir(const char *source, const char *filename,
			   const struct glsl_options *opts, struct arena *arena,
			   struct diag_sink *diag);

/* The same from Mesa's binary tokens (nwords 32-bit words, the host's
 * byte order, tgsi_tokens.h); diagnostics name the word as the line. */
struct ir_func *tgsi_tokens_to_ir(const uint32_t *words, size_t nwords, const char *filename,
				  const struct glsl_options *opts, struct arena *arena,
				  struct diag_sink *diag);

#endif
