/* One TEX slot over the whole draw (ISA.md §6.8, §6.9, §12: one PC for
 * all pixels), quad by quad: LD, PROJ, LODBIAS, LOD and DXDY sample through
 * util/texture (as the IR interpreter does) with the level of detail from
 * the quad's coordinates (coarse: d/dx = pixel 1 - pixel 0, d/dy = pixel
 * 2 - pixel 0, every neighbour delivering its coordinates, ISA §12), plus
 * the bias in Q for LODBIAS; LOD takes Q as the level of detail, DXDY the
 * gradients of TEX_ADDR_DXDY.  TEXKILL kills on the sign bit; the texel is
 * reordered by the destination swizzles and written under the masks and
 * predication.  Lookups happen at once; the semaphore is only tracked (for
 * the draw) to report reads the hardware would see stale. */
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

static const struct tex_image *tex_unit(const struct emu_ctx *ctx, const struct r500_tex *tx)
{
	int unit = tx->tex_id & 15;
	if (ctx->cfg->textures && unit < ctx->cfg->ntextures)
		return &ctx->cfg->textures[unit];
	return NULL;
}

/* UNSCALED: texel coordinates, RECT images take texel coordinates; a
 * coordinate (or gradient) given the other way is converted. */
static void unscale(const struct r500_tex *tx, const struct tex_image *img, float v[3])
{
	bool want_texels = tx->unscaled & 1;
	bool img_texels = img && img->target == IR_TARGET_RECT;
	if (img && want_texels != img_texels && img->width > 0 && img->height > 0) {
		float sw = (float)img->width, sh = (float)img->height;
		float sd = (float)(img->depth > 0 ? img->depth : 1);
		if (want_texels) {
			v[0] /= sw; v[1] /= sh; v[2] /= sd;
		} else {
			v[0] *= sw; v[1] *= sh; v[2] *= sd;
		}
	}
}

/* The coordinate tex_sample_lod takes for (s, t, r, q). */
static void lookup_coord(const struct r500_tex *tx, const struct tex_image *img,
			 const float stq[4], float coord[3])
{
	for (int c = 0; c < 3; c++)
		coord[c] = stq[c];
	if ((tx->inst & 7) == R500_TEX_PROJ)
		for (int c = 0; c < 3; c++)
			coord[c] = emu_flush(coord[c] / stq[3]);
	unscale(tx, img, coord);
}

/* A DXDY gradient of pixel i: the temporary's channels by the swizzle. */
static void gradient(const struct emu_ctx *ctx, const struct r500_tex *tx,
		     const struct tex_image *img, long i, int temp, const uint16_t swz[4],
		     float g[3])
{
	float (*t)[4] = emu_temps(ctx, i);
	for (int c = 0; c < 3; c++)
		g[c] = t[temp][swz[c] & 3];
	unscale(tx, img, g);
}

/* Level of detail of pixel i (quad index k) of a lookup. */
static float lookup_lod(const struct emu_ctx *ctx, const struct r500_tex *tx,
			const struct tex_image *img, long i, int k, float (*coord)[3],
			const float stq[4])
{
	int op = tx->inst & 7;
	if (op == R500_TEX_LOD)
		return stq[3];
	float dx[3], dy[3];
	if (op == R500_TEX_DXDY) {
		gradient(ctx, tx, img, i, tex_temp(ctx, tx->dx_addr, tx->dx_addr_rel), tx->dx_swz, dx);
		gradient(ctx, tx, img, i, tex_temp(ctx, tx->dy_addr, tx->dy_addr_rel), tx->dy_swz, dy);
		return tex_lambda(img, coord[k], dx, dy);
	}
	for (int c = 0; c < 3; c++) {
		dx[c] = coord[1][c] - coord[0][c];
		dy[c] = coord[2][c] - coord[0][c];
	}
	float lambda = tex_lambda(img, coord[k], dx, dy);
	return op == R500_TEX_LODBIAS ? lambda + stq[3] : lambda;
}

/* The lookups of one quad (pixels base .. base+3); the destination
 * channels written go to *wrote. */
static void quad_tex(struct emu_ctx *ctx, const struct r500_inst *in, long base, int src,
		     int dst, unsigned *wrote)
{
	const struct r500_tex *tx = &in->tex;
	const struct r500_cmn *m = &in->cmn;
	const struct tex_image *img = tex_unit(ctx, tx);
	int op = tx->inst & 7;
	float stq[EMU_QUAD][4], coord[EMU_QUAD][3];
	for (int k = 0; k < EMU_QUAD; k++) {
		float (*t)[4] = emu_temps(ctx, base + k);
		for (int c = 0; c < 4; c++)
			stq[k][c] = t[src][tx->src_swz[c] & 3];
		lookup_coord(tx, img, stq[k], coord[k]);
	}
	for (int k = 0; k < EMU_QUAD; k++) {
		long i = base + k;
		struct emu_pixel *px = &ctx->px[i];
		float texel[4];
		if (!emu_pixel_writes(px, m))
			continue;
		if (op == R500_TEX_KILL) {
			for (int c = 0; c < 4; c++)
				if (signbit(stq[k][c]))
					px->killed = true;
			continue;
		}
		tex_sample_lod(img, coord[k], lookup_lod(ctx, tx, img, i, k, coord, stq[k]), texel);
		float (*t)[4] = emu_temps(ctx, i);
		for (int c = 0; c < 4; c++) {
			bool on = c < 3 ? (m->rgb_wmask >> c & 1) && emu_pred_rgb(px, m, c)
					: (m->alpha_wmask & 1) && emu_pred_alpha(px, m);
			if (!on)
				continue;
			t[dst][c] = emu_flush(texel[tx->dst_swz[c] & 3]);
			emu_written(ctx, i)[dst] |= (uint8_t)(1u << c);
			*wrote |= 1u << c;
		}
	}
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
		emu_check_read(ctx, src, swz_mask(tx->src_swz), tx->src_addr_rel & 1);
		if (op == R500_TEX_DXDY) {
			emu_check_read(ctx, tex_temp(ctx, tx->dx_addr, tx->dx_addr_rel),
				       swz_mask(tx->dx_swz), tx->dx_addr_rel & 1);
			emu_check_read(ctx, tex_temp(ctx, tx->dy_addr, tx->dy_addr_rel),
				       swz_mask(tx->dy_swz), tx->dy_addr_rel & 1);
		}
		int dst = tex_temp(ctx, tx->dst_addr, tx->dst_addr_rel);
		unsigned wrote = 0;
		for (long base = 0; base < ctx->npx; base += EMU_QUAD)
			quad_tex(ctx, in, base, src, dst, &wrote);
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
