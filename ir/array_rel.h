/* Local arrays a backend can address through a loop's aL register
 * (ISA.md §4.2: a register's address plus aL; LOOP sets aL to 0, each
 * ENDLOOP adds the counter's step): an access at counter + c of its
 * innermost loop whose element in pass 0 lies inside the array (one step
 * per loop: any counter of that step).  aL does
 * not clamp: where a later pass may take the index past the last element
 * (a bound not known, or known too large), the access is guarded (a read
 * then gives the last element, a write does nothing, as ir_array says).  lower_arrays leaves such arrays to the
 * backend; the backend's plan (backend/plan_arrays.c) places them. */
#ifndef USCC_ARRAY_REL_H
#define USCC_ARRAY_REL_H

#include <stdbool.h>
#include "ir.h"

/* Largest counter start, step and offset aL carries (its step is KB, a
 * signed byte). */
enum { ARRAY_REL_MAX_STEP = 127, ARRAY_REL_MAX_INDEX = 255 };

/* An access with a dynamic index, through aL. */
struct array_rel {
	const struct ir_cf *loop;      /* the innermost loop around the access */
	int pos0;                      /* the element addressed in pass 0 (aL = 0) */
	int step;                      /* aL's step: the counter's */
	bool guard;                    /* some pass may leave the array: the access
					  takes effect only while index <= limit */
	int limit;
};

/* Whether in, a LOAD or STORE with an index, reaches its element through
 * aL (*out then; may be NULL). */
bool array_rel_access(const struct ir_func *f, const struct ir_instr *in, struct array_rel *out);

/* Whether `in` is a LOAD or STORE whose index is not a constant. */
bool array_access_dynamic(const struct ir_instr *in);

/* rel[a]: array a has some access at a dynamic index and every such
 * access reaches its element through aL; with `hoisted`, or will once
 * LICM has moved the LOADs it moves (lower_arrays keeps such an array
 * through the rounds; the backend's plan asks without). */
void array_rel_arrays(const struct ir_func *f, bool *rel, bool hoisted);

#endif
