/* The -S listing (r500_program_listing): the header of a hand-built program
 * line by line, and a program whose names make the listing far longer than
 * the size the listing used to guess, listed whole. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arena.h"
#include "arena_strbuf.h"
#include "r500_codec.h"
#include "r500_compile.h"
#include "../runtime/program_fixture.h"

/* The instruction lines the listing ends with, from the disassembler. */
static const char *code_lines(struct arena *a, const struct r500_program *p)
{
	struct strbuf b;
	strbuf_init(&b, a);
	for (int i = 0; i < p->ninst; i++) {
		strbuf_printf(&b, "%3d: ", i);
		r500_disasm_inst(&b, &p->code[i]);
		strbuf_puts(&b, "\n");
	}
	return strbuf_text(&b);
}

static void assert_ends_with(const char *text, const char *tail)
{
	size_t n = strlen(text), k = strlen(tail);
	assert_true(n >= k);
	assert_string_equal(text + n - k, tail);
}

static void test_fixture_header(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct fixture f;
	fixture_init(&f);
	const char *got = r500_program_listing(&f.p, a);
	assert_non_null(got);
	static const char header[] =
		"# 3 instructions, 3 temps (pixsize 2), 4 constant slots\n"
		"# input  t0.xyzw = gl_TexCoord[0]\n"
		"# uniform c0.xyzw = u[0]\n"
		"# uniform c2.xy = m\"x\n[1]\n"
		"# const  c1 = {1, 0.5, -2, 0}\n"
		"# const  c3 = {0, 0, 0, 0.25}\n"
		"# sampler 3 = tex (2D)\n"
		"# output target 0 = gl_FragColor\n"
		"# output depth = gl_FragDepth\n"
		"# constant program: 2 instructions, 1 outputs (run before the draw)\n"
		"#   t0 = mul c0.xyzw, i0.xxxx (4)\n"
		"#   t1 = sin t0.xyzw (4)\n"
		"#   c2.xy = t1.xy\n";
	const char *code = code_lines(a, &f.p);
	assert_int_equal(strlen(got), strlen(header) + strlen(code));
	assert_memory_equal(got, header, strlen(header));
	assert_string_equal(got + strlen(header), code);
	assert_string_equal(r500_program_listing(NULL, a), "");
	arena_destroy(a);
}

/* Names of 6000 characters: the old listing allotted 256 bytes, 320 per
 * instruction and constant-program line and 96 per table entry, and cut
 * the rest off without a word. */
static void test_long_names_listed_whole(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct fixture f;
	fixture_init(&f);
	enum { LONG = 6000 };
	char *names[4];
	for (int i = 0; i < 4; i++) {
		names[i] = arena_alloc(a, LONG + 1);
		assert_non_null(names[i]);
		memset(names[i], 'a' + i, LONG);
	}
	f.uniforms[0].name = names[0];
	f.samplers[0].name = names[1];
	f.inputs[0].name = names[2];
	f.outputs[0].name = names[3];
	const struct r500_program *p = &f.p;
	size_t old_guess = 256 + (size_t)(p->ninst + p->cp.ninst + p->cp.nouts) * 320 +
			   (size_t)(p->nconst_slots + p->nuniforms + p->nsamplers + p->ninputs +
				    p->noutputs) * 96;
	const char *got = r500_program_listing(p, a);
	assert_non_null(got);
	assert_true(strlen(got) > 4 * LONG && strlen(got) > old_guess);
	const char *want[] = {
		arena_printf(a, "# uniform c0.xyzw = %s[0]\n", names[0]),
		arena_printf(a, "# sampler 3 = %s (2D)\n", names[1]),
		arena_printf(a, "# input  t0.xyzw = %s\n", names[2]),
		arena_printf(a, "# output target 0 = %s\n", names[3]),
	};
	for (int i = 0; i < 4; i++)
		assert_non_null(strstr(got, want[i]));
	assert_ends_with(got, code_lines(a, p));
	arena_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_header),
		cmocka_unit_test(test_long_names_listed_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
