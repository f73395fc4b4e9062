/* Preprocessor text with a location map (pp_text.h). */
#include "pp_text.h"

/* Room in the map for n entries (zeroed beyond what was written). */
static bool map_reserve(struct pp_text *t, size_t n)
{
	if (n <= t->map_cap)
		return true;
	size_t ncap = t->map_cap ? t->map_cap * 2 : 256;
	while (ncap < n)
		ncap *= 2;
	struct arena *a = t->s.arena;
	int *l = arena_realloc(a, t->line, t->map_cap * sizeof(int), ncap * sizeof(int));
	int *c = l ? arena_realloc(a, t->col, t->map_cap * sizeof(int), ncap * sizeof(int)) : NULL;
	if (!c)
		return false;
	t->line = l;
	t->col = c;
	t->map_cap = ncap;
	return true;
}

void pp_text_init(struct pp_text *t, struct arena *arena, bool with_map)
{
	*t = (struct pp_text){ .map = with_map };
	strbuf_init(&t->s, arena);
	strbuf_add(&t->s, "", 0);
	if (with_map && !map_reserve(t, 1))
		t->s.failed = true;
}

void pp_text_append(struct pp_text *t, const char *s, size_t n, int line, int col)
{
	size_t at = t->s.len;
	if (t->map && !t->s.failed && !map_reserve(t, at + n + 1))
		t->s.failed = true;
	strbuf_add(&t->s, s, n);
	if (!t->map || t->s.failed)
		return;
	for (size_t i = at; i < at + n; i++) {
		t->line[i] = line;
		t->col[i] = col;
	}
}
