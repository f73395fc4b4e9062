/* libFuzzer target: Mesa's binary TGSI tokens (frontend/tgsi_tokens.h)
 * through uscc_run with the language TGSI_TOKENS: the first byte picks
 * the action and the level as fuzz_tgsi's does, the rest is the words
 * (fuzz_tgsi_input).  A malformed stream must be a diagnostic, never a
 * crash or an internal error. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_tgsi_input(data, size, USCC_LANGUAGE_TGSI_TOKENS, "fuzz.tgsib");
	return 0;
}
