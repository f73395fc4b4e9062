/* Arena strings that grow (arena_strbuf.h). */
#include "arena_strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool reserve(struct strbuf *b, size_t n)
{
	if (b->failed)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	size_t ncap = b->cap ? b->cap : 256;
	while (ncap < b->len + n + 1)
		ncap *= 2;
	char *p = arena_realloc(b->arena, b->text, b->cap, ncap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->text = p;
	b->cap = ncap;
	return true;
}

void strbuf_add(struct strbuf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->text + b->len, s, n);
	b->len += n;
	b->text[b->len] = 0;
}

void strbuf_puts(struct strbuf *b, const char *s)
{
	strbuf_add(b, s, strlen(s));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (!reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->text + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *strbuf_text(struct strbuf *b)
{
	if (b->failed)
		return NULL;
	if (!b->text)
		strbuf_add(b, "", 0);
	return b->failed ? NULL : b->text;
}
