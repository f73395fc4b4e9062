/* Wall time per pipeline step (step_time.h). */
#include "step_time.h"

#include <string.h>
#include <time.h>

bool step_time_on;
static int64_t total_ns[STEP_COUNT];

int64_t step_time_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void step_time_enable(bool on)
{
	memset(total_ns, 0, sizeof total_ns);
	step_time_on = on;
}

int64_t step_time_total(int s)
{
	return s >= 0 && s < STEP_COUNT ? total_ns[s] : 0;
}

void step_time_add(enum step_id s, int64_t start)
{
	if (step_time_on)
		total_ns[s] += step_time_now() - start;
}
