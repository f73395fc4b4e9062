/* Arena allocator: a chain of chunks from the caller's allocator. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

const struct mem_allocator mem_default_allocator = { default_alloc, NULL };

void *mem_alloc(const struct mem_allocator *a, size_t size)
{
	return a->fn(a->ud, NULL, 0, size ? size : 1);
}

void *mem_realloc(const struct mem_allocator *a, void *p, size_t osize, size_t nsize)
{
	return a->fn(a->ud, p, osize, nsize ? nsize : 1);
}

void mem_free(const struct mem_allocator *a, void *p, size_t size)
{
	if (p)
		a->fn(a->ud, p, size, 0);
}

struct chunk {
	struct chunk *next;
	size_t size, used;
	max_align_t data[];
};

struct arena {
	struct mem_allocator alloc;
	struct chunk *head;
	size_t total;
	bool failed;
};

enum { CHUNK_MIN = 64 * 1024 };

struct arena *arena_create(const struct mem_allocator *alloc)
{
	if (!alloc)
		alloc = &mem_default_allocator;
	struct arena *a = mem_alloc(alloc, sizeof *a);
	if (!a)
		return NULL;
	memset(a, 0, sizeof *a);
	a->alloc = *alloc;
	return a;
}

void arena_destroy(struct arena *a)
{
	if (!a)
		return;
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		mem_free(&a->alloc, c, sizeof *c + c->size);
		c = next;
	}
	struct mem_allocator alloc = a->alloc;
	mem_free(&alloc, a, sizeof *a);
}

void *arena_alloc(struct arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	size = (size + align - 1) / align * align;
	if (size == 0)
		size = align;
	struct chunk *c = a->head;
	if (!c || c->size - c->used < size) {
		size_t csize = size > CHUNK_MIN ? size : CHUNK_MIN;
		c = mem_alloc(&a->alloc, sizeof *c + csize);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		c->size = csize;
		c->used = 0;
		c->next = a->head;
		a->head = c;
		a->total += csize;
	}
	void *p = (char *)c->data + c->used;
	c->used += size;
	memset(p, 0, size);
	return p;
}

void *arena_realloc(struct arena *a, void *p, size_t osize, size_t nsize)
{
	if (nsize <= osize && p)
		return p;
	void *q = arena_alloc(a, nsize);
	if (q && p)
		memcpy(q, p, osize);
	return q;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	if (p)
		memcpy(p, s, n);
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

bool arena_failed(const struct arena *a)
{
	return a->failed;
}

size_t arena_bytes(const struct arena *a)
{
	return a->total;
}

void *arena_grow(struct arena *arena, void *array, size_t n, size_t elem)
{
	size_t room = n > 0 ? 4 : 0;
	while (room < n)
		room *= 2;
	if (n == room) {
		array = arena_realloc(arena, array, elem * room, elem * (room ? room * 2 : 4));
		if (!array)
			return NULL;
	}
	memset((char *)array + elem * n, 0, elem);
	return array;
}
