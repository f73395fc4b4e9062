/* Alpha lanes: scalars the scheduler paired into the W lane move to
 * R, G, B where that lowers the temporaries, with every slot kept. */
#include "test_compile_helpers.h"

#include "cg.h"

/* Isel and the schedule, then alpha-lanes when asked, then regalloc. */
static struct cg_ctx *run_stages(struct tc *t, bool alpha_lanes)
{
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	struct cg_ctx *cg = arena_alloc(t->arena, sizeof *cg);
	*cg = (struct cg_ctx){ .arena = t->arena, .diag = &t->diag, .func = t->f, .opts = &o };
	if (!cg_isel(cg) || !cg_schedule(cg) || (alpha_lanes && !cg_alpha_lanes(cg)) ||
	    !cg_regalloc(cg)) {
		tc_dump_diags(t);
		fail_msg("backend stages failed");
	}
	cg->opts = NULL;
	return cg;
}

/* A chain of products, each read at once by the next, beside six maxima
 * read only at the end: the chain ranks first and takes the RGB unit of
 * each slot, a maximum pairs with it in alpha and holds a W lane to the
 * end, one temporary each.  Swapped, the chain passes through W and the
 * maxima share R, G, B: fewer temporaries, the same slots. */
static void build_chain_beside_maxima(struct tc *t)
{
	struct ir_instr *v = tc_input(t, "v", 4);
	struct ir_instr *k0 = tc_const4(t, 0.1f, 0.2f, 0.3f, 0.4f);
	struct ir_instr *k1 = tc_const4(t, 0.5f, 0.6f, 0.7f, 0.8f);
	struct ir_instr *chain = ir_build_alu2(&t->b, IR_OP_MUL, 1, ir_src_comp(v, 1),
					       ir_src_comp(v, 2));
	struct ir_instr *m[6];
	for (int i = 0; i < 6; i++) {
		m[i] = ir_build_alu2(&t->b, IR_OP_MAX, 1, ir_src_comp(v, 0),
				     ir_src_comp(i < 4 ? k0 : k1, i % 4));
		chain = ir_build_alu2(&t->b, IR_OP_MUL, 1, ir_src_of(chain), ir_src_comp(v, 3));
	}
	struct ir_instr *sum = chain;
	for (int i = 0; i < 6; i++)
		sum = ir_build_alu2(&t->b, IR_OP_ADD, 1, ir_src_of(sum), ir_src_of(m[i]));
	struct ir_src s[4] = { ir_src_comp(sum, 0), ir_src_comp(chain, 0), ir_src_comp(sum, 0),
			       ir_src_comp(chain, 0) };
	tc_output(t, "gl_FragColor", 0, 4, tc_vec(t, 4, s));
}

static void test_long_scalars_leave_w(void **state)
{
	(void)state;
	struct tc a, b;
	tc_init(&a);
	tc_init(&b);
	build_chain_beside_maxima(&a);
	build_chain_beside_maxima(&b);
	struct cg_ctx *before = run_stages(&a, false), *after = run_stages(&b, true);
	char why[200];
	assert_true(cg_regalloc_check(after, why, sizeof why));
	assert_int_equal(after->nslots, before->nslots);
	assert_int_equal(after->pairs, before->pairs);
	print_message("temps %d -> %d\n", before->temps_used, after->temps_used);
	assert_true(after->temps_used < before->temps_used);
	tc_fini(&a);
	tc_fini(&b);
}

/* A chain of transcendentals, each read by the next and all summed after
 * the last: each is alone in its slot, in the alpha unit, and holds a W
 * lane until the sum.  Written through SOP into R, G, B instead (both
 * units, the slot had nothing else), regalloc packs three to a
 * temporary. */
static void test_lone_transcendentals_take_rgb(void **state)
{
	(void)state;
	struct tc a, b;
	struct cg_ctx *cg[2];
	for (int k = 0; k < 2; k++) {
		struct tc *t = k ? &b : &a;
		tc_init(t);
		struct ir_instr *v = tc_input(t, "v", 4);
		static const enum ir_op ops[] = { IR_OP_RCP, IR_OP_RSQ, IR_OP_EXP2, IR_OP_LOG2,
						  IR_OP_RCP, IR_OP_RSQ };
		struct ir_instr *x[6], *prev = v;
		for (int i = 0; i < 6; i++)
			prev = x[i] = ir_build_alu1(&t->b, ops[i], 1, ir_src_comp(prev, 0));
		struct ir_instr *sum = x[5];
		for (int i = 4; i >= 0; i--)
			sum = ir_build_alu2(&t->b, IR_OP_ADD, 1, ir_src_of(sum), ir_src_of(x[i]));
		struct ir_src s[4] = { ir_src_comp(sum, 0), ir_src_comp(sum, 0), ir_src_comp(sum, 0),
				       ir_src_comp(sum, 0) };
		tc_output(t, "gl_FragColor", 0, 4, tc_vec(t, 4, s));
		cg[k] = run_stages(t, k == 1);
	}
	char why[200];
	assert_true(cg_regalloc_check(cg[1], why, sizeof why));
	assert_int_equal(cg[1]->nslots, cg[0]->nslots);
	print_message("temps %d -> %d\n", cg[0]->temps_used, cg[1]->temps_used);
	assert_true(cg[1]->temps_used < cg[0]->temps_used);
	tc_fini(&a);
	tc_fini(&b);
}

/* The whole compile agrees: the program still validates and decodes. */
static void test_compiles(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	build_chain_beside_maxima(&t);
	struct r500_program *p = tc_compile(&t);
	assert_true(p->stats.temps <= 3);
	tc_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_scalars_leave_w),
		cmocka_unit_test(test_lone_transcendentals_take_rgb),
		cmocka_unit_test(test_compiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
