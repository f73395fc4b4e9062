/* Text the preprocessor builds, with the place each byte came from: the
 * string is util's strbuf; this adds a line and column per byte so that
 * diagnostics point at the source the user wrote. */
#ifndef USCC_FE_PP_TEXT_H
#define USCC_FE_PP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include "arena_strbuf.h"

struct pp_text {
	struct strbuf s;        /* s.failed also records a failure to grow the map */
	int *line, *col;        /* per byte and one past the end; NULL without a map */
	size_t map_cap;
	bool map;
};

/* Starts as "" with a map entry for its end (never NULL unless s.failed). */
void pp_text_init(struct pp_text *t, struct arena *arena, bool with_map);
/* Appends bytes that all came from (line, col). */
void pp_text_append(struct pp_text *t, const char *s, size_t n, int line, int col);
static inline void pp_text_putc(struct pp_text *t, char c, int line, int col)
{
	pp_text_append(t, &c, 1, line, col);
}

#endif
