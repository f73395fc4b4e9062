/* Local arrays of matrices and structs indexed by a non-constant are IR
 * arrays (issue 23.5): one array per column of each leaf of an element
 * ("m[][1]", "s[].p"), read by LOADs and written by STOREs, no select
 * chain built by the frontend.  The shape of the IR is checked before
 * lower_arrays; values by running it in the interpreter, worked out by
 * hand from the GLSL spec. */
#include "fe_test.h"

#include "ir.h"

#include <stdio.h>

/* Runs with uniform vec4 u (slot 0) and gives gl_FragColor. */
static void run_u(struct ir_func *f, float x, float y, float z, float w, float out[4])
{
	const float uni[1][4] = { { x, y, z, w } };
	if (!fe_run(f, NULL, uni, NULL, 0, 0, out))
		fail_msg("interpreter failed or output not written");
}

static int find_array(const struct ir_func *f, const char *name)
{
	for (int i = 0; i < f->narrays; i++)
		if (strcmp(f->arrays[i].name, name) == 0)
			return i;
	return -1;
}

/* mat3 m[4]: three arrays of vec3, one per column.  Whole matrices are
 * written at a loop counter, one column at an index (one STORE: the
 * other columns hold what they held), columns read at an index plus a
 * constant, a whole matrix in a product. */
static void test_matrix_array(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"void main() {\n"
		"  int i = int(u.x);\n"
		"  mat3 m[4];\n"
		"  for (int k = 0; k < 4; k++) m[k] = mat3(float(k) + u.y);\n"
		"  m[i][1] = vec3(5.0);\n"
		"  vec3 p = vec3(1.0, 1.0, 2.0);\n"
		"  gl_FragColor = vec4(m[i][1].x + m[i + 1][0].x, (m[i] * p).y, m[i][2].z, m[3][0].x);\n"
		"}\n");
	assert_int_equal(f->narrays, 3);
	for (int c = 0; c < 3; c++) {
		char name[16];
		snprintf(name, sizeof name, "m[][%d]", c);
		int a = find_array(f, name);
		assert_int_equal(a, c);
		assert_int_equal(f->arrays[a].length, 4);
		assert_int_equal(f->arrays[a].ncomp, 3);
	}
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 0);
	assert_int_equal(fe_count_op(f, IR_OP_STORE), 3 + 1); /* the loop's matrix, one column */
	float o[4];
	run_u(f, 1, 0.5f, 0, 0, o);
	/* m[k] = (k + 0.5) I; m[1] = cols (1.5,0,0), (5,5,5), (0,0,1.5)
	 * m[1][1].x + m[2][0].x = 5 + 2.5; (m[1] * p).y = 5; m[1][2].z = 1.5 */
	assert_vec4_near(o, 7.5f, 5, 1.5f, 3.5f);
	fe_test_end(&t);
}

/* struct S { vec3 p; float w; bool on; } s[6]: one array per member (the
 * bool one of base bool), written at a loop counter, read at the counter
 * of another loop, a member written under an IF at an index. */
static void test_struct_array_loops(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"struct S { vec3 p; float w; bool on; };\n"
		"void main() {\n"
		"  S s[6];\n"
		"  for (int k = 0; k < 6; k++) {\n"
		"    s[k].p = vec3(float(k), 1.0, u.z);\n"
		"    s[k].w = float(k) * 0.5;\n"
		"    s[k].on = k != 2;\n"
		"  }\n"
		"  int n = int(u.x);\n"
		"  if (u.y > 0.0) s[n].w = 10.0;\n"
		"  vec3 acc = vec3(0.0);\n"
		"  for (int k = 0; k < n + 2; k++)\n"
		"    if (s[k].on) acc += s[k].p * s[k].w;\n"
		"  gl_FragColor = vec4(acc, s[n].w);\n"
		"}\n");
	assert_int_equal(f->narrays, 3);
	int p = find_array(f, "s[].p"), w = find_array(f, "s[].w"), on = find_array(f, "s[].on");
	assert_true(p >= 0 && w >= 0 && on >= 0);
	assert_int_equal(f->arrays[p].ncomp, 3);
	assert_int_equal(f->arrays[w].ncomp, 1);
	assert_int_equal(f->arrays[on].base, IR_BOOL);
	assert_int_equal(f->arrays[on].length, 6);
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 0);
	assert_int_equal(fe_count_op(f, IR_OP_STORE), 3 + 1);
	assert_int_equal(fe_count_op(f, IR_OP_LOAD), 3 + 1);
	float o[4];
	/* n = 2, s[2].w = 10 but s[2] is off: k = 0, 1, 3 -> w 0, 0.5, 1.5
	 * acc = (0,1,3) * 0 + (1,1,3) * 0.5 + (3,1,3) * 1.5 */
	run_u(f, 2, 1, 3, 0, o);
	assert_vec4_near(o, 0.5f + 4.5f, 0.5f + 1.5f, 1.5f + 4.5f, 10);
	/* no write under the IF: n = 1, k = 0, 1, 2 (off) */
	run_u(f, 1, -1, 3, 0, o);
	assert_vec4_near(o, 0.5f, 0.5f, 1.5f, 0.5f);
	fe_test_end(&t);
}

/* A struct with an array inside: whole elements copied in and out,
 * compared, passed to an inout parameter of an inlined function, a
 * member's element written at a constant and at a second non-constant
 * index (the places it can reach loaded, selected into, stored back). */
static void test_struct_array_whole_values(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"#version 120\n"
		"uniform vec4 u;\n"
		"struct T { float a[2]; vec2 v; };\n"
		"void bump(inout T x[3], int k) { x[k].v += vec2(1.0); x[k].a[0] = 9.0; }\n"
		"void main() {\n"
		"  int i = int(u.x), j = int(u.y);\n"
		"  T s[3];\n"
		"  for (int k = 0; k < 3; k++) s[k] = T(float[2](float(k), 2.0 * float(k)), vec2(u.z));\n"
		"  T c = s[i];\n"                               /* i = 1: (1, 2), (3, 3) */
		"  s[i].a[j] = 7.0;\n"                          /* j = 1: s[1].a = (1, 7) */
		"  bump(s, i);\n"                               /* s[1] = (9, 7), (4, 4) */
		"  T d[3] = s;\n"
		"  s[i + 1] = c;\n"
		"  gl_FragColor = vec4(s[i].a[0] + s[i].a[1], s[i].v.y + s[2].a[1], float(c == s[2]),\n"
		"                      float(d[1] == s[1]) + float(d == s));\n"
		"}\n");
	assert_true(find_array(f, "s[].a[0]") >= 0);
	assert_true(find_array(f, "s[].a[1]") >= 0);
	assert_true(find_array(f, "s[].v") >= 0);
	float o[4];
	run_u(f, 1, 1, 3, 0, o);
	/* 9 + 7; 4 + c.a[1] = 4 + 2; s[2] is c; d[1] is s[1], d[2] no more */
	assert_vec4_near(o, 16, 6, 1, 1);
	fe_test_end(&t);
}

/* GLSL leaves an element never assigned undefined, the IR makes it zero:
 * a store of a member at an index, in the loop the array was declared
 * in, first gives that member of every element never assigned the value
 * (stores at constant elements), so only s[0].w needs the indexed one. */
static void test_struct_member_fills_unassigned(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"struct S { vec2 p; float w; };\n"
		"void main() {\n"
		"  int i = int(u.x), j = int(u.y);\n"
		"  S s[4]; s[0].w = 1.0;\n"
		"  s[i].w = u.z;\n"
		"  gl_FragColor = vec4(s[j].w, s[0].w, s[3].w, 0.0);\n"
		"}\n");
	assert_int_equal(fe_count_op(f, IR_OP_STORE), 1 + 3 + 1);
	float o[4];
	run_u(f, 0, 2, 5, 0, o);
	assert_vec4_near(o, 5, 5, 5, 0);
	run_u(f, 2, 0, 5, 0, o);
	assert_vec4_near(o, 1, 1, 5, 0);
	fe_test_end(&t);
}

/* Arrays indexed by constants only, and uniform arrays of structs, stay
 * as they were: SSA leaves, uniform table entries. */
static void test_constant_indexes_and_uniforms_stay(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"struct L { vec3 c; float k; };\n"
		"uniform L lights[3];\n"
		"void main() {\n"
		"  mat2 m[2]; m[0] = mat2(u.x); m[1] = mat2(u.y);\n"
		"  int i = int(u.z);\n"
		"  gl_FragColor = vec4(m[1][1].y, lights[i].k, m[0][0].x, 0.0);\n"
		"}\n");
	assert_int_equal(f->narrays, 0);
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_array),
		cmocka_unit_test(test_struct_array_loops),
		cmocka_unit_test(test_struct_array_whole_values),
		cmocka_unit_test(test_struct_member_fills_unassigned),
		cmocka_unit_test(test_constant_indexes_and_uniforms_stay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
