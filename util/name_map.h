/* A map from names (NUL-terminated strings the caller keeps alive, as
 * arena strings are) to pointers, in an arena: open addressing with
 * linear probing, grown by doubling.  The symbol tables of the frontend
 * and the IR use it so that a lookup costs the same with ten names as
 * with a hundred thousand.  A zeroed struct is an empty map. */
#ifndef USCC_NAME_MAP_H
#define USCC_NAME_MAP_H

#include <stdbool.h>
#include <stdint.h>
#include "arena.h"

struct name_slot {
	const char *name;   /* NULL: free; name_map_tombstone: removed */
	void *value;
};

struct name_map {
	struct name_slot *slots;
	uint32_t cap;       /* 0 or a power of two */
	uint32_t used;      /* names and tombstones */
	uint32_t count;     /* names */
};

/* The value stored for `name`, or NULL. */
void *name_map_get(const struct name_map *m, const char *name);
/* Stores (or replaces) name -> value; false when out of memory. */
bool name_map_put(struct name_map *m, struct arena *arena, const char *name, void *value);
/* Room for n names in all without growing (a table filled with many
 * names at once is sized once, not rehashed at each doubling); false
 * when out of memory. */
bool name_map_reserve(struct name_map *m, struct arena *arena, uint32_t n);
/* Removes `name`; false when it was not there. */
bool name_map_remove(struct name_map *m, const char *name);

#endif
