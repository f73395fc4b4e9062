/* lower_arrays (ir/lower_arrays.c) on random programs: arrays of every
 * width and of bools, stored and read at constant elements, at indexes
 * from the inputs (fractions, negatives, past the end) and at loop
 * counters, inside IFs and loops.  The interpreter runs each program
 * before and after on random inputs: the outputs must be equal, and no
 * array access may be left.  The whole -O2 pipeline (which lowers in its
 * rounds) must agree too.  The fixtures lower_arrays_*.ir show the shape
 * of the result (test_ir_passes). */
#include <math.h>

#include "arena_strbuf.h"
#include "array_rel.h"
#include "ir_pass.h"
#include "ir_test_util.h"

enum { NPROGRAMS = 300, NINPUTS = 6, MAX_POOL = 64 };

/* A value the generator may use: its id and width (values made inside
 * an IF or a loop leave the pool with it). */
struct val {
	unsigned id;
	int ncomp;
};

struct gen {
	struct strbuf sb;
	unsigned rng;
	unsigned next_id;
	struct val pool[MAX_POOL];
	int npool;
	int narrays;
	int len[3], ncomp[3];
	bool is_bool[3];
	int depth;
	unsigned counters[4]; /* loop counters in scope, innermost last */
	int ncounters;
	unsigned k_zero, k_one;
};

static unsigned rnd(struct gen *g, unsigned n)
{
	g->rng = g->rng * 1103515245u + 12345u;
	return (g->rng >> 16) % n;
}

static void indent(struct gen *g)
{
	for (int i = 0; i < g->depth; i++)
		strbuf_printf(&g->sb, "  ");
}

static unsigned fresh(struct gen *g)
{
	return g->next_id++;
}

static void add_val(struct gen *g, unsigned id, int ncomp)
{
	if (g->npool < MAX_POOL)
		g->pool[g->npool++] = (struct val){ id, ncomp };
}

/* `%id.<n letters>` reading a pool value as n components. */
static void print_val(struct gen *g, const struct val *v, int n)
{
	strbuf_printf(&g->sb, "%%%u.", v->id);
	unsigned start = rnd(g, 4);
	for (int c = 0; c < n; c++)
		strbuf_printf(&g->sb, "%c", "xyzw"[(start + (unsigned)c) % (unsigned)v->ncomp]);
}

static unsigned constf(struct gen *g, float x)
{
	unsigned id = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = const.f1 %g\n", id, (double)x);
	return id;
}

/* An index source: an input component (any value), its floor, or a loop
 * counter in scope. */
static unsigned index_value(struct gen *g)
{
	unsigned kind = rnd(g, g->ncounters ? 4 : 2);
	if (kind >= 2)
		return g->counters[rnd(g, (unsigned)g->ncounters)];
	const struct val *in = &g->pool[rnd(g, NINPUTS < g->npool ? NINPUTS : (unsigned)g->npool)];
	unsigned id = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = %s.f1 ", id, kind == 0 ? "mov" : "floor");
	print_val(g, in, 1);
	strbuf_printf(&g->sb, "\n");
	return id;
}

/* `#a[offset]` with an index (+ %i.x) or without. */
static void access(struct gen *g, int a, bool dynamic, unsigned idx)
{
	if (dynamic)
		strbuf_printf(&g->sb, "#%d[%u] + %%%u.x", a, rnd(g, 2), idx);
	else
		strbuf_printf(&g->sb, "#%d[%u]", a, rnd(g, (unsigned)g->len[a]));
}

static void gen_store(struct gen *g)
{
	int a = (int)rnd(g, (unsigned)g->narrays);
	bool dynamic = rnd(g, 2);
	unsigned idx = dynamic ? index_value(g) : 0;
	const struct val *v = &g->pool[rnd(g, (unsigned)g->npool)];
	unsigned cmp = 0;
	if (g->is_bool[a]) {
		cmp = fresh(g);
		indent(g);
		strbuf_printf(&g->sb, "%%%u = lt.b1 ", cmp);
		print_val(g, v, 1);
		strbuf_printf(&g->sb, ", %%%u.x\n", g->k_zero);
	}
	indent(g);
	strbuf_printf(&g->sb, "store ");
	access(g, a, dynamic, idx);
	strbuf_printf(&g->sb, ", ");
	if (g->is_bool[a])
		strbuf_printf(&g->sb, "%%%u.x\n", cmp);
	else
		print_val(g, v, g->ncomp[a]), strbuf_printf(&g->sb, "\n");
}

/* A load, made a float value of the pool (bools through b2f), mixed with
 * another value so that the pool grows in variety. */
static void gen_load(struct gen *g)
{
	int a = (int)rnd(g, (unsigned)g->narrays);
	bool dynamic = rnd(g, 2);
	unsigned idx = dynamic ? index_value(g) : 0;
	unsigned id = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = load.%c%d ", id, g->is_bool[a] ? 'b' : 'f', g->ncomp[a]);
	access(g, a, dynamic, idx);
	strbuf_printf(&g->sb, "\n");
	if (g->is_bool[a]) {
		unsigned f = fresh(g);
		indent(g);
		strbuf_printf(&g->sb, "%%%u = b2f.f1 %%%u.x\n", f, id);
		id = f;
	}
	int n = g->is_bool[a] ? 1 : g->ncomp[a];
	unsigned sum = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = add.f%d %%%u.%.*s, ", sum, n, id, n, "xyzw");
	print_val(g, &g->pool[rnd(g, (unsigned)g->npool)], n);
	strbuf_printf(&g->sb, "\n");
	add_val(g, sum, n);
}

static void gen_stmts(struct gen *g, int n);

static void gen_if(struct gen *g)
{
	unsigned c = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = lt.b1 ", c);
	print_val(g, &g->pool[rnd(g, (unsigned)g->npool)], 1);
	strbuf_printf(&g->sb, ", %%%u.x\n", g->k_one);
	indent(g);
	strbuf_printf(&g->sb, "if %%%u.x {\n", c);
	int saved = g->npool;
	g->depth++;
	gen_stmts(g, 1 + (int)rnd(g, 3));
	g->npool = saved;
	if (rnd(g, 2)) {
		g->depth--;
		indent(g);
		strbuf_printf(&g->sb, "} else {\n");
		g->depth++;
		gen_stmts(g, 1 + (int)rnd(g, 3));
		g->npool = saved;
	}
	g->depth--;
	indent(g);
	strbuf_printf(&g->sb, "}\n");
}

/* `if (v < 0) jump`, v from the pool */
static void jump_if(struct gen *g, const char *jump)
{
	unsigned e = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = lt.b1 ", e);
	print_val(g, &g->pool[rnd(g, (unsigned)g->npool)], 1);
	strbuf_printf(&g->sb, ", %%%u.x\n", g->k_zero);
	indent(g);
	strbuf_printf(&g->sb, "if %%%u.x {\n", e);
	indent(g);
	strbuf_printf(&g->sb, "  %s\n", jump);
	indent(g);
	strbuf_printf(&g->sb, "}\n");
}

/* for (c = 0; c < n; c++) { ... }, the step first so that a CONTINUE in
 * the body (sometimes) steps too; an early BREAK sometimes. */
static void gen_loop(struct gen *g)
{
	unsigned n = constf(g, (float)(1 + rnd(g, 4)));
	unsigned c = fresh(g), next = fresh(g);
	bool cont = rnd(g, 3) == 0;
	indent(g);
	strbuf_printf(&g->sb, "loop {\n");
	g->depth++;
	indent(g);
	strbuf_printf(&g->sb, "%%%u = phi.f1 %%%u.x, %%%u.x", c, g->k_zero, next);
	strbuf_printf(&g->sb, cont ? ", %%%u.x\n" : "\n", next);
	unsigned t = fresh(g);
	indent(g);
	strbuf_printf(&g->sb, "%%%u = ge.b1 %%%u.x, %%%u.x\n", t, c, n);
	indent(g);
	strbuf_printf(&g->sb, "if %%%u.x {\n", t);
	indent(g);
	strbuf_printf(&g->sb, "  break\n");
	indent(g);
	strbuf_printf(&g->sb, "}\n");
	indent(g);
	strbuf_printf(&g->sb, "%%%u = add.f1 %%%u.x, %%%u.x\n", next, c, g->k_one);
	int saved = g->npool;
	g->counters[g->ncounters++] = c;
	gen_stmts(g, 1 + (int)rnd(g, 2));
	if (cont)
		jump_if(g, "continue");
	gen_stmts(g, 1 + (int)rnd(g, 2));
	if (rnd(g, 3) == 0)
		jump_if(g, "break");
	g->ncounters--;
	g->npool = saved;
	g->depth--;
	indent(g);
	strbuf_printf(&g->sb, "}\n");
}

static void gen_stmts(struct gen *g, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned k = rnd(g, g->depth < 2 && g->ncounters < 3 ? 6 : 4);
		if (k < 2)
			gen_store(g);
		else if (k < 4)
			gen_load(g);
		else if (k == 4)
			gen_if(g);
		else
			gen_loop(g);
	}
}

/* The output: the sum of every element, read at constant elements after
 * the program, plus one more value of the pool. */
static char *gen_program(struct arena *a, unsigned seed)
{
	struct gen g = { .rng = seed * 2654435761u + 1u, .next_id = 1 };
	strbuf_init(&g.sb, a);
	g.narrays = 1 + (int)rnd(&g, 3);
	for (int i = 0; i < NINPUTS; i++)
		strbuf_printf(&g.sb, "input #%d \"v%d\" f4\n", i, i);
	strbuf_printf(&g.sb, "output #0 \"o\" f4 target=0\n");
	for (int i = 0; i < g.narrays; i++) {
		g.len[i] = 1 + (int)rnd(&g, 5);
		g.is_bool[i] = rnd(&g, 4) == 0;
		g.ncomp[i] = g.is_bool[i] ? 1 : 1 + (int)rnd(&g, 4);
		strbuf_printf(&g.sb, "array #%d \"a%d\" %c%d length=%d\n", i, i,
			      g.is_bool[i] ? 'b' : 'f', g.ncomp[i], g.len[i]);
	}
	for (int i = 0; i < NINPUTS; i++) {
		unsigned id = fresh(&g);
		strbuf_printf(&g.sb, "%%%u = input.f4 #%d\n", id, i);
		add_val(&g, id, 4);
	}
	g.k_zero = constf(&g, 0.0f);
	g.k_one = constf(&g, 1.0f);
	gen_stmts(&g, 3 + (int)rnd(&g, 6));
	unsigned acc = g.pool[rnd(&g, (unsigned)g.npool)].id;
	unsigned start = fresh(&g);
	strbuf_printf(&g.sb, "%%%u = mov.f4 %%%u.xxxx\n", start, acc);
	acc = start;
	for (int i = 0; i < g.narrays; i++)
		for (int e = 0; e < g.len[i]; e++) {
			unsigned l = fresh(&g), s = fresh(&g);
			strbuf_printf(&g.sb, "%%%u = load.%c%d #%d[%d]\n", l, g.is_bool[i] ? 'b' : 'f',
				      g.ncomp[i], i, e);
			if (g.is_bool[i]) {
				unsigned f = fresh(&g);
				strbuf_printf(&g.sb, "%%%u = b2f.f1 %%%u.x\n", f, l);
				l = f;
			}
			static const char *const widen[4] = { "xxxx", "xyxy", "xyzx", "xyzw" };
			strbuf_printf(&g.sb, "%%%u = add.f4 %%%u.xyzw, %%%u.%s\n", s, acc, l,
				      widen[g.is_bool[i] ? 0 : g.ncomp[i] - 1]);
			acc = s;
		}
	strbuf_printf(&g.sb, "output #0 %%%u.xyzw\n", acc);
	return strbuf_text(&g.sb);
}

/* Inputs from a set with integers in and out of every array's range,
 * fractions and negatives. */
static void random_env(struct test_env *t, unsigned seed)
{
	static const float values[] = { -2, -1, -0.5f, 0, 0.25f, 0.5f, 1, 1.5f, 2, 3, 4, 5, 7 };
	test_env_init(t, 0);
	unsigned r = seed * 747796405u + 2891336453u;
	for (int i = 0; i < NINPUTS; i++)
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++) {
				r = r * 1103515245u + 12345u;
				t->in[i][p][c] = values[(r >> 16) % (sizeof values / sizeof *values)];
			}
}

static void run(struct arena *a, const struct ir_func *f, unsigned seed,
		struct ir_interp_result *res)
{
	struct test_env t;
	random_env(&t, seed);
	struct diag_sink d;
	diag_init(&d, a);
	if (!ir_interp_quad(f, &t.env, res, &d))
		fail_msg("interpreter: %s", diag_render(&d));
}

static void expect_same(const char *what, const char *text, const struct ir_interp_result *x,
			const struct ir_interp_result *y)
{
	for (int p = 0; p < 4; p++)
		for (int c = 0; c < 4; c++) {
			float u = x->outputs[0][p][c], v = y->outputs[0][p][c];
			if (u != v && !(isnan(u) && isnan(v)))
				fail_msg("%s: pixel %d comp %d: %g before, %g after\n%s", what, p, c,
					 (double)u, (double)v, text);
		}
}

static bool array_op(const struct ir_instr *in, void *ud)
{
	(void)ud;
	return in->op == IR_OP_LOAD || in->op == IR_OP_STORE;
}

/* The backend's mode: every array lowered. */
static bool lower_all(struct ir_func *f)
{
	return ir_lower_arrays_except(f, NULL);
}

/* Whether every array left is one a backend addresses through aL (once
 * LICM has run). */
static bool only_rel_arrays(const struct ir_func *f)
{
	bool rel[f->narrays + 1];
	array_rel_arrays(f, rel, true);
	for (int a = 0; a < f->narrays; a++)
		if (!rel[a])
			return false;
	return true;
}

/* Lowers f in one mode: `all` the backend's, else the IR step's (which
 * keeps the arrays addressed through aL). */
static void lower_ok(struct arena *a, struct ir_func *f, const char *text, bool all)
{
	struct diag_sink d;
	diag_init(&d, a);
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, &d);
	ctx.validate = true;
	ir_pass_run_named(&ctx, f, "lower_arrays", all ? lower_all : ir_lower_arrays);
	if (ctx.failed)
		fail_msg("invalid after lower_arrays: %s\n%s\n%s", diag_render(&d), text,
			 ir_print(f, a));
	if (all ? ir_any_instr(f, array_op, NULL) || f->narrays != 0 : !only_rel_arrays(f))
		fail_msg("arrays left:\n%s", ir_print(f, a));
}

static void test_random_programs(void **state)
{
	struct arena *a = *state;
	for (unsigned seed = 0; seed < NPROGRAMS; seed++) {
		char *text = gen_program(a, seed);
		struct ir_func *f = parse_ok(a, text);
		validate_ok(a, f);
		struct ir_func *opt = ir_func_clone(f), *kept = ir_func_clone(f);
		assert_non_null(opt);
		assert_non_null(kept);
		struct ir_interp_result before[3], after;
		for (unsigned s = 0; s < 3; s++)
			run(a, f, seed * 3 + s, &before[s]);
		lower_ok(a, f, text, true);
		lower_ok(a, kept, text, false);
		for (unsigned s = 0; s < 3; s++) {
			run(a, f, seed * 3 + s, &after);
			expect_same("lower_arrays", text, &before[s], &after);
			run(a, kept, seed * 3 + s, &after);
			expect_same("lower_arrays (aL arrays kept)", text, &before[s], &after);
		}
		struct diag_sink d;
		diag_init(&d, a);
		struct ir_pass_ctx ctx;
		ir_pass_ctx_init(&ctx, &d);
		ctx.validate = true;
		if (!ir_optimize(opt, 2, &ctx))
			fail_msg("-O2: %s\n%s", diag_render(&d), text);
		assert_true(only_rel_arrays(opt));
		for (unsigned s = 0; s < 3; s++) {
			run(a, opt, seed * 3 + s, &after);
			expect_same("-O2", text, &before[s], &after);
		}
	}
}

/* -O0 runs lower_arrays alone: arrays go but those addressed through
 * aL, nothing else changes. */
static void test_o0_lowers(void **state)
{
	struct arena *a = *state;
	char *text = gen_program(a, 7);
	struct ir_func *f = parse_ok(a, text);
	assert_true(ir_optimize(f, 0, NULL));
	assert_true(only_rel_arrays(f));
	validate_ok(a, f);
}

/* The n-th LOAD or STORE of f, in program order. */
struct nth {
	int n;
	const struct ir_instr *found;
};

static void count_access(struct ir_instr *in, void *ud)
{
	struct nth *x = ud;
	if ((in->op == IR_OP_LOAD || in->op == IR_OP_STORE) && x->n-- == 0)
		x->found = in;
}

static const struct ir_instr *nth_access(struct ir_func *f, int n)
{
	struct nth x = { n, NULL };
	ir_foreach_instr(f, count_access, &x);
	assert_non_null(x.found);
	return x.found;
}

/* The n-th access reaches element pos0 + pass * step through aL,
 * guarded or not. */
static void rel_at(struct ir_func *f, int n, int pos0, int step, bool guard)
{
	struct array_rel r;
	if (!array_rel_access(f, nth_access(f, n), &r))
		fail_msg("access %d: not through aL", n);
	if (r.pos0 != pos0 || r.step != step || r.guard != guard)
		fail_msg("access %d: element %d step %d guard %d, expected %d %d %d", n, r.pos0,
			 r.step, r.guard, pos0, step, guard);
}

/* A loop unrolled in part leaves its counter as (k + 1) + 1 through a
 * MOV until the rounds fold it: a counter of step 2, k + 1 an element
 * past it.  k - 1 is a counter's element too.  A chain of fractions is
 * not a counter (two roundings are not one). */
static void test_counter_chains(void **state)
{
	struct arena *a = *state;
	const char *text = "output #0 \"o\" f4 target=0\n"
			   "array #0 \"a\" f1 length=8\n"
			   "%1 = const.f1 0\n"
			   "%2 = const.f1 1\n"
			   "%3 = const.f1 8\n"
			   "%4 = const.f1 0.5\n"
			   "loop {\n"
			   "  %5 = phi.f1 %1.x, %9.x\n"
			   "  %6 = ge.b1 %5.x, %3.x\n"
			   "  if %6.x {\n    break\n  }\n"
			   "  %7 = add.f1 %5.x, %2.x\n"
			   "  %8 = mov.f1 %7.x\n"
			   "  store #0[0] + %5.x, %5.x\n"
			   "  store #0[0] + %8.x, %8.x\n"
			   "  %9 = add.f1 %8.x, %2.x\n"
			   "}\n"
			   "loop {\n"
			   "  %10 = phi.f1 %2.x, %13.x\n"
			   "  %11 = ge.b1 %10.x, %3.x\n"
			   "  if %11.x {\n    break\n  }\n"
			   "  %12 = sub.f1 %10.x, %2.x\n"
			   "  %14 = load.f1 #0[0] + %12.x\n"
			   "  %13 = add.f1 %10.x, %2.x\n"
			   "}\n"
			   "loop {\n"
			   "  %15 = phi.f1 %1.x, %18.x\n"
			   "  %16 = ge.b1 %15.x, %3.x\n"
			   "  if %16.x {\n    break\n  }\n"
			   "  %17 = add.f1 %15.x, %4.x\n"
			   "  %19 = load.f1 #0[0] + %15.x\n"
			   "  %18 = add.f1 %17.x, %4.x\n"
			   "}\n"
			   "%20 = load.f1 #0[7]\n"
			   "%21 = vec.f4 %20.x, %20.x, %20.x, %20.x\n"
			   "output #0 %21.xyzw\n";
	struct ir_func *f = parse_ok(a, text);
	rel_at(f, 0, 0, 2, false);
	rel_at(f, 1, 1, 2, false);
	rel_at(f, 2, 0, 1, false);
	assert_false(array_rel_access(f, nth_access(f, 3), NULL));
}

/* aL follows one step per loop: loop_counter_find's counter's, else the
 * first whose start and step aL carries; any counter of that step
 * addresses an array (here after a float that grows by 0.25, with a
 * bound only known at run time: guarded).  A counter of another step
 * does not. */
static void test_counters_of_al_step(void **state)
{
	struct arena *a = *state;
	const char *text = "uniform #0 \"u\" \"float\" f1 nvec4=1 array=0 base=0\n"
			   "output #0 \"o\" f4 target=0\n"
			   "array #0 \"a\" f1 length=8\n"
			   "%1 = const.f1 0\n"
			   "%2 = const.f1 1\n"
			   "%3 = const.f1 0.25\n"
			   "%4 = const.f1 2\n"
			   "%5 = const.f1 8\n"
			   "%6 = uniform.f1 #0[0]\n"
			   "loop {\n"
			   "  %7 = phi.f1 %1.x, %10.x\n"
			   "  %8 = phi.f1 %2.x, %11.x\n"
			   "  %9 = ge.b1 %8.x, %6.x\n"
			   "  if %9.x {\n    break\n  }\n"
			   "  %12 = load.f1 #0[0] + %8.x\n"
			   "  %13 = mul.f1 %12.x, %7.x\n"
			   "  store #0[0] + %8.x, %13.x\n"
			   "  %10 = add.f1 %7.x, %3.x\n"
			   "  %11 = add.f1 %8.x, %2.x\n"
			   "}\n"
			   "loop {\n"
			   "  %14 = phi.f1 %1.x, %17.x\n"
			   "  %15 = phi.f1 %1.x, %18.x\n"
			   "  %16 = ge.b1 %14.x, %5.x\n"
			   "  if %16.x {\n    break\n  }\n"
			   "  %19 = load.f1 #0[0] + %14.x\n"
			   "  %20 = load.f1 #0[0] + %15.x\n"
			   "  %17 = add.f1 %14.x, %4.x\n"
			   "  %18 = add.f1 %15.x, %2.x\n"
			   "}\n"
			   "%21 = vec.f4 %19.x, %20.x, %19.x, %20.x\n"
			   "output #0 %21.xyzw\n";
	struct ir_func *f = parse_ok(a, text);
	rel_at(f, 0, 1, 1, true);
	rel_at(f, 1, 1, 1, true);
	rel_at(f, 2, 0, 2, false);
	assert_false(array_rel_access(f, nth_access(f, 3), NULL));
}

/* A LOAD at the outer loop's counter inside an inner loop that stores
 * nothing into its array: LICM moves it to the outer loop, where aL
 * reaches its element, so lower_arrays keeps the array; a store in the
 * inner loop keeps the LOAD there, and the array is lowered. */
static void test_load_hoisted_to_its_counter(void **state)
{
	struct arena *a = *state;
	const char *text = "uniform #0 \"u\" \"float\" f1 nvec4=1 array=0 base=0\n"
			   "output #0 \"o\" f4 target=0\n"
			   "array #0 \"hoisted\" f1 length=4\n"
			   "array #1 \"stored_inside\" f1 length=4\n"
			   "%1 = const.f1 0\n"
			   "%2 = const.f1 1\n"
			   "%3 = const.f1 4\n"
			   "%4 = uniform.f1 #0[0]\n"
			   "store #0[2], %4.x\n"
			   "store #1[2], %4.x\n"
			   "loop {\n"
			   "  %5 = phi.f1 %1.x, %6.x\n"
			   "  %7 = phi.f1 %1.x, %8.x\n"
			   "  %9 = ge.b1 %5.x, %3.x\n"
			   "  if %9.x {\n    break\n  }\n"
			   "  loop {\n"
			   "    %10 = phi.f1 %7.x, %11.x\n"
			   "    %12 = phi.f1 %1.x, %13.x\n"
			   "    %14 = ge.b1 %12.x, %4.x\n"
			   "    if %14.x {\n      break\n    }\n"
			   "    %15 = load.f1 #0[0] + %5.x\n"
			   "    %16 = load.f1 #1[0] + %5.x\n"
			   "    store #1[0] + %12.x, %15.x\n"
			   "    %17 = add.f1 %15.x, %16.x\n"
			   "    %11 = add.f1 %10.x, %17.x\n"
			   "    %13 = add.f1 %12.x, %2.x\n"
			   "  }\n"
			   "  %8 = phi.f1 %10.x\n"
			   "  %6 = add.f1 %5.x, %2.x\n"
			   "}\n"
			   "%18 = phi.f1 %7.x\n"
			   "%19 = vec.f4 %18.x, %18.x, %18.x, %18.x\n"
			   "output #0 %19.xyzw\n";
	struct ir_func *f = parse_ok(a, text);
	assert_false(array_rel_access(f, nth_access(f, 2), NULL));
	assert_true(ir_lower_arrays(f));
	validate_ok(a, f);
	assert_int_equal(f->narrays, 1);
	assert_string_equal(f->arrays[0].name, "hoisted");
	assert_true(ir_opt_licm(f));
	validate_ok(a, f);
	rel_at(f, 1, 0, 1, false);
}

/* An array read and written only at a loop's counter (plus a constant)
 * stays for the backend, inside its elements on every pass or not (the
 * backend guards those); one read at a uniform goes; the backend's mode
 * lowers them all. */
static void test_rel_array_kept(void **state)
{
	struct arena *a = *state;
	const char *text = "uniform #0 \"u\" \"float\" f1 nvec4=1 array=0 base=0\n"
			   "output #0 \"o\" f4 target=0\n"
			   "array #0 \"rel\" f1 length=4\n"
			   "array #1 \"at_uniform\" f1 length=4\n"
			   "array #2 \"past_end\" f1 length=4\n"
			   "%1 = const.f1 0\n"
			   "%2 = const.f1 1\n"
			   "%3 = const.f1 3\n"
			   "%4 = uniform.f1 #0[0]\n"
			   "loop {\n"
			   "  %5 = phi.f1 %1.x, %6.x\n"
			   "  %7 = ge.b1 %5.x, %3.x\n"
			   "  if %7.x {\n    break\n  }\n"
			   "  store #0[1] + %5.x, %5.x\n"
			   "  %8 = load.f1 #0[0] + %5.x\n"
			   "  store #1[0] + %5.x, %8.x\n"
			   "  store #2[2] + %5.x, %8.x\n"
			   "  %6 = add.f1 %5.x, %2.x\n"
			   "}\n"
			   "%9 = load.f1 #1[0] + %4.x\n"
			   "%10 = load.f1 #0[3]\n"
			   "%11 = load.f1 #2[3]\n"
			   "%12 = vec.f4 %9.x, %10.x, %11.x, %9.x\n"
			   "output #0 %12.xyzw\n";
	struct ir_func *f = parse_ok(a, text), *g = ir_func_clone(f);
	assert_non_null(g);
	assert_true(ir_lower_arrays(f));
	validate_ok(a, f);
	assert_int_equal(f->narrays, 2);
	assert_string_equal(f->arrays[0].name, "rel");
	assert_string_equal(f->arrays[1].name, "past_end");
	assert_false(ir_lower_arrays(f));
	assert_true(lower_all(f));
	assert_int_equal(f->narrays, 0);
	validate_ok(a, f);
	bool keep[3] = { false, false, true };
	assert_true(ir_lower_arrays_except(g, keep));
	assert_int_equal(g->narrays, 1);
	assert_string_equal(g->arrays[0].name, "past_end");
}

/* A loop with three CONTINUEs would need head PHIs of five sources: an
 * array stored there stays an array; another one is lowered. */
static void test_wide_loop_keeps_its_array(void **state)
{
	struct arena *a = *state;
	const char *text = "output #0 \"o\" f4 target=0\n"
			   "array #0 \"kept\" f1 length=2\n"
			   "array #1 \"gone\" f1 length=2\n"
			   "%1 = const.f1 1\n"
			   "%2 = const.b1 1\n"
			   "store #1[1], %1.x\n"
			   "loop {\n"
			   "  store #0[0], %1.x\n"
			   "  if %2.x {\n    continue\n  }\n"
			   "  if %2.x {\n    continue\n  }\n"
			   "  if %2.x {\n    continue\n  }\n"
			   "  break\n"
			   "}\n"
			   "%3 = load.f1 #0[0]\n"
			   "%4 = load.f1 #1[1]\n"
			   "%5 = vec.f4 %3.x, %4.x, %3.x, %4.x\n"
			   "output #0 %5.xyzw\n";
	struct ir_func *f = parse_ok(a, text);
	assert_true(ir_lower_arrays(f));
	validate_ok(a, f);
	assert_int_equal(f->narrays, 1);
	assert_string_equal(f->arrays[0].name, "kept");
	char *got = ir_print(f, a);
	assert_non_null(strstr(got, "load.f1 #0[0]"));
	assert_null(strstr(got, "#1["));
	/* nothing more to do: the rounds do not run it again and again */
	assert_false(ir_lower_arrays(f));
}

/* A store at an index of the value an element already holds needs no
 * select for that element (the frontend fills the elements never
 * assigned with the value it stores at an index). */
static void test_store_of_held_value_selects_nothing(void **state)
{
	struct arena *a = *state;
	const char *text = "input #0 \"i\" f1\n"
			   "output #0 \"o\" f4 target=0\n"
			   "array #0 \"a\" f1 length=3\n"
			   "%1 = const.f1 1\n"
			   "%2 = const.f1 2\n"
			   "%3 = input.f1 #0\n"
			   "store #0[0], %1.x\n"
			   "store #0[1], %2.x\n"
			   "store #0[2], %2.x\n"
			   "store #0[0] + %3.x, %2.x\n"
			   "%4 = load.f1 #0[0]\n"
			   "%5 = load.f1 #0[2]\n"
			   "%6 = vec.f4 %4.x, %5.x, %4.x, %5.x\n"
			   "output #0 %6.xyzw\n";
	struct ir_func *f = parse_ok(a, text);
	assert_true(ir_lower_arrays(f));
	validate_ok(a, f);
	char *got = ir_print(f, a);
	const char *sel = strstr(got, "select");
	assert_non_null(sel); /* element 0 */
	assert_null(strstr(sel + 1, "select"));
}

static int count_op(const char *text, const char *op)
{
	int n = 0;
	for (const char *p = strstr(text, op); p; p = strstr(p + 1, op))
		n++;
	return n;
}

/* Two arrays (a matrix's columns, a struct's members) read and written
 * at one index in a block compare it with each element once: the
 * accesses after the first reuse its compares. */
static void test_one_index_compared_once(void **state)
{
	struct arena *a = *state;
	const char *text = "input #0 \"i\" f1\n"
			   "output #0 \"o\" f4 target=0\n"
			   "array #0 \"m[][0]\" f2 length=3\n"
			   "array #1 \"m[][1]\" f2 length=3\n"
			   "%1 = const.f2 1 2\n"
			   "%2 = input.f1 #0\n"
			   "store #0[0] + %2.x, %1.xy\n"
			   "store #1[0] + %2.x, %1.yx\n"
			   "%3 = load.f2 #0[0] + %2.x\n"
			   "%4 = load.f2 #1[0] + %2.x\n"
			   "%5 = vec.f4 %3.x, %3.y, %4.x, %4.y\n"
			   "output #0 %5.xyzw\n";
	struct ir_func *f = parse_ok(a, text);
	assert_true(ir_lower_arrays(f));
	validate_ok(a, f);
	char *got = ir_print(f, a);
	assert_int_equal(count_op(got, " eq."), 3);
	assert_int_equal(count_op(got, " select."), 2 * 3 + 2 * 2); /* stores, loads */
}

/* An array a loop writes before it reads (declared in the loop, in
 * GLSL) needs no PHIs at the loop's head or after it: lowering leaves
 * none it made that nothing reads (-O0 runs no DCE after it). */
static void test_unread_phis_swept(void **state)
{
	struct arena *a = *state;
	const char *text = "input #0 \"i\" f1\n"
			   "output #0 \"o\" f1 target=0\n"
			   "array #0 \"a\" f1 length=2\n"
			   "%1 = input.f1 #0\n"
			   "loop {\n"
			   "  store #0[0], %1.x\n"
			   "  store #0[1], %1.x\n"
			   "  %2 = load.f1 #0[1]\n"
			   "  %3 = load.f1 #0[0]\n"
			   "  %4 = lt.b1 %2.x, %1.x\n"
			   "  if %4.x {\n"
			   "    break\n"
			   "  }\n"
			   "}\n"
			   "output #0 %1.x\n";
	struct ir_func *f = parse_ok(a, text);
	assert_true(ir_lower_arrays(f));
	validate_ok(a, f);
	char *got = ir_print(f, a);
	assert_int_equal(count_op(got, " phi."), 0);
	assert_int_equal(count_op(got, " mov."), 1); /* %3 read by nothing: gone */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_rel_array_kept),
		cmocka_unit_test(test_counter_chains),
		cmocka_unit_test(test_counters_of_al_step),
		cmocka_unit_test(test_load_hoisted_to_its_counter),
		cmocka_unit_test(test_o0_lowers),
		cmocka_unit_test(test_wide_loop_keeps_its_array),
		cmocka_unit_test(test_store_of_held_value_selects_nothing),
		cmocka_unit_test(test_one_index_compared_once),
		cmocka_unit_test(test_unread_phis_swept),
	};
	return cmocka_run_group_tests(tests, ir_test_arena_setup, ir_test_arena_teardown);
}
