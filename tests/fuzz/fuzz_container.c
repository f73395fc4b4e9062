/* libFuzzer target: the bytes as a container file through
 * uscc_container_open, then every accessor of uscc.h.  Most mutations
 * stop at the checksum; fuzz_container_fixed gets past it. */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_walk_container(data, size, false);
	return 0;
}
