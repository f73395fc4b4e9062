/* Lowering of a checked GLSL program to the SSA IR (ir/ir.h): main with
 * every user function inlined, variables SSA-renamed as they are assigned,
 * matrices split into column vectors, built-ins expanded into IR ops. */
#ifndef USCC_FE_LOWER_H
#define USCC_FE_LOWER_H

#include "ir.h"
#include "sema.h"

/* NULL (with diagnostics) when something is not supported yet. */
struct ir_func *lower_program(struct fe_ctx *fe, const struct sema_program *prog);

#endif
