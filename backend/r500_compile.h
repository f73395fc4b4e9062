/* The backend's entry: IR function -> R500 program. */
#ifndef USCC_R500_COMPILE_H
#define USCC_R500_COMPILE_H

#include "ir.h"
#include "r500_program.h"

struct r500_compile_options {
	int opt_level;       /* 0 or 2 */
};

/* Selects, schedules, allocates and finalizes.  Returns NULL with
 * diagnostics (file:line:col where the IR carries it) when the shader
 * does not fit the hardware (a clear error naming the limit and the
 * figure reached) or uses something not supported yet.  Everything is
 * allocated in `arena`.  stats.compile_us is left for the caller. */
struct r500_program *r500_compile(struct ir_func *f, const struct r500_compile_options *opts,
				  struct arena *arena, struct diag_sink *diag);

/* Assembly listing of a compiled program (the -S output); arena string. */
char *r500_program_listing(const struct r500_program *p, struct arena *arena);

#endif
