/* Memory for a flex scanner (its yyalloc and yyrealloc) from a compile's
 * arena, the caller's allocator: a size header lets realloc copy; free
 * is a no-op (the arena goes as a whole). */
#ifndef USCC_FE_FLEX_ARENA_H
#define USCC_FE_FLEX_ARENA_H

#include <stddef.h>
#include <string.h>
#include "arena.h"

static inline void *flex_arena_alloc(struct arena *arena, size_t size)
{
	max_align_t *p = arena_alloc(arena, size + sizeof(max_align_t));
	if (!p)
		return NULL;
	*(size_t *)p = size;
	return p + 1;
}

static inline void *flex_arena_realloc(struct arena *arena, void *ptr, size_t size)
{
	if (!ptr)
		return flex_arena_alloc(arena, size);
	size_t old = *(size_t *)((max_align_t *)ptr - 1);
	if (size <= old)
		return ptr;
	void *n = flex_arena_alloc(arena, size);
	if (n)
		memcpy(n, ptr, old);
	return n;
}

#endif
