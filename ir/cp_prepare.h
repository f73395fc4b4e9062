/* Rewrites that prepare a function for the constant program split
 * (cp_prepare.c). */
#ifndef USCC_CP_PREPARE_H
#define USCC_CP_PREPARE_H

#include <stdbool.h>
#include "ir.h"

struct ir_pass_ctx;

/* Rewrites f in place, its dead code removed through ctx (the step
 * "constant_program.prepare-dce"; ctx may be NULL); false when memory ran
 * out (f is then to be dropped). */
bool ir_cp_prepare(struct ir_func *f, struct ir_pass_ctx *ctx);

#endif
