/* Scheduling: RGB/alpha co-issue, the address-table limit, the lower
 * bound, TEX runs and the semaphore bits, worked out by hand. */
#include "test_compile_helpers.h"

/* vec4(a.xyz * b.xyz + c.xyz, rcp(d.<ch>)) written to gl_FragColor. */
static struct r500_program *mad_and_rcp(struct tc *t, int ch)
{
	tc_init(t);
	struct ir_instr *a = tc_input(t, "a", 4), *b = tc_input(t, "b", 4);
	struct ir_instr *c = tc_input(t, "c", 4), *d = tc_input(t, "d", 4);
	struct ir_instr *r = ir_build_alu3(&t->b, IR_OP_MAD, 3, ir_src_of(a), ir_src_of(b),
					   ir_src_of(c));
	struct ir_instr *s = ir_build_alu1(&t->b, IR_OP_RCP, 1, ir_src_comp(d, ch));
	struct ir_src v[4] = { ir_src_comp(r, 0), ir_src_comp(r, 1), ir_src_comp(r, 2),
			       ir_src_comp(s, 0) };
	tc_output(t, "gl_FragColor", 0, 4, tc_vec(t, 4, v));
	return tc_compile(t);
}

/* RGB MAD over t0,t1,t2 and alpha RCP of t3.a share one OUT slot: the RGB
 * unit uses the three RGB addresses, the RCP one alpha address. */
static void test_coissue(void **state)
{
	(void)state;
	struct tc t;
	struct r500_program *p = mad_and_rcp(&t, 3);
	assert_int_equal(p->ninst, 1);
	assert_int_equal(p->stats.pairs, 1);
	assert_int_equal(p->stats.lower_bound, 1);
	const struct r500_inst *in = &p->code[0];
	assert_int_equal(in->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(in->alu.alpha_op, R500_AOP_RCP);
	assert_int_equal(in->cmn.rgb_omask, 7);
	assert_int_equal(in->cmn.alpha_omask, 1);
	for (int k = 0; k < 3; k++)
		assert_int_equal(in->alu.rgb_addr.src[k].addr, k);
	int sel = in->alu.alpha_arg[0].sel;
	assert_int_equal(in->alu.alpha_addr.src[sel].addr, 3);
	assert_int_equal(in->alu.alpha_arg[0].swz[0], R500_SWZ_A);
	tc_fini(&t);
}

/* The same with rcp(d.x): d.x needs an RGB address, and all three are
 * taken by the MAD, so the RCP goes to a slot of its own; it then writes
 * t.a and the output needs both: 2 slots, no pair in the first. */
static void test_address_limit(void **state)
{
	(void)state;
	struct tc t;
	struct r500_program *p = mad_and_rcp(&t, 0);
	assert_int_equal(p->ninst, 2);
	assert_int_equal(p->stats.pairs, 0);
	/* the bound counts units, not addresses: it stays 1 */
	assert_int_equal(p->stats.lower_bound, 1);
	tc_fini(&t);
}

/* A chain of dependent ops: the lower bound is its length. */
static void test_lower_bound_chain(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *acc = v;
	for (int i = 0; i < 5; i++)
		acc = ir_build_alu2(&t.b, IR_OP_MAX, 4, ir_src_of(acc), ir_src_of(v));
	tc_output(&t, "gl_FragColor", 0, 4, acc);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->stats.lower_bound, 5);
	assert_int_equal(p->ninst, 5);
	tc_fini(&t);
}

/* Four scalar FRACs of four different inputs gathered into gl_FragColor
 * are computed in place, in lanes x, y, z (RGB unit) and w (alpha unit),
 * plus a vec3 FRC for target 1 (RGB): RGB work 4, alpha 1, units
 * ceil(5 / 2) = 3, chain 1, so the bound is 4, and 4 slots (the alpha op
 * co-issued) meet it.  (The inputs differ so that the three RGB FRCs
 * cannot merge into one op: their operands need three registers.) */
static void test_lower_bound_units(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	static const char *const names[4] = { "v0", "v1", "v2", "v3" };
	struct ir_instr *v = NULL;
	struct ir_instr *s[4];
	for (int i = 0; i < 4; i++) {
		struct ir_instr *vi = tc_input(&t, names[i], 4);
		v = v ? v : vi;
		s[i] = ir_build_alu1(&t.b, IR_OP_FRACT, 1, ir_src_comp(vi, i));
	}
	struct ir_instr *w = ir_build_alu1(&t.b, IR_OP_FRACT, 3, ir_src_of(v));
	struct ir_src a[4] = { ir_src_of(s[0]), ir_src_of(s[1]), ir_src_of(s[2]), ir_src_of(s[3]) };
	tc_output(&t, "gl_FragColor", 0, 4, tc_vec(&t, 4, a));
	tc_output(&t, "gl_FragData[1]", 1, 3, w);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->stats.lower_bound, 4);
	assert_int_equal(p->ninst, 4);
	tc_fini(&t);
}

/* Two lookups, one with computed coordinates: the ALU op feeding it goes
 * first, then both lookups as one run (ACQUIRE + WAIT only on the last),
 * then the reader with WAIT.  cycles = 4 + 30 - min(30, 1 + 2 + 0) = 31. */
static void test_tex_run(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	int s0 = ir_func_add_sampler(t.f, "s0", IR_TARGET_2D, false);
	int s1 = ir_func_add_sampler(t.f, "s1", IR_TARGET_2D, false);
	t.f->samplers[s1].unit = 1;
	struct ir_instr *uv = tc_input(&t, "uv", 2);
	struct ir_instr *two = ir_build_constf(&t.b, 2.0f);
	struct ir_instr *c = ir_build_alu2(&t.b, IR_OP_MUL, 2, ir_src_of(uv), ir_src_comp(two, 0));
	struct ir_src cs = ir_src_of(c), us = ir_src_of(uv);
	struct ir_instr *t1 = ir_build(&t.b, IR_OP_TEX, 4, IR_FLOAT, 1, &cs);
	t1->index = s0;
	struct ir_instr *t2 = ir_build(&t.b, IR_OP_TEX, 4, IR_FLOAT, 1, &us);
	t2->index = s1;
	struct ir_instr *sum = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(t1), ir_src_of(t2));
	tc_output(&t, "gl_FragColor", 0, 4, sum);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 4);
	assert_int_equal(p->code[0].cmn.type, R500_TYPE_ALU);
	assert_int_equal(p->code[1].cmn.type, R500_TYPE_TEX);
	assert_int_equal(p->code[2].cmn.type, R500_TYPE_TEX);
	assert_int_equal(p->code[1].tex.sem_acquire, 0);
	assert_int_equal(p->code[1].cmn.tex_sem_wait, 0);
	assert_int_equal(p->code[2].tex.sem_acquire, 1);
	assert_int_equal(p->code[2].cmn.tex_sem_wait, 1);
	assert_int_equal(p->code[3].cmn.type, R500_TYPE_OUT);
	assert_int_equal(p->code[3].cmn.tex_sem_wait, 1);
	assert_int_equal(p->stats.cycles, 31); /* 4 + 30 - (1 + 2 lookups) */
	assert_int_equal(p->stats.tex, 2);
	/* the two lookups write different temporaries */
	assert_int_not_equal(p->code[1].tex.dst_addr, p->code[2].tex.dst_addr);
	tc_fini(&t);
}

/* A lookup whose coordinates come from a lookup: the run is split (the
 * first gets ACQUIRE + WAIT, the second WAIT) so it never reads stale data. */
static void test_dependent_tex(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	int s0 = ir_func_add_sampler(t.f, "s0", IR_TARGET_2D, false);
	struct ir_instr *uv = tc_input(&t, "uv", 2);
	struct ir_src us = ir_src_of(uv);
	struct ir_instr *t1 = ir_build(&t.b, IR_OP_TEX, 4, IR_FLOAT, 1, &us);
	t1->index = s0;
	struct ir_src cs = ir_src_swz(t1, (const uint8_t[4]){ 2, 3, 3, 3 });
	struct ir_instr *t2 = ir_build(&t.b, IR_OP_TEX, 4, IR_FLOAT, 1, &cs);
	t2->index = s0;
	tc_output(&t, "gl_FragColor", 0, 4, t2);
	struct r500_program *p = tc_compile(&t);
	int first = -1, second = -1;
	for (int i = 0; i < p->ninst; i++)
		if (p->code[i].cmn.type == R500_TYPE_TEX)
			*(first < 0 ? &first : &second) = i;
	assert_true(first >= 0 && second > first);
	assert_int_equal(p->code[first].tex.sem_acquire, 1);
	assert_int_equal(p->code[second].cmn.tex_sem_wait, 1);
	/* the second reads the first's result in place: .ba of its temp */
	assert_int_equal(p->code[second].tex.src_addr, p->code[first].tex.dst_addr);
	assert_int_equal(p->code[second].tex.src_swz[0], 2);
	assert_int_equal(p->code[second].tex.src_swz[1], 3);
	tc_fini(&t);
}

/* Nothing moves across flow control: gl_FragColor = v * 2 after
 * loop { break } stays after the ENDLOOP although it depends on nothing
 * in the loop: LOOP (to its ENDLOOP), BREAKLOOP (to ENDLOOP + 1, no IF
 * around it: B_POP_CNT 0), ENDLOOP (back to LOOP + 1), then the OUT. */
static void test_fc_barrier(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_cf *loop = ir_build_loop(&t.b);
	ir_builder_enter(&t.b, &loop->body, loop);
	ir_build(&t.b, IR_OP_BREAK, 0, IR_FLOAT, 0, NULL);
	ir_builder_after(&t.b, loop);
	struct ir_instr *two = tc_const4(&t, 2, 2, 2, 2);
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_of(two));
	tc_output(&t, "gl_FragColor", 0, 4, m);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 4);
	assert_int_equal(p->code[0].cmn.type, R500_TYPE_FC);
	assert_int_equal(p->code[0].fc.op, R500_FC_LOOP);
	assert_int_equal(p->code[0].fc.jump_addr, 2);
	assert_int_equal(p->code[1].fc.op, R500_FC_BREAKLOOP);
	assert_int_equal(p->code[1].fc.jump_addr, 3);
	assert_int_equal(p->code[1].fc.b_pop_cnt, 0);
	assert_int_equal(p->code[2].fc.op, R500_FC_ENDLOOP);
	assert_int_equal(p->code[2].fc.jump_addr, 1);
	assert_int_equal(p->code[3].cmn.type, R500_TYPE_OUT);
	assert_int_equal(p->code[3].cmn.rgb_omask, 7);
	assert_int_equal(p->code[3].cmn.tex_sem_wait, 1);
	assert_int_equal(p->stats.fc, 3);
	tc_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coissue),
		cmocka_unit_test(test_address_limit),
		cmocka_unit_test(test_lower_bound_chain),
		cmocka_unit_test(test_lower_bound_units),
		cmocka_unit_test(test_tex_run),
		cmocka_unit_test(test_dependent_tex),
		cmocka_unit_test(test_fc_barrier),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
