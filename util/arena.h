/* Arena allocation: one arena per compilation, freed at once.
 * Passes never free single objects.  All memory comes from the caller's
 * allocator hook (Lua style), so a driver controls where it lives and tests
 * can make it fail on purpose. */
#ifndef USCC_ARENA_H
#define USCC_ARENA_H

#include <stddef.h>
#include <stdbool.h>

/* realloc-like hook: nsize == 0 frees ptr; returns NULL on failure. */
typedef void *(*mem_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

struct mem_allocator {
	mem_alloc_fn fn;
	void *ud;
};

/* The default allocator: malloc/realloc/free. */
extern const struct mem_allocator mem_default_allocator;

void *mem_alloc(const struct mem_allocator *a, size_t size);
void *mem_realloc(const struct mem_allocator *a, void *p, size_t osize, size_t nsize);
void mem_free(const struct mem_allocator *a, void *p, size_t size);

struct arena;

/* Returns NULL when the allocator fails. */
struct arena *arena_create(const struct mem_allocator *alloc);
/* An arena whose first chunk holds `first` bytes instead of the usual
 * 64 KiB, for one that will mostly hold a small amount, such as a
 * result's program: a full chunk for ~1 KiB left most of its pages
 * untouched, and the next compile that took it from the chunk cache
 * touched them for the first time.  ARENA_SMALL is a size the chunk
 * cache keeps too. */
enum { ARENA_SMALL = 4096 - 64 }; /* with the headers, one page */
struct arena *arena_create_sized(const struct mem_allocator *alloc, size_t first);
void arena_destroy(struct arena *arena);

/* Zeroed memory aligned for any type.  On allocation failure the arena
 * records it (arena_failed) and returns NULL; callers check the flag at
 * stage boundaries instead of after every allocation. */
void *arena_alloc(struct arena *arena, size_t size);
/* arena_alloc without zeroing: for memory its caller fills whole at once
 * (a copy, a string), where zeroing it first is wasted. */
void *arena_alloc_unzeroed(struct arena *arena, size_t size);
/* Grows p (zeroing the new bytes) or returns it when nsize <= osize.
 * osize must be the size p was last asked for (allocations of at least
 * 8 KiB live outside the chunks and are found by that size). */
void *arena_realloc(struct arena *arena, void *p, size_t osize, size_t nsize);
/* arena_realloc without zeroing the new bytes: for an array whose every
 * element is set when it is added (zeroing its room too was a tenth of
 * a small shader's backend). */
void *arena_resize(struct arena *arena, void *p, size_t osize, size_t nsize);
char *arena_strdup(struct arena *arena, const char *s);
char *arena_strndup(struct arena *arena, const char *s, size_t n);
char *arena_printf(struct arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* For an array that grows one element at a time and keeps only its
 * count n: makes room for element n (zeroed), doubling the room when it is
 * full (room is 0, then 4, 8, 16 ...), so that n additions cost O(n) time
 * and memory.  Returns the array, maybe moved; NULL when out of memory. */
void *arena_grow(struct arena *arena, void *array, size_t n, size_t elem);
/* The elements an array of n that arena_grow grows must have room for: a
 * copy of such an array is allocated this large. */
size_t arena_grow_room(size_t n);
bool arena_failed(const struct arena *arena);
size_t arena_bytes(const struct arena *arena);

#endif
