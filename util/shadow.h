/* Depth comparison of shadow samplers, as GL defines it per texture
 * (TEXTURE_COMPARE_FUNC, DEPTH_TEXTURE_MODE).  The R500's TEX word has
 * no compare, so the code does it after an ordinary lookup; a driver
 * compiles for the state of the texture bound to each unit, as Mesa's
 * r300 does.  The IR interpreter computes the same with tex_shadow_result. */
#ifndef USCC_SHADOW_H
#define USCC_SHADOW_H

#include <stdbool.h>

/* GL's defaults first: a zeroed state is LEQUAL with LUMINANCE. */
enum tex_compare { TEX_COMPARE_LEQUAL, TEX_COMPARE_GEQUAL, TEX_COMPARE_LESS, TEX_COMPARE_GREATER,
		   TEX_COMPARE_EQUAL, TEX_COMPARE_NOTEQUAL, TEX_COMPARE_ALWAYS, TEX_COMPARE_NEVER,
		   TEX_COMPARE_COUNT };
enum tex_depth_mode { TEX_DEPTH_LUMINANCE, TEX_DEPTH_INTENSITY, TEX_DEPTH_ALPHA, TEX_DEPTH_RED,
		      TEX_DEPTH_COUNT };

/* "lequal", ... and "luminance", ...; NULL out of range. */
const char *tex_compare_name(int compare);
const char *tex_depth_mode_name(int mode);
/* By name; -1 when there is none. */
int tex_compare_by_name(const char *s, unsigned long n);
int tex_depth_mode_by_name(const char *s, unsigned long n);

/* "UNIT=COMPARE[,MODE]" (the tools' --shadow): false when it is not
 * that, with a unit 0..15. */
bool tex_shadow_parse(const char *spec, int *unit, int *compare, int *mode);

/* 1.0 when `ref`, clamped to [0, 1] as for a fixed-point depth texture,
 * passes the comparison with the texel's depth, else 0.0. */
float tex_shadow_pass(int compare, float ref, float depth);

/* The lookup's result for a pass value v (0 or 1), by the depth mode:
 * LUMINANCE (v, v, v, 1), INTENSITY (v, v, v, v), ALPHA (0, 0, 0, v),
 * RED (v, 0, 0, 1). */
void tex_shadow_result(int mode, float v, float out[4]);

#endif
