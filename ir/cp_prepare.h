/* Rewrites that prepare a function for the constant program split
 * (cp_prepare.c). */
#ifndef USCC_CP_PREPARE_H
#define USCC_CP_PREPARE_H

#include <stdbool.h>
#include "ir.h"

/* Rewrites f in place; false when memory ran out (f is then to be
 * dropped). */
bool ir_cp_prepare(struct ir_func *f);

#endif
