/* The built-in textures of uscc-run (INTERFACES.md §5). */
#ifndef USCC_BUILTIN_TEXTURES_H
#define USCC_BUILTIN_TEXTURES_H

#include <stdbool.h>

/* "checker": 8x8, black (0,0,0,1) / white alternating, texel (0,0) black.
 * "gradient": 16x16, texel (i,j) = ((i+0.5)/16, (j+0.5)/16, 0.5, 1).
 * Fills *w, *h and malloc'd RGBA texels (row 0 at the bottom); false for
 * an unknown name or when out of memory. */
bool builtin_texture(const char *name, int *w, int *h, float **texels);

#endif
