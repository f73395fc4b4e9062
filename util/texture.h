/* Texture images and sampling rules shared by the IR interpreter and the
 * R500 emulator, so both sample exactly alike.  An image holds level 0 and
 * optionally a mip chain below it; nearest or bilinear filtering within a
 * level, GL's mipmap filters between levels, repeat, clamp-to-edge or
 * mirrored-repeat wrapping.  Texels are RGBA floats, row 0 at the bottom
 * (GL order).  Cube maps hold six faces (+X -X +Y -Y +Z -Z) of width x
 * height each, per level.
 *
 * Level of detail follows GL (4.6 core, §8.14): lambda = log2(rho) from
 * the derivatives of the coordinate, scaled by level 0's size, plus the
 * bias, or an explicit LOD.  lambda <= 0 magnifies (level 0, the
 * magnification filter; the switch point c is 0); above it minifies with
 * the minification filter, a mipmap one choosing among levels
 * 0..maxlevel. */
#ifndef USCC_TEXTURE_H
#define USCC_TEXTURE_H

#include <stdbool.h>

/* Texture targets; the IR, the backend and the container share these
 * values (hence the IR_ prefix, from where they were first defined). */
enum ir_tex_target { IR_TARGET_1D, IR_TARGET_2D, IR_TARGET_3D, IR_TARGET_CUBE,
		     IR_TARGET_RECT };

/* Minification filters, in GL's order.  NEAREST and LINEAR use level 0
 * only; X_MIPMAP_Y filters X within a level and Y between levels. */
enum tex_filter { TEX_FILTER_NEAREST, TEX_FILTER_LINEAR,
		  TEX_FILTER_NEAREST_MIPMAP_NEAREST, TEX_FILTER_LINEAR_MIPMAP_NEAREST,
		  TEX_FILTER_NEAREST_MIPMAP_LINEAR, TEX_FILTER_LINEAR_MIPMAP_LINEAR,
		  TEX_FILTER_COUNT };
/* Magnification filters; TEX_MAG_AS_MIN (what a zeroed image has) filters
 * as the minification filter does within a level. */
enum tex_mag { TEX_MAG_AS_MIN, TEX_MAG_NEAREST, TEX_MAG_LINEAR };
enum tex_wrap { TEX_WRAP_REPEAT, TEX_WRAP_CLAMP, TEX_WRAP_MIRROR };

struct tex_image {
	int target;         /* enum ir_tex_target */
	int width, height, depth;  /* of level 0 */
	/* level 0: width*height*depth*4 floats (cube: *6 faces); then levels
	 * 1 .. levels-1, each right after the one above (tex_level_size) */
	const float *texels;
	enum tex_filter filter;    /* minification */
	enum tex_wrap wrap;
	int levels;                /* levels in texels; 0 or 1: level 0 only */
	enum tex_mag mag;          /* magnification */
};

/* "1D", "2D", "3D", "CUBE", "RECT" (the container's and the listings'
 * spelling); "?" for anything else. */
const char *tex_target_name(int target);

/* GL's name of a filter ("nearest", "linear_mipmap_nearest", ...); NULL
 * for anything else. */
const char *tex_filter_name(int filter);

/* Whether a minification filter reads levels other than 0. */
bool tex_filter_is_mipmap(int filter);

/* The levels of a complete chain below a width x height x depth level 0
 * (each level halves every side, rounding down, to 1x1; a 1D image halves
 * its width only, a 3D one its depth too); RECT textures have one level.
 * 0 for a size below 1. */
int tex_full_levels(int target, int width, int height, int depth);

/* Size of `level` (0 for level 0) of a chain: size[0..2] = width,
 * height, depth (3D: halved; a cube's 1; other targets keep theirs).  The texels of levels 0 .. levels-1 together (cube: six faces
 * each); -1 when the sizes are invalid. */
void tex_level_size(int target, int width, int height, int depth, int level, int size[3]);
long long tex_chain_texels(int target, int width, int height, int depth, int levels);

/* Fills levels 1 .. levels-1 of a chain whose level 0 is in place (texels
 * holding tex_chain_texels(...) * 4 floats) by box filtering: each texel
 * of a level averages the 2x2(x2) block of the level above at twice its
 * coordinates; an odd side's last texel joins the last block. */
void tex_build_levels(int target, int width, int height, int depth, int levels,
		      float *texels);

/* GL's lambda_base = log2(rho) for the derivatives dx, dy (d/dx and d/dy
 * of the coordinate a lookup passes to tex_sample_lod: normalized, RECT in
 * texels, cube a direction, whose face coordinates' derivatives at coord
 * are taken).  rho = max(|dx|, |dy|) after scaling by level 0's size;
 * -inf when both are 0.  0 for a NULL or empty image. */
float tex_lambda(const struct tex_image *img, const float coord[3], const float dx[3],
		 const float dy[3]);

/* Samples at normalized (s, t, r) (RECT: texel coordinates; cube: a
 * direction) with level of detail lambda (bias added already; NaN counts
 * as 0).  A NULL image or one without texels returns (0, 0, 0, 1). */
void tex_sample_lod(const struct tex_image *img, const float coord[3], float lambda,
		    float out[4]);

/* tex_sample_lod with lambda 0: level 0, magnified. */
void tex_sample(const struct tex_image *img, const float coord[3], float out[4]);

#endif
