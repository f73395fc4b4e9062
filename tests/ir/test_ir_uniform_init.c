/* GLSL 1.20 uniform initializers in the IR: the text form carries them and
 * round-trips exactly, the parser rejects malformed ones, and the
 * interpreter uses them when a run gives no values. */
#include "ir_test_util.h"

static struct arena *A;

static int setup(void **state)
{
	(void)state;
	A = arena_create(&mem_default_allocator);
	return A ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	arena_destroy(A);
	return 0;
}

/* tint = vec4(0.25, 0.5, 0.75, 1); vec2 k[2] = vec2[2](vec2(1, 2), vec2(3, 4));
 * plain has none.  The output is tint * (k[0] + k[1]).xxyy + plain. */
static const char *const prog =
	"stage fragment\n"
	"uniform #0 \"tint\" \"vec4\" f4 nvec4=1 array=0 base=0 init=[0.25 0.5 0.75 1]\n"
	"uniform #1 \"k\" \"vec2\" f2 nvec4=2 array=2 base=1 init=[1 2 0 0] [3 4 0 0]\n"
	"uniform #2 \"plain\" \"float\" f1 nvec4=1 array=0 base=3\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = uniform.f4 #0[0]\n"
	"%2 = uniform.f2 #1[0]\n"
	"%3 = uniform.f2 #1[1]\n"
	"%4 = uniform.f1 #2[0]\n"
	"%5 = add.f2 %2.xy, %3.xy\n"
	"%6 = mul.f4 %1.xyzw, %5.xxyy\n"
	"%7 = add.f4 %6.xyzw, %4.xxxx\n"
	"output #0 %7.xyzw\n";

static void test_text_round_trip(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, prog);
	validate_ok(A, f);
	assert_int_equal(f->nuniforms, 3);
	assert_non_null(f->uniforms[0].init);
	assert_true(f->uniforms[0].init[0][0] == 0.25f && f->uniforms[0].init[0][3] == 1.0f);
	assert_non_null(f->uniforms[1].init);
	assert_true(f->uniforms[1].init[1][0] == 3.0f && f->uniforms[1].init[1][1] == 4.0f);
	assert_true(f->uniforms[1].init[1][2] == 0.0f);
	assert_null(f->uniforms[2].init);
	assert_int_equal(f->uniforms[2].base, 3);
	assert_string_equal(ir_print(f, A), prog);
}

/* Built with the API, printed, parsed back: the same bits, even for
 * values %g would round (0.1, a denormal, -0, the largest float). */
static void test_built_exact(void **state)
{
	(void)state;
	struct ir_func *f = ir_func_create(A, IR_STAGE_FRAGMENT);
	int u = ir_func_add_uniform(f, "m", "mat2", 0, 2, 2);
	const float init[2][4] = { { 0.1f, 1e-40f, 0, 0 }, { -0.0f, 3.40282347e38f, 0, 0 } };
	assert_false(ir_func_set_uniform_init(f, 5, init));
	assert_true(ir_func_set_uniform_init(f, u, init));
	assert_true(f->uniforms[u].init != (const float(*)[4])init); /* copied */
	char *text = ir_print(f, A);
	assert_non_null(strstr(text, "base=0 init=[0.100000001 9.9999461e-41 0 0] "
				     "[-0 3.40282347e+38 0 0]\n"));
	struct ir_func *g = parse_ok(A, text);
	assert_non_null(g->uniforms[0].init);
	assert_memory_equal(g->uniforms[0].init, init, sizeof init);
	assert_string_equal(ir_print(g, A), text);
}

/* `base=` may be left out before `init=` (the parser assigns bases). */
static void test_init_without_base(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, "uniform #0 \"a\" \"float\" f1 nvec4=1 array=0\n"
					"uniform #1 \"b\" \"float\" f1 nvec4=1 array=0 "
					"init=[2 0 0 0]\n");
	assert_int_equal(f->uniforms[1].base, 1);
	assert_true(f->uniforms[1].init[0][0] == 2.0f);
}

static void parse_fails(const char *text, const char *message)
{
	struct diag_sink d;
	diag_init(&d, A);
	diag_add_source(&d, "bad.ir", text);
	struct ir_func *f = ir_parse(text, "bad.ir", A, &d);
	assert_true(!f || d.errors > 0);
	const char *out = diag_render(&d);
	if (!strstr(out, message))
		fail_msg("wanted '%s' in:\n%s", message, out);
}

static void test_parse_errors(void **state)
{
	(void)state;
	const char *head = "uniform #0 \"k\" \"vec2\" f2 nvec4=2 array=2 base=0 ";
	char text[256];
	snprintf(text, sizeof text, "%sinit=[1 2 0 0]\n", head); /* one element short */
	parse_fails(text, "expected '[' (one [x y z w] per element)");
	snprintf(text, sizeof text, "%sinit=[1 2 0 0] [3 4 0]\n", head);
	parse_fails(text, "an initializer element has four components");
	snprintf(text, sizeof text, "%sinit=[1 2 0 0] [3 4 0 0 5]\n", head);
	parse_fails(text, "expected ']'");
	snprintf(text, sizeof text, "%sinit=[1 2 0 0] [3 x 0 0]\n", head);
	parse_fails(text, "expected a number");
	snprintf(text, sizeof text, "%sinit [1 2 0 0] [3 4 0 0]\n", head);
	parse_fails(text, "expected 'init='");
	snprintf(text, sizeof text, "%sinit=[1 2 0 0] [3 4 0 0] [5 6 0 0]\n", head);
	parse_fails(text, "unexpected text at the end of the line");
	parse_fails("uniform #0 \"e\" \"float\" f1 nvec4=0 array=0 base=0 init=\n",
		    "an initializer needs nvec4 >= 1");
	parse_fails("uniform #0 \"e\" \"float\" f1 nvec4=1 array=0 base=0 init=[1 2 3 4\n",
		    "expected ']'");
	parse_fails("uniform #0 \"e\" \"float\" f1 nvec4=1 array=0 base=0 junk\n",
		    "unexpected text at the end of the line");
}

/* Every prefix of a declaration with an initializer: parsed or refused
 * with a diagnostic, never a crash or a read past the text. */
static void test_parse_prefixes(void **state)
{
	(void)state;
	const char *line = "uniform #0 \"k\" \"vec2\" f2 nvec4=2 array=2 base=0 "
			   "init=[1 2 -0.5e3 inf] [3 4 0 nan]\n";
	size_t n = strlen(line);
	for (size_t i = 0; i <= n; i++) {
		char *text = malloc(i + 1);
		assert_non_null(text);
		memcpy(text, line, i);
		text[i] = 0;
		struct arena *a = arena_create(&mem_default_allocator);
		struct diag_sink d;
		diag_init(&d, a);
		struct ir_func *f = ir_parse(text, "p.ir", a, &d);
		bool whole = i >= n - 1; /* with or without the newline */
		if (whole) {
			assert_true(f && d.errors == 0);
			assert_true(f->uniforms[0].init[0][2] == -500.0f);
		} else if (f && d.errors == 0) {
			/* a prefix that ends at a whole number or key is a valid line */
			assert_true(f->nuniforms <= 1);
		}
		arena_destroy(a);
		free(text);
	}
}

static void run(const struct ir_func *f, const float (*uni)[4], float out[4])
{
	struct ir_interp_env env = { .uniform_values = uni, .covered = { 1, 1, 1, 1 } };
	struct ir_interp_result res;
	struct diag_sink d;
	diag_init(&d, A);
	if (!ir_interp_quad(f, &env, &res, &d))
		fail_msg("%s", diag_render(&d));
	assert_true(res.written[0]);
	for (int p = 1; p < 4; p++)
		assert_memory_equal(res.outputs[0][p], res.outputs[0][0], sizeof out[0] * 4);
	memcpy(out, res.outputs[0][0], sizeof out[0] * 4);
}

static void assert_vec4(const float got[4], float x, float y, float z, float w)
{
	const float want[4] = { x, y, z, w };
	for (int c = 0; c < 4; c++)
		if (got[c] != want[c])
			fail_msg("component %d: got %.9g, want %.9g", c, (double)got[c],
				 (double)want[c]);
}

static void test_interp_uses_init(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, prog);
	float out[4];
	/* no values at all: k[0] + k[1] = (4, 6); tint * (4, 4, 6, 6) + 0 */
	run(f, NULL, out);
	assert_vec4(out, 1.0f, 2.0f, 4.5f, 6.0f);

	/* the defaults array: initializers, plain 0 */
	float vals[4][4];
	memset(vals, 0x7f, sizeof vals);
	ir_uniform_defaults(f, vals);
	const float want[4][4] = { { 0.25f, 0.5f, 0.75f, 1 }, { 1, 2, 0, 0 }, { 3, 4, 0, 0 },
				   { 0, 0, 0, 0 } };
	assert_memory_equal(vals, want, sizeof want);

	/* values given for k[1] and plain replace those; the rest stay:
	 * k = (1, 2) + (10, 20) = (11, 22); tint * (11, 11, 22, 22) + 0.5 */
	vals[2][0] = 10.0f;
	vals[2][1] = 20.0f;
	vals[3][0] = 0.5f;
	run(f, (const float(*)[4])vals, out);
	assert_vec4(out, 3.25f, 6.0f, 17.0f, 22.5f);

	/* a values array given in full wins over every initializer */
	float zero[4][4] = { { 0 } };
	run(f, (const float(*)[4])zero, out);
	assert_vec4(out, 0, 0, 0, 0);
}

/* A run-time index reads the initializer of the element it picks. */
static void test_interp_dynamic_index(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(
		A, "uniform #0 \"a\" \"float\" f1 nvec4=3 array=3 base=0 "
		   "init=[5 0 0 0] [6 0 0 0] [7 0 0 0]\n"
		   "output #0 \"gl_FragColor\" f4 target=0\n"
		   "%1 = const.f1 1\n"
		   "%2 = const.f1 9\n"
		   "%3 = uniform.f1 #0[1] + %1.x\n"
		   "%4 = uniform.f1 #0[0] + %2.x\n"
		   "%5 = uniform.f1 #0[0]\n"
		   "%6 = const.f1 0\n"
		   "%7 = vec.f4 %3.x, %4.x, %5.x, %6.x\n"
		   "output #0 %7.xyzw\n");
	validate_ok(A, f);
	float out[4];
	run(f, NULL, out);
	/* a[1 + 1] = 7; a[9] clamps to a[2] = 7; a[0] = 5 */
	assert_vec4(out, 7.0f, 7.0f, 5.0f, 0.0f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_round_trip),
		cmocka_unit_test(test_built_exact),
		cmocka_unit_test(test_init_without_base),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_prefixes),
		cmocka_unit_test(test_interp_uses_init),
		cmocka_unit_test(test_interp_dynamic_index),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
