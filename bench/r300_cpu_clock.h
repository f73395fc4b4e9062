/* Forced into shared/mesa/r300_measure.c by bench/compile-speed --clock cpu
 * (cc -include): every clock_gettime of that program reads the calling
 * thread's CPU time instead, so that Mesa's compile, link and draw are
 * measured as uscc-time --cpu measures uscc, which a machine other
 * processes keep busy does not inflate.  Mesa's own sources are not
 * affected: only r300_measure.c's calls are renamed. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* as r300_measure.c: its headers come after this one */
#endif
#include <time.h>

static inline int r300m_thread_clock(clockid_t ignored, struct timespec *ts)
{
	(void)ignored;
	return clock_gettime(CLOCK_THREAD_CPUTIME_ID, ts);
}
#define clock_gettime r300m_thread_clock
