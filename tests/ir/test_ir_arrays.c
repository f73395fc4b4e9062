/* Local arrays in the IR (ir.h: ir_array; LOAD and STORE in ir_ops.def):
 * the interpreter's reads and writes, out-of-range indexes as ir_array
 * defines them, the text round trip, the validator's checks and the
 * copy ir_func_clone makes. */
#include <math.h>

#include "ir_eval.h"
#include "ir_test_util.h"

static void run(struct arena *A, const struct ir_func *f, int seed, struct ir_interp_result *res)
{
	struct test_env t;
	test_env_init(&t, seed);
	struct diag_sink d;
	diag_init(&d, A);
	if (!ir_interp_quad(f, &t.env, res, &d)) {
		print_error("%s\n", diag_render(&d));
		fail_msg("interpreter failed");
	}
}

/* Constant elements: a stored value is read back, an element never
 * written reads 0 and false, a later store replaces an earlier one. */
static const char *const constant_text =
	"output #0 \"o\" f4 target=0\n"
	"array #0 \"a\" f2 length=3\n"
	"array #1 \"b\" b1 length=2\n"
	"%1 = const.f2 1 2\n"
	"%2 = const.f2 3 4\n"
	"%3 = const.b1 1\n"
	"store #0[0], %1.xy\n"
	"store #0[1], %2.yx\n"
	"store #0[0], %2.xy\n"
	"store #1[1], %3.x\n"
	"%4 = load.f2 #0[0]\n"
	"%5 = load.f2 #0[1]\n"
	"%6 = load.f2 #0[2]\n"
	"%7 = load.b1 #1[1]\n"
	"%8 = load.b1 #1[0]\n"
	"%9 = b2f.f1 %7.x\n"
	"%10 = b2f.f1 %8.x\n"
	"%11 = add.f1 %6.x, %10.x\n"
	"%12 = vec.f4 %4.y, %5.x, %11.x, %9.x\n"
	"output #0 %12.xyzw\n";

static void test_constant_elements(void **state)
{
	struct arena *A = *state;
	struct ir_func *f = parse_ok(A, constant_text);
	validate_ok(A, f);
	struct ir_interp_result r;
	run(A, f, 0, &r);
	const float want[4] = { 4, 4, 0, 1 };
	for (int p = 0; p < 4; p++)
		for (int c = 0; c < 4; c++)
			assert_true(r.outputs[0][p][c] == want[c]);
}

/* Indexes from an input, per pixel: integers in range, negative ones,
 * fractions and ones past the end (test_env gives -1.5 .. 2.5 in steps of
 * 0.25).  A loop stores 10 + k at element k (k = 0 .. 3) of a 4-element
 * array; the pixel then stores 100 at element 2 + v.x and reads element
 * v.y + 1 and element 2 + v.x; the C model below says what ir_array defines. */
static const char *const dynamic_text =
	"input #0 \"v\" f4\n"
	"output #0 \"o\" f4 target=0\n"
	"array #0 \"a\" f1 length=4\n"
	"%1 = input.f4 #0\n"
	"%2 = const.f1 0\n"
	"%3 = const.f1 4\n"
	"%4 = const.f1 1\n"
	"%5 = const.f1 10\n"
	"%6 = const.f1 100\n"
	"loop {\n"
	"  %7 = phi.f1 %2.x, %8.x\n"
	"  %9 = ge.b1 %7.x, %3.x\n"
	"  if %9.x {\n"
	"    break\n"
	"  }\n"
	"  %10 = add.f1 %7.x, %5.x\n"
	"  store #0[0] + %7.x, %10.x\n"
	"  %8 = add.f1 %7.x, %4.x\n"
	"}\n"
	"store #0[2] + %1.x, %6.x\n"
	"%11 = load.f1 #0[1] + %1.y\n"
	"%12 = load.f1 #0[2] + %1.x\n"
	"%13 = load.f1 #0[3]\n"
	"%14 = vec.f4 %11.x, %12.x, %13.x, %1.w\n"
	"output #0 %14.xyzw\n";

/* ir_array's rule: the element k with offset + index == k, or none. */
static int model_element(int length, int offset, float index)
{
	float e = (float)offset + index;
	for (int k = 0; k < length; k++)
		if (e == (float)k)
			return k;
	return -1;
}

static void test_dynamic_elements(void **state)
{
	struct arena *A = *state;
	struct ir_func *f = parse_ok(A, dynamic_text);
	validate_ok(A, f);
	bool saw_out_of_range = false, saw_fraction = false, saw_hit = false;
	for (int seed = 0; seed < 8; seed++) {
		struct test_env t;
		test_env_init(&t, seed);
		struct ir_interp_result r;
		run(A, f, seed, &r);
		for (int p = 0; p < 4; p++) {
			const float *v = t.in[0][p];
			float a[4] = { 10, 11, 12, 13 };
			int w = model_element(4, 2, v[0]);
			if (w >= 0)
				a[w] = 100;
			int r1 = model_element(4, 1, v[1]), r2 = model_element(4, 2, v[0]);
			saw_out_of_range |= w < 0 && v[0] == floorf(v[0]);
			saw_fraction |= v[1] != floorf(v[1]);
			saw_hit |= w >= 0;
			const float want[4] = { a[r1 < 0 ? 3 : r1], a[r2 < 0 ? 3 : r2], a[3], v[3] };
			for (int c = 0; c < 4; c++)
				if (r.outputs[0][p][c] != want[c])
					fail_msg("seed %d pixel %d comp %d: %g, want %g", seed, p, c,
						 (double)r.outputs[0][p][c], (double)want[c]);
		}
	}
	/* the inputs reached every case */
	assert_true(saw_out_of_range && saw_fraction && saw_hit);
}

/* ir_array_element is the rule the interpreter applies. */
static void test_element_rule(void **state)
{
	(void)state;
	const struct ir_array a = { "a", 3, 4, IR_FLOAT };
	assert_int_equal(ir_array_element(&a, 2, false, 0), 2);
	assert_int_equal(ir_array_element(&a, 1, true, 1.0f), 2);
	assert_int_equal(ir_array_element(&a, 1, true, 2.0f), -1);
	assert_int_equal(ir_array_element(&a, 0, true, -1.0f), -1);
	assert_int_equal(ir_array_element(&a, 0, true, 0.5f), -1);
	assert_int_equal(ir_array_element(&a, 0, true, NAN), -1);
	assert_int_equal(ir_array_element(&a, 0, true, INFINITY), -1);
	assert_int_equal(ir_array_element(&a, 2, true, -2.0f), 0);
}

/* The printed text parses back to the same text, and the copy prints the
 * same with its own table. */
static void test_round_trip_and_clone(void **state)
{
	struct arena *A = *state;
	const char *texts[] = { constant_text, dynamic_text };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct ir_func *f = parse_ok(A, texts[i]);
		char *once = ir_print(f, A);
		assert_string_equal(ir_print(parse_ok(A, once), A), once);
		assert_non_null(strstr(once, "array #0 \"a\""));
		struct ir_func *g = ir_func_clone(f);
		assert_non_null(g);
		validate_ok(A, g);
		assert_string_equal(ir_print(g, A), once);
		assert_ptr_not_equal(g->arrays, f->arrays);
		assert_true(ir_func_add_array(g, "more", 2, 1, IR_FLOAT) >= 0);
		assert_int_equal(g->narrays, f->narrays + 1);
	}
	/* the dynamic store prints its index before its value */
	char *t = ir_print(parse_ok(A, dynamic_text), A);
	assert_non_null(strstr(t, "store #0[2] + %1.x, %6.x\n"));
	assert_non_null(strstr(t, "%11 = load.f1 #0[1] + %1.y\n"));
}

/* What the validator refuses, and the parser's errors. */
static void expect_invalid(struct arena *A, const char *body, const char *what)
{
	char *text = arena_printf(A,
				  "output #0 \"o\" f4 target=0\n"
				  "array #0 \"a\" f2 length=3\n"
				  "array #1 \"b\" b1 length=2\n"
				  "%%1 = const.f2 1 2\n"
				  "%%2 = const.b1 1\n"
				  "%s",
				  body);
	struct ir_func *f = parse_ok(A, text);
	struct diag_sink d;
	diag_init(&d, A);
	if (ir_validate(f, &d))
		fail_msg("accepted: %s", body);
	if (!strstr(diag_render(&d), what))
		fail_msg("%s: expected '%s' in:\n%s", body, what, diag_render(&d));
}

static void expect_parse_error(struct arena *A, const char *text, const char *what)
{
	struct diag_sink d;
	diag_init(&d, A);
	diag_add_source(&d, "bad.ir", text);
	assert_null(ir_parse(text, "bad.ir", A, &d));
	if (!strstr(diag_render(&d), what))
		fail_msg("expected '%s' in:\n%s", what, diag_render(&d));
}

static void test_validator_and_parser_refuse(void **state)
{
	struct arena *A = *state;
	expect_invalid(A, "%3 = load.f2 #2[0]\n", "array index out of range");
	expect_invalid(A, "%3 = load.f2 #0[3]\n", "array element out of range");
	expect_invalid(A, "store #0[5], %1.xy\n", "array element out of range");
	expect_invalid(A, "%3 = load.f1 #0[0]\n", "a load gives the array's components");
	expect_invalid(A, "%3 = load.b2 #0[0]\n", "wrong type");
	expect_invalid(A, "store #1[0], %1.x\n", "wrong type");
	expect_invalid(A, "store #0[0] + %2.x, %1.xy\n", "wrong type");
	expect_invalid(A, "%3 = load.f2 #0[0] + %2.x\n", "wrong type");
	expect_parse_error(A, "array #0 \"a\" f4 length=0\n", "bad number");
	expect_parse_error(A, "array #0 \"a\" f4\n", "expected key=value");
	expect_parse_error(A, "array #0 \"a\" f2 length=2\n%1 = const.f2 1 2\nstore #0[0] %1.xy\n",
			   "expected ', value'");
	expect_parse_error(A, "array #0 \"a\" f2 length=2\n%1 = load.f2 #0\n", "expected '[element]'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant_elements),
		cmocka_unit_test(test_dynamic_elements),
		cmocka_unit_test(test_element_rule),
		cmocka_unit_test(test_round_trip_and_clone),
		cmocka_unit_test(test_validator_and_parser_refuse),
	};
	return cmocka_run_group_tests(tests, ir_test_arena_setup, ir_test_arena_teardown);
}
