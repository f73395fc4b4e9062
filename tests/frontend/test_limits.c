/* Every resource limit (util/compile_limits.def): just under it the shader
 * compiles, just over it the error names the limit, the figure reached
 * and the place, as FILE:LINE:COL.  Limits are tightened so the sources
 * stay small; the defaults are checked on big inputs at the end. */
#include "fe_test.h"

#include <stdio.h>
#include <stdlib.h>

/* Compiles `src` with limit k set to `value` (the others at default). */
static struct ir_func *compile_with(struct fe_test *t, const char *src, enum limit_kind k,
				    long value)
{
	struct limits lim;
	limits_default(&lim);
	lim.v[k] = value;
	struct glsl_options o = { .stage = GLSL_STAGE_FRAGMENT, .limits = &lim };
	t->f = glsl_to_ir(src, "t.frag", &o, t->arena, &t->diag);
	t->diags = diag_render(&t->diag);
	return t->f;
}

/* `src` passes with the limit at `ok` and fails with it at `ok - 1`,
 * with `expect` (position and figure) in the message. */
static void check_limit(const char *src, enum limit_kind k, long ok, const char *expect)
{
	struct fe_test t;
	fe_test_begin(&t);
	if (!compile_with(&t, src, k, ok))
		fail_msg("limit %s = %ld should accept:\n%s\n%s", limit_infos[k].name, ok, src,
			 t.diags);
	fe_test_end(&t);
	fe_test_begin(&t);
	assert_null(compile_with(&t, src, k, ok - 1));
	assert_diag(&t, expect);
	char name[64];
	snprintf(name, sizeof name, "(limit '%s')", limit_infos[k].name);
	assert_diag(&t, name);
	assert_int_equal(t.diag.errors, 1); /* one error, no cascade */
	fe_test_end(&t);
}

static void test_source_and_lines(void **state)
{
	(void)state;
	/* 44 bytes; the 44th (the final newline) is on line 2, column 30 */
	const char *src = "void main() {\n  gl_FragColor = vec4(1.0); }\n";
	check_limit(src, LIMIT_SOURCE_BYTES, 44,
		    "t.frag:2:30: error: too many bytes of source text: 44, over the limit of 43");
	check_limit(src, LIMIT_LINE_LENGTH, 29,
		    "t.frag:2:29: error: too many characters in one source line: 29, over the "
		    "limit of 28");
}

static void test_tokens(void **state)
{
	(void)state;
	/* void main ( ) { } : 6 tokens */
	check_limit("void main()\n{ }", LIMIT_TOKENS, 6,
		    "t.frag:2:3: error: too many tokens after preprocessing: 6, over the limit of 5");
}

static void test_macros(void **state)
{
	(void)state;
	const char *deep = "#define A x\n#define B A\n#define C B\nfloat C;\nvoid main() {}\n";
	check_limit(deep, LIMIT_MACRO_DEPTH, 3,
		    "t.frag:4:7: error: too many levels of nested macro expansion: 3, over the "
		    "limit of 2");
	const char *wide = "#define W xxxxxxxxxx\nfloat W;\nvoid main() {}\n";
	/* "\nfloat xxxxxxxxxx;\nvoid main() {}\n" and the end: 35 bytes */
	check_limit(wide, LIMIT_PREPROCESSED_BYTES, 35,
		    "t.frag:4:1: error: too many bytes of text after macro expansion: 35, over the "
		    "limit of 34");
}

static void test_nesting(void **state)
{
	(void)state;
	/* minus, minus, constant: 3 levels (parentheses make no node) */
	check_limit("void main() { float x = -(-(1.0)); }", LIMIT_EXPRESSION_DEPTH, 3,
		    "t.frag:1:29: error: too many levels of nested expressions: 3, over the limit "
		    "of 2");
	/* block, if, discard: 3 levels (a branch's braces are the if's own) */
	check_limit("void main() { { if (true) { discard; } } }", LIMIT_BLOCK_DEPTH, 3,
		    "t.frag:1:29: error: too many levels of nested blocks and statements: 3, over "
		    "the limit of 2");
	check_limit("float f(float x) { return x; }\nfloat g(float x) { return f(x); }\n"
		    "void main() { gl_FragColor = vec4(g(1.0)); }",
		    LIMIT_CALL_DEPTH, 2,
		    "t.frag:2:27: error: too many levels of nested function calls: 2, over the "
		    "limit of 1");
}

static void test_types(void **state)
{
	(void)state;
	check_limit("#version 120\nuniform float a[10];\nvoid main() { gl_FragColor = "
		    "vec4(a[9]); }", LIMIT_ARRAY_SIZE, 10,
		    "t.frag:2:17: error: too many elements in one array: 10, over the limit of 9");
	/* an array without a size takes it from its largest constant index */
	check_limit("#version 120\nvoid main() { float a[]; a[7] = 1.0; }",
		    LIMIT_ARRAY_SIZE, 8,
		    "t.frag:2:28: error: too many elements in one array: 8, over the limit of 7");
	check_limit("struct S { float a, b; vec2 c; };\nvoid main() { S s; s.a = 1.0; }",
		    LIMIT_STRUCT_FIELDS, 3,
		    "t.frag:1:1: error: too many fields in one struct: 3, over the limit of 2");
	check_limit("struct A { float x; };\nstruct B { A a; };\nstruct C { B b; };\n"
		    "void main() { C c; c.b.a.x = 1.0; }",
		    LIMIT_STRUCT_DEPTH, 3,
		    "t.frag:3:1: error: too many levels of structs inside structs: 3, over the "
		    "limit of 2");
}

static void test_growth(void **state)
{
	(void)state;
	/* the frontend stops lowering once the budget is used up */
	char src[4096];
	char *p = src + sprintf(src, "varying vec4 v;\nvoid main() { vec4 x = v;\n");
	for (int i = 0; i < 40; i++)
		p += sprintf(p, "x = x * 1.5 + v;\n");
	sprintf(p, "gl_FragColor = x; }\n");
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(compile_with(&t, src, LIMIT_IR_INSTRUCTIONS, 1000));
	fe_test_end(&t);
	fe_test_begin(&t);
	assert_null(compile_with(&t, src, LIMIT_IR_INSTRUCTIONS, 40));
	assert_diag(&t, "IR instructions made by inlining and unrolling");
	assert_diag(&t, "(limit 'ir-instructions')");
	fe_test_end(&t);
}

/* The defaults hold on inputs past them, and cut the work short. */
static void test_defaults(void **state)
{
	(void)state;
	long n = limit_infos[LIMIT_SOURCE_BYTES].def + 10;
	char *big = malloc((size_t)n + 1);
	assert_non_null(big);
	memset(big, ' ', (size_t)n);
	for (long i = 100; i < n; i += 100)
		big[i] = '\n';
	big[n] = 0;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_compile(&t, big));
	assert_diag(&t, "(limit 'source-bytes')");
	fe_test_end(&t);
	/* (an exponential macro at the defaults: test_hostile) */
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source_and_lines),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_macros),
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_defaults),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
