/* The reads the emulator computes but the hardware could get wrong, for
 * the warnings: a temporary component never written (the frames start
 * poisoned), or a TEX result not yet covered by ACQUIRE+WAIT (§6.9).  The
 * per-pixel written bits are set where the slots write; this file checks
 * them and clears the draw's TEX-in-flight bits a later write replaces.
 * Part of the emulator's base: it calls only emu_report.c. */
#include "emu_internal.h"

/* Hazard reports for a read of `mask` components of temporary `temp` by
 * the active pixels of the draw at the current slot: never written
 * (poison) or a TEX result not yet covered by ACQUIRE+WAIT (§6.9).  Each
 * kind is reported once per slot, so the pixel scan stops after that. */
void emu_check_read(struct emu_ctx *ctx, int temp, unsigned mask, bool relative)
{
	static const char chan[4] = { 'x', 'y', 'z', 'w' };
	int pc = ctx->pc;
	mask &= 15;
	if (!mask || temp < 0 || temp >= ctx->ntemps)
		return;
	unsigned stale = (ctx->tex_pending[temp] | ctx->tex_acquired[temp]) & mask;
	if (stale) {
		int c = __builtin_ctz(stale);
		emu_warn(ctx, pc, 1, "slot %d: reads t%d.%c, written by a TEX not yet "
			 "covered by ACQUIRE+WAIT", pc, temp, chan[c]);
	}
	if (ctx->warned[pc][0] || relative)
		return;
	const uint8_t *w = ctx->written + temp;
	for (long i = 0; i < ctx->npx; i++, w += ctx->ntemps) {
		unsigned unwritten = mask & ~*w;
		if (!unwritten || ctx->px[i].flow != EMU_ACTIVE)
			continue;
		emu_warn(ctx, pc, 0, "slot %d: reads t%d.%c, never written",
			 pc, temp, chan[__builtin_ctz(unwritten)]);
		break;
	}
}

/* A slot wrote channels `mask` of temporary `temp` in some pixel: that
 * value is no TEX result in flight any more. */
void emu_note_slot_write(struct emu_ctx *ctx, int temp, unsigned mask)
{
	ctx->tex_pending[temp] &= (uint8_t)~mask;
	ctx->tex_acquired[temp] &= (uint8_t)~mask;
}
