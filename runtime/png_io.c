/* PNG I/O through libpng's simplified API, flipping rows: PNG stores the
 * top row first, GL (and our images) the bottom row first.
 *
 * Hostile files: the simplified API catches libpng's errors itself (its
 * setjmp/longjmp stays inside png_image_*), so a truncated, corrupt or
 * non-PNG file comes back as a message; libpng's built-in limits (1M
 * pixels a side, 8 MB per ancillary chunk, 1000 of them) hold while the
 * header is read, and the dimensions are checked against ours before the
 * image is allocated. */
#include <math.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "png_io.h"

/* The largest PNG read: a side, and in all (16M texels, 256 MiB of floats). */
enum { PNG_IO_MAX_SIDE = 16384, PNG_IO_MAX_TEXELS = 16 << 20 };

static uint8_t to_byte(float v)
{
	if (!(v > 0.0f))
		return 0;
	if (v >= 1.0f)
		return 255;
	return (uint8_t)lrintf(v * 255.0f);
}

bool png_write_rgba(const char *path, int w, int h, const float *rgba,
		    char *why, size_t why_len)
{
	if (w <= 0 || h <= 0 || !rgba) {
		snprintf(why, why_len, "%s: empty image", path);
		return false;
	}
	size_t row = (size_t)w * 4;
	uint8_t *buf = malloc(row * (size_t)h);
	if (!buf) {
		snprintf(why, why_len, "%s: out of memory", path);
		return false;
	}
	for (int y = 0; y < h; y++)
		for (size_t i = 0; i < row; i++)
			buf[(size_t)(h - 1 - y) * row + i] = to_byte(rgba[(size_t)y * row + i]);
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	img.width = (png_uint_32)w;
	img.height = (png_uint_32)h;
	img.format = PNG_FORMAT_RGBA;
	int ok = png_image_write_to_file(&img, path, 0, buf, (png_int_32)row, NULL);
	free(buf);
	if (!ok) {
		snprintf(why, why_len, "%s: cannot write PNG: %s", path, img.message);
		png_image_free(&img);
		return false;
	}
	return true;
}

bool png_read_rgba(const char *path, int *w, int *h, float **rgba,
		   char *why, size_t why_len)
{
	png_image img;
	memset(&img, 0, sizeof img);
	img.version = PNG_IMAGE_VERSION;
	*rgba = NULL;
	if (!png_image_begin_read_from_file(&img, path)) {
		snprintf(why, why_len, "%s: cannot read PNG: %s", path, img.message);
		return false;
	}
	img.format = PNG_FORMAT_RGBA;
	if (img.width == 0 || img.height == 0 || img.width > PNG_IO_MAX_SIDE ||
	    img.height > PNG_IO_MAX_SIDE ||
	    (uint64_t)img.width * img.height > PNG_IO_MAX_TEXELS) {
		snprintf(why, why_len, "%s: PNG of %ux%u texels is too large (at most %d a "
			 "side and %d texels)", path, (unsigned)img.width, (unsigned)img.height,
			 PNG_IO_MAX_SIDE, PNG_IO_MAX_TEXELS);
		png_image_free(&img);
		return false;
	}
	size_t row = (size_t)img.width * 4, n = row * img.height;
	uint8_t *buf = malloc(n);
	float *out = malloc(n * sizeof(float));
	if (!buf || !out || !png_image_finish_read(&img, NULL, buf, (png_int_32)row, NULL)) {
		snprintf(why, why_len, "%s: cannot read PNG: %s", path,
			 buf && out ? img.message : "out of memory");
		png_image_free(&img);
		free(buf);
		free(out);
		return false;
	}
	for (size_t y = 0; y < img.height; y++)
		for (size_t i = 0; i < row; i++)
			out[y * row + i] = buf[(img.height - 1 - y) * row + i] / 255.0f;
	free(buf);
	*w = (int)img.width;
	*h = (int)img.height;
	*rgba = out;
	return true;
}
