/* PNG files as RGBA float images, row 0 at the bottom as in GL. */
#ifndef USCC_PNG_IO_H
#define USCC_PNG_IO_H

#include <stdbool.h>
#include <stddef.h>

/* Writes w x h RGBA floats (row 0 = bottom) as an RGBA8 PNG, each value
 * clamped to [0,1] (NaN as 0) and rounded.  False with a message in
 * `why` on an I/O error. */
bool png_write_rgba(const char *path, int w, int h, const float *rgba,
		    char *why, size_t why_len);

/* Reads any PNG as RGBA8 into malloc'd floats in [0,1], row 0 at the
 * bottom; the caller frees *rgba.  False with a message on failure. */
bool png_read_rgba(const char *path, int *w, int *h, float **rgba,
		   char *why, size_t why_len);

#endif
