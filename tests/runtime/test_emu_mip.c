/* Emulator: level of detail of the texture instructions (ISA.md §6.8,
 * §12) on piglit's miptree (8x8 red, 4x4 green, 2x2 blue, 1x1 white,
 * nearest_mipmap_nearest): LD and PROJ from the quad's coordinates, LODBIAS
 * adding Q, LOD taking Q, DXDY taking the gradients of TEX_ADDR_DXDY
 * (converted like the coordinates under UNSCALED), and neighbours that are
 * killed or helpers still delivering their coordinates. */
#include "test_emu_util.h"
#include "builtin_textures.h"

static const float RED[4] = { 1, 0, 0, 1 }, GREEN[4] = { 0, 1, 0, 1 },
		   BLUE[4] = { 0, 0, 1, 1 }, WHITE[4] = { 1, 1, 1, 1 };

struct mip {
	struct tp t;
	struct emu_varying var;
	struct tex_image img;
	float *texels;
};

/* A 4x4 draw with v = (S x/4, S y/4, 0, q) at the corners, (s, t) times
 * q for PROJ: d/dx of the coordinate looked up is S/4, rho 2S texels per
 * pixel. */
static void mip_init(struct mip *m, float S, float q, bool proj)
{
	int w, h, levels;
	tp_init(&m->t);
	assert_true(builtin_texture_chain("miptree", &w, &h, &levels, &m->texels));
	assert_int_equal(levels, 4);
	m->img = (struct tex_image){ .target = IR_TARGET_2D, .width = w, .height = h, .depth = 1,
				     .texels = m->texels,
				     .filter = TEX_FILTER_NEAREST_MIPMAP_NEAREST,
				     .mag = TEX_MAG_NEAREST, .wrap = TEX_WRAP_REPEAT,
				     .levels = levels };
	m->t.cfg.width = m->t.cfg.height = 4;
	m->t.cfg.textures = &m->img;
	m->t.cfg.ntextures = 1;
	m->var.name = "v";
	for (int k = 0; k < 4; k++) {
		m->var.corners[k][0] = (k & 1) ? (proj ? S * q : S) : 0;
		m->var.corners[k][1] = (k & 2) ? (proj ? S * q : S) : 0;
		m->var.corners[k][2] = 0;
		m->var.corners[k][3] = q;
	}
	m->t.cfg.varyings = &m->var;
	m->t.cfg.nvaryings = 1;
}

static void mip_done(struct mip *m)
{
	tp_done(&m->t);
	free(m->texels);
}

static void out_temp(struct tp *t, int n)
{
	struct r500_inst *in = tp_out(t);
	in->cmn.tex_sem_wait = 1;
	tp_src_temp(in, 0, n);
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
}

/* temporary n = constant slot k */
static void mov_const(struct tp *t, int n, int k)
{
	struct r500_inst *in = tp_alu(t, R500_TYPE_ALU);
	tp_src_const(in, 0, k);
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	in->alu.rgb_addrd = in->alu.alpha_addrd = (uint16_t)n;
	in->cmn.rgb_wmask = 7;
	in->cmn.alpha_wmask = 1;
}

static void expect_all(struct tp *t, const float c[4])
{
	for (int y = 0; y < t->cfg.height; y++)
		for (int x = 0; x < t->cfg.width; x++)
			tp_expect(t, 0, x, y, c[0], c[1], c[2], c[3]);
}

/* LD over a scale S: lambda = log2(2S). */
static void ld_at(float S, int op, float q, const float *want)
{
	struct mip m;
	mip_init(&m, S, q, op == R500_TEX_PROJ);
	tp_tex(&m.t, op, 0, 1);
	out_temp(&m.t, 1);
	tp_run(&m.t);
	expect_all(&m.t, want);
	mip_done(&m);
}

static void test_implicit(void **state)
{
	(void)state;
	ld_at(0.25f, R500_TEX_LD, 1, RED);    /* lambda -1: magnified */
	ld_at(0.5f, R500_TEX_LD, 1, RED);     /* 0 */
	ld_at(1, R500_TEX_LD, 1, GREEN);      /* 1 */
	ld_at(2, R500_TEX_LD, 1, BLUE);       /* 2 */
	ld_at(4, R500_TEX_LD, 1, WHITE);      /* 3 */
	ld_at(64, R500_TEX_LD, 1, WHITE);     /* 7: the last level */
	/* PROJ: the derivatives of the divided coordinates */
	ld_at(1, R500_TEX_PROJ, 2, GREEN);
	ld_at(2, R500_TEX_PROJ, 0.5f, BLUE);
	/* LD does not divide */
	ld_at(1, R500_TEX_LD, 2, GREEN);
}

static void test_bias_and_lod(void **state)
{
	(void)state;
	/* LODBIAS: lambda + Q (Q = 1 after the varying's q) */
	ld_at(1, R500_TEX_LODBIAS, 1, BLUE);   /* 1 + 1 */
	ld_at(4, R500_TEX_LODBIAS, 1, WHITE);  /* 3 + 1, clamped */
	/* LOD: Q alone, whatever the derivatives */
	ld_at(4, R500_TEX_LOD, 1, GREEN);
	ld_at(0.25f, R500_TEX_LOD, 1, GREEN);
	/* a negative bias: 2 - 1.25 */
	ld_at(2, R500_TEX_LODBIAS, -1.25f, GREEN);
	ld_at(2, R500_TEX_LODBIAS, -2.5f, RED);
}

/* DXDY: gradients from t1 (x) and t2 (y), whatever the coordinates do. */
static void dxdy(float gx, float gy, bool unscaled, const float *want)
{
	struct mip m;
	mip_init(&m, 0.25f, 1, false);       /* the quad alone would magnify */
	tp_const(&m.t, 0, gx, 0, 0, 0);
	tp_const(&m.t, 1, 0, gy, 0, 0);
	mov_const(&m.t, 1, 0);
	mov_const(&m.t, 2, 1);
	struct r500_inst *in = tp_tex(&m.t, R500_TEX_DXDY, 0, 3);
	in->tex.dx_addr = 1;
	in->tex.dy_addr = 2;
	for (int c = 0; c < 4; c++) {
		in->tex.dx_swz[c] = (uint16_t)c;
		in->tex.dy_swz[c] = (uint16_t)c;
	}
	in->tex.unscaled = unscaled;
	out_temp(&m.t, 3);
	tp_run(&m.t);
	expect_all(&m.t, want);
	mip_done(&m);
}

static void test_gradients(void **state)
{
	(void)state;
	dxdy(0.125f, 0.125f, false, RED);     /* 1 texel per pixel */
	dxdy(0.25f, 0, false, GREEN);         /* 2 */
	dxdy(0, 0.5f, false, BLUE);           /* 4 */
	dxdy(1, 1, false, WHITE);
	/* UNSCALED: coordinates and gradients in texels, here 4 */
	dxdy(4, 0, true, BLUE);
}

/* A killed pixel, and helpers beyond a 1x1 draw, deliver their
 * coordinates to the quad's level of detail. */
static void test_neighbours(void **state)
{
	(void)state;
	struct mip m;
	mip_init(&m, 2, 1, false);           /* lambda 2: blue */
	/* t2 = t0 - 0.5: s < 0 in column 0 (s = 0.25), which TEXKILL kills */
	struct r500_inst *s = tp_alu(&m.t, R500_TYPE_ALU);
	tp_src_temp(s, 0, 0);
	s->alu.rgb_addr.src[1].addr = R500_INLINE_BIT | 0x30;
	s->alu.alpha_addr.src[1].addr = R500_INLINE_BIT | 0x30;
	tp_rgb_swz(s, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	s->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	s->alu.rgb_arg[2].sel = R500_SEL_SRC1;
	s->alu.rgb_arg[2].mod = R500_MOD_NEG;
	s->alu.alpha_arg[2].sel = R500_SEL_SRC1;
	s->alu.rgb_addrd = s->alu.alpha_addrd = 2;
	s->cmn.rgb_wmask = 7;
	s->cmn.alpha_wmask = 1;
	struct r500_inst *k = tp_tex(&m.t, R500_TEX_KILL, 2, 0);
	for (int c = 0; c < 4; c++)
		k->tex.src_swz[c] = R500_SWZ_R;
	k->tex.sem_acquire = 0;
	tp_tex(&m.t, R500_TEX_LD, 0, 1);
	out_temp(&m.t, 1);
	tp_run(&m.t);
	for (int y = 0; y < 4; y++) {
		assert_true(m.t.img.discarded[y * 4]);
		for (int x = 1; x < 4; x++)
			tp_expect(&m.t, 0, x, y, 0, 0, 1, 1);
	}
	mip_done(&m);

	/* a 1x1 draw: pixel (0, 0) and three helpers, d/dx = 1/4: green */
	mip_init(&m, 0.25f, 1, false);
	m.t.cfg.width = m.t.cfg.height = 1;
	tp_tex(&m.t, R500_TEX_LD, 0, 1);
	out_temp(&m.t, 1);
	tp_run(&m.t);
	tp_expect(&m.t, 0, 0, 0, 0, 1, 0, 1);
	mip_done(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_implicit),
		cmocka_unit_test(test_bias_and_lod),
		cmocka_unit_test(test_gradients),
		cmocka_unit_test(test_neighbours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
