/* Uniform arrays of structs indexed by a non-constant (issue 23.5): one
 * IR uniform per member path, member-major ("lights[].pos" holds every
 * lights[k].pos; a matrix member column-major), so that a computed struct
 * index is one indexed UNIFORM read, no select chain.  Values by running
 * the IR in the interpreter, with the uniforms set through the GL names a
 * driver uses (ir_uniform_member_name, ir_uniform_element). */
#include "fe_test.h"

#include "ir.h"

#include <stdio.h>

static const char *const light =
	"struct Light { vec4 pos; vec3 color; mat2 m; };\n"
	"uniform Light lights[4];\n";

/* Column `col` of the GL uniform `gl` ("lights[2].m"): its vec4 element
 * in vals (filled by the caller), or -1. */
static int gl_element(const struct ir_func *f, const char *gl, int col)
{
	char name[64];
	for (int u = 0; u < f->nuniforms; u++) {
		const struct ir_uniform *un = &f->uniforms[u];
		if (!un->member_major)
			continue;
		for (int k = 0; k < un->array_len; k++)
			if (ir_uniform_member_name(un, k, name, sizeof name) && !strcmp(name, gl))
				return un->base + ir_uniform_element(un, k, col);
	}
	int u = ir_func_find_uniform(f, gl);
	return u >= 0 ? f->uniforms[u].base + col : -1;
}

/* Every lights[k] different: pos (k, 10k, 1, 2), color (k + 0.5, 1, 1),
 * m's columns (k + 0.25, 0) and (1, k + 0.75); the uniform n = n. */
static void fill_lights(const struct ir_func *f, float (*vals)[4], float n)
{
	memset(vals, 0, sizeof(float[4]) * 64);
	for (int k = 0; k < 4; k++) {
		char gl[32];
		int e;
		snprintf(gl, sizeof gl, "lights[%d].pos", k);
		if ((e = gl_element(f, gl, 0)) >= 0)
			memcpy(vals[e], (float[4]){ (float)k, 10.0f * k, 1, 2 }, sizeof vals[e]);
		snprintf(gl, sizeof gl, "lights[%d].color", k);
		if ((e = gl_element(f, gl, 0)) >= 0)
			memcpy(vals[e], (float[4]){ k + 0.5f, 1, 1, 0 }, sizeof vals[e]);
		snprintf(gl, sizeof gl, "lights[%d].m", k);
		for (int c = 0; c < 2; c++)
			if ((e = gl_element(f, gl, c)) >= 0)
				memcpy(vals[e], c ? (float[4]){ 1, k + 0.75f, 0, 0 }
						  : (float[4]){ k + 0.25f, 0, 0, 0 }, sizeof vals[e]);
	}
	int u = ir_func_find_uniform(f, "n");
	if (u >= 0)
		vals[f->uniforms[u].base][0] = n;
}

static void run_n(struct ir_func *f, float n, float out[4])
{
	float vals[64][4];
	assert_true(f->nuniform_vec4 <= 64);
	fill_lights(f, vals, n);
	if (!fe_run(f, NULL, (const float (*)[4])vals, NULL, 0, 0, out))
		fail_msg("interpreter failed or output not written");
}

/* Counts UNIFORM reads at a computed index of entry `name`. */
static int indexed_reads(struct ir_func *f, const char *name)
{
	struct ir_instr *in;
	int n = 0, u = ir_func_find_uniform(f, name);
	for (struct ir_cf *c = f->body.first; c; c = c->next)
		if (c->kind == IR_CF_BLOCK)
			for (in = c->block.first; in; in = in->next)
				n += in->op == IR_OP_UNIFORM && in->index == u && in->nsrc == 1;
	return n;
}

/* lights[n].pos: one member-major entry, read once at n; a matrix
 * member's columns read at n itself (no scaling), c * 4 apart. */
static void test_uniform_index(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char src[512];
	snprintf(src, sizeof src, "%suniform int n;\nvoid main() {\n"
		 "  gl_FragColor = lights[n].pos + vec4(lights[n].m[1], lights[n].m[0].x, 0.0);\n}\n",
		 light);
	struct ir_func *f = fe_compile_ok(&t, src);
	int pos = ir_func_find_uniform(f, "lights[].pos"), m = ir_func_find_uniform(f, "lights[].m");
	assert_true(pos >= 0 && m >= 0);
	assert_true(f->uniforms[pos].member_major);
	assert_int_equal(f->uniforms[pos].array_len, 4);
	assert_int_equal(f->uniforms[pos].nvec4, 4);
	assert_int_equal(f->uniforms[m].nvec4, 8);
	assert_string_equal(f->uniforms[m].type, "mat2");
	assert_int_equal(ir_func_find_uniform(f, "lights[0].pos"), -1);
	assert_int_equal(indexed_reads(f, "lights[].pos"), 1);
	/* m[1] and m[0] each read the whole matrix (DCE drops a column) */
	assert_int_equal(indexed_reads(f, "lights[].m"), 4);
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 0);
	assert_int_equal(fe_count_op(f, IR_OP_EQ), 0);
	assert_int_equal(fe_count_op(f, IR_OP_MUL), 0);
	float o[4];
	for (int k = 0; k < 4; k++) {
		run_n(f, (float)k, o);
		assert_vec4_near(o, k + 1.0f, 10.0f * k + k + 0.75f, 1 + k + 0.25f, 2);
	}
	/* an index past the array reads its last struct, below it the first,
	 * every column of a matrix too (ir_uniform_index_range) */
	run_n(f, 7, o);
	assert_vec4_near(o, 4, 33.75f, 4.25f, 2);
	run_n(f, -2, o);
	assert_vec4_near(o, 1, 0.75f, 1.25f, 2);
	fe_test_end(&t);
}

/* A loop's counter and a whole struct passed to a function: indexed
 * reads inside the loop body, none of them selects. */
static void test_loop_and_whole_struct(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char src[768];
	snprintf(src, sizeof src, "%suniform float n;\n"
		 "vec4 f(Light l) { return l.pos * l.m[0].x; }\n"
		 "void main() { vec4 acc = vec4(0.0);\n"
		 "  for (int i = 0; i < int(n); i++) acc += lights[i].pos * vec4(lights[i].color, 1.0);\n"
		 "  gl_FragColor = acc + f(lights[int(n) - 1]);\n}\n", light);
	struct ir_func *f = fe_compile_ok(&t, src);
	assert_int_equal(fe_count_loops(&f->body), 1);
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 0);
	assert_true(f->uniforms[ir_func_find_uniform(f, "lights[].color")].member_major);
	/* n = 3: sum over k < 3 of pos * (k + 0.5, 1, 1, 1), plus pos[2] * 2.25 */
	float o[4], want[4] = { 0 };
	for (int k = 0; k < 3; k++) {
		want[0] += k * (k + 0.5f);
		want[1] += 10.0f * k;
		want[2] += 1;
		want[3] += 2;
	}
	run_n(f, 3, o);
	assert_vec4_near(o, want[0] + 2 * 2.25f, want[1] + 20 * 2.25f, want[2] + 2.25f,
			 want[3] + 2 * 2.25f);
	fe_test_end(&t);
}

/* Read at constant indexes only, an array of structs keeps one entry per
 * member of each struct.  Indexed by a non-constant, a member that is an
 * array (w) is member-major too ("s[].w": element e's column of struct
 * k at e * 3 + k), read at the struct index: at a constant element one
 * indexed read, at a non-constant one (j) selects among the elements'
 * indexed reads.  A second array of structs on the path (t) keeps an
 * entry per struct, read through selects. */
static void test_fallbacks(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "struct S { vec4 p; vec2 w[2]; };\nuniform S s[3];\n"
					  "void main() { gl_FragColor = s[1].p + vec4(s[2].w[1], 0.0, 0.0); }\n");
	assert_true(ir_func_find_uniform(f, "s[1].p") >= 0);
	assert_true(ir_func_find_uniform(f, "s[2].w") >= 0);
	for (int u = 0; u < f->nuniforms; u++)
		assert_false(f->uniforms[u].member_major);
	fe_test_end(&t);

	fe_test_begin(&t);
	f = fe_compile_ok(&t, "struct S { vec4 p; vec2 w[2]; };\nuniform S s[3];\nuniform int n, j;\n"
			  "void main() { gl_FragColor = s[n].p + vec4(s[n].w[1], s[n].w[j]); }\n");
	int w = ir_func_find_uniform(f, "s[].w");
	assert_true(w >= 0 && f->uniforms[w].member_major);
	assert_int_equal(f->uniforms[w].array_len, 3);
	assert_int_equal(f->uniforms[w].nvec4, 6);
	assert_int_equal(ir_uniform_member_len(&f->uniforms[w]), 2);
	assert_int_equal(ir_func_find_uniform(f, "s[0].w"), -1);
	assert_int_equal(indexed_reads(f, "s[].p"), 1);
	assert_true(indexed_reads(f, "s[].w") >= 2);
	float vals[16][4];
	assert_true(f->nuniform_vec4 <= 16);
	char gl[16];
	for (int nj = 0; nj < 4; nj++) {
		int n = nj >> 1, j = nj & 1;
		memset(vals, 0, sizeof vals);
		for (int k = 0; k < 3; k++) {
			snprintf(gl, sizeof gl, "s[%d].p", k);
			vals[gl_element(f, gl, 0)][0] = 100.0f * k;
			snprintf(gl, sizeof gl, "s[%d].w", k);
			for (int e = 0; e < 2; e++)
				vals[gl_element(f, gl, e)][1] = (float)k + 0.5f + 10.0f * e;
		}
		vals[f->uniforms[ir_func_find_uniform(f, "n")].base][0] = (float)n;
		vals[f->uniforms[ir_func_find_uniform(f, "j")].base][0] = (float)j;
		float o[4];
		if (!fe_run(f, NULL, (const float (*)[4])vals, NULL, 0, 0, o))
			fail_msg("interpreter failed");
		assert_vec4_near(o, 100.0f * n, n + 10.5f, 0, n + 0.5f + 10.0f * j);
	}
	fe_test_end(&t);

	fe_test_begin(&t);
	f = fe_compile_ok(&t, "struct T { vec4 a; };\nstruct S { T t[2]; };\nuniform S s[3];\n"
			  "uniform int n;\nvoid main() { gl_FragColor = s[n].t[1].a; }\n");
	assert_true(ir_func_find_uniform(f, "s[0].t[1].a") >= 0);
	for (int u = 0; u < f->nuniforms; u++)
		assert_false(f->uniforms[u].member_major);
	assert_true(fe_count_op(f, IR_OP_SELECT) > 0);
	fe_test_end(&t);
}

/* GLSL 1.20 initializers land in the member-major elements: column c of
 * lights[k].m in element c * 2 + k. */
static void test_initializer(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "#version 120\n"
		"struct L { float k; mat2 m; };\n"
		"uniform L ls[2] = L[2](L(1.0, mat2(1.0, 2.0, 3.0, 4.0)), L(2.0, mat2(5.0, 6.0, 7.0, 8.0)));\n"
		"uniform int n;\n"
		"void main() { gl_FragColor = vec4(ls[n].m[1], ls[n].k, ls[1].m[0].y); }\n");
	int m = ir_func_find_uniform(f, "ls[].m"), k = ir_func_find_uniform(f, "ls[].k");
	assert_true(m >= 0 && k >= 0 && f->uniforms[m].init && f->uniforms[k].init);
	static const float want_m[4][2] = { { 1, 2 }, { 5, 6 }, { 3, 4 }, { 7, 8 } };
	for (int e = 0; e < 4; e++)
		assert_memory_equal(f->uniforms[m].init[e], ((float[4]){ want_m[e][0], want_m[e][1] }),
				    sizeof(float[4]));
	assert_true(f->uniforms[k].init[1][0] == 2.0f);
	float vals[16][4];
	assert_true(f->nuniform_vec4 <= 16);
	ir_uniform_defaults(f, vals);
	vals[f->uniforms[ir_func_find_uniform(f, "n")].base][0] = 1;
	float o[4];
	if (!fe_run(f, NULL, (const float (*)[4])vals, NULL, 0, 0, o))
		fail_msg("interpreter failed");
	assert_vec4_near(o, 7, 8, 2, 6);
	fe_test_end(&t);

	/* a member array: element e of ls[k].w in element e * 2 + k */
	fe_test_begin(&t);
	f = fe_compile_ok(&t, "#version 120\n"
		"struct L { float k; vec2 w[2]; };\n"
		"uniform L ls[2] = L[2](L(1.0, vec2[2](vec2(1.0, 2.0), vec2(3.0, 4.0))),\n"
		"                       L(2.0, vec2[2](vec2(5.0, 6.0), vec2(7.0, 8.0))));\n"
		"uniform int n;\n"
		"void main() { gl_FragColor = vec4(ls[n].w[1], ls[n].w[0].y, ls[n].k); }\n");
	int w = ir_func_find_uniform(f, "ls[].w");
	assert_true(w >= 0 && f->uniforms[w].init);
	static const float want_w[4][2] = { { 1, 2 }, { 5, 6 }, { 3, 4 }, { 7, 8 } };
	for (int e = 0; e < 4; e++)
		assert_memory_equal(f->uniforms[w].init[e], ((float[4]){ want_w[e][0], want_w[e][1] }),
				    sizeof(float[4]));
	for (int k = 0; k < 2; k++) {
		ir_uniform_defaults(f, vals);
		vals[f->uniforms[ir_func_find_uniform(f, "n")].base][0] = (float)k;
		if (!fe_run(f, NULL, (const float (*)[4])vals, NULL, 0, 0, o))
			fail_msg("interpreter failed");
		assert_vec4_near(o, k ? 7 : 3, k ? 8 : 4, k ? 6 : 2, k ? 2 : 1);
	}
	fe_test_end(&t);
}

/* A uniform array of matrices indexed by a non-constant is column-major
 * too ("ms[]", GL names "ms[k]" with columns as elements): each column
 * read at the index itself, no scaling by the column count; the values
 * and the clamp at the ends as for a struct's matrix member, the
 * initializer in c * 3 + k.  Read at constant indexes only, it stays
 * one row of columns per matrix ("ms"). */
static void test_matrix_array(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "#version 120\n"
		"uniform mat2 ms[3] = mat2[3](mat2(1.0, 2.0, 3.0, 4.0), mat2(5.0, 6.0, 7.0, 8.0),\n"
		"                             mat2(9.0, 10.0, 11.0, 12.0));\n"
		"uniform int n;\n"
		"void main() { gl_FragColor = vec4(ms[n][1], ms[n] * vec2(1.0, 0.5)); }\n");
	int m = ir_func_find_uniform(f, "ms[]");
	assert_true(m >= 0 && f->uniforms[m].member_major && f->uniforms[m].init);
	assert_int_equal(f->uniforms[m].array_len, 3);
	assert_int_equal(f->uniforms[m].nvec4, 6);
	assert_int_equal(ir_func_find_uniform(f, "ms"), -1);
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 0);
	assert_true(indexed_reads(f, "ms[]") >= 2);
	char gl[16];
	assert_true(ir_uniform_member_name(&f->uniforms[m], 2, gl, sizeof gl));
	assert_string_equal(gl, "ms[2]");
	/* column 1 of ms[2] in element 1 * 3 + 2 */
	assert_true(f->uniforms[m].init[5][0] == 11.0f && f->uniforms[m].init[5][1] == 12.0f);
	float vals[16][4];
	assert_true(f->nuniform_vec4 <= 16);
	int nu = f->uniforms[ir_func_find_uniform(f, "n")].base;
	static const float want[5][4] = { { 3, 4, 2.5f, 4 }, { 3, 4, 2.5f, 4 }, { 7, 8, 8.5f, 10 },
					  { 11, 12, 14.5f, 16 }, { 11, 12, 14.5f, 16 } };
	for (int k = -1; k <= 3; k++) {
		ir_uniform_defaults(f, vals);
		vals[nu][0] = (float)k;
		float o[4];
		if (!fe_run(f, NULL, (const float (*)[4])vals, NULL, 0, 0, o))
			fail_msg("interpreter failed");
		assert_vec4_near(o, want[k + 1][0], want[k + 1][1], want[k + 1][2], want[k + 1][3]);
	}
	fe_test_end(&t);

	fe_test_begin(&t);
	f = fe_compile_ok(&t, "uniform mat2 ms[3];\n"
			  "void main() { gl_FragColor = vec4(ms[1][1], ms[2][0]); }\n");
	m = ir_func_find_uniform(f, "ms");
	assert_true(m >= 0 && !f->uniforms[m].member_major);
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_index),
		cmocka_unit_test(test_loop_and_whole_struct),
		cmocka_unit_test(test_fallbacks),
		cmocka_unit_test(test_initializer),
		cmocka_unit_test(test_matrix_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
