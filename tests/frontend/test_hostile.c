/* Malformed and hostile input never crashes, hangs or reads out of
 * bounds: each case must end with a result or with diagnostics. */
#include "fe_test.h"

#include <stdio.h>
#include <stdlib.h>

/* Compiles; returns whether it was accepted.  Any return is a pass: the
 * point is that we get here (and ASan/UBSan stay quiet). */
static bool survive(const char *src)
{
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile(&t, src);
	bool ok = f != NULL;
	if (!ok)
		assert_true(t.diag.errors > 0);
	struct glsl_options o = { .stage = GLSL_STAGE_FRAGMENT };
	glsl_preprocess(src, "t.frag", &o, t.arena, &t.diag);
	fe_test_end(&t);
	return ok;
}

static uint32_t rng_next(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void test_random_bytes(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	char buf[512];
	for (int iter = 0; iter < 300; iter++) {
		int n = (int)(rng_next(&seed) % (sizeof buf - 1));
		for (int i = 0; i < n; i++) {
			char c = (char)(rng_next(&seed) & 0xff);
			buf[i] = c ? c : ' ';
		}
		buf[n] = 0;
		survive(buf);
	}
}

/* Random sequences of GLSL tokens reach deeper into the parser. */
static void test_token_soup(void **state)
{
	(void)state;
	static const char *const toks[] = {
		"void", "main", "(", ")", "{", "}", ";", "float", "vec4", "mat3", "x", "=", "+",
		"*", "1.0", "2", "gl_FragColor", ".", "xyz", "[", "]", "if", "else", "for",
		"while", "return", "discard", "uniform", "varying", "const", "struct", ",",
		"texture2D", "sampler2D", "normalize", "?", ":", "#define A", "\n", "#if 1",
		"#endif", "A", "true", "int", "i", "++", "<", "&&", "bool", "-", "/",
	};
	uint32_t seed = 777;
	char buf[2048];
	for (int iter = 0; iter < 400; iter++) {
		size_t len = 0;
		int n = (int)(rng_next(&seed) % 120);
		for (int i = 0; i < n; i++) {
			const char *t = toks[rng_next(&seed) % (sizeof toks / sizeof toks[0])];
			size_t tl = strlen(t);
			if (len + tl + 2 >= sizeof buf)
				break;
			memcpy(buf + len, t, tl);
			len += tl;
			buf[len++] = t[0] == '#' ? '\n' : ' ';
		}
		buf[len] = 0;
		survive(buf);
	}
}

static char *repeat(const char *head, const char *unit, int n, const char *tail)
{
	size_t len = strlen(head) + strlen(unit) * (size_t)n + strlen(tail) + 1;
	char *s = malloc(len);
	assert_non_null(s);
	char *p = s + sprintf(s, "%s", head);
	for (int i = 0; i < n; i++)
		p += sprintf(p, "%s", unit);
	sprintf(p, "%s", tail);
	return s;
}

static void test_deep_nesting(void **state)
{
	(void)state;
	/* parentheses, blocks, unary minus, #if nesting and #if expressions */
	struct { const char *head, *unit, *mid, *unit2, *tail; } cases[] = {
		{ "void main() { float x = ", "(", "1.0", ")", "; }" },
		{ "void main() ", "{", "", "}", "" },
		{ "void main() { float x = ", "-", "1.0", "", "; }" },
		{ "", "#if 1\n", "void main() {}\n", "#endif\n", "" },
		{ "#if ", "(", "1", ")", "\n#endif\nvoid main(){}" },
		{ "void main() { float x = 1.0", " + 1.0", "", "", "; }" },
		{ "void main() { if (true) ", "if (true) ", ";", "", " }" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		int n = 20000;
		size_t len = strlen(cases[c].head) + (strlen(cases[c].unit) + strlen(cases[c].unit2)) *
			     (size_t)n + strlen(cases[c].mid) + strlen(cases[c].tail) + 1;
		char *s = malloc(len), *p = s;
		assert_non_null(s);
		p += sprintf(p, "%s", cases[c].head);
		for (int i = 0; i < n; i++)
			p += sprintf(p, "%s", cases[c].unit);
		p += sprintf(p, "%s", cases[c].mid);
		for (int i = 0; i < n; i++)
			p += sprintf(p, "%s", cases[c].unit2);
		sprintf(p, "%s", cases[c].tail);
		survive(s);
		free(s);
	}
}

static void test_huge_things(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "void main() { float x = 1e999999; int i = 99999999999999999999999; }"));
	assert_diag(&t, "floating-point constant '1e999999' is too large");
	assert_diag(&t, "integer constant '99999999999999999999999' is too large");
	fe_test_end(&t);

	/* exponential macro growth is cut off */
	char big[4096];
	char *p = big;
	p += sprintf(p, "#define A0 xx xx\n");
	for (int i = 1; i < 40; i++)
		p += sprintf(p, "#define A%d A%d A%d\n", i, i - 1, i - 1);
	sprintf(p, "A39\nvoid main() {}\n");
	fe_test_begin(&t);
	assert_null(fe_compile(&t, big));
	assert_diag(&t, "t.frag:41:1: error: too many bytes of text after macro expansion");
	assert_diag(&t, "(limit 'preprocessed-bytes')");
	fe_test_end(&t);

	/* a huge array size and a long identifier */
	survive("uniform vec4 a[100000000]; void main() { gl_FragColor = a[99999999]; }");
	char *id = repeat("float ", "a", 100000, "; void main() {}");
	survive(id);
	free(id);
	/* unterminated things */
	survive("void main() { /* never closed");
	survive("#if 1\nvoid main() {");
	survive("#define F(x) x\nF(1, \nvoid main() {}");
	survive("void main() { gl_FragColor = vec4(1.0)");
	survive("");
	survive("\xff\xfe\x00");
	/* big loop unrolled: bounded */
	survive("void main() { float s = 0.0; for (int i = 0; i < 100000; i++) s += 1.0; "
		"gl_FragColor = vec4(s); }");
	/* many swizzle writes and matrices */
	survive("void main() { mat4 m = mat4(1.0); m[3][3] = 2.0; m[0].xyz = m[1].zyx; "
		"gl_FragColor = m * m[2] * vec4(1.0).wzyx; }");
}

/* Inputs the fuzzers found (tests/fuzz/regressions holds the raw files). */
static void test_fuzz_findings(void **state)
{
	(void)state;
	struct fe_test t;
	/* an #if with nothing after it read a NULL expression text */
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#if\n#endif\nvoid main() {}\n"));
	assert_diag(&t, "#if with no expression");
	fe_test_end(&t);
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#define E\n#if E\n#endif\nvoid main() {}\n"));
	assert_diag(&t, "#if with no expression");
	fe_test_end(&t);
	/* a constant index beyond the int range was converted to int (UB) */
	survive("#version 120\nvoid main() { mat4 m = mat4(1.0); int i = 2147483647;\n"
		"m[i > 0 ? i : -1][0] = -1.0; gl_FragColor = m[i]; }\n");
	survive("#version 120\nuniform float a[4];\nvoid main() { gl_FragColor = "
		"vec4(a[int(0.0 / 0.0)]); }\n");
	survive("#version 120\nstruct S { float f[2]; };\nuniform S s[2];\nvoid main() { "
		"int i = 1000000000; gl_FragColor = vec4(s[i].f[i]); }\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_bytes),
		cmocka_unit_test(test_token_soup),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_huge_things),
		cmocka_unit_test(test_fuzz_findings),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
