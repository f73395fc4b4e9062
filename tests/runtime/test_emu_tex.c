/* Emulator: texture instructions (ISA.md §6.8, §6.9) on the built-in
 * checker and gradient, nearest and bilinear, repeat and clamp, PROJ,
 * LODBIAS, destination swizzles, TEXKILL (incl. -0), the stale-read
 * report, MDH/MDV across a quad, and tex_sample's cube faces. */
#include "test_emu_util.h"
#include "builtin_textures.h"

static struct tex_image load(const char *name, enum tex_filter f, enum tex_wrap w)
{
	int width, height;
	float *texels;
	assert_true(builtin_texture(name, &width, &height, &texels));
	return (struct tex_image){ .target = IR_TARGET_2D, .width = width, .height = height,
				   .depth = 1, .texels = texels, .filter = f, .wrap = w };
}

static struct r500_inst *out_temp(struct tp *t, int n)
{
	struct r500_inst *in = tp_out(t);
	in->cmn.tex_sem_wait = 1;
	tp_src_temp(in, 0, n);
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	return in;
}

/* All pixels get coordinates (s, t, r, q) through varying "v". */
static void set_coord(struct tp *t, struct emu_varying *var, float s, float tt, float r, float q)
{
	var->name = "v";
	for (int k = 0; k < 4; k++) {
		var->corners[k][0] = s; var->corners[k][1] = tt;
		var->corners[k][2] = r; var->corners[k][3] = q;
	}
	t->cfg.varyings = var;
	t->cfg.nvaryings = 1;
}

static void test_checker_nearest(void **state)
{
	(void)state;
	struct tp t;
	struct tex_image img = load("checker", TEX_FILTER_NEAREST, TEX_WRAP_REPEAT);
	tp_init(&t);
	t.cfg.width = t.cfg.height = 8;     /* pixel (x,y) samples texel (x,y) */
	t.cfg.textures = &img;
	t.cfg.ntextures = 1;
	tp_tex(&t, R500_TEX_LD, 0, 1);
	out_temp(&t, 1);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0, 0, 0, 1);
	tp_expect(&t, 0, 1, 0, 1, 1, 1, 1);
	tp_expect(&t, 0, 3, 2, 1, 1, 1, 1);
	tp_expect(&t, 0, 7, 7, 0, 0, 0, 1);
	assert_null(t.img.warnings);
	tp_done(&t);
	free((void *)img.texels);
}

static void gradient_at(float s, float tt, enum tex_filter f, enum tex_wrap w, int op,
			float q, float er, float eg)
{
	struct tp t;
	struct emu_varying var;
	struct tex_image img = load("gradient", f, w);
	tp_init(&t);
	set_coord(&t, &var, s, tt, 0, q);
	t.cfg.textures = &img;
	t.cfg.ntextures = 1;
	tp_tex(&t, op, 0, 1);
	out_temp(&t, 1);
	tp_run(&t);
	tp_expect(&t, 0, 1, 0, er, eg, 0.5f, 1);
	tp_done(&t);
	free((void *)img.texels);
}

static void test_gradient_filters_and_wraps(void **state)
{
	(void)state;
	/* nearest: s = 0.25 -> texel 4 -> 4.5/16; t = 0.5 -> texel 8 */
	gradient_at(0.25f, 0.5f, TEX_FILTER_NEAREST, TEX_WRAP_REPEAT, R500_TEX_LD, 1,
		    0.28125f, 0.53125f);
	/* bilinear between centres reproduces the coordinate */
	gradient_at(0.25f, 0.5f, TEX_FILTER_LINEAR, TEX_WRAP_REPEAT, R500_TEX_LD, 1,
		    0.25f, 0.5f);
	/* repeat: 1.25 -> 0.25; clamp: 1.25 -> texel 15 */
	gradient_at(1.25f, -0.75f, TEX_FILTER_NEAREST, TEX_WRAP_REPEAT, R500_TEX_LD, 1,
		    0.28125f, 0.28125f);
	gradient_at(1.25f, -0.75f, TEX_FILTER_NEAREST, TEX_WRAP_CLAMP, R500_TEX_LD, 1,
		    0.96875f, 0.03125f);
	/* mirror: 1.25 -> texel 20 of a 32-texel period -> 31 - 20 = 11;
	 * -0.3 -> texel -5 -> 27 -> 4 (GL's mirrored repeat) */
	gradient_at(1.25f, -0.3f, TEX_FILTER_NEAREST, TEX_WRAP_MIRROR, R500_TEX_LD, 1,
		    0.71875f, 0.28125f);
	/* bilinear at s = 0: mirror repeats texel 0 beside itself */
	gradient_at(0, 0.5f, TEX_FILTER_LINEAR, TEX_WRAP_MIRROR, R500_TEX_LD, 1, 0.03125f, 0.5f);
	/* bilinear at s = 0: repeat mixes texels 15 and 0; clamp texel 0 */
	gradient_at(0, 0.5f, TEX_FILTER_LINEAR, TEX_WRAP_REPEAT, R500_TEX_LD, 1, 0.5f, 0.5f);
	gradient_at(0, 0.5f, TEX_FILTER_LINEAR, TEX_WRAP_CLAMP, R500_TEX_LD, 1, 0.03125f, 0.5f);
	/* PROJ divides by q; LODBIAS and LOD sample the one level */
	gradient_at(0.5f, 1.0f, TEX_FILTER_NEAREST, TEX_WRAP_REPEAT, R500_TEX_PROJ, 2,
		    0.28125f, 0.53125f);
	gradient_at(0.25f, 0.5f, TEX_FILTER_NEAREST, TEX_WRAP_REPEAT, R500_TEX_LODBIAS, 3,
		    0.28125f, 0.53125f);
	gradient_at(0.25f, 0.5f, TEX_FILTER_NEAREST, TEX_WRAP_REPEAT, R500_TEX_LOD, -2,
		    0.28125f, 0.53125f);
}

static void test_dst_swizzle_and_mask(void **state)
{
	(void)state;
	struct tp t;
	struct emu_varying var;
	struct tex_image img = load("gradient", TEX_FILTER_NEAREST, TEX_WRAP_REPEAT);
	tp_init(&t);
	set_coord(&t, &var, 0.25f, 0.5f, 0, 1);
	tp_const(&t, 0, 9, 9, 9, 9);
	t.cfg.textures = &img;
	t.cfg.ntextures = 1;
	struct r500_inst *init = tp_alu(&t, R500_TYPE_ALU);   /* t1 = 9 */
	tp_src_const(init, 0, 0);
	tp_rgb_swz(init, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	init->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	init->alu.rgb_addrd = init->alu.alpha_addrd = 1;
	init->cmn.rgb_wmask = 7;
	init->cmn.alpha_wmask = 1;
	struct r500_inst *in = tp_tex(&t, R500_TEX_LD, 0, 1);
	in->tex.dst_swz[0] = R500_SWZ_A;
	in->tex.dst_swz[1] = R500_SWZ_B;
	in->tex.dst_swz[2] = R500_SWZ_G;
	in->tex.dst_swz[3] = R500_SWZ_R;
	in->cmn.rgb_wmask = 3;   /* .xy only */
	in->cmn.alpha_wmask = 1;
	out_temp(&t, 1);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 1, 0.5f, 9, 0.28125f);
	tp_done(&t);
	free((void *)img.texels);
}

static void test_no_texture_bound(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_tex(&t, R500_TEX_LD, 0, 1)->tex.tex_id = 5;
	out_temp(&t, 1);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0, 0, 0, 1);
	tp_done(&t);
}

/* The TEX word has no depth-compare field (ISA.md §4.6): a lookup on a
 * unit the sampler table marks as shadow returns the plain texel; the
 * compiler emits the compare as ALU code. */
static void test_shadow_unit_samples_plainly(void **state)
{
	(void)state;
	struct tex_image img = load("gradient", TEX_FILTER_NEAREST, TEX_WRAP_REPEAT);
	struct r500_sampler smp = { .name = "s", .unit = 0, .target = IR_TARGET_2D, .shadow = 1 };
	struct tp t;
	struct emu_varying var;
	tp_init(&t);
	/* texel (4, 8) of the 16x16 gradient: (4.5/16, 8.5/16, 0.5, 1) */
	set_coord(&t, &var, 0.25f, 0.5f, 0.3f, 1);
	t.cfg.textures = &img;
	t.cfg.ntextures = 1;
	tp_tex(&t, R500_TEX_LD, 0, 1);
	out_temp(&t, 1);
	tp_prog(&t);
	t.p.samplers = &smp;
	t.p.nsamplers = 1;
	assert_true(emu_run(&t.p, &t.cfg, &t.img, t.why, sizeof t.why));
	tp_expect(&t, 0, 0, 0, 0.28125f, 0.53125f, 0.5f, 1);
	tp_done(&t);
	free((void *)img.texels);
}

/* TEXKILL on the sign bit: t1 = t0 - 0.5 kills the left column; -0 kills. */
static void test_texkill(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	struct r500_inst *s = tp_alu(&t, R500_TYPE_ALU);
	tp_src_temp(s, 0, 0);
	s->alu.rgb_addr.src[1].addr = R500_INLINE_BIT | 0x30;
	s->alu.alpha_addr.src[1].addr = R500_INLINE_BIT | 0x30;
	tp_rgb_swz(s, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	s->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	s->alu.rgb_arg[2].sel = R500_SEL_SRC1;
	s->alu.rgb_arg[2].mod = R500_MOD_NEG;          /* (u - .5, v - .5, -.5, 1) */
	s->alu.alpha_arg[2].sel = R500_SEL_SRC1;
	s->alu.rgb_addrd = s->alu.alpha_addrd = 1;
	s->cmn.rgb_wmask = 7;
	s->cmn.alpha_wmask = 1;
	struct r500_inst *k = tp_tex(&t, R500_TEX_KILL, 1, 0);
	k->tex.src_swz[1] = R500_SWZ_R;                 /* (x, x, x, x) */
	k->tex.src_swz[2] = R500_SWZ_R;
	k->tex.src_swz[3] = R500_SWZ_R;
	k->tex.sem_acquire = 0;
	out_temp(&t, 0);
	tp_run(&t);
	assert_true(t.img.discarded[0]);   /* (0,0) */
	assert_false(t.img.discarded[1]);  /* (1,0) */
	assert_true(t.img.discarded[2]);  /* (0,1) */
	assert_false(t.img.discarded[3]);
	tp_done(&t);

	/* -0 kills, +0 does not (bit-exact MAX with OMOD 7 makes them) */
	for (int neg = 0; neg < 2; neg++) {
		tp_init(&t);
		tp_const(&t, 0, neg ? -0.0f : 0.0f, 1, 1, 1);
		struct r500_inst *m = tp_alu(&t, R500_TYPE_ALU);
		tp_src_const(m, 0, 0);
		m->alu.rgb_op = R500_ROP_MAX;
		m->alu.alpha_op = R500_AOP_MAX;
		m->alu.rgb_arg[1] = m->alu.rgb_arg[0];
		m->alu.alpha_arg[1] = m->alu.alpha_arg[0];
		m->alu.rgb_omod = m->alu.alpha_omod = R500_OMOD_DISABLE;
		m->alu.rgb_addrd = m->alu.alpha_addrd = 1;
		m->cmn.rgb_wmask = 7;
		m->cmn.alpha_wmask = 1;
		tp_tex(&t, R500_TEX_KILL, 1, 0)->tex.sem_acquire = 0;
		out_temp(&t, 0);
		tp_run(&t);
		for (int i = 0; i < 4; i++)
			assert_int_equal(t.img.discarded[i], neg);
		tp_done(&t);
	}
}

/* A read of a TEX result with no ACQUIRE+WAIT covering it is reported. */
static void test_stale_tex_read(void **state)
{
	(void)state;
	struct tp t;
	struct tex_image img = load("checker", TEX_FILTER_NEAREST, TEX_WRAP_REPEAT);
	tp_init(&t);
	t.cfg.textures = &img;
	t.cfg.ntextures = 1;
	tp_tex(&t, R500_TEX_LD, 0, 1)->tex.sem_acquire = 0;
	out_temp(&t, 1);
	tp_run(&t);
	assert_non_null(t.img.warnings);
	assert_non_null(strstr(t.img.warnings, "ACQUIRE"));
	tp_done(&t);

	/* ACQUIRE but the reader does not WAIT */
	tp_init(&t);
	t.cfg.textures = &img;
	t.cfg.ntextures = 1;
	tp_tex(&t, R500_TEX_LD, 0, 1);
	out_temp(&t, 1)->cmn.tex_sem_wait = 0;
	tp_run(&t);
	assert_non_null(t.img.warnings);
	tp_done(&t);
	free((void *)img.texels);
}

/* MDH/MDV with B = -1: f(x+1) - f(x) and f(x, y+1) - f(x, y), shared by
 * the quad.  f = u^2 on a 4x2 rectangle. */
static void test_derivatives(void **state)
{
	(void)state;
	for (int vertical = 0; vertical < 2; vertical++) {
		struct tp t;
		tp_init(&t);
		t.cfg.width = 4;
		t.cfg.height = 4;
		struct r500_inst *sq = tp_alu(&t, R500_TYPE_ALU);     /* t1 = t0 * t0 */
		tp_src_temp(sq, 0, 0);
		sq->alu.rgb_arg[1].sel = R500_SEL_SRC0;
		sq->alu.alpha_arg[1].sel = R500_SEL_SRC0;
		sq->alu.rgb_addrd = sq->alu.alpha_addrd = 1;
		sq->cmn.rgb_wmask = 7;
		sq->cmn.alpha_wmask = 1;
		sq->cmn.nop = 1;
		struct r500_inst *d = tp_out(&t);
		tp_src_temp(d, 0, 1);
		d->alu.rgb_op = vertical ? R500_ROP_MDV : R500_ROP_MDH;
		d->alu.alpha_op = vertical ? R500_AOP_MDV : R500_AOP_MDH;
		tp_rgb_swz(d, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
		d->alu.rgb_arg[1].mod = R500_MOD_NEG;
		d->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
		d->alu.alpha_arg[1].mod = R500_MOD_NEG;
		tp_run(&t);
		/* u = (x + .5)/4: quad 0 has u = .125, .375 -> .140625 - .015625;
		 * quad 1 has .625, .875 -> .765625 - .390625 */
		float q0 = 0.125f, q1 = 0.375f;
		for (int y = 0; y < 4; y++)
			for (int x = 0; x < 4; x++) {
				float dq = x < 2 ? q0 : q1, dv = y < 2 ? q0 : q1;
				if (vertical)
					tp_expect(&t, 0, x, y, 0, dv, 0, 0);
				else
					tp_expect(&t, 0, x, y, dq, 0, 0, 0);
			}
		tp_done(&t);
	}
}

/* GL's major-axis face selection; faces hold their index in .r. */
static void test_cube_faces(void **state)
{
	(void)state;
	float texels[6 * 2 * 2 * 4];
	for (int f = 0; f < 6; f++)
		for (int i = 0; i < 4; i++) {
			float *v = &texels[(f * 4 + i) * 4];
			v[0] = (float)f; v[1] = (float)i; v[2] = 0; v[3] = 1;
		}
	struct tex_image img = { .target = IR_TARGET_CUBE, .width = 2, .height = 2, .depth = 1,
				 .texels = texels, .filter = TEX_FILTER_NEAREST,
				 .wrap = TEX_WRAP_REPEAT };
	static const struct { float d[3]; int face, texel; } cases[] = {
		{ { 1, 0.1f, 0.2f }, 0, 0 },     /* +X: s = (-z/x+1)/2 = .4, t = (-y+1)/2 = .45 */
		{ { 1, -0.5f, -0.5f }, 0, 3 },   /* s = .75, t = .75 -> texel (1,1) */
		{ { -1, 0.5f, -0.5f }, 1, 0 },   /* -X: sc = z = -.5 -> s = .25; tc = -y -> .25 */
		{ { 0.3f, 2, 0.1f }, 2, 3 },     /* +Y: sc = x, tc = z: (.575, .525) */
		{ { -0.1f, -2, 0.3f }, 3, 0 },   /* -Y: sc = x, tc = -z -> (.475, .425) */
		{ { 0.5f, 0.5f, 1 }, 4, 1 },     /* +Z: sc = x -> .75, tc = -y -> .25 */
		{ { 0, 0, -1 }, 5, 3 },          /* -Z: sc = -x = 0 -> .5, tc = 0 -> .5 */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		float out[4];
		tex_sample(&img, cases[i].d, out);
		assert_int_equal((int)out[0], cases[i].face);
		assert_int_equal((int)out[1], cases[i].texel);
	}
}

static void test_sample_edge_cases(void **state)
{
	(void)state;
	float out[4];
	const float c[3] = { NAN, INFINITY, -1e30f };
	tex_sample(NULL, c, out);
	assert_true(out[0] == 0 && out[3] == 1);
	float one[4] = { 0.25f, 0.5f, 0.75f, 1 };
	struct tex_image img = { .target = IR_TARGET_2D, .width = 1, .height = 1,
				 .depth = 1, .texels = one, .filter = TEX_FILTER_LINEAR };
	tex_sample(&img, c, out);
	assert_true(out[0] == 0.25f && out[2] == 0.75f);
	img.target = IR_TARGET_3D;
	tex_sample(&img, c, out);
	assert_true(out[1] == 0.5f);
	img.target = IR_TARGET_RECT;
	tex_sample(&img, c, out);
	assert_true(out[3] == 1.0f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_nearest),
		cmocka_unit_test(test_gradient_filters_and_wraps),
		cmocka_unit_test(test_dst_swizzle_and_mask),
		cmocka_unit_test(test_no_texture_bound),
		cmocka_unit_test(test_shadow_unit_samples_plainly),
		cmocka_unit_test(test_texkill),
		cmocka_unit_test(test_stale_tex_read),
		cmocka_unit_test(test_derivatives),
		cmocka_unit_test(test_cube_faces),
		cmocka_unit_test(test_sample_edge_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
