/* Emulator: every RGB and alpha opcode, the DP/SOP coupling, special
 * values and the fp32 rules of ISA.md §6.4, §6.5, §12.  Expected values
 * worked out by hand. */
#include "test_emu_util.h"

/* OUT slot with src0 = c0, src1 = c1, src2 = c2; c0 = (1,2,3,4),
 * c1 = (0.5,-1,2,0.25), c2 = (10,20,30,40). */
static struct r500_inst *three_const_out(struct tp *t, int rop, int aop)
{
	tp_init(t);
	tp_const(t, 0, 1, 2, 3, 4);
	tp_const(t, 1, 0.5f, -1, 2, 0.25f);
	tp_const(t, 2, 10, 20, 30, 40);
	struct r500_inst *in = tp_out(t);
	tp_src_const(in, 0, 0);
	tp_src_const(in, 1, 1);
	tp_src_const(in, 2, 2);
	in->alu.rgb_op = (uint16_t)rop;
	in->alu.alpha_op = (uint16_t)aop;
	return in;
}

static void test_mad(void **state)
{
	(void)state;
	struct tp t;
	three_const_out(&t, R500_ROP_MAD, R500_AOP_MAD);
	tp_run(&t);
	/* (1*0.5+10, 2*-1+20, 3*2+30, 4*0.25+40) */
	tp_expect(&t, 0, 0, 0, 10.5f, 18, 36, 41);
	tp_expect(&t, 0, 1, 1, 10.5f, 18, 36, 41);
	tp_done(&t);
}

static void test_dp3_and_alpha_dp(void **state)
{
	(void)state;
	struct tp t;
	three_const_out(&t, R500_ROP_DP3, R500_AOP_DP);
	tp_run(&t);
	/* 0.5 - 2 + 6 */
	tp_expect(&t, 0, 0, 0, 4.5f, 4.5f, 4.5f, 4.5f);
	tp_done(&t);
}

static void test_dp4_alpha_terms(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = three_const_out(&t, R500_ROP_DP4, R500_AOP_DP);
	tp_run(&t);
	/* 4.5 + 4*0.25 */
	tp_expect(&t, 0, 0, 0, 5.5f, 5.5f, 5.5f, 5.5f);
	tp_done(&t);

	/* the 4th product takes the alpha unit's inputs: A = src0.r = 1,
	 * B = -(src1.a) = -0.25 */
	in = three_const_out(&t, R500_ROP_DP4, R500_AOP_DP);
	in->alu.alpha_arg[0].swz[0] = R500_SWZ_R;
	in->alu.alpha_arg[1].mod = R500_MOD_NEG;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 4.25f, 4.25f, 4.25f, 4.25f);
	tp_done(&t);
}

static void test_d2a(void **state)
{
	(void)state;
	struct tp t;
	three_const_out(&t, R500_ROP_D2A, R500_AOP_DP);
	tp_run(&t);
	/* 1*0.5 + 2*-1 + C.b = 30 */
	tp_expect(&t, 0, 0, 0, 28.5f, 28.5f, 28.5f, 28.5f);
	tp_done(&t);
}

static void test_min_max(void **state)
{
	(void)state;
	struct tp t;
	three_const_out(&t, R500_ROP_MIN, R500_AOP_MIN);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0.5f, -1, 2, 0.25f);
	tp_done(&t);
	three_const_out(&t, R500_ROP_MAX, R500_AOP_MAX);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 1, 2, 3, 4);
	tp_done(&t);
}

/* Ties and NaN return B (§12), bit-exactly with OMOD 7. */
static void test_min_max_ties(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = three_const_out(&t, R500_ROP_MAX, R500_AOP_MIN);
	tp_const(&t, 0, 0.0f, NAN, 5, -0.0f);
	tp_const(&t, 1, -0.0f, 5, NAN, 0.0f);
	in->alu.rgb_omod = R500_OMOD_DISABLE;
	in->alu.alpha_omod = R500_OMOD_DISABLE;
	tp_run(&t);
	const float *v = tp_px(&t, 0, 0, 0);
	assert_true(v[0] == 0.0f && signbit(v[0]));   /* MAX(+0,-0) = -0 */
	assert_true(v[1] == 5.0f);                     /* MAX(NaN,5) = 5 */
	assert_true(isnan(v[2]));                      /* MAX(5,NaN) = NaN */
	assert_true(v[3] == 0.0f && !signbit(v[3]));   /* MIN(-0,+0) = +0 */
	tp_done(&t);
}

static void test_cnd_cmp(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = three_const_out(&t, R500_ROP_CND, R500_AOP_CND);
	tp_const(&t, 2, 0.5f, 0.6f, -1, 1);
	tp_run(&t);
	/* C > 0.5 ? A : B */
	tp_expect(&t, 0, 0, 0, 0.5f, 2, 2, 4);
	tp_done(&t);

	in = three_const_out(&t, R500_ROP_CMP, R500_AOP_CMP);
	tp_const(&t, 2, -0.0f, -1, 0.5f, NAN);
	(void)in;
	tp_run(&t);
	/* C >= 0 ? A : B, -0 counts as 0, NaN gives B */
	tp_expect(&t, 0, 0, 0, 1, -1, 3, 0.25f);
	tp_done(&t);
}

static void test_frc(void **state)
{
	(void)state;
	struct tp t;
	three_const_out(&t, R500_ROP_FRC, R500_AOP_FRC);
	tp_const(&t, 0, 1.25f, -0.25f, 3, -2.5f);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0.25f, 0.75f, 0, 0.5f);
	tp_done(&t);
}

/* SOP replicates the alpha transcendental, each in turn. */
static void test_sop_transcendentals(void **state)
{
	(void)state;
	static const struct { int aop; float in, out; } cases[] = {
		{ R500_AOP_EX2, 3, 8 }, { R500_AOP_EX2, -1, 0.5f },
		{ R500_AOP_LN2, 8, 3 }, { R500_AOP_LN2, 0.25f, -2 },
		{ R500_AOP_RCP, 4, 0.25f }, { R500_AOP_RCP, -0.5f, -2 },
		{ R500_AOP_RSQ, 16, 0.25f }, { R500_AOP_RSQ, 0.25f, 2 },
		{ R500_AOP_SIN, 0.25f, 1 }, { R500_AOP_SIN, 0.75f, -1 },
		{ R500_AOP_COS, 0.5f, -1 }, { R500_AOP_COS, 1, 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tp t;
		three_const_out(&t, R500_ROP_SOP, cases[i].aop);
		tp_const(&t, 0, 99, 99, 99, cases[i].in);
		tp_run(&t);
		const float *v = tp_px(&t, 0, 0, 0);
		for (int c = 0; c < 4; c++)
			assert_float_equal(v[c], cases[i].out, 1e-6);
		tp_done(&t);
	}
}

/* SOP takes the raw result, then the RGB OMOD; alpha uses its own. */
static void test_sop_omod(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = three_const_out(&t, R500_ROP_SOP, R500_AOP_EX2);
	tp_const(&t, 0, 0, 0, 0, 3);
	in->alu.alpha_omod = R500_OMOD_MUL2;
	in->alu.rgb_omod = R500_OMOD_DIV2;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 4, 4, 4, 16);
	tp_done(&t);
}

static void test_special_values(void **state)
{
	(void)state;
	const float inf = INFINITY;
	static const struct { int aop; float in, out; int sign; } cases[] = {
		{ R500_AOP_RCP, 0.0f, INFINITY, 0 }, { R500_AOP_RCP, -0.0f, -INFINITY, 0 },
		{ R500_AOP_RCP, INFINITY, 0.0f, 1 }, { R500_AOP_RCP, -INFINITY, -0.0f, -1 },
		{ R500_AOP_RSQ, 0.0f, INFINITY, 0 }, { R500_AOP_RSQ, -0.0f, -INFINITY, 0 },
		{ R500_AOP_RSQ, -4.0f, NAN, 0 }, { R500_AOP_RSQ, INFINITY, 0.0f, 1 },
		{ R500_AOP_LN2, 0.0f, -INFINITY, 0 }, { R500_AOP_LN2, -0.0f, -INFINITY, 0 },
		{ R500_AOP_LN2, -1.0f, NAN, 0 }, { R500_AOP_EX2, -INFINITY, 0.0f, 1 },
		{ R500_AOP_EX2, INFINITY, INFINITY, 0 }, { R500_AOP_SIN, INFINITY, NAN, 0 },
		{ R500_AOP_COS, NAN, NAN, 0 }, { R500_AOP_FRC, INFINITY, NAN, 0 },
	};
	(void)inf;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tp t;
		three_const_out(&t, R500_ROP_MAD, cases[i].aop);
		tp_const(&t, 0, 0, 0, 0, cases[i].in);
		tp_run(&t);
		float a = tp_px(&t, 0, 0, 0)[3];
		if (isnan(cases[i].out))
			assert_true(isnan(a));
		else
			assert_true(a == cases[i].out);
		if (cases[i].sign)
			assert_true((signbit(a) != 0) == (cases[i].sign < 0));
		tp_done(&t);
	}
}

/* Denormals are flushed entering the shader and on results. */
static void test_denormal_flush(void **state)
{
	(void)state;
	struct tp t;
	struct r500_inst *in = three_const_out(&t, R500_ROP_MAX, R500_AOP_MAD);
	tp_const(&t, 0, 1e-40f, -1e-40f, 1e-20f, 1e-20f);
	tp_const(&t, 1, 1e-40f, -1e-40f, 1e-20f, 1e-20f);
	tp_const(&t, 2, 0, 0, 0, 0);
	in->alu.rgb_omod = R500_OMOD_DISABLE;
	tp_run(&t);
	const float *v = tp_px(&t, 0, 0, 0);
	assert_true(v[0] == 0.0f && !signbit(v[0]));
	assert_true(v[1] == 0.0f && signbit(v[1]));   /* -denormal -> -0 */
	assert_true(v[2] == 1e-20f);
	assert_true(v[3] == 0.0f);                     /* 1e-40 result flushed */
	tp_done(&t);
}

/* 0 * x = 0 for every x in MAD and the dot products. */
static void test_zero_times_inf(void **state)
{
	(void)state;
	struct tp t;
	three_const_out(&t, R500_ROP_MAD, R500_AOP_MAD);
	tp_const(&t, 0, 0, INFINITY, 0, NAN);
	tp_const(&t, 1, INFINITY, 0, NAN, 0);
	tp_const(&t, 2, 5, 6, 7, 8);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 5, 6, 7, 8);
	tp_done(&t);

	three_const_out(&t, R500_ROP_DP3, R500_AOP_DP);
	tp_const(&t, 0, 0, 1, 1, 0);
	tp_const(&t, 1, INFINITY, 2, 3, 0);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 5, 5, 5, 5);
	tp_done(&t);
}

/* MAD is fused: one rounding of (1+2^-12)^2 - 1 keeps the 2^-24 term. */
static void test_mad_fused(void **state)
{
	(void)state;
	struct tp t;
	float a = 1.0f + ldexpf(1.0f, -12);
	three_const_out(&t, R500_ROP_MAD, R500_AOP_MAD);
	tp_const(&t, 0, a, a, a, a);
	tp_const(&t, 1, a, a, a, a);
	tp_const(&t, 2, -1, -1, -1, -1);
	tp_run(&t);
	float e = ldexpf(1.0f, -11) + ldexpf(1.0f, -24);
	for (int c = 0; c < 4; c++)
		assert_true(tp_px(&t, 0, 0, 0)[c] == e);
	tp_done(&t);
}

static void test_reserved_opcode_fails(void **state)
{
	(void)state;
	static const int rops[] = { R500_ROP_RESERVED6, R500_ROP_RESERVED13, 15 };
	for (size_t i = 0; i < 3; i++) {
		struct tp t;
		three_const_out(&t, rops[i], R500_AOP_MAD);
		assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
		assert_non_null(strstr(t.why, "reserved"));
		assert_null(t.img.rt[0]);
	}
	struct tp t;
	three_const_out(&t, R500_ROP_MAD, R500_AOP_RESERVED4);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	three_const_out(&t, R500_ROP_SOP, R500_AOP_MAD);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "SOP"));
	three_const_out(&t, R500_ROP_MAD, R500_AOP_DP);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mad),
		cmocka_unit_test(test_dp3_and_alpha_dp),
		cmocka_unit_test(test_dp4_alpha_terms),
		cmocka_unit_test(test_d2a),
		cmocka_unit_test(test_min_max),
		cmocka_unit_test(test_min_max_ties),
		cmocka_unit_test(test_cnd_cmp),
		cmocka_unit_test(test_frc),
		cmocka_unit_test(test_sop_transcendentals),
		cmocka_unit_test(test_sop_omod),
		cmocka_unit_test(test_special_values),
		cmocka_unit_test(test_denormal_flush),
		cmocka_unit_test(test_zero_times_inf),
		cmocka_unit_test(test_mad_fused),
		cmocka_unit_test(test_reserved_opcode_fails),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
