/* Register pressure in the scheduler (schedule.c, cg->pressure_limit) and
 * the candidate that tries it (r500_candidate.c): independent chains that
 * the height order starts side by side run one after the other past the
 * limit, holding fewer lanes and temporaries. */
#include "test_compile_helpers.h"

#include "cg.h"
#include "r500_candidate.h"
#include "../test_util.h"

/* The fixture's IR (tests/backend/fixtures/pressure_chains.ir: real
 * FRC -> SIN/COS chains) into t->f. */
static void build_chains(struct tc *t)
{
	char *text = test_read_file(USCC_SOURCE_DIR "/tests/backend/fixtures/pressure_chains.ir");
	assert_non_null(text);
	t->f = ir_parse(text, "pressure_chains.ir", t->arena, &t->diag);
	free(text);
	assert_non_null(t->f);
}

/* The backend's stages on the candidate -O2 starts from, its scheduler
 * under `limit` live lanes (0: none), with presubtracts or not, from
 * *early where it fits (may be NULL). */
static struct cg_ctx *run_from(struct tc *t, int limit, bool presub, struct cg_early *early)
{
	static const struct r500_compile_options o = { .opt_level = 2, .validate = true };
	struct r500_candidate c = r500_candidate_first(&o);
	c.pressure_limit = limit;
	c.presub = presub;
	struct r500_compile_report rep;
	struct cg_ctx *cg = cg_run_stages(t->f, &o, &c, t->arena, &t->diag, &rep, early);
	if (!cg) {
		tc_dump_diags(t);
		fail_msg("backend stages failed");
	}
	assert_int_equal(rep.peak_lanes, cg->peak_lanes);
	return cg;
}

static struct cg_ctx *run_stages(struct tc *t, int limit)
{
	return run_from(t, limit, true, NULL);
}

/* Past the limit the chains run one at a time: fewer lanes live at once
 * and fewer temporaries, in no more slots (the chains are as long as the
 * work they hold in parallel). */
static void test_limit_finishes_chains(void **state)
{
	(void)state;
	struct tc a, b;
	tc_init(&a);
	tc_init(&b);
	build_chains(&a);
	build_chains(&b);
	struct cg_ctx *free_cg = run_stages(&a, 0), *limited = run_stages(&b, 8);
	print_message("lanes %d -> %d, temps %d -> %d, slots %d -> %d\n", free_cg->peak_lanes,
		      limited->peak_lanes, free_cg->temps_used, limited->temps_used,
		      free_cg->nslots, limited->nslots);
	assert_true(limited->peak_lanes < free_cg->peak_lanes);
	assert_true(limited->temps_used < free_cg->temps_used);
	assert_true(limited->nslots <= free_cg->nslots);
	tc_fini(&a);
	tc_fini(&b);
}

/* Without a limit the schedule is today's: the limit is the only switch. */
static void test_no_limit_unchanged(void **state)
{
	(void)state;
	struct tc a, b;
	tc_init(&a);
	tc_init(&b);
	build_chains(&a);
	build_chains(&b);
	struct cg_ctx *x = run_stages(&a, 0), *y = run_stages(&b, 1000);
	assert_int_equal(x->nslots, y->nslots);
	assert_int_equal(x->temps_used, y->temps_used);
	for (int i = 0; i < x->nops; i++)
		assert_int_equal(x->ops[i].slot, y->ops[i].slot);
	tc_fini(&a);
	tc_fini(&b);
}

/* r500_compile tries the limit as a candidate and keeps the program with
 * fewer temporaries, its weight being no higher (r500_cost.h). */
static void test_candidate_kept(void **state)
{
	(void)state;
	struct tc a, b;
	tc_init(&a);
	tc_init(&b);
	build_chains(&a);
	build_chains(&b);
	struct cg_ctx *free_cg = run_stages(&a, 0);
	struct r500_program *p = tc_compile(&b);
	print_message("temps %d (no limit %d), %d instructions\n", p->stats.temps,
		      free_cg->temps_used, p->ninst);
	assert_true(p->stats.temps < free_cg->temps_used);
	tc_fini(&a);
	tc_fini(&b);
}

/* --skip=pressure (and -O0) tries no limit: the program without one. */
static void test_skip_pressure(void **state)
{
	(void)state;
	struct tc a, b;
	tc_init(&a);
	tc_init(&b);
	build_chains(&a);
	build_chains(&b);
	struct cg_ctx *free_cg = run_stages(&a, 0);
	struct r500_compile_options o = { .opt_level = 2, .validate = true,
					  .skip = sw_bit(SW_PRESSURE) };
	struct r500_program *p = r500_compile(b.f, &o, b.arena, &b.diag);
	assert_non_null(p);
	assert_int_equal(p->stats.temps, free_cg->temps_used);
	tc_fini(&a);
	tc_fini(&b);
}

static void assert_same_code(const struct cg_ctx *x, const struct cg_ctx *y)
{
	assert_int_equal(x->ninst, y->ninst);
	assert_int_equal(x->temps_used, y->temps_used);
	assert_memory_equal(x->code, y->code, sizeof *x->code * (size_t)x->ninst);
}

/* Candidates that differ only in the limit or the presubtracts start
 * from the state the first one kept before presub (cg_early) and make
 * the programs they make from scratch; the kept state stays as it was. */
static void test_early_state_shared(void **state)
{
	(void)state;
	struct tc a, b;
	tc_init(&a);
	tc_init(&b);
	build_chains(&a);
	build_chains(&b);
	struct cg_early early = { 0 };
	struct cg_ctx *first = run_from(&a, 0, true, &early);
	assert_non_null(early.ctx);
	struct cg_ctx *kept = early.ctx;
	struct cg_ctx *limited = run_from(&a, 8, true, &early);
	struct cg_ctx *plain = run_from(&a, 0, false, &early);
	struct cg_ctx *again = run_from(&a, 8, true, &early);
	assert_ptr_equal(early.ctx, kept); /* started from it: not made anew */
	assert_same_code(first, run_from(&b, 0, true, NULL));
	assert_same_code(limited, run_from(&b, 8, true, NULL));
	assert_same_code(plain, run_from(&b, 0, false, NULL));
	assert_same_code(again, limited);
	tc_fini(&a);
	tc_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limit_finishes_chains),
		cmocka_unit_test(test_no_limit_unchanged),
		cmocka_unit_test(test_candidate_kept),
		cmocka_unit_test(test_skip_pressure),
		cmocka_unit_test(test_early_state_shared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
