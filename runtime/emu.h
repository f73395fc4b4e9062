/* The emulator: runs a compiled program as the R500 would, over a
 * rectangle of pixels in 2x2 quads (INTERFACES.md §5, ISA.md §6, §12);
 * all pixels of the draw share one program counter (§12). */
#ifndef USCC_EMU_H
#define USCC_EMU_H

#include <stdbool.h>
#include "r500_program.h"
#include "texture.h"

struct emu_varying {
	const char *name;      /* input name as in the program's input table */
	float corners[4][4];   /* BL, BR, TL, TR */
};

struct emu_uniform {
	const char *name;      /* "u", or "u[2]" for one array element */
	float value[16];       /* up to a mat4 (column-major) */
	int ncomp;
};

struct emu_config {
	int width, height;
	const struct emu_varying *varyings; int nvaryings; /* others: (u, v, 0, 1) */
	const struct emu_uniform *uniforms; int nuniforms; /* others: initializer, else 0 */
	const struct tex_image *textures;   int ntextures; /* indexed by unit */
	int max_steps;         /* the step bound: steps of the draw's one PC (=
				  instruction executions per quad) before a run
				  stops as a runaway; 0 = the default
				  (emu_default_steps), lower for large draws */
};

/* Per-pixel results: rt[target][(y*width + x)*4 + c], depth, discard. */
struct emu_image {
	int width, height;
	float *rt[4];
	float *depth;
	bool *discarded;
	char *warnings;        /* hazard reports (stale TEX reads...), or NULL */
	long steps;            /* PC steps the draw took (set on failure too) */
	bool step_limit;       /* emu_run failed: the run reached the step bound */
};

/* The step bound a run of this size gets when max_steps is 0. */
long emu_default_steps(int width, int height);

/* Runs the program; returns false with a message on a runtime fault
 * (a runaway loop stopped at the step bound, an FC stack overflow, a jump
 * past the end, an invalid instruction) or when the draw would need more
 * memory than the emulator's limit.  The emulator never crashes on any
 * program: every index a decoded word gives is checked or wrapped. */
bool emu_run(const struct r500_program *p, const struct emu_config *cfg,
	     struct emu_image *out, char *why, size_t why_len);
void emu_image_free(struct emu_image *img);

#endif
