/* What the bench's C helpers share: clocks (wall, or any clock_gettime's), a comparison for
 * qsort of doubles (medians), and reading a whole file. */
#ifndef USCC_BENCH_UTIL_H
#define USCC_BENCH_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double clock_us(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static inline double now_us(void)
{
	return clock_us(CLOCK_MONOTONIC);
}

static inline int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The whole file in a malloc'd buffer; NULL (and a message) on failure. */
static inline char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	if (ferror(f) || !buf) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

#endif
