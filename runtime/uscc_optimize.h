/* The IR pass pipeline as libuscc calls it (one place that knows
 * ir/ir_pass.h). */
#ifndef USCC_OPTIMIZE_H
#define USCC_OPTIMIZE_H

#include <stdbool.h>
#include "diag.h"
#include "ir.h"
#include "switches.h"

/* Runs the passes of `opt_level` on f, but those named in `skip` (a
 * comma-separated list, or NULL).  With dump_all, *dump receives the IR
 * before the passes and after each one, each headed by its pass name (an
 * arena string).  False with diagnostics on failure. */
bool uscc_optimize(struct ir_func *f, int opt_level, sw_set skip, bool dump_all, char **dump,
		   struct arena *arena, struct diag_sink *diag);

#endif
