/* Replays inputs through a fuzz target's LLVMFuzzerTestOneInput without
 * libFuzzer (any compiler): every file given, and every file in every
 * directory given (not recursive; names starting with '.' skipped).
 * Exit status 0 when all ran; a bug aborts.  ctest runs it over
 * tests/fuzz/regressions/<target>/ and a few seeds. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	int bad = ferror(f) || !buf;
	fclose(f);
	if (bad) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return 1;
	}
	/* an exact-size copy, so that a read past the end is caught */
	uint8_t *data = malloc(n ? n : 1);
	if (!data) {
		free(buf);
		return 1;
	}
	memcpy(data, buf, n);
	free(buf);
	printf("%s\n", path);
	fflush(stdout);
	LLVMFuzzerTestOneInput(data, n);
	free(data);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a directory, in name order. */
static int replay_dir(const char *dir, int *count)
{
	DIR *d = opendir(dir);
	if (!d) {
		perror(dir);
		return 1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	int errors = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
			if (!nn)
				break;
			names = nn;
		}
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		if (!(names[n] = malloc(len)))
			break;
		snprintf(names[n++], len, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
			errors += replay_file(names[i]);
			++*count;
		}
		free(names[i]);
	}
	free(names);
	return errors;
}

int main(int argc, char **argv)
{
	int errors = 0, count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			errors++;
		} else if (S_ISDIR(st.st_mode)) {
			errors += replay_dir(argv[i], &count);
		} else {
			errors += replay_file(argv[i]);
			count++;
		}
	}
	printf("%d inputs replayed, %d errors\n", count, errors);
	return errors ? 1 : 0;
}
