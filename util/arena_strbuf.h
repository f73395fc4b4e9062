/* The project's one string builder: a string that grows in an arena, by
 * doubling; after an allocation failure `failed` sticks and later appends
 * do nothing.  The text is always NUL-terminated once anything was
 * appended.  Printers append to a caller's strbuf rather than filling
 * fixed buffers, so that no text is ever cut short. */
#ifndef USCC_ARENA_STRBUF_H
#define USCC_ARENA_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include "arena.h"

struct strbuf {
	struct arena *arena;
	char *text;
	size_t len, cap;
	bool failed;
};

static inline void strbuf_init(struct strbuf *b, struct arena *arena)
{
	*b = (struct strbuf){ .arena = arena };
}
void strbuf_add(struct strbuf *b, const char *s, size_t n);
void strbuf_puts(struct strbuf *b, const char *s);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text ("" when nothing was appended), or NULL after a failure. */
char *strbuf_text(struct strbuf *b);

#endif
