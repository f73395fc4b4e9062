/* Emulator: operand fetch (ISA.md §6.3) - presubtract, swizzles incl.
 * 0/0.5/1, modifiers, the RGB/alpha slot crossing, inline constants,
 * relative constant addressing - and OMOD/clamp (§6.5, §12). */
#include "test_emu_util.h"

/* OUT: src0 = c0 = (1,2,3,4), src1 = c1 = (0.5,-1,2,0.25); the result
 * is MAD(A, 1, 0) in both units, A selected by the caller. */
static struct r500_inst *mov_out(struct tp *t)
{
	tp_init(t);
	tp_const(t, 0, 1, 2, 3, 4);
	tp_const(t, 1, 0.5f, -1, 2, 0.25f);
	struct r500_inst *in = tp_out(t);
	tp_src_const(in, 0, 0);
	tp_src_const(in, 1, 1);
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	tp_rgb_swz(in, 2, R500_SWZ_ZERO, R500_SWZ_ZERO, R500_SWZ_ZERO);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	in->alu.alpha_arg[2].swz[0] = R500_SWZ_ZERO;
	return in;
}

static void test_presubtract_modes(void **state)
{
	(void)state;
	static const struct { int op; float e[4]; } cases[] = {
		{ R500_SRCP_BIAS, { -1, -3, -5, -7 } },      /* 1 - 2*src0 */
		{ R500_SRCP_SUB, { -0.5f, -3, -1, -3.75f } }, /* src1 - src0 */
		{ R500_SRCP_ADD, { 1.5f, 1, 5, 4.25f } },     /* src1 + src0 */
		{ R500_SRCP_INV, { 0, -1, -2, -3 } },         /* 1 - src0 */
	};
	for (int i = 0; i < 4; i++) {
		struct tp t;
		struct r500_inst *in = mov_out(&t);
		in->alu.rgb_addr.srcp_op = (uint16_t)cases[i].op;
		in->alu.alpha_addr.srcp_op = (uint16_t)cases[i].op;
		in->alu.rgb_arg[0].sel = R500_SEL_SRCP;
		in->alu.alpha_arg[0].sel = R500_SEL_SRCP;
		tp_run(&t);
		const float *e = cases[i].e;
		tp_expect(&t, 0, 0, 0, e[0], e[1], e[2], e[3]);
		tp_done(&t);
	}
}

/* Swizzle and modifier apply after the presubtract. */
static void test_presubtract_then_swizzle(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = mov_out(&t);
	in->alu.rgb_addr.srcp_op = R500_SRCP_ADD;   /* srcp.rgb = (1.5, 1, 5) */
	in->alu.alpha_addr.srcp_op = R500_SRCP_SUB; /* srcp.a = -3.75 */
	in->alu.rgb_arg[0].sel = R500_SEL_SRCP;
	tp_rgb_swz(in, 0, R500_SWZ_B, R500_SWZ_A, R500_SWZ_HALF);
	in->alu.rgb_arg[0].mod = R500_MOD_NEG;
	in->alu.alpha_arg[0].sel = R500_SEL_SRCP;
	in->alu.alpha_arg[0].swz[0] = R500_SWZ_R;
	in->alu.alpha_arg[0].mod = R500_MOD_NAB;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, -5, 3.75f, -0.5f, -1.5f);
	tp_done(&t);
}

static void test_swizzle_constants_and_modifiers(void **state)
{
	(void)state;
	static const struct { int mod; float e[4]; } cases[] = {
		{ R500_MOD_NONE, { 0, 0.5f, 1, -1 } },
		{ R500_MOD_NEG, { -0.0f, -0.5f, -1, 1 } },
		{ R500_MOD_ABS, { 0, 0.5f, 1, 1 } },
		{ R500_MOD_NAB, { -0.0f, -0.5f, -1, -1 } },
	};
	for (int i = 0; i < 4; i++) {
		struct tp t;
		struct r500_inst *in = mov_out(&t);
		tp_rgb_swz(in, 0, R500_SWZ_ZERO, R500_SWZ_HALF, R500_SWZ_ONE);
		in->alu.rgb_arg[0].mod = (uint16_t)cases[i].mod;
		in->alu.alpha_arg[0].sel = R500_SEL_SRC1;
		in->alu.alpha_arg[0].swz[0] = R500_SWZ_G;  /* c1.g = -1 */
		in->alu.alpha_arg[0].mod = (uint16_t)cases[i].mod;
		tp_run(&t);
		const float *e = cases[i].e;
		tp_expect(&t, 0, 0, 0, e[0], e[1], e[2], e[3]);
		tp_done(&t);
	}
}

/* srcK = (RGB slot K's .rgb, alpha slot K's .a) (§6.3 step 2). */
static void test_slot_crossing(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = mov_out(&t);
	in->alu.alpha_addr.src[0] = (struct r500_addr){ .addr = 1, .cnst = 1 };
	tp_rgb_swz(in, 0, R500_SWZ_A, R500_SWZ_R, R500_SWZ_A);
	in->alu.alpha_arg[0].swz[0] = R500_SWZ_B;
	tp_run(&t);
	/* .a from c1 (0.25), .r/.b from c0 */
	tp_expect(&t, 0, 0, 0, 0.25f, 1, 0.25f, 3);
	tp_done(&t);
}

static void test_inline_constants(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = mov_out(&t);
	in->alu.rgb_addr.src[0] = (struct r500_addr){ .addr = R500_INLINE_BIT | 0x38 }; /* 1.0 */
	in->alu.alpha_addr.src[0] = (struct r500_addr){ .addr = R500_INLINE_BIT | 0x7F }; /* 480 */
	in->alu.rgb_addr.src[1] = (struct r500_addr){ .addr = R500_INLINE_BIT | 0x3C }; /* 1.5 */
	tp_rgb_swz(in, 0, R500_SWZ_R, R500_SWZ_A, R500_SWZ_B);
	in->alu.rgb_arg[2].sel = R500_SEL_SRC1;
	tp_rgb_swz(in, 2, R500_SWZ_ZERO, R500_SWZ_ZERO, R500_SWZ_G);
	tp_run(&t);
	/* (1, 480, 1 + 1.5, 480) */
	tp_expect(&t, 0, 0, 0, 1, 480, 2.5f, 480);
	tp_done(&t);

	in = mov_out(&t);
	in->alu.rgb_addr.src[0] = (struct r500_addr){ .addr = R500_INLINE_BIT | 0x01 };
	in->alu.alpha_addr.src[0] = (struct r500_addr){ .addr = R500_INLINE_BIT | 0x08 };
	tp_run(&t);
	/* AMD's formula: code 1 = 2^-9 (denormal form), code 8 = 2^-6 */
	tp_expect(&t, 0, 0, 0, 0.001953125f, 0.001953125f, 0.001953125f, 0.015625f);
	tp_done(&t);
}

static void test_omod_each(void **state)
{
	(void)state;
	static const float scale[8] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f, 1 };
	for (int omod = 0; omod < 8; omod++) {
		struct tp t;
		struct r500_inst *in = mov_out(&t);
		/* MIN/MAX are the ops OMOD 7 is legal with: MAX(c0, c0) */
		in->alu.rgb_op = R500_ROP_MAX;
		in->alu.alpha_op = R500_AOP_MAX;
		in->alu.rgb_arg[1] = in->alu.rgb_arg[0];
		in->alu.alpha_arg[1] = in->alu.alpha_arg[0];
		in->alu.rgb_omod = (uint16_t)omod;
		in->alu.alpha_omod = (uint16_t)omod;
		tp_run(&t);
		float s = scale[omod];
		tp_expect(&t, 0, 0, 0, 1 * s, 2 * s, 3 * s, 4 * s);
		tp_done(&t);
	}
}

static void test_clamp(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = mov_out(&t);
	tp_const(&t, 0, -2, 0.5f, 0.3f, NAN);
	in->cmn.rgb_clamp = 1;
	in->cmn.alpha_clamp = 1;
	in->alu.rgb_omod = R500_OMOD_MUL4;     /* clamp after OMOD: 0.3*4 -> 1 */
	in->alu.alpha_omod = R500_OMOD_MUL1;
	tp_run(&t);
	/* (-8 -> 0, 2 -> 1, 1.2 -> 1, NaN -> 0) */
	tp_expect(&t, 0, 0, 0, 0, 1, 1, 0);
	tp_done(&t);

	/* OMOD 7 disables the clamp */
	in = mov_out(&t);
	tp_const(&t, 0, -2, 0.5f, 3, 7);
	in->alu.rgb_op = R500_ROP_MAX;
	in->alu.alpha_op = R500_AOP_MAX;
	in->alu.rgb_arg[1] = in->alu.rgb_arg[0];
	in->alu.alpha_arg[1] = in->alu.alpha_arg[0];
	in->cmn.rgb_clamp = 1;
	in->cmn.alpha_clamp = 1;
	in->alu.rgb_omod = R500_OMOD_DISABLE;
	in->alu.alpha_omod = R500_OMOD_DISABLE;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, -2, 0.5f, 3, 7);
	tp_done(&t);
}

/* Uniforms by name through the uniform table; matrix columns; one array
 * element; unset uniforms read 0. */
static void test_uniform_binding(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = mov_out(&t);
	t.imm[0] = 0;
	t.unis[0] = (struct r500_uniform){ .name = "m", .type = "mat2", .element = 1,
					   .slot = 0, .swizzle = "zw" };
	t.unis[1] = (struct r500_uniform){ .name = "a", .type = "float", .array_len = 3,
					   .element = 2, .slot = 0, .swizzle = "x" };
	t.unis[2] = (struct r500_uniform){ .name = "unset", .type = "float", .slot = 0,
					   .swizzle = "y" };
	t.nunis = 3;
	static const struct emu_uniform vals[] = {
		{ .name = "m", .value = { 1, 2, 3, 4 }, .ncomp = 4 },
		{ .name = "a[2]", .value = { 9 }, .ncomp = 1 },
	};
	t.cfg.uniforms = vals;
	t.cfg.nuniforms = 2;
	(void)in;
	tp_run(&t);
	/* column 1 of m = (3, 4) in .zw */
	tp_expect(&t, 0, 0, 0, 9, 0, 3, 4);
	tp_done(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_presubtract_modes),
		cmocka_unit_test(test_presubtract_then_swizzle),
		cmocka_unit_test(test_swizzle_constants_and_modifiers),
		cmocka_unit_test(test_slot_crossing),
		cmocka_unit_test(test_inline_constants),
		cmocka_unit_test(test_omod_each),
		cmocka_unit_test(test_clamp),
		cmocka_unit_test(test_uniform_binding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
