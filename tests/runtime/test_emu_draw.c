/* Emulator: the whole draw shares one program counter (ISA.md §12).  Each
 * test builds a case where a per-quad PC would give another answer: a
 * quad that wants a jump the rest of the draw refuses, an "any" jump
 * wanted by one quad, a loop one quad leaves early while another keeps
 * iterating, helper pixels voting on a jump.  Plus the per-pixel frame of
 * temporaries, sized by what the program can address. */
#include "test_emu_fc_util.h"
#include "emu_internal.h"

/* OUT: rgb = t[rgb_temp].rgb, alpha = t[a_temp].a. */
static void out_temps(struct tp *t, int rgb_temp, int a_temp)
{
	struct r500_inst *o = tp_out(t);
	tp_src_temp(o, 0, rgb_temp);
	o->alu.alpha_addr.src[0] = T(a_temp);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
}

/* 4x2 pixels = two quads; u = 0.125, 0.375 (quad 0), 0.625, 0.875 (quad 1). */
static void init_two_quads(struct tp *t)
{
	tp_init(t);
	t->cfg.width = 4;
	t->cfg.height = 2;
	tp_const(t, 0, 0, 0, 0, 0);
}

/* IF (u < 0.5) in Mesa's encoding (JUMP_ANY = 0, jump when the ALU result
 * is false): every pixel of quad 1 wants the jump, no pixel of quad 0
 * does.  Over the draw the answer is "not all", so nobody jumps and quad
 * 1's pixels go inactive (B_OP0 = INCR) until ENDIF.  The WRITE_INACTIVE
 * slot inside the block shows that quad 1 did run through it. */
static void test_if_quad_wants_jump_draw_does_not(void **state)
{
	(void)state;
	struct tp t;
	init_two_quads(&t);
	add(&t, 1, K(0), K(0));                                     /* 0 t1 = 0 */
	add(&t, 2, K(0), K(0));                                     /* 1 t2 = 0 */
	cond_x_plus(&t, I(0x30), 1);                                /* 2 u - 0.5 < 0 */
	struct r500_inst *f = fc(&t, R500_FC_JUMP, 0x0F, 0, 6);     /* 3 IF */
	f->fc.b_op0 = R500_FC_B_INCR;
	f->fc.ignore_uncovered = 1;
	add(&t, 1, T(1), I(0x38));                                  /* 4 t1 += 1 */
	add(&t, 2, T(2), I(0x38))->cmn.write_inactive = 1;          /* 5 t2 += 1 */
	f = fc(&t, R500_FC_JUMP, 0x00, 1, 7);                       /* 6 ENDIF */
	f->fc.b_op0 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	add(&t, 1, T(1), I(0x40));                                  /* 7 t1 += 2 */
	out_temps(&t, 1, 2);                                        /* 8 */
	tp_run(&t);
	/* quad 0 took the block: 1 + 2; quad 1 was inactive in it: 2; all
	 * pixels passed slot 5 (a per-quad PC would leave quad 1 at a = 0) */
	for (int y = 0; y < 2; y++) {
		tp_expect(&t, 0, 0, y, 3, 3, 3, 1);
		tp_expect(&t, 0, 1, y, 3, 3, 3, 1);
		tp_expect(&t, 0, 2, y, 2, 2, 2, 1);
		tp_expect(&t, 0, 3, y, 2, 2, 2, 1);
	}
	assert_null(t.img.warnings);
	tp_done(&t);
}

/* A JUMP with no branch-counter ops: with JUMP_ANY = 1 quad 0's wish
 * alone moves the whole draw past the block; with JUMP_ANY = 0 quad 0's
 * wish is outvoted and, still active, it runs the block too. */
static void test_jump_decided_over_draw(void **state)
{
	(void)state;
	for (int any = 0; any <= 1; any++) {
		struct tp t;
		init_two_quads(&t);
		add(&t, 1, K(0), K(0));                             /* 0 t1 = 0 */
		cond_x_plus(&t, I(0x30), 1);                        /* 1 u < 0.5 */
		fc(&t, R500_FC_JUMP, 0xF0, any, 4);                 /* 2 jump if true */
		add(&t, 1, T(1), I(0x38));                          /* 3 t1 += 1 */
		add(&t, 1, T(1), I(0x40));                          /* 4 t1 += 2 */
		out_temps(&t, 1, 1);                                /* 5 */
		tp_run(&t);
		float v = any ? 2.0f : 3.0f;
		for (int x = 0; x < 4; x++)
			tp_expect(&t, 0, x, 1, v, v, v, v);
		tp_done(&t);
	}
}

/* Default loop {255, 0, 0}; t1 counts a pixel's own iterations and it
 * breaks once t1 >= 8u, i.e. after 1, 3 (quad 0) and 5, 7 (quad 1)
 * iterations.  Quad 0 leaves early but stays out of the loop, inactive,
 * until the last pixel breaks: the loop body runs 7 times for the draw,
 * which the WRITE_INACTIVE counter t2 shows in every pixel (a per-quad PC
 * would give quad 0 only 3). */
static void test_loop_one_quad_breaks_early(void **state)
{
	(void)state;
	struct tp t;
	init_two_quads(&t);
	add(&t, 1, K(0), K(0));                                     /* 0 t1 = 0 */
	add(&t, 2, K(0), K(0));                                     /* 1 t2 = 0 */
	fc(&t, R500_FC_LOOP, 0x00, 0, 7);                           /* 2 */
	add(&t, 2, T(2), I(0x38))->cmn.write_inactive = 1;          /* 3 t2 += 1 */
	add(&t, 1, T(1), I(0x38));                                  /* 4 t1 += 1 */
	/* 5: alu = (t0.x * -8 + t1 >= 0) */
	struct r500_inst *c = tp_alu(&t, R500_TYPE_ALU);
	c->alu.rgb_addr.src[0] = T(0);
	c->alu.rgb_addr.src[1] = I(0x50);                            /* 8.0 */
	c->alu.rgb_addr.src[2] = T(1);
	c->alu.rgb_arg[1].mod = R500_MOD_NEG;
	c->alu.alu_wmask = 1;
	c->cmn.alu_result_op = R500_CMP_GE0;
	fc(&t, R500_FC_BREAKLOOP, 0xF0, 0, 8)->fc.b_op1 = R500_FC_B_DECR; /* 6 */
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 3);                        /* 7 */
	out_temps(&t, 1, 2);                                        /* 8 */
	tp_run(&t);
	for (int y = 0; y < 2; y++) {
		tp_expect(&t, 0, 0, y, 1, 1, 1, 7);
		tp_expect(&t, 0, 1, y, 3, 3, 3, 7);
		tp_expect(&t, 0, 2, y, 5, 5, 5, 7);
		tp_expect(&t, 0, 3, y, 7, 7, 7, 7);
	}
	assert_null(t.img.warnings);
	tp_done(&t);
}

/* Helper pixels run with the draw and vote: in a 3x1 draw (padded to
 * 4x2) only the helpers at x = 3 have u > 1.  An "any" jump over the
 * OUT slot is taken because of them, unless IGNORE_UNCOVERED leaves
 * them out. */
static void test_helpers_vote_unless_ignored(void **state)
{
	(void)state;
	for (int ignore = 0; ignore <= 1; ignore++) {
		struct tp t;
		tp_init(&t);
		t.cfg.width = 3;
		t.cfg.height = 1;
		cond_x_plus(&t, I(0x38), 1);                        /* 0 u - 1 < 0 */
		fc(&t, R500_FC_JUMP, 0x0F, 1, 3)->fc.ignore_uncovered = (uint16_t)ignore;
		out_const_swz(&t, R500_SWZ_ONE, R500_SWZ_ZERO, R500_SWZ_ZERO); /* 2 */
		struct r500_inst *end = tp_out(&t);                 /* 3 */
		end->cmn.rgb_omask = end->cmn.alpha_omask = 0;
		tp_run(&t);
		for (int x = 0; x < 3; x++) {
			if (ignore)
				tp_expect(&t, 0, x, 0, 1, 0, 0, 1);
			else
				tp_expect(&t, 0, x, 0, 0, 0, 0, 0);
		}
		tp_done(&t);
	}
}

/* MDH inside a branch: quad 0's right pixels are inactive, yet their
 * src0 still feeds the left pixels' derivative (u step 0.25). */
static void test_derivative_across_inactive_neighbour(void **state)
{
	(void)state;
	struct tp t;
	init_two_quads(&t);
	add(&t, 1, K(0), K(0));                                     /* 0 t1 = 0 */
	cond_x_plus(&t, I(0x30), 1);                                /* 1 u < 0.5 */
	t.code[1].alu.rgb_addr.src[1] = K(1);                       /* u - 0.25 */
	tp_const(&t, 1, 0.25f, 0.25f, 0.25f, 0.25f);
	struct r500_inst *f = fc(&t, R500_FC_JUMP, 0x0F, 0, 4);     /* 2 IF */
	f->fc.b_op0 = R500_FC_B_INCR;
	/* 3: t1 = MDH(t0): t0(right) - t0(left) */
	struct r500_inst *d = tp_alu(&t, R500_TYPE_ALU);
	d->alu.rgb_op = R500_ROP_MDH;
	d->alu.alpha_op = R500_AOP_MDH;
	tp_src_temp(d, 0, 0);
	tp_rgb_swz(d, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	d->alu.rgb_arg[1].mod = R500_MOD_NEG;
	d->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	d->alu.alpha_arg[1].mod = R500_MOD_NEG;
	d->alu.rgb_addrd = d->alu.alpha_addrd = 1;
	d->cmn.rgb_wmask = 7;
	d->cmn.alpha_wmask = 1;
	f = fc(&t, R500_FC_JUMP, 0x00, 1, 5);                       /* 4 ENDIF */
	f->fc.b_op0 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	out_temps(&t, 1, 1);                                        /* 5 */
	tp_run(&t);
	/* only x = 0 has u < 0.25; its dFdx of (u, v, 0, 1) is (0.25, 0, 0, 0) */
	tp_expect(&t, 0, 0, 0, 0.25f, 0, 0, 0);
	tp_expect(&t, 0, 1, 0, 0, 0, 0, 0);
	tp_expect(&t, 0, 2, 1, 0, 0, 0, 0);
	tp_done(&t);
}

/* The frame holds the highest temporary an address field names (+1), or
 * all 128 once any temporary is addressed relative to aL; constants,
 * inline values and FC slots do not count. */
static void test_frame_size(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);                            /* input in t0 */
	add(&t, 5, T(3), I(0x38));
	assert_int_equal(emu_frame_temps(tp_prog(&t)), 6);
	struct r500_addr krel = K(200);
	krel.rel = 1;
	add(&t, 2, krel, I(0x7F));              /* relative constant, inline */
	struct r500_inst *f = fc(&t, R500_FC_JUMP, 0, 0, 0);
	f->alu.rgb_addrd = 100;                 /* not an ALU slot: ignored */
	assert_int_equal(emu_frame_temps(tp_prog(&t)), 6);
	t.inputs[0].temp = 9;
	assert_int_equal(emu_frame_temps(tp_prog(&t)), 10);
	struct r500_inst *x = &t.code[t.n++];
	memset(x, 0, sizeof *x);
	x->cmn.type = R500_TYPE_TEX;
	x->tex.dst_addr = 17;
	assert_int_equal(emu_frame_temps(tp_prog(&t)), 18);
	x->tex.src_addr_rel = 1;
	assert_int_equal(emu_frame_temps(tp_prog(&t)), R500_NUM_TEMPS);
	x->tex.src_addr_rel = 0;
	struct r500_addr trel = T(1);
	trel.rel = 1;
	add(&t, 0, trel, I(0));
	assert_int_equal(emu_frame_temps(tp_prog(&t)), R500_NUM_TEMPS);
}

/* A large draw of a program with relative temporaries needs 128 per pixel:
 * 2048x2048 of them exceeds the limit and fails cleanly, while the same
 * program runs on a small draw. */
static void test_large_relative_draw_fails_cleanly(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 7, 7, 7, 7);
	t.p.int_const_used = 1;
	t.p.int_consts[0] = (struct r500_loop_const){ .count = 1, .init = 1, .step = 0 };
	fc(&t, R500_FC_LOOP, 0x00, 0, 2);                           /* 0 */
	struct r500_inst *w = add(&t, 0, K(0), I(0));               /* 1 t[aL] = c0 */
	w->alu.rgb_addrd_rel = w->alu.alpha_addrd_rel = 1;
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 1);                        /* 2 */
	out_temps(&t, 1, 1);                                        /* 3 */
	tp_run(&t);
	tp_expect(&t, 0, 1, 1, 7, 7, 7, 7);
	tp_done(&t);
	t.cfg.width = t.cfg.height = 2048;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "128 temporaries"));
	assert_null(t.img.rt[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_if_quad_wants_jump_draw_does_not),
		cmocka_unit_test(test_jump_decided_over_draw),
		cmocka_unit_test(test_loop_one_quad_breaks_early),
		cmocka_unit_test(test_helpers_vote_unless_ignored),
		cmocka_unit_test(test_derivative_across_inactive_neighbour),
		cmocka_unit_test(test_frame_size),
		cmocka_unit_test(test_large_relative_draw_fails_cleanly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
