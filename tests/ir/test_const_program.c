/* The constant program split (ir/const_program.c): what moves and what
 * stays, and that the pixel program fed by the constant program's
 * outputs computes exactly what the whole function computed (both run by
 * the IR interpreter, whose arithmetic the driver-side evaluation
 * shares). */
#include <math.h>
#include "arena_strbuf.h"
#include "const_program.h"
#include "ir_pass.h"
#include "ir_test_util.h"

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

static const char *const header =
	"stage fragment\n"
	"input #0 \"v\" f4\n"
	"uniform #0 \"u\" \"vec4\" f4 nvec4=1 array=0 base=0\n"
	"uniform #1 \"t\" \"float\" f1 nvec4=1 array=0 base=1\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = input.f4 #0\n"
	"%2 = uniform.f4 #0[0]\n"
	"%3 = uniform.f1 #1[0]\n";

/* The header's declarations followed by body, parsed. */
static struct ir_func *parse_body(const char *body)
{
	return parse_ok(A, arena_printf(A, "%s%s", header, body));
}

static struct ir_interp_result run(const struct ir_func *f, const float (*uni)[4])
{
	struct test_env t;
	test_env_init(&t, 3);
	t.env.uniform_values = uni;
	struct ir_interp_result r;
	struct diag_sink d;
	diag_init(&d, A);
	if (!ir_interp_quad(f, &t.env, &r, &d))
		fail_msg("interpreter: %s", diag_render(&d));
	return r;
}

/* pixel(constant program(uni)) == whole(uni), exactly or within a
 * relative `tol`; uni gets the constant program's outputs. */
static void check_agrees(const struct ir_func *whole, const struct ir_func *pixel,
			 const struct ir_func *cp, float (*uni)[4], float tol)
{
	struct ir_interp_result want = run(whole, (const float(*)[4])uni);
	/* the constant program's outputs become the $cp uniforms */
	struct ir_interp_result cpr = run(cp, (const float(*)[4])uni);
	for (int o = 0; o < cp->noutputs; o++) {
		int u = ir_func_find_uniform(pixel, cp->outputs[o].name);
		assert_true(u >= 0 && ir_uniform_is_cp_output(&pixel->uniforms[u]));
		memcpy(uni[pixel->uniforms[u].base], cpr.outputs[o][0], sizeof uni[0]);
	}
	struct ir_interp_result got = run(pixel, (const float(*)[4])uni);
	for (int p = 0; p < 4; p++)
		for (int c = 0; c < 4; c++) {
			float g = got.outputs[0][p][c], w = want.outputs[0][p][c];
			if (tol == 0.0f)
				assert_memory_equal(&g, &w, sizeof g);
			else if (!(fabsf(g - w) <= tol * fmaxf(1.0f, fabsf(w))))
				fail_msg("pixel %d .%d: %.9g, whole function %.9g", p, c,
					 (double)g, (double)w);
		}
}

/* Splits body; checks the moved outputs count, the constant program's
 * validity, and that pixel(constant program(uniforms)) == whole(uniforms)
 * for two sets of uniform values, exactly, or within a relative `tol`
 * (a division by a uniform becomes a product with its reciprocal).
 * Returns the constant program. */
static struct ir_func *split_within(const char *body, int want_outputs, float tol)
{
	struct ir_func *whole = parse_body(body), *pixel = parse_body(body);
	bool failed = true;
	struct ir_func *cp = ir_split_constant_program(pixel, NULL, &failed);
	assert_false(failed);
	if (want_outputs == 0) {
		assert_null(cp);
		return NULL;
	}
	assert_non_null(cp);
	validate_ok(A, cp);
	validate_ok(A, pixel);
	assert_int_equal(cp->noutputs, want_outputs);
	for (int seed = 0; seed < 2; seed++) {
		float uni[64][4];
		memset(uni, 0, sizeof uni);
		for (int e = 0; e < 2; e++)
			for (int c = 0; c < 4; c++)
				uni[e][c] = (float)(seed * 3 + e * 5 + c) * 0.37f - 0.9f;
		check_agrees(whole, pixel, cp, uni, tol);
	}
	return cp;
}

static struct ir_func *split_agrees(const char *body, int want_outputs)
{
	return split_within(body, want_outputs, 0.0f);
}

/* normalize(u.xyz + const) * v: the normalize moves (one output), the
 * product with the input stays. */
static void test_normalize_moves(void **state)
{
	(void)state;
	struct ir_func *cp = split_agrees(
		"%4 = const.f3 0.3 0.4 1\n"
		"%5 = add.f3 %2.xyz, %4.xyz\n"
		"%6 = dot3.f1 %5.xyz, %5.xyz\n"
		"%7 = rsq.f1 %6.x\n"
		"%8 = mul.f3 %5.xyz, %7.xxx\n"
		"%9 = mul.f3 %8.xyz, %1.xyz\n"
		"%10 = vec.f4 %9.x, %9.y, %9.z, %3.x\n"
		"output #0 %10.xyzw\n", 1);
	assert_string_equal(cp->outputs[0].name, "$cp0");
}

/* sin(t * 0.5) and cos(t) are two roots; a bool root (an IF on uniforms)
 * comes back through F2B. */
static void test_trig_and_bool_roots(void **state)
{
	(void)state;
	split_agrees(
		"%4 = const.f1 0.5\n"
		"%5 = mul.f1 %3.x, %4.x\n"
		"%6 = sin.f1 %5.x\n"
		"%7 = cos.f1 %3.x\n"
		"%8 = mul.f4 %1.xyzw, %6.xxxx\n"
		"%9 = add.f4 %8.xyzw, %7.xxxx\n"
		"%10 = sin.f1 %2.x\n"
		"%11 = lt.b1 %4.x, %10.x\n"
		"if %11.x {\n"
		"  %12 = neg.f4 %9.xyzw\n"
		"}\n"
		"%13 = phi.f4 %12.xyzw, %9.xyzw\n"
		"output #0 %13.xyzw\n", 3);
}

/* v / u: the reciprocal of u moves, the pixel program multiplies (as
 * the R500 divides anyway); v / 2 stays a division isel folds. */
static void test_division_by_uniform(void **state)
{
	(void)state;
	struct ir_func *cp = split_within(
		"%4 = div.f4 %1.xyzw, %2.xyzw\n"
		"%5 = const.f1 2\n"
		"%6 = div.f4 %4.xyzw, %5.xxxx\n"
		"output #0 %6.xyzw\n", 1, 1e-6f);
	int rcp = 0;
	for (const struct ir_instr *in = cp->body.first->block.first; in; in = in->next)
		rcp += in->op == IR_OP_RCP;
	assert_int_equal(rcp, 1);
}

/* (v * u) * t, a product of two uniforms by an input: u * t moves, the
 * pixel program keeps one product. */
static void test_uniform_factors_grouped(void **state)
{
	(void)state;
	split_within(
		"%4 = mul.f4 %1.xyzw, %2.wzyx\n"
		"%5 = mul.f4 %4.xyzw, %3.xxxx\n"
		"output #0 %5.xyzw\n", 1, 1e-6f);
}

/* The ops of the pixel program's first block with opcode op. */
struct op_count {
	enum ir_op op;
	int n;
};

static void count_op(struct ir_instr *in, void *ud)
{
	struct op_count *c = ud;
	c->n += in->op == c->op;
}

/* Instructions of op in f, inside control flow too. */
static int count_ops(struct ir_func *f, enum ir_op op)
{
	struct op_count c = { op, 0 };
	ir_foreach_instr(f, count_op, &c);
	return c.n;
}

static int count_ifs(const struct ir_cf_list *l)
{
	int n = 0;
	for (const struct ir_cf *c = l->first; c; c = c->next)
		n += c->kind == IR_CF_IF;
	return n;
}

/* body split (something must move), its dead code removed: the pixel
 * program. */
static struct ir_func *pixel_after_split(const char *body)
{
	struct ir_func *pixel = parse_body(body);
	bool failed = true;
	assert_non_null(ir_split_constant_program(pixel, NULL, &failed));
	ir_opt_dce(pixel);
	return pixel;
}

/* (v * 5) / t: the reciprocal of t joins the constant factor (5 * rcp(t)
 * moves), so the pixel program keeps one product and no division. */
static void test_division_joins_constant_factor(void **state)
{
	(void)state;
	const char *body =
		"%4 = const.f1 5\n"
		"%5 = mul.f4 %4.xxxx, %1.xyzw\n"
		"%6 = div.f4 %5.xyzw, %3.xxxx\n"
		"output #0 %6.xyzw\n";
	split_within(body, 1, 1e-6f);
	struct ir_func *pixel = pixel_after_split(body);
	assert_int_equal(count_ops(pixel, IR_OP_MUL), 1);
	assert_int_equal(count_ops(pixel, IR_OP_DIV), 0);
}

/* sin(v + t), cos(t - v.x) and sin(v.y - 1.5): each argument becomes
 * mad(x, +-1/2pi, w/2pi) * 2pi, t's scaling moves (one output per sign)
 * and the constant folds; no ADD or SUB is left per pixel. */
static void test_trig_offsets_move(void **state)
{
	(void)state;
	const char *body =
		"%4 = add.f4 %1.xyzw, %3.xxxx\n"
		"%5 = sin.f4 %4.xyzw\n"
		"%6 = sub.f1 %3.x, %1.x\n"
		"%7 = cos.f1 %6.x\n"
		"%8 = const.f1 1.5\n"
		"%9 = sub.f1 %1.y, %8.x\n"
		"%10 = sin.f1 %9.x\n"
		"%11 = mul.f4 %5.xyzw, %7.xxxx\n"
		"%12 = mul.f4 %11.xyzw, %10.xxxx\n"
		"output #0 %12.xyzw\n";
	split_within(body, 2, 2e-5f);
	struct ir_func *pixel = pixel_after_split(body);
	assert_int_equal(count_ops(pixel, IR_OP_ADD) + count_ops(pixel, IR_OP_SUB), 0);
	assert_int_equal(count_ops(pixel, IR_OP_MAD), 3);
}

/* if (t < 0.5) c = (1, 0, 0, 1) else c = u: the PHI after the IF becomes a
 * select of the constant (made again after the IF) and u, which moves;
 * the pixel program keeps only its product with v. */
static void test_uniform_if_moves(void **state)
{
	(void)state;
	const char *body =
		"%4 = const.f1 0.5\n"
		"%5 = lt.b1 %3.x, %4.x\n"
		"if %5.x {\n"
		"  %6 = const.f4 1 0 0 1\n"
		"} else {\n"
		"}\n"
		"%7 = phi.f4 %6.xyzw, %2.xyzw\n"
		"%8 = mul.f4 %7.xyzw, %1.xyzw\n"
		"output #0 %8.xyzw\n";
	struct ir_func *cp = split_agrees(body, 1);
	assert_int_equal(count_ops(cp, IR_OP_SELECT), 1);
	struct ir_func *pixel = pixel_after_split(body);
	assert_int_equal(count_ops(pixel, IR_OP_SELECT), 0);
}

/* The same with values made inside the IF (Shadertoy's `if (iMouse.z >
 * 0.0) angle = iMouse.x / iResolution.x * 6.0;`): they are made again
 * after it, the PHI becomes a select, and the whole moves; the pixel
 * program keeps no select and no product of uniforms. */
static void test_uniform_if_computed_arm_moves(void **state)
{
	(void)state;
	const char *body =
		"%4 = const.f1 0.5\n"
		"%5 = lt.b1 %3.x, %4.x\n"
		"if %5.x {\n"
		"  %6 = mul.f4 %2.xyzw, %4.xxxx\n"
		"  %7 = add.f4 %6.xyzw, %3.xxxx\n"
		"  %8 = neg.f4 %7.wzyx\n"
		"} else {\n"
		"  %9 = sin.f1 %3.x\n"
		"}\n"
		"%10 = phi.f4 %8.xyzw, %2.xyzw\n"
		"%11 = phi.f1 %4.x, %9.x\n"
		"%12 = cos.f4 %10.xyzw\n"
		"%13 = mul.f4 %12.xyzw, %1.xyzw\n"
		"%14 = add.f4 %13.xyzw, %11.xxxx\n"
		"output #0 %14.xyzw\n";
	struct ir_func *cp = split_agrees(body, 2);
	assert_int_equal(count_ops(cp, IR_OP_SELECT), 2);
	struct ir_func *pixel = pixel_after_split(body);
	assert_int_equal(count_ops(pixel, IR_OP_SELECT), 0);
	assert_int_equal(count_ops(pixel, IR_OP_COS), 0);
	assert_int_equal(count_ops(pixel, IR_OP_SIN), 0);
	assert_int_equal(count_ops(pixel, IR_OP_MUL), 1);
	assert_int_equal(count_ifs(&pixel->body), 0);
}

/* Nested and chained uniform IFs (realityplasma's switch on a frame
 * number): an inner IF's join block holds only its PHI, a bool PHI is the
 * next IF's condition, and that IF's arm reads the first IFs' value.
 * Everything moves: one output, no IF left in the pixel program. */
static void test_nested_uniform_ifs_move(void **state)
{
	(void)state;
	const char *body =
		"%4 = const.f1 0.5\n"
		"%5 = lt.b1 %3.x, %4.x\n"
		"if %5.x {\n"
		"  %6 = mul.f1 %3.x, %4.x\n"
		"} else {\n"
		"  %7 = lt.b1 %4.x, %3.x\n"
		"  if %7.x {\n"
		"    %8 = add.f1 %3.x, %4.x\n"
		"  }\n"
		"  %9 = phi.f1 %8.x, %3.x\n"
		"}\n"
		"%10 = phi.f1 %6.x, %9.x\n"
		"%11 = phi.b1 %5.x, %7.x\n"
		"if %11.x {\n"
		"  %12 = mul.f1 %10.x, %10.x\n"
		"  %13 = sin.f1 %12.x\n"
		"}\n"
		"%14 = phi.f1 %13.x, %4.x\n"
		"%15 = mul.f4 %1.xyzw, %14.xxxx\n"
		"output #0 %15.xyzw\n";
	split_agrees(body, 1);
	struct ir_func *pixel = pixel_after_split(body);
	assert_int_equal(count_ifs(&pixel->body), 0);
	assert_int_equal(count_ops(pixel, IR_OP_SIN), 0);
	assert_int_equal(count_ops(pixel, IR_OP_SELECT), 0);
	assert_int_equal(count_ops(pixel, IR_OP_MUL), 1);
}

/* sin(t) and -sin(t) both read by the pixel program: one output, the
 * pixel program negates its read (a free source modifier). */
static void test_negation_shares_output(void **state)
{
	(void)state;
	const char *body =
		"%4 = sin.f1 %3.x\n"
		"%5 = neg.f1 %4.x\n"
		"%6 = mul.f4 %1.xyzw, %4.xxxx\n"
		"%7 = mad.f4 %1.wzyx, %5.xxxx, %6.xyzw\n"
		"output #0 %7.xyzw\n";
	split_agrees(body, 1);
	struct ir_func *pixel = pixel_after_split(body);
	assert_int_equal(count_ops(pixel, IR_OP_NEG), 1);
	assert_int_equal(count_ops(pixel, IR_OP_SIN), 0);
}

/* A constant array read at a uniform index, as the frontend lowers it: a
 * chain of 200 selects on compares of t, too long for the constant
 * program's 256 instructions.  Part of the chain moves (the largest part
 * that fits), the pixel program keeps the rest and agrees. */
static void test_long_chain_moves_in_part(void **state)
{
	(void)state;
	struct strbuf b;
	strbuf_init(&b, A);
	strbuf_puts(&b, "%4 = const.f4 0.5 0.25 0.125 1\n");
	int prev = 4, id = 5;
	for (int k = 1; k <= 200; k++) {
		strbuf_printf(&b, "%%%d = const.f1 %d\n", id, k);
		strbuf_printf(&b, "%%%d = eq.b1 %%3.x, %%%d.x\n", id + 1, id);
		strbuf_printf(&b, "%%%d = const.f4 %d 0 %d 1\n", id + 2, k, 200 - k);
		strbuf_printf(&b, "%%%d = select.f4 %%%d.xxxx, %%%d.xyzw, %%%d.xyzw\n", id + 3,
			      id + 1, id + 2, prev);
		prev = id + 3;
		id += 4;
	}
	strbuf_printf(&b, "%%%d = mul.f4 %%%d.xyzw, %%1.xyzw\n", id, prev);
	strbuf_printf(&b, "output #0 %%%d.xyzw\n", id);
	const char *body = strbuf_text(&b);
	struct ir_func *cp = split_agrees(body, 1);
	assert_true(count_ops(cp, IR_OP_SELECT) > 50);
	struct ir_func *pixel = pixel_after_split(body);
	int left = count_ops(pixel, IR_OP_SELECT);
	assert_true(left > 0 && left < 150);
}

/* vec4(t, 13, 0, 0) compared with v: the vector, which the pixel program
 * would build with copies, moves. */
static void test_vector_of_uniforms(void **state)
{
	(void)state;
	split_agrees(
		"%4 = const.f1 13\n"
		"%5 = const.f1 0\n"
		"%6 = vec.f4 %3.x, %4.x, %5.x, %5.x\n"
		"%7 = eq.b4 %1.xyzw, %6.xyzw\n"
		"%8 = b2f.f4 %7.xyzw\n"
		"output #0 %8.xyzw\n", 1);
}

/* Nothing worth moving: a negated uniform is a free source modifier, and
 * u * v depends on the input. */
static void test_nothing_worth_moving(void **state)
{
	(void)state;
	split_agrees(
		"%4 = neg.f4 %2.xyzw\n"
		"%5 = mul.f4 %4.xyzw, %1.xyzw\n"
		"output #0 %5.xyzw\n", 0);
}

/* Uniform-only work inside a loop moves out of it; splitting again
 * finds the outputs already there and does nothing. */
static void test_loop_body_and_twice(void **state)
{
	(void)state;
	static const char *const body =
		"%4 = const.f1 0\n"
		"%5 = const.f1 1\n"
		"%6 = const.f1 3\n"
		"loop {\n"
		"  %10 = phi.f4 %1.xyzw, %15.xyzw\n"
		"  %11 = phi.f1 %4.x, %16.x\n"
		"  %12 = lt.b1 %11.x, %6.x\n"
		"  %13 = not.b1 %12.x\n"
		"  if %13.x {\n"
		"    break\n"
		"  }\n"
		"  %14 = exp2.f4 %2.xyzw\n"
		"  %15 = mad.f4 %10.xyzw, %14.xyzw, %3.xxxx\n"
		"  %16 = add.f1 %11.x, %5.x\n"
		"}\n"
		"%20 = phi.f4 %10.xyzw\n"
		"output #0 %20.xyzw\n";
	split_agrees(body, 1);
	struct ir_func *f = parse_body(body);
	bool failed;
	assert_non_null(ir_split_constant_program(f, NULL, &failed));
	assert_null(ir_split_constant_program(f, NULL, &failed));
	assert_false(failed);
}

struct read_count { int indexed, selects; };

static void count_reads(struct ir_instr *in, void *ud)
{
	struct read_count *n = ud;
	n->indexed += in->op == IR_OP_UNIFORM && in->nsrc > 0;
	n->selects += in->op == IR_OP_SELECT;
}

/* uniform #0 declared by `decl`, 6 elements of 2 components, read as
 * %4 = element 1 + t, t a uniform: the read becomes `selects` selects
 * over the elements it may give, which move; the pixel program reads no
 * uniform at an index, and it picks the element the interpreter's rule
 * picks (round to nearest, clamped, NaN: the first) for every t. */
static void check_index_moves(const char *decl, int selects)
{
	const char *text = arena_printf(A,
		"stage fragment\n"
		"input #0 \"v\" f4\n"
		"%s\n"
		"uniform #1 \"t\" \"float\" f1 nvec4=1 array=0 base=6\n"
		"output #0 \"gl_FragColor\" f4 target=0\n"
		"%%1 = input.f4 #0\n"
		"%%3 = uniform.f1 #1[0]\n"
		"%%4 = uniform.f2 #0[1] + %%3.x\n"
		"%%5 = mul.f4 %%4.xyxy, %%1.xyzw\n"
		"output #0 %%5.xyzw\n", decl);
	struct ir_func *whole = parse_ok(A, text), *pixel = parse_ok(A, text);
	bool failed = true;
	struct ir_func *cp = ir_split_constant_program(pixel, NULL, &failed);
	assert_false(failed);
	assert_non_null(cp);
	validate_ok(A, cp);
	validate_ok(A, pixel);
	struct read_count n = { 0, 0 };
	ir_foreach_instr(pixel, count_reads, &n);
	assert_int_equal(n.indexed, 0);
	n = (struct read_count){ 0, 0 };
	ir_foreach_instr(cp, count_reads, &n);
	assert_int_equal(n.selects, selects);
	static const float ts[] = { -3.0f, -0.6f, 0.0f, 0.4f, 0.6f, 1.49f, 2.0f, 3.6f, 4.5f, 9.0f, NAN };
	for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) {
		float uni[16][4];
		memset(uni, 0, sizeof uni);
		for (int e = 0; e < 6; e++)
			for (int c = 0; c < 2; c++)
				uni[e][c] = (float)(e * 2 + c) + 0.5f;
		uni[6][0] = ts[i];
		check_agrees(whole, pixel, cp, uni, 0.0f);
	}
}

/* A mat2 array's column at a uniform index: a chain over all six
 * elements; a member-major mat2 member of three structs: over the three
 * of the column read (element 1 is column 0 of struct 1). */
static void test_uniform_index_moves(void **state)
{
	(void)state;
	check_index_moves("uniform #0 \"m\" \"mat2\" f2 nvec4=6 array=3 base=0", 5);
	check_index_moves("uniform #0 \"s[].m\" \"mat2\" f2 nvec4=6 array=3 base=0 member_major", 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize_moves),
		cmocka_unit_test(test_trig_and_bool_roots),
		cmocka_unit_test(test_division_by_uniform),
		cmocka_unit_test(test_uniform_factors_grouped),
		cmocka_unit_test(test_division_joins_constant_factor),
		cmocka_unit_test(test_trig_offsets_move),
		cmocka_unit_test(test_uniform_if_moves),
		cmocka_unit_test(test_uniform_if_computed_arm_moves),
		cmocka_unit_test(test_negation_shares_output),
		cmocka_unit_test(test_nested_uniform_ifs_move),
		cmocka_unit_test(test_long_chain_moves_in_part),
		cmocka_unit_test(test_vector_of_uniforms),
		cmocka_unit_test(test_nothing_worth_moving),
		cmocka_unit_test(test_loop_body_and_twice),
		cmocka_unit_test(test_uniform_index_moves),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
