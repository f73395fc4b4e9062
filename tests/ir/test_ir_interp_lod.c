/* The IR interpreter's level of detail on piglit's miptree (8x8 red, 4x4
 * green, 2x2 blue, 1x1 white, nearest_mipmap_nearest): implicit from the
 * quad (coarse, pixel 1 - pixel 0 and pixel 2 - pixel 0, of the divided
 * coordinate for proj), bias added, an explicit LOD, explicit gradients
 * (grad, projgrad), pixels outside a branch still delivering their
 * coordinates, and no implicit derivatives in a vertex shader.  Expected values worked out by hand; the emulator's
 * counterpart is tests/runtime/test_emu_mip.c. */
#include "ir_test_util.h"

static struct arena *A;
static float texels[(64 + 16 + 4 + 1) * 4];
static struct tex_image img;

static int setup(void **state)
{
	(void)state;
	static const float colour[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 },
	};
	float *t = texels;
	for (int l = 0; l < 4; l++)
		for (int i = 0; i < (8 >> l) * (8 >> l); i++, t += 4)
			memcpy(t, colour[l], sizeof colour[l]);
	img = (struct tex_image){ .target = IR_TARGET_2D, .width = 8, .height = 8, .depth = 1,
				  .texels = texels, .filter = TEX_FILTER_NEAREST_MIPMAP_NEAREST,
				  .mag = TEX_MAG_NEAREST, .wrap = TEX_WRAP_REPEAT, .levels = 4 };
	A = arena_create(&mem_default_allocator);
	return A ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	arena_destroy(A);
	return 0;
}

enum { RED, GREEN, BLUE, WHITE };
static const float colours[4][4] = {
	{ 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 },
};

/* Runs `code` (which defines %9, the colour) with input #0 per pixel
 * (S px q, S py q, z, q) and expects `want` at every pixel. */
static void run(const char *stage, const char *code, float S, float z, float q, int want)
{
	float v[4][4];
	const float (*ptrs[1])[4] = { v };
	for (int p = 0; p < 4; p++) {
		v[p][0] = S * (float)(p & 1) * q;
		v[p][1] = S * (float)(p >> 1) * q;
		v[p][2] = z;
		v[p][3] = q;
	}
	struct ir_interp_env env = { .inputs = ptrs, .textures = &img, .ntextures = 1,
				     .covered = { true, true, true, true } };
	const char *text = arena_printf(A, "stage %s\ninput #0 \"v\" f4\n"
				       "sampler #0 \"s\" 2d unit=0\n"
				       "output #0 \"o\" f4 target=0\n"
				       "%%1 = input.f4 #0\n%s\noutput #0 %%9.xyzw\n",
				       stage, code);
	struct ir_func *f = parse_ok(A, text);
	validate_ok(A, f);
	struct diag_sink d;
	struct ir_interp_result res;
	diag_init(&d, A);
	if (!ir_interp_quad(f, &env, &res, &d)) {
		print_error("%s\n", diag_render(&d));
		fail_msg("interpreter failed");
	}
	for (int p = 0; p < 4; p++)
		for (int c = 0; c < 4; c++)
			if (res.outputs[0][p][c] != colours[want][c]) {
				print_error("%s (S %g): pixel %d comp %d: %g, want %g\n", code, S, p,
					    c, res.outputs[0][p][c], colours[want][c]);
				fail();
			}
}

static const char *const plain = "%9 = tex.f4 #0 plain %1.xy";
static const char *const proj = "%9 = tex.f4 #0 proj %1.xyzw";
static const char *const bias = "%9 = tex.f4 #0 bias %1.xy, %1.z";
static const char *const lod = "%9 = tex.f4 #0 lod %1.xy, %1.z";
static const char *const projlod = "%9 = tex.f4 #0 projlod %1.xyzw, %1.z";

static void test_implicit(void **state)
{
	(void)state;
	/* the coordinate moves S a pixel: rho = 8 S texels */
	run("fragment", plain, 0.0625f, 0, 1, RED);   /* lambda -1 */
	run("fragment", plain, 0.125f, 0, 1, RED);    /* 0 */
	run("fragment", plain, 0.25f, 0, 1, GREEN);   /* 1 */
	run("fragment", plain, 0.5f, 0, 1, BLUE);     /* 2 */
	run("fragment", plain, 1, 0, 1, WHITE);       /* 3 */
	run("fragment", plain, 16, 0, 1, WHITE);      /* 7: the last level */
	/* proj: the derivatives of the divided coordinate */
	run("fragment", proj, 0.25f, 0, 4, GREEN);
	run("fragment", proj, 0.5f, 0, 0.25f, BLUE);
}

static void test_bias_and_lod(void **state)
{
	(void)state;
	run("fragment", bias, 0.25f, 1, 1, BLUE);     /* 1 + 1 */
	run("fragment", bias, 0.5f, -1.25f, 1, GREEN); /* 2 - 1.25 */
	run("fragment", bias, 0.5f, -3, 1, RED);
	run("fragment", lod, 16, 1, 1, GREEN);        /* the LOD alone */
	run("fragment", lod, 0.0625f, 2, 1, BLUE);
	run("fragment", lod, 1, -1, 1, RED);
	run("fragment", projlod, 16, 3, 2, WHITE);
}

/* Gradients: src1 = dPdx, src2 = dPdy (normalized), whatever the quad
 * does; projgrad divides the coordinate, not the gradients. */
static void test_gradients(void **state)
{
	(void)state;
	const char *grad = "%2 = const.f2 0.25 0\n%3 = const.f2 0 0.0625\n"
			   "%9 = tex.f4 #0 grad %1.xy, %2.xy, %3.xy";
	run("fragment", grad, 16, 0, 1, GREEN);        /* 2 texels */
	run("fragment", grad, 0, 0, 1, GREEN);
	const char *big = "%2 = const.f2 0.3 0.4\n%3 = const.f2 0 0\n"
			  "%9 = tex.f4 #0 grad %1.xy, %2.xy, %3.xy";
	run("fragment", big, 0, 0, 1, BLUE);           /* |(2.4, 3.2)| = 4 texels */
	const char *projgrad = "%2 = const.f2 0.5 0\n%3 = const.f2 0 0.5\n"
			       "%9 = tex.f4 #0 projgrad %1.xyzw, %2.xy, %3.xy";
	run("fragment", projgrad, 0.0625f, 0, 4, BLUE);
	/* a vertex shader takes gradients too */
	run("vertex", grad, 0, 0, 1, GREEN);
}

/* A lookup inside a branch only pixel 3 takes: pixels 0, 1 and 2 deliver
 * the coordinates they have (computed before the branch). */
static void test_inactive_neighbours(void **state)
{
	(void)state;
	run("fragment",
	    "%2 = const.f1 0.1\n"
	    "%3 = lt.b1 %2.x, %1.y\n"              /* py > 0 ... */
	    "%4 = lt.b1 %2.x, %1.x\n"              /* ... and px > 0 */
	    "%5 = and.b1 %3.x, %4.x\n"
	    "%6 = const.f4 0 0 0 0\n"
	    "if %5.x {\n"
	    "  %7 = tex.f4 #0 plain %1.xy\n"
	    "}\n"
	    "%8 = phi.f4 %7.xyzw, %6.xyzw\n"
	    "%10 = const.f4 0 0 1 1\n"            /* blue elsewhere */
	    "%9 = select.f4 %5.xxxx, %8.xyzw, %10.xyzw",
	    0.5f, 0, 1, BLUE);
}

/* No quad derivatives outside fragment shaders: lambda 0 unless a LOD. */
static void test_vertex_stage(void **state)
{
	(void)state;
	run("vertex", plain, 16, 0, 1, RED);
	run("vertex", lod, 16, 2, 1, BLUE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_implicit),
		cmocka_unit_test(test_bias_and_lod),
		cmocka_unit_test(test_gradients),
		cmocka_unit_test(test_inactive_neighbours),
		cmocka_unit_test(test_vertex_stage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
