/* libFuzzer target: TGSI text (docs/tgsi.md) through uscc_run with the
 * language TGSI.  The first byte picks the action (0 compile, 1
 * assembly, 2 check, 3 dump-ir, 4 dump-ir=all, 5 dump-backend, 6
 * preprocess) + 7 x -O0; the rest is the text.  Checks: those of every uscc_run result (fuzz_check_result), and
 * -E on TGSI is a usage error. */
#include "fuzz_util.h"
#include "uscc.h"

static const enum uscc_action actions[] = {
	USCC_ACTION_COMPILE, USCC_ACTION_ASSEMBLY, USCC_ACTION_CHECK, USCC_ACTION_DUMP_IR,
	USCC_ACTION_DUMP_IR_ALL, USCC_ACTION_DUMP_BACKEND, USCC_ACTION_PREPROCESS,
};
enum { NACTIONS = sizeof actions / sizeof *actions };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum uscc_action action = actions[data[0] % NACTIONS];
	int opt = (data[0] / NACTIONS) % 2 ? 0 : 2;
	struct uscc_options *o = uscc_options_create(NULL);
	if (!o)
		return 0;
	if (uscc_options_set_language(o, USCC_LANGUAGE_TGSI) || uscc_options_set_opt_level(o, opt) ||
	    uscc_options_set_filename(o, "fuzz.tgsi"))
		fuzz_bug("a valid option was refused", NULL);
	const char *src = (const char *)data + 1;
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_run(o, action, src, size - 1, &r);
	if (r) {
		if (action == USCC_ACTION_PREPROCESS && st != USCC_USAGE_ERROR)
			fuzz_bug("-E on TGSI is not a usage error", uscc_result_diagnostics(r));
		fuzz_check_result(r, st, action);
		uscc_result_destroy(r);
	} else if (st != USCC_OUT_OF_MEMORY) {
		fuzz_bug("uscc_run gave no result but did not run out of memory", NULL);
	}
	uscc_options_destroy(o);
	return 0;
}
