/* Emulator: result writes (ISA.md §6.6) - write masks, separate RGB and
 * alpha destinations, render targets A-D and depth, output masks,
 * predicate writes and predication, inputs, poisoned temporaries. */
#include "test_emu_util.h"

/* An ALU slot writing MAD(c[k], 1, 0) = c[k] to t[dst] under masks. */
static struct r500_inst *alu_mov(struct tp *t, int type, int k, int dst, int wrgb, int wa)
{
	struct r500_inst *in = tp_alu(t, type);
	tp_src_const(in, 0, k);
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	tp_rgb_swz(in, 2, R500_SWZ_ZERO, R500_SWZ_ZERO, R500_SWZ_ZERO);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	in->alu.alpha_arg[2].swz[0] = R500_SWZ_ZERO;
	in->alu.rgb_addrd = (uint16_t)dst;
	in->alu.alpha_addrd = (uint16_t)dst;
	in->cmn.rgb_wmask = (uint16_t)wrgb;
	in->cmn.alpha_wmask = (uint16_t)wa;
	return in;
}

/* OUT of temporary n to render target 0. */
static struct r500_inst *out_temp(struct tp *t, int n)
{
	struct r500_inst *in = tp_out(t);
	tp_src_temp(in, 0, n);
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	tp_rgb_swz(in, 2, R500_SWZ_ZERO, R500_SWZ_ZERO, R500_SWZ_ZERO);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	in->alu.alpha_arg[2].swz[0] = R500_SWZ_ZERO;
	return in;
}

static void test_write_masks(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 9, 9, 9, 9);
	tp_const(&t, 1, 1, 2, 3, 4);
	alu_mov(&t, R500_TYPE_ALU, 0, 1, 7, 1);
	alu_mov(&t, R500_TYPE_ALU, 1, 1, 5, 0);   /* .r and .b only */
	out_temp(&t, 1);
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 1, 9, 3, 9);
	assert_null(t.img.warnings);
	tp_done(&t);
}

static void test_separate_destinations(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 9, 9, 9, 9);
	tp_const(&t, 1, 1, 2, 3, 4);
	alu_mov(&t, R500_TYPE_ALU, 0, 1, 7, 1);
	alu_mov(&t, R500_TYPE_ALU, 0, 2, 7, 1);
	struct r500_inst *in = alu_mov(&t, R500_TYPE_ALU, 1, 1, 7, 1);
	in->alu.alpha_addrd = 2;
	struct r500_inst *o = out_temp(&t, 1);
	o->alu.alpha_addr.src[0].addr = 2;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 1, 2, 3, 4);     /* t1.rgb, t2.a */
	tp_done(&t);
}

static void test_targets_and_depth(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 1, 2, 3, 0.25f);
	tp_const(&t, 1, 5, 6, 7, 8);
	struct r500_inst *a = alu_mov(&t, R500_TYPE_OUT, 0, 0, 0, 0);
	a->cmn.rgb_omask = 7;
	a->cmn.alpha_omask = 1;
	a->alu.rgb_target = 1;     /* B */
	a->alu.alpha_target = 2;   /* C */
	a->alu.w_omask = 1;        /* depth = alpha */
	struct r500_inst *b = alu_mov(&t, R500_TYPE_OUT, 1, 0, 0, 0);
	b->cmn.rgb_omask = 2;      /* only .g */
	b->cmn.alpha_omask = 1;
	b->alu.rgb_target = 3;     /* D */
	b->alu.alpha_target = 3;
	tp_run(&t);
	tp_expect(&t, 1, 1, 1, 1, 2, 3, 0);
	tp_expect(&t, 2, 1, 1, 0, 0, 0, 0.25f);
	tp_expect(&t, 3, 1, 1, 0, 6, 0, 8);
	tp_expect(&t, 0, 1, 1, 0, 0, 0, 0);
	assert_true(t.img.depth[3] == 0.25f);
	assert_false(t.img.discarded[3]);
	tp_done(&t);
}

/* Unwritten depth is the fragment's z, 0.5. */
static void test_default_depth(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 1, 2, 3, 4);
	alu_mov(&t, R500_TYPE_OUT, 0, 0, 0, 0);
	tp_run(&t);
	assert_true(t.img.depth[0] == 0.5f);
	tp_done(&t);
}

static void test_predicates(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, -1, 0, 1, -2);
	tp_const(&t, 1, 5, 6, 7, 8);
	/* P.rgb = (v < 0) = (1, 0, 0); P.a = (-2 >= 0) = 0 */
	struct r500_inst *p = alu_mov(&t, R500_TYPE_ALU, 0, 5, 0, 0);
	p->cmn.rgb_omask = 7;
	p->alu.rgb_target = R500_CMP_LT0;
	p->cmn.alpha_omask = 1;
	p->alu.alpha_target = R500_CMP_GE0;
	/* per channel: only .r */
	struct r500_inst *o = alu_mov(&t, R500_TYPE_OUT, 1, 0, 0, 0);
	o->cmn.rgb_omask = 7;
	o->cmn.alpha_omask = 1;
	o->cmn.rgb_pred_sel = R500_PRED_RGBA;
	o->cmn.alpha_pred_sel = R500_PRED_RGBA;
	/* !P.g for all of rgb; P.r for alpha */
	o = alu_mov(&t, R500_TYPE_OUT, 1, 0, 0, 0);
	o->cmn.rgb_omask = 7;
	o->cmn.alpha_omask = 1;
	o->alu.rgb_target = 1;
	o->alu.alpha_target = 1;
	o->cmn.rgb_pred_sel = R500_PRED_GGGG;
	o->cmn.rgb_pred_inv = 1;
	o->cmn.alpha_pred_sel = R500_PRED_RRRR;
	/* !P.r: no rgb; !P.a: alpha */
	o = alu_mov(&t, R500_TYPE_OUT, 1, 0, 0, 0);
	o->cmn.rgb_omask = 7;
	o->cmn.alpha_omask = 1;
	o->alu.rgb_target = 2;
	o->alu.alpha_target = 2;
	o->cmn.rgb_pred_sel = R500_PRED_RRRR;
	o->cmn.rgb_pred_inv = 1;
	o->cmn.alpha_pred_sel = R500_PRED_AAAA;
	o->cmn.alpha_pred_inv = 1;
	/* predicated temp write: t3 = c1 where P.b (false) else stays c0 */
	alu_mov(&t, R500_TYPE_ALU, 0, 3, 7, 1);
	struct r500_inst *w = alu_mov(&t, R500_TYPE_ALU, 1, 3, 7, 1);
	w->cmn.rgb_pred_sel = R500_PRED_BBBB;
	w->cmn.alpha_pred_sel = R500_PRED_RRRR;
	o = out_temp(&t, 3);
	o->alu.rgb_target = 3;
	o->alu.alpha_target = 3;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 5, 0, 0, 0);
	tp_expect(&t, 1, 0, 0, 5, 6, 7, 8);
	tp_expect(&t, 2, 0, 0, 0, 0, 0, 8);
	tp_expect(&t, 3, 0, 0, -1, 0, 1, 8);
	tp_done(&t);
}

/* Inputs: default (u, v, 0, 1), named varyings bilinear from the corners,
 * gl_FragCoord; only the listed components are written. */
static void test_inputs(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	t.cfg.width = 4;
	t.cfg.height = 2;
	t.inputs[1] = (struct r500_input){ .name = "col", .temp = 1, .components = "xyzw" };
	t.inputs[2] = (struct r500_input){ .name = "gl_FragCoord", .temp = 2, .components = "xy" };
	t.ninputs = 3;
	static const struct emu_varying var[] = { { .name = "col", .corners = {
		{ 0, 0, 0, 0 }, { 4, 0, 0, 0 }, { 0, 2, 0, 8 }, { 4, 2, 0, 8 } } } };
	t.cfg.varyings = var;
	t.cfg.nvaryings = 1;
	tp_const(&t, 0, 0, 0, 0, 0);
	struct r500_inst *o = out_temp(&t, 0);       /* rt0 = t0 */
	o = out_temp(&t, 1);                         /* rt1 = t1 */
	o->alu.rgb_target = o->alu.alpha_target = 1;
	o = out_temp(&t, 2);                         /* rt2 = t2.xy */
	o->cmn.rgb_omask = 3;
	o->cmn.alpha_omask = 0;
	o->alu.rgb_target = 2;
	tp_run(&t);
	tp_expect(&t, 0, 1, 0, 0.375f, 0.25f, 0, 1);
	tp_expect(&t, 0, 3, 1, 0.875f, 0.75f, 0, 1);
	/* x: 4 * (x + 0.5) / 4; y: 2 * (y + 0.5) / 2; w: 8 * (y + 0.5) / 2 */
	tp_expect(&t, 1, 1, 0, 1.5f, 0.5f, 0, 2);
	tp_expect(&t, 1, 2, 1, 2.5f, 1.5f, 0, 6);
	tp_expect(&t, 2, 3, 1, 3.5f, 1.5f, 0, 0);
	tp_done(&t);
}

/* A never-written component reads as poison and is reported. */
static void test_poison_warning(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 1, 2, 3, 4);
	alu_mov(&t, R500_TYPE_ALU, 0, 1, 1, 0);  /* only t1.x */
	struct r500_inst *o = out_temp(&t, 1);
	o->cmn.rgb_omask = 1;                    /* reads t1.x: fine */
	o->cmn.alpha_omask = 0;
	tp_run(&t);
	assert_null(t.img.warnings);
	tp_done(&t);

	o->cmn.rgb_omask = 3;                    /* reads t1.y: never written */
	tp_run(&t);
	assert_non_null(t.img.warnings);
	assert_non_null(strstr(t.img.warnings, "t1.y"));
	assert_true(isnan(tp_px(&t, 0, 0, 0)[1]));
	tp_done(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_masks),
		cmocka_unit_test(test_separate_destinations),
		cmocka_unit_test(test_targets_and_depth),
		cmocka_unit_test(test_default_depth),
		cmocka_unit_test(test_predicates),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_poison_warning),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
