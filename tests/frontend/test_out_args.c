/* Out and inout arguments (GLSL 1.20 6.1.1): the l-value an argument
 * names, array indexes included, is fixed when the argument is evaluated,
 * before the call, and the value is copied back there after the call,
 * even when the callee changes the variables the indexes read.  Expected
 * values are worked out by hand from that rule. */
#include "fe_test.h"

/* Compiles `src`, runs it with uniform int u = `u`, gives gl_FragColor. */
static void run_u(const char *src, int u, float out[4])
{
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile(&t, src);
	if (!f)
		fail_msg("compile failed:\n%s", t.diags ? t.diags : "");
	float vals[16][4];
	memset(vals, 0, sizeof vals);
	assert_true(f->nuniform_vec4 <= 16);
	int k = ir_func_find_uniform(f, "u");
	if (k >= 0)
		vals[f->uniforms[k].base][0] = (float)u;
	if (!fe_run(f, NULL, (const float (*)[4])vals, NULL, 0, 0, out))
		fail_msg("interpreter failed or output not written");
	fe_test_end(&t);
}

static void test_minimal(void **state)
{
	(void)state;
	float o[4];
	run_u("uniform int u;\n"
	      "void f(inout int i, inout float x) { i = 0; x = 1.0; }\n"
	      "void main() { vec4 v = vec4(0.0); int i = u; f(i, v[i]); gl_FragColor = v; }\n",
	      1, o);
	assert_vec4_near(o, 0, 1, 0, 0);
	/* out rather than inout: the same place */
	run_u("uniform int u;\n"
	      "void f(out int i, out float x) { i = 0; x = 1.0; }\n"
	      "void main() { vec4 v = vec4(0.0); int i = u; f(i, v[i]); gl_FragColor = v; }\n",
	      2, o);
	assert_vec4_near(o, 0, 0, 1, 0);
}

static void test_nested_struct_array(void **state)
{
	(void)state;
	/* x reads a[1].b[1] = 4 before the call, 14 goes back there */
	float o[4];
	run_u("uniform int u;\n"
	      "struct S { float b[2]; };\n"
	      "void f(inout int i, inout int j, inout float x) { x += 10.0; i = 0; j = 0; }\n"
	      "void main() {\n"
	      "  S a[2];\n"
	      "  a[0].b[0] = 1.0; a[0].b[1] = 2.0; a[1].b[0] = 3.0; a[1].b[1] = 4.0;\n"
	      "  int i = u; int j = u;\n"
	      "  f(i, j, a[i].b[j]);\n"
	      "  gl_FragColor = vec4(a[0].b[0], a[0].b[1], a[1].b[0], a[1].b[1]);\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 1, 2, 3, 14);
	/* a struct member after a dynamic index: a[i].c with i = 1 */
	run_u("uniform int u;\n"
	      "struct T { float c; vec2 d; };\n"
	      "void f(inout int i, out vec2 x) { i = 0; x = vec2(5.0, 6.0); }\n"
	      "void main() {\n"
	      "  T a[2]; a[0].d = vec2(1.0); a[1].d = vec2(2.0);\n"
	      "  int i = u;\n"
	      "  f(i, a[i].d);\n"
	      "  gl_FragColor = vec4(a[0].d, a[1].d);\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 1, 1, 5, 6);
}

static void test_swizzle_and_matrix(void **state)
{
	(void)state;
	float o[4];
	/* v[1].yx = (5, 6): v[1] = (6, 5) */
	run_u("uniform int u;\n"
	      "void f(inout int i, out vec2 x) { i = 0; x = vec2(5.0, 6.0); }\n"
	      "void main() {\n"
	      "  vec4 v[2]; v[0] = vec4(0.0); v[1] = vec4(0.0);\n"
	      "  int i = u;\n"
	      "  f(i, v[i].yx);\n"
	      "  gl_FragColor = vec4(v[1].xy, v[0].xy);\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 6, 5, 0, 0);
	/* a matrix column: m[1] = (7, 8) */
	run_u("uniform int u;\n"
	      "void f(inout int i, out vec2 x) { i = 0; x = vec2(7.0, 8.0); }\n"
	      "void main() {\n"
	      "  mat2 m = mat2(0.0); int i = u;\n"
	      "  f(i, m[i]);\n"
	      "  gl_FragColor = vec4(m[0], m[1]);\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 0, 0, 7, 8);
	/* a matrix element m[1][0] (column 1, row 0), both indexes changed */
	run_u("uniform int u;\n"
	      "void f(inout int i, inout int j, inout float x) { i = 1; j = 1; x += 3.0; }\n"
	      "void main() {\n"
	      "  mat2 m = mat2(1.0, 2.0, 3.0, 4.0); int i = u; int j = 0;\n"
	      "  f(i, j, m[i][j]);\n"
	      "  gl_FragColor = vec4(m[0], m[1]);\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 1, 2, 6, 4);
}

static void test_index_effects_once(void **state)
{
	(void)state;
	float o[4];
	/* v[i++] names v[1] once: 2 + 1 goes back to v[1], i ends at 2 */
	run_u("uniform int u;\n"
	      "void f(inout float x) { x += 1.0; }\n"
	      "void main() {\n"
	      "  vec4 v = vec4(1.0, 2.0, 3.0, 4.0); int i = u;\n"
	      "  f(v[i++]);\n"
	      "  gl_FragColor = vec4(v.xyz, float(i));\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 1, 3, 3, 2);
	/* the callee changes a global the index reads: v[1] still gets 9 */
	run_u("uniform int u;\n"
	      "int g;\n"
	      "void f(out float x) { g = 0; x = 9.0; }\n"
	      "void main() {\n"
	      "  vec4 v = vec4(0.0); g = u;\n"
	      "  f(v[g]);\n"
	      "  gl_FragColor = vec4(v.xy, float(g), 0.0);\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 0, 9, 0, 0);
	/* the index is an expression: v[i + 1] is v[2], x gets 1 */
	run_u("uniform int u;\n"
	      "void f(inout int i, inout float x) { x = float(i); i = 0; }\n"
	      "void main() {\n"
	      "  vec4 v = vec4(0.0); int i = u;\n"
	      "  f(i, v[i + 1]);\n"
	      "  gl_FragColor = v;\n"
	      "}\n",
	      1, o);
	assert_vec4_near(o, 0, 0, 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimal),
		cmocka_unit_test(test_nested_struct_array),
		cmocka_unit_test(test_swizzle_and_matrix),
		cmocka_unit_test(test_index_effects_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
