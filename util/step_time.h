/* Wall time per step of util/pipeline.def, summed over the compiles of a
 * process, for benchmarks (uscc_step_times_enable, bench/compile-speed).
 * Off by default: a step then costs a load and a branch.  The sums are
 * process-wide and unsynchronized, so a benchmark turns them on in one
 * thread only. */
#ifndef USCC_STEP_TIME_H
#define USCC_STEP_TIME_H

#include <stdbool.h>
#include <stdint.h>

/* One id per line of pipeline.def, in its order (uscc_pipeline_step's
 * numbering); the steps made inside another step never get time. */
enum step_id {
#define PIPE_FRONTEND(name, what) STEP_FE_##name,
#define PIPE_IR_ROUND(id, fn, level) STEP_IR_##id,
#define PIPE_IR_NEEDED(id, name, fn) STEP_IR_##id,
#define PIPE_IR_ONCE(id, fn, level) STEP_IR_##id,
#define PIPE_SPLIT(id, name, what) STEP_SPLIT_##id,
#define PIPE_BACKEND(name, fn, sw, phase) STEP_BE_##fn,
#define PIPE_INSIDE(step, sw, what) STEP_INSIDE_##sw,
#include "pipeline_steps.h"
	STEP_COUNT
};

extern bool step_time_on;

/* Zeroes the sums and starts (on) or stops summing. */
void step_time_enable(bool on);

/* The sum of step s in nanoseconds (0 out of range). */
int64_t step_time_total(int s);

int64_t step_time_now(void); /* CLOCK_MONOTONIC in nanoseconds */

/* A start mark for step_time_add (0 when off). */
static inline int64_t step_time_start(void)
{
	return step_time_on ? step_time_now() : 0;
}

/* Adds the time since `start` to step s. */
void step_time_add(enum step_id s, int64_t start);

#endif
