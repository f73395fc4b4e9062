/* Register allocation: pre-coloured inputs, lane sharing, and the
 * checker that re-simulates values (it must catch a broken assignment). */
#include "test_compile_helpers.h"

#include "cg.h"

/* Runs the backend stages up to register allocation. */
static struct cg_ctx *run_to_regalloc(struct tc *t)
{
	struct cg_ctx *cg = arena_alloc(t->arena, sizeof *cg);
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	cg->arena = t->arena;
	cg->diag = &t->diag;
	cg->func = t->f;
	cg->opts = &o;
	if (!cg_isel(cg) || !cg_schedule(cg) || !cg_regalloc(cg)) {
		tc_dump_diags(t);
		fail_msg("backend stages failed");
	}
	cg->opts = NULL;
	return cg;
}

/* Inputs read by the shader get t0, t1 in input order; unread ones none. */
static void test_inputs_precoloured(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	ir_func_add_input(t.f, "unused", 4);
	struct ir_instr *a = tc_input(&t, "a", 4);
	struct ir_instr *b = tc_input(&t, "b", 2);
	struct ir_instr *s = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(a),
					   ir_src_swz(b, (const uint8_t[4]){ 0, 1, 0, 1 }));
	tc_output(&t, "gl_FragColor", 0, 4, s);
	struct cg_ctx *cg = run_to_regalloc(&t);
	assert_int_equal(cg->input_vreg[0], -1);
	assert_int_equal(cg->vregs[cg->input_vreg[1]].temp, 0);
	assert_int_equal(cg->vregs[cg->input_vreg[2]].temp, 1);
	char why[200];
	assert_true(cg_regalloc_check(cg, why, sizeof why));
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninputs, 2);
	assert_string_equal(p->inputs[0].name, "a");
	assert_int_equal(p->inputs[0].temp, 0);
	assert_string_equal(p->inputs[1].name, "b");
	assert_int_equal(p->inputs[1].temp, 1);
	assert_string_equal(p->inputs[1].components, "xy");
	tc_fini(&t);
}

/* Two scalars live at once, one made by the RGB unit (lane R), one by the
 * alpha unit (lane A, a transcendental), share one temporary. */
static void test_lanes_shared(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *d = ir_build_alu2(&t.b, IR_OP_DOT3, 1, ir_src_of(v), ir_src_of(v));
	struct ir_instr *r = ir_build_alu1(&t.b, IR_OP_RCP, 1, ir_src_comp(v, 3));
	struct ir_src s[4] = { ir_src_comp(d, 0), ir_src_comp(r, 0), ir_src_comp(d, 0),
			       ir_src_comp(r, 0) };
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v),
					   ir_src_of(tc_vec(&t, 4, s)));
	tc_output(&t, "gl_FragColor", 0, 4, m);
	struct cg_ctx *cg = run_to_regalloc(&t);
	char why[200];
	assert_true(cg_regalloc_check(cg, why, sizeof why));
	/* the DP3 result (lane R) and the RCP result (lane A) */
	int dp = -1, rcp = -1;
	for (int i = 0; i < cg->nops; i++) {
		if (cg->ops[i].dead)
			continue;
		if (cg->ops[i].opc == CG_DP3)
			dp = cg->ops[i].dst;
		if (cg->ops[i].opc == CG_RCP)
			rcp = cg->ops[i].dst;
	}
	assert_true(dp >= 0 && rcp >= 0);
	assert_int_equal(cg->vregs[dp].lane[0], 0);
	assert_int_equal(cg->vregs[rcp].lane[0], 3);
	/* DP3 and RCP co-issue in slot 0, both results land in t1 */
	assert_int_equal(cg->ops[cg->vregs[dp].writer[0]].slot, 0);
	assert_int_equal(cg->ops[cg->vregs[rcp].writer[0]].slot, 0);
	assert_int_equal(cg->vregs[dp].temp, cg->vregs[rcp].temp);
	assert_int_equal(cg->temps_used, 2);
	tc_fini(&t);
}

/* Scalars the RGB unit makes (dot products: lane R by default) that
 * live at once take the lanes G and B of one temporary where R is taken,
 * and the readers' swizzles follow (regalloc.c rgb_lane_free). */
static void test_rgb_scalars_share_lanes(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *in[3], *d[3];
	for (int i = 0; i < 3; i++) {
		char name[2] = { (char)('a' + i), 0 };
		in[i] = tc_input(&t, name, 4);
	}
	for (int i = 0; i < 3; i++)
		d[i] = ir_build_alu2(&t.b, IR_OP_DOT3, 1, ir_src_of(in[i]), ir_src_of(in[(i + 1) % 3]));
	/* each product needs all three dot products at once */
	struct ir_instr *acc = NULL;
	for (int i = 0; i < 3; i++) {
		struct ir_src s[4] = { ir_src_comp(d[i], 0), ir_src_comp(d[(i + 1) % 3], 0),
				       ir_src_comp(d[(i + 2) % 3], 0), ir_src_comp(d[i], 0) };
		struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(in[i]),
						   ir_src_of(tc_vec(&t, 4, s)));
		acc = acc ? ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(acc), ir_src_of(m)) : m;
	}
	tc_output(&t, "gl_FragColor", 0, 4, acc);
	struct cg_ctx *cg = run_to_regalloc(&t);
	char why[200];
	assert_true(cg_regalloc_check(cg, why, sizeof why));
	int lanes = 0, temp_of_lane[3] = { -1, -1, -1 };
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->opc != CG_DP3)
			continue;
		const struct cg_vreg *r = &cg->vregs[op->dst];
		assert_true(r->lane[0] < 3);
		lanes |= 1 << r->lane[0];
		temp_of_lane[r->lane[0]] = r->temp;
	}
	assert_int_equal(lanes, 7); /* R, G and B */
	assert_int_equal(temp_of_lane[0], temp_of_lane[1]);
	assert_int_equal(temp_of_lane[1], temp_of_lane[2]);
	tc_fini(&t);
}

/* A vec2 of the RGB unit (lanes R, G by default) live beside a scalar in
 * R takes G and B of the scalar's temporary. */
static void test_rgb_vec2_moves_lanes(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *a = tc_input(&t, "a", 4), *b = tc_input(&t, "b", 4);
	struct ir_instr *d = ir_build_alu2(&t.b, IR_OP_DOT3, 1, ir_src_of(a), ir_src_of(b));
	struct ir_instr *v = ir_build_alu2(&t.b, IR_OP_MUL, 2,
					   ir_src_swz(a, (const uint8_t[4]){ 0, 1, 0, 0 }),
					   ir_src_swz(b, (const uint8_t[4]){ 2, 3, 0, 0 }));
	/* vec4(v * d, v.x * v.y, d * d): v and d each read by several ops */
	struct ir_instr *vd = ir_build_alu2(&t.b, IR_OP_MUL, 2, ir_src_of(v),
					    ir_src_swz(d, (const uint8_t[4]){ 0, 0, 0, 0 }));
	struct ir_instr *vv2 = ir_build_alu2(&t.b, IR_OP_MUL, 1, ir_src_comp(v, 0),
					     ir_src_comp(v, 1));
	struct ir_instr *dd = ir_build_alu2(&t.b, IR_OP_MUL, 1, ir_src_of(d), ir_src_of(d));
	struct ir_src s[4] = { ir_src_comp(vd, 0), ir_src_comp(vd, 1), ir_src_comp(vv2, 0),
			       ir_src_comp(dd, 0) };
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(tc_vec(&t, 4, s)),
					   ir_src_of(a));
	tc_output(&t, "gl_FragColor", 0, 4, m);
	struct cg_ctx *cg = run_to_regalloc(&t);
	char why[200];
	assert_true(cg_regalloc_check(cg, why, sizeof why));
	int dv = -1, vv = -1;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->dst < 0)
			continue;
		if (op->opc == CG_DP3)
			dv = op->dst;
		else if (cg->vregs[op->dst].ncomp == 2 && vv < 0)
			vv = op->dst; /* v: the first vec2 made */
	}
	assert_true(dv >= 0 && vv >= 0);
	const struct cg_vreg *dr = &cg->vregs[dv], *vr = &cg->vregs[vv];
	assert_int_equal(dr->temp, vr->temp);
	assert_true(vr->lane[0] < 3 && vr->lane[1] < 3 && vr->lane[0] != vr->lane[1]);
	assert_true(dr->lane[0] != vr->lane[0] && dr->lane[0] != vr->lane[1]);
	tc_fini(&t);
}

/* The checker does not trust liveness: moving a value into a lane that
 * another live value occupies is caught. */
static void test_checker_catches_clobber(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *a = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_of(v));
	struct ir_instr *b = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(a), ir_src_of(v));
	struct ir_instr *c = ir_build_alu2(&t.b, IR_OP_MAX, 4, ir_src_of(b), ir_src_of(v));
	tc_output(&t, "gl_FragColor", 0, 4, c);
	struct cg_ctx *cg = run_to_regalloc(&t);
	char why[200];
	assert_true(cg_regalloc_check(cg, why, sizeof why));
	/* put the MUL's result into t0, where the input v still lives */
	int mul = -1;
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead && cg->ops[i].opc == CG_MAD && cg->ops[i].dst >= 0) {
			mul = cg->ops[i].dst;
			break;
		}
	assert_true(mul >= 0);
	cg->vregs[mul].temp = 0;
	assert_false(cg_regalloc_check(cg, why, sizeof why));
	assert_non_null(strstr(why, "holds something else"));
	tc_fini(&t);
}

/* Values whose lives do not overlap reuse one temporary. */
static void test_temps_reused(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *acc = v;
	for (int i = 0; i < 20; i++)
		acc = ir_build_alu1(&t.b, IR_OP_FRACT, 4, ir_src_of(acc));
	tc_output(&t, "gl_FragColor", 0, 4, acc);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 20);
	assert_int_equal(p->stats.temps, 1); /* everything in t0 */
	assert_int_equal(p->pixsize, 1);
	tc_fini(&t);
}

/* Across a loop: x = v * v is made before the loop and last read at the
 * top of the body, but the body runs again, so nothing written inside the
 * loop may take x's lanes; likewise the loop-head PHI p (written by copies
 * before the loop and at the end of the body) keeps its register over the
 * whole loop. */
static void test_loop_liveness(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *x = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_of(v));
	struct ir_instr *zero = ir_build_constf(&t.b, 0.0f);
	struct ir_instr *three = ir_build_constf(&t.b, 3.0f);
	struct ir_cf *loop = ir_build_loop(&t.b);
	ir_builder_enter(&t.b, &loop->body, loop);
	struct ir_src ps[2] = { ir_src_of(zero), ir_src_of(zero) };
	struct ir_instr *p = ir_build(&t.b, IR_OP_PHI, 1, IR_FLOAT, 2, ps);
	struct ir_instr *a = ir_build_alu1(&t.b, IR_OP_FRACT, 4, ir_src_of(x));
	struct ir_instr *b = ir_build_alu2(&t.b, IR_OP_DOT4, 1, ir_src_of(a), ir_src_of(a));
	struct ir_instr *n = ir_build_alu2(&t.b, IR_OP_ADD, 1, ir_src_of(b), ir_src_of(p));
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(a), ir_src_comp(n, 0));
	struct ir_instr *c = ir_build_alu2(&t.b, IR_OP_GE, 1, ir_src_of(n), ir_src_of(three));
	struct ir_cf *iff = ir_build_if(&t.b, ir_src_of(c));
	ir_builder_enter(&t.b, &iff->then_list, iff);
	ir_build(&t.b, IR_OP_BREAK, 0, IR_FLOAT, 0, NULL);
	ir_builder_after(&t.b, iff);
	p->src[1] = ir_src_of(n);
	ir_builder_after(&t.b, loop);
	struct ir_src ms[1] = { ir_src_of(m) };
	struct ir_instr *out = ir_build(&t.b, IR_OP_PHI, 4, IR_FLOAT, 1, ms);
	tc_output(&t, "gl_FragColor", 0, 4, out);
	struct cg_ctx *cg = run_to_regalloc(&t);
	/* not known to stop within 255 passes: an inner loop (recorded first)
	 * inside an outer one */
	assert_int_equal(cg->nloops, 2);
	int ls = cg->ops[cg->loops[0][0]].slot, le = cg->ops[cg->loops[0][1]].slot;
	assert_true(ls < le);
	/* the vregs of x and p: x is the MUL's (read by the FRACT), p is the
	 * multi vreg of the PHI */
	int xv = -1, pv = -1;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->dst < 0)
			continue;
		if (op->opc == CG_FRC && op->slot > ls && op->slot < le)
			xv = op->src[0].index;
		if (cg->vregs[op->dst].multi)
			pv = op->dst;
	}
	assert_true(xv >= 0 && pv >= 0);
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->dst < 0 || op->slot <= ls || op->slot >= le)
			continue;
		const struct cg_vreg *d = &cg->vregs[op->dst];
		for (int k = 0; k < 4; k++) {
			if (!(op->wmask & (1u << k)))
				continue;
			if (d->temp == cg->vregs[xv].temp)
				for (int j = 0; j < 4; j++)
					assert_int_not_equal(d->lane[k], cg->vregs[xv].lane[j]);
			if (op->dst != pv && d->temp == cg->vregs[pv].temp)
				assert_int_not_equal(d->lane[k], cg->vregs[pv].lane[0]);
		}
	}
	char why[200];
	assert_true(cg_regalloc_check(cg, why, sizeof why));
	tc_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inputs_precoloured),
		cmocka_unit_test(test_lanes_shared),
		cmocka_unit_test(test_rgb_scalars_share_lanes),
		cmocka_unit_test(test_rgb_vec2_moves_lanes),
		cmocka_unit_test(test_checker_catches_clobber),
		cmocka_unit_test(test_temps_reused),
		cmocka_unit_test(test_loop_liveness),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
