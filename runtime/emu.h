/* The emulator: runs a compiled program as the R500 would, over a
 * rectangle of pixels in 2x2 quads (INTERFACES.md §5, ISA.md §6, §12);
 * all pixels of the draw share one program counter (§12). */
#ifndef USCC_EMU_H
#define USCC_EMU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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
	bool stats;            /* count what each pixel executes (emu_image.stats) */
};

/* What one pixel executed (emu_config.stats), by the cost model of
 * INTERFACES.md §4 (+1 per slot, +1 per NOP bit, +30 per block of
 * consecutive TEX slots minus min(30, the distance to the first slot with
 * TEX_SEM_WAIT after it, from the block's start as Mesa's rc_get_stats
 * counts it: 1 + the block's lookups + the slots between), applied to the
 * slots it
 * executed in the order it executed them, every loop trip counted.
 * A pixel executes a slot when the draw's one program counter reaches it
 * while the pixel is active - not inactive in a branch it did not take,
 * not out of a loop or iteration it left (a WRITE_INACTIVE ALU/TEX slot
 * counts for inactive pixels too, since they write there) - and not yet
 * killed (the TEXKILL that kills it counts).  So a pixel's figure is the
 * cost of its own path; the lock-step walk every pixel of the draw waits
 * through is emu_image.draw.  TEX blocks no slot waited on are settled
 * when the pixel stops (end of program, or its kill) as at the end of a
 * straight program, so a program without flow control costs exactly its
 * static `cycles` figure. */
struct emu_pixel_stats {
	uint64_t cycles;
	uint32_t instructions;
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
	struct emu_pixel_stats *stats; /* [y*width + x] when emu_config.stats, else NULL */
	struct emu_pixel_stats draw;   /* the same model over every slot the PC visited */
};

/* --stats over the draw: min, median (the lower middle value for an even
 * count) and max of each per-pixel figure; discarded pixels included. */
struct emu_stats_summary {
	long pixels, discarded;
	uint64_t cycles[3], instructions[3];     /* min, median, max */
	struct emu_pixel_stats draw;
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

/* False when the image holds no stats or memory ran out. */
bool emu_stats_summarize(const struct emu_image *img, struct emu_stats_summary *out);
/* One line: {"pixels":N,"discarded":K,"cycles":{"min":..,"median":..,"max":..},
 * "instructions":{...},"draw":{"cycles":..,"instructions":..}} */
void emu_stats_print_json(FILE *out, const struct emu_stats_summary *s);

#endif
