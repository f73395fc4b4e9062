/* The cost interface's rule (r500_cost.h): temporaries decide between
 * programs whose weights are within COST_NEAR_PERCENT, the weights
 * otherwise, then loop work and instructions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "r500_cost.h"

static struct r500_cost cost(long weighted, int temps, int instructions)
{
	return (struct r500_cost){ .weighted = weighted, .temps = temps,
				   .instructions = instructions };
}

/* At equal weight, fewer temporaries win even with more instructions. */
static void test_equal_weight_fewer_temps(void **state)
{
	(void)state;
	struct r500_cost a = cost(100, 5, 101), b = cost(100, 7, 99);
	assert_true(r500_cost_better(&a, &b));
	assert_false(r500_cost_better(&b, &a));
}

/* 2 % of 300 is 6: 306 against 300 is near, fewer temporaries win; 307 is
 * not, the lighter program wins. */
static void test_near_weights(void **state)
{
	(void)state;
	struct r500_cost kept = cost(300, 10, 300);
	struct r500_cost near = cost(306, 8, 306), far = cost(307, 8, 307);
	assert_true(r500_cost_better(&near, &kept));
	assert_false(r500_cost_better(&kept, &near));
	assert_false(r500_cost_better(&far, &kept));
	assert_true(r500_cost_better(&kept, &far));
}

/* A small program must tie: 2 % of 40 is under a cycle, so 41 cycles with
 * fewer temporaries lose to 40. */
static void test_small_programs_tie(void **state)
{
	(void)state;
	struct r500_cost kept = cost(40, 6, 40), alt = cost(41, 3, 41);
	assert_false(r500_cost_better(&alt, &kept));
	assert_true(r500_cost_better(&kept, &alt));
}

/* At equal temporaries today's rule stands: weight, loop work,
 * instructions; a full tie keeps the program kept. */
static void test_equal_temps(void **state)
{
	(void)state;
	struct r500_cost kept = cost(300, 4, 50), lighter = cost(299, 4, 60);
	assert_true(r500_cost_better(&lighter, &kept));
	struct r500_cost less_loop = kept;
	kept.in_loops = 10;
	less_loop.in_loops = 9;
	assert_true(r500_cost_better(&less_loop, &kept));
	struct r500_cost shorter = kept;
	shorter.instructions--;
	assert_true(r500_cost_better(&shorter, &kept));
	assert_false(r500_cost_better(&kept, &kept));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal_weight_fewer_temps),
		cmocka_unit_test(test_near_weights),
		cmocka_unit_test(test_small_programs_tie),
		cmocka_unit_test(test_equal_temps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
