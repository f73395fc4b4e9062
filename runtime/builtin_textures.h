/* The built-in textures of uscc-run (INTERFACES.md §5). */
#ifndef USCC_BUILTIN_TEXTURES_H
#define USCC_BUILTIN_TEXTURES_H

#include <stdbool.h>

/* "checker": 8x8, black (0,0,0,1) / white alternating, texel (0,0) black.
 * "gradient": 16x16, texel (i,j) = ((i+0.5)/16, (j+0.5)/16, 0.5, 1).
 * "miptree": piglit's `texture miptree`, 8x8 with a full chain of solid
 * levels: red 8x8, green 4x4, blue 2x2, white 1x1.
 * Fills *w, *h (of level 0), *levels (1 but for miptree) and malloc'd RGBA
 * texels, level after level (texture.h's layout, row 0 at the bottom);
 * false for an unknown name or when out of memory. */
bool builtin_texture_chain(const char *name, int *w, int *h, int *levels, float **texels);

/* The same, for a caller that takes level 0 only (what follows it in
 * texels is never read). */
bool builtin_texture(const char *name, int *w, int *h, float **texels);

#endif
