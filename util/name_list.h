/* Comma-separated name lists ("cse,merge"), as --skip and USCC_SKIP give
 * them.  Names compare with '-' and '_' alike, so "copy-prop" is the pass
 * copy_prop and "check_regs" the stage check-regs. */
#ifndef USCC_NAME_LIST_H
#define USCC_NAME_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include "arena.h"

/* Whether `name` is one of the list's entries (a NULL list is empty). */
bool name_list_has(const char *list, const char *name);

/* The list with `name` added at its end (a NULL list is empty): an arena
 * string, NULL when memory runs out. */
char *name_list_add(struct arena *arena, const char *list, const char *name);

#endif
