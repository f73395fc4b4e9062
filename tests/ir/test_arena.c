/* util/arena: zeroed memory, growth that keeps the contents and zeroes the
 * rest, big blocks (their own allocations, grown by realloc) wherever
 * they sit in the arena's list, byte accounting, and allocation failure
 * recorded instead of crashing, chunks kept for the next arena.  Leaks
 * show under the sanitizer build. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arena.h"

static bool all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7);
}

static bool filled(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed + i * 7))
			return false;
	return true;
}

static void test_small_and_big_zeroed(void **state)
{
	(void)state;
	struct arena *a = arena_create(NULL);
	size_t sizes[] = { 1, 16, 100, 8191, 8192, 100000, 3, 70000 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		unsigned char *p = arena_alloc(a, sizes[i]);
		assert_non_null(p);
		assert_true(all_zero(p, sizes[i]));
		assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
		fill(p, sizes[i], (unsigned)i);
	}
	assert_false(arena_failed(a));
	assert_true(arena_bytes(a) >= 8192 + 100000 + 70000);
	arena_destroy(a);
}

/* A doubling table through every size class: small, crossing into a big
 * block, then big blocks grown by realloc, with other big blocks on both
 * sides of it in the list. */
static void test_growth_keeps_contents(void **state)
{
	(void)state;
	struct arena *a = arena_create(NULL);
	unsigned char *before = arena_alloc(a, 20000);
	fill(before, 20000, 1);
	unsigned char *t = NULL;
	size_t cap = 0;
	unsigned char *others[8];
	int nothers = 0;
	for (size_t ncap = 64; ncap <= (size_t)1 << 20; ncap *= 2) {
		t = arena_realloc(a, t, cap, ncap);
		assert_non_null(t);
		assert_true(filled(t, cap, 9));
		assert_true(all_zero(t + cap, ncap - cap));
		fill(t, ncap, 9);
		cap = ncap;
		if (ncap >= 16384 && nothers < 8) { /* a big block after it */
			others[nothers] = arena_alloc(a, 9000 + (size_t)nothers);
			fill(others[nothers], 9000 + (size_t)nothers, 50u + (unsigned)nothers);
			nothers++;
		}
	}
	assert_true(filled(before, 20000, 1));
	for (int i = 0; i < nothers; i++)
		assert_true(filled(others[i], 9000 + (size_t)i, 50u + (unsigned)i));
	/* shrinking asks keep the block */
	assert_ptr_equal(arena_realloc(a, t, cap, 10), t);
	assert_ptr_equal(arena_realloc(a, before, 20000, 20000), before);
	assert_false(arena_failed(a));
	arena_destroy(a);
}

/* arena_resize grows as arena_realloc does, through both size classes,
 * keeping the old bytes (the new ones are the caller's to set). */
static void test_resize_keeps_contents(void **state)
{
	(void)state;
	struct arena *a = arena_create(NULL);
	unsigned char *t = NULL;
	size_t cap = 0;
	for (size_t ncap = 48; ncap <= (size_t)1 << 18; ncap *= 2) {
		unsigned char *mark = arena_alloc(a, 40); /* moves the chunk's end */
		fill(mark, 40, 3);
		t = arena_resize(a, t, cap, ncap);
		assert_non_null(t);
		assert_true(filled(t, cap, 5));
		fill(t, ncap, 5);
		assert_true(filled(mark, 40, 3));
		cap = ncap;
	}
	assert_ptr_equal(arena_resize(a, t, cap, 10), t);
	assert_false(arena_failed(a));
	arena_destroy(a);
}

/* arena_grow: each element zeroed when it is added, the earlier ones
 * kept, through the doublings and into a big block. */
static void test_grow_one_at_a_time(void **state)
{
	(void)state;
	struct arena *a = arena_create(NULL);
	enum { ELEM = 24 };
	unsigned char *arr = NULL;
	for (size_t n = 0; n < 1000; n++) {
		arr = arena_grow(a, arr, n, ELEM);
		assert_non_null(arr);
		assert_true(all_zero(arr + n * ELEM, ELEM));
		assert_true(filled(arr, n * ELEM, 11));
		fill(arr, (n + 1) * ELEM, 11);
	}
	assert_false(arena_failed(a));
	arena_destroy(a);
}

/* Short texts and ones longer than any buffer the formatting may use. */
static void test_printf_lengths(void **state)
{
	(void)state;
	struct arena *a = arena_create(NULL);
	assert_string_equal(arena_printf(a, "%s[%d]", "IN", 7), "IN[7]");
	assert_string_equal(arena_printf(a, "%s", ""), "");
	for (int n = 100; n <= 1100; n += 37) {
		char *p = arena_printf(a, "<%*d>", n, 42);
		assert_non_null(p);
		assert_int_equal(strlen(p), (size_t)n + 2);
		assert_int_equal(p[0], '<');
		assert_string_equal(p + n - 1, "42>");
	}
	assert_false(arena_failed(a));
	arena_destroy(a);
}

/* An allocator that fails after a budget of calls. */
struct budget {
	int left;
};

static void *limited(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)osize;
	struct budget *b = ud;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	if (b->left-- <= 0)
		return NULL;
	return realloc(ptr, nsize);
}

static void test_failure_recorded(void **state)
{
	(void)state;
	struct budget b = { 3 }; /* the arena itself, one chunk, one big block */
	struct mem_allocator m = { limited, &b };
	struct arena *a = arena_create(&m);
	assert_non_null(a);
	assert_non_null(arena_alloc(a, 10));
	unsigned char *big = arena_alloc(a, 10000);
	assert_non_null(big);
	fill(big, 10000, 3);
	assert_false(arena_failed(a));
	assert_null(arena_realloc(a, big, 10000, 20000)); /* realloc refused */
	assert_true(arena_failed(a));
	assert_true(filled(big, 10000, 3)); /* the old block stands */
	assert_null(arena_alloc(a, 50000));
	arena_destroy(a);
}

/* Counts what an allocator holds, to see every block given back, and
 * the largest block asked for. */
struct tally {
	int live;
	size_t largest;
};

static void *counting(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct tally *t = ud;
	(void)osize;
	t->live += (ptr == NULL) - (nsize == 0);
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	if (nsize > t->largest)
		t->largest = nsize;
	return realloc(ptr, nsize);
}

/* A chunk of an arena on the default allocator serves the next arena
 * (zeroed again by arena_alloc); an arena on the caller's allocator gives
 * every chunk back to it. */
static void check_reused_zeroed(size_t first)
{
	struct arena *a = arena_create_sized(NULL, first);
	unsigned char *p = arena_alloc(a, 100);
	fill(p, 100, 5);
	arena_destroy(a);
	struct arena *b = arena_create_sized(NULL, first);
	unsigned char *q = arena_alloc(b, 100);
	assert_true(all_zero(q, 100));
#ifndef __SANITIZE_ADDRESS__
	assert_ptr_equal(q, p);
#endif
	arena_destroy(b);
}

static void test_chunks_reused(void **state)
{
	(void)state;
	check_reused_zeroed(0); /* 0: the usual first chunk */
	struct tally t = { 0, 0 };
	struct mem_allocator m = { counting, &t };
	for (int i = 0; i < 3; i++) {
		struct arena *c = arena_create(&m);
		for (int k = 0; k < 40; k++)
			assert_non_null(arena_alloc(c, 4000));
		assert_true(t.live > 2);
		arena_destroy(c);
		assert_int_equal(t.live, 0);
	}
}

/* arena_create_sized: the first chunk is small (no 64 KiB block asked
 * for while the allocations fit it), the next ones the usual size; a
 * small chunk of an arena on the default allocator serves the next small
 * arena, zeroed again. */
static void test_sized_first_chunk(void **state)
{
	(void)state;
	struct tally t = { 0, 0 };
	struct mem_allocator m = { counting, &t };
	struct arena *a = arena_create_sized(&m, ARENA_SMALL);
	unsigned char *p = arena_alloc(a, 1000);
	fill(p, 1000, 7);
	unsigned char *q = arena_alloc_unzeroed(a, 2000);
	fill(q, 2000, 8);
	assert_true(t.largest < 2 * ARENA_SMALL);
	unsigned char *r = arena_alloc(a, 3000); /* past the first chunk */
	assert_non_null(r);
	assert_true(all_zero(r, 3000));
	assert_true(t.largest > 16 * ARENA_SMALL);
	assert_true(filled(p, 1000, 7) && filled(q, 2000, 8));
	arena_destroy(a);
	assert_int_equal(t.live, 0);
	check_reused_zeroed(ARENA_SMALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_and_big_zeroed),
		cmocka_unit_test(test_growth_keeps_contents),
		cmocka_unit_test(test_resize_keeps_contents),
		cmocka_unit_test(test_printf_lengths),
		cmocka_unit_test(test_grow_one_at_a_time),
		cmocka_unit_test(test_failure_recorded),
		cmocka_unit_test(test_chunks_reused),
		cmocka_unit_test(test_sized_first_chunk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
