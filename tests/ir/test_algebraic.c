/* The algebraic rule table (ir/algebraic_rules.c), rule by rule: a
 * function is made from each rule's pattern (its values inputs read
 * through random swizzles, its constants random within the rule's
 * conditions, widths 1 to 4); the rule alone must fire, and the
 * interpreter must give the same outputs before and after on random
 * inputs (bit for bit for an exact rule, within a rounding or two of the
 * values for an inexact one).  Then each condition of the rule is broken
 * in turn (a constant for a value that must not be one, a second reader,
 * a constant out of range, infinite constants): the rule must not fire. */
#include <math.h>
#include "ir_test_util.h"
#include "algebraic.h"

static struct arena *A;

static int setup(void **state)
{
	(void)state;
	A = arena_create(&mem_default_allocator);
	return A ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	arena_destroy(A);
	return 0;
}

static uint32_t rng = 0x2545f491u;

static uint32_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* A float in +-[0.25, 4]. */
static float rand_value(void)
{
	float v = 0.25f + (float)(next_rand() % 10000) * (3.75f / 10000.0f);
	return next_rand() & 1 ? -v : v;
}

/* What breaking a condition means for the function made from a pattern. */
enum breakage { BREAK_NONE, BREAK_PRED, BREAK_FINITE, SPECIAL_KONSTS };

struct maker {
	struct ir_builder b;
	int width;
	const struct alg_node *broken;  /* the node whose condition fails */
	enum breakage breakage;
	struct ir_src vars[26];
	bool made[26];
	struct ir_instr *extra_reader;  /* a node a second output reads */
};

static float konst_value(const struct maker *m, const struct alg_node *p, int c)
{
	if (m->breakage == BREAK_FINITE)
		return INFINITY;
	if (m->breakage == SPECIAL_KONSTS && p->pred == ALG_ANY) {
		static const float special[] = { INFINITY, -INFINITY, 0.0f, -0.0f };
		uint32_t pick = next_rand() % 6;
		return pick < 4 ? special[pick] : rand_value();
	}
	bool broken = m->broken && m->broken->var == p->var;
	switch (p->pred) {
	case ALG_POSITIVE:
		return broken && c == m->width - 1 ? -fabsf(rand_value()) : fabsf(rand_value());
	case ALG_IS_ONE:
		return broken ? 1.5f : 1.0f;
	case ALG_IS_TWO:
		return broken ? 3.0f : 2.0f;
	default:
		return rand_value();
	}
}

static struct ir_src random_swizzle(struct ir_instr *d)
{
	uint8_t swz[4];
	for (int c = 0; c < 4; c++)
		swz[c] = (uint8_t)(next_rand() % 4);
	return ir_src_swz(d, swz);
}

/* A leaf's value: an input (a fresh one per letter), a product of two
 * inputs for a broken ALG_NOT_PRODUCT, a constant for a KONST or a broken
 * ALG_NOT_CONST. */
static struct ir_src make_leaf(struct maker *m, const struct alg_node *p)
{
	int v = p->var - 'a';
	if (m->made[v])
		return m->vars[v];
	struct ir_func *f = m->b.func;
	/* a letter is one value, wherever the pattern names it */
	bool broken = m->broken && m->broken->kind != ALG_OP && m->broken->var == p->var;
	struct ir_instr *d;
	if (p->kind == ALG_KONST || (broken && p->pred == ALG_NOT_CONST)) {
		float k[4] = { 0, 0, 0, 0 };
		for (int c = 0; c < m->width; c++)
			k[c] = konst_value(m, p, c);
		d = ir_build_const(&m->b, m->width, IR_FLOAT, k);
		m->vars[v] = ir_src_of(d);
	} else {
		d = ir_build(&m->b, IR_OP_INPUT, 4, IR_FLOAT, 0, NULL);
		d->index = ir_func_add_input(f, arena_printf(A, "in_%c", p->var), 4);
		m->vars[v] = random_swizzle(d);
		if (broken && p->pred == ALG_NOT_PRODUCT) {
			struct ir_instr *e = ir_build(&m->b, IR_OP_INPUT, 4, IR_FLOAT, 0, NULL);
			e->index = ir_func_add_input(f, arena_printf(A, "in_%c2", p->var), 4);
			d = ir_build_alu2(&m->b, IR_OP_MUL, m->width, m->vars[v], random_swizzle(e));
			m->vars[v] = ir_src_of(d);
		}
	}
	m->made[v] = true;
	return m->vars[v];
}

static struct ir_src make_tree(struct maker *m, const struct alg_node *p)
{
	if (p->kind != ALG_OP)
		return make_leaf(m, p);
	struct ir_src s[3];
	for (int i = 0; i < p->nsrc; i++)
		s[i] = make_tree(m, p->src[i]);
	struct ir_instr *d = ir_build(&m->b, p->op, m->width, IR_FLOAT, p->nsrc, s);
	if (m->broken == p)
		m->extra_reader = d;
	return ir_src_of(d);
}

/* Output number noutputs (its render target alike) stores value. */
static void make_output(struct maker *m, struct ir_instr *value)
{
	struct ir_func *f = m->b.func;
	int o = ir_func_add_output(f, arena_printf(A, "o%d", f->noutputs), f->noutputs, m->width);
	struct ir_src s = ir_src_of(value);
	struct ir_instr *out = ir_build(&m->b, IR_OP_OUTPUT, 0, IR_FLOAT, 1, &s);
	out->index = o;
}

/* The function computing rule r's pattern, `broken` (when not NULL) its
 * node whose condition fails. */
static struct ir_func *make_func(const struct alg_rule *r, int width,
				 const struct alg_node *broken, enum breakage breakage)
{
	struct maker m = { .width = width, .broken = broken, .breakage = breakage };
	struct ir_func *f = ir_func_create(A, IR_STAGE_FRAGMENT);
	assert_non_null(f);
	ir_builder_init(&m.b, f);
	struct ir_src root = make_tree(&m, r->pattern);
	make_output(&m, root.def);
	if (m.extra_reader) /* a second reader, not a divisor */
		make_output(&m, m.extra_reader);
	validate_ok(A, f);
	return f;
}

/* Fires rule r alone on f; how many times. */
static int fire(struct ir_func *f, int r)
{
	bool enabled[64] = { false };
	int fired[64] = { 0 };
	assert_true(alg_nrules <= 64);
	enabled[r] = true;
	bool progress = alg_apply(f, enabled, fired);
	assert_int_equal(progress, fired[r] > 0);
	return fired[r];
}

static void random_env(struct test_env *t)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < 8; i++) {
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++)
				t->in[i][p][c] = rand_value();
		t->in_ptrs[i] = t->in[i];
	}
	t->env.inputs = t->in_ptrs;
	t->env.uniform_values = (const float(*)[4])t->uni;
	for (int p = 0; p < 4; p++)
		t->env.covered[p] = true;
}

static void run(const struct ir_func *f, const struct test_env *t, struct ir_interp_result *res)
{
	struct diag_sink d;
	diag_init(&d, A);
	if (!ir_interp_quad(f, &t->env, res, &d)) {
		print_error("%s\n", diag_render(&d));
		fail_msg("interpreter failed");
	}
}

/* Within what the rule's precision allows: bit for bit when exact; a
 * rounding or two of the values around, inexact. */
static bool agrees(const struct alg_rule *r, float before, float after)
{
	if (before == after || (isnan(before) && isnan(after)))
		return true;
	if (r->precision == ALG_EXACT)
		return false;
	return fabsf(before - after) <= 1e-5f * (1.0f + fabsf(before) + fabsf(after));
}

static void check_agrees(const struct alg_rule *r, const struct ir_func *before,
			 const struct ir_func *after, int width)
{
	for (int trial = 0; trial < 8; trial++) {
		struct test_env t;
		random_env(&t);
		struct ir_interp_result a, b;
		run(before, &t, &a);
		run(after, &t, &b);
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < width; c++)
				if (!agrees(r, a.outputs[0][p][c], b.outputs[0][p][c]))
					fail_msg("rule %s: pixel %d comp %d: %.9g before, %.9g after\n%s",
						 r->name, p, c, (double)a.outputs[0][p][c],
						 (double)b.outputs[0][p][c], ir_print(before, A));
	}
}

/* Every node of p with a condition, then p; n so far, up to max. */
static int conditioned(const struct alg_node *p, const struct alg_node **out, int n, int max)
{
	for (int i = 0; p->kind == ALG_OP && i < p->nsrc; i++)
		n = conditioned(p->src[i], out, n, max);
	if (p->pred != ALG_ANY && n < max)
		out[n++] = p;
	return n;
}

/* Rule r on a function made from its pattern (constants as `konsts`
 * says): it fires (must_fire: it must), and then the values agree. */
static void check_rule(int r, int width, enum breakage konsts, bool must_fire)
{
	struct ir_func *f = make_func(&alg_rules[r], width, NULL, konsts);
	struct ir_func *g = ir_func_clone(f);
	assert_non_null(g);
	int fired = fire(g, r);
	if (must_fire && fired != 1)
		fail_msg("rule %s does not fire on its own pattern:\n%s", alg_rules[r].name,
			 ir_print(f, A));
	if (fired) {
		validate_ok(A, g);
		check_agrees(&alg_rules[r], f, g, width);
	}
}

static void test_rules_fire_and_agree(void **state)
{
	(void)state;
	for (int r = 0; r < alg_nrules; r++)
		for (int width = 1; width <= 4; width++)
			for (int rep = 0; rep < 4; rep++)
				check_rule(r, width, BREAK_NONE, true);
}

static void test_conditions_stop_rules(void **state)
{
	(void)state;
	int broken_total = 0;
	for (int r = 0; r < alg_nrules; r++) {
		const struct alg_rule *rule = &alg_rules[r];
		const struct alg_node *nodes[16];
		int n = conditioned(rule->pattern, nodes, 0, 16);
		for (int width = 1; width <= 4; width++) {
			for (int i = 0; i < n; i++) {
				struct ir_func *f = make_func(rule, width, nodes[i], BREAK_PRED);
				if (fire(f, r) != 0)
					fail_msg("rule %s fires with condition %d of its pattern "
						 "broken:\n%s", rule->name, nodes[i]->pred, ir_print(f, A));
				broken_total++;
			}
			if (rule->flags & ALG_FINITE) {
				struct ir_func *f = make_func(rule, width, NULL, BREAK_FINITE);
				if (fire(f, r) != 0)
					fail_msg("rule %s fires on infinite constants", rule->name);
				broken_total++;
			}
		}
	}
	assert_true(broken_total > alg_nrules);
}

/* Where a rule fires on constants 0 or infinite, the values agree as
 * well (a rule that would meet an infinity another way than the tree did
 * declares ALG_FINITE). */
static void test_special_constants(void **state)
{
	(void)state;
	for (int r = 0; r < alg_nrules; r++)
		for (int width = 1; width <= 4; width++)
			for (int rep = 0; rep < 32; rep++)
				check_rule(r, width, SPECIAL_KONSTS, false);
}

static bool konst_op(enum ir_op op)
{
	return op == IR_OP_NEG || op == IR_OP_RCP || op == IR_OP_LOG2 || op == IR_OP_ADD ||
	       op == IR_OP_SUB || op == IR_OP_MUL;
}

/* Whether every op of p is a compwise float op (in a replacement, a
 * constant subtree's ops are ones the engine computes) and every capture
 * of a replacement is bound by the pattern (`bound` letters). */
static bool well_formed(const struct alg_node *p, bool replacement, uint32_t *bound)
{
	switch (p->kind) {
	case ALG_VAR:
	case ALG_KONST:
		if (p->var < 'a' || p->var > 'z')
			return false;
		if (!replacement)
			*bound |= 1u << (p->var - 'a');
		return (*bound >> (p->var - 'a')) & 1;
	case ALG_IMM:
		return replacement;
	case ALG_OP: {
		const struct ir_op_info *info = &ir_op_infos[p->op];
		bool konsts = true;
		if (!(info->flags & IRF_COMPWISE) || info->src_type != 'f' || info->res_type != 'f' ||
		    p->nsrc != info->nsrc)
			return false;
		for (int i = 0; i < p->nsrc; i++) {
			if (!well_formed(p->src[i], replacement, bound))
				return false;
			konsts &= p->src[i]->kind == ALG_KONST || p->src[i]->kind == ALG_IMM;
		}
		return !(replacement && konsts && !konst_op(p->op));
	}
	}
	return false;
}

/* The table itself: names unique, a reason each, trees the engine takes. */
static void test_table_well_formed(void **state)
{
	(void)state;
	for (int r = 0; r < alg_nrules; r++) {
		const struct alg_rule *rule = &alg_rules[r];
		uint32_t bound = 0;
		assert_non_null(rule->name);
		assert_true(rule->reason && strlen(rule->reason) > 10);
		assert_int_equal(rule->pattern->kind, ALG_OP);
		if (!well_formed(rule->pattern, false, &bound) ||
		    !well_formed(rule->replacement, true, &bound))
			fail_msg("rule %s: a tree the engine does not take", rule->name);
		for (int s = 0; s < r; s++)
			if (strcmp(alg_rules[s].name, rule->name) == 0)
				fail_msg("rule %s twice", rule->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_well_formed),
		cmocka_unit_test(test_rules_fire_and_agree),
		cmocka_unit_test(test_conditions_stop_rules),
		cmocka_unit_test(test_special_constants),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
