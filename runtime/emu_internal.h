/* The emulator's private state, shared by its files, in three layers;
 * a file calls only into its own layer's helpers or the ones below:
 *   driver: emu.c (setup, inputs, the draw's one sequencer, outputs);
 *   slots and setup: emu_alu.c (ALU/OUT slots), emu_tex.c (TEX slots),
 *     emu_fc.c (flow control), emu_bind.c (constants and uniforms),
 *     emu_draw.c (the draw's pixels and their temporary frames),
 *     emu_stats.c (the cost counters of --stats);
 *   base: emu_report.c (warnings and the fault message), emu_pred.c (which
 *     pixels and channels a slot writes), emu_hazard.c (poisoned and stale
 *     reads), emu_num.c (fp32 arithmetic per ISA.md §6.5, §12) and the
 *     inline accessors below.
 *
 * Execution model (ISA.md §12, "all pixels of the draw share one program
 * counter"): the whole draw - every pixel of the rectangle plus the helper
 * pixels that pad it to whole 2x2 quads - steps through the program in
 * lock-step with one PC, one loop stack and one address stack; jump
 * decisions are taken over all pixels of the draw.  What stays per pixel:
 * the flow state (active / inactive counter / out of the loop), predicates,
 * ALU result, killed flag, temporaries and output latches.  Quads matter
 * where a pixel reads its neighbours: MDH/MDV, and the level of detail of
 * texture lookups (the quad's coordinate derivatives). */
#ifndef USCC_EMU_INTERNAL_H
#define USCC_EMU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "emu.h"

enum {
	EMU_QUAD = 4, EMU_STACK = 32,
	/* Default step limit (when emu_config.max_steps is 0): at most
	 * EMU_DEFAULT_WORK quad-steps (a pass of one slot over one quad, about
	 * 0.13 us: some 7 s), but never more than EMU_DEFAULT_STEPS or fewer
	 * than EMU_MIN_DEFAULT_STEPS PC steps (two passes of the longest
	 * program without loops): a 2x2 draw may take 2M steps, a 64x64 one
	 * 48828, a 512x512 one 1024, so a runaway program fails in bounded
	 * time, on a large draw in about the time of two straight 512-slot
	 * programs.  --max-steps raises it. */
	EMU_DEFAULT_STEPS = 2000000,
	EMU_MIN_DEFAULT_STEPS = 1024,
	EMU_DEFAULT_WORK = 50000000
};

/* Flow state of one pixel (ISA.md §6.11 emulator model). */
enum emu_flow { EMU_ACTIVE, EMU_INACTIVE, EMU_LOOP_OFF, EMU_CONT_OFF };

/* One pixel's scalar state; its temporaries live in the draw's frames.
 * Pixels are stored quad by quad: 4q + 0 = (x,y), +1 = (x+1,y),
 * +2 = (x,y+1), +3 = (x+1,y+1), y the GL row. */
struct emu_pixel {
	uint8_t pred;                    /* predicate bits R,G,B,A = bits 0..3 */
	bool alu_result;
	uint8_t flow;                    /* enum emu_flow */
	uint8_t level;                   /* LOOP_OFF/CONT_OFF: loop depth it left */
	bool killed, covered;
	int counter;                     /* INACTIVE: branch counter */
	uint32_t in_loop;                /* bit d: active when loop level d+1 began */
	int x, y;
	long at;                         /* index in the image, or -1 for a helper */
};

/* The cost model's running state over one sequence of executed slots
 * (a pixel's, or the draw's walk); emu_stats.c. */
struct emu_cost {
	uint64_t cycles;
	uint32_t instructions;
	uint32_t tex;        /* bit b: a TEX block began b slots ago, no wait yet */
	bool in_tex;         /* the last slot was a lookup */
};

struct emu_loop {
	int count, al, step;
};

struct emu_ctx {
	const struct r500_program *p;
	const struct emu_config *cfg;
	float c[R500_NUM_CONSTS][4];
	struct r500_loop_const ic[32];
	uint32_t bool_const;
	char *warn; size_t warn_len, warn_cap;
	uint8_t warned[R500_MAX_SLOTS][3]; /* one report per slot and kind */
	char *why; size_t why_len;
	bool fault;

	/* the draw: pixels, their temporary frames, the output image */
	struct emu_pixel *px; long npx;    /* npx is a multiple of EMU_QUAD */
	int ntemps;                        /* temporaries per pixel frame */
	float (*t)[4];                     /* npx * ntemps */
	uint8_t *written;                  /* npx * ntemps: components ever written */
	struct emu_image *img;

	/* the one sequencer of the draw */
	int pc;
	long steps;                        /* PC steps taken */
	bool step_limit;                   /* stopped at the step bound */
	bool alu_valid;                    /* ALU result written since the last FC */
	struct emu_loop loops[EMU_STACK]; int nloops;
	int addr_stack[EMU_STACK];        int naddr;
	int skip_endloop;                  /* ENDLOOP reached by a skipping LOOP, or -1 */
	uint8_t tex_pending[R500_NUM_TEMPS]; /* TEX results not covered by ACQUIRE */
	uint8_t tex_acquired[R500_NUM_TEMPS];/* covered by ACQUIRE, awaiting WAIT */

	/* --stats: per pixel (npx), NULL when not asked for; the draw's walk */
	struct emu_cost *cost;
	struct emu_cost draw_cost;
};

/* ---- the base: called from above, calls nothing above it ---- */

/* Temporaries of pixel i: ntemps vec4s. */
static inline float (*emu_temps(const struct emu_ctx *ctx, long i))[4]
{
	return ctx->t + (size_t)i * (size_t)ctx->ntemps;
}

static inline uint8_t *emu_written(const struct emu_ctx *ctx, long i)
{
	return ctx->written + (size_t)i * (size_t)ctx->ntemps;
}

/* The innermost loop's aL, 0 outside loops. */
static inline int emu_al(const struct emu_ctx *ctx)
{
	return ctx->nloops ? ctx->loops[ctx->nloops - 1].al : 0;
}

/* The temporary an address names; wraps at 128 (§12). */
static inline int emu_temp_index(int addr, bool rel, int al)
{
	int x = (addr & 127) + (rel ? al : 0);
	return ((x % R500_NUM_TEMPS) + R500_NUM_TEMPS) % R500_NUM_TEMPS;
}

/* emu_num.c: fp32 helpers (§6.5, §12) */
float emu_flush(float x);
float emu_round(double x);
float emu_mul0(float a, float b);              /* 0*x = 0 product, exact sign */
float emu_mad(float a, float b, float c);
float emu_dot(const float *a, const float *b, int n, float add);
float emu_transcendental(int aop, float a);    /* EX2..COS, raw */
float emu_omod_clamp(float x, int omod, bool clamp);
bool emu_compare(float x, int code);
float emu_presub(int op, float s0, float s1);

/* emu_report.c; warning kinds: 0 unwritten read, 1 stale TEX read, 2 other */
void emu_warn(struct emu_ctx *ctx, int pc, int kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool emu_fail(struct emu_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* emu_pred.c: may this pixel write at the slot, and this channel */
bool emu_pixel_writes(const struct emu_pixel *px, const struct r500_cmn *cmn);
bool emu_pred_rgb(const struct emu_pixel *px, const struct r500_cmn *cmn, int c);
bool emu_pred_alpha(const struct emu_pixel *px, const struct r500_cmn *cmn);

/* emu_hazard.c: reports for reads of unwritten or in-flight components.
 * A relative read (aL added) is checked for lookups in flight only: a
 * guarded read of a local array may run past the array, and the program
 * discards what it finds there (backend/plan_arrays.c). */
void emu_check_read(struct emu_ctx *ctx, int temp, unsigned mask, bool relative);
void emu_note_slot_write(struct emu_ctx *ctx, int temp, unsigned mask);

/* ---- slots and setup: called by the driver; they call the base, and
 * emu_draw.c counts emu_stats.c's counters in the draw's size ---- */

/* emu_draw.c: the temporaries a program can address, and the draw */
int emu_frame_temps(const struct r500_program *p);
bool emu_draw_alloc(struct emu_ctx *ctx, int width, int height);
void emu_draw_free(struct emu_ctx *ctx);

/* emu_bind.c: constants from immediates and uniforms */
void emu_bind_constants(struct emu_ctx *ctx);

/* emu_stats.c: the cost counters of emu_config.stats */
double emu_cost_bytes(const struct emu_config *cfg, long npx);
bool emu_cost_alloc(struct emu_ctx *ctx, struct emu_image *img);
void emu_cost_slot(struct emu_ctx *ctx, const struct r500_inst *in);
void emu_cost_finish(struct emu_ctx *ctx, struct emu_image *img);

/* emu_alu.c, emu_tex.c, emu_fc.c: one slot of each type over the whole
 * draw; false on a runtime fault */
bool emu_exec_alu(struct emu_ctx *ctx, const struct r500_inst *in);
bool emu_exec_tex(struct emu_ctx *ctx, const struct r500_inst *in);
bool emu_exec_fc(struct emu_ctx *ctx, const struct r500_inst *in);

#endif
