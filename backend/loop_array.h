/* The plan of local arrays addressed through aL, shared by its files:
 * loop_array.c (the walk over loops, the helpers), loop_array_write.c
 * (carried arrays and their writes), loop_array_read.c (read chains). */
#ifndef USCC_LOOP_ARRAY_H
#define USCC_LOOP_ARRAY_H

#include "cg.h"

enum { ARR_MIN_ELEMS = 3, ARR_MAX_ELEMS = 96, ARR_MAX_STEP = 127, ARR_MAX_KEY = 1024,
       ARR_MAX_CAND = 128, ARR_MAX_JOINS = 8 };

struct scan {
	struct cg_ctx *cg;
	const struct ir_cf *loop;
	const struct ir_instr *counter;
	float start, step;
	bool counted;              /* the counter's exit pass is known */
	const struct ir_cf *exit_if; /* the counter's exit IF when counted */
	int exit_pass, exit_order; /* code at order >= exit_order runs one pass fewer */
	int *order;                /* by id: place in the loop's walk, -1 outside the loop */
	int *uses;                 /* by id: sources reading it (function-wide) */
	int norder;
	int first_array;           /* arrays of this loop: first_array .. narrays-1 */
};

/* Helpers (loop_array.c). */
/* Whether d is an instruction of the loop (at any depth). */
bool la_in_loop(const struct scan *sc, const struct ir_instr *d);
/* Whether d sits in a block of the loop itself, not of a loop inside it. */
bool la_directly_in_loop(const struct scan *sc, const struct ir_instr *d);
/* cond is (idx == key) on the loop's counter: the index source, the key
 * and the index's offset from the counter. */
bool la_eq_on_counter(const struct scan *sc, const struct ir_src *cond,
		      const struct ir_src **idx, int *key, float *off);
/* Whether an access at `order`, to element pos0 + p * step in pass p,
 * may go past element hi in a pass that reaches it. */
bool la_needs_guard(const struct scan *sc, int order, int pos0, int hi);
struct cg_arr_access *la_new_access(struct cg_ctx *cg, const struct ir_instr *in,
				    enum cg_arr_role role, int array, int elem);
/* A new array of this loop, -1 when out of memory. */
int la_new_array(struct scan *sc, int n, int ncomp);

/* The carried arrays of the loop and their writes (loop_array_write.c). */
void la_find_writes(struct scan *sc);
/* The read chains of the loop (loop_array_read.c): after the writes. */
void la_find_reads(struct scan *sc);

#endif
