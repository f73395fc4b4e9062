/* Arena allocator: a chain of chunks from the caller's allocator. */
#include "arena.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
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

/* A large block on its own, from the caller's allocator: growing it is a
 * realloc, so a table that doubles does not leave its old copies behind
 * in the chunks (every page they took is one more page fault). */
struct big {
	struct big *prev, *next;
	size_t size;
	max_align_t data[];
};

struct arena {
	struct mem_allocator alloc;
	struct chunk *head;
	struct big *big;
	size_t total;
	size_t first;  /* arena_create_sized: the first chunk's size; 0 when taken */
	bool failed;
};

/* BIG_MIN: an allocation of at least this many bytes is a big block.  The
 * rule reads only the size, so arena_realloc knows a big block by the old
 * size its caller passes. */
enum { CHUNK_MIN = 64 * 1024, BIG_MIN = 8 * 1024 };

/* Chunks of arenas on the default allocator outlive them here, up to
 * CACHE_CHUNKS of each size class, for the next arena of the process:
 * returned to malloc, glibc gave the top of the heap back to the kernel
 * at every compile's end and the next compile took a page fault for each
 * page again (on this machine a 10 ms compile spent 8 ms so).  The
 * classes: CHUNK_MIN, a compile's; CHUNK_SMALL, a small arena_create_sized
 * one's (a result's program), which from malloc and back cost a tiny
 * compile 3 %.  Shared by the threads, under a lock. */
enum { CACHE_CHUNKS = 128, CHUNK_SMALL = ARENA_SMALL, NCLASSES = 2 };
static struct {
	pthread_mutex_t lock;
	struct chunk *free[NCLASSES];
	int n[NCLASSES];
} cache = { PTHREAD_MUTEX_INITIALIZER, { NULL }, { 0 } };

/* The cache's class of a chunk of `size` bytes; -1 for none. */
static int size_class(size_t size)
{
	return size == CHUNK_MIN ? 0 : size == CHUNK_SMALL ? 1 : -1;
}

/* Not under AddressSanitizer: it would no longer see a use of an arena's
 * memory after arena_destroy. */
static bool cached(const struct arena *a)
{
#ifdef __SANITIZE_ADDRESS__
	(void)a;
	return false;
#else
	return a->alloc.fn == default_alloc;
#endif
}

/* A chunk of `size` bytes (c->size not yet set). */
static struct chunk *chunk_new(struct arena *a, size_t size)
{
	struct chunk *c = NULL;
	int k = size_class(size);
	if (k >= 0 && cached(a)) {
		pthread_mutex_lock(&cache.lock);
		c = cache.free[k];
		if (c) {
			cache.free[k] = c->next;
			cache.n[k]--;
		}
		pthread_mutex_unlock(&cache.lock);
	}
	return c ? c : mem_alloc(&a->alloc, sizeof *c + size);
}

/* c back to the cache; false when it is full (or not for this arena, or
 * of no size class). */
static bool chunk_keep(const struct arena *a, struct chunk *c)
{
	int k = size_class(c->size);
	if (k < 0 || !cached(a))
		return false;
	pthread_mutex_lock(&cache.lock);
	bool room = cache.n[k] < CACHE_CHUNKS;
	if (room) {
		c->next = cache.free[k];
		cache.free[k] = c;
		cache.n[k]++;
	}
	pthread_mutex_unlock(&cache.lock);
	return room;
}

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

struct arena *arena_create_sized(const struct mem_allocator *alloc, size_t first)
{
	struct arena *a = arena_create(alloc);
	if (a)
		a->first = first < CHUNK_MIN ? first : 0;
	return a;
}

void arena_destroy(struct arena *a)
{
	if (!a)
		return;
	struct chunk *c = a->head;
	while (c) {
		struct chunk *next = c->next;
		if (!chunk_keep(a, c))
			mem_free(&a->alloc, c, sizeof *c + c->size);
		c = next;
	}
	struct big *b = a->big;
	while (b) {
		struct big *next = b->next;
		mem_free(&a->alloc, b, sizeof *b + b->size);
		b = next;
	}
	struct mem_allocator alloc = a->alloc;
	mem_free(&alloc, a, sizeof *a);
}

static void *big_alloc(struct arena *a, size_t size)
{
	struct big *b = mem_alloc(&a->alloc, sizeof *b + size);
	if (!b) {
		a->failed = true;
		return NULL;
	}
	b->size = size;
	b->prev = NULL;
	b->next = a->big;
	if (a->big)
		a->big->prev = b;
	a->big = b;
	a->total += size;
	return b->data;
}

static void *big_realloc(struct arena *a, void *p, size_t nsize, bool zero)
{
	struct big *b = (struct big *)((char *)p - offsetof(struct big, data));
	size_t osize = b->size;
	struct big *nb = mem_realloc(&a->alloc, b, sizeof *b + osize, sizeof *nb + nsize);
	if (!nb) {
		a->failed = true;
		return NULL;
	}
	if (nb->prev)
		nb->prev->next = nb;
	else
		a->big = nb;
	if (nb->next)
		nb->next->prev = nb;
	nb->size = nsize;
	a->total += nsize - osize;
	if (zero)
		memset((char *)nb->data + osize, 0, nsize - osize);
	return nb->data;
}

/* The slow path of alloc_raw: a big block or a new chunk.  Kept out of
 * line so that the common bump of alloc_raw saves no registers (it was
 * most of an allocation's cost, and a tiny compile makes ~180 of them). */
static __attribute__((noinline, cold)) void *alloc_slow(struct arena *a, size_t size)
{
	if (size >= BIG_MIN)
		return big_alloc(a, size);
	size_t csize = CHUNK_MIN;
	if (a->first >= size) /* the sized first chunk */
		csize = a->first <= CHUNK_SMALL ? CHUNK_SMALL : a->first;
	a->first = 0;
	struct chunk *c = chunk_new(a, csize);
	if (!c) {
		a->failed = true;
		return NULL;
	}
	c->size = csize;
	c->used = size;
	c->next = a->head;
	a->head = c;
	a->total += csize;
	return c->data;
}

/* `size` bytes, not zeroed. */
static inline void *alloc_raw(struct arena *a, size_t size)
{
	const size_t align = sizeof(max_align_t);
	size_t rounded = size ? (size + align - 1) / align * align : align;
	struct chunk *c = a->head;
	if (size >= BIG_MIN || !c || c->size - c->used < rounded)
		return alloc_slow(a, size >= BIG_MIN ? size : rounded);
	void *p = (char *)c->data + c->used;
	c->used += rounded;
	return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
	void *p = alloc_raw(a, size);
	if (!p)
		return NULL;
	/* most allocations are small: zeroing the whole aligned unit they
	 * take is a few stores, not a call of memset */
	if (size <= sizeof(max_align_t))
		memset(p, 0, sizeof(max_align_t));
	else
		memset(p, 0, size);
	return p;
}

void *arena_alloc_unzeroed(struct arena *a, size_t size)
{
	return alloc_raw(a, size);
}

static void *realloc_as(struct arena *a, void *p, size_t osize, size_t nsize, bool zero)
{
	if (nsize <= osize && p)
		return p;
	if (p && osize >= BIG_MIN)
		return big_realloc(a, p, nsize, zero);
	void *q = alloc_raw(a, nsize);
	if (!q)
		return NULL;
	size_t keep = p ? osize : 0;
	if (keep)
		memcpy(q, p, keep);
	if (zero)
		memset((char *)q + keep, 0, nsize - keep);
	return q;
}

void *arena_realloc(struct arena *a, void *p, size_t osize, size_t nsize)
{
	return realloc_as(a, p, osize, nsize, true);
}

void *arena_resize(struct arena *a, void *p, size_t osize, size_t nsize)
{
	if (!p) /* a new array not zeroed: as cheap as arena_alloc's bump */
		return alloc_raw(a, nsize);
	return realloc_as(a, p, osize, nsize, false);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = alloc_raw(a, n + 1);
	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

/* One formatting pass into a buffer on the stack, and a second only for a
 * text longer than it (the names the frontends make are short: measuring
 * them first doubled their cost). */
char *arena_printf(struct arena *a, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *p = alloc_raw(a, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof buf) {
		memcpy(p, buf, (size_t)n + 1);
		return p;
	}
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

size_t arena_grow_room(size_t n)
{
	size_t room = n > 0 ? 4 : 0;
	while (room < n)
		room *= 2;
	return room;
}

void *arena_grow(struct arena *arena, void *array, size_t n, size_t elem)
{
	size_t room = arena_grow_room(n);
	if (n == room) { /* unzeroed: each element is zeroed when its turn comes */
		array = arena_resize(arena, array, elem * room, elem * (room ? room * 2 : 4));
		if (!array)
			return NULL;
	}
	memset((char *)array + elem * n, 0, elem);
	return array;
}
