/* Loop unrolling: the frontend emits every loop as a loop, and
 * ir/opt_loop_unroll.c, the one unroller, copies those it can and should
 * at -O2; -O0 and --skip=loop_unroll keep them.  Every case also runs in
 * the interpreter before and after, so a copy that computes something
 * else fails too. */
#include "fe_test.h"
#include "ir.h"
#include "ir_pass.h"

/* The passes at `level` with `skip` off, validated after each. */
static void optimize(struct fe_test *t, int level, sw_set skip)
{
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, &t->diag);
	ctx.validate = true;
	ctx.skip = skip;
	assert_true(ir_optimize(t->f, level, &ctx));
}

/* The source compiled, optimized at `level` with `skip`: its loops left
 * (the frontend's count must be `before`), and gl_FragColor at pixel 0
 * for varying v = in (NULL: 0) in out. */
static int loops_after(const char *src, int before, int level, sw_set skip, const float *in,
		       float out[4])
{
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, src));
	assert_int_equal(fe_count_loops(&t.f->body), before);
	assert_int_equal(t.f->unrolled_loops, 0);
	optimize(&t, level, skip);
	const float inputs[1][4] = { { in ? in[0] : 0, in ? in[1] : 0, 0, 0 } };
	assert_true(fe_run(t.f, t.f->ninputs ? inputs : NULL, NULL, NULL, 0, 0, out));
	int n = fe_count_loops(&t.f->body);
	if (n < before) /* (a loop run twice per trip counts too, and stays) */
		assert_true(t.f->unrolled_loops > 0);
	fe_test_end(&t);
	return n;
}

static const char *const constant_for =
	"void main() { float s = 0.0;\n"
	"  for (int i = 0; i < 5; i++) s += float(i * i);\n"
	"  gl_FragColor = vec4(s); }\n";

static void test_constant_count_unrolled_at_o2(void **state)
{
	(void)state;
	float o[4];
	assert_int_equal(loops_after(constant_for, 1, 2, 0, NULL, o), 0);
	assert_vec4_near(o, 30, 30, 30, 30);
}

static void test_kept_at_o0_and_when_skipped(void **state)
{
	(void)state;
	float o[4];
	assert_int_equal(loops_after(constant_for, 1, 0, 0, NULL, o), 1);
	assert_vec4_near(o, 30, 30, 30, 30);
	assert_int_equal(loops_after(constant_for, 1, 2, sw_bit(SW_LOOP_UNROLL), NULL, o), 1);
	assert_vec4_near(o, 30, 30, 30, 30);
}

/* The inner loop first, then the outer one holding its copies. */
static void test_nested_loops(void **state)
{
	(void)state;
	static const char *const src =
		"varying vec2 v;\n"
		"void main() { float s = 0.0;\n"
		"  for (int i = 0; i < 3; i++)\n"
		"    for (int j = 0; j < 4; j++) s += float(i * 4 + j) * v.x;\n"
		"  gl_FragColor = vec4(s); }\n";
	const float in[2] = { 2, 0 };
	float o[4];
	assert_int_equal(loops_after(src, 2, 2, 0, in, o), 0);
	assert_vec4_near(o, 132, 132, 132, 132);
}

/* A continue the simulation decides, a break it cannot (the copies after
 * it under guards). */
static void test_break_and_continue(void **state)
{
	(void)state;
	static const char *const src =
		"varying vec2 v;\n"
		"void main() { float s = 0.0;\n"
		"  for (int i = 0; i < 8; i++) {\n"
		"    if (i == 2) continue;\n"
		"    if (float(i) > v.x) break;\n"
		"    s += float(i);\n"
		"  }\n"
		"  gl_FragColor = vec4(s); }\n";
	static const float cut[][2] = { { -1, 0 }, { 1.5f, 0 }, { 4.5f, 0 }, { 20, 0 } };
	static const float sum[] = { 0, 1, 8, 26 };
	for (int k = 0; k < 4; k++) {
		float kept[4], unrolled[4];
		assert_int_equal(loops_after(src, 1, 0, 0, cut[k], kept), 1);
		assert_int_equal(loops_after(src, 1, 2, 0, cut[k], unrolled), 0);
		assert_vec4_near(kept, sum[k], sum[k], sum[k], sum[k]);
		assert_vec4_near(unrolled, sum[k], sum[k], sum[k], sum[k]);
	}
}

/* Over the budgets the loop stays: more trips than the unroller copies
 * (an odd count: an even one would run its body twice per trip first),
 * and a body whose copies would not fit the R500's 512 slots. */
static void test_budget_exceeded_kept(void **state)
{
	(void)state;
	static const char *const many_trips =
		"varying vec2 v;\n"
		"void main() { float s = 0.0;\n"
		"  for (int i = 0; i < 101; i++) s += v.x;\n"
		"  gl_FragColor = vec4(s); }\n";
	static const char *const big_body =
		"varying vec2 v;\n"
		"void main() { vec4 s = vec4(v, 0.0, 1.0);\n"
		"  for (int i = 0; i < 40; i++) {\n"
		"    s = s.yzwx * v.x + s.zwxy * s.wxyz;\n"
		"    s = fract(s * 1.5 + s.yzwx * s.xxyy);\n"
		"    s = s * s.wzyx - s.yyxx + abs(s.zxwy) * v.y;\n"
		"    s = clamp(s * v.y + s.wxyz * s.yzwx, -4.0, 4.0);\n"
		"  }\n"
		"  gl_FragColor = s; }\n";
	const float in[2] = { 0.5f, 0.25f };
	float o[4];
	assert_int_equal(loops_after(many_trips, 1, 2, 0, in, o), 1);
	assert_vec4_near(o, 50.5f, 50.5f, 50.5f, 50.5f);
	float kept[4];
	assert_int_equal(loops_after(big_body, 1, 2, 0, in, o), 1);
	assert_int_equal(loops_after(big_body, 1, 0, 0, in, kept), 1);
	assert_vec4_near(o, kept[0], kept[1], kept[2], kept[3]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant_count_unrolled_at_o2),
		cmocka_unit_test(test_kept_at_o0_and_when_skipped),
		cmocka_unit_test(test_nested_loops),
		cmocka_unit_test(test_break_and_continue),
		cmocka_unit_test(test_budget_exceeded_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
