/* Comma-separated name lists (name_list.h). */
#include "name_list.h"

#include <string.h>

static char fold(char c)
{
	return c == '-' ? '_' : c;
}

static bool name_eq_n(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fold(a[i]) != fold(b[i]))
			return false;
	return true;
}

bool name_list_has(const char *list, const char *name)
{
	if (!list || !name)
		return false;
	size_t n = strlen(name);
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && name_eq_n(p, name, n))
			return true;
		if (!end)
			break;
		p = end + 1;
	}
	return false;
}

char *name_list_add(struct arena *arena, const char *list, const char *name)
{
	return list && *list ? arena_printf(arena, "%s,%s", list, name)
			     : arena_strdup(arena, name);
}
