/* Emulator: flow control (ISA.md §6.11, §12) in Mesa's encodings - if/else
 * with B_ELSE and branch counters, pixels diverging inside a quad, loops
 * with aL and int consts, BREAKLOOP, CONTINUE, call/return - plus the
 * runaway guard and hostile programs. */
#include "test_emu_fc_util.h"

/* if (u < 0.5) red else green, in Mesa's encoding; the quad's two
 * columns diverge. */
static void build_if_else(struct tp *t, struct r500_addr c, int neg)
{
	tp_init(t);
	cond_x_plus(t, c, neg);                                      /* 0 */
	struct r500_inst *f = fc(t, R500_FC_JUMP, 0x0F, 0, 4);      /* 1 IF */
	f->fc.b_op0 = R500_FC_B_INCR;
	f->fc.b_op1 = R500_FC_B_INCR;
	f->fc.ignore_uncovered = 1;
	out_const_swz(t, R500_SWZ_ONE, R500_SWZ_ZERO, R500_SWZ_ZERO); /* 2 */
	f = fc(t, R500_FC_JUMP, 0x00, 0, 6);                        /* 3 ELSE */
	f->fc.b_else = 1;
	f->fc.b_op1 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	out_const_swz(t, R500_SWZ_ZERO, R500_SWZ_ONE, R500_SWZ_ZERO); /* 4 */
	f = fc(t, R500_FC_JUMP, 0x00, 1, 6);                        /* 5 ENDIF */
	f->fc.b_op0 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	struct r500_inst *end = tp_out(t);                          /* 6 */
	end->cmn.rgb_omask = end->cmn.alpha_omask = 0;
}

static void test_if_else_diverging(void **state)
{
	(void)state;
	struct tp t;
	build_if_else(&t, I(0x30), 1);          /* u - 0.5 < 0 */
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 1, 0, 0, 1);
	tp_expect(&t, 0, 0, 1, 1, 0, 0, 1);
	tp_expect(&t, 0, 1, 0, 0, 1, 0, 1);
	tp_expect(&t, 0, 1, 1, 0, 1, 0, 1);
	assert_null(t.img.warnings);
	tp_done(&t);
}

/* Compiler bugs the emulator reports: a jump on an ALU result no ALU slot
 * wrote since the last FC slot; a program not ending on OUT. */
static void test_fc_warnings(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	cond_x_plus(&t, I(0x30), 1);
	fc(&t, R500_FC_JUMP, 0x0F, 0, 2);
	fc(&t, R500_FC_JUMP, 0x0F, 0, 3);       /* stale ALU result */
	tp_alu(&t, R500_TYPE_ALU);               /* last slot not OUT */
	tp_run(&t);
	assert_non_null(t.img.warnings);
	assert_non_null(strstr(t.img.warnings, "slot 2: jump decision reads an ALU result"));
	assert_non_null(strstr(t.img.warnings, "slot 3: the program ends"));
	assert_null(strstr(t.img.warnings, "slot 1:"));
	tp_done(&t);
}

/* WRITE_INACTIVE: the else-branch output reaches the inactive pixels too. */
static void test_write_inactive(void **state)
{
	(void)state;
	struct tp t;
	build_if_else(&t, I(0x30), 1);
	t.code[4].cmn.write_inactive = 1;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0, 1, 0, 1);
	tp_expect(&t, 0, 1, 1, 0, 1, 0, 1);
	tp_done(&t);
}

static void test_if_else_uniform(void **state)
{
	(void)state;
	struct tp t;
	build_if_else(&t, I(0x38), 0);          /* u + 1 < 0: never */
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0, 1, 0, 1);
	tp_expect(&t, 0, 1, 1, 0, 1, 0, 1);
	tp_done(&t);
	build_if_else(&t, I(0x38), 1);          /* u - 1 < 0: always */
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 1, 0, 0, 1);
	tp_expect(&t, 0, 1, 1, 1, 0, 0, 1);
	tp_done(&t);
}

/* Nested if inside a diverged if: counters keep the outer-inactive pixels
 * inactive through the inner ENDIF. */
static void test_nested_if_counters(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	t.cfg.width = 4;
	t.cfg.height = 2;
	tp_const(&t, 0, -0.5f, 0, 0, 0);
	tp_const(&t, 1, -0.25f, 0, 0, 0);
	tp_const(&t, 2, 0, 0, 0, 0);
	add(&t, 1, K(2), K(2));                                     /* 0 t1 = 0 */
	cond_x_plus(&t, K(0), 0);                                   /* 1 u < 0.5 */
	struct r500_inst *f = fc(&t, R500_FC_JUMP, 0x0F, 0, 9);     /* 2 IF */
	f->fc.b_op0 = R500_FC_B_INCR;
	cond_x_plus(&t, K(1), 0);                                   /* 3 u < 0.25 */
	f = fc(&t, R500_FC_JUMP, 0x0F, 0, 6);                       /* 4 IF */
	f->fc.b_op0 = R500_FC_B_INCR;
	add(&t, 1, T(1), I(0x38));                                  /* 5 t1 += 1 */
	f = fc(&t, R500_FC_JUMP, 0x00, 1, 7);                       /* 6 ENDIF */
	f->fc.b_op0 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	add(&t, 1, T(1), I(0x40));                                  /* 7 t1 += 2 */
	f = fc(&t, R500_FC_JUMP, 0x00, 1, 9);                       /* 8 ENDIF */
	f->fc.b_op0 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	struct r500_inst *o = tp_out(&t);                           /* 9 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	tp_run(&t);
	/* u = 0.125: both ifs -> 1 + 2; u = 0.375: outer only -> 2;
	 * u >= 0.5: neither -> 0 */
	tp_expect(&t, 0, 0, 0, 3, 3, 3, 3);
	tp_expect(&t, 0, 1, 1, 2, 2, 2, 2);
	tp_expect(&t, 0, 2, 0, 0, 0, 0, 0);
	tp_expect(&t, 0, 3, 1, 0, 0, 0, 0);
	tp_done(&t);
}

/* LOOP with int const {3, init 1, step 2}: t1 += c[aL] for aL = 1, 3, 5. */
static void test_loop_al_relative(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	for (int k = 0; k < 8; k++)
		tp_const(&t, k, (float)(1 << (k * 2)), 0, 0, 0);  /* 1, 4, 16, 64, ... */
	tp_const(&t, 8, 0, 0, 0, 0);
	t.p.int_const_used = 1u << 2;
	t.p.int_consts[2] = (struct r500_loop_const){ .count = 3, .init = 1, .step = 2 };
	add(&t, 1, K(8), K(8));                                     /* 0 t1 = 0 */
	struct r500_inst *l = fc(&t, R500_FC_LOOP, 0x00, 0, 3);     /* 1 */
	l->fc.int_addr = 2;
	struct r500_addr rel = K(0);
	rel.rel = 1;
	add(&t, 1, T(1), rel);                                      /* 2 t1 += c[aL] */
	l = fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 2);                    /* 3 */
	l->fc.int_addr = 2;
	struct r500_inst *o = tp_out(&t);                           /* 4 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	tp_run(&t);
	/* c1 + c3 + c5 = 4 + 64 + 1024 */
	assert_true(tp_px(&t, 0, 1, 1)[0] == 1092.0f);
	tp_done(&t);
}

/* Relative temporary addressing wraps at 128: t[127 + aL] with aL = 2
 * is t1. */
static void test_relative_temp_wraps(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 7, 7, 7, 7);
	t.p.int_const_used = 1;
	t.p.int_consts[0] = (struct r500_loop_const){ .count = 1, .init = 2, .step = 0 };
	fc(&t, R500_FC_LOOP, 0x00, 0, 2);                           /* 0 */
	struct r500_inst *w = add(&t, 127, K(0), I(0));             /* 1 t[127+aL] = c0 */
	w->alu.rgb_addrd_rel = w->alu.alpha_addrd_rel = 1;
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 1);                        /* 2 */
	struct r500_inst *o = tp_out(&t);                           /* 3 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 7, 7, 7, 7);
	tp_done(&t);
}

/* Default loop constant (255, 0, 0) and BREAKLOOP when t1 >= 8u:
 * u = 0.25 leaves after 2 iterations, u = 0.75 after 6. */
static void test_breakloop_diverging(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 0, 0, 0, 0);
	add(&t, 1, K(0), K(0));                                     /* 0 t1 = 0 */
	fc(&t, R500_FC_LOOP, 0x00, 0, 5);                           /* 1 */
	add(&t, 1, T(1), I(0x38));                                  /* 2 t1 += 1 */
	/* 3: alu = (t0.x * -8 + t1 >= 0) */
	struct r500_inst *c = tp_alu(&t, R500_TYPE_ALU);
	c->alu.rgb_addr.src[0] = T(0);
	c->alu.rgb_addr.src[1] = I(0x50);                            /* 8.0 */
	c->alu.rgb_addr.src[2] = T(1);
	c->alu.rgb_arg[1].mod = R500_MOD_NEG;
	c->alu.alu_wmask = 1;
	c->cmn.alu_result_op = R500_CMP_GE0;
	struct r500_inst *b = fc(&t, R500_FC_BREAKLOOP, 0xF0, 0, 6); /* 4 */
	b->fc.b_op1 = R500_FC_B_DECR;
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 2);                        /* 5 */
	struct r500_inst *o = tp_out(&t);                           /* 6 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 2, 2, 2, 2);
	tp_expect(&t, 0, 1, 0, 6, 6, 6, 6);
	tp_expect(&t, 0, 0, 1, 2, 2, 2, 2);
	assert_null(t.img.warnings);
	tp_done(&t);
}

/* CONTINUE: 4 iterations; left-column pixels skip the t2 increment. */
static void test_continue(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 0, 0, 0, 0);
	t.p.int_const_used = 1u << 1;
	t.p.int_consts[1] = (struct r500_loop_const){ .count = 4, .init = 0, .step = 1 };
	add(&t, 1, K(0), K(0));                                     /* 0 */
	add(&t, 2, K(0), K(0));                                     /* 1 */
	struct r500_inst *l = fc(&t, R500_FC_LOOP, 0x00, 0, 7);     /* 2 */
	l->fc.int_addr = 1;
	add(&t, 1, T(1), I(0x38));                                  /* 3 t1 += 1 */
	cond_x_plus(&t, I(0x30), 1);                                /* 4 u < 0.5 */
	fc(&t, R500_FC_CONTINUE, 0xF0, 0, 7);                       /* 5 */
	add(&t, 2, T(2), I(0x38));                                  /* 6 t2 += 1 */
	l = fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 3);                    /* 7 */
	l->fc.int_addr = 1;
	struct r500_inst *o = tp_out(&t);                           /* 8 */
	tp_src_temp(o, 0, 1);
	o->alu.alpha_addr.src[0] = T(2);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 4, 4, 4, 0);
	tp_expect(&t, 0, 1, 0, 4, 4, 4, 4);
	tp_done(&t);
}

/* A loop skipped (count 0) runs no body; its ENDLOOP neither jumps nor pops. */
static void test_loop_count_zero(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 0, 0, 0, 0);
	t.p.int_const_used = 1;
	t.p.int_consts[0] = (struct r500_loop_const){ .count = 0 };
	add(&t, 1, K(0), K(0));                                     /* 0 */
	fc(&t, R500_FC_LOOP, 0x00, 0, 3);                           /* 1 */
	add(&t, 1, T(1), I(0x38));                                  /* 2 */
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 2);                        /* 3 */
	struct r500_inst *o = tp_out(&t);                           /* 4 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0, 0, 0, 0);
	tp_done(&t);
}

/* JUMP with PUSH calls, JUMP with POP returns to the slot after the call. */
static void test_call_return(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_const(&t, 0, 7, 7, 7, 7);
	fc(&t, R500_FC_JUMP, 0xFF, 1, 3);                           /* 0 skip sub */
	add(&t, 1, K(0), I(0x38));                                  /* 1 t1 = 8 */
	fc(&t, R500_FC_JUMP, 0xFF, 1, 0)->fc.a_op = R500_FC_A_POP;  /* 2 return */
	fc(&t, R500_FC_JUMP, 0xFF, 1, 1)->fc.a_op = R500_FC_A_PUSH; /* 3 call */
	struct r500_inst *o = tp_out(&t);                           /* 4 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 8, 8, 8, 8);
	tp_done(&t);
}

/* Predicate-driven jump: JUMP_FUNC 0xCC jumps where the predicate is set. */
static void test_predicate_jump(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	struct r500_inst *p = tp_alu(&t, R500_TYPE_ALU);            /* 0 P.r = 1 >= 0 */
	tp_rgb_swz(p, 0, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	p->cmn.rgb_omask = 1;
	p->alu.rgb_target = R500_CMP_GE0;
	struct r500_inst *j = fc(&t, R500_FC_JUMP, 0xCC, 0, 3);     /* 1 */
	j->cmn.rgb_pred_sel = R500_PRED_RRRR;
	out_const_swz(&t, R500_SWZ_ONE, R500_SWZ_ZERO, R500_SWZ_ZERO); /* 2 skipped */
	struct r500_inst *o = out_const_swz(&t, R500_SWZ_ZERO, R500_SWZ_ZERO, R500_SWZ_ONE);
	(void)o;
	tp_run(&t);
	tp_expect(&t, 0, 0, 0, 0, 0, 1, 1);
	tp_done(&t);
}

static void test_runaway_guard(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	fc(&t, R500_FC_JUMP, 0xFF, 1, 0);                           /* 0: jump to 0 */
	tp_out(&t);
	t.cfg.max_steps = 1000;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "runaway"));
	/* default guard too */
	t.cfg.max_steps = 0;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
}

static void test_stack_faults(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 0);
	tp_out(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	tp_init(&t);
	fc(&t, R500_FC_JUMP, 0xFF, 1, 0)->fc.a_op = R500_FC_A_POP;
	tp_out(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	tp_init(&t);
	fc(&t, R500_FC_LOOP, 0, 0, 2);    /* LOOPs entered again and again */
	fc(&t, R500_FC_JUMP, 0xFF, 1, 0);
	tp_out(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "overflow"));
}

/* Random instruction fields: the emulator must return, never crash. */
static void test_random_programs(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	for (int round = 0; round < 300; round++) {
		struct tp t;
		tp_init(&t);
		t.n = 1 + (int)(seed % 12);
		for (int i = 0; i < t.n; i++) {
			uint16_t *f = (uint16_t *)&t.code[i];
			for (size_t k = 0; k < sizeof t.code[i] / sizeof(uint16_t); k++) {
				seed = seed * 1103515245u + 12345u;
				f[k] = (uint16_t)(seed >> 16);
			}
		}
		for (int s = 0; s < 256; s++)
			tp_const(&t, s, (float)s, -1.0f, NAN, INFINITY);
		t.cfg.max_steps = 5000;
		if (emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why))
			emu_image_free(&t.img);
		else
			assert_true(t.why[0] != 0);
	}
}

static void test_empty_program(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	tp_out(&t);
	t.cfg.width = 0;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_if_else_diverging),
		cmocka_unit_test(test_fc_warnings),
		cmocka_unit_test(test_write_inactive),
		cmocka_unit_test(test_if_else_uniform),
		cmocka_unit_test(test_nested_if_counters),
		cmocka_unit_test(test_loop_al_relative),
		cmocka_unit_test(test_relative_temp_wraps),
		cmocka_unit_test(test_breakloop_diverging),
		cmocka_unit_test(test_continue),
		cmocka_unit_test(test_loop_count_zero),
		cmocka_unit_test(test_call_return),
		cmocka_unit_test(test_predicate_jump),
		cmocka_unit_test(test_runaway_guard),
		cmocka_unit_test(test_stack_faults),
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_empty_program),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
