/* r300's conventions (uscc_options_set_r300_conventions): inputs in the
 * registers r300 allocates, constants where r300 uploads them (externals
 * at their own index, then state, then immediates, each slot's kind
 * through uscc_container_constant_info), no constant program, WPOS and
 * FACE as r300 delivers them, and wrap emulation; the emulator runs such
 * a program to the pixels of the same shader compiled as usual.  GLSL
 * and TGSI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arena.h"
#include "container.h"
#include "emu.h"
#include "uscc.h"

static enum uscc_language language = USCC_LANGUAGE_GLSL;

/* uscc's result for `src` (in `language`); r300's conventions when r300
 * (wrap: unit 0's emulation). */
static struct uscc_result *compile_result(const char *src, bool r300, enum uscc_wrap wrap)
{
	struct uscc_options *o = uscc_options_create(NULL);
	assert_non_null(o);
	assert_int_equal(uscc_options_set_language(o, language), USCC_OK);
	assert_int_equal(uscc_options_set_r300_conventions(o, r300), USCC_OK);
	if (wrap != USCC_WRAP_NONE)
		assert_int_equal(uscc_options_set_r300_wrap(o, 0, wrap, false), USCC_OK);
	struct uscc_result *r = NULL;
	if (uscc_compile(o, src, USCC_NUL_TERMINATED, &r) != USCC_OK)
		fail_msg("compile: %s", uscc_result_diagnostics(r));
	uscc_options_destroy(o);
	return r;
}

static struct uscc_container *compile(const char *src, bool r300, enum uscc_wrap wrap)
{
	struct uscc_result *r = compile_result(src, r300, wrap);
	size_t size;
	const void *data = uscc_result_data(r, &size);
	struct uscc_container *c = NULL;
	char err[256];
	assert_int_equal(uscc_container_open(NULL, data, size, &c, err, sizeof err), USCC_OK);
	uscc_result_destroy(r);
	return c;
}

static void expect_input(const struct uscc_container *c, int i, const char *name)
{
	struct uscc_input_info in;
	assert_true(uscc_container_input(c, i, &in));
	assert_string_equal(in.name, name);
	assert_int_equal(in.temp, i);
}

/* Inputs in allocate_hardware_inputs' order, whatever order the source
 * reads them in: COLOR0, COLOR1, FACE, GENERIC (texcoords, then
 * varyings), WPOS. */
static void test_input_order(void **state)
{
	(void)state;
	const char *src = "varying vec2 v;\n"
			  "void main() {\n"
			  "  vec4 p = gl_FragCoord + gl_TexCoord[1] + vec4(v, 0.0, 0.0);\n"
			  "  if (gl_FrontFacing) p += gl_SecondaryColor;\n"
			  "  gl_FragColor = p * gl_Color;\n"
			  "}\n";
	struct uscc_container *c = compile(src, true, USCC_WRAP_NONE);
	assert_int_equal(uscc_container_num_inputs(c), 6);
	expect_input(c, 0, "gl_Color");
	expect_input(c, 1, "gl_SecondaryColor");
	expect_input(c, 2, "gl_r300BackFace");
	expect_input(c, 3, "gl_TexCoord[1]");
	expect_input(c, 4, "v");
	expect_input(c, 5, "gl_r300Position");
	uscc_container_destroy(c);
}

/* TGSI as nir_to_tgsi gives it to r300: every declared input in r300's
 * register order, an unread one too (r300's rs setup interpolates it);
 * CONST[i] in slot i, every one declared, then the state constants. */
static void test_tgsi(void **state)
{
	(void)state;
	const char *src = "FRAG\n"
			  "DCL IN[0], POSITION, LINEAR\n"
			  "DCL IN[1], GENERIC[10], PERSPECTIVE\n"
			  "DCL IN[2], GENERIC[9], PERSPECTIVE\n"
			  "DCL IN[3], COLOR, COLOR\n"
			  "DCL IN[4], FACE, CONSTANT\n"
			  "DCL OUT[0], COLOR\n"
			  "DCL CONST[0][0..3]\n"
			  "DCL TEMP[0]\n"
			  "  0: MUL TEMP[0], IN[0], CONST[0][2]\n"
			  "  1: MAD OUT[0], IN[2], TEMP[0], IN[3]\n"
			  "  2: END\n";
	language = USCC_LANGUAGE_TGSI;
	struct uscc_result *r = compile_result(src, true, USCC_WRAP_NONE);
	language = USCC_LANGUAGE_GLSL;
	size_t size;
	const void *data = uscc_result_data(r, &size);
	struct uscc_container *c = NULL;
	assert_int_equal(uscc_container_open(NULL, data, size, &c, NULL, 0), USCC_OK);
	assert_int_equal(uscc_container_num_inputs(c), 5);
	expect_input(c, 0, "COLOR[0]");
	expect_input(c, 1, "gl_r300BackFace");
	expect_input(c, 2, "GENERIC[9]");
	expect_input(c, 3, "GENERIC[10]"); /* read by nothing */
	expect_input(c, 4, "gl_r300Position");
	struct uscc_constant_info k;
	for (int s = 0; s < 4; s++) {
		struct uscc_uniform_info u;
		assert_true(uscc_container_constant_info(c, s, &k));
		assert_int_equal(k.kind, USCC_CONSTANT_UNIFORM);
		assert_true(uscc_container_uniform(c, k.uniform, &u));
		assert_string_equal(u.name, "CONST");
		assert_int_equal(u.element, s);
	}
	assert_true(uscc_container_constant_info(c, 4, &k));
	assert_int_equal(k.kind, USCC_CONSTANT_STATE);
	assert_int_equal(k.state, USCC_STATE_R300_VIEWPORT_SCALE);
	assert_true(uscc_container_constant_info(c, 5, &k));
	assert_int_equal(k.state, USCC_STATE_R300_VIEWPORT_OFFSET);
	uscc_container_destroy(c);
	uscc_result_destroy(r);
}

/* Externals at their own index (every element up to the last, unpacked,
 * read or not), the state constants and the immediates after them; no
 * constant program even for uniform-only work. */
static void test_constant_layout(void **state)
{
	(void)state;
	const char *src = "uniform vec4 a;\n"
			  "uniform float b;\n"
			  "uniform vec2 c[3];\n"
			  "void main() {\n"
			  "  gl_FragColor = sin(a * 0.5) + vec4(b, c[2], 1.5) * gl_FragCoord;\n"
			  "}\n";
	struct uscc_container *c = compile(src, true, USCC_WRAP_NONE);
	int ninst, nout;
	uscc_container_constant_program(c, &ninst, &nout);
	assert_int_equal(nout, 0);
	int n = uscc_container_num_const_slots(c);
	assert_true(n >= 7);
	struct uscc_constant_info k;
	const char *names[5] = { "a", "b", "c", "c", "c" };
	for (int s = 0; s < 5; s++) {
		struct uscc_uniform_info u;
		assert_true(uscc_container_constant_info(c, s, &k));
		assert_int_equal(k.kind, USCC_CONSTANT_UNIFORM);
		assert_true(uscc_container_uniform(c, k.uniform, &u));
		assert_string_equal(u.name, names[s]);
		assert_int_equal(u.slot, s);
		assert_int_equal(u.swizzle[0], 'x'); /* unpacked */
	}
	assert_true(uscc_container_constant_info(c, 5, &k));
	assert_int_equal(k.kind, USCC_CONSTANT_STATE);
	assert_int_equal(k.state, USCC_STATE_R300_VIEWPORT_SCALE);
	assert_true(uscc_container_constant_info(c, 6, &k));
	assert_int_equal(k.kind, USCC_CONSTANT_STATE);
	assert_int_equal(k.state, USCC_STATE_R300_VIEWPORT_OFFSET);
	for (int s = 7; s < n; s++) {
		assert_true(uscc_container_constant_info(c, s, &k));
		assert_int_equal(k.kind, USCC_CONSTANT_IMMEDIATE);
	}
	assert_false(uscc_container_constant_info(c, n, &k));
	uscc_container_destroy(c);
}

/* Without the conventions the same accessor tells uniforms from
 * immediates and from the constant program's slots. */
static void test_constant_kinds_plain(void **state)
{
	(void)state;
	const char *src = "uniform vec4 a;\n"
			  "void main() { gl_FragColor = sin(a * 0.5) * gl_TexCoord[0] + 0.25; }\n";
	struct uscc_container *c = compile(src, false, USCC_WRAP_NONE);
	int counts[5] = { 0 };
	for (int s = 0; s < uscc_container_num_const_slots(c); s++) {
		struct uscc_constant_info k;
		assert_true(uscc_container_constant_info(c, s, &k));
		counts[k.kind]++;
	}
	assert_int_equal(counts[USCC_CONSTANT_STATE], 0);
	assert_true(counts[USCC_CONSTANT_UNIFORM] == 1);
	assert_true(counts[USCC_CONSTANT_IMMEDIATE] + counts[USCC_CONSTANT_COMPUTED] >= 1);
	uscc_container_destroy(c);
}

/* Every pixel of target 0 (RGBA) of `src` compiled so, drawn WxH with
 * unit 0 holding `tex` (or nothing); malloc'ed. */
static float *render(const char *src, bool r300, enum uscc_wrap wrap, int w, int h,
		     const struct tex_image *tex)
{
	struct uscc_result *r = compile_result(src, r300, wrap);
	size_t size;
	const uint8_t *data = uscc_result_data(r, &size);
	struct arena *a = arena_create(NULL);
	struct r500_program p;
	char why[256] = "";
	assert_true(container_read(data, size, a, &p, why, sizeof why));
	struct emu_config cfg = { .width = w, .height = h, .textures = tex, .ntextures = tex ? 1 : 0 };
	struct emu_image img;
	if (!emu_run(&p, &cfg, &img, why, sizeof why))
		fail_msg("run: %s", why);
	float *px = malloc(sizeof(float) * 4 * (size_t)(w * h));
	assert_non_null(px);
	memcpy(px, img.rt[0], sizeof(float) * 4 * (size_t)(w * h));
	emu_image_free(&img);
	arena_destroy(a);
	uscc_result_destroy(r);
	return px;
}

static void expect_same_pixels(const float *a, const float *b, int n, float tol)
{
	for (int i = 0; i < 4 * n; i++)
		if (!(a[i] - b[i] <= tol && b[i] - a[i] <= tol))
			fail_msg("component %d of pixel %d: %g, not %g", i % 4, i / 4, a[i], b[i]);
}

/* gl_FragCoord from r300's clip-space WPOS and the viewport state,
 * gl_FrontFacing from its back-face flag: the pixels of the plain
 * compile. */
static void test_wpos_and_face(void **state)
{
	(void)state;
	const char *src = "void main() {\n"
			  "  vec4 c = gl_FragCoord * vec4(1.0 / 16.0, 1.0 / 8.0, 1.0, 1.0);\n"
			  "  gl_FragColor = gl_FrontFacing ? c : -c;\n"
			  "}\n";
	float *plain = render(src, false, USCC_WRAP_NONE, 16, 8, NULL);
	float *conv = render(src, true, USCC_WRAP_NONE, 16, 8, NULL);
	assert_true(plain[0] > 0.0f); /* front faces */
	expect_same_pixels(conv, plain, 16 * 8, 1e-5f);
	free(plain);
	free(conv);
}

/* Wrap emulation: REPEAT on unit 0 samples a clamped texture at the
 * coordinates' fractions, MIRRORED_CLAMP at their absolute values. */
static void test_wrap_emulation(void **state)
{
	(void)state;
	float texels[4 * 4 * 4];
	for (int i = 0; i < 16; i++)
		for (int c = 0; c < 4; c++)
			texels[4 * i + c] = (float)(i * 4 + c) / 64.0f;
	struct tex_image tex = { .target = IR_TARGET_2D, .width = 4, .height = 4, .depth = 1,
				 .texels = texels, .filter = TEX_FILTER_NEAREST,
				 .wrap = TEX_WRAP_CLAMP, .levels = 1 };
	const char *scaled = "uniform sampler2D s;\n"
			     "void main() { gl_FragColor = texture2D(s, gl_TexCoord[0].xy * 3.0); }\n";
	const char *fract_src = "uniform sampler2D s;\n"
				"void main() { gl_FragColor = texture2D(s, fract(gl_TexCoord[0].xy * 3.0)); }\n";
	float *emulated = render(scaled, true, USCC_WRAP_REPEAT, 8, 8, &tex);
	float *expected = render(fract_src, false, USCC_WRAP_NONE, 8, 8, &tex);
	expect_same_pixels(emulated, expected, 64, 0.0f);
	free(emulated);
	free(expected);
	const char *neg = "uniform sampler2D s;\n"
			  "void main() { gl_FragColor = texture2D(s, -gl_TexCoord[0].xy); }\n";
	const char *pos = "uniform sampler2D s;\n"
			  "void main() { gl_FragColor = texture2D(s, gl_TexCoord[0].xy); }\n";
	emulated = render(neg, true, USCC_WRAP_MIRRORED_CLAMP, 8, 8, &tex);
	expected = render(pos, false, USCC_WRAP_NONE, 8, 8, &tex);
	expect_same_pixels(emulated, expected, 64, 0.0f);
	free(emulated);
	free(expected);
}

/* r300 normalizes a RECT sampler's coordinates before it wraps them:
 * uscc refuses the shader, naming the sampler, and the driver falls back. */
static void test_rect_wrap_refused(void **state)
{
	(void)state;
	const char *src = "#extension GL_ARB_texture_rectangle : enable\n"
			  "uniform sampler2DRect r;\n"
			  "void main() { gl_FragColor = texture2DRect(r, gl_TexCoord[0].xy); }\n";
	struct uscc_options *o = uscc_options_create(NULL);
	uscc_options_set_r300_conventions(o, true);
	uscc_options_set_r300_wrap(o, 0, USCC_WRAP_REPEAT, false);
	struct uscc_result *r = NULL;
	assert_int_equal(uscc_compile(o, src, USCC_NUL_TERMINATED, &r), USCC_SHADER_ERROR);
	assert_non_null(strstr(uscc_result_diagnostics(r), "a RECT sampler ('r')"));
	uscc_result_destroy(r);
	uscc_options_set_r300_wrap(o, 0, USCC_WRAP_NONE, false); /* no emulation: compiles */
	assert_int_equal(uscc_compile(o, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

static void test_bad_options(void **state)
{
	(void)state;
	struct uscc_options *o = uscc_options_create(NULL);
	assert_int_equal(uscc_options_set_r300_wrap(o, 16, USCC_WRAP_REPEAT, false), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_r300_wrap(o, -1, USCC_WRAP_REPEAT, false), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_r300_wrap(o, 0, (enum uscc_wrap)9, false), USCC_USAGE_ERROR);
	/* the conventions change the program: another cache key */
	uint64_t plain = uscc_cache_key(o, "void main() {}", USCC_NUL_TERMINATED);
	uscc_options_set_r300_conventions(o, true);
	uint64_t conv = uscc_cache_key(o, "void main() {}", USCC_NUL_TERMINATED);
	uscc_options_set_r300_wrap(o, 3, USCC_WRAP_REPEAT, false);
	assert_true(plain != conv);
	assert_true(conv != uscc_cache_key(o, "void main() {}", USCC_NUL_TERMINATED));
	uscc_options_destroy(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_order),
		cmocka_unit_test(test_tgsi),
		cmocka_unit_test(test_constant_layout),
		cmocka_unit_test(test_constant_kinds_plain),
		cmocka_unit_test(test_wpos_and_face),
		cmocka_unit_test(test_wrap_emulation),
		cmocka_unit_test(test_rect_wrap_refused),
		cmocka_unit_test(test_bad_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
