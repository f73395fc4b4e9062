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
/* One byte: pp_text_append's effect, written in place while the text
 * and the map have room (the preprocessor copies most of a shader a byte
 * at a time: the calls were a third of its time). */
static inline void pp_text_putc(struct pp_text *t, char c, int line, int col)
{
	size_t at = t->s.len;
	if (t->s.failed || at + 2 > t->s.cap || (t->map && at + 2 > t->map_cap)) {
		pp_text_append(t, &c, 1, line, col);
		return;
	}
	t->s.text[at] = c;
	t->s.text[at + 1] = 0;
	t->s.len = at + 1;
	if (t->map) {
		t->line[at] = line;
		t->col[at] = col;
	}
}

#endif
