/* libFuzzer target: a shader source through uscc_run.  The first byte
 * picks the combination (action x stage x opt level, plus -Werror, a -D
 * and non-default shadow compare states), the rest is the source.  Checks: the status agrees with the
 * result; a vertex shader asked for code is a usage error; no internal
 * error; a text result is as long as it says; a compiled container
 * always opens (every accessor is then read). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "uscc.h"

enum { NACTIONS = 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned sel = data[0];
	enum uscc_action action = (enum uscc_action)(sel % NACTIONS);
	bool vertex = (sel / NACTIONS) % 2;
	int opt = (sel / (NACTIONS * 2)) % 2 ? 0 : 2;
	bool werror = (sel / (NACTIONS * 4)) % 2;
	bool define = (sel / (NACTIONS * 8)) % 2;
	bool shadow = (sel / (NACTIONS * 16)) % 2;

	struct uscc_options *o = uscc_options_create(NULL);
	if (!o)
		return 0;
	if (uscc_options_set_stage(o, vertex ? USCC_STAGE_VERTEX : USCC_STAGE_FRAGMENT) ||
	    uscc_options_set_opt_level(o, opt) || uscc_options_set_werror(o, werror) ||
	    uscc_options_set_filename(o, "fuzz.frag"))
		fuzz_bug("a valid option was refused", NULL);
	if (define && (uscc_options_define(o, "FUZZ", "2") || uscc_options_undefine(o, "GL_ES")))
		fuzz_bug("a valid define was refused", NULL);
	/* shadow samplers compiled for other compare states than GL's default */
	if (shadow && (uscc_options_set_shadow(o, 0, USCC_COMPARE_GREATER, USCC_DEPTH_ALPHA) ||
		       uscc_options_set_shadow(o, 1, USCC_COMPARE_EQUAL, USCC_DEPTH_RED) ||
		       uscc_options_set_shadow(o, 2, USCC_COMPARE_NEVER, USCC_DEPTH_INTENSITY)))
		fuzz_bug("a valid shadow state was refused", NULL);

	const char *src = (const char *)data + 1;
	size_t len = size - 1;
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_run(o, action, src, len, &r);
	if (r) {
		bool code = action == USCC_ACTION_COMPILE || action == USCC_ACTION_ASSEMBLY ||
			    action == USCC_ACTION_DUMP_BACKEND ||
			    action == USCC_ACTION_DUMP_BACKEND_ALL;
		if (vertex && code &&
		    st != USCC_USAGE_ERROR)
			fuzz_bug("a vertex shader asked for R500 code is not a usage error",
				 uscc_result_diagnostics(r));
		fuzz_check_result(r, st, action);
		uscc_result_destroy(r);
	} else if (st != USCC_OUT_OF_MEMORY) {
		fuzz_bug("uscc_run gave no result but did not run out of memory", NULL);
	}
	(void)uscc_cache_key(o, src, len);
	uscc_options_destroy(o);
	return 0;
}
