/* End-to-end checks of the backend's flow control and late additions:
 * every IR fixture in tests/runtime/fixtures/backend_cf/ is compiled by
 * r500_compile (as parsed, and after ir_optimize at -O2), sent through the
 * container, run in the emulator over a 16x16 grid and compared with
 * ir_interp_quad on the same inputs.
 *
 * A fixture's comment lines may state what the code must contain:
 *   ; expect fc        the program has flow-control instructions
 *   ; expect no-fc     it has none (if-converted)
 *   ; expect loop      US_FC_INT_CONST_0 is set to {255, 0, 0}
 *
 * Inputs: a varying is (u, v, 2u - 1, 2v - 1) at the pixel centre (u, v
 * in (0, 1)), gl_FragCoord the pixel centre; uniform component k of a
 * uniform is a fixed hash of its name and k in [0.1, 0.9]; texture unit k
 * is the built-in "gradient" (even k) or "checker" (odd k).  Tolerance:
 * 1e-5 relative (absolute near 0), 2e-4 with transcendentals (see
 * test_differential.c for why), 1e-4 absolute for the inverse
 * trigonometric polynomials (their bound, isel.c). */
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
#include "ir_interp.h"
#include "ir_pass.h"
#include "r500_compile.h"
#include "test_emu_uniforms.h"

enum { GRID = 16, MAX_FIXTURES = 64, MAX_UNIFORMS = 256 };

static void input_value(const char *name, int x, int y, float out[4])
{
	float u = ((float)x + 0.5f) / GRID, v = ((float)y + 0.5f) / GRID;
	if (strcmp(name, "gl_FragCoord") == 0) {
		out[0] = (float)x + 0.5f, out[1] = (float)y + 0.5f, out[2] = 0.5f, out[3] = 1.0f;
	} else {
		out[0] = u, out[1] = v, out[2] = 2.0f * u - 1.0f, out[3] = 2.0f * v - 1.0f;
	}
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
		if (unit < 0 || unit >= 16 || t->texels[unit])
			continue;
		assert_true(builtin_texture(unit % 2 ? "checker" : "gradient", &w, &h,
					    &t->texels[unit]));
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

struct reference {
	float rt[8][GRID * GRID][4];
	bool written[8];
	bool discarded[GRID * GRID];
};

static void run_interp(const struct ir_func *f, const struct textures *tex, struct reference *r)
{
	int ni = f->ninputs ? f->ninputs : 1, nu = f->nuniform_vec4 ? f->nuniform_vec4 : 1;
	float(*ins)[4][4] = calloc((size_t)ni, sizeof *ins);
	const float(**in_ptrs)[4] = calloc((size_t)ni, sizeof *in_ptrs);
	float(*uni)[4] = calloc((size_t)nu, sizeof *uni);
	assert_true(ins && in_ptrs && uni);
	test_ir_uniforms(f, uni);
	for (int i = 0; i < f->ninputs; i++)
		in_ptrs[i] = ins[i];
	for (int qy = 0; qy < GRID; qy += 2)
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
			assert_true(ir_interp_quad(f, &env, &res, NULL));
			for (int p = 0; p < 4; p++) {
				int idx = (qy + (p >> 1)) * GRID + qx + (p & 1);
				r->discarded[idx] = res.discarded[p];
				for (int o = 0; o < f->noutputs && o < 8; o++) {
					r->written[o] |= res.written[o];
					memcpy(r->rt[o][idx], res.outputs[o][p], sizeof r->rt[o][idx]);
				}
			}
		}
	free(ins);
	free(in_ptrs);
	free(uni);
}

static bool has_op(const struct ir_func *f, const enum ir_op *ops, int n);

struct op_find {
	const enum ir_op *ops;
	int n;
	bool found;
};

static void find_op(struct ir_instr *in, void *ud)
{
	struct op_find *q = ud;
	for (int i = 0; i < q->n; i++)
		q->found |= in->op == q->ops[i];
}

static bool has_op(const struct ir_func *f, const enum ir_op *ops, int n)
{
	struct op_find q = { ops, n, false };
	ir_foreach_instr((struct ir_func *)f, find_op, &q);
	return q.found;
}

static double tolerance(const struct ir_func *f, bool *absolute)
{
	static const enum ir_op inv[] = { IR_OP_ASIN, IR_OP_ACOS, IR_OP_ATAN, IR_OP_ATAN2 };
	static const enum ir_op trans[] = { IR_OP_SIN, IR_OP_COS, IR_OP_TAN, IR_OP_POW,
					    IR_OP_EXP2, IR_OP_LOG2 };
	*absolute = false;
	if (has_op(f, trans, 6))
		return 2e-4;
	if (has_op(f, inv, 4)) {
		*absolute = true;
		return 1e-4;
	}
	return 1e-5;
}

/* Compiles, runs and compares one fixture at one level. */
static void check_fixture(const char *path, const char *text, int opt_level)
{
	struct arena *arena = arena_create(&mem_default_allocator);
	struct diag_sink diag;
	diag_init(&diag, arena);
	struct ir_func *ref = ir_parse(text, path, arena, &diag);
	struct ir_func *f = ir_parse(text, path, arena, &diag);
	if (!ref || !f || !ir_validate(ref, &diag))
		fail_msg("%s: fixture does not parse:\n%s", path, diag_render(&diag));
	if (opt_level > 0) {
		struct ir_pass_ctx pctx;
		ir_pass_ctx_init(&pctx, &diag);
		pctx.validate = true;
		if (!ir_optimize(f, opt_level, &pctx))
			fail_msg("%s: ir_optimize failed:\n%s", path, diag_render(&diag));
	}
	struct r500_compile_options copts = { .opt_level = opt_level, .validate = true };
	struct r500_program *prog = r500_compile(f, &copts, arena, &diag);
	if (!prog)
		fail_msg("%s -O%d: backend failed:\n%s", path, opt_level, diag_render(&diag));
	if (strstr(text, "; expect fc") && prog->stats.fc == 0)
		fail_msg("%s -O%d: no flow control\n%s", path, opt_level,
			 r500_program_listing(prog, arena));
	if (strstr(text, "; expect no-fc") && prog->stats.fc != 0)
		fail_msg("%s -O%d: flow control where if-conversion was expected", path,
			 opt_level);
	if (strstr(text, "; expect loop")) {
		assert_true(prog->uses_fc);
		assert_true(prog->int_const_used & 1);
		assert_int_equal(prog->int_consts[0].count, 255);
		assert_int_equal(prog->int_consts[0].init, 0);
		assert_int_equal(prog->int_consts[0].step, 0);
	}

	size_t size = 0;
	uint8_t *bin = container_write(prog, &mem_default_allocator, &size);
	assert_non_null(bin);
	struct r500_program loaded;
	char why[256];
	if (!container_read(bin, size, arena, &loaded, why, sizeof why))
		fail_msg("%s: container does not read back: %s", path, why);
	free(bin);

	struct textures tex;
	textures_make(&tex, ref);
	static struct reference r;
	memset(&r, 0, sizeof r);
	run_interp(ref, &tex, &r);

	struct emu_uniform unis[MAX_UNIFORMS];
	int nunis;
	nunis = test_emu_uniforms(ref, arena, unis, MAX_UNIFORMS);
	/* (u, v, 2u - 1, 2v - 1) at the rectangle's corners BL, BR, TL, TR */
	struct emu_varying vary[16];
	int nvary = 0;
	for (int i = 0; i < ref->ninputs && nvary < 16; i++) {
		if (strcmp(ref->inputs[i].name, "gl_FragCoord") == 0)
			continue;
		struct emu_varying *ev = &vary[nvary++];
		ev->name = ref->inputs[i].name;
		for (int k = 0; k < 4; k++) {
			float u = (float)(k & 1), v = (float)(k >> 1);
			float c[4] = { u, v, 2 * u - 1, 2 * v - 1 };
			memcpy(ev->corners[k], c, sizeof c);
		}
	}
	struct emu_config cfg = { .width = GRID, .height = GRID, .varyings = vary,
				  .nvaryings = nvary, .uniforms = unis, .nuniforms = nunis,
				  .textures = tex.img, .ntextures = 16 };
	struct emu_image img;
	memset(&img, 0, sizeof img);
	if (!emu_run(&loaded, &cfg, &img, why, sizeof why))
		fail_msg("%s -O%d: emulator fault: %s\n%s", path, opt_level, why,
			 r500_program_listing(prog, arena));
	if (img.warnings && *img.warnings)
		fail_msg("%s -O%d: emulator hazard warnings:\n%s", path, opt_level, img.warnings);

	/* a fixture must exercise something: every written output varies */
	for (int o = 0; o < ref->noutputs && o < 8; o++) {
		bool varies = false;
		for (int i = 1; r.written[o] && i < GRID * GRID; i++)
			for (int c = 0; c < 4; c++)
				varies |= r.rt[o][i][c] != r.rt[o][0][c];
		if (r.written[o] && !varies)
			fail_msg("%s: output %s is the same at every pixel", path,
				 ref->outputs[o].name);
	}

	bool absolute;
	double tol = tolerance(ref, &absolute), worst = 0;
	int compared = 0, bad = 0;
	char first[512] = "";
	for (int o = 0; o < ref->noutputs && o < 8; o++) {
		if (!r.written[o])
			continue;
		int target = ref->outputs[o].target;
		int nc = target < 0 ? 1 : ref->outputs[o].ncomp;
		for (int i = 0; i < GRID * GRID; i++) {
			if (r.discarded[i] != img.discarded[i]) {
				if (!bad++)
					snprintf(first, sizeof first, "pixel (%d,%d): discard %d vs %d",
						 i % GRID, i / GRID, r.discarded[i], img.discarded[i]);
				continue;
			}
			if (r.discarded[i])
				continue;
			for (int c = 0; c < nc; c++) {
				float want = r.rt[o][i][c];
				float got = target < 0 ? img.depth[i] : img.rt[target][i * 4 + c];
				double e = fabs((double)want - (double)got);
				if (!absolute)
					e /= fmax(1.0, fabs((double)want));
				if (isnan(want) && isnan(got))
					e = 0;
				compared++;
				worst = e > worst ? e : worst;
				if (!(e <= tol) && !bad++)
					snprintf(first, sizeof first,
						 "%s pixel (%d,%d) comp %d: ref %.9g emu %.9g",
						 ref->outputs[o].name, i % GRID, i / GRID, c, want, got);
			}
		}
	}
	print_message("%-28s -O%d %5d components, worst error %.2e (bound %.0e), %d slots\n",
		      strrchr(path, '/') ? strrchr(path, '/') + 1 : path, opt_level, compared,
		      worst, tol, prog->ninst);
	if (bad)
		fail_msg("%s -O%d: %d mismatches; first: %s\n%s", path, opt_level, bad, first,
			 r500_program_listing(prog, arena));
	assert_true(compared > 0);
	emu_image_free(&img);
	textures_free(&tex);
	arena_destroy(arena);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_fixtures(int opt_level)
{
	char dir[1024], path[1200];
	snprintf(dir, sizeof dir, "%s/tests/runtime/fixtures/backend_cf", USCC_SOURCE_DIR);
	DIR *d = opendir(dir);
	assert_non_null(d);
	char *names[MAX_FIXTURES];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < MAX_FIXTURES) {
		const char *dot = strrchr(e->d_name, '.');
		if (dot && strcmp(dot, ".ir") == 0)
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof *names, cmp_names);
	assert_true(n >= 1);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		char *text = test_read_file(path);
		assert_non_null(text);
		check_fixture(path, text, opt_level);
		free(text);
		free(names[i]);
	}
}

static void test_fixtures_O0(void **state)
{
	(void)state;
	run_fixtures(0);
}

static void test_fixtures_O2(void **state)
{
	(void)state;
	run_fixtures(2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_O0),
		cmocka_unit_test(test_fixtures_O2),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
