/* The draw's storage: one emu_pixel per pixel of the rectangle padded to
 * whole 2x2 quads, and a frame of temporaries per pixel sized by the
 * highest temporary the program can address (all 128 when it addresses
 * any temporary relative to aL), so that a large draw of a small program
 * stays small.  Frames start poisoned (NaN, never written).  A draw whose
 * storage and image (and --stats counters) would pass emu_max_draw_bytes
 * is refused up front. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "emu_internal.h"

/* Refuse draws whose state and image would exceed this (a clean error,
 * no attempt): 2048x2048 fits a program of up to 9 temporaries, 680x680
 * one that addresses all 128 (relative addressing); 4096x4096 never. */
static const double emu_max_draw_bytes = 1024.0 * 1024 * 1024;

static void note_temp(int *n, int addr, bool rel)
{
	int need = rel ? R500_NUM_TEMPS : (addr & 127) + 1;
	if (need > *n)
		*n = need;
}

/* An ALU source slot names a temporary unless it is a constant or inline. */
static void note_src(int *n, const struct r500_addr *a)
{
	if ((a->cnst & 1) || (a->addr & R500_INLINE_BIT))
		return;
	note_temp(n, a->addr, a->rel & 1);
}

/* Every temporary field of every slot counts, reachable or not, used by
 * the operation or not: the executing code may index with any of them. */
int emu_frame_temps(const struct r500_program *p)
{
	int n = 1;
	for (int k = 0; p->inputs && k < p->ninputs; k++)
		if (p->inputs[k].temp >= 0 && p->inputs[k].temp < R500_NUM_TEMPS)
			note_temp(&n, p->inputs[k].temp, false);
	for (int i = 0; p->code && i < p->ninst && i < R500_MAX_SLOTS; i++) {
		const struct r500_inst *in = &p->code[i];
		int type = in->cmn.type & 3;
		if (type == R500_TYPE_FC)
			continue;
		if (type == R500_TYPE_TEX) {
			const struct r500_tex *tx = &in->tex;
			note_temp(&n, tx->src_addr, tx->src_addr_rel & 1);
			note_temp(&n, tx->dst_addr, tx->dst_addr_rel & 1);
			note_temp(&n, tx->dx_addr, tx->dx_addr_rel & 1);
			note_temp(&n, tx->dy_addr, tx->dy_addr_rel & 1);
			continue;
		}
		const struct r500_alu *alu = &in->alu;
		for (int k = 0; k < 3; k++) {
			note_src(&n, &alu->rgb_addr.src[k]);
			note_src(&n, &alu->alpha_addr.src[k]);
		}
		note_temp(&n, alu->rgb_addrd, alu->rgb_addrd_rel & 1);
		note_temp(&n, alu->alpha_addrd, alu->alpha_addrd_rel & 1);
	}
	return n;
}

void emu_draw_free(struct emu_ctx *ctx)
{
	free(ctx->px);
	free(ctx->t);
	free(ctx->written);
	free(ctx->cost);
	ctx->cost = NULL;
	ctx->px = NULL;
	ctx->t = NULL;
	ctx->written = NULL;
	ctx->npx = 0;
}

/* Pixels in quad order, positions and image indexes set, frames
 * poisoned; inputs are the caller's. */
bool emu_draw_alloc(struct emu_ctx *ctx, int width, int height)
{
	long qw = (width + 1) / 2, qh = (height + 1) / 2;
	long npx = qw * qh * EMU_QUAD;
	int nt = emu_frame_temps(ctx->p);
	double image = (double)width * height *
		       (R500_NUM_TARGETS * sizeof(float[4]) + sizeof(float) + sizeof(bool));
	double bytes = image + (double)npx * ((double)sizeof(struct emu_pixel) +
					      (double)nt * (sizeof(float[4]) + 1)) +
		       emu_cost_bytes(ctx->cfg, npx);
	if (bytes > emu_max_draw_bytes || (double)npx * nt > (double)(SIZE_MAX / sizeof(float[4])))
		return emu_fail(ctx, "a %dx%d draw of a program using %d temporaries%s needs "
				"%.0f MiB, more than the emulator's limit of %.0f MiB",
				width, height, nt, ctx->cfg->stats ? ", with statistics," : "",
				bytes / 1048576, emu_max_draw_bytes / 1048576);
	size_t cells = (size_t)npx * (size_t)nt;
	ctx->ntemps = nt;
	ctx->npx = npx;
	ctx->px = calloc((size_t)npx, sizeof *ctx->px);
	ctx->t = malloc(cells * sizeof *ctx->t);
	ctx->written = calloc(cells, 1);
	if (!ctx->px || !ctx->t || !ctx->written) {
		emu_draw_free(ctx);
		return emu_fail(ctx, "out of memory for a %dx%d draw (%d temporaries per pixel)",
				width, height, nt);
	}
	for (size_t k = 0; k < cells; k++)
		for (int c = 0; c < 4; c++)
			ctx->t[k][c] = NAN;
	for (long i = 0; i < npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		long q = i / EMU_QUAD;
		int k = (int)(i % EMU_QUAD);
		px->x = (int)(q % qw) * 2 + (k & 1);
		px->y = (int)(q / qw) * 2 + (k >> 1);
		px->covered = px->x < width && px->y < height;
		px->at = px->covered ? (long)px->y * width + px->x : -1;
	}
	return true;
}
