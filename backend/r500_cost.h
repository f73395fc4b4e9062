/* The cost interface every choice between two compiles of one shader asks
 * (the candidates of r500_candidate.h).  Today it reads the static cost
 * with loops weighed (r500_program_weighted_cost); a cost model of the
 * R500 replaces what is behind it, not its callers. */
#ifndef USCC_R500_COST_H
#define USCC_R500_COST_H

#include <stdbool.h>
#include "ir_cost.h"
#include "r500_program.h"

struct r500_cost {
	long weighted;     /* static cycles, work inside loops counted once a pass: the
			      passes the IR's counter says, else 8 guessed (finalize.c) */
	long in_loops;     /* the instructions inside loops, weighed alike */
	int instructions;
	int temps;         /* temporaries: fewer keep more pixels in flight */
};

struct r500_cost r500_program_cost(const struct r500_program *p);

/* Whether a program costing `alt` is to be kept over one costing `kept`.
 * The R500 keeps more pixels in flight the fewer temporaries a program
 * needs (US_PIXSIZE), which hides texture latency the static cycles do
 * not see: so where the two weigh within COST_NEAR_PERCENT of each other
 * (the difference at most that share of the heavier, rounded down: small
 * programs must tie), fewer temporaries win.  Otherwise, and at equal
 * temporaries: cheaper, then less work inside loops, then fewer
 * instructions; a full tie keeps `kept`.  (Putting loop work first would
 * guard against trips the weights guess low, but then a program that
 * stalls on every trip beats one that does not by an instruction:
 * ball.frag's scheduler variants.) */
enum { COST_NEAR_PERCENT = 2 };
bool r500_cost_better(const struct r500_cost *alt, const struct r500_cost *kept);

/* What the IR passes ask of the R500 (ir_cost.h): hang it on a function
 * (ir_func.cost) before optimizing it for this backend. */
extern const struct ir_cost_model r500_ir_cost;

#endif
