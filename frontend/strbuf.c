/* Growable string with a location map (see strbuf.h). */
#include "strbuf.h"

#include <string.h>

void fe_buf_init(struct fe_buf *b, struct arena *arena, bool with_map)
{
	memset(b, 0, sizeof *b);
	b->arena = arena;
	b->map = with_map;
}

static bool buf_grow(struct fe_buf *b, size_t need)
{
	if (b->failed)
		return false;
	if (need + 1 <= b->cap)
		return true;
	size_t ncap = b->cap ? b->cap * 2 : 256;
	while (ncap < need + 1)
		ncap *= 2;
	char *t = arena_realloc(b->arena, b->text, b->cap, ncap);
	int *l = NULL, *c = NULL;
	if (t && b->map) {
		l = arena_realloc(b->arena, b->line, b->cap * sizeof(int), ncap * sizeof(int));
		c = arena_realloc(b->arena, b->col, b->cap * sizeof(int), ncap * sizeof(int));
	}
	if (!t || (b->map && (!l || !c))) {
		b->failed = true;
		return false;
	}
	b->text = t;
	if (b->map) {
		b->line = l;
		b->col = c;
	}
	b->cap = ncap;
	return true;
}

void fe_buf_putc(struct fe_buf *b, char c, int line, int col)
{
	if (!buf_grow(b, b->len + 1))
		return;
	b->text[b->len] = c;
	if (b->map) {
		b->line[b->len] = line;
		b->col[b->len] = col;
	}
	b->len++;
	b->text[b->len] = 0;
}

void fe_buf_append(struct fe_buf *b, const char *s, size_t n, int line, int col)
{
	/* even an empty append leaves a NUL-terminated text behind */
	if (buf_grow(b, b->len))
		b->text[b->len] = 0;
	for (size_t i = 0; i < n; i++)
		fe_buf_putc(b, s[i], line, col);
}
