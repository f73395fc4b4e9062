/* Mip chains as the renderers load them (runtime/run_args.c): --filter
 * MIN[,MAG] with every GL filter name, the built-in miptree's own levels,
 * chains box-filtered from a single image (a PNG with odd sides, the
 * gradient) under a mipmap filter only, laid out per target (cube: six
 * faces a level; 1D: row 0 of each; RECT: one level). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ir.h"
#include "png_io.h"
#include "run_args.h"

/* Parses "prog --filter SPEC f"; returns the status. */
static enum run_parse parse_filter(struct run_opts *o, const char *spec, char *why, size_t n)
{
	char a[3][64] = { "prog", "--filter", "" };
	snprintf(a[2], sizeof a[2], "%s", spec);
	char f[] = "f";
	char *argv[] = { a[0], a[1], a[2], f };
	return run_args_parse(o, "prog", 4, argv, NULL, NULL, why, n);
}

static void test_filter_option(void **state)
{
	(void)state;
	static struct run_opts o;
	char why[256];
	static const struct {
		const char *spec;
		int unit, filter, mag;
	} good[] = {
		{ "0=nearest", 0, TEX_FILTER_NEAREST, TEX_MAG_AS_MIN },
		{ "1=linear", 1, TEX_FILTER_LINEAR, TEX_MAG_AS_MIN },
		{ "2=nearest_mipmap_nearest", 2, TEX_FILTER_NEAREST_MIPMAP_NEAREST, TEX_MAG_AS_MIN },
		{ "3=linear_mipmap_nearest", 3, TEX_FILTER_LINEAR_MIPMAP_NEAREST, TEX_MAG_AS_MIN },
		{ "4=nearest_mipmap_linear", 4, TEX_FILTER_NEAREST_MIPMAP_LINEAR, TEX_MAG_AS_MIN },
		{ "15=linear_mipmap_linear", 15, TEX_FILTER_LINEAR_MIPMAP_LINEAR, TEX_MAG_AS_MIN },
		{ "5=nearest_mipmap_nearest,linear", 5, TEX_FILTER_NEAREST_MIPMAP_NEAREST,
		  TEX_MAG_LINEAR },
		{ "6=linear,nearest", 6, TEX_FILTER_LINEAR, TEX_MAG_NEAREST },
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_int_equal(parse_filter(&o, good[i].spec, why, sizeof why), RUN_PARSE_OK);
		assert_int_equal(o.filter[good[i].unit], good[i].filter);
		assert_int_equal(o.mag[good[i].unit], good[i].mag);
	}
	static const char *const bad[] = {
		"0=cubic", "0=nearest,", "0=linear,linear_mipmap_linear", "0=,linear", "16=linear",
		"0=nearest_mipmap", "0=linear,nearest,linear", "=linear",
		"0=linear_mipmap_linear_mipmap_linear_mipmap_linear_mipmap_linear",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(parse_filter(&o, bad[i], why, sizeof why), RUN_PARSE_ERROR);
		assert_non_null(strstr(why, "bad filter"));
	}
}

static void load_ok(struct run_textures *t, const struct run_opts *o, const int *target)
{
	char why[512];
	if (!run_textures_load(t, o, target, why, sizeof why))
		fail_msg("%s", why);
}

static void test_miptree_and_built_chains(void **state)
{
	(void)state;
	static struct run_opts o;
	memset(&o, 0, sizeof o);
	o.prog = "prog";
	o.tex_spec[0] = "miptree";
	o.tex_spec[1] = "gradient";                     /* nearest: one level */
	o.tex_spec[2] = "gradient";
	o.filter[2] = TEX_FILTER_LINEAR_MIPMAP_LINEAR;
	o.mag[2] = TEX_MAG_NEAREST;
	o.tex_spec[3] = "checker";
	o.filter[3] = TEX_FILTER_NEAREST_MIPMAP_NEAREST;
	struct run_textures t;
	load_ok(&t, &o, NULL);
	/* the miptree keeps its four levels whatever the filter */
	assert_int_equal(t.img[0].levels, 4);
	const float *white = t.img[0].texels + (64 + 16 + 4) * 4;
	assert_true(white[0] == 1 && white[1] == 1 && white[2] == 1 && white[3] == 1);
	assert_true(t.img[0].texels[(64 + 16) * 4 + 2] == 1);     /* level 2 blue */
	assert_int_equal(t.img[1].levels, 1);
	/* 16x16 -> 5 levels; the last averages the whole gradient */
	assert_int_equal(t.img[2].levels, 5);
	assert_int_equal(t.img[2].filter, TEX_FILTER_LINEAR_MIPMAP_LINEAR);
	assert_int_equal(t.img[2].mag, TEX_MAG_NEAREST);
	const float *last = t.img[2].texels + (256 + 64 + 16 + 4) * 4;
	assert_float_equal(last[0], 0.5f, 1e-6);
	assert_float_equal(last[1], 0.5f, 1e-6);
	assert_float_equal(last[2], 0.5f, 1e-6);
	/* level 1 texel (0, 0): the mean of texels (0..1, 0..1) */
	assert_float_equal(t.img[2].texels[256 * 4], 1.0f / 16, 1e-6);
	/* the checker's 2x2 blocks average to grey */
	assert_int_equal(t.img[3].levels, 4);
	assert_float_equal(t.img[3].texels[64 * 4], 0.5f, 1e-6);
	run_textures_free(&t);
}

static void test_targets(void **state)
{
	(void)state;
	static struct run_opts o;
	memset(&o, 0, sizeof o);
	o.prog = "prog";
	int target[RUN_UNITS];
	for (int u = 0; u < RUN_UNITS; u++) {
		target[u] = IR_TARGET_2D;
		o.filter[u] = TEX_FILTER_NEAREST_MIPMAP_NEAREST;
	}
	o.tex_spec[0] = "miptree";
	target[0] = IR_TARGET_CUBE;
	o.tex_spec[1] = "gradient";
	target[1] = IR_TARGET_CUBE;
	o.tex_spec[2] = "gradient";
	target[2] = IR_TARGET_1D;
	o.tex_spec[3] = "miptree";
	target[3] = IR_TARGET_RECT;
	o.tex_spec[4] = "checker";
	target[4] = IR_TARGET_CUBE;
	o.filter[4] = TEX_FILTER_LINEAR;
	struct run_textures t;
	load_ok(&t, &o, target);
	/* cube: each level on six faces; level 1 (green) starts after 6 x 64 */
	assert_int_equal(t.img[0].levels, 4);
	for (int f = 0; f < 6; f++) {
		const float *g = t.img[0].texels + (6 * 64 + f * 16 + 15) * 4;
		assert_true(g[0] == 0 && g[1] == 1 && g[2] == 0);
	}
	const float *w = t.img[0].texels + (6 * (64 + 16 + 4) + 5) * 4;   /* -Z, level 3 */
	assert_true(w[0] == 1 && w[1] == 1 && w[2] == 1);
	/* a chain built per face: level 4 of face 3 is the gradient's mean */
	assert_int_equal(t.img[1].levels, 5);
	assert_float_equal(t.img[1].texels[(6 * (256 + 64 + 16 + 4) + 3) * 4], 0.5f, 1e-6);
	/* 1D: row 0 of the gradient, halved along s only */
	assert_int_equal(t.img[2].levels, 5);
	assert_int_equal(t.img[2].height, 1);
	assert_float_equal(t.img[2].texels[16 * 4], 1.0f / 16, 1e-6);     /* (0.5+1.5)/32 */
	assert_float_equal(t.img[2].texels[16 * 4 + 1], 0.5f / 16, 1e-6); /* row 0's t */
	/* RECT: one level */
	assert_int_equal(t.img[3].levels, 1);
	/* a cube without a mipmap filter: one level, six faces (as before) */
	assert_int_equal(t.img[4].levels, 1);
	assert_true(t.img[4].texels[(5 * 64 + 1) * 4] == 1.0f);
	run_textures_free(&t);
}

static void test_png_chain(void **state)
{
	(void)state;
	/* 5x3, red = x / 4, green = y / 2: level 1 is 2x1, level 2 1x1 */
	float img[15 * 4];
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 5; x++) {
			float *p = &img[(y * 5 + x) * 4];
			p[0] = (float)x / 4;
			p[1] = (float)y / 2;
			p[2] = 0;
			p[3] = 1;
		}
	char path[] = "/tmp/uscc-run-textures-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char why[256];
	assert_true(png_write_rgba(path, 5, 3, img, why, sizeof why));
	static struct run_opts o;
	memset(&o, 0, sizeof o);
	o.prog = "prog";
	o.tex_spec[0] = path;
	o.filter[0] = TEX_FILTER_NEAREST_MIPMAP_LINEAR;
	struct run_textures t;
	load_ok(&t, &o, NULL);
	unlink(path);
	assert_int_equal(t.img[0].levels, 3);
	/* level 1 (2x1): texel 0 averages columns 0..1, texel 1 columns 2..4
	 * (the odd one joins the last block), each over rows 0..2; level 2 the
	 * two.  Against the texels read back (8 bits a channel) */
	const float *l0 = t.img[0].texels, *l1 = l0 + 15 * 4, *l2 = l1 + 2 * 4;
	for (int c = 0; c < 4; c++) {
		double a = 0, b = 0;
		for (int y = 0; y < 3; y++)
			for (int x = 0; x < 5; x++)
				*(x < 2 ? &a : &b) += l0[(y * 5 + x) * 4 + c];
		assert_float_equal(l1[c], a / 6, 1e-6);
		assert_float_equal(l1[4 + c], b / 9, 1e-6);
		assert_float_equal(l2[c], (l1[c] + l1[4 + c]) / 2, 1e-6);
	}
	assert_float_equal(l1[0], 0.125f, 1.0 / 255);
	assert_float_equal(l1[4], 0.75f, 1.0 / 255);
	run_textures_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_option),
		cmocka_unit_test(test_miptree_and_built_chains),
		cmocka_unit_test(test_targets),
		cmocka_unit_test(test_png_chain),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
