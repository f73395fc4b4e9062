/* uscc-time: compile time inside one process, as a driver sees it (and as
 * Mesa's ms_total was measured: the median of 5 runs in one process).
 *
 *   uscc-time [--runs N] FILE...
 *
 * Each FILE is compiled N times in a row with uscc_compile (default
 * options, the whole call: preprocessing to container bytes); printed per
 * file, tab-separated: the median and the first run in microseconds, the
 * status of the last run, and the file name.  A benchmark helper, not
 * installed (bench/quality calls it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "uscc.h"

enum { MAX_RUNS = 101 };

static int time_file(const char *path, int runs)
{
	size_t len;
	char *src = read_file(path, &len);
	if (!src)
		return 1;
	double t[MAX_RUNS];
	enum uscc_status st = USCC_OK;
	for (int i = 0; i < runs; i++) {
		struct uscc_result *r = NULL;
		double t0 = now_us();
		st = uscc_compile(NULL, src, len, &r);
		t[i] = now_us() - t0;
		uscc_result_destroy(r);
	}
	free(src);
	double first = t[0];
	qsort(t, (size_t)runs, sizeof *t, by_value);
	printf("%.1f\t%.1f\t%s\t%s\n", t[runs / 2], first, uscc_status_string(st), path);
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 5, i = 1;
	if (i + 1 < argc && strcmp(argv[i], "--runs") == 0) {
		runs = atoi(argv[i + 1]);
		i += 2;
	}
	if (runs < 1 || runs > MAX_RUNS || i >= argc) {
		fprintf(stderr, "usage: uscc-time [--runs N (1..%d)] FILE...\n", MAX_RUNS);
		return 2;
	}
	int failed = 0;
	for (; i < argc; i++)
		failed |= time_file(argv[i], runs);
	return failed;
}
