/* A growable arena string with a per-byte source location map, shared by
 * the preprocessor (which must keep every output byte's original line and
 * column so that diagnostics point at the source the user wrote). */
#ifndef USCC_FE_STRBUF_H
#define USCC_FE_STRBUF_H

#include <stddef.h>
#include <stdbool.h>
#include "arena.h"

struct fe_buf {
	struct arena *arena;
	char *text;
	int *line, *col;        /* per byte; NULL when the buffer keeps no map */
	size_t len, cap;
	bool map;               /* keep line/col per byte */
	bool failed;
};

void fe_buf_init(struct fe_buf *b, struct arena *arena, bool with_map);
/* Appends one byte with its original location. */
void fe_buf_putc(struct fe_buf *b, char c, int line, int col);
void fe_buf_append(struct fe_buf *b, const char *s, size_t n, int line, int col);

#endif
