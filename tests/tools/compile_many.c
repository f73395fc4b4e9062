/* compile-many: compiles many shader files in one process through libuscc,
 * each at every level given, and prints one line per file that does not
 * compile.  It exists for tests that compile thousands of generated shaders
 * (tests/gen --compile-only): under AddressSanitizer a process start and its
 * exit-time leak scan cost more than a compile, so one process per file
 * spent most of the run outside uscc.  Leaks are still found: the scan runs
 * once, at this process's exit, over everything the compiles left behind.
 *
 *   compile-many [-O0] [-O2] FILE...      (no level given: -O2)
 *
 * A failure prints "FILE -ON: " and the first line of its diagnostics.
 *
 * Exit status: 0 every file compiled at every level; 1 some did not (each
 * printed as "FILE -ON: first diagnostic line"); 2 a usage or I/O error. */
#include "run_args.h"
#include "uscc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of the diagnostics, for a one-line report. */
static void print_first_line(const char *text)
{
	size_t n = strcspn(text, "\n");
	printf("%.*s\n", (int)n, n ? text : "no diagnostic");
}

/* 0 compiled, 1 refused or stopped, 2 could not try. */
static int compile_one(const char *path, int level)
{
	size_t len;
	char *src = run_read_file(path, &len);
	if (!src) {
		fprintf(stderr, "compile-many: cannot read %s\n", path);
		return 2;
	}
	struct uscc_options *o = uscc_options_create(NULL);
	struct uscc_result *r = NULL;
	enum uscc_status st = USCC_OUT_OF_MEMORY;
	if (o && uscc_options_set_opt_level(o, level) == USCC_OK &&
	    uscc_options_set_filename(o, path) == USCC_OK)
		st = uscc_compile(o, src, len, &r);
	int verdict = 0;
	if (st != USCC_OK) {
		printf("%s -O%d: ", path, level);
		print_first_line(r ? uscc_result_diagnostics(r) : uscc_status_string(st));
		verdict = st == USCC_OUT_OF_MEMORY ? 2 : 1;
	}
	uscc_result_destroy(r);
	uscc_options_destroy(o);
	free(src);
	return verdict;
}

int main(int argc, char **argv)
{
	int levels[2], nlevels = 0, first = 1;
	for (; first < argc && argv[first][0] == '-'; first++) {
		if ((!strcmp(argv[first], "-O0") || !strcmp(argv[first], "-O2")) && nlevels < 2) {
			levels[nlevels++] = argv[first][2] - '0';
		} else {
			fprintf(stderr, "usage: compile-many [-O0] [-O2] FILE...\n");
			return 2;
		}
	}
	if (nlevels == 0)
		levels[nlevels++] = 2;
	int worst = 0;
	for (int i = first; i < argc; i++) {
		for (int l = 0; l < nlevels; l++) {
			int v = compile_one(argv[i], levels[l]);
			if (v > worst)
				worst = v;
		}
	}
	fflush(stdout);
	return worst;
}
