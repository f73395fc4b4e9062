/* ir_func_clone (ir/ir_clone.c): the copy prints as the original, is
 * valid, computes the same, and owns its tables, control flow and
 * instructions, so that editing it (the constant program split, new
 * uniforms) leaves the original as it was. */
#include "const_program.h"
#include "ir_pass.h"
#include "ir_test_util.h"

static struct ir_func *fixture(struct arena *a, const char *name)
{
	char *text = read_text_file(arena_printf(a, "%s/tests/ir/fixtures/%s", USCC_SOURCE_DIR,
						 name));
	assert_non_null(text);
	struct ir_func *f = parse_ok(a, text);
	free(text);
	return f;
}

/* Loops, IFs, PHIs (with sources from later in a loop) and uniforms. */
static void test_clone_prints_the_same(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	const char *names[] = { "licm_nested.ir", "known_cond_flags.ir",
				"optimize_loop_unroll_triangle.ir", "optimize_pipeline.ir" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct ir_func *f = fixture(a, names[i]);
		struct ir_func *g = ir_func_clone(f);
		assert_non_null(g);
		validate_ok(a, g);
		assert_string_equal(ir_print(g, a), ir_print(f, a));
		assert_int_equal(g->next_id, f->next_id);
		assert_int_equal(ir_func_find_uniform(g, "n") , ir_func_find_uniform(f, "n"));
	}
	arena_destroy(a);
}

/* The copy is edited (optimized, then split, which adds uniforms and
 * rewrites instructions); the original prints as before. */
static void test_clone_is_independent(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct ir_func *f = fixture(a, "licm_nested.ir");
	char *before = ir_print(f, a);
	struct ir_func *g = ir_func_clone(f);
	assert_non_null(g);
	assert_true(ir_optimize(g, 2, NULL));
	bool failed = true;
	ir_split_constant_program(g, NULL, &failed);
	assert_false(failed);
	assert_true(ir_func_add_uniform(g, "extra", "float", 0, 1, 1) >= 0);
	validate_ok(a, g);
	validate_ok(a, f);
	assert_string_equal(ir_print(f, a), before);
	assert_int_equal(ir_func_find_uniform(f, "extra"), -1);
	assert_true(ir_func_find_uniform(g, "extra") >= 0);
	arena_destroy(a);
}

/* Tables of the copy grow in place as the original's do (arena_grow):
 * adding uniforms, inputs and outputs to a copy whose tables are followed
 * by other allocations leaves those allocations as they were. */
static void test_clone_tables_grow(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct ir_func *f = fixture(a, "licm_nested.ir");
	struct ir_func *g = ir_func_clone(f);
	assert_non_null(g);
	const struct ir_output out0 = g->noutputs ? g->outputs[0] : (struct ir_output){ 0 };
	const char *u0 = g->nuniforms ? g->uniforms[0].name : NULL;
	for (int i = 0; i < 9; i++) {
		assert_true(ir_func_add_uniform(g, arena_printf(a, "u%d", i), "float", 0, 1, 1) >= 0);
		assert_true(ir_func_add_input(g, arena_printf(a, "in%d", i), 4) >= 0);
	}
	if (g->noutputs) {
		assert_string_equal(g->outputs[0].name, out0.name);
		assert_int_equal(g->outputs[0].target, out0.target);
	}
	if (u0)
		assert_string_equal(g->uniforms[0].name, u0);
	validate_ok(a, g);
	validate_ok(a, f);
	arena_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clone_prints_the_same),
		cmocka_unit_test(test_clone_is_independent),
		cmocka_unit_test(test_clone_tables_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
