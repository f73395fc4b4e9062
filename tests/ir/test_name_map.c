/* util/name_map: put, get, replace, remove, growth past many names, and
 * removed names leaving room without breaking the probes of others. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "name_map.h"

static void test_basic(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct name_map m = { 0 };
	int x, y;
	assert_null(name_map_get(&m, "a"));
	assert_false(name_map_remove(&m, "a"));
	assert_true(name_map_put(&m, a, "a", &x));
	assert_ptr_equal(name_map_get(&m, "a"), &x);
	assert_true(name_map_put(&m, a, "a", &y)); /* replaces */
	assert_ptr_equal(name_map_get(&m, "a"), &y);
	assert_int_equal(m.count, 1);
	assert_true(name_map_remove(&m, "a"));
	assert_null(name_map_get(&m, "a"));
	assert_int_equal(m.count, 0);
	arena_destroy(a);
}

static void test_many(void **state)
{
	(void)state;
	enum { N = 100000 };
	struct arena *a = arena_create(&mem_default_allocator);
	struct name_map m = { 0 };
	static char names[N][12];
	for (int i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "n%d", i);
		assert_true(name_map_put(&m, a, names[i], (void *)(intptr_t)(i + 1)));
	}
	assert_int_equal(m.count, N);
	for (int i = 0; i < N; i++)
		assert_int_equal((intptr_t)name_map_get(&m, names[i]), i + 1);
	/* remove every other name: the rest stay reachable past the holes */
	for (int i = 0; i < N; i += 2)
		assert_true(name_map_remove(&m, names[i]));
	for (int i = 0; i < N; i++)
		assert_int_equal((intptr_t)name_map_get(&m, names[i]), i % 2 ? i + 1 : 0);
	/* replacing a name past the holes in its probe finds it, and does not
	 * put a second copy in a hole: once removed, it is gone */
	for (int i = 1; i < N; i += 2)
		assert_true(name_map_put(&m, a, names[i], (void *)(intptr_t)(i + 2)));
	assert_int_equal(m.count, N / 2);
	for (int i = 1; i < N; i += 2)
		assert_int_equal((intptr_t)name_map_get(&m, names[i]), i + 2);
	for (int i = 1; i < N; i += 4)
		assert_true(name_map_remove(&m, names[i]));
	for (int i = 1; i < N; i += 2)
		assert_int_equal((intptr_t)name_map_get(&m, names[i]), i % 4 == 1 ? 0 : i + 2);
	/* adding and removing one name over and over does not grow the table */
	uint32_t cap = m.cap;
	for (int r = 0; r < 10 * N; r++) {
		assert_true(name_map_put(&m, a, "churn", &m));
		assert_true(name_map_remove(&m, "churn"));
	}
	assert_true(m.cap <= cap);
	assert_null(name_map_get(&m, "churn"));
	arena_destroy(a);
}

/* Reserved room takes that many names without a rehash; a smaller ask
 * keeps the table. */
static void test_reserve(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct name_map m = { 0 };
	static char names[300][8];
	assert_true(name_map_put(&m, a, "first", &m));
	assert_true(name_map_reserve(&m, a, 301));
	const struct name_slot *slots = m.slots;
	uint32_t cap = m.cap;
	assert_true(cap >= 602);
	for (int i = 0; i < 300; i++) {
		snprintf(names[i], sizeof names[i], "v%d", i);
		assert_true(name_map_put(&m, a, names[i], (void *)(intptr_t)(i + 1)));
	}
	assert_ptr_equal(m.slots, slots);
	assert_int_equal(m.cap, cap);
	assert_true(name_map_reserve(&m, a, 10));
	assert_ptr_equal(m.slots, slots);
	assert_ptr_equal(name_map_get(&m, "first"), &m);
	for (int i = 0; i < 300; i++)
		assert_int_equal((intptr_t)name_map_get(&m, names[i]), i + 1);
	arena_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_reserve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
