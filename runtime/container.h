/* The container (.bin): a versioned little-endian file holding a compiled
 * program and every table a driver needs (docs/container.md). */
#ifndef USCC_CONTAINER_H
#define USCC_CONTAINER_H

#include <stddef.h>
#include <stdint.h>
#include "arena.h"
#include "r500_program.h"

enum { CONTAINER_VERSION = 2 };

/* A uniform's array length and an element's index (its vec4 in the
 * flattened uniform, a matrix's columns included): the compiler's
 * array-size limit is at most 65536 and a matrix has 4 columns.  Only
 * the elements a program reads have slots (and table entries), so an
 * array may be far longer than the 256 constant slots. */
enum { CONTAINER_MAX_ARRAY_LEN = 65536, CONTAINER_MAX_UNIFORM_ELEMENT = 4 * 65536 - 1 };

/* Serializes the program; returns a buffer allocated from `alloc` (its
 * size in *size) or NULL on allocation failure. */
uint8_t *container_write(const struct r500_program *p, const struct mem_allocator *alloc,
			 size_t *size);

/* Parses a container into `out`, allocating in `arena`.  Never reads past
 * size.  Returns false with a message in `why` for a corrupt, truncated or
 * unknown-version container (checksum checked).  The code is decoded;
 * an instruction word that decodes as invalid is an error too. */
bool container_read(const uint8_t *data, size_t size, struct arena *arena,
		    struct r500_program *out, char *why, size_t why_len);

/* The code words of a container container_write made (its CODE section,
 * in host order) into words[0 .. 6 * ninst); false when `data` is not
 * such a container of ninst instructions. */
bool container_code_words(const uint8_t *data, size_t size, int ninst, uint32_t *words);

/* The JSON of `uscc --info` (INTERFACES.md §3), as an arena string. */
char *container_to_json(const struct r500_program *p, struct arena *arena);

/* The JSON object of --stats (INTERFACES.md §4), as an arena string. */
char *stats_to_json(const struct r500_stats *s, struct arena *arena);
/* The same into json[0 .. stats_json_max()], NUL-terminated. */
size_t stats_json_max(void);
void stats_json_into(char *json, const struct r500_stats *s);

#endif
