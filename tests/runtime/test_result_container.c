/* uscc_result_container: the container a compile's result carries gives,
 * through every accessor, what uscc_container_open gives on the result's
 * bytes (GLSL with uniforms, samplers, loops, a constant program; TGSI
 * with r300's conventions), and only successful compiles have one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uscc.h"

static const char glsl_loop[] =
	"#version 120\n"
	"uniform sampler2D tex_a;\n"
	"uniform samplerCube tex_b;\n"
	"uniform sampler2DShadow tex_c;\n"
	"uniform int n;\n"
	"uniform vec4 tint = vec4(0.25, 0.5, 0.75, 1.0);\n"
	"uniform mat3 m[2];\n"
	"varying vec4 v;\n"
	"varying vec2 w;\n"
	"void main() {\n"
	"  vec4 s = texture2D(tex_a, w) + textureCube(tex_b, v.xyz) + shadow2D(tex_c, v.xyz);\n"
	"  for (int i = 0; i < n; i++) s += vec4(0.3, 0.7, 0.11, 0.13);\n"
	"  if (s.x < 0.1) discard;\n"
	"  gl_FragColor = s * gl_FragCoord.x * tint + vec4(m[1] * v.xyz, 1.0);\n"
	"}\n";

/* Work on uniforms only: a constant program. */
static const char glsl_cp[] =
	"uniform vec4 a, b;\n"
	"varying vec4 v;\n"
	"void main() { gl_FragColor = v * normalize(a * b + 1.0); gl_FragDepth = v.z; }\n";

static const char tgsi_r300[] =
	"FRAG\n"
	"DCL IN[0], COLOR, COLOR\n"
	"DCL IN[1].xy, GENERIC[0], PERSPECTIVE\n"
	"DCL IN[2], POSITION, LINEAR\n"
	"DCL OUT[0], COLOR\n"
	"DCL SAMP[0]\n"
	"DCL SVIEW[0], 2D, FLOAT\n"
	"DCL CONST[0][0..1]\n"
	"DCL TEMP[0]\n"
	"IMM[0] FLT32 {    0.5000,     2.0000,     0.0000,     1.0000}\n"
	"  0: TEX TEMP[0], IN[1].xyyy, SAMP[0], 2D\n"
	"  1: MAD TEMP[0], TEMP[0], CONST[0][1], IN[0]\n"
	"  2: MUL TEMP[0].x, TEMP[0].xxxx, IN[2].xxxx\n"
	"  3: MAD OUT[0], TEMP[0], IMM[0].xxxy, CONST[0][0]\n"
	"  4: END\n";

static void assert_same_str(const char *a, const char *b)
{
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
}

static void assert_same_tables(const struct uscc_container *v, const struct uscc_container *c)
{
	int nv, nc;
	const uint32_t *wv = uscc_container_code(v, &nv), *wc = uscc_container_code(c, &nc);
	assert_int_equal(nv, nc);
	assert_memory_equal(wv, wc, (size_t)nc * 6 * sizeof *wc);
	assert_int_equal(uscc_container_num_const_slots(v), uscc_container_num_const_slots(c));
	for (int s = -1; s <= uscc_container_num_const_slots(c); s++) {
		float a[4] = { 0 }, b[4] = { 0 };
		assert_int_equal(uscc_container_constant(v, s, a), uscc_container_constant(c, s, b));
		assert_memory_equal(a, b, sizeof a);
		struct uscc_constant_info x, y;
		memset(&x, 0, sizeof x);
		memset(&y, 0, sizeof y);
		assert_int_equal(uscc_container_constant_info(v, s, &x),
				 uscc_container_constant_info(c, s, &y));
		assert_memory_equal(&x, &y, sizeof x);
	}
	assert_int_equal(uscc_container_num_uniforms(v), uscc_container_num_uniforms(c));
	for (int i = 0; i < uscc_container_num_uniforms(c); i++) {
		struct uscc_uniform_info x, y;
		assert_true(uscc_container_uniform(v, i, &x) && uscc_container_uniform(c, i, &y));
		assert_same_str(x.name, y.name);
		assert_same_str(x.type, y.type);
		assert_same_str(x.swizzle, y.swizzle);
		assert_int_equal(x.array_len, y.array_len);
		assert_int_equal(x.element, y.element);
		assert_int_equal(x.slot, y.slot);
		assert_int_equal(x.init != NULL, y.init != NULL);
		if (x.init)
			assert_memory_equal(x.init, y.init, 4 * sizeof *x.init);
	}
	assert_int_equal(uscc_container_num_samplers(v), uscc_container_num_samplers(c));
	for (int i = 0; i < uscc_container_num_samplers(c); i++) {
		struct uscc_sampler_info x, y;
		assert_true(uscc_container_sampler(v, i, &x) && uscc_container_sampler(c, i, &y));
		assert_same_str(x.name, y.name);
		assert_same_str(x.target, y.target);
		assert_int_equal(x.unit, y.unit);
		assert_int_equal(x.shadow, y.shadow);
	}
	assert_int_equal(uscc_container_num_inputs(v), uscc_container_num_inputs(c));
	for (int i = 0; i < uscc_container_num_inputs(c); i++) {
		struct uscc_input_info x, y;
		assert_true(uscc_container_input(v, i, &x) && uscc_container_input(c, i, &y));
		assert_same_str(x.name, y.name);
		assert_same_str(x.components, y.components);
		assert_int_equal(x.temp, y.temp);
	}
	assert_int_equal(uscc_container_num_outputs(v), uscc_container_num_outputs(c));
	for (int i = 0; i < uscc_container_num_outputs(c); i++) {
		struct uscc_output_info x, y;
		assert_true(uscc_container_output(v, i, &x) && uscc_container_output(c, i, &y));
		assert_same_str(x.name, y.name);
		assert_int_equal(x.target, y.target);
	}
}

static void assert_same_program(const struct uscc_container *v, const struct uscc_container *c)
{
	assert_same_tables(v, c);
	struct uscc_flow_info fv, fc;
	struct uscc_stats sv, sc;
	struct uscc_program_info pv, pc;
	memset(&sv, 0, sizeof sv); /* the padding too */
	memset(&sc, 0, sizeof sc);
	memset(&pv, 0, sizeof pv);
	memset(&pc, 0, sizeof pc);
	uscc_container_flow(v, &fv);
	uscc_container_flow(c, &fc);
	assert_memory_equal(&fv, &fc, sizeof fv);
	uscc_container_stats(v, &sv);
	uscc_container_stats(c, &sc);
	assert_memory_equal(&sv, &sc, sizeof sv);
	uscc_container_program_info(v, &pv);
	uscc_container_program_info(c, &pc);
	assert_memory_equal(&pv, &pc, sizeof pv);
	int iv, ov, ic, oc;
	uscc_container_constant_program(v, &iv, &ov);
	uscc_container_constant_program(c, &ic, &oc);
	assert_int_equal(iv, ic);
	assert_int_equal(ov, oc);
	float kv[256][4], kc[256][4];
	for (int s = 0; s < 256; s++)
		for (int k = 0; k < 4; k++)
			kv[s][k] = kc[s][k] = (float)(s * 4 + k) * 0.125f;
	assert_int_equal(uscc_container_run_constant_program(v, kv, 256), USCC_OK);
	assert_int_equal(uscc_container_run_constant_program(c, kc, 256), USCC_OK);
	assert_memory_equal(kv, kc, sizeof kv);
	assert_same_str(uscc_container_json(v), uscc_container_json(c));
	const char *dis = uscc_container_disasm(v);
	assert_same_str(dis, uscc_container_disasm(c));
	assert_ptr_equal(uscc_container_disasm(v), dis); /* made once, kept */
}

/* Compiles src with o and checks the result's container against the
 * opened bytes; returns the constant program's size (for the callers'
 * checks that the case has what it is meant to have). */
static int check_source(const struct uscc_options *o, const char *src)
{
	struct uscc_result *r = NULL;
	if (uscc_compile(o, src, USCC_NUL_TERMINATED, &r) != USCC_OK)
		fail_msg("compile failed: %s", uscc_result_diagnostics(r));
	const struct uscc_container *v = uscc_result_container(r);
	assert_non_null(v);
	assert_ptr_equal(uscc_result_container(r), v);
	size_t size;
	const void *bin = uscc_result_data(r, &size);
	struct uscc_container *c = NULL;
	char err[256];
	if (uscc_container_open(NULL, bin, size, &c, err, sizeof err) != USCC_OK)
		fail_msg("open failed: %s", err);
	assert_same_program(v, c);
	int ninst, nout;
	uscc_container_constant_program(c, &ninst, &nout);
	uscc_container_destroy(c);
	uscc_result_destroy(r);
	return nout;
}

static void test_glsl(void **state)
{
	(void)state;
	assert_int_equal(check_source(NULL, glsl_loop), 0);
	assert_true(check_source(NULL, glsl_cp) > 0);
	struct uscc_options *o = uscc_options_create(NULL);
	assert_int_equal(uscc_options_set_opt_level(o, 0), USCC_OK);
	check_source(o, glsl_loop);
	uscc_options_destroy(o);
}

static void test_tgsi_r300(void **state)
{
	(void)state;
	struct uscc_options *o = uscc_options_create(NULL);
	assert_int_equal(uscc_options_set_language(o, USCC_LANGUAGE_TGSI), USCC_OK);
	assert_int_equal(uscc_options_set_r300_conventions(o, true), USCC_OK);
	assert_int_equal(uscc_options_set_r300_wrap(o, 0, USCC_WRAP_REPEAT, true), USCC_OK);
	check_source(o, tgsi_r300);
	uscc_options_destroy(o);
}

/* The samples (every shader the project ships as an example). */
static void test_samples(void **state)
{
	(void)state;
	static const char *const names[] = { "checkerboard", "fog", "normal_map", "phong",
					      "reflect_env", "rings", "textured", "toon",
					      "vignette" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char path[256];
		snprintf(path, sizeof path, "samples/%s.frag", names[i]);
		FILE *f = fopen(path, "rb");
		if (!f)
			fail_msg("cannot open %s (run from the source tree)", path);
		char *src = calloc(1, 1 << 16);
		assert_non_null(src);
		size_t n = fread(src, 1, (1 << 16) - 1, f);
		fclose(f);
		assert_true(n > 0);
		check_source(NULL, src);
		free(src);
	}
}

/* Only a successful compile has one. */
static void test_none(void **state)
{
	(void)state;
	struct uscc_result *r = NULL;
	assert_int_equal(uscc_run(NULL, USCC_ACTION_ASSEMBLY, glsl_cp, USCC_NUL_TERMINATED, &r),
			 USCC_OK);
	assert_null(uscc_result_container(r));
	uscc_result_destroy(r);
	assert_int_equal(uscc_compile(NULL, "void main() { gl_FragColor = x; }",
				      USCC_NUL_TERMINATED, &r),
			 USCC_SHADER_ERROR);
	assert_null(uscc_result_container(r));
	uscc_result_destroy(r);
	assert_null(uscc_result_container(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glsl),
		cmocka_unit_test(test_tgsi_r300),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
