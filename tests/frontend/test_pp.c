/* The preprocessor: macros, conditionals, #version, line mapping, errors. */
#include "fe_test.h"

static void test_object_macros(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char *s = fe_pp(&t, "#define N 3\n#define M N + N\nfloat x = M;\n#undef N\nN\n", NULL, 0);
	assert_non_null(s);
	/* directives become empty lines: line 3 is the third line */
	assert_string_equal(s, "\n\nfloat x = 3 + 3;\n\nN\n");
	fe_test_end(&t);
}

static void test_function_macros(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char *s = fe_pp(&t, "#define SQ(a) ((a) * (a))\n#define ADD(a, b) a + b\n"
			    "SQ(ADD(1, 2)) SQ\n", NULL, 0);
	assert_non_null(s);
	assert_string_equal(s, "\n\n((1 + 2) * (1 + 2)) SQ\n");
	fe_test_end(&t);
}

static void test_conditionals(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char *s = fe_pp(&t,
			"#define A 2\n"
			"#if defined(A) && A * 3 == 6 && !defined B\n"
			"yes1\n"
			"#elif 1\n"
			"no1\n"
			"#else\n"
			"no2\n"
			"#endif\n"
			"#ifdef B\n"
			"no3\n"
			"#elif (1 << 4) == 16 && 7 / 2 == 3 && -1 < 0 && (0 ? 5 : 6) == 6\n"
			"yes2\n"
			"#endif\n"
			"#ifndef A\nno4\n#else\nyes3\n#endif\n",
			NULL, 0);
	assert_non_null(s);
	assert_non_null(strstr(s, "yes1"));
	assert_non_null(strstr(s, "yes2"));
	assert_non_null(strstr(s, "yes3"));
	assert_null(strstr(s, "no"));
	fe_test_end(&t);
}

static void test_line_numbers_kept(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char *s = fe_pp(&t, "/* a\n b */ #define X 1\n#if X\n// c\nint l = __LINE__;\n#endif\n",
			NULL, 0);
	assert_non_null(s);
	/* "int l" is on line 5, as in the source */
	int line = 1;
	const char *p = s;
	for (; *p && strncmp(p, "int l", 5) != 0; p++)
		line += *p == '\n';
	assert_int_equal(line, 5);
	assert_non_null(strstr(s, "int l = 5;"));
	fe_test_end(&t);
}

static void test_version(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char *s = fe_pp(&t, "#version 100\n#ifdef GL_ES\nes __VERSION__\n#endif\n", NULL, 0);
	assert_non_null(s);
	assert_non_null(strstr(s, "es 100"));
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_pp(&t, "#version 130\n", NULL, 0));
	assert_diag(&t, "t.frag:1:10: error: GLSL version 130 is not supported (supported: 100, 110, 120)");
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_pp(&t, "int x;\n#version 110\n", NULL, 0));
	assert_diag(&t, "t.frag:2:1: error: #version must come before anything else");
	fe_test_end(&t);

	fe_test_begin(&t);
	s = fe_pp(&t, "__VERSION__\n", NULL, 0);
	assert_string_equal(s, "110\n");
	fe_test_end(&t);
}

static void test_extension(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_pp(&t, "#extension GL_foo_bar : require\n", NULL, 0));
	assert_diag(&t, "t.frag:1:12: error: extension 'GL_foo_bar' is not supported");
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_non_null(fe_pp(&t, "#extension GL_foo_bar : warn\n#pragma optimize(on)\n", NULL, 0));
	assert_diag(&t, "t.frag:1:12: warning: extension 'GL_foo_bar' is not supported");
	fe_test_end(&t);
}

static void test_command_line(void **state)
{
	(void)state;
	struct fe_test t;
	const struct glsl_define defs[] = {
		{ "FOO", "42", false }, { "BAR", NULL, false }, { "BAZ", NULL, false },
		{ "BAZ", NULL, true },
	};
	fe_test_begin(&t);
	char *s = fe_pp(&t, "FOO BAR\n#ifdef BAZ\nbad\n#endif\n", defs, 4);
	assert_non_null(s);
	assert_string_equal(s, "42 1\n\n\n\n");
	fe_test_end(&t);
}

static void test_errors(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_pp(&t, "int a;\n  /* never closed\n", NULL, 0));
	assert_diag(&t, "t.frag:2:3: error: unterminated comment");
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_pp(&t, "#if 1\n#else\n#else\n#endif\n#endif\n#if 1 / 0\n#endif\n#foo\n"
			      "#define GL_X 1\n#error stop here\n#ifdef\n", NULL, 0));
	assert_diag(&t, "t.frag:3:1: error: #else after #else");
	assert_diag(&t, "t.frag:5:1: error: #endif without #if");
	assert_diag(&t, "t.frag:6:1: error: division by zero in preprocessor expression");
	assert_diag(&t, "t.frag:8:2: error: unknown preprocessor directive '#foo'");
	assert_diag(&t, "t.frag:9:9: error: macro names beginning with 'GL_' are reserved: 'GL_X'");
	assert_diag(&t, "t.frag:10:1: error: #error stop here");
	assert_diag(&t, "t.frag:11:7: error: macro name expected");
	assert_diag(&t, "t.frag:11:1: error: unterminated #if");
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_pp(&t, "#define F(a, b) a\nF(1)\n#define A 1\n#define A 2\n", NULL, 0));
	assert_diag(&t, "t.frag:2:1: error: macro 'F' takes 2 arguments, 1 given");
	assert_diag(&t, "t.frag:4:9: error: macro 'A' redefined differently");
	fe_test_end(&t);
}

/* A macro's expansion carries the macro's location into later errors. */
static void test_macro_locations(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#define BAD undeclared_thing\n"
				   "void main() {\n"
				   "\tgl_FragColor = vec4(BAD);\n"
				   "}\n"));
	assert_diag(&t, "t.frag:3:22: error: 'undeclared_thing' undeclared");
	fe_test_end(&t);
}

static void test_line_continuation(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* backslash-newline joins lines (before comments, as in C); the
	 * joined text keeps its own line numbers */
	char *s = fe_pp(&t, "#define FOO(x) \\\n\t((x) + (x))\nFOO(1) // c \\\nhidden\nnext\n", NULL, 0);
	assert_non_null(s);
	assert_string_equal(s, "\n((1) + (1)) \nnext\n");
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_compile(&t, "void main() {\n  float a = 1.0 + \\\r\n  b;\n}\n"));
	assert_diag(&t, "t.frag:3:3: error: 'b' undeclared");
	fe_test_end(&t);
}

static void test_recursive_macros_terminate(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	char *s = fe_pp(&t, "#define A B\n#define B A\nA\n#define C C + 1\nC\n", NULL, 0);
	assert_non_null(s);
	assert_string_equal(s, "\n\nA\n\nC + 1\n");
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_object_macros),
		cmocka_unit_test(test_function_macros),
		cmocka_unit_test(test_conditionals),
		cmocka_unit_test(test_line_numbers_kept),
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_extension),
		cmocka_unit_test(test_command_line),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_macro_locations),
		cmocka_unit_test(test_recursive_macros_terminate),
		cmocka_unit_test(test_line_continuation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
