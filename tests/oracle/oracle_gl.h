/* Rendering one fragment shader with Mesa's llvmpipe through a surfaceless
 * EGL display, with uscc-run's inputs (INTERFACES.md §5). */
#ifndef USCC_ORACLE_GL_H
#define USCC_ORACLE_GL_H

#include <stdbool.h>
#include <stddef.h>
#include "run_args.h"

enum { ORACLE_MAX_VARYINGS = 14, ORACLE_MAX_UNIFORMS = 64, ORACLE_UNITS = 16,
       ORACLE_TARGETS = 4 };

struct oracle_sampler {
	const char *name;          /* sampler uniform ("s", "s[1]") */
	int unit;
};

struct oracle_texture {
	int width, height;         /* 0: no texture on the unit */
	const float *texels;       /* RGBA, row 0 at the bottom; levels after level 0 */
	enum tex_filter filter;    /* uscc-run's --filter MIN (nearest by default) */
	enum tex_wrap wrap;        /* --wrap (repeat by default; cube and RECT clamp) */
	int levels;                /* chain in texels, 2D layout (texture.h; a 1D
				      texture's has one row); 0 or 1: level 0 */
	enum tex_mag mag;          /* --filter's MAG */
};

struct oracle_job {
	const char *frag_src;
	int width, height;
	/* as the command line gives them (run_args.h), named as uscc-run names
	 * them ("v", "gl_TexCoord[0]", "u[2]") */
	const struct run_varying *varyings; int nvaryings;
	const struct run_uniform *uniforms; int nuniforms;
	const struct oracle_sampler *samplers; int nsamplers; /* others: declaration order */
	struct oracle_texture textures[ORACLE_UNITS];
	bool fine_derivatives;     /* llvmpipe's own dFdx/dFdy, not the R500's coarse ones */
	bool verbose;              /* renderer and generated vertex shader to stderr */
};

/* The rendered image: rt[t][(y*width + x)*4 + c], and discarded[y*width + x]. */
struct oracle_image {
	int width, height;
	float *rt[ORACLE_TARGETS];
	bool *discarded;
};

enum oracle_status {
	ORACLE_OK = 0,
	ORACLE_BAD_SHADER = 1,     /* compile or link error (message in why) */
	ORACLE_BAD_INPUT = 2,      /* inputs GL cannot take */
	ORACLE_NO_GL = 3,          /* no EGL display/context, or not llvmpipe */
};

enum oracle_status oracle_render(const struct oracle_job *job, struct oracle_image *out,
				 char *why, size_t why_len);
void oracle_image_free(struct oracle_image *img);

#endif
