/* TGSI through uscc.h: uscc_options_set_language, the compile and its
 * errors, -E refused, and cache keys that tell the languages apart. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "uscc.h"

static const char prog[] =
	"FRAG\n"
	"DCL IN[0].xy, GENERIC[0], PERSPECTIVE\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0]\n"
	"  0: MUL OUT[0], IN[0].xyxy, CONST[0][0]\n"
	"  1: END\n";

/* Runs action a; `text`, when given, must be in the diagnostics or (a
 * text action's) output. */
static enum uscc_status run(const struct uscc_options *o, enum uscc_action a, const char *src,
			    const char *text)
{
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_run(o, a, src, USCC_NUL_TERMINATED, &r);
	assert_non_null(r);
	const char *out = st == USCC_OK && a != USCC_ACTION_COMPILE ? uscc_result_data(r, NULL) : "";
	if (text && !strstr(uscc_result_diagnostics(r), text) && !strstr(out, text))
		fail_msg("expected \"%s\" in:\n%s%s", text, uscc_result_diagnostics(r), out);
	uscc_result_destroy(r);
	return st;
}

static void test_language(void **state)
{
	(void)state;
	struct uscc_options *o = uscc_options_create(NULL);
	assert_non_null(o);
	assert_int_equal(uscc_options_set_filename(o, "p.tgsi"), USCC_OK);
	/* GLSL by default: the TGSI text is no GLSL */
	assert_int_equal(run(o, USCC_ACTION_COMPILE, prog, "p.tgsi:1:"), USCC_SHADER_ERROR);
	uint64_t glsl_key = uscc_cache_key(o, prog, USCC_NUL_TERMINATED);
	assert_int_equal(uscc_options_set_language(o, USCC_LANGUAGE_TGSI), USCC_OK);
	assert_int_equal(run(o, USCC_ACTION_COMPILE, prog, NULL), USCC_OK);
	assert_int_equal(run(o, USCC_ACTION_CHECK, prog, NULL), USCC_OK);
	assert_int_equal(run(o, USCC_ACTION_ASSEMBLY, prog, "uniform c0.xyzw = CONST[0]"), USCC_OK);
	assert_int_equal(run(o, USCC_ACTION_PREPROCESS, prog, "no preprocessor"), USCC_USAGE_ERROR);
	assert_int_equal(run(o, USCC_ACTION_COMPILE, "FRAG\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n",
			     "p.tgsi:3:18: error: IN[0] is not declared"), USCC_SHADER_ERROR);
	assert_true(uscc_cache_key(o, prog, USCC_NUL_TERMINATED) != glsl_key);
	assert_int_equal(uscc_options_set_language(o, (enum uscc_language)7), USCC_USAGE_ERROR);
	uscc_options_destroy(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_language) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
