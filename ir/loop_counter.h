/* A loop's counter, as aL addressing needs it: whether the loop surely
 * stops within the hardware's 255 passes (backend/isel_cf.c), and what
 * the counter is in each pass, for aL relative addressing of uniform
 * arrays (backend/loop_rel.c) and local arrays (array_rel.c). */
#ifndef USCC_LOOP_COUNTER_H
#define USCC_LOOP_COUNTER_H

#include <stdbool.h>
#include "ir.h"

/* Passes a counted loop may make and still count as bounded. */
enum { LOOP_COUNTER_MAX_PASSES = 250 };

/* i = PHI(start, i + step, ..., i + step) at the head of the body (each
 * i + step as loop_counter_offset reads it), and at the top level of the
 * body an IF whose then side BREAKs when i >= limit or i + c >= limit
 * (written GE, or NOT of LT).  In pass p
 * (from 0) the PHI holds start + step + ... + step (p additions, in
 * single precision as the IR computes them). */
struct loop_counter {
	const struct ir_instr *phi;
	float start, step;             /* step > 0 */
	const struct ir_cf *exit_if;   /* that IF: a child of the loop's body */
	int exit_pass;                 /* the pass whose exit_if breaks: passes
					  0..exit_pass reach it, the code after it
					  runs in passes 0..exit_pass-1 */
	bool continue_before_exit;     /* a CONTINUE of this loop comes before
					  exit_if (a pixel may skip the test) */
};

/* The first counter of the loop this form recognizes, making fewer than
 * LOOP_COUNTER_MAX_PASSES passes; false when there is none. */
bool loop_counter_find(const struct ir_cf *loop, struct loop_counter *out);

/* The first PHI at the head of the loop's body of the form above
 * (start and step constants, step > 0), whatever ends the loop: the
 * counter's value in pass p is start + p additions of step.  *phi NULL
 * asks for the first, a PHI of the head for the next after it.  False
 * when there is none (more). */
bool loop_counter_phi(const struct ir_cf *loop, const struct ir_instr **phi, float *start,
		      float *step);

/* Whether idx reads phi, or phi plus a constant (ADDs or SUBs of
 * constants, through MOVs; more than one only of small whole numbers, as
 * a loop unrolled in part leaves them): *c is that constant (0 for phi
 * itself).  Exact when the counter's values are whole numbers. */
bool loop_counter_offset(const struct ir_src *idx, const struct ir_instr *phi, float *c);

/* Whether x is a whole number no larger than lim in magnitude: a counter's
 * start, step or offset that aL's integer registers can carry. */
bool loop_counter_small_int(float x, float lim);

/* Whether the loop's body has a BREAK at its top level (every pass that
 * gets there leaves: the loop makes one pass). */
bool loop_breaks_at_top(const struct ir_cf *loop);

#endif
