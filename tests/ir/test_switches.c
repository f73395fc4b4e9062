/* util/switches: one table of switch names, found by either spelling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "switches.h"

static void test_names(void **state)
{
	(void)state;
	enum sw_id sw;
	assert_true(sw_find("copy-prop", &sw));
	assert_int_equal(sw, SW_COPY_PROP);
	assert_true(sw_find("copy_prop", &sw)); /* '-' and '_' alike */
	assert_int_equal(sw, SW_COPY_PROP);
	assert_true(sw_find("self_copies", &sw));
	assert_int_equal(sw, SW_SELF_COPIES);
	assert_string_equal(sw_name(SW_SELF_COPIES), "self-copies");
	assert_false(sw_find("merg", &sw));
	assert_false(sw_find("merge,cse", &sw));
	assert_false(sw_find("", &sw));
	assert_false(sw_find(NULL, &sw));
	assert_null(sw_name(SW_COUNT));
	assert_int_equal(sw_layer(SW_CSE), SW_LAYER_IR);
	assert_int_equal(sw_layer(SW_OMOD), SW_LAYER_BACKEND);
}

/* Every name is found again as its own switch: no two share a spelling. */
static void test_names_unique(void **state)
{
	(void)state;
	for (int i = 0; i < SW_COUNT; i++) {
		enum sw_id sw;
		assert_true(sw_find(sw_name((enum sw_id)i), &sw));
		assert_int_equal(sw, i);
	}
}

static void test_sets(void **state)
{
	(void)state;
	sw_set off = sw_bit(SW_MERGE) | sw_bit(SW_LOOP_UNROLL);
	assert_true(sw_off(off, SW_MERGE));
	assert_true(sw_off(off, SW_LOOP_UNROLL));
	assert_false(sw_off(off, SW_CSE));
	assert_false(sw_off(0, SW_HOLD_WAITING));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
