/* util/name_list: membership with '-' and '_' alike, and adding a name to
 * an empty or a longer list. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "name_list.h"

static void test_has(void **state)
{
	(void)state;
	assert_true(name_list_has("cse,merge", "merge"));
	assert_true(name_list_has("copy-prop", "copy_prop"));
	assert_false(name_list_has("cse,merge", "merg"));
	assert_false(name_list_has(NULL, "cse"));
	assert_false(name_list_has("", "cse"));
}

static void test_add(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	assert_string_equal(name_list_add(a, NULL, "presub"), "presub");
	assert_string_equal(name_list_add(a, "", "presub"), "presub");
	const char *l = name_list_add(a, "cse,merge", "loop_unroll");
	assert_string_equal(l, "cse,merge,loop_unroll");
	assert_true(name_list_has(l, "loop-unroll"));
	assert_true(name_list_has(l, "cse"));
	arena_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_has),
		cmocka_unit_test(test_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
