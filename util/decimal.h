/* Integers in decimal without printf: the names and figures every compile
 * writes (TGSI register names, the statistics' JSON) cost a vsnprintf
 * each, a tenth of a small shader's compile. */
#ifndef USCC_DECIMAL_H
#define USCC_DECIMAL_H

#include <stddef.h>

enum { DECIMAL_MAX = 21 }; /* "-9223372036854775808" and a spare */

/* v's digits, sign first, at the end of buf[DECIMAL_MAX]; returns where
 * they start (they are not NUL-terminated) and their length in *len. */
static inline char *decimal_format(char buf[DECIMAL_MAX], long long v, size_t *len)
{
	char *end = buf + DECIMAL_MAX, *p = end;
	unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	*len = (size_t)(end - p);
	return p;
}

#endif
