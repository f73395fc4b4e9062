/* The IR printer and parser: exact text of a built function, round trips,
 * exact float round trip, and parse errors with line:column. */
#include "ir_test_util.h"
#include "shadow.h"
#include "ir_eval.h"

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

/* A function built with the builder prints exactly as written by hand. */
static void test_print_built(void **state)
{
	(void)state;
	struct ir_func *f = ir_func_create(A, IR_STAGE_FRAGMENT);
	ir_func_add_input(f, "gl_TexCoord[0]", 4);
	ir_func_add_uniform(f, "u_scale", "vec4", 0, 1, 4);
	ir_func_add_uniform(f, "u_arr", "vec2", 3, 3, 2);
	ir_func_add_sampler(f, "tex", IR_TARGET_2D, false);
	ir_func_add_output(f, "gl_FragColor", 0, 4);
	ir_func_add_output(f, "gl_FragDepth", -1, 1);
	struct ir_builder b;
	ir_builder_init(&b, f);
	struct ir_instr *in = ir_build(&b, IR_OP_INPUT, 4, IR_FLOAT, 0, NULL);
	struct ir_instr *u = ir_build(&b, IR_OP_UNIFORM, 4, IR_FLOAT, 0, NULL);
	const float k[4] = { 1.0f, 0.5f, 0.0f, 1.0f };
	struct ir_instr *c = ir_build_const(&b, 4, IR_FLOAT, k);
	ir_build_alu3(&b, IR_OP_MAD, 3, ir_src_of(in), ir_src_comp(u, 0), ir_src_of(c));
	struct ir_instr *lt = ir_build_alu2(&b, IR_OP_LT, 1, ir_src_comp(in, 0), ir_src_comp(c, 1));
	struct ir_src coord = ir_src_of(in);
	struct ir_instr *t = ir_build(&b, IR_OP_TEX, 4, IR_FLOAT, 1, &coord);
	t->tex_kind = IR_TEX_PLAIN;
	struct ir_cf *iff = ir_build_if(&b, ir_src_of(lt));
	ir_builder_enter(&b, &iff->then_list, iff);
	ir_build(&b, IR_OP_DISCARD, 0, IR_FLOAT, 0, NULL);
	ir_builder_after(&b, iff);
	struct ir_src idx = ir_src_comp(in, 3);
	struct ir_instr *ua = ir_build(&b, IR_OP_UNIFORM, 2, IR_FLOAT, 1, &idx);
	ua->index = 1;
	ua->offset = 1;
	struct ir_src out = ir_src_of(t);
	ir_build(&b, IR_OP_OUTPUT, 0, IR_FLOAT, 1, &out);
	struct ir_src depth = ir_src_comp(ua, 1);
	ir_build(&b, IR_OP_OUTPUT, 0, IR_FLOAT, 1, &depth)->index = 1;

	const char *expected =
		"stage fragment\n"
		"input #0 \"gl_TexCoord[0]\" f4\n"
		"uniform #0 \"u_scale\" \"vec4\" f4 nvec4=1 array=0 base=0\n"
		"uniform #1 \"u_arr\" \"vec2\" f2 nvec4=3 array=3 base=1\n"
		"sampler #0 \"tex\" 2d unit=0\n"
		"output #0 \"gl_FragColor\" f4 target=0\n"
		"output #1 \"gl_FragDepth\" f1 target=depth\n"
		"%1 = input.f4 #0\n"
		"%2 = uniform.f4 #0[0]\n"
		"%3 = const.f4 1 0.5 0 1\n"
		"%4 = mad.f3 %1.xyz, %2.xxx, %3.xyz\n"
		"%5 = lt.b1 %1.x, %3.y\n"
		"%6 = tex.f4 #0 plain %1.xy\n"
		"if %5.x {\n"
		"  discard\n"
		"}\n"
		"%8 = uniform.f2 #1[1] + %1.w\n"
		"output #0 %6.xyzw\n"
		"output #1 %8.y\n";
	char *text = ir_print(f, A);
	assert_string_equal(text, expected);
	validate_ok(A, f);

	/* parse and print again: the same text (ids kept for values; the
	 * discard's id is renumbered but never printed) */
	struct ir_func *g = parse_ok(A, text);
	assert_string_equal(ir_print(g, A), expected);
	validate_ok(A, g);
}

static const char *const round_trip_text =
	"stage fragment\n"
	"input #0 \"v\" f4 centroid\n"
	"input #1 \"w \\\"q\\\"\" f2\n"
	"uniform #0 \"m\" \"mat4\" f4 nvec4=4 array=0 base=0\n"
	"uniform #1 \"l[].m\" \"mat2\" f2 nvec4=6 array=3 base=4 member_major\n"
	"sampler #0 \"s3\" 3d unit=2\n"
	"sampler #1 \"sh\" 2d unit=1 shadow compare=greater depth=intensity\n"
	"sampler #2 \"cube\" cube unit=0\n"
	"sampler #3 \"sh2\" 1d unit=3 shadow depth=red\n"
	"output #0 \"gl_FragData[1]\" f4 target=1\n"
	"%1 = input.f4 #0\n"
	"%2 = const.f4 0.100000001 -0 1e-30 3.40282347e+38\n"
	"%3 = const.b2 1 0\n"
	"%4 = tex.f4 #0 projbias %1.xyzw, %2.x\n"
	"%5 = tex.f4 #1 proj shadow %1.xyzw\n"
	"%6 = tex.f4 #2 grad %1.zyx, %1.xyz, %2.xyz\n"
	"%30 = tex.f4 #3 projgrad shadow %1.xyzw, %2.x, %2.y\n"
	"%7 = any.b1 %3.xy\n"
	"%8 = dot3.f1 %1.xyz, %4.www\n"
	"%9 = vec.f3 %8.x, %1.w, %2.z\n"
	"%10 = select.f4 %3.xxxx, %5.xyzw, %6.wzyx\n"
	"%20 = const.f1 0\n"
	"loop {\n"
	"  %11 = phi.f1 %20.x, %12.x\n"
	"  %12 = add.f1 %11.x, %2.x\n"
	"  %13 = ge.b1 %12.x, %1.x\n"
	"  if %13.x {\n"
	"    break\n"
	"  } else {\n"
	"    %14 = ddx.f2 %1.xy\n"
	"  }\n"
	"}\n"
	"%15 = phi.f1 %12.x\n"
	"if %7.x {\n"
	"} else {\n"
	"  discard %13.x\n"
	"}\n"
	"output #0 %10.xyzw\n";

static void test_round_trip(void **state)
{
	(void)state;
	struct ir_func *f = parse_ok(A, round_trip_text);
	char *once = ir_print(f, A);
	assert_string_equal(once, round_trip_text);
	struct ir_func *g = parse_ok(A, once);
	assert_string_equal(ir_print(g, A), once);
	assert_true(f->inputs[0].centroid);
	assert_false(f->uniforms[0].member_major);
	assert_true(f->uniforms[1].member_major);
	assert_string_equal(f->inputs[1].name, "w \"q\"");
	assert_int_equal(f->samplers[0].unit, 2);
	assert_true(f->samplers[1].shadow);
	assert_int_equal(f->samplers[1].compare, TEX_COMPARE_GREATER);
	assert_int_equal(f->samplers[1].depth_mode, TEX_DEPTH_INTENSITY);
	assert_int_equal(f->samplers[3].compare, TEX_COMPARE_LEQUAL);
	assert_int_equal(f->samplers[3].depth_mode, TEX_DEPTH_RED);
	assert_int_equal(f->next_id, 31 + 3); /* 3 effect instructions get ids after %30 */
}

/* Floats print so that they parse back to the same bits. */
static void test_float_bits(void **state)
{
	(void)state;
	const float vals[] = { 0.1f, 1.0f / 3.0f, -0.0f, 1e-38f, 16777217.0f, 3.14159274f,
			       -2.5e-7f, 123456.789f };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		struct ir_func *f = ir_func_create(A, IR_STAGE_FRAGMENT);
		struct ir_builder b;
		ir_builder_init(&b, f);
		ir_build_constf(&b, vals[i]);
		struct ir_func *g = parse_ok(A, ir_print(f, A));
		const struct ir_instr *in = g->body.first->block.first;
		uint32_t x, y;
		memcpy(&x, &vals[i], 4);
		memcpy(&y, &in->imm[0], 4);
		assert_int_equal(x, y);
	}
}

struct bad_case {
	const char *text;
	int line, col;
	const char *msg;
};

static void test_parse_errors(void **state)
{
	(void)state;
	static const struct bad_case cases[] = {
		{ "%1 = foo.f4 %2.x\n", 1, 6, "unknown opcode" },
		{ "%1 = const.f1 1\n%2 = add.f1 %1.x, %9.x\n", 2, 19, "never defined" },
		{ "%1 = const.f1 1\n%2 = mov.f1 %1.q\n", 2, 16, "bad swizzle" },
		{ "%1 = const.f1 1\n%1 = const.f1 2\n", 2, 1, "defined twice" },
		{ "}\n", 1, 2, "without an open block" },
		{ "loop {\n", 1, 1, "missing '}'" },
		{ "%1 = const.f5 1\n", 1, 12, "expected a type" },
		{ "%1 = const.f2 1\n", 1, 16, "expected a number" },
		{ "%1 = const.f1 1 2\n", 1, 17, "unexpected text" },
		{ "input #0 \"x f4\n", 1, 15, "unterminated string" },
		{ "sampler #0 \"s\" 4d unit=0\n", 1, 18, "unknown sampler target" },
		{ "%1 = input.f4 #0\n%2 = tex.f4 #0 fancy %1.xy\n", 2, 21, "unknown texture kind" },
		{ "%1 = const.b1 1\nif %1.x {\n} else {\n} else {\n}\n", 4, 7, "'else' without 'if'" },
		{ "bogus\n", 1, 1, "expected a declaration" },
		{ "%1 = const.f1 1\n%2 = vec.f4 %1.x, %1.x, %1.x, %1.x, %1.x\n", 2, 37,
		  "too many sources" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct diag_sink d;
		diag_init(&d, A);
		struct ir_func *f = ir_parse(cases[i].text, "bad.ir", A, &d);
		assert_null(f);
		assert_true(d.errors >= 1);
		const struct diag *first = d.first;
		if (first->loc.line != cases[i].line || first->loc.col != cases[i].col ||
		    !strstr(first->message, cases[i].msg)) {
			print_error("case %zu: got %d:%d %s\n", i, first->loc.line, first->loc.col,
				    first->message);
			fail();
		}
		assert_string_equal(first->loc.file, "bad.ir");
	}
}

/* Garbage never crashes the parser. */
static void test_parse_garbage(void **state)
{
	(void)state;
	const char *junk[] = { "", "%", "%1 =", "%1 = add.", "if", "if %", "loop", "output",
			       "output #", "uniform #0 \"u\"", "%1 = uniform.f4 #0[", "\"\\",
			       "%99999999999 = const.f1 1", "%1 = const.f1 1\n%2 = mov.f1 %1.xyzwx",
			       "input #0 \"a\\x\" f1", "}}}}", "%1 = tex.f4 #0 plain shadow %" };
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		struct diag_sink d;
		diag_init(&d, A);
		struct ir_func *f = ir_parse(junk[i], "junk.ir", A, &d);
		if (i == 0)
			assert_non_null(f); /* empty text is an empty function */
		else if (f)
			fail_msg("junk %zu parsed: %s", i, junk[i]);
	}
}

static void test_src_ncomp(void **state)
{
	(void)state;
	assert_int_equal(ir_tex_coord_ncomp(IR_TARGET_1D, IR_TEX_PLAIN, false), 1);
	assert_int_equal(ir_tex_coord_ncomp(IR_TARGET_2D, IR_TEX_BIAS, true), 3);
	assert_int_equal(ir_tex_coord_ncomp(IR_TARGET_CUBE, IR_TEX_LOD, false), 3);
	assert_int_equal(ir_tex_coord_ncomp(IR_TARGET_2D, IR_TEX_PROJ, false), 4);
	assert_int_equal(ir_tex_coord_ncomp(IR_TARGET_RECT, IR_TEX_PLAIN, false), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_print_built),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_float_bits),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_parse_garbage),
		cmocka_unit_test(test_src_ncomp),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
