/* A compiled program copied whole into another arena. */
#ifndef USCC_PROGRAM_COPY_H
#define USCC_PROGRAM_COPY_H

#include <stdbool.h>
#include "arena.h"
#include "r500_program.h"

/* *d = a copy of *s whose every array and string lives in `a` (empty
 * arrays as one zeroed element, the way container_read leaves them);
 * false when the arena runs out. */
bool r500_program_copy(struct arena *a, const struct r500_program *s, struct r500_program *d);

#endif
