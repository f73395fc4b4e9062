/* Helpers shared by the libFuzzer targets: a bug report that aborts (so
 * libFuzzer keeps the input), and a walk over every accessor of a
 * container.  Nothing here prints unless a bug is found. */
#ifndef USCC_FUZZ_UTIL_H
#define USCC_FUZZ_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uscc.h"

/* The entry point every target defines (libFuzzer calls it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant broke: says which on stderr and aborts. */
_Noreturn void fuzz_bug(const char *what, const char *detail);

/* Opens the container and reads it through every accessor of uscc.h
 * (code, constants, uniforms, samplers, inputs, outputs, flow, stats,
 * JSON, disassembly).  Returns whether it opened; must_open: a failure
 * to open is a bug (a container the compiler wrote). */
bool fuzz_walk_container(const void *data, size_t size, bool must_open);

/* The checks every uscc_run result passes (fuzz_bug otherwise): its
 * status is the one returned; there is a diagnostics text and it holds no
 * internal error; a failed run has no output and a successful one has
 * (a compiled container opens and reads, a text is as long as it says);
 * stats and their JSON agree, and a compiled program has them. */
void fuzz_check_result(const struct uscc_result *r, enum uscc_status st,
		       enum uscc_action action);

/* The TGSI targets' input: the first byte picks the action (0 compile,
 * 1 assembly, 2 check, 3 dump-ir, 4 dump-ir=all, 5 dump-backend, 6
 * preprocess) + 7 x -O0; the rest is the program in `lang` (text or
 * tokens) through uscc_run.  Checks: fuzz_check_result's, and -E is a
 * usage error. */
void fuzz_tgsi_input(const uint8_t *data, size_t size, enum uscc_language lang,
		     const char *filename);

/* data as a NUL-terminated malloc'd string (embedded NULs kept). */
char *fuzz_strndup(const uint8_t *data, size_t size);

#endif
