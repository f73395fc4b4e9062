/* uscc-cp-time: what the constant program costs a driver per draw whose
 * uniforms changed: uscc_container_run_constant_program, timed.
 *
 *   uscc-cp-time [--calls N] FILE.frag...
 *
 * Each shader is compiled with the default options (through the library,
 * as a driver would), its container opened, and the constant program run
 * N times (default 100000) over a constant file holding the immediates
 * and the uniforms' initializers (or 0.5).  Printed per shader that has
 * one, tab-separated: nanoseconds per call, its instructions and outputs,
 * the file; then one line over them all: the median and the worst
 * nanoseconds per call.  A benchmark, not a test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "uscc.h"

/* ns per call of one file's constant program; < 0 when it has none. */
static double time_one(const char *path, long calls, int *ninst, int *nout)
{
	size_t len;
	char *src = read_file(path, &len);
	if (!src)
		return -1;
	struct uscc_result *r = NULL;
	double ns = -1;
	struct uscc_container *c = NULL;
	if (uscc_compile(NULL, src, len, &r) == USCC_OK) {
		size_t size;
		const void *bin = uscc_result_data(r, &size);
		if (uscc_container_open(NULL, bin, size, &c, NULL, 0) != USCC_OK)
			c = NULL;
	}
	free(src);
	if (c) {
		uscc_container_constant_program(c, ninst, nout);
		float image[256][4];
		int n = uscc_container_num_const_slots(c);
		for (int s = 0; s < 256; s++)
			for (int k = 0; k < 4; k++)
				image[s][k] = 0.5f;
		for (int s = 0; s < n; s++)
			uscc_container_constant(c, s, image[s]);
		if (*nout > 0) {
			double t0 = now_us();
			for (long i = 0; i < calls; i++)
				uscc_container_run_constant_program(c, image, n);
			ns = (now_us() - t0) * 1e3 / (double)calls;
		}
		uscc_container_destroy(c);
	}
	uscc_result_destroy(r);
	return ns;
}

int main(int argc, char **argv)
{
	long calls = 100000;
	int first = 1;
	if (argc > 2 && strcmp(argv[1], "--calls") == 0) {
		calls = strtol(argv[2], NULL, 10);
		first = 3;
	}
	if (first >= argc || calls < 1) {
		fprintf(stderr, "usage: uscc-cp-time [--calls N] FILE.frag...\n");
		return 2;
	}
	double *all = malloc(sizeof *all * (size_t)argc);
	int nall = 0;
	for (int i = first; i < argc && all; i++) {
		int ninst = 0, nout = 0;
		double ns = time_one(argv[i], calls, &ninst, &nout);
		if (ns < 0)
			continue;
		all[nall++] = ns;
		printf("%.1f\t%d\t%d\t%s\n", ns, ninst, nout, argv[i]);
	}
	if (nall) {
		qsort(all, (size_t)nall, sizeof *all, by_value);
		printf("# %d shaders with a constant program: median %.1f ns per call, worst %.1f ns\n",
		       nall, all[(nall - 1) / 2], all[nall - 1]);
	}
	free(all);
	return 0;
}
