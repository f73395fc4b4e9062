/* Texture images and sampling rules shared by the IR interpreter and the
 * R500 emulator, so both sample exactly alike.  One level per image (no
 * mipmaps), nearest or bilinear filtering, repeat, clamp-to-edge or
 * mirrored-repeat wrapping.  Texels are RGBA floats, row 0 at the bottom (GL order).
 * Cube maps hold six faces (+X -X +Y -Y +Z -Z) of width x height each. */
#ifndef USCC_TEXTURE_H
#define USCC_TEXTURE_H

#include <stdbool.h>

/* Texture targets; the IR, the backend and the container share these
 * values (hence the IR_ prefix, from where they were first defined). */
enum ir_tex_target { IR_TARGET_1D, IR_TARGET_2D, IR_TARGET_3D, IR_TARGET_CUBE,
		     IR_TARGET_RECT };

enum tex_filter { TEX_FILTER_NEAREST, TEX_FILTER_LINEAR };
enum tex_wrap { TEX_WRAP_REPEAT, TEX_WRAP_CLAMP, TEX_WRAP_MIRROR };

struct tex_image {
	int target;         /* enum ir_tex_target */
	int width, height, depth;
	const float *texels;  /* width*height*depth*4 floats (cube: *6 faces) */
	enum tex_filter filter;
	enum tex_wrap wrap;
};

/* "1D", "2D", "3D", "CUBE", "RECT" (the container's and the listings'
 * spelling); "?" for anything else. */
const char *tex_target_name(int target);

/* Sample at normalized (s, t, r); for RECT, unnormalized texel coords.
 * A NULL image or one without texels returns (0, 0, 0, 1). */
void tex_sample(const struct tex_image *img, const float coord[3], float out[4]);

#endif
