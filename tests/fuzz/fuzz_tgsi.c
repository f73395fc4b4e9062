/* libFuzzer target: TGSI text (docs/tgsi.md) through uscc_run with the
 * language TGSI.  The first byte picks the action (0 compile, 1
 * assembly, 2 check, 3 dump-ir, 4 dump-ir=all, 5 dump-backend, 6
 * preprocess) + 7 x -O0; the rest is the text (fuzz_tgsi_input). */
#include "fuzz_util.h"
#include "uscc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_tgsi_input(data, size, USCC_LANGUAGE_TGSI, "fuzz.tgsi");
	return 0;
}
