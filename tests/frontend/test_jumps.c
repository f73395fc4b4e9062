/* break, continue and return anywhere: loops with many exits, returns
 * inside loops, continue in do-while, unrolled loops that jump, and
 * functions returning structs and arrays.  Every shader runs in the IR
 * interpreter on quads whose pixels take different exits; the expected
 * values are traced by hand from the GLSL semantics (comments). */
#include "fe_test.h"

#include "ir.h"
#include "ir_pass.h"

#include <stdio.h>
#include <stdlib.h>

/* Runs one quad: input "v" is v[p] at pixel p, uniforms `uni`; output 0
 * of every pixel into out[p]. */
static void run_quad(struct ir_func *f, const float v[4][4], const float (*uni)[4],
		     float out[4][4])
{
	static const float zeros[8][4];
	float store[8][4][4];
	const float (*in_ptr[8])[4];
	memset(store, 0, sizeof store);
	int k = ir_func_find_input(f, "v");
	assert_true(f->ninputs <= 8);
	for (int i = 0; i < f->ninputs; i++)
		in_ptr[i] = store[i];
	if (k >= 0)
		memcpy(store[k], v, sizeof store[k]);
	struct ir_interp_env env;
	memset(&env, 0, sizeof env);
	env.inputs = in_ptr;
	env.uniform_values = uni ? uni : zeros;
	for (int p = 0; p < 4; p++)
		env.covered[p] = true;
	struct ir_interp_result r;
	memset(&r, 0, sizeof r);
	struct arena *a = arena_create(&mem_default_allocator);
	struct diag_sink d;
	diag_init(&d, a);
	bool ok = ir_interp_quad(f, &env, &r, &d);
	if (!ok)
		fail_msg("interpreter failed: %s", diag_render(&d));
	arena_destroy(a);
	assert_true(f->noutputs > 0 && r.written[0]);
	memcpy(out, r.outputs[0], sizeof r.outputs[0]);
}

static void test_many_breaks(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"varying vec4 v;\n"
		"void main() {\n"
		"  float x = v.x; float k = 0.0;\n"
		"  while (true) {\n"
		"    k += 1.0;\n"
		"    if (x < 1.0) break;\n"
		"    x -= 1.0;\n"
		"    if (k > 10.0) break;\n"
		"    if (x == 5.0) { k += 100.0; break; }\n"
		"    if (x > 20.0) { x = -1.0; break; }\n"
		"    if (v.y > 0.0) break;\n"
		"  }\n"
		"  gl_FragColor = vec4(x, k, 0.0, 1.0);\n"
		"}\n");
	/* five breaks, two BREAKs in the IR: the test's (while (true): never
	 * taken) and the flags' at the end of the body */
	assert_int_equal(fe_count_op(f, IR_OP_BREAK), 2);
	assert_int_equal(fe_count_op(f, IR_OP_CONTINUE), 0);
	assert_int_equal(fe_count_loops(&f->body), 1);
	float o[4][4];
	/* 0.5: first break at k = 1.  3: x 3->2->1->0, breaks at k = 4 with x = 0.
	 * 7: x = 6, then 5 at k = 2: k = 102.  30: x = 29 > 20: x = -1, k = 1. */
	const float v1[4][4] = { { 0.5f, 0, 0, 0 }, { 3, 0, 0, 0 }, { 7, 0, 0, 0 }, { 30, 0, 0, 0 } };
	run_quad(f, v1, NULL, o);
	assert_vec4_near(o[0], 0.5f, 1, 0, 1);
	assert_vec4_near(o[1], 0, 4, 0, 1);
	assert_vec4_near(o[2], 5, 102, 0, 1);
	assert_vec4_near(o[3], -1, 1, 0, 1);
	/* (15, 1): v.y > 0 breaks at once with x = 14.  17: x = 17 - k, at
	 * k = 11 the k > 10 break with x = 6 (x would reach 5 only at k = 12). */
	const float v2[4][4] = { { 15, 1, 0, 0 }, { 17, 0, 0, 0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 } };
	run_quad(f, v2, NULL, o);
	assert_vec4_near(o[0], 14, 1, 0, 1);
	assert_vec4_near(o[1], 6, 11, 0, 1);
	assert_vec4_near(o[2], 0, 1, 0, 1);
	assert_vec4_near(o[3], 0, 2, 0, 1);
	fe_test_end(&t);
}

static void test_many_continues(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform float n;\n"
		"varying vec4 v;\n"
		"void main() {\n"
		"  float s = 0.0; float c = 0.0;\n"
		"  for (float i = 0.0; i < n; i += 1.0) {\n"
		"    c += 1.0;\n"
		"    if (i == v.x) continue;\n"
		"    if (i == v.y) continue;\n"
		"    if (i == 2.0) continue;\n"
		"    s += i;\n"
		"    if (i == v.z) break;\n"
		"    if (s > 100.0) continue;\n"
		"    s += 0.5;\n"
		"  }\n"
		"  gl_FragColor = vec4(s, c, 0.0, 0.0);\n"
		"}\n");
	/* the test's BREAK and the flags' */
	assert_int_equal(fe_count_op(f, IR_OP_BREAK), 2);
	assert_int_equal(fe_count_op(f, IR_OP_CONTINUE), 0);
	const float uni[][4] = { { 8, 0, 0, 0 } };
	/* (-1,-1,-1): every i but 2: s = (28 - 2) + 7 * 0.5 = 29.5, c = 8.
	 * (1,3,5): i = 0: 0.5; 1-3 skipped; 4: 5; 5: s = 10, break; c = 6.
	 * (0,7,4): 0 skipped; 1: 1.5; 2 skipped; 3: 5; 4: s = 9, break; c = 5.
	 * (6,6,-1): 0: .5; 1: 2; 3: 5.5; 4: 10; 5: 15.5; 6 skipped; 7: 23; c = 8. */
	const float v[4][4] = { { -1, -1, -1, 0 }, { 1, 3, 5, 0 }, { 0, 7, 4, 0 }, { 6, 6, -1, 0 } };
	float o[4][4];
	run_quad(f, v, uni, o);
	assert_vec4_near(o[0], 29.5f, 8, 0, 0);
	assert_vec4_near(o[1], 10, 6, 0, 0);
	assert_vec4_near(o[2], 9, 5, 0, 0);
	assert_vec4_near(o[3], 23, 8, 0, 0);
	fe_test_end(&t);
}

static void test_return_in_nested_loops(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform float n;\n"
		"varying vec4 v;\n"
		"float find(float t) {\n"
		"  float acc = 0.0;\n"
		"  for (float i = 0.0; i < n; i += 1.0) {\n"
		"    for (float j = 0.0; j < n; j += 1.0) {\n"
		"      if (j > i) break;\n"
		"      acc += 1.0;\n"
		"      if (i * 10.0 + j == t) return acc;\n"
		"    }\n"
		"    if (acc > 20.0) return -acc;\n"
		"  }\n"
		"  return 1000.0 + acc;\n"
		"}\n"
		"void main() { gl_FragColor = vec4(find(v.x), find(v.y), 0.0, 0.0); }\n");
	assert_int_equal(fe_count_loops(&f->body), 4);
	assert_int_equal(fe_count_op(f, IR_OP_BREAK), 8); /* a test's and the flags' each */
	assert_int_equal(fe_count_op(f, IR_OP_CONTINUE), 0);
	/* acc counts the pairs j <= i in order; after row i it is
	 * (i+1)(i+2)/2: 1 3 6 10 15 21.  n = 8:
	 * find(21) = 5 (row 2, j = 1); find(-1) = -21 (after row 5);
	 * find(55) = 21 (row 5, j = 5, the same step as the > 20 test);
	 * find(0) = 1; find(11) = 3; find(33) = 10; find(77) = find(2) = -21. */
	const float uni8[][4] = { { 8, 0, 0, 0 } };
	const float v[4][4] = { { 21, -1, 0, 0 }, { 55, 0, 0, 0 }, { 11, 33, 0, 0 }, { 77, 2, 0, 0 } };
	float o[4][4];
	run_quad(f, v, uni8, o);
	assert_vec4_near(o[0], 5, -21, 0, 0);
	assert_vec4_near(o[1], 21, 1, 0, 0);
	assert_vec4_near(o[2], 3, 10, 0, 0);
	assert_vec4_near(o[3], -21, -21, 0, 0);
	/* n = 3: no return inside: 1000 + 6; find(11) = 3 */
	const float uni3[][4] = { { 3, 0, 0, 0 } };
	const float w[4][4] = { { -1, 11, 0, 0 }, { 22, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
	run_quad(f, w, uni3, o);
	assert_vec4_near(o[0], 1006, 3, 0, 0);
	assert_vec4_near(o[1], 6, 1, 0, 0);
	fe_test_end(&t);
}

static void test_do_continue_and_main_return(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"varying vec4 v;\n"
		"void main() {\n"
		"  float i = 0.0; float s = 0.0;\n"
		"  do {\n"
		"    i += 1.0;\n"
		"    if (i == v.x) continue;\n"
		"    s += i;\n"
		"    if (s > v.y) { gl_FragColor = vec4(s, i, 1.0, 0.0); return; }\n"
		"  } while (i < 5.0);\n"
		"  gl_FragColor = vec4(s, i, 2.0, 0.0);\n"
		"}\n");
	assert_int_equal(fe_count_op(f, IR_OP_BREAK), 1);
	assert_int_equal(fe_count_op(f, IR_OP_CONTINUE), 0);
	/* (2, 100): 2 skipped: s = 1 + 3 + 4 + 5 = 13.  (5, 100): continue at
	 * i = 5 still tests the condition, which ends the loop: s = 10.
	 * (0, 5): s = 1, 3, 6 > 5 at i = 3.  (1, 3): s = 2, 5 > 3 at i = 3. */
	const float v[4][4] = { { 2, 100, 0, 0 }, { 5, 100, 0, 0 }, { 0, 5, 0, 0 }, { 1, 3, 0, 0 } };
	float o[4][4];
	run_quad(f, v, NULL, o);
	assert_vec4_near(o[0], 13, 5, 2, 0);
	assert_vec4_near(o[1], 10, 5, 2, 0);
	assert_vec4_near(o[2], 6, 3, 1, 0);
	assert_vec4_near(o[3], 5, 3, 1, 0);
	fe_test_end(&t);
}

static void test_loop_jumps_unrolled_by_ir(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"varying vec4 v;\n"
		"float g(float t) {\n"
		"  float s = 0.0;\n"
		"  for (int i = 0; i < 6; i++) {\n"
		"    if (float(i) == t) continue;\n"
		"    if (float(i) == t + 3.0) return s + 100.0;\n"
		"    s += float(i);\n"
		"    if (s > 8.0) break;\n"
		"  }\n"
		"  return s;\n"
		"}\n"
		"void main() { gl_FragColor = vec4(g(v.x), g(v.y), 0.0, 0.0); }\n");
	/* the frontend keeps the loops (one per inlined call); loop_unroll
	 * copies them at -O2 (the BREAKs of unknown outcome under guards) */
	for (int opt = 0; opt <= 2; opt += 2) {
		assert_true(ir_optimize(f, opt, NULL));
		assert_int_equal(fe_count_loops(&f->body), opt ? 0 : 2);
		/* g(-10): s = 0 1 3 6 10 > 8: 10.  g(1): 0, -, 2, 5, i = 4 = t + 3: 105.
		 * g(4): 0 1 3 6, -, 11 > 8: 11.  g(2): 0 1 - 4 8, i = 5 = t + 3: 108. */
		const float v[4][4] = { { -10, 1, 0, 0 }, { 4, 2, 0, 0 }, { 1, 4, 0, 0 },
					{ 2, -10, 0, 0 } };
		float o[4][4];
		run_quad(f, v, NULL, o);
		assert_vec4_near(o[0], 10, 105, 0, 0);
		assert_vec4_near(o[1], 11, 108, 0, 0);
		assert_vec4_near(o[2], 105, 11, 0, 0);
		assert_vec4_near(o[3], 108, 10, 0, 0);
	}
	fe_test_end(&t);
}

static void test_code_after_return(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* returns in the middle of a function, and dead code after a return */
	struct ir_func *f = fe_compile_ok(&t,
		"varying vec4 v;\n"
		"vec2 h(float x) {\n"
		"  vec2 r = vec2(x);\n"
		"  if (x < 0.0) { return -r; r = vec2(9.0); }\n"
		"  r.y += 1.0;\n"
		"  if (x > 10.0) return r * 2.0;\n"
		"  r.x -= 1.0;\n"
		"  return r;\n"
		"  r = vec2(7.0);\n"
		"}\n"
		"void main() { gl_FragColor = vec4(h(v.x), h(v.y)); }\n");
	assert_int_equal(fe_count_loops(&f->body), 0);
	/* h(-2) = (2, 2); h(20) = (40, 42); h(3) = (2, 4) */
	const float v[4][4] = { { -2, 20, 0, 0 }, { 3, -2, 0, 0 }, { 20, 3, 0, 0 }, { 0, 0, 0, 0 } };
	float o[4][4];
	run_quad(f, v, NULL, o);
	assert_vec4_near(o[0], 2, 2, 40, 42);
	assert_vec4_near(o[1], 2, 4, 2, 2);
	assert_vec4_near(o[2], 40, 42, 2, 4);
	assert_vec4_near(o[3], -1, 1, -1, 1);
	fe_test_end(&t);
}

static void test_declarations_after_jumps(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* variables declared after an early return live on past the guard
	 * that holds their declaration; 600 early returns in a row nest no
	 * deeper than one */
	char *src = malloc(64 * 1024);
	assert_non_null(src);
	int n = sprintf(src, "varying vec4 v;\n"
			     "float f(float x) {\n"
			     "  if (x < 0.0) return -1.0;\n"
			     "  float y = x * 2.0;\n"
			     "  if (y > 10.0) return y;\n"
			     "  vec2 z = vec2(y, 1.0); float w = z.x + z.y;\n"
			     "  return w;\n"
			     "}\n"
			     "float g(float x) { float k = 0.0;\n");
	for (int i = 0; i < 600; i++)
		n += sprintf(src + n, "  if (x < %d.0) return k; k += 1.0;\n", i);
	sprintf(src + n, "  return -k; }\n"
			 "void main() { gl_FragColor = vec4(f(v.x), f(v.y), g(v.z), g(v.w)); }\n");
	struct ir_func *f = fe_compile_ok(&t, src);
	free(src);
	/* f(-3) = -1; f(6) = 12; f(2) = 4 + 1; g(0.5) = 1 (returns at i = 1);
	 * g(250.5) = 251; g(1000) = -600 */
	const float v[4][4] = { { -3, 6, 0.5f, 1000 }, { 2, 6, 250.5f, 0.5f }, { 0, 0, 0, 0 },
				{ 0, 0, 0, 0 } };
	float o[4][4];
	run_quad(f, v, NULL, o);
	assert_vec4_near(o[0], -1, 12, 1, -600);
	assert_vec4_near(o[1], 5, 12, 251, 1);
	assert_vec4_near(o[2], 1, 1, 1, 1); /* f(0) = 0 + 1; g(0) returns at i = 1 */
	fe_test_end(&t);
}

static void test_loop_condition_declaration(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"varying vec4 v;\n"
		"void main() {\n"
		"  float x = v.x; float n = 0.0;\n"
		"  while (bool go = x < 10.0) { x *= 2.0; n += 1.0; }\n"
		"  float y = v.y;\n"
		"  for (; bool more = y > 0.0; y -= 1.0) { if (y == 2.0) continue; n += 100.0; }\n"
		"  gl_FragColor = vec4(x, n, y, 0.0);\n"
		"}\n");
	/* x = 1: 2 4 8 16, n = 4.  y = 3: 3 and 1 add 100 each; y ends at 0. */
	const float v[4][4] = { { 1, 3, 0, 0 }, { 12, 0, 0, 0 }, { 5, 1, 0, 0 }, { 1, 3, 0, 0 } };
	float o[4][4];
	run_quad(f, v, NULL, o);
	assert_vec4_near(o[0], 16, 204, 0, 0);
	assert_vec4_near(o[1], 12, 0, 0, 0);
	assert_vec4_near(o[2], 10, 101, 0, 0);
	fe_test_end(&t);
}

static void test_aggregate_returns(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"#version 120\n"
		"struct R { vec2 p; float k[2]; };\n"
		"varying vec4 v;\n"
		"R make(float x) {\n"
		"  R r;\n"
		"  r.p = vec2(x, 2.0 * x);\n"
		"  r.k[0] = 1.0; r.k[1] = 2.0;\n"
		"  if (x > 1.0) return R(vec2(-1.0), float[2](x, x));\n"
		"  return r;\n"
		"}\n"
		"float[3] arr(float x) { return float[3](x, x + 1.0, x + 2.0); }\n"
		"float calls = 0.0;\n"
		"R counted() { calls += 1.0; return make(calls); }\n"
		"void main() {\n"
		"  counted(); float c = (counted(), calls);\n" /* values dropped, effects kept */
		"  R a = make(v.x);\n"
		"  float b[3] = arr(v.y);\n"
		"  gl_FragColor = vec4(a.p.y + a.k[1], make(v.y).k[0], arr(v.x)[2] + b[1],\n"
		"                      float(b.length()) + make(v.x).p.x + c * 100.0);\n"
		"}\n");
	/* v = (0.5, 3): a = ((0.5, 1), (1, 2)): 1 + 2; make(3).k[0] = 3;
	 * arr(0.5)[2] = 2.5, b = (3, 4, 5): 2.5 + 4; 3 + 0.5.
	 * v = (2, 0): a = ((-1, -1), (2, 2)): 1; make(0).k[0] = 1; 4 + 1; 3 - 1. */
	const float v[4][4] = { { 0.5f, 3, 0, 0 }, { 2, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } };
	float o[4][4];
	run_quad(f, v, NULL, o);
	/* c = 2 (two calls of counted()) adds 200 to w */
	assert_vec4_near(o[0], 3, 3, 6.5f, 203.5f);
	assert_vec4_near(o[1], 1, 1, 5, 202);
	assert_vec4_near(o[2], 2, 1, 3, 203);
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_many_breaks),
		cmocka_unit_test(test_many_continues),
		cmocka_unit_test(test_return_in_nested_loops),
		cmocka_unit_test(test_do_continue_and_main_return),
		cmocka_unit_test(test_loop_jumps_unrolled_by_ir),
		cmocka_unit_test(test_code_after_return),
		cmocka_unit_test(test_declarations_after_jumps),
		cmocka_unit_test(test_loop_condition_declaration),
		cmocka_unit_test(test_aggregate_returns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
