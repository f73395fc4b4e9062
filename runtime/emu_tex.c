/* One TEX slot over the whole draw (ISA.md §6.8, §6.9, §12: one PC for
 * all pixels): LD, PROJ, LODBIAS, LOD and DXDY all sample the one level an
 * image has (the bias, LOD and gradients select nothing, so no pixel needs
 * its quad here); TEXKILL kills on the sign bit; the texel is reordered by
 * the destination swizzles and written under the masks and predication.
 * Lookups happen at once; the semaphore is only tracked (for the draw) to
 * report reads the hardware would see stale. */
#include <math.h>
#include <string.h>
#include "emu_internal.h"
#include "ir.h"

static int tex_temp(const struct emu_ctx *ctx, int addr, int rel)
{
	return emu_temp_index(addr, rel & 1, emu_al(ctx));
}

static unsigned swz_mask(const uint16_t swz[4])
{
	unsigned m = 0;
	for (int c = 0; c < 4; c++)
		m |= 1u << (swz[c] & 3);
	return m;
}

static void sample(const struct emu_ctx *ctx, const struct r500_tex *tx, const float stq[4],
		   float out[4])
{
	int unit = tx->tex_id & 15;
	const struct tex_image *img = NULL;
	if (ctx->cfg->textures && unit < ctx->cfg->ntextures)
		img = &ctx->cfg->textures[unit];
	float coord[3] = { stq[0], stq[1], stq[2] };
	if ((tx->inst & 7) == R500_TEX_PROJ)
		for (int c = 0; c < 3; c++)
			coord[c] = emu_flush(coord[c] / stq[3]);
	/* UNSCALED: texel coordinates; RECT images take texel coordinates */
	bool want_texels = tx->unscaled & 1;
	bool img_texels = img && img->target == IR_TARGET_RECT;
	if (img && want_texels != img_texels && img->width > 0 && img->height > 0) {
		float sw = (float)img->width, sh = (float)img->height;
		float sd = (float)(img->depth > 0 ? img->depth : 1);
		if (want_texels) {
			coord[0] /= sw; coord[1] /= sh; coord[2] /= sd;
		} else {
			coord[0] *= sw; coord[1] *= sh; coord[2] *= sd;
		}
	}
	tex_sample(img, coord, out);
	for (int c = 0; c < 4; c++)
		out[c] = emu_flush(out[c]);
}

bool emu_exec_tex(struct emu_ctx *ctx, const struct r500_inst *in)
{
	const struct r500_tex *tx = &in->tex;
	const struct r500_cmn *m = &in->cmn;
	int op = tx->inst & 7;
	if (op == R500_TEX_RESERVED7)
		return emu_fail(ctx, "slot %d: reserved texture instruction 7", ctx->pc);
	if (op != R500_TEX_NOP) {
		int src = tex_temp(ctx, tx->src_addr, tx->src_addr_rel);
		emu_check_read(ctx, src, swz_mask(tx->src_swz));
		if (op == R500_TEX_DXDY) {
			emu_check_read(ctx, tex_temp(ctx, tx->dx_addr, tx->dx_addr_rel),
				       swz_mask(tx->dx_swz));
			emu_check_read(ctx, tex_temp(ctx, tx->dy_addr, tx->dy_addr_rel),
				       swz_mask(tx->dy_swz));
		}
		int dst = tex_temp(ctx, tx->dst_addr, tx->dst_addr_rel);
		unsigned wrote = 0;
		for (long i = 0; i < ctx->npx; i++) {
			struct emu_pixel *px = &ctx->px[i];
			float (*t)[4] = emu_temps(ctx, i);
			float stq[4], texel[4];
			if (!emu_pixel_writes(px, m))
				continue;
			for (int c = 0; c < 4; c++)
				stq[c] = t[src][tx->src_swz[c] & 3];
			if (op == R500_TEX_KILL) {
				for (int c = 0; c < 4; c++)
					if (signbit(stq[c]))
						px->killed = true;
				continue;
			}
			sample(ctx, tx, stq, texel);
			for (int c = 0; c < 4; c++) {
				bool on = c < 3 ? (m->rgb_wmask >> c & 1) && emu_pred_rgb(px, m, c)
						: (m->alpha_wmask & 1) && emu_pred_alpha(px, m);
				if (!on)
					continue;
				t[dst][c] = texel[tx->dst_swz[c] & 3];
				emu_written(ctx, i)[dst] |= (uint8_t)(1u << c);
				wrote |= 1u << c;
			}
		}
		emu_note_slot_write(ctx, dst, wrote);
		if (op != R500_TEX_KILL)
			ctx->tex_pending[dst] |= (uint8_t)((m->rgb_wmask & 7) | (m->alpha_wmask & 1) << 3);
	}
	if (tx->sem_acquire & 1) {
		for (int t = 0; t < R500_NUM_TEMPS; t++)
			ctx->tex_acquired[t] |= ctx->tex_pending[t];
		memset(ctx->tex_pending, 0, sizeof ctx->tex_pending);
	}
	return true;
}
