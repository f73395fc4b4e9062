/* WRITE_INACTIVE (backend/isel_inactive.c): which IFs whose quad pixels
 * may diverge jump with their ops writing inactive pixels, and the
 * guarantee regalloc gives such an op: its temporary lane holds nothing
 * live, in slot order, across its write (what an inactive pixel still
 * needs), and it writes only plain vregs (cg_validate). */
#include "test_compile_helpers.h"

#include "cg.h"

#include <limits.h>

/* A divergent IF (on an input) whose THEN makes a lookup's coordinates
 * from the input; %5 is made before the IF and read only in the ELSE
 * (live across the THEN for the pixels that take the ELSE), %50 a PHI.
 * DEPENDENT makes the lookup's coordinates from another lookup. */
static const char *const IF_TEXT =
	"input #0 \"v\" f4\n"
	"sampler #0 \"s\" 2d unit=0\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = input.f4 #0\n"
	"%2 = const.f1 0.5\n"
	"%3 = const.f1 1.25\n"
	"%4 = lt.b1 %1.x, %2.x\n"
	"%5 = mad.f4 %1.wzyx, %3.xxxx, %1.xyzw\n"
	"if %4.x {\n"
	"  %10 = mad.f4 %1.xyzw, %3.xxxx, %1.wzyx\n"
	"  %11 = mad.f4 %10.xyzw, %3.xxxx, %1.wzyx\n"
	"  %12 = mad.f4 %11.xyzw, %3.xxxx, %1.wzyx\n"
	"  %13 = mad.f4 %12.xyzw, %3.xxxx, %1.wzyx\n"
	"  %14 = mad.f4 %13.xyzw, %3.xxxx, %1.wzyx\n"
	"  %15 = mad.f4 %14.xyzw, %3.xxxx, %1.wzyx\n"
	"  %16 = mad.f4 %15.xyzw, %3.xxxx, %1.wzyx\n"
	"  %17 = mad.f4 %16.xyzw, %3.xxxx, %1.wzyx\n"
	"  %18 = mad.f4 %17.xyzw, %3.xxxx, %1.wzyx\n"
	"  %19 = mad.f4 %18.xyzw, %3.xxxx, %1.wzyx\n"
	"  %20 = tex.f4 #0 plain %19.xy\n"
	"  %21 = mad.f4 %20.xyzw, %3.xxxx, %19.wzyx\n"
	"  %22 = mad.f4 %21.xyzw, %3.xxxx, %19.wzyx\n"
	"  %23 = mad.f4 %22.xyzw, %3.xxxx, %19.wzyx\n"
	"  %24 = mad.f4 %23.xyzw, %3.xxxx, %19.wzyx\n"
	"  %25 = mad.f4 %24.xyzw, %3.xxxx, %19.wzyx\n"
	"  %26 = mad.f4 %25.xyzw, %3.xxxx, %19.wzyx\n"
	"  %27 = mad.f4 %26.xyzw, %3.xxxx, %19.wzyx\n"
	"  %28 = mad.f4 %27.xyzw, %3.xxxx, %19.wzyx\n"
	"  %29 = SECOND\n"
	"  %31 = mad.f4 %29.xyzw, %3.xxxx, %28.wzyx\n"
	"  %32 = mad.f4 %31.xyzw, %3.xxxx, %28.wzyx\n"
	"  %33 = mad.f4 %32.xyzw, %3.xxxx, %28.wzyx\n"
	"  %34 = mad.f4 %33.xyzw, %3.xxxx, %28.wzyx\n"
	"  %35 = mad.f4 %34.xyzw, %3.xxxx, %28.wzyx\n"
	"  %36 = mad.f4 %35.xyzw, %3.xxxx, %28.wzyx\n"
	"  %37 = mad.f4 %36.xyzw, %3.xxxx, %28.wzyx\n"
	"  %38 = mad.f4 %37.xyzw, %3.xxxx, %28.wzyx\n"
	"} else {\n"
	"  %30 = mad.f4 %5.xyzw, %5.xyzw, %1.xyzw\n"
	"}\n"
	"%50 = phi.f4 %38.xyzw, %30.xyzw\n"
	"output #0 %50.xyzw\n";
static const char *const PLAIN = "tex.f4 #0 plain %19.zw";
static const char *const DEPENDENT = "tex.f4 #0 plain %21.xy";

static struct cg_ctx *backend(struct tc *t, const char *second_lookup)
{
	char text[4096];
	const char *at = strstr(IF_TEXT, "SECOND");
	snprintf(text, sizeof text, "%.*s%s%s", (int)(at - IF_TEXT), IF_TEXT, second_lookup,
		 at + strlen("SECOND"));
	t->f = ir_parse(text, "t.ir", t->arena, &t->diag);
	if (!t->f || !ir_validate(t->f, &t->diag)) {
		tc_dump_diags(t);
		fail_msg("the IR does not parse");
	}
	struct cg_ctx *cg = arena_alloc(t->arena, sizeof *cg);
	static struct r500_compile_options o = { .opt_level = 2, .validate = true,
						  .divergent_jumps = true };
	memset(cg, 0, sizeof *cg);
	cg->arena = t->arena;
	cg->diag = &t->diag;
	cg->func = t->f;
	cg->opts = &o;
	if (!cg_isel(cg) || !cg_schedule(cg) || !cg_coalesce(cg) || !cg_regalloc(cg)) {
		tc_dump_diags(t);
		fail_msg("backend stages failed");
	}
	return cg;
}

static int count_marked(const struct cg_ctx *cg)
{
	int n = 0;
	for (int i = 0; i < cg->nops; i++)
		n += !cg->ops[i].dead && cg->ops[i].write_inactive;
	return n;
}

/* Slot of v's first write (-1 for an input, written before slot 0;
 * INT_MAX without) and of its last read or write (-1 without). */
static void range_of(const struct cg_ctx *cg, int v, int *first, int *last)
{
	*first = cg->vregs[v].input >= 0 ? -1 : INT_MAX;
	*last = -1;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->slot < 0)
			continue;
		if (op->dst == v && (*first < 0 || op->slot < *first))
			*first = op->slot;
		if ((op->dst == v || cg_op_reads_vreg(op, v)) && op->slot > *last)
			*last = op->slot;
	}
}

static unsigned lanes_of(const struct cg_ctx *cg, int v, unsigned wmask)
{
	unsigned m = 0;
	for (int c = 0; c < 4; c++)
		if (wmask & (1u << c))
			m |= 1u << (cg->vregs[v].lane[c] & 3);
	return m;
}

/* The THEN's ops write inactive pixels, and the IF jumps. */
static void test_divergent_if_jumps(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct cg_ctx *cg = backend(&t, PLAIN);
	int jumps = 0;
	for (int i = 0; i < cg->nops; i++)
		jumps += !cg->ops[i].dead && cg->ops[i].opc == CG_FC;
	assert_true(jumps >= 2);
	assert_true(count_marked(cg) > 0);
	char why[200];
	assert_true(cg_validate(cg, CG_PHASE_REGS, why, sizeof why));
	tc_fini(&t);
}

/* A chain through a lookup keeps the if-conversion: nothing marked. */
static void test_dependent_lookup_converts(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct cg_ctx *cg = backend(&t, DEPENDENT);
	assert_int_equal(count_marked(cg), 0);
	for (int i = 0; i < cg->nops; i++)
		assert_false(!cg->ops[i].dead && cg->ops[i].opc == CG_FC);
	tc_fini(&t);
}

/* No lane a write-inactive op writes holds another vreg live across the
 * write (first write before it, a read after it): the ELSE's %5, the
 * PHI's multi vreg, the input. */
static void test_marked_lanes_hold_nothing_live(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct cg_ctx *cg = backend(&t, PLAIN);
	int checked = 0;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *w = &cg->ops[i];
		if (w->dead || !w->write_inactive)
			continue;
		unsigned wl = lanes_of(cg, w->dst, w->wmask);
		for (int v = 0; v < cg->nvregs; v++) {
			if (v == w->dst || cg->vregs[v].temp != cg->vregs[w->dst].temp)
				continue;
			if (!(lanes_of(cg, v, (1u << cg->vregs[v].ncomp) - 1) & wl))
				continue;
			int first, last;
			range_of(cg, v, &first, &last);
			checked++;
			if (first < w->slot && last > w->slot)
				fail_msg("op %d (slot %d) writes t%d where v%d lives (%d..%d)", i,
					 w->slot, cg->vregs[v].temp, v, first, last);
		}
	}
	assert_true(checked > 0); /* temporaries are shared at all */
	tc_fini(&t);
}

/* The validator refuses the bit on an op writing a multi vreg (the PHI's
 * copy, or the op coalesce made write the PHI): it would clobber the other
 * side's value. */
static void test_validate_refuses_unsafe(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct cg_ctx *cg = backend(&t, PLAIN);
	int copy = -1;
	for (int i = 0; i < cg->nops && copy < 0; i++)
		if (!cg->ops[i].dead && cg->ops[i].dst >= 0 && cg->vregs[cg->ops[i].dst].multi)
			copy = i;
	assert_true(copy >= 0);
	assert_false(cg_op_inactive_safe(cg, &cg->ops[copy]));
	cg->ops[copy].write_inactive = true;
	char why[200];
	assert_false(cg_validate(cg, CG_PHASE_REGS, why, sizeof why));
	assert_non_null(strstr(why, "inactive"));
	tc_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_divergent_if_jumps),
		cmocka_unit_test(test_dependent_lookup_converts),
		cmocka_unit_test(test_marked_lanes_hold_nothing_live),
		cmocka_unit_test(test_validate_refuses_unsafe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
