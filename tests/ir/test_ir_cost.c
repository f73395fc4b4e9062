/* ir/ir_cost.h: the passes ask the function's cost model, not constants
 * of their own -- a model with other sizes changes their decisions. */
#include "ir_test_util.h"
#include "const_program.h"
#include "ir_cost.h"
#include "ir_pass.h"

/* acc += v * i for i = 0 .. 15: two instructions a trip that are not
 * constants (the counter's are), 32 once unrolled. */
static const char counted_loop[] =
	"stage fragment\n"
	"input #0 \"v\" f1\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = const.f1 0\n"
	"%2 = const.f1 1\n"
	"%3 = const.f1 16\n"
	"%4 = input.f1 #0\n"
	"loop {\n"
	"  %5 = phi.f1 %1.x, %9.x\n"
	"  %6 = phi.f1 %1.x, %8.x\n"
	"  %7 = ge.b1 %5.x, %3.x\n"
	"  if %7.x {\n"
	"    break\n"
	"  }\n"
	"  %10 = mul.f1 %4.x, %5.x\n"
	"  %8 = add.f1 %6.x, %10.x\n"
	"  %9 = add.f1 %5.x, %2.x\n"
	"}\n"
	"%11 = phi.f1 %6.x\n"
	"%12 = vec.f4 %11.x, %11.x, %11.x, %11.x\n"
	"output #0 %12.xyzw\n";

static bool has_loop(const struct ir_func *f)
{
	for (const struct ir_cf *cf = f->body.first; cf; cf = cf->next)
		if (cf->kind == IR_CF_LOOP)
			return true;
	return false;
}

static void test_default_model(void **state)
{
	struct arena *a = *state;
	struct ir_func *f = parse_ok(a, counted_loop);
	assert_ptr_equal(ir_cost(f), &ir_cost_vec4);
	static const struct ir_cost_model mine = { 100, 100, ir_cost_vec4_op,
						   ir_cost_vec4_vector_op };
	f->cost = &mine;
	assert_ptr_equal(ir_cost(f), &mine);
	struct ir_func *g = ir_func_clone(f);
	assert_non_null(g);
	assert_ptr_equal(ir_cost(g), &mine);
}

/* loop_unroll copies a loop whole only while the copies fit the model's
 * instructions. */
static void test_unroll_asks_max_instructions(void **state)
{
	struct arena *a = *state;
	struct ir_func *roomy = parse_ok(a, counted_loop);
	assert_true(ir_opt_loop_unroll(roomy));
	validate_ok(a, roomy);
	assert_false(has_loop(roomy));

	static const struct ir_cost_model small = { 8, 256, ir_cost_vec4_op,
						    ir_cost_vec4_vector_op };
	struct ir_func *tight = parse_ok(a, counted_loop);
	tight->cost = &small;
	ir_opt_loop_unroll(tight);
	validate_ok(a, tight);
	/* still a loop: at most its body twice a trip (16 trips are even) */
	assert_true(has_loop(tight));
}

/* u * t + u: uniform-only work the constant program takes, while the
 * model's constant slots leave room for its output. */
static const char uniform_work[] =
	"stage fragment\n"
	"input #0 \"v\" f4\n"
	"uniform #0 \"u\" \"vec4\" f4 nvec4=1 array=0 base=0\n"
	"uniform #1 \"t\" \"float\" f1 nvec4=1 array=0 base=1\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = input.f4 #0\n"
	"%2 = uniform.f4 #0[0]\n"
	"%3 = uniform.f1 #1[0]\n"
	"%4 = mad.f4 %2.xyzw, %3.xxxx, %2.xyzw\n"
	"%5 = mul.f4 %1.xyzw, %4.xyzw\n"
	"output #0 %5.xyzw\n";

static void test_split_asks_const_slots(void **state)
{
	struct arena *a = *state;
	bool failed = true;
	struct ir_func *roomy = parse_ok(a, uniform_work);
	assert_non_null(ir_split_constant_program(roomy, NULL, &failed));
	assert_false(failed);

	/* room for the program's two uniforms and its immediates only */
	static const struct ir_cost_model full = { 512, 32 + 2, ir_cost_vec4_op,
						   ir_cost_vec4_vector_op };
	struct ir_func *tight = parse_ok(a, uniform_work);
	tight->cost = &full;
	failed = true;
	assert_null(ir_split_constant_program(tight, NULL, &failed));
	assert_false(failed);
}

/* Four scalar adds of four lanes: slp gathers them into one vector add
 * on a machine that adds vectors, and leaves them on one that does not. */
static const char four_adds[] =
	"stage fragment\n"
	"input #0 \"a\" f4\n"
	"input #1 \"b\" f4\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = input.f4 #0\n"
	"%2 = input.f4 #1\n"
	"%3 = add.f1 %1.x, %2.x\n"
	"%4 = add.f1 %1.y, %2.y\n"
	"%5 = add.f1 %1.z, %2.z\n"
	"%6 = add.f1 %1.w, %2.w\n"
	"%7 = mul.f1 %3.x, %3.x\n"
	"%8 = mul.f1 %4.x, %4.x\n"
	"%9 = mul.f1 %5.x, %5.x\n"
	"%10 = mul.f1 %6.x, %6.x\n"
	"%11 = vec.f4 %7.x, %8.x, %9.x, %10.x\n"
	"output #0 %11.xyzw\n";

static bool no_vector_op(enum ir_op op)
{
	(void)op;
	return false;
}

static void test_slp_asks_vector_op(void **state)
{
	struct arena *a = *state;
	struct ir_func *vec = parse_ok(a, four_adds);
	assert_true(ir_opt_slp(vec));
	validate_ok(a, vec);

	static const struct ir_cost_model scalar = { 512, 256, ir_cost_vec4_op, no_vector_op };
	struct ir_func *lanes = parse_ok(a, four_adds);
	lanes->cost = &scalar;
	assert_false(ir_opt_slp(lanes));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_model),
		cmocka_unit_test(test_unroll_asks_max_instructions),
		cmocka_unit_test(test_split_asks_const_slots),
		cmocka_unit_test(test_slp_asks_vector_op),
	};
	return cmocka_run_group_tests(tests, ir_test_arena_setup, ir_test_arena_teardown);
}
