/* The IR interpreter: every op's value (worked out by hand), inputs and
 * uniforms (with a runtime index), textures, derivatives, if/else with
 * PHIs, loops with break/continue, discard and the iteration limit. */
#include <math.h>
#include "ir_test_util.h"

static struct arena *A;

static int setup(void **state)
{
	(void)state;
	A = arena_create(&mem_default_allocator);
	return A ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	arena_destroy(A);
	return 0;
}

/* Constants the op cases read:
 *   %1 A = (1.5, -2, 0.25, 4)    %2 B = (2, 3, -0.5, 4)   %3 C = (0.5, 1, 2, -1)
 *   %4 D = (0, -0.75, 2.5, -3.5) %5 K = (-0.5, 1, 0, 2)   %6 E = (4, 0.25, 16, 1)
 *   %7 P = b(1, 0, 1, 0)         %8 Q = b(1, 1, 0, 0)     %9 H = (0, 0.5, 1, -1)
 *   %10 G = (0, pi/2, pi/4, -pi/6)  %11 I = (inf, 0, 0, 0) */
static const char *const consts =
	"output #0 \"o\" f4 target=0\n"
	"%1 = const.f4 1.5 -2 0.25 4\n"
	"%2 = const.f4 2 3 -0.5 4\n"
	"%3 = const.f4 0.5 1 2 -1\n"
	"%4 = const.f4 0 -0.75 2.5 -3.5\n"
	"%5 = const.f4 -0.5 1 0 2\n"
	"%6 = const.f4 4 0.25 16 1\n"
	"%7 = const.b4 1 0 1 0\n"
	"%8 = const.b4 1 1 0 0\n"
	"%9 = const.f4 0 0.5 1 -1\n"
	"%10 = const.f4 0 1.57079637 0.785398185 -0.52359879\n"
	"%11 = const.f4 inf 0 0 0\n";

struct op_case {
	const char *code;  /* defines %20 (and maybe %21), output source */
	const char *out;
	float want[4];
};

static const struct op_case op_cases[] = {
	{ "%20 = add.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { 3.5f, 1, -0.25f, 8 } },
	{ "%20 = sub.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { -0.5f, -5, 0.75f, 0 } },
	{ "%20 = mul.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { 3, -6, -0.125f, 16 } },
	{ "%20 = div.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { 0.75f, -2.0f / 3.0f, -0.5f, 1 } },
	{ "%20 = mad.f4 %1.xyzw, %2.xyzw, %3.xyzw", "%20.xyzw", { 3.5f, -5, 1.875f, 15 } },
	{ "%20 = neg.f4 %1.xyzw", "%20.xyzw", { -1.5f, 2, -0.25f, -4 } },
	{ "%20 = abs.f4 %1.xyzw", "%20.xyzw", { 1.5f, 2, 0.25f, 4 } },
	{ "%20 = sign.f4 %4.xyzw", "%20.xyzw", { 0, -1, 1, -1 } },
	{ "%20 = floor.f4 %4.xyzw", "%20.xyzw", { 0, -1, 2, -4 } },
	{ "%20 = ceil.f4 %4.xyzw", "%20.xyzw", { 0, 0, 3, -3 } },
	{ "%20 = fract.f4 %4.xyzw", "%20.xyzw", { 0, 0.25f, 0.5f, 0.5f } },
	{ "%20 = trunc.f4 %4.xyzw", "%20.xyzw", { 0, 0, 2, -3 } },
	{ "%20 = min.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { 1.5f, -2, -0.5f, 4 } },
	{ "%20 = max.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { 2, 3, 0.25f, 4 } },
	{ "%20 = clamp.f4 %4.xyzw, %5.xxxx, %5.yyyy", "%20.xyzw", { 0, -0.5f, 1, -0.5f } },
	{ "%20 = sat.f4 %1.xyzw", "%20.xyzw", { 1, 0, 0.25f, 1 } },
	{ "%20 = mix.f4 %1.xyzw, %2.xyzw, %3.xyzw", "%20.xyzw", { 1.75f, 3, -1.25f, 4 } },
	{ "%20 = step.f4 %1.xyzw, %2.xyzw", "%20.xyzw", { 1, 1, 0, 1 } },
	{ "%20 = rcp.f4 %1.xyzw", "%20.xyzw", { 2.0f / 3.0f, -0.5f, 4, 0.25f } },
	{ "%20 = rsq.f4 %6.xyzw", "%20.xyzw", { 0.5f, 2, 0.25f, 1 } },
	{ "%20 = sqrt.f4 %6.xyzw", "%20.xyzw", { 2, 0.5f, 4, 1 } },
	{ "%20 = exp2.f4 %1.xyzw", "%20.xyzw", { 2.8284271f, 0.25f, 1.1892071f, 16 } },
	{ "%20 = log2.f4 %6.xyzw", "%20.xyzw", { 2, -2, 4, 0 } },
	{ "%20 = pow.f4 %6.xyzw, %5.wwww", "%20.xyzw", { 16, 0.0625f, 256, 1 } },
	/* pow(0, 2) = 0, pow(0, 0) = 1, pow(-2, 2) undefined in GLSL: NaN */
	{ "%20 = pow.f4 %4.xxyx, %5.wzwz", "%20.xyzw", { 0, 1, NAN, 1 } },
	{ "%20 = sin.f4 %10.xyzw", "%20.xyzw", { 0, 1, 0.70710678f, -0.5f } },
	{ "%20 = cos.f4 %10.xyzw", "%20.xyzw", { 1, 0, 0.70710678f, 0.8660254f } },
	{ "%20 = tan.f4 %10.xzwx", "%20.xyzw", { 0, 1, -0.57735027f, 0 } },
	{ "%20 = asin.f4 %9.xyzw", "%20.xyzw", { 0, 0.52359878f, 1.5707963f, -1.5707963f } },
	{ "%20 = acos.f4 %9.xyzw", "%20.xyzw", { 1.5707963f, 1.0471976f, 0, 3.1415927f } },
	{ "%20 = atan.f4 %9.xyzw", "%20.xyzw", { 0, 0.46364761f, 0.78539816f, -0.78539816f } },
	{ "%20 = atan2.f4 %1.xyzw, %2.xyzw", "%20.xyzw",
	  { 0.64350111f, -0.5880026f, 2.6779451f, 0.78539816f } },
	{ "%20 = dot2.f1 %1.xy, %2.xy", "%20.xxxx", { -3, -3, -3, -3 } },
	{ "%20 = dot3.f1 %1.xyz, %2.xyz", "%20.xxxx", { -3.125f, -3.125f, -3.125f, -3.125f } },
	{ "%20 = dot4.f1 %1.xyzw, %2.xyzw", "%20.xxxx", { 12.875f, 12.875f, 12.875f, 12.875f } },
	{ "%21 = lt.b4 %1.xyzw, %2.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 1, 1, 0, 0 } },
	{ "%21 = ge.b4 %1.xyzw, %2.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 0, 0, 1, 1 } },
	{ "%21 = eq.b4 %1.xyzw, %2.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 0, 0, 0, 1 } },
	{ "%21 = ne.b4 %1.xyzw, %2.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 1, 1, 1, 0 } },
	{ "%21 = eq.b4 %7.xyzw, %8.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 1, 0, 0, 1 } },
	{ "%21 = and.b4 %7.xyzw, %8.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 1, 0, 0, 0 } },
	{ "%21 = or.b4 %7.xyzw, %8.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 1, 1, 1, 0 } },
	{ "%21 = xor.b4 %7.xyzw, %8.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 0, 1, 1, 0 } },
	{ "%21 = not.b4 %7.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 0, 1, 0, 1 } },
	{ "%21 = any.b1 %7.xyzw\n%22 = all.b1 %7.xyzw\n%23 = all.b1 %8.xx\n%24 = any.b1 %8.zw\n"
	  "%20 = vec.b4 %21.x, %22.x, %23.x, %24.x\n%25 = b2f.f4 %20.xyzw",
	  "%25.xyzw", { 1, 0, 1, 0 } },
	{ "%21 = f2b.b4 %4.xyzw\n%20 = b2f.f4 %21.xyzw", "%20.xyzw", { 0, 1, 1, 1 } },
	{ "%20 = select.f4 %7.xyzw, %1.xyzw, %2.xyzw", "%20.xyzw", { 1.5f, 3, 0.25f, 4 } },
	{ "%20 = vec.f4 %1.y, %2.x, %3.z, %4.w", "%20.xyzw", { -2, 2, 2, -3.5f } },
	{ "%20 = mov.f4 %1.wzyx", "%20.xyzw", { 4, 0.25f, -2, 1.5f } },
	/* ISA §12: 0 * anything = 0, also in MAD and dot products */
	{ "%20 = mul.f4 %11.xyzw, %4.xxxx", "%20.xyzw", { 0, 0, 0, 0 } },
	{ "%20 = mad.f4 %11.xxxx, %4.xxxx, %1.xyzw", "%20.xyzw", { 1.5f, -2, 0.25f, 4 } },
	{ "%20 = dot2.f1 %11.xy, %4.xx", "%20.xxxx", { 0, 0, 0, 0 } },
};

static bool close_to(float got, float want)
{
	if (isnan(want))
		return isnan(got);
	return fabsf(got - want) <= 2e-6f * (1.0f + fabsf(want));
}

static void run_text(const char *text, struct ir_interp_env *env, struct ir_interp_result *res)
{
	struct ir_func *f = parse_ok(A, text);
	validate_ok(A, f);
	struct diag_sink d;
	diag_init(&d, A);
	if (!ir_interp_quad(f, env, res, &d)) {
		print_error("%s\n", diag_render(&d));
		fail_msg("interpreter failed");
	}
}

static void test_ops(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof op_cases / sizeof op_cases[0]; i++) {
		const struct op_case *oc = &op_cases[i];
		char *text = arena_printf(A, "%s%s\noutput #0 %s\n", consts, oc->code, oc->out);
		struct ir_interp_env env = { 0 };
		struct ir_interp_result res;
		run_text(text, &env, &res);
		assert_true(res.written[0]);
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++)
				if (!close_to(res.outputs[0][p][c], oc->want[c])) {
					print_error("%s: pixel %d comp %d: %.9g, want %.9g\n", oc->code, p,
						    c, (double)res.outputs[0][p][c], (double)oc->want[c]);
					fail();
				}
	}
}

/* Input 0 per pixel: (3*px + 5*py, 7*px*py, p, 1) for pixels (0,0) (1,0)
 * (0,1) (1,1): x = 0, 3, 5, 8. */
struct quad_inputs {
	float v[4][4];
	const float (*ptrs[1])[4];
	struct ir_interp_env env;
};

static void quad_inputs_init(struct quad_inputs *q)
{
	memset(q, 0, sizeof *q);
	for (int p = 0; p < 4; p++) {
		int px = p & 1, py = p >> 1;
		q->v[p][0] = (float)(3 * px + 5 * py);
		q->v[p][1] = (float)(7 * px * py);
		q->v[p][2] = (float)p;
		q->v[p][3] = 1.0f;
	}
	q->ptrs[0] = q->v;
	q->env.inputs = q->ptrs;
	for (int p = 0; p < 4; p++)
		q->env.covered[p] = true;
}

static const char *const quad_header = "input #0 \"v\" f4\n"
				       "output #0 \"o\" f4 target=0\n"
				       "%1 = input.f4 #0\n";

static void expect_pixels(const struct ir_interp_result *res, int out, int comp,
			  const float want[4])
{
	for (int p = 0; p < 4; p++)
		if (!close_to(res->outputs[out][p][comp], want[p])) {
			print_error("pixel %d comp %d: %.9g, want %.9g\n", p, comp,
				    (double)res->outputs[out][p][comp], (double)want[p]);
			fail();
		}
}

static void test_inputs_and_derivatives(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	struct ir_interp_result res;
	run_text(arena_printf(A, "%s%s", quad_header,
			      "%2 = ddx.f2 %1.xy\n"
			      "%3 = ddy.f2 %1.xy\n"
			      "%4 = vec.f4 %2.x, %2.y, %3.x, %3.y\n"
			      "output #0 %4.xyzw\n"),
		 &q.env, &res);
	/* coarse: dFdx = p1 - p0 = (3, 0), dFdy = p2 - p0 = (5, 0) at every pixel,
	 * although p3 - p2 = (3, 7) in the top row */
	const float dx[4] = { 3, 3, 3, 3 }, dxy[4] = { 0, 0, 0, 0 }, dy[4] = { 5, 5, 5, 5 };
	expect_pixels(&res, 0, 0, dx);
	expect_pixels(&res, 0, 1, dxy);
	expect_pixels(&res, 0, 2, dy);
	expect_pixels(&res, 0, 3, dxy);
}

/* A division by 0 in pixel 0 marks only that pixel undefined, although
 * its output (a min with 1) is finite; the other pixels stay defined. */
static void test_undefined_pixels(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	struct ir_interp_result res;
	run_text(arena_printf(A, "%s%s", quad_header,
			      "%2 = div.f1 %1.w, %1.z\n"
			      "%3 = min.f1 %2.x, %1.w\n"
			      "%4 = vec.f4 %3.x, %3.x, %3.x, %3.x\n"
			      "output #0 %4.xyzw\n"),
		 &q.env, &res);
	const float want[4] = { 1, 1, 0.5f, 1.0f / 3.0f };
	expect_pixels(&res, 0, 0, want);
	assert_true(res.undefined[0]);
	assert_false(res.undefined[1] || res.undefined[2] || res.undefined[3]);
}

static void test_if_phi_discard(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	struct ir_interp_result res;
	run_text(arena_printf(A, "%s%s", quad_header,
			      "%2 = const.f4 4 1 2 0\n"
			      "%3 = lt.b1 %1.x, %2.x\n"  /* x < 4: pixels 0, 1 */
			      "if %3.x {\n"
			      "  %4 = add.f1 %1.x, %2.y\n" /* x + 1 */
			      "  %9 = ge.b1 %1.x, %2.y\n"  /* x >= 1: pixel 1 */
			      "  discard %9.x\n"
			      "} else {\n"
			      "  %5 = mul.f1 %1.x, %2.z\n" /* x * 2 */
			      "}\n"
			      "%6 = phi.f1 %4.x, %5.x\n"
			      "%7 = ne.b1 %1.x, %1.x\n"    /* never */
			      "discard %7.x\n"
			      "%8 = vec.f4 %6.x, %1.x, %1.z, %1.w\n"
			      "output #0 %8.xyzw\n"),
		 &q.env, &res);
	const float want[4] = { 1, 4, 10, 16 };
	expect_pixels(&res, 0, 0, want);
	assert_false(res.discarded[0]);
	assert_true(res.discarded[1]);
	assert_false(res.discarded[2]);
	assert_false(res.discarded[3]);

	run_text(arena_printf(A, "%s%s", quad_header, "discard\noutput #0 %1.xyzw\n"), &q.env,
		 &res);
	for (int p = 0; p < 4; p++)
		assert_true(res.discarded[p]);
}

/* for (i = 0; i < v.x; i++) { if (odd(i)) continue; s += i; }: per pixel
 * v.x = 0, 3, 5, 8 gives s = 0, 0+2, 0+2+4, 0+2+4+6. */
static void test_loop_break_continue(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	struct ir_interp_result res;
	run_text(arena_printf(A, "%s%s", quad_header,
			      "%2 = const.f4 0 1 0.5 0\n"
			      "loop {\n"
			      "  %3 = phi.f1 %2.x, %5.x, %5.x\n"   /* i: entry, end, continue */
			      "  %4 = phi.f1 %2.x, %8.x, %4.x\n"   /* s */
			      "  %10 = ge.b1 %3.x, %1.x\n"
			      "  if %10.x {\n"
			      "    break\n"
			      "  }\n"
			      "  %5 = add.f1 %3.x, %2.y\n"
			      "  %6 = mul.f1 %3.x, %2.z\n"
			      "  %7 = fract.f1 %6.x\n"
			      "  %11 = ne.b1 %7.x, %2.x\n"
			      "  if %11.x {\n"
			      "    continue\n"
			      "  }\n"
			      "  %8 = add.f1 %4.x, %3.x\n"
			      "}\n"
			      "%9 = phi.f1 %4.x\n"
			      "%12 = vec.f4 %9.x, %1.x, %1.x, %1.x\n"
			      "output #0 %12.xyzw\n"),
		 &q.env, &res);
	const float want[4] = { 0, 2, 6, 12 };
	expect_pixels(&res, 0, 0, want);
}

/* Two breaks: the PHI after the loop takes the value of the break each
 * pixel left through.  Break 0 when i >= 2 (and x > 4), break 1 when i >= x. */
static void test_loop_two_breaks(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	struct ir_interp_result res;
	run_text(arena_printf(A, "%s%s", quad_header,
			      "%2 = const.f4 0 1 2 4\n"
			      "%3 = const.f1 100\n"
			      "loop {\n"
			      "  %4 = phi.f1 %2.x, %5.x\n"
			      "  %5 = add.f1 %4.x, %2.y\n"
			      "  %6 = ge.b1 %4.x, %2.z\n"
			      "  %7 = lt.b1 %2.w, %1.x\n"
			      "  %8 = and.b1 %6.x, %7.x\n"
			      "  if %8.x {\n"
			      "    break\n"
			      "  }\n"
			      "  %9 = ge.b1 %4.x, %1.x\n"
			      "  if %9.x {\n"
			      "    break\n"
			      "  }\n"
			      "}\n"
			      "%10 = phi.f1 %3.x, %4.x\n"
			      "%11 = vec.f4 %10.x, %1.x, %1.x, %1.x\n"
			      "output #0 %11.xyzw\n"),
		 &q.env, &res);
	/* x = 0: second break at i=0 -> i = 0; x = 3: second at i=3 -> 3;
	 * x = 5, 8: first break at i = 2 -> 100 */
	const float want[4] = { 0, 3, 100, 100 };
	expect_pixels(&res, 0, 0, want);
}

static void test_loop_limit(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	q.env.max_iterations = 50;
	struct ir_func *f = parse_ok(A, arena_printf(A, "%s%s", quad_header,
						      "loop {\n  %2 = add.f4 %1.xyzw, %1.xyzw\n}\n"));
	validate_ok(A, f);
	struct diag_sink d;
	diag_init(&d, A);
	struct ir_interp_result res;
	assert_false(ir_interp_quad(f, &q.env, &res, &d));
	assert_int_equal(d.errors, 1);
	assert_non_null(strstr(d.first->message, "iteration limit"));
}

static void test_uniforms(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	const float uni[5][4] = { { 1, 2, 3, 4 }, { 10, 11, 12, 13 }, { 20, 21, 22, 23 },
				  { 30, 31, 32, 33 }, { 40, 41, 42, 43 } };
	q.env.uniform_values = uni;
	struct ir_interp_result res;
	/* u0 is element 0, u1 an array of 3 at elements 1..3; index = v.z - 1
	 * (pixel number - 1, clamped to 0..2), plus the constant element 1 */
	run_text(arena_printf(A, "%s%s%s",
			      "uniform #0 \"u0\" \"vec4\" f4 nvec4=1 array=0 base=0\n"
			      "uniform #1 \"u1\" \"vec4\" f4 nvec4=3 array=3 base=1\n",
			      quad_header,
			      "%2 = const.f1 -1\n"
			      "%3 = add.f1 %1.z, %2.x\n"
			      "%4 = uniform.f4 #1[1] + %3.x\n"
			      "%5 = uniform.f4 #0[0]\n"
			      "%6 = vec.f4 %4.x, %5.w, %4.y, %4.w\n"
			      "output #0 %6.xyzw\n"),
		 &q.env, &res);
	/* pixel p: element 1 + (p - 1) clamped to 0..2 -> 0, 1, 2, 2 of u1 */
	const float want[4] = { 10, 20, 30, 30 };
	const float four[4] = { 4, 4, 4, 4 };
	expect_pixels(&res, 0, 0, want);
	expect_pixels(&res, 0, 1, four);
}

static void test_texture(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	/* 2x2 texels, row 0 at the bottom: (0,0) red, (1,0) green, (0,1) blue,
	 * (1,1) white; nearest, repeat; bound on unit 1 */
	static const float texels[16] = { 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1 };
	struct tex_image imgs[2] = { { 0 } };
	imgs[1].target = IR_TARGET_2D;
	imgs[1].width = imgs[1].height = 2;
	imgs[1].depth = 1;
	imgs[1].texels = texels;
	imgs[1].filter = TEX_FILTER_NEAREST;
	imgs[1].wrap = TEX_WRAP_REPEAT;
	q.env.textures = imgs;
	q.env.ntextures = 2;
	struct ir_interp_result res;
	run_text("sampler #0 \"t\" 2d unit=1\n"
		 "output #0 \"o\" f4 target=0\n"
		 "output #1 \"p\" f4 target=1\n"
		 "%1 = const.f4 0.25 0.75 0 1\n"
		 "%2 = tex.f4 #0 plain %1.xy\n"
		 /* projective: (0.375, 0.625) / 0.5 = (0.75, 1.25) -> texel (1, 0) by wrapping */
		 "%3 = const.f4 0.375 0.625 0 0.5\n"
		 "%4 = tex.f4 #0 proj %3.xyzw\n"
		 "output #0 %2.xyzw\n"
		 "output #1 %4.xyzw\n",
		 &q.env, &res);
	for (int c = 0; c < 4; c++) {
		const float blue[4] = { 0, 0, 1, 1 }, green[4] = { 0, 1, 0, 1 };
		assert_true(close_to(res.outputs[0][0][c], blue[c]));
		assert_true(close_to(res.outputs[1][3][c], green[c]));
	}
	/* no texture on the unit: (0, 0, 0, 1) */
	q.env.ntextures = 1;
	run_text("sampler #0 \"t\" 2d unit=1\noutput #0 \"o\" f4 target=0\n"
		 "%1 = const.f2 0.25 0.25\n%2 = tex.f4 #0 plain %1.xy\noutput #0 %2.xyzw\n",
		 &q.env, &res);
	assert_true(res.outputs[0][2][0] == 0.0f && res.outputs[0][2][3] == 1.0f);
}

/* Loop PHIs read the previous iteration's values all at once: a and b
 * swap every iteration (a sequential reading would copy instead). */
static void test_loop_phi_swap(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	struct ir_interp_result res;
	run_text(arena_printf(A, "%s%s", quad_header,
			      "%2 = const.f4 1 2 0 3\n"
			      "%10 = const.f1 1\n"
			      "loop {\n"
			      "  %3 = phi.f1 %2.x, %4.x\n"
			      "  %4 = phi.f1 %2.y, %3.x\n"
			      "  %5 = phi.f1 %2.z, %6.x\n"
			      "  %6 = add.f1 %5.x, %10.x\n"
			      "  %7 = ge.b1 %6.x, %2.w\n"
			      "  if %7.x {\n"
			      "    break\n"
			      "  }\n"
			      "}\n"
			      "%8 = phi.f1 %3.x\n"
			      "%9 = phi.f1 %4.x\n"
			      "%11 = vec.f4 %8.x, %9.x, %1.x, %1.x\n"
			      "output #0 %11.xyzw\n"),
		 &q.env, &res);
	/* iterations: (1,2) (2,1) (1,2), then the break */
	const float a[4] = { 1, 1, 1, 1 }, b[4] = { 2, 2, 2, 2 };
	expect_pixels(&res, 0, 0, a);
	expect_pixels(&res, 0, 1, b);
}

/* Many PHIs after one if (a function has as many as it has variables). */
static void test_many_phis(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	char *text = arena_printf(A, "%s%s", quad_header,
				  "%2 = const.f4 4 1 2 0\n"
				  "%3 = lt.b1 %1.x, %2.x\n"
				  "if %3.x {\n} else {\n}\n");
	for (int i = 0; i < 40; i++)
		text = arena_printf(A, "%s%%%d = phi.f1 %s, %s\n", text, 100 + i,
				    i % 2 ? "%2.y" : "%2.z", i % 2 ? "%2.z" : "%2.y");
	text = arena_printf(A, "%s%%200 = vec.f4 %%138.x, %%139.x, %%100.x, %%101.x\n"
			       "output #0 %%200.xyzw\n", text);
	struct ir_interp_result res;
	run_text(text, &q.env, &res);
	/* x < 4 on pixels 0 and 1 (then side) */
	const float even[4] = { 2, 2, 1, 1 }, odd[4] = { 1, 1, 2, 2 };
	expect_pixels(&res, 0, 0, even);
	expect_pixels(&res, 0, 1, odd);
	expect_pixels(&res, 0, 2, even);
	expect_pixels(&res, 0, 3, odd);
}

/* Shadow samplers compare coord .z with the texel's red: (v, v, v, 1). */
static void test_shadow(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	static const float texels[4] = { 0.5f, 0.9f, 0.9f, 0.9f };
	struct tex_image img = { .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1,
				 .texels = texels };
	q.env.textures = &img;
	q.env.ntextures = 1;
	struct ir_interp_result res;
	run_text("sampler #0 \"s\" 2d unit=0 shadow\n"
		 "output #0 \"o\" f4 target=0\n"
		 "output #1 \"p\" f4 target=1\n"
		 "%1 = const.f4 0.5 0.5 0.25 1\n"
		 "%2 = const.f4 0.5 0.5 0.75 1\n"
		 "%3 = tex.f4 #0 plain shadow %1.xyz\n"
		 "%4 = tex.f4 #0 plain shadow %2.xyz\n"
		 "output #0 %3.xyzw\n"
		 "output #1 %4.xyzw\n",
		 &q.env, &res);
	const float lit[4] = { 1, 1, 1, 1 }, dark[4] = { 0, 0, 0, 1 };
	for (int c = 0; c < 4; c++) {
		assert_true(close_to(res.outputs[0][0][c], lit[c]));
		assert_true(close_to(res.outputs[1][0][c], dark[c]));
	}
}

/* Garbage that the validator rejects still never crashes the interpreter. */
static void test_invalid_ir_no_crash(void **state)
{
	(void)state;
	struct quad_inputs q;
	quad_inputs_init(&q);
	const char *texts[] = {
		"%1 = input.f4 #7\n%2 = uniform.f4 #3[9]\noutput #5 %1.xyzw\n",
		"%1 = tex.f4 #2 plain %1.xy\nbreak\ncontinue\n",
		"%1 = const.f1 1\n%2 = phi.f1 %1.x, %1.x, %1.x, %1.x\n%3 = add.f1 %1.x\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct ir_func *f = parse_ok(A, texts[i]);
		struct diag_sink d;
		diag_init(&d, A);
		struct ir_interp_result res;
		(void)ir_interp_quad(f, &q.env, &res, &d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_inputs_and_derivatives),
		cmocka_unit_test(test_undefined_pixels),
		cmocka_unit_test(test_if_phi_discard),
		cmocka_unit_test(test_loop_break_continue),
		cmocka_unit_test(test_loop_two_breaks),
		cmocka_unit_test(test_loop_limit),
		cmocka_unit_test(test_uniforms),
		cmocka_unit_test(test_texture),
		cmocka_unit_test(test_shadow),
		cmocka_unit_test(test_loop_phi_swap),
		cmocka_unit_test(test_many_phis),
		cmocka_unit_test(test_invalid_ir_no_crash),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
