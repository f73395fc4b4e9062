/* Which values are the same in all four pixels of a quad, and which IFs
 * every pixel of a quad enters on the same side.  The backend asks it
 * before making an IF with derivatives or implicit-LOD lookups real flow
 * control: when all four pixels take the same side, none of them is left
 * inactive, and the lookups see their neighbours as if no IF were there
 * (isel_cf.c).  A key read from a texture at a constant place
 * (`texture(key, vec2(0.25, 0.75)).x > 0.0`) is such a condition. */
#ifndef USCC_IR_QUAD_UNIFORM_H
#define USCC_IR_QUAD_UNIFORM_H

#include <stdbool.h>
#include "ir.h"

struct ir_quad_uniform {
	uint8_t *value;               /* by instruction id: the components (bit c for
					 component c) the same in all four pixels */
	uint32_t nids;
	const struct ir_cf **split;   /* the loops some pixels may leave, or skip part of
					 a trip, before the others */
	int nsplit;
};

/* The analysis of f (read only); false when memory runs out (then ask
 * nothing of *u: every value counts as differing). */
bool ir_quad_uniform(const struct ir_func *f, struct arena *arena, struct ir_quad_uniform *u);

/* Whether every pixel of a quad that reaches IF `cf` is active there and
 * takes the same side: its condition is the same in all four, and so is
 * that of every IF around it; no loop around it loses pixels early. */
bool ir_quad_uniform_if(const struct ir_quad_uniform *u, const struct ir_cf *cf);

#endif
