/* The IR validator: a valid function passes, and every kind of error is
 * reported, naming the instruction. */
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
	"input #0 \"v\" f4\n"
	"uniform #0 \"u\" \"vec4\" f4 nvec4=1 array=0 base=0\n"
	"sampler #0 \"t\" 2d unit=0\n"
	"output #0 \"gl_FragColor\" f4 target=0\n";

/* Expects validation to fail with a message containing `msg` and `who`. */
static void expect_invalid(const struct ir_func *f, const char *msg, const char *who)
{
	struct diag_sink d;
	diag_init(&d, A);
	assert_false(ir_validate(f, &d));
	for (const struct diag *x = d.first; x; x = x->next)
		if (strstr(x->message, msg) && (!who || strstr(x->message, who)))
			return;
	print_error("wanted '%s' (%s), got:\n%s\n", msg, who ? who : "", diag_render(&d));
	fail();
}

static struct ir_func *parse_with_header(const char *body)
{
	return parse_ok(A, arena_printf(A, "%s%s", header, body));
}

static void test_valid(void **state)
{
	(void)state;
	struct ir_func *f = parse_with_header(
		"%1 = input.f4 #0\n"
		"%2 = const.f1 0\n"
		"%3 = lt.b1 %1.x, %2.x\n"
		"if %3.x {\n"
		"  %4 = add.f4 %1.xyzw, %1.wzyx\n"
		"} else {\n"
		"  %5 = uniform.f4 #0[0] + %2.x\n"
		"}\n"
		"%6 = phi.f4 %4.xyzw, %5.xyzw\n"
		"loop {\n"
		"  %7 = phi.f1 %2.x, %8.x, %8.x\n"
		"  %8 = add.f1 %7.x, %1.y\n"
		"  %9 = ge.b1 %8.x, %1.z\n"
		"  if %9.x {\n"
		"    break\n"
		"  }\n"
		"  if %3.x {\n"
		"    continue\n"
		"  }\n"
		"}\n"
		"%10 = phi.f1 %8.x\n"
		"%11 = tex.f4 #0 bias %6.xy, %10.x\n"
		"%12 = lt.b1 %10.x, %2.x\n"
		"discard %12.x\n"
		"output #0 %11.xyzw\n");
	validate_ok(A, f);
}

struct text_case {
	const char *body, *msg, *who;
};

static void test_text_errors(void **state)
{
	(void)state;
	static const struct text_case cases[] = {
		{ "%2 = mov.f1 %1.x\n%1 = const.f1 1\n", "used before its definition", "%2" },
		{ "%1 = const.b1 1\nif %1.x {\n  %2 = const.f1 1\n}\n%3 = mov.f1 %2.x\n",
		  "does not dominate", "%3" },
		{ "%1 = const.f1 1\nloop {\n  %2 = const.f1 1\n  break\n}\n%3 = mov.f1 %2.x\n",
		  "does not dominate", "%3" },
		{ "%1 = const.f1 1\n%2 = add.f1 %1.x\n", "wrong number of sources", "%2" },
		{ "%1 = input.f4 #0\n%2 = tex.f4 #0 lod %1.xy\n", "wrong number of sources", "%2" },
		{ "%1 = const.f2 1 2\n%2 = mov.f3 %1.xyz\n", "swizzle reads past", "%2" },
		{ "%1 = const.f1 1\n%2 = lt.f1 %1.x, %1.x\n", "result has the wrong type", "%2" },
		{ "%1 = const.b1 1\n%2 = add.f1 %1.x, %1.x\n", "source has the wrong type", "%2" },
		{ "%1 = const.f1 1\n%2 = and.b1 %1.x, %1.x\n", "source has the wrong type", "%2" },
		{ "%1 = const.f1 1\n%2 = const.b1 1\n%3 = eq.b1 %1.x, %2.x\n",
		  "source has the wrong type", "%3" },
		{ "%1 = const.f1 1\n%2 = select.f1 %1.x, %1.x, %1.x\n", "source has the wrong type",
		  "%2" },
		{ "%1 = input.f4 #3\n", "input index out of range", "%1" },
		{ "%1 = uniform.f4 #1[0]\n", "uniform index out of range", "%1" },
		{ "%1 = uniform.f4 #0[1]\n", "uniform element out of range", "%1" },
		{ "%1 = input.f4 #0\n%2 = tex.f4 #1 plain %1.xy\n", "sampler index out of range", "%2" },
		{ "%1 = input.f4 #0\n%2 = tex.f2 #0 plain %1.xy\n", "texture result must be f4", "%2" },
		{ "%1 = input.f4 #0\noutput #2 %1.xyzw\n", "output index out of range", NULL },
		{ "%1 = const.f1 1\nif %1.x {\n}\n", "if condition but is not bool", "%1" },
		/* an outer loop PHI may not read a value of a nested loop's body
		 * (found by fuzz_ir_parse: loop unrolling then broke the IR) */
		{ "%1 = const.f1 0\n%2 = const.b1 0\nloop {\n  %3 = phi.f1 %1.x, %5.x, %1.x\n"
		  "  if %2.x {\n    break\n  }\n  if %2.x {\n    continue\n  }\n"
		  "  loop {\n    %5 = add.f1 %3.x, %3.x\n    break\n  }\n}\n",
		  "loop phi source neither before nor inside", "%3" },
		/* nor, without a CONTINUE, a value of a branch inside the body */
		{ "%1 = const.f1 0\n%2 = const.b1 0\nloop {\n  %3 = phi.f1 %1.x, %5.x\n"
		  "  if %2.x {\n    %5 = add.f1 %3.x, %3.x\n  }\n  if %2.x {\n    break\n  }\n}\n",
		  "not visible at the end of the body", "%3" },
		/* a PHI after a loop takes at each BREAK a value visible there, not
		 * one of a branch the BREAK's path skipped (fuzz_ir_parse: dead_branch
		 * then removed the branch) */
		{ "%1 = const.f1 0\n%2 = const.b1 0\nloop {\n  if %2.x {\n  } else {\n"
		  "    %3 = add.f1 %1.x, %1.x\n  }\n  if %2.x {\n    break\n  }\n}\n"
		  "%4 = phi.f1 %3.x\n",
		  "does not dominate", "%4" },
		/* and a header PHI at each CONTINUE, its source for that back edge */
		{ "%1 = const.f1 0\n%2 = const.b1 0\nloop {\n  %3 = phi.f1 %1.x, %5.x\n"
		  "  if %2.x {\n    break\n  }\n  if %2.x {\n    %5 = add.f1 %3.x, %3.x\n  }\n"
		  "  if %2.x {\n    continue\n  }\n  break\n}\n",
		  "does not dominate", "%3" },
		{ "break\n", "outside a loop", NULL },
		{ "%1 = const.b1 1\nif %1.x {\n  continue\n}\n", "outside a loop", NULL },
		{ "%1 = const.f1 1\n%2 = phi.f1 %1.x, %1.x\n", "phi not at the start", "%2" },
		{ "%1 = const.b1 1\nif %1.x {\n}\n%2 = const.f1 1\n%3 = phi.f1 %2.x, %2.x\n",
		  "phi not at the start", "%3" },
		{ "%1 = const.b1 1\n%2 = const.f1 2\nif %1.x {\n}\n%3 = phi.f1 %2.x\n",
		  "needs 2 sources", "%3" },
		{ "%1 = const.f1 1\nloop {\n  break\n}\n%3 = phi.f1 %1.x, %1.x\n",
		  "one source per break", "%3" },
		{ "%1 = const.f1 1\nloop {\n  %2 = phi.f1 %1.x, %1.x, %1.x, %1.x\n  break\n}\n",
		  "one per back edge", "%2" },
		{ "%1 = const.f1 1\nloop {\n  %2 = phi.f1 %1.x, %5.x\n  break\n}\n%5 = const.f1 3\n",
		  "neither before nor inside the loop", "%2" },
		{ "%1 = const.b1 1\nif %1.x {\n  %2 = const.f1 1\n} else {\n}\n%3 = phi.f1 %1.x, %2.x\n",
		  "does not dominate", "%3" },
		{ "%1 = const.f4 1 2 3 4\n%2 = dot3.f3 %1.xyz, %1.xyz\n", "must be a scalar", "%2" },
		{ "%1 = const.b2 1 0\n%2 = any.b2 %1.xy\n", "must be a scalar", "%2" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		expect_invalid(parse_with_header(cases[i].body), cases[i].msg, cases[i].who);
}

/* Errors that text cannot spell: built by breaking a parsed function. */
static struct ir_func *small(struct ir_instr **c, struct ir_instr **add, struct ir_instr **out)
{
	struct ir_func *f = parse_with_header("%1 = const.f4 1 2 3 4\n"
					      "%2 = add.f4 %1.xyzw, %1.xyzw\n"
					      "%3 = const.b1 1\n"
					      "if %3.x {\n"
					      "  output #0 %2.xyzw\n"
					      "}\n");
	validate_ok(A, f);
	*c = f->body.first->block.first;
	*add = (*c)->next;
	*out = f->body.first->next->then_list.first->block.first;
	return f;
}

static void test_structural_errors(void **state)
{
	(void)state;
	struct ir_instr *c, *add, *out;
	struct ir_func *f;

	f = small(&c, &add, &out);
	add->ncomp = 5;
	expect_invalid(f, "1 to 4 components", "%2");

	f = small(&c, &add, &out);
	out->ncomp = 2;
	expect_invalid(f, "without a value has components", NULL);

	f = small(&c, &add, &out);
	add->src[1].def = out;
	expect_invalid(f, "instruction without a value", "%2");

	f = small(&c, &add, &out);
	add->src[0].def = NULL;
	expect_invalid(f, "source without a definition", "%2");

	f = small(&c, &add, &out);
	add->id = 1;
	expect_invalid(f, "defined twice", "%1");

	f = small(&c, &add, &out);
	c->id = 4000;
	expect_invalid(f, "beyond the function's ids", "%2");

	f = small(&c, &add, &out);
	add->block = NULL;
	expect_invalid(f, "block link is wrong", "%2");

	f = small(&c, &add, &out);
	f->body.first->next->then_list.first->parent = NULL;
	expect_invalid(f, "control-flow links are broken", NULL);

	f = small(&c, &add, &out);
	f->body.first->next->cond.def = NULL;
	expect_invalid(f, "without a valid condition", NULL);

	f = small(&c, &add, &out);
	add->op = IR_OP_COUNT;
	expect_invalid(f, "unknown opcode", "%2");

	f = parse_with_header("%1 = input.f4 #0\n%2 = tex.f4 #0 plain %1.xy\n");
	validate_ok(A, f);
	f->body.first->block.last->tex_kind = 9;
	expect_invalid(f, "bad texture kind", "%2");
}

/* The opcode table agrees with itself: a bool flag is a bool result,
 * commutative ops take two sources of one type, every row is typed. */
/* A member-major uniform names where the struct index goes, once, and
 * holds whole structs; the GL names of its structs and the elements of
 * their columns (ir_uniform_member_name, ir_uniform_element). */
static void test_member_major_uniform(void **state)
{
	(void)state;
	static const char *const text =
		"input #0 \"v\" f4\n"
		"uniform #0 \"ls[].att.m\" \"mat2\" f2 nvec4=6 array=3 base=0 member_major\n"
		"output #0 \"gl_FragColor\" f4 target=0\n";
	struct ir_func *f = parse_ok(A, text);
	validate_ok(A, f);
	char name[32];
	assert_true(ir_uniform_member_name(&f->uniforms[0], 2, name, sizeof name));
	assert_string_equal(name, "ls[2].att.m");
	assert_false(ir_uniform_member_name(&f->uniforms[0], 3, name, sizeof name));
	assert_false(ir_uniform_member_name(&f->uniforms[0], 0, name, 8));
	assert_int_equal(ir_uniform_element(&f->uniforms[0], 2, 1), 5);
	int lo, hi; /* an index clamps to the column's run */
	ir_uniform_index_range(&f->uniforms[0], 4, &lo, &hi);
	assert_true(lo == 3 && hi == 5);
	ir_uniform_index_range(&f->uniforms[0], 1, &lo, &hi);
	assert_true(lo == 0 && hi == 2);
	f->uniforms[0].member_major = false; /* then struct 2's columns are 4 and 5 */
	assert_int_equal(ir_uniform_element(&f->uniforms[0], 1, 1), 3);
	ir_uniform_index_range(&f->uniforms[0], 4, &lo, &hi);
	assert_true(lo == 0 && hi == 5);
	f->uniforms[0].member_major = true;
	f->uniforms[0].nvec4 = 5;
	expect_invalid(f, "holds whole structs", "ls[].att.m");
	f = parse_ok(A, text);
	f->uniforms[0].name = "ls.att.m";
	expect_invalid(f, "has one \"[]\"", "ls.att.m");
	f->uniforms[0].name = "ls[].a[].m";
	expect_invalid(f, "has one \"[]\"", NULL);
}

static void test_op_table(void **state)
{
	(void)state;
	for (int op = 0; op < IR_OP_COUNT; op++) {
		const struct ir_op_info *t = &ir_op_infos[op];
		assert_non_null(t->name);
		assert_non_null(strchr("fbre", t->src_type));
		assert_non_null(strchr("fbr", t->res_type));
		assert_int_equal((t->flags & IRF_BOOL) != 0, t->res_type == 'b');
		if (t->flags & IRF_COMMUTATIVE)
			assert_true(t->nsrc == 2 && t->src_type != 'r');
	}
	assert_true(ir_op_infos[IR_OP_ADD].flags & IRF_COMMUTATIVE);
	assert_false(ir_op_infos[IR_OP_SUB].flags & IRF_COMMUTATIVE);
	assert_int_equal(ir_op_infos[IR_OP_LT].src_type, 'f');
	assert_int_equal(ir_op_infos[IR_OP_EQ].src_type, 'e');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_text_errors),
		cmocka_unit_test(test_structural_errors),
		cmocka_unit_test(test_member_major_uniform),
		cmocka_unit_test(test_op_table),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
