/* Helpers shared by the tests of every layer (header-only: each test is
 * its own program). */
#ifndef USCC_TEST_UTIL_H
#define USCC_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The whole file, NUL-terminated and malloc'd; NULL if it cannot be read. */
static inline char *test_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(f);
	return s;
}

/* A deterministic uniform value in [0.1, 0.9] from the name and component
 * (FNV-1a), so differential runs feed both sides the same values. */
static inline float test_uniform_value(const char *name, int comp)
{
	uint32_t h = 2166136261u;
	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	h = (h ^ (uint32_t)comp) * 16777619u;
	return 0.1f + 0.8f * (float)(h % 1000u) / 1000.0f;
}

#endif
