/* uscc-time: compile time inside one process, as a driver sees it (and as
 * Mesa's ms_total was measured: the median of 5 runs in one process).
 *
 *   uscc-time [--runs N] [--steps] [--cpu] [--r300] FILE...
 *
 * Each FILE is compiled N times in a row with uscc_compile (default
 * options, the whole call: preprocessing to container bytes); printed per
 * file, tab-separated: the median and the first run in microseconds, the
 * status of the last run, and the file name.  With --steps (and N > 1), a
 * second line per file: "steps", then name=nanoseconds for each step of
 * uscc_pipeline_step's list that ran, its mean per warm compile (all but
 * the first; uscc_step_times_enable).  --cpu: the times are the calling
 * thread's CPU time (user and system), not wall time: on a machine other
 * processes keep busy, a wall clock measures the scheduler too.  --r300:
 * what Mesa's r300 with uscc does per compile (integrations/mesa-r300):
 * the files are TGSI (text, or tokens when named .tgsib), compiled with
 * r300's conventions, and each compile includes reading the result's
 * container (uscc_result_container).  A benchmark helper, not installed
 * (bench/quality and bench/compile-speed call it). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "uscc.h"

enum { MAX_RUNS = 101 };

/* The mean time per compile of each step over the last `runs` compiles. */
static void print_steps(int runs)
{
	struct uscc_step st;
	printf("steps");
	for (int i = 0; uscc_pipeline_step(i, &st); i++) {
		int64_t ns = uscc_step_time_ns(i);
		if (ns > 0)
			printf("\t%s=%lld", st.name, (long long)(ns / runs));
	}
	printf("\n");
}

static clockid_t clock_used = CLOCK_MONOTONIC;
static bool r300_mode;

/* The options of a compile: the defaults, or r300's (TGSI, its
 * conventions). */
static struct uscc_options *compile_options(const char *path)
{
	if (!r300_mode)
		return NULL;
	size_t n = strlen(path);
	bool tokens = n > 6 && strcmp(path + n - 6, ".tgsib") == 0;
	struct uscc_options *o = uscc_options_create(NULL);
	if (o) {
		uscc_options_set_language(o, tokens ? USCC_LANGUAGE_TGSI_TOKENS : USCC_LANGUAGE_TGSI);
		uscc_options_set_r300_conventions(o, true);
	}
	return o;
}

/* One compile as timed: uscc_compile, and with --r300 the tables the
 * driver reads off the result's container. */
static enum uscc_status compile_once(const struct uscc_options *o, const char *src, size_t len)
{
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_compile(o, src, len, &r);
	const struct uscc_container *c = uscc_result_container(r);
	if (r300_mode && c) {
		int ninst;
		struct uscc_program_info info;
		uscc_container_code(c, &ninst);
		uscc_container_program_info(c, &info);
	}
	uscc_result_destroy(r);
	return st;
}

static int time_file(const char *path, int runs, bool steps)
{
	size_t len;
	char *src = read_file(path, &len);
	if (!src)
		return 1;
	double t[MAX_RUNS];
	enum uscc_status st = USCC_OK;
	struct uscc_options *o = compile_options(path);
	uscc_step_times_enable(false);
	for (int i = 0; i < runs; i++) {
		if (i == 1)
			uscc_step_times_enable(steps);
		double t0 = clock_us(clock_used);
		st = compile_once(o, src, len);
		t[i] = clock_us(clock_used) - t0;
	}
	uscc_options_destroy(o);
	free(src);
	double first = t[0];
	qsort(t, (size_t)runs, sizeof *t, by_value);
	printf("%.1f\t%.1f\t%s\t%s\n", t[runs / 2], first, uscc_status_string(st), path);
	if (steps && runs > 1)
		print_steps(runs - 1);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 5, i = 1;
	bool steps = false;
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--steps") == 0)
			steps = true;
		else if (strcmp(argv[i], "--cpu") == 0)
			clock_used = CLOCK_THREAD_CPUTIME_ID;
		else if (strcmp(argv[i], "--r300") == 0)
			r300_mode = true;
		else if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else
			runs = 0; /* unknown: the usage below */
	}
	if (runs < 1 || runs > MAX_RUNS || i >= argc) {
		fprintf(stderr, "usage: uscc-time [--runs N (1..%d)] [--steps] [--cpu] [--r300] FILE...\n",
			MAX_RUNS);
		return 2;
	}
	int failed = 0;
	for (; i < argc; i++)
		failed |= time_file(argv[i], runs, steps);
	return failed;
}
