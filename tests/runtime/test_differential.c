/* The differential judge: for every shader in samples/ and tests/shaders/,
 * the IR interpreter (run on the frontend's unoptimized IR) and the
 * emulator (run on the compiled container, after a trip through the
 * container format) must agree on every output component of a 16x16 grid,
 * at -O0 and at -O2.
 *
 * Tolerance: 1e-5 relative (with an absolute floor of 1e-5 near zero) for
 * plain arithmetic, where both sides round each operation to fp32 and only
 * the order of operations differs.  Shaders using transcendentals get 2e-4:
 * the R500 computes sin/cos in revolutions after a multiply by 1/(2 pi) and
 * a FRC (which loses |x| * 2^-24 absolute per revolution, so ~1e-5 for the
 * angles of the samples), and pow as EX2(LN2(a) * b), whose relative error
 * grows as |b * log2(a)| * 2^-23 * ln 2 (~5e-5 for exponents up to 32 over
 * values down to 2^-8); 2e-4 covers both with margin.  Division and
 * normalize go through RCP/RSQ, which are correctly rounded in the
 * emulator, so they stay within the plain bound.
 *
 * The inputs are identical on both sides: varyings (u, v, 0, 1) at pixel
 * centres (exact in binary on a 16-pixel grid), gl_FragCoord the pixel
 * centre, uniforms from a fixed hash of their name in [0.1, 0.9], texture
 * unit k the built-in "gradient" (even k) or "checker" (odd k). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin_textures.h"
#include "container.h"
#include "emu.h"
#include "glsl.h"
#include "ir_interp.h"
#include "ir_text.h"
#include "r500_compile.h"
#include "uscc.h"
#include "test_emu_uniforms.h"

enum { GRID = 16, MAX_SHADERS = 128, MAX_UNIFORMS = 256 };

static void input_value(const char *name, int x, int y, float out[4])
{
	if (strcmp(name, "gl_FragCoord") == 0) {
		out[0] = (float)x + 0.5f, out[1] = (float)y + 0.5f, out[2] = 0.5f, out[3] = 1.0f;
	} else if (strcmp(name, "gl_FrontFacing") == 0) {
		out[0] = 1.0f, out[1] = 0.0f, out[2] = 0.0f, out[3] = 1.0f; /* as uscc-run */
	} else {
		out[0] = ((float)x + 0.5f) / GRID, out[1] = ((float)y + 0.5f) / GRID;
		out[2] = 0.0f, out[3] = 1.0f;
	}
}

static void note_transcendental(struct ir_instr *in, void *ud)
{
	switch (in->op) {
	case IR_OP_SIN: case IR_OP_COS: case IR_OP_TAN: case IR_OP_ASIN: case IR_OP_ACOS:
	case IR_OP_ATAN: case IR_OP_ATAN2: case IR_OP_POW: case IR_OP_EXP2: case IR_OP_LOG2:
		*(bool *)ud = true;
		break;
	default:
		break;
	}
}

static bool uses_transcendentals(struct ir_func *f)
{
	bool found = false;
	ir_foreach_instr(f, note_transcendental, &found);
	return found;
}

struct textures {
	struct tex_image img[16];
	float *texels[16];
};

static void textures_make(struct textures *t, const struct ir_func *f)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < f->nsamplers && i < 16; i++) {
		int unit = f->samplers[i].unit, w, h;
		if (unit < 0 || unit >= 16)
			continue;
		float *face;
		assert_true(builtin_texture(unit % 2 ? "checker" : "gradient", &w, &h, &face));
		/* a cube map gets the same image on its six faces */
		int faces = f->samplers[i].target == IR_TARGET_CUBE ? 6 : 1;
		t->texels[unit] = malloc(sizeof(float) * 4 * (size_t)(w * h * faces));
		assert_non_null(t->texels[unit]);
		for (int k = 0; k < faces; k++)
			memcpy(t->texels[unit] + (size_t)k * w * h * 4, face,
			       sizeof(float) * 4 * (size_t)(w * h));
		free(face);
		t->img[unit].target = f->samplers[i].target;
		t->img[unit].width = w;
		t->img[unit].height = h;
		t->img[unit].depth = 1;
		t->img[unit].texels = t->texels[unit];
		t->img[unit].filter = TEX_FILTER_NEAREST;
		t->img[unit].wrap = TEX_WRAP_REPEAT;
	}
}

static void textures_free(struct textures *t)
{
	for (int i = 0; i < 16; i++)
		free(t->texels[i]);
}

/* Reference image from the interpreter: out[output][pixel][comp]. */
static void run_interp(const struct ir_func *f, const struct textures *tex, float (*rt)[GRID * GRID][4],
		       bool *written, bool *discarded, struct diag_sink *diag)
{
	float(*ins)[4][4] = calloc((size_t)(f->ninputs ? f->ninputs : 1), sizeof *ins);
	const float(**in_ptrs)[4] = calloc((size_t)(f->ninputs ? f->ninputs : 1), sizeof *in_ptrs);
	float(*uni)[4] = calloc((size_t)(f->nuniform_vec4 ? f->nuniform_vec4 : 1), sizeof *uni);
	assert_non_null(ins);
	assert_non_null(in_ptrs);
	assert_non_null(uni);
	test_ir_uniforms(f, uni);
	for (int i = 0; i < f->ninputs; i++)
		in_ptrs[i] = ins[i];
	for (int qy = 0; qy < GRID; qy += 2) {
		for (int qx = 0; qx < GRID; qx += 2) {
			for (int i = 0; i < f->ninputs; i++)
				for (int p = 0; p < 4; p++)
					input_value(f->inputs[i].name, qx + (p & 1), qy + (p >> 1),
						    ins[i][p]);
			struct ir_interp_env env = { 0 };
			env.inputs = in_ptrs;
			env.uniform_values = (const float(*)[4])uni;
			env.textures = tex->img;
			env.ntextures = 16;
			for (int p = 0; p < 4; p++)
				env.covered[p] = true;
			struct ir_interp_result res;
			memset(&res, 0, sizeof res);
			assert_true(ir_interp_quad(f, &env, &res, diag));
			for (int p = 0; p < 4; p++) {
				int idx = (qy + (p >> 1)) * GRID + qx + (p & 1);
				discarded[idx] = res.discarded[p];
				for (int o = 0; o < f->noutputs && o < IR_INTERP_MAX_OUTPUTS; o++) {
					written[o] = written[o] || res.written[o];
					memcpy(rt[o][idx], res.outputs[o][p], sizeof rt[o][idx]);
				}
			}
		}
	}
	free(ins);
	free(in_ptrs);
	free(uni);
}

static bool close_enough(float ref, float got, double tol, double *err)
{
	if (isnan(ref) && isnan(got))
		return true;
	double e = fabs((double)ref - (double)got) / fmax(1.0, fabs((double)ref));
	if (e > *err)
		*err = e;
	return e <= tol;
}

static void compare(const char *path, int opt_level, struct ir_func *ref,
		    const struct r500_program *loaded, struct arena *arena,
		    struct diag_sink *diag);

/* Compiles and compares one shader at one optimization level. */
static void check_shader(const char *path, int opt_level)
{
	char *src = test_read_file(path);
	assert_non_null(src);
	struct arena *arena = arena_create(NULL);
	struct diag_sink diag;
	diag_init(&diag, arena);
	struct glsl_options opts = { .stage = GLSL_STAGE_FRAGMENT };

	struct ir_func *ref = glsl_to_ir(src, path, &opts, arena, &diag);
	if (!ref)
		fail_msg("%s: frontend failed:\n%s", path, diag_render(&diag));

	/* compiled by the library, through the container, as a driver gets it */
	struct uscc_options *uo = uscc_options_create(NULL);
	assert_non_null(uo);
	assert_int_equal(uscc_options_set_filename(uo, path), USCC_OK);
	assert_int_equal(uscc_options_set_opt_level(uo, opt_level), USCC_OK);
	struct uscc_result *res = NULL;
	if (uscc_compile(uo, src, USCC_NUL_TERMINATED, &res) != USCC_OK)
		fail_msg("%s -O%d: compile failed:\n%s", path, opt_level,
			 res ? uscc_result_diagnostics(res) : "(no result)");
	size_t size = 0;
	const void *bin = uscc_result_data(res, &size);
	assert_non_null(bin);
	struct r500_program loaded;
	char why[256];
	if (!container_read(bin, size, arena, &loaded, why, sizeof why))
		fail_msg("%s: container does not read back: %s", path, why);
	uscc_result_destroy(res);
	uscc_options_destroy(uo);
	compare(path, opt_level, ref, &loaded, arena, &diag);
	arena_destroy(arena);
	free(src);
}

/* The emulator's run of `loaded` against the interpreter's of ref. */
static void compare(const char *path, int opt_level, struct ir_func *ref,
		    const struct r500_program *loaded, struct arena *arena, struct diag_sink *diag)
{
	char why[256];
	struct textures tex;
	textures_make(&tex, ref);
	static float rt_ref[IR_INTERP_MAX_OUTPUTS][GRID * GRID][4];
	bool written[IR_INTERP_MAX_OUTPUTS] = { false }, disc_ref[GRID * GRID];
	run_interp(ref, &tex, rt_ref, written, disc_ref, diag);

	struct emu_uniform unis[MAX_UNIFORMS];
	int nunis = test_emu_uniforms(ref, arena, unis, MAX_UNIFORMS);
	struct emu_config cfg = { .width = GRID, .height = GRID, .uniforms = unis,
				  .nuniforms = nunis, .textures = tex.img, .ntextures = 16 };
	struct emu_image img;
	memset(&img, 0, sizeof img);
	if (!emu_run(loaded, &cfg, &img, why, sizeof why))
		fail_msg("%s -O%d: emulator fault: %s", path, opt_level, why);
	if (img.warnings && *img.warnings)
		fail_msg("%s -O%d: emulator hazard warnings:\n%s", path, opt_level, img.warnings);

	double tol = uses_transcendentals(ref) ? 2e-4 : 1e-5, worst = 0;
	int compared = 0, bad = 0;
	char first[512] = "";
	for (int o = 0; o < ref->noutputs && o < IR_INTERP_MAX_OUTPUTS; o++) {
		if (!written[o])
			continue;
		int target = ref->outputs[o].target;
		for (int i = 0; i < GRID * GRID; i++) {
			if (disc_ref[i] != img.discarded[i]) {
				bad++;
				continue;
			}
			if (disc_ref[i])
				continue;
			for (int c = 0; c < ref->outputs[o].ncomp; c++) {
				float got = target < 0 ? img.depth[i] : img.rt[target][i * 4 + c];
				compared++;
				if (!close_enough(rt_ref[o][i][c], got, tol, &worst)) {
					if (!bad++)
						snprintf(first, sizeof first,
							 "%s pixel (%d,%d) comp %d: ref %.9g emu %.9g",
							 ref->outputs[o].name, i % GRID, i / GRID, c,
							 rt_ref[o][i][c], got);
				}
				if (target < 0)
					break;
			}
		}
	}
	print_message("%-32s -O%d  %5d components, worst rel. error %.2e (bound %.0e)\n",
		      strrchr(path, '/') ? strrchr(path, '/') + 1 : path, opt_level, compared,
		      worst, tol);
	if (bad)
		fail_msg("%s -O%d: %d mismatches; first: %s\n%s", path, opt_level, bad, first,
			 r500_program_listing(loaded, arena));
	assert_true(compared > 0);
	emu_image_free(&img);
	textures_free(&tex);
}

static void run_dir(const char *dir, int opt_level, int *count)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", USCC_SOURCE_DIR, dir);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	char *names[MAX_SHADERS];
	int n = 0;
	while ((e = readdir(d)) && n < MAX_SHADERS) {
		const char *dot = strrchr(e->d_name, '.');
		if (dot && (strcmp(dot, ".frag") == 0 || strcmp(dot, ".fs") == 0))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s/%s", USCC_SOURCE_DIR, dir, names[i]);
		check_shader(path, opt_level);
		free(names[i]);
		(*count)++;
	}
}

/* An IR text fixture of the backend's (tests/backend/fixtures: the local
 * array ones) compiled by the backend alone, as the IR passes leave it. */
static void check_ir_fixture(const char *name, int opt_level)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/backend/fixtures/%s.ir", USCC_SOURCE_DIR, name);
	char *text = test_read_file(path);
	assert_non_null(text);
	struct arena *arena = arena_create(NULL);
	struct diag_sink diag;
	diag_init(&diag, arena);
	struct ir_func *ref = ir_parse(text, path, arena, &diag);
	if (!ref)
		fail_msg("%s: does not parse:\n%s", path, diag_render(&diag));
	struct r500_compile_options o = { .opt_level = opt_level, .validate = true };
	struct r500_program *p = r500_compile(ref, &o, arena, &diag);
	if (!p)
		fail_msg("%s -O%d: compile failed:\n%s", path, opt_level, diag_render(&diag));
	compare(path, opt_level, ref, p, arena, &diag);
	arena_destroy(arena);
	free(text);
}

static const char *const ir_fixtures[] = { "array_loop_rel", "array_read", "array_write",
					   "array_carried", "array_out_of_bounds",
					   "array_store_then_load", "array_nested_step",
					   "array_forward", "array_random_38", "array_random_88",
					   "array_random_143", "array_random_245",
					   "array_uniform_bound", "array_random_874",
					   "array_counter_chain", "array_two_counters",
					   "array_prev_element" };

static void test_ir_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof ir_fixtures / sizeof *ir_fixtures; i++) {
		check_ir_fixture(ir_fixtures[i], 0);
		check_ir_fixture(ir_fixtures[i], 2);
	}
}

static void test_samples_O0(void **state)
{
	(void)state;
	int n = 0;
	run_dir("samples", 0, &n);
	assert_true(n >= 8);
}

static void test_samples_O2(void **state)
{
	(void)state;
	int n = 0;
	run_dir("samples", 2, &n);
	assert_true(n >= 8);
}

static void test_shaders_O0(void **state)
{
	(void)state;
	int n = 0;
	run_dir("tests/shaders", 0, &n);
	assert_true(n > 0);
}

static void test_shaders_O2(void **state)
{
	(void)state;
	int n = 0;
	run_dir("tests/shaders", 2, &n);
	assert_true(n > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_O0),
		cmocka_unit_test(test_samples_O2),
		cmocka_unit_test(test_shaders_O0),
		cmocka_unit_test(test_shaders_O2),
		cmocka_unit_test(test_ir_fixtures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
