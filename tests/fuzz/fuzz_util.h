/* Helpers shared by the libFuzzer targets: a bug report that aborts (so
 * libFuzzer keeps the input), and a walk over every accessor of a
 * container.  Nothing here prints unless a bug is found. */
#ifndef USCC_FUZZ_UTIL_H
#define USCC_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The entry point every target defines (libFuzzer calls it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant broke: says which on stderr and aborts. */
_Noreturn void fuzz_bug(const char *what, const char *detail);

/* Opens the container and reads it through every accessor of uscc.h
 * (code, constants, uniforms, samplers, inputs, outputs, flow, stats,
 * JSON, disassembly).  Returns whether it opened; must_open: a failure
 * to open is a bug (a container the compiler wrote). */
bool fuzz_walk_container(const void *data, size_t size, bool must_open);

/* data as a NUL-terminated malloc'd string (embedded NULs kept). */
char *fuzz_strndup(const uint8_t *data, size_t size);

#endif
