/* The optimization passes on text fixtures, and the pass runner.
 * tests/ir/fixtures/<pass>_<name>.ir is parsed, validated, run through the
 * pass named by its prefix (optimize_: the whole -O2 pipeline), validated,
 * printed and compared with <pass>_<name>.expected; the interpreter runs
 * before and after on several inputs and must give the same pixels. */
#include <dirent.h>
#include <math.h>
#include "ir_test_util.h"
#include "ir_pass.h"

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

struct pass_entry {
	const char *prefix;
	ir_pass_fn pass; /* NULL: ir_optimize at -O2 */
};

static const struct pass_entry passes[] = {
	{ "constant_fold_", ir_opt_constant_fold },
	{ "copy_prop_", ir_opt_copy_prop },
	{ "cse_", ir_opt_cse },
	{ "dce_", ir_opt_dce },
	{ "dead_branch_", ir_opt_dead_branch },
	{ "break_hoist_", ir_opt_break_hoist },
	{ "known_cond_", ir_opt_known_cond },
	{ "licm_", ir_opt_licm },
	{ "lower_arrays_", ir_lower_arrays },
	{ "loop_unroll_", ir_opt_loop_unroll },
	{ "loop_prefetch_", ir_opt_loop_prefetch },
	{ "lane_const_", ir_opt_lane_const },
	{ "algebraic_", ir_opt_algebraic },
	{ "scalar_factor_", ir_opt_scalar_factor },
	{ "scale_fold_", ir_opt_scale_fold },
	{ "dot_offset_", ir_opt_dot_offset },
	{ "slp_", ir_opt_slp },
	{ "pair_vec2_", ir_opt_pair_vec2 },
	{ "phi_sink_", ir_opt_phi_sink },
	{ "vec_affine_", ir_opt_vec_affine },
	{ "optimize_", NULL },
};

enum { NSEEDS = 3 };

static void run_all(const struct ir_func *f, struct ir_interp_result res[NSEEDS])
{
	for (int s = 0; s < NSEEDS; s++) {
		struct test_env t;
		test_env_init(&t, s);
		struct diag_sink d;
		diag_init(&d, A);
		if (!ir_interp_quad(f, &t.env, &res[s], &d)) {
			print_error("%s\n", diag_render(&d));
			fail_msg("interpreter failed");
		}
	}
}

static bool same_float(float a, float b)
{
	return a == b || (isnan(a) && isnan(b));
}

static void compare_results(const char *name, const struct ir_interp_result *a,
			    const struct ir_interp_result *b)
{
	for (int o = 0; o < 8; o++) {
		if (a->written[o] != b->written[o])
			fail_msg("%s: output %d written before/after differ", name, o);
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++)
				if (!same_float(a->outputs[o][p][c], b->outputs[o][p][c]))
					fail_msg("%s: output %d pixel %d comp %d: %.9g before, %.9g after",
						 name, o, p, c, (double)a->outputs[o][p][c],
						 (double)b->outputs[o][p][c]);
	}
	for (int p = 0; p < 4; p++)
		if (a->discarded[p] != b->discarded[p])
			fail_msg("%s: discard of pixel %d differs", name, p);
}

static void run_fixture(const char *dir, const char *file, const struct pass_entry *pe)
{
	char *path = arena_printf(A, "%s/%s", dir, file);
	char *text = read_text_file(path);
	assert_non_null(text);
	char *exp_path = arena_printf(A, "%.*s.expected", (int)(strlen(path) - 3), path);
	char *expected = read_text_file(exp_path);

	struct ir_func *f = parse_ok(A, text);
	free(text);
	validate_ok(A, f);
	struct ir_interp_result before[NSEEDS], after[NSEEDS];
	run_all(f, before);

	struct diag_sink d;
	diag_init(&d, A);
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, &d);
	ctx.validate = true;
	if (pe->pass) {
		if (!ir_pass_run_named(&ctx, f, pe->prefix, pe->pass))
			fail_msg("%s: the pass made no progress", file);
		/* unrolling is counted (the runtime's too-long retry asks) */
		if (pe->pass == ir_opt_loop_unroll && f->unrolled_loops == 0)
			fail_msg("%s: loops unrolled but not counted", file);
	} else {
		assert_true(ir_optimize(f, 2, &ctx));
	}
	if (ctx.failed) {
		print_error("%s\n", diag_render(&d));
		fail_msg("%s: invalid IR after the pass", file);
	}
	validate_ok(A, f);
	char *got = ir_print(f, A);
	if (!expected) {
		print_error("%s: no %s; the pass printed:\n%s", file, exp_path, got);
		fail();
	}
	if (strcmp(got, expected) != 0) {
		/* the whole text, for diffing: cmocka truncates long messages */
		char *got_path = arena_printf(A, "%s/%s.got", USCC_BINARY_DIR, file);
		FILE *fp = fopen(got_path, "w");
		if (fp) {
			fputs(got, fp);
			fclose(fp);
		}
		print_error("%s: differs from the .expected file; the result is in %s\n", file,
			    got_path);
		free(expected);
		fail();
	}
	free(expected);
	/* the printed result parses back to the same text */
	assert_string_equal(ir_print(parse_ok(A, got), A), got);
	run_all(f, after);
	for (int s = 0; s < NSEEDS; s++)
		compare_results(file, &before[s], &after[s]);
}

static void test_fixtures(void **state)
{
	(void)state;
	const char *dir = USCC_SOURCE_DIR "/tests/ir/fixtures";
	DIR *dp = opendir(dir);
	assert_non_null(dp);
	enum { MAX_FIXTURES = 256 };
	const char *names[MAX_FIXTURES];
	int count = 0;
	for (struct dirent *e; (e = readdir(dp)) && count < MAX_FIXTURES;) {
		size_t n = strlen(e->d_name);
		if (n >= 4 && strcmp(e->d_name + n - 3, ".ir") == 0)
			names[count++] = arena_strdup(A, e->d_name);
	}
	closedir(dp);
	for (int k = 0; k < count; k++) {
		const struct pass_entry *pe = NULL;
		for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
			if (strncmp(names[k], passes[i].prefix, strlen(passes[i].prefix)) == 0)
				pe = &passes[i];
		if (!pe)
			fail_msg("fixture %s names no pass", names[k]);
		run_fixture(dir, names[k], pe);
	}
	assert_true(count >= 7);
}

static struct ir_instr *find_id(struct ir_func *f, uint32_t id)
{
	for (struct ir_instr *in = f->body.first->block.first; in; in = in->next)
		if (in->id == id)
			return in;
	return NULL;
}

/* ir_forward marks, ir_apply_forwards rewrites sources and IF conditions
 * in one walk, following chains, and clears the marks. */
static void test_forwarding(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, "stage fragment\n"
				     "input #0 \"v\" f4\n"
				     "output #0 \"o\" f4 target=0\n"
				     "%1 = input.f4 #0\n"
				     "%2 = add.f4 %1.xyzw, %1.xyzw\n"
				     "%3 = add.f4 %1.xyzw, %1.xyzw\n"
				     "%4 = add.f4 %1.xyzw, %1.xyzw\n"
				     "%5 = mul.f4 %4.wzyx, %3.xxxx\n"
				     "%6 = lt.b1 %4.x, %5.y\n"
				     "if %6.x {\n"
				     "  output #0 %4.xyzw\n"
				     "}\n"
				     "output #0 %5.xyzw\n");
	struct ir_instr *i2 = find_id(f, 2), *i3 = find_id(f, 3), *i4 = find_id(f, 4);
	struct ir_instr *i5 = find_id(f, 5);
	ir_forward(i4, i3);
	ir_forward(i3, i2);
	ir_instr_remove(i3);
	ir_instr_remove(i4);
	ir_apply_forwards(f);
	assert_ptr_equal(i5->src[0].def, i2);
	assert_ptr_equal(i5->src[1].def, i2);
	assert_int_equal(i5->src[0].swz[0], 3); /* swizzles kept */
	assert_null(i2->forward);
	validate_ok(A, f);
	const char *text = ir_print(f, A);
	assert_non_null(strstr(text, "if %6.x {\n  output #0 %2.xyzw\n}"));
	assert_null(strstr(text, "%4"));
}

/* A loop like loop_prefetch_uniform_trips.fixture with `head` as the
 * test and `kind` as the lookup's LOD. */
static struct ir_func *prefetch_loop(const char *test, const char *kind, const char *more)
{
	return parse_ok(A, arena_printf(A,
		"stage fragment\n"
		"input #0 \"uv\" f2\n"
		"sampler #0 \"s\" 2d unit=0\n"
		"output #0 \"o\" f4 target=0\n"
		"%%1 = input.f2 #0\n"
		"%%2 = const.f1 0\n"
		"%%3 = const.f1 1\n"
		"%%4 = const.f1 4\n"
		"%%5 = const.f1 0.125\n"
		"loop {\n"
		"  %%10 = phi.f1 %%2.x, %%17.x%s\n"
		"  %%11 = phi.f4 %%2.xxxx, %%15.xyzw%s\n"
		"  %%12 = lt.b1 %s, %%4.x\n"
		"  %%13 = not.b1 %%12.x\n"
		"  if %%13.x {\n"
		"    break\n"
		"  }\n"
		"  %%14 = mul.f1 %%10.x, %%5.x\n"
		"  %%16 = add.f2 %%1.xy, %%14.xx\n"
		"  %%18 = tex.f4 #0 %s %%16.xy%s\n"
		"  %%15 = add.f4 %%11.xyzw, %%18.xyzw\n"
		"  %%17 = add.f1 %%10.x, %%3.x\n"
		"%s"
		"}\n"
		"%%20 = phi.f4 %%11.xyzw\n"
		"output #0 %%20.xyzw\n",
		*more ? ", %17.x" : "", *more ? ", %15.xyzw" : "", test, kind,
		strcmp(kind, "lod") ? "" : ", %2.x", more));
}

/* loop_prefetch leaves alone: a lookup taking its level of detail from
 * the quad in a loop whose pixels may leave at different trips (the next
 * trip's coordinates would come from pixels that left), and a loop with a
 * CONTINUE.  The same loops with the trip count fixed, or an explicit
 * LOD, do get the lookup one trip ahead. */
static void test_loop_prefetch_declines(void **state)
{
	(void)state;
	assert_true(ir_opt_loop_prefetch(prefetch_loop("%10.x", "plain", "")));
	assert_false(ir_opt_loop_prefetch(prefetch_loop("%1.x", "plain", "")));
	assert_true(ir_opt_loop_prefetch(prefetch_loop("%1.x", "lod", "")));
	const char *cont = "  %21 = lt.b1 %1.y, %2.x\n  if %21.x {\n    continue\n  }\n";
	assert_false(ir_opt_loop_prefetch(prefetch_loop("%10.x", "lod", cont)));
	/* loop_prefetch_exit_phi.fixture with the final BREAK's flag also
	 * true where the step's IF does not run the step: the step's PHI is no
	 * longer known to take its old value only on a trip that leaves */
	char *text = read_text_file(USCC_SOURCE_DIR "/tests/ir/fixtures/loop_prefetch_exit_phi.ir");
	assert_non_null(text);
	char *at = strstr(text, "%27 = phi.b1 %21.x, %7.x");
	assert_non_null(at);
	at[strlen("%27 = phi.b1 %21.x, %")] = '6';
	struct ir_func *f = parse_ok(A, text);
	free(text);
	assert_false(ir_opt_loop_prefetch(f));
}

/* loop_unroll's partial unrolling (loop_unroll_twice.fixture: 400 trips,
 * too many to unroll, and 200 doubled trips too): the body runs twice per
 * trip, once -- a second run of the pass leaves the doubled loop alone --
 * and only for an even trip count (399: the second copy would need its
 * own BREAK). */
static void test_unroll_twice_once(void **state)
{
	(void)state;
	char *text = read_text_file(USCC_SOURCE_DIR "/tests/ir/fixtures/loop_unroll_twice.ir");
	assert_non_null(text);
	struct ir_func *f = parse_ok(A, text);
	assert_true(ir_opt_loop_unroll(f));
	assert_int_equal(f->unrolled_loops, 1);
	assert_false(ir_opt_loop_unroll(f));
	validate_ok(A, f);
	char *at = strstr(text, "const.f1 400");
	assert_non_null(at);
	memcpy(at, "const.f1 399", strlen("const.f1 399"));
	struct ir_func *odd = parse_ok(A, text);
	free(text);
	assert_false(ir_opt_loop_unroll(odd));
}

/* A chain of constant adds and subtractions, as an unrolled loop leaves
 * it, becomes one add of the summed constant (inexact by a rounding or
 * two, so not a fixture: those compare bit for bit). */
static void test_algebraic_add_chain(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, "stage fragment\n"
				     "input #0 \"v\" f4\n"
				     "output #0 \"o\" f4 target=0\n"
				     "%1 = input.f4 #0\n"
				     "%2 = const.f4 0.1 0.2 0.3 0.4\n"
				     "%3 = add.f4 %1.xyzw, %2.xyzw\n"
				     "%4 = const.f1 0.1\n"
				     "%5 = sub.f4 %3.wzyx, %4.xxxx\n"
				     "%6 = add.f4 %4.xxxx, %5.xyzw\n"
				     "output #0 %6.xyzw\n");
	assert_true(ir_opt_algebraic(f));
	assert_true(ir_opt_dce(f));
	validate_ok(A, f);
	struct ir_instr *out = f->body.first->block.last;
	struct ir_instr *add = out->src[0].def;
	assert_int_equal(add->op, IR_OP_ADD);
	assert_ptr_equal(add->src[0].def, f->body.first->block.first); /* the input */
	assert_memory_equal(add->src[0].swz, "\3\2\1\0", 4);
	const struct ir_instr *k = add->src[1].def;
	assert_int_equal(k->op, IR_OP_CONST);
	float want[4] = { 0.4f, 0.3f, 0.2f, 0.1f }; /* (v.wzyx + c.wzyx) - 0.1 + 0.1 */
	for (int c = 0; c < 4; c++)
		assert_true(fabsf(k->imm[add->src[1].swz[c] & 3] - want[c]) < 1e-6f);
	assert_false(ir_opt_algebraic(f)); /* nothing left */
}

/* break_hoist leaves the loop alone where moving its test would change
 * what runs: a body holding a BREAK of the loop (the order of the exit
 * PHI's sources would change), a side that does not run the body but is
 * not empty. */
static const char break_hoist_keeps[] =
	"stage fragment\n"
	"input #0 \"v\" f1\n"
	"output #0 \"o\" f4 target=0\n"
	"%1 = input.f1 #0\n"
	"%2 = const.f1 0\n"
	"%3 = const.f1 1\n"
	"%4 = const.f1 8\n"
	"loop {\n"
	"  %5 = phi.f1 %1.x, %11.x\n"
	"  %6 = lt.b1 %4.x, %5.x\n"
	"  %7 = not.b1 %6.x\n"
	"  if %7.x {\n"
	"    %8 = add.f1 %5.x, %3.x\n"
	"    %9 = lt.b1 %8.x, %2.x\n"
	"    if %9.x {\n"
	"      break\n"
	"    }\n"
	"  }\n"
	"  %11 = phi.f1 %8.x, %5.x\n"
	"  if %6.x {\n"
	"    break\n"
	"  }\n"
	"}\n"
	"%12 = phi.f1 %8.x, %11.x\n"
	"loop {\n"
	"  %13 = phi.f1 %12.x, %17.x\n"
	"  %14 = lt.b1 %4.x, %13.x\n"
	"  if %14.x {\n"
	"    %15 = mul.f1 %13.x, %4.x\n"
	"  } else {\n"
	"    %16 = add.f1 %13.x, %3.x\n"
	"  }\n"
	"  %17 = phi.f1 %15.x, %16.x\n"
	"  if %14.x {\n"
	"    break\n"
	"  }\n"
	"}\n"
	"%18 = phi.f1 %17.x\n"
	"%19 = vec.f4 %18.x, %18.x, %18.x, %3.x\n"
	"output #0 %19.xyzw\n";

static void test_break_hoist_keeps(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, break_hoist_keeps);
	validate_ok(A, f);
	char *before = ir_print(f, A);
	assert_false(ir_opt_break_hoist(f));
	assert_string_equal(ir_print(f, A), before);
}

/* Running a pass twice: the second run has nothing left to do. */
static void test_idempotent(void **state)
{
	(void)state;
	char *text = read_text_file(USCC_SOURCE_DIR "/tests/ir/fixtures/cse_basic.ir");
	assert_non_null(text);
	struct ir_func *f = parse_ok(A, text);
	free(text);
	assert_true(ir_opt_cse(f));
	assert_false(ir_opt_cse(f));
	assert_true(ir_opt_dce(f));
	assert_false(ir_opt_dce(f));
	assert_false(ir_opt_copy_prop(f));
}

static const char *const small_text = "output #0 \"o\" f4 target=0\n"
				      "%1 = const.f4 1 2 3 4\n"
				      "%2 = add.f4 %1.xyzw, %1.xyzw\n"
				      "%3 = add.f4 %1.xyzw, %1.xyzw\n"
				      "%4 = mul.f4 %2.xyzw, %3.xyzw\n"
				      "output #0 %4.xyzw\n";

/* A pass that breaks the IR on purpose. */
static bool ir_opt_breaker(struct ir_func *f)
{
	f->body.first->block.last->src[0].def = NULL;
	return true;
}

static void test_runner(void **state)
{
	(void)state;
	struct diag_sink d;
	diag_init(&d, A);
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, &d);
	ctx.validate = true;

	/* -O0 runs nothing */
	struct ir_func *f = parse_ok(A, small_text);
	char *orig = ir_print(f, A);
	assert_true(ir_optimize(f, 0, &ctx));
	assert_string_equal(ir_print(f, A), orig);

	/* skip by name; dumps headed by the pass name */
	struct ir_dump_text dt = { .full = false };
	strbuf_init(&dt.buf, A);
	ctx.dump = ir_dump_text_append;
	ctx.dump_ud = &dt;
	ctx.skip = sw_bit(SW_CONSTANT_FOLD) | sw_bit(SW_DCE);
	assert_false(ir_pass_run(&ctx, f, SW_CONSTANT_FOLD, ir_opt_constant_fold));
	assert_null(dt.buf.text); /* skipped passes do not dump */
	assert_true(ir_pass_run(&ctx, f, SW_CSE, ir_opt_cse));
	assert_non_null(dt.buf.text);
	assert_true(strncmp(dt.buf.text, "; --- cse ---\nstage fragment\n", 29) == 0);
	assert_null(strstr(dt.buf.text, "%3 = "));
	assert_false(ir_pass_run(&ctx, f, SW_DCE, ir_opt_dce));

	/* the full pipeline at -O2 leaves a single constant */
	ctx.skip = 0;
	ctx.dump = NULL;
	f = parse_ok(A, small_text);
	assert_true(ir_optimize(f, 2, &ctx));
	assert_string_equal(ir_print(f, A), "stage fragment\n"
					    "output #0 \"o\" f4 target=0\n"
					    "%4 = const.f4 4 16 36 64\n"
					    "output #0 %4.xyzw\n");

	/* a pass that leaves invalid IR is caught and stops the rest */
	f = parse_ok(A, small_text);
	assert_true(ir_pass_run_named(&ctx, f, "breaker", ir_opt_breaker));
	assert_true(ctx.failed);
	assert_true(d.errors >= 2);
	assert_non_null(strstr(d.last->message, "after pass 'breaker'"));
	assert_false(ir_pass_run(&ctx, f, SW_CSE, ir_opt_cse));
	assert_false(ir_optimize(f, 2, &ctx));
}

/* Straight-line code skips the passes of flow control, except when every
 * pass's IR is dumped: the dump still shows each of them. */
static void test_flow_passes_skipped(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, small_text);
	assert_false(ir_func_has_flow(f));
	assert_true(ir_func_has_flow(parse_ok(A, break_hoist_keeps)));
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, NULL);
	struct ir_dump_text dt = { .full = false };
	strbuf_init(&dt.buf, A);
	ctx.dump = ir_dump_text_append;
	ctx.dump_ud = &dt;
	assert_true(ir_optimize(f, 2, &ctx));
	assert_non_null(strstr(dt.buf.text, "; --- licm ---"));
	assert_non_null(strstr(dt.buf.text, "; --- known_cond ---"));
}

/* Truncated and mutated fixture texts: the parser, validator,
 * interpreter and passes never crash; whatever validates still runs. */
static void robust_one(const char *text)
{
	struct arena *a = arena_create(&mem_default_allocator);
	assert_non_null(a);
	struct diag_sink d;
	diag_init(&d, a);
	struct ir_func *f = ir_parse(text, "m.ir", a, &d);
	if (f && ir_validate(f, &d)) {
		struct test_env t;
		test_env_init(&t, 1);
		t.env.max_iterations = 64;
		struct ir_interp_result res;
		(void)ir_interp_quad(f, &t.env, &res, &d);
		struct ir_pass_ctx ctx;
		ir_pass_ctx_init(&ctx, &d);
		ctx.validate = true;
		assert_true(ir_optimize(f, 2, &ctx));
		(void)ir_print(f, a);
	}
	arena_destroy(a);
}

static void test_robustness(void **state)
{
	(void)state;
	static const char *const files[] = { "cse_basic.ir", "dce_basic.ir", "copy_prop_basic.ir" };
	static const char mutations[] = { '%', '.', '{', '}', '#', '1', 'w', ' ', '\n', '"' };
	for (size_t fi = 0; fi < sizeof files / sizeof files[0]; fi++) {
		char *path = arena_printf(A, "%s/tests/ir/fixtures/%s", USCC_SOURCE_DIR, files[fi]);
		char *text = read_text_file(path);
		assert_non_null(text);
		size_t n = strlen(text);
		char *buf = malloc(n + 1);
		assert_non_null(buf);
		for (size_t cut = 0; cut < n; cut += 3) {
			memcpy(buf, text, cut);
			buf[cut] = '\0';
			robust_one(buf);
		}
		for (size_t pos = 0; pos < n; pos += 7) {
			memcpy(buf, text, n + 1);
			buf[pos] = mutations[pos % sizeof mutations];
			robust_one(buf);
		}
		free(buf);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_forwarding),
		cmocka_unit_test(test_algebraic_add_chain),
		cmocka_unit_test(test_loop_prefetch_declines),
		cmocka_unit_test(test_unroll_twice_once),
		cmocka_unit_test(test_break_hoist_keeps),
		cmocka_unit_test(test_idempotent),
		cmocka_unit_test(test_runner),
		cmocka_unit_test(test_flow_passes_skipped),
		cmocka_unit_test(test_robustness),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
