/* util/texture: mip chains (level sizes, box filtering), lambda from the
 * derivatives (2D, 1D, 3D, RECT, cube faces, the larger of the two
 * directions), level selection by each mipmap filter, bias, clamping at
 * the last level and at partial chains, the magnification filter, and an
 * image without a chain sampling as it always did.  Expected values worked
 * out by hand. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "texture.h"

static const float RED[4] = { 1, 0, 0, 1 }, GREEN[4] = { 0, 1, 0, 1 },
		   BLUE[4] = { 0, 0, 1, 1 }, WHITE[4] = { 1, 1, 1, 1 };

/* piglit's `texture miptree`: 8x8 red, 4x4 green, 2x2 blue, 1x1 white. */
static float miptree_texels[(64 + 16 + 4 + 1) * 4];

static struct tex_image miptree(enum tex_filter f)
{
	const float *colour[4] = { RED, GREEN, BLUE, WHITE };
	float *t = miptree_texels;
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < (8 >> l) * (8 >> l); i++, t += 4)
			memcpy(t, colour[l], sizeof RED);
	return (struct tex_image){ .target = IR_TARGET_2D, .width = 8, .height = 8, .depth = 1,
				   .texels = miptree_texels, .filter = f,
				   .wrap = TEX_WRAP_REPEAT, .levels = 4 };
}

static void expect(const float got[4], float r, float g, float b, float a)
{
	const float want[4] = { r, g, b, a };
	for (int c = 0; c < 4; c++)
		if (fabsf(got[c] - want[c]) > 1e-6f)
			fail_msg("component %d: got %g, want %g", c, got[c], want[c]);
}

static void expect_colour(const float got[4], const float want[4])
{
	expect(got, want[0], want[1], want[2], want[3]);
}

static void at_lod(const struct tex_image *img, float lambda, float out[4])
{
	const float c[3] = { 0.3f, 0.6f, 0 };
	tex_sample_lod(img, c, lambda, out);
}

static void test_chain_sizes(void **state)
{
	(void)state;
	int s[3];
	assert_int_equal(tex_full_levels(IR_TARGET_2D, 8, 8, 1), 4);
	assert_int_equal(tex_full_levels(IR_TARGET_2D, 5, 3, 1), 3);
	assert_int_equal(tex_full_levels(IR_TARGET_2D, 1, 1, 1), 1);
	assert_int_equal(tex_full_levels(IR_TARGET_1D, 8, 64, 1), 4); /* width only */
	assert_int_equal(tex_full_levels(IR_TARGET_3D, 4, 2, 8), 4);
	assert_int_equal(tex_full_levels(IR_TARGET_RECT, 64, 64, 1), 1);
	assert_int_equal(tex_full_levels(IR_TARGET_2D, 0, 4, 1), 0);
	tex_level_size(IR_TARGET_2D, 5, 3, 1, 1, s);
	assert_true(s[0] == 2 && s[1] == 1 && s[2] == 1);
	tex_level_size(IR_TARGET_3D, 4, 2, 8, 2, s);
	assert_true(s[0] == 1 && s[1] == 1 && s[2] == 2);
	assert_int_equal(tex_chain_texels(IR_TARGET_2D, 8, 8, 1, 4), 85);
	assert_int_equal(tex_chain_texels(IR_TARGET_2D, 5, 3, 1, 3), 15 + 2 + 1);
	assert_int_equal(tex_chain_texels(IR_TARGET_CUBE, 4, 4, 1, 3), 6 * (16 + 4 + 1));
	assert_int_equal(tex_chain_texels(IR_TARGET_2D, 8, 8, 1, 0), 64); /* level 0 */
	assert_int_equal(tex_chain_texels(IR_TARGET_2D, 0, 8, 1, 1), -1);
}

static void test_box_filter(void **state)
{
	(void)state;
	/* 4x2, red channel 0..7 by texel: level 1 (2x1) averages 2x2 blocks,
	 * level 2 (1x1) the whole */
	float t[(8 + 2 + 1) * 4] = { 0 };
	for (int i = 0; i < 8; i++) {
		t[i * 4] = (float)i;
		t[i * 4 + 3] = 1;
	}
	tex_build_levels(IR_TARGET_2D, 4, 2, 1, 3, t);
	expect(&t[8 * 4], (0 + 1 + 4 + 5) / 4.0f, 0, 0, 1);
	expect(&t[9 * 4], (2 + 3 + 6 + 7) / 4.0f, 0, 0, 1);
	expect(&t[10 * 4], 3.5f, 0, 0, 1);
	/* odd side 5x1: level 1 (2x1) = {0,1}, {2,3,4}; level 2 the two */
	float u[(5 + 2 + 1) * 4] = { 0 };
	for (int i = 0; i < 5; i++)
		u[i * 4 + 1] = (float)i;
	tex_build_levels(IR_TARGET_2D, 5, 1, 1, 3, u);
	expect(&u[5 * 4], 0, 0.5f, 0, 0);
	expect(&u[6 * 4], 0, 3.0f, 0, 0);
	expect(&u[7 * 4], 0, 1.75f, 0, 0);
	/* a cube filters each face on its own */
	float c[6 * (4 + 1) * 4] = { 0 };
	for (int f = 0; f < 6; f++)
		for (int i = 0; i < 4; i++)
			c[(f * 4 + i) * 4 + 2] = (float)(f * 10 + i);
	tex_build_levels(IR_TARGET_CUBE, 2, 2, 1, 2, c);
	for (int f = 0; f < 6; f++)
		expect(&c[(24 + f) * 4], 0, 0, f * 10 + 1.5f, 0);
}

static void test_lambda(void **state)
{
	(void)state;
	struct tex_image img = miptree(TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	const float c[3] = { 0.5f, 0.5f, 0.5f };
	/* 2 texels per pixel: rho 2 */
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 0.25f, 0, 0 },
				      (float[3]){ 0, 0.25f, 0 }), 1.0f, 1e-6);
	/* the larger direction wins: 4 texels along x */
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 0.5f, 0, 0 },
				      (float[3]){ 0, 0.125f, 0 }), 2.0f, 1e-6);
	/* length, not the largest component: (3, 4) texels -> 5 */
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 0.375f, 0.5f, 0 },
				      (float[3]){ 0, 0, 0 }), (float)log2(5.0), 1e-6);
	/* 1:1 is lambda 0, no movement -inf; r is no 2D coordinate */
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 0.125f, 0, 9 },
				      (float[3]){ 0, 0.125f, 9 }), 0.0f, 1e-6);
	assert_true(isinf(tex_lambda(&img, c, (float[3]){ 0, 0, 0 }, (float[3]){ 0, 0, 0 })));
	assert_true(tex_lambda(&img, c, (float[3]){ 0, 0, 0 }, (float[3]){ 0, 0, 0 }) < 0);
	/* 1D: s only; RECT: derivatives already in texels */
	img.target = IR_TARGET_1D;
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 0.5f, 8, 8 },
				      (float[3]){ 0, 8, 8 }), 2.0f, 1e-6);
	img.target = IR_TARGET_RECT;
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 8, 0, 0 },
				      (float[3]){ 0, 1, 0 }), 3.0f, 1e-6);
	/* 3D: r scaled by the depth */
	img.target = IR_TARGET_3D;
	img.depth = 16;
	assert_float_equal(tex_lambda(&img, c, (float[3]){ 0, 0, 0.5f },
				      (float[3]){ 0, 0, 0 }), 3.0f, 1e-6);
	assert_float_equal(tex_lambda(NULL, c, (float[3]){ 1, 1, 1 }, (float[3]){ 1, 1, 1 }),
			   0.0f, 0);
}

static void test_lambda_cube(void **state)
{
	(void)state;
	struct tex_image img = miptree(TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	img.target = IR_TARGET_CUBE;
	/* +X face, s = (-z / x + 1) / 2: dz = -1 moves s by 1/2, 4 texels */
	const float px[3] = { 1, 0, 0 };
	assert_float_equal(tex_lambda(&img, px, (float[3]){ 0, 0, -1 }, (float[3]){ 0, 0, 0 }),
			   2.0f, 1e-6);
	/* t = (-y / x + 1) / 2 at y = 0.5: moving x by 1 moves t by
	 * (0 * 1 - (-0.5) * 1) / 2 = 1/4: 2 texels */
	const float q[3] = { 1, 0.5f, 0 };
	assert_float_equal(tex_lambda(&img, q, (float[3]){ 1, 0, 0 }, (float[3]){ 0, 0, 0 }),
			   1.0f, 1e-6);
	/* -Z face of a direction twice as long: half the movement */
	const float nz[3] = { 0, 0, -2 };
	assert_float_equal(tex_lambda(&img, nz, (float[3]){ 1, 0, 0 }, (float[3]){ 0, 0, 0 }),
			   1.0f, 1e-6);
	/* no major axis */
	const float zero[3] = { 0, 0, 0 };
	assert_float_equal(tex_lambda(&img, zero, (float[3]){ 1, 0, 0 }, (float[3]){ 0, 1, 0 }),
			   0.0f, 0);
}

static void test_nearest_mipmap_nearest(void **state)
{
	(void)state;
	struct tex_image img = miptree(TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	float o[4];
	static const struct { float lambda; const float *want; } cases[] = {
		{ -3, RED }, { 0, RED }, { 0.4f, RED }, { 0.5f, RED }, { 0.51f, GREEN },
		{ 1, GREEN }, { 1.49f, GREEN }, { 1.51f, BLUE }, { 2, BLUE }, { 2.6f, WHITE },
		{ 3, WHITE }, { 12, WHITE }, { INFINITY, WHITE }, { -INFINITY, RED },
		{ NAN, RED },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		at_lod(&img, cases[i].lambda, o);
		expect_colour(o, cases[i].want);
	}
	/* a partial chain clamps at its last level */
	img.levels = 2;
	at_lod(&img, 3, o);
	expect_colour(o, GREEN);
	/* more levels than a chain holds count as the chain */
	img.levels = 9;
	at_lod(&img, 20, o);
	expect_colour(o, WHITE);
}

static void test_mipmap_linear(void **state)
{
	(void)state;
	float o[4];
	for (int f = TEX_FILTER_NEAREST_MIPMAP_LINEAR; f <= TEX_FILTER_LINEAR_MIPMAP_LINEAR; f++) {
		struct tex_image img = miptree((enum tex_filter)f);
		at_lod(&img, 0.25f, o);          /* 3/4 red, 1/4 green */
		expect(o, 0.75f, 0.25f, 0, 1);
		at_lod(&img, 1.5f, o);           /* green and blue */
		expect(o, 0, 0.5f, 0.5f, 1);
		at_lod(&img, 2.75f, o);          /* blue and white */
		expect(o, 0.75f, 0.75f, 1, 1);
		at_lod(&img, 3.5f, o);           /* past the last level */
		expect_colour(o, WHITE);
		at_lod(&img, -1, o);             /* magnified */
		expect_colour(o, RED);
		img.levels = 3;                  /* clamped at level 2 */
		at_lod(&img, 2.5f, o);
		expect_colour(o, BLUE);
	}
}

/* A 4x4 image whose level 1 (2x2) has red 0, 1 / 2, 3 by texel and whose
 * level 0 is black; level 2 is white. */
static float ramp_texels[(16 + 4 + 1) * 4];

static struct tex_image ramp(enum tex_filter f, enum tex_mag mag)
{
	memset(ramp_texels, 0, sizeof ramp_texels);
	for (int i = 0; i < 21; i++)
		ramp_texels[i * 4 + 3] = 1;
	for (int i = 0; i < 4; i++)
		ramp_texels[(16 + i) * 4] = (float)i;
	for (int c = 0; c < 3; c++)
		ramp_texels[20 * 4 + c] = 1;
	return (struct tex_image){ .target = IR_TARGET_2D, .width = 4, .height = 4, .depth = 1,
				   .texels = ramp_texels, .filter = f, .wrap = TEX_WRAP_CLAMP,
				   .levels = 3, .mag = mag };
}

static void test_within_level_filter(void **state)
{
	(void)state;
	float o[4];
	/* (0.5, 0.5) is the corner of level 1's four texels: bilinear gives
	 * their mean, nearest texel (1, 1) */
	const float mid[3] = { 0.5f, 0.5f, 0 };
	struct tex_image img = ramp(TEX_FILTER_LINEAR_MIPMAP_NEAREST, TEX_MAG_AS_MIN);
	tex_sample_lod(&img, mid, 1, o);
	expect(o, 1.5f, 0, 0, 1);
	img = ramp(TEX_FILTER_NEAREST_MIPMAP_NEAREST, TEX_MAG_AS_MIN);
	tex_sample_lod(&img, mid, 1, o);
	expect(o, 3, 0, 0, 1);
	/* trilinear: halfway between level 1's mean and level 2's white */
	img = ramp(TEX_FILTER_LINEAR_MIPMAP_LINEAR, TEX_MAG_AS_MIN);
	tex_sample_lod(&img, mid, 1.5f, o);
	expect(o, 1.25f, 0.5f, 0.5f, 1);
	img = ramp(TEX_FILTER_NEAREST_MIPMAP_LINEAR, TEX_MAG_AS_MIN);
	tex_sample_lod(&img, mid, 1.5f, o);
	expect(o, 2, 0.5f, 0.5f, 1);
}

static void test_magnification_filter(void **state)
{
	(void)state;
	/* level 0 of the gradient: red = x / 3 */
	float t[16 * 4];
	for (int i = 0; i < 16; i++) {
		t[i * 4] = (float)(i % 4) / 3.0f;
		t[i * 4 + 1] = t[i * 4 + 2] = 0;
		t[i * 4 + 3] = 1;
	}
	struct tex_image img = { .target = IR_TARGET_2D, .width = 4, .height = 4, .depth = 1,
				 .texels = t, .wrap = TEX_WRAP_CLAMP };
	const float c[3] = { 0.5f, 0.5f, 0 };
	float o[4];
	/* the switch point is 0: lambda 0 magnifies, anything above minifies */
	img.filter = TEX_FILTER_NEAREST;
	img.mag = TEX_MAG_LINEAR;
	tex_sample_lod(&img, c, 0, o);
	expect(o, 0.5f, 0, 0, 1);
	tex_sample_lod(&img, c, 0.01f, o);
	expect(o, 2 / 3.0f, 0, 0, 1);
	img.filter = TEX_FILTER_LINEAR;
	img.mag = TEX_MAG_NEAREST;
	tex_sample_lod(&img, c, -2, o);
	expect(o, 2 / 3.0f, 0, 0, 1);
	tex_sample_lod(&img, c, 2, o);
	expect(o, 0.5f, 0, 0, 1);
	/* as the minification filter: its within-level part */
	img.mag = TEX_MAG_AS_MIN;
	img.filter = TEX_FILTER_LINEAR_MIPMAP_NEAREST;
	tex_sample_lod(&img, c, 0, o);
	expect(o, 0.5f, 0, 0, 1);
	img.filter = TEX_FILTER_NEAREST_MIPMAP_LINEAR;
	tex_sample_lod(&img, c, 0, o);
	expect(o, 2 / 3.0f, 0, 0, 1);
}

static void test_bias(void **state)
{
	(void)state;
	/* what a biased implicit lookup does: lambda from the derivatives,
	 * plus the bias, then selection */
	struct tex_image img = miptree(TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	const float c[3] = { 0.5f, 0.5f, 0 };
	const float dx[3] = { 0.125f, 0, 0 }, dy[3] = { 0, 0.125f, 0 }; /* 1:1 */
	const float dx4[3] = { 0.5f, 0, 0 }, dy4[3] = { 0, 0.5f, 0 };   /* 4:1 */
	float o[4];
	tex_sample_lod(&img, c, tex_lambda(&img, c, dx, dy), o);
	expect_colour(o, RED);
	tex_sample_lod(&img, c, tex_lambda(&img, c, dx, dy) + 1.0f, o);
	expect_colour(o, GREEN);
	tex_sample_lod(&img, c, tex_lambda(&img, c, dx4, dy4), o);
	expect_colour(o, BLUE);
	tex_sample_lod(&img, c, tex_lambda(&img, c, dx4, dy4) - 1.0f, o);
	expect_colour(o, GREEN);
	tex_sample_lod(&img, c, tex_lambda(&img, c, dx4, dy4) + 5.0f, o);
	expect_colour(o, WHITE);
	tex_sample_lod(&img, c, tex_lambda(&img, c, dx4, dy4) - 5.0f, o);
	expect_colour(o, RED);
}

static void test_single_level_unchanged(void **state)
{
	(void)state;
	/* no chain: every lambda samples level 0 as tex_sample does, with the
	 * image's one filter (a mipmap one filters within level 0) */
	float t[4 * 4 * 4];
	for (int i = 0; i < 16; i++) {
		t[i * 4] = (float)i / 15.0f;
		t[i * 4 + 1] = (float)(i * 7 % 16) / 15.0f;
		t[i * 4 + 2] = 0.25f;
		t[i * 4 + 3] = 1;
	}
	const float coords[][3] = { { 0.3f, 0.7f, 0 }, { -1.2f, 2.45f, 0 }, { 0.5f, 0.5f, 0 } };
	const float lambdas[] = { -100, -1, 0, 0.5f, 1, 3.7f, 100, INFINITY, NAN };
	for (int f = TEX_FILTER_NEAREST; f < TEX_FILTER_COUNT; f++) {
		struct tex_image img = { .target = IR_TARGET_2D, .width = 4, .height = 4,
					 .depth = 1, .texels = t, .filter = (enum tex_filter)f,
					 .wrap = TEX_WRAP_MIRROR };
		bool linear = f == TEX_FILTER_LINEAR || f == TEX_FILTER_LINEAR_MIPMAP_NEAREST ||
			      f == TEX_FILTER_LINEAR_MIPMAP_LINEAR;
		for (size_t k = 0; k < sizeof coords / sizeof coords[0]; k++) {
			struct tex_image base = img;
			base.filter = linear ? TEX_FILTER_LINEAR : TEX_FILTER_NEAREST;
			float want[4], got[4];
			tex_sample(&base, coords[k], want);
			for (size_t l = 0; l < sizeof lambdas / sizeof lambdas[0]; l++) {
				tex_sample_lod(&img, coords[k], lambdas[l], got);
				assert_memory_equal(got, want, sizeof want);
			}
		}
	}
	/* RECT images never use a chain */
	struct tex_image rect = miptree(TEX_FILTER_NEAREST_MIPMAP_NEAREST);
	rect.target = IR_TARGET_RECT;
	float o[4];
	tex_sample_lod(&rect, (float[3]){ 3, 3, 0 }, 3, o);
	expect_colour(o, RED);
	/* no image, no texels */
	tex_sample_lod(NULL, (float[3]){ 0, 0, 0 }, 1, o);
	expect(o, 0, 0, 0, 1);
}

static void test_cube_levels(void **state)
{
	(void)state;
	/* 2x2 faces, level 0 face k has red k/10; level 1 built from it */
	float t[6 * (4 + 1) * 4];
	for (int f = 0; f < 6; f++)
		for (int i = 0; i < 4; i++) {
			float *p = &t[(f * 4 + i) * 4];
			p[0] = (float)f / 10.0f;
			p[1] = (float)i;
			p[2] = 0;
			p[3] = 1;
		}
	tex_build_levels(IR_TARGET_CUBE, 2, 2, 1, 2, t);
	struct tex_image img = { .target = IR_TARGET_CUBE, .width = 2, .height = 2, .depth = 1,
				 .texels = t, .filter = TEX_FILTER_NEAREST_MIPMAP_NEAREST,
				 .levels = 2 };
	float o[4];
	/* -Y face (3), level 1: the mean of its texels' green 0..3 */
	tex_sample_lod(&img, (float[3]){ 0.1f, -1, 0.2f }, 1, o);
	expect(o, 0.3f, 1.5f, 0, 1);
	/* level 0 of the -Y face: s = x, t = -z -> (0.55, 0.4): texel (1, 0) */
	tex_sample_lod(&img, (float[3]){ 0.1f, -1, 0.2f }, 0, o);
	expect(o, 0.3f, 1, 0, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_sizes),
		cmocka_unit_test(test_box_filter),
		cmocka_unit_test(test_lambda),
		cmocka_unit_test(test_lambda_cube),
		cmocka_unit_test(test_nearest_mipmap_nearest),
		cmocka_unit_test(test_mipmap_linear),
		cmocka_unit_test(test_within_level_filter),
		cmocka_unit_test(test_magnification_filter),
		cmocka_unit_test(test_bias),
		cmocka_unit_test(test_single_level_unchanged),
		cmocka_unit_test(test_cube_levels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
