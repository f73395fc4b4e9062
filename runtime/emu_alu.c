/* One ALU or OUT slot over the whole draw (ISA.md §6.3, §6.4, §6.6,
 * §6.12): operand fetch with presubtract, the RGB and alpha operations
 * with their coupling (DP4, alpha DP, SOP) and the quad reads of MDH/MDV
 * (each pixel reads its own 2x2 quad), then OMOD/clamp and the masked
 * writes to temporaries, predicates, the ALU result or the output latches.
 * The draw shares one PC (§12), so the operand addresses are resolved once
 * per slot; quads where no pixel would write are skipped. */
#include <math.h>
#include <string.h>
#include "emu_internal.h"

enum { SRCP = 3 };

struct alu_res {
	float rgb[3];
	float a;
};

static int wrap(int x, int n)
{
	return ((x % n) + n) % n;
}

/* Where the six source slots read from, resolved once per slot: a
 * constant or inline vec4 (fixed), or a temporary of each pixel. */
struct alu_plan {
	const float *fixed[2][3];        /* [0 RGB, 1 alpha][k] */
	int temp[2][3];                  /* temporary, or -1 when fixed */
	float inl[2][3][4];
	int drgb, da;                    /* destination temporaries */
	bool srcp;                       /* some input selects srcp */
};

static void plan_slot(struct emu_ctx *ctx, const struct r500_addr *a, int al,
		      float inl[4], const float **fixed, int *temp)
{
	int addr = a->addr & 0xFF;
	*temp = -1;
	if (a->cnst & 1) {
		int slot = wrap(addr + ((a->rel & 1) ? al : 0), R500_NUM_CONSTS);
		/* a driver uploads only the container's slots: others hold 0 here */
		if (slot >= ctx->p->nconst_slots)
			emu_warn(ctx, ctx->pc, 2, "slot %d: reads constant c%d, past the "
				 "program's %d constant slots", ctx->pc, slot,
				 ctx->p->nconst_slots);
		*fixed = ctx->c[slot];
	} else if (addr & R500_INLINE_BIT) {
		inl[0] = inl[1] = inl[2] = inl[3] = r500_inline_value(addr & 0x7F);
		*fixed = inl;
	} else {
		*fixed = NULL;
		*temp = emu_temp_index(addr, a->rel & 1, al);
	}
}

static void plan_alu(struct emu_ctx *ctx, const struct r500_alu *alu,
		     struct alu_plan *pl)
{
	int al = emu_al(ctx);
	for (int k = 0; k < 3; k++) {
		plan_slot(ctx, &alu->rgb_addr.src[k], al, pl->inl[0][k], &pl->fixed[0][k],
			  &pl->temp[0][k]);
		plan_slot(ctx, &alu->alpha_addr.src[k], al, pl->inl[1][k], &pl->fixed[1][k],
			  &pl->temp[1][k]);
	}
	pl->srcp = false;
	for (int k = 0; k < 3; k++)
		pl->srcp |= (alu->rgb_arg[k].sel & 3) == SRCP || (alu->alpha_arg[k].sel & 3) == SRCP;
	pl->drgb = emu_temp_index(alu->rgb_addrd, alu->rgb_addrd_rel & 1, al);
	pl->da = emu_temp_index(alu->alpha_addrd, alu->alpha_addrd_rel & 1, al);
}

/* src0..2 and srcp of one pixel (§6.3 steps 1-3). */
static void fetch_sources(const struct alu_plan *pl, float (*t)[4], const struct r500_alu *alu,
			  float src[4][4])
{
	for (int k = 0; k < 3; k++) {
		const float *rgb = pl->fixed[0][k] ? pl->fixed[0][k] : t[pl->temp[0][k]];
		const float *al = pl->fixed[1][k] ? pl->fixed[1][k] : t[pl->temp[1][k]];
		src[k][0] = rgb[0]; src[k][1] = rgb[1]; src[k][2] = rgb[2];
		src[k][3] = al[3];
	}
	if (!pl->srcp) /* only inputs that select srcp ever read it */
		return;
	for (int c = 0; c < 3; c++)
		src[SRCP][c] = emu_presub(alu->rgb_addr.srcp_op, src[0][c], src[1][c]);
	src[SRCP][3] = emu_presub(alu->alpha_addr.srcp_op, src[0][3], src[1][3]);
}

static float pick(const float v[4], int swz)
{
	static const float k[4] = { 0.0f, 0.5f, 1.0f, NAN }; /* 7: undefined */
	swz &= 7;
	return swz < 4 ? v[swz] : k[swz - 4];
}

static float modify(float x, int mod)
{
	switch (mod & 3) {
	case R500_MOD_NEG: return -x;
	case R500_MOD_ABS: return fabsf(x);
	case R500_MOD_NAB: return -fabsf(x);
	default: return x;
	}
}

static float in_rgb(float src[4][4], const struct r500_arg *arg, int c)
{
	return modify(pick(src[arg->sel & 3], arg->swz[c]), arg->mod);
}

static float in_alpha(float src[4][4], const struct r500_arg *arg)
{
	return modify(pick(src[arg->sel & 3], arg->swz[0]), arg->mod);
}

static bool is_transcendental(int aop)
{
	return aop >= R500_AOP_EX2 && aop <= R500_AOP_COS;
}

static bool is_dot(int rop)
{
	return rop == R500_ROP_DP3 || rop == R500_ROP_DP4 || rop == R500_ROP_D2A;
}

/* ---- which source channels matter (for the poison/stale reports) ---- */

static void need_arg(unsigned need[4], const struct r500_arg *arg, unsigned lanes, int nswz)
{
	for (int c = 0; c < nswz; c++)
		if (lanes >> c & 1 && (arg->swz[c] & 7) < 4)
			need[arg->sel & 3] |= 1u << (arg->swz[c] & 7);
}

/* A product's factor matters only where the other factor is not the
 * constant-0 swizzle (0 * x = 0, even for a poisoned x). */
static void need_product(unsigned need[4], const struct r500_arg *a, const struct r500_arg *b,
			 unsigned lanes, int nswz)
{
	unsigned la = 0, lb = 0;
	for (int c = 0; c < nswz; c++) {
		if ((b->swz[c] & 7) != R500_SWZ_ZERO)
			la |= 1u << c;
		if ((a->swz[c] & 7) != R500_SWZ_ZERO)
			lb |= 1u << c;
	}
	need_arg(need, a, lanes & la, nswz);
	need_arg(need, b, lanes & lb, nswz);
}

static unsigned rgb_kept(const struct r500_inst *in)
{
	unsigned keep = (in->cmn.rgb_wmask | in->cmn.rgb_omask) & 7;
	if ((in->cmn.type & 3) == R500_TYPE_ALU && in->alu.alu_wmask && !in->cmn.alu_result_sel)
		keep |= 1;
	return keep;
}

static bool alpha_kept(const struct r500_inst *in)
{
	const struct r500_cmn *m = &in->cmn;
	if (m->alpha_wmask || m->alpha_omask)
		return true;
	if ((m->type & 3) == R500_TYPE_OUT && in->alu.w_omask)
		return true;
	if ((m->type & 3) == R500_TYPE_ALU && in->alu.alu_wmask && m->alu_result_sel)
		return true;
	return (in->alu.rgb_op & 15) == R500_ROP_SOP && rgb_kept(in);
}

static void rgb_need(const struct r500_inst *in, unsigned need[4])
{
	const struct r500_alu *alu = &in->alu;
	int rop = alu->rgb_op & 15;
	unsigned keep = rgb_kept(in);
	bool dot_used = keep || ((alu->alpha_op & 15) == R500_AOP_DP && alpha_kept(in));
	switch (rop) {
	case R500_ROP_MAD:
		need_arg(need, &alu->rgb_arg[2], keep, 3);
		need_product(need, &alu->rgb_arg[0], &alu->rgb_arg[1], keep, 3);
		break;
	case R500_ROP_CND: case R500_ROP_CMP:
		need_arg(need, &alu->rgb_arg[2], keep, 3);
		/* fall through */
	case R500_ROP_MIN: case R500_ROP_MAX:
		need_arg(need, &alu->rgb_arg[1], keep, 3);
		/* fall through */
	case R500_ROP_FRC:
		need_arg(need, &alu->rgb_arg[0], keep, 3);
		break;
	case R500_ROP_DP4:
		if (dot_used)
			need_product(need, &alu->alpha_arg[0], &alu->alpha_arg[1], 1, 1);
		/* fall through */
	case R500_ROP_DP3:
		if (dot_used)
			need_product(need, &alu->rgb_arg[0], &alu->rgb_arg[1], 7, 3);
		break;
	case R500_ROP_D2A:
		if (dot_used) {
			need_product(need, &alu->rgb_arg[0], &alu->rgb_arg[1], 3, 3);
			need_arg(need, &alu->rgb_arg[2], 4, 3);
		}
		break;
	case R500_ROP_MDH: case R500_ROP_MDV:
		need[0] |= keep;
		need_arg(need, &alu->rgb_arg[1], keep, 3);
		break;
	default:
		break;
	}
}

static void alpha_need(const struct r500_inst *in, unsigned need[4])
{
	const struct r500_alu *alu = &in->alu;
	int aop = alu->alpha_op & 15;
	if (!alpha_kept(in))
		return;
	switch (aop) {
	case R500_AOP_MAD:
		need_arg(need, &alu->alpha_arg[2], 1, 1);
		need_product(need, &alu->alpha_arg[0], &alu->alpha_arg[1], 1, 1);
		break;
	case R500_AOP_CND: case R500_AOP_CMP:
		need_arg(need, &alu->alpha_arg[2], 1, 1);
		/* fall through */
	case R500_AOP_MIN: case R500_AOP_MAX:
		need_arg(need, &alu->alpha_arg[1], 1, 1);
		need_arg(need, &alu->alpha_arg[0], 1, 1);
		break;
	case R500_AOP_MDH: case R500_AOP_MDV:
		need[0] |= 8;
		need_arg(need, &alu->alpha_arg[1], 1, 1);
		break;
	case R500_AOP_DP: case R500_AOP_RESERVED4:
		break;
	default: /* FRC and the transcendentals */
		need_arg(need, &alu->alpha_arg[0], 1, 1);
		break;
	}
}

static void check_reads(struct emu_ctx *ctx, const struct r500_inst *in,
			const struct alu_plan *pl)
{
	unsigned need[4] = { 0 };
	rgb_need(in, need);
	alpha_need(in, need);
	/* srcp reads src0 (and src1 for SUB/ADD) in the same channels */
	unsigned prgb = need[SRCP] & 7, pa = need[SRCP] & 8;
	need[0] |= prgb | pa;
	if ((in->alu.rgb_addr.srcp_op & 3) == R500_SRCP_SUB ||
	    (in->alu.rgb_addr.srcp_op & 3) == R500_SRCP_ADD)
		need[1] |= prgb;
	if ((in->alu.alpha_addr.srcp_op & 3) == R500_SRCP_SUB ||
	    (in->alu.alpha_addr.srcp_op & 3) == R500_SRCP_ADD)
		need[1] |= pa;
	for (int k = 0; k < 3; k++) {
		emu_check_read(ctx, pl->temp[0][k], need[k] & 7, in->alu.rgb_addr.src[k].rel & 1);
		emu_check_read(ctx, pl->temp[1][k], need[k] & 8, in->alu.alpha_addr.src[k].rel & 1);
	}
}

/* ---- the operations ---- */

/* Raw result of a transcendental or other alpha op; `dot` is the RGB
 * unit's raw dot product, `nb` the quad neighbour's src0 for MDH/MDV. */
static float alpha_op(const struct r500_alu *alu, float src[4][4], float dot,
		      const float *src0_tl, const float *src0_nb)
{
	int aop = alu->alpha_op & 15;
	float a = in_alpha(src, &alu->alpha_arg[0]);
	float b = in_alpha(src, &alu->alpha_arg[1]);
	float c = in_alpha(src, &alu->alpha_arg[2]);
	switch (aop) {
	case R500_AOP_MAD: return emu_mad(a, b, c);
	case R500_AOP_DP: return dot;
	case R500_AOP_MIN: return a < b ? a : b;
	case R500_AOP_MAX: return a > b ? a : b;
	case R500_AOP_CND: return c > 0.5f ? a : b;
	case R500_AOP_CMP: return c >= 0.0f ? a : b;
	case R500_AOP_FRC: return emu_round((double)a - floor((double)a));
	case R500_AOP_MDH: case R500_AOP_MDV:
		return emu_mad(modify(src0_tl[3], alu->alpha_arg[0].mod), b,
			       modify(src0_nb[3], alu->alpha_arg[2].mod));
	default: return emu_transcendental(aop, a);
	}
}

static float rgb_dot(const struct r500_alu *alu, float src[4][4])
{
	float a[4], b[4];
	int rop = alu->rgb_op & 15;
	for (int c = 0; c < 3; c++) {
		a[c] = in_rgb(src, &alu->rgb_arg[0], c);
		b[c] = in_rgb(src, &alu->rgb_arg[1], c);
	}
	a[3] = in_alpha(src, &alu->alpha_arg[0]);
	b[3] = in_alpha(src, &alu->alpha_arg[1]);
	if (rop == R500_ROP_DP3)
		return emu_dot(a, b, 3, -0.0f);
	if (rop == R500_ROP_DP4)
		return emu_dot(a, b, 4, -0.0f);
	return emu_dot(a, b, 2, in_rgb(src, &alu->rgb_arg[2], 2)); /* D2A */
}

static float rgb_lane(const struct r500_alu *alu, float src[4][4], int c,
		      const float *src0_tl, const float *src0_nb)
{
	float a = in_rgb(src, &alu->rgb_arg[0], c);
	float b = in_rgb(src, &alu->rgb_arg[1], c);
	float cc = in_rgb(src, &alu->rgb_arg[2], c);
	switch (alu->rgb_op & 15) {
	case R500_ROP_MAD: return emu_mad(a, b, cc);
	case R500_ROP_MIN: return a < b ? a : b;
	case R500_ROP_MAX: return a > b ? a : b;
	case R500_ROP_CND: return cc > 0.5f ? a : b;
	case R500_ROP_CMP: return cc >= 0.0f ? a : b;
	case R500_ROP_FRC: return emu_round((double)a - floor((double)a));
	default: /* MDH, MDV */
		return emu_mad(modify(src0_tl[c], alu->rgb_arg[0].mod), b,
			       modify(src0_nb[c], alu->rgb_arg[2].mod));
	}
}

/* Both units' results after OMOD and clamp (clamp after OMOD, §12). */
static void compute(const struct r500_inst *in, float src[4][4], const float *tl,
		    const float *nb_h, const float *nb_v, struct alu_res *r)
{
	const struct r500_alu *alu = &in->alu;
	int rop = alu->rgb_op & 15, aop = alu->alpha_op & 15;
	float dot = is_dot(rop) ? rgb_dot(alu, src) : 0.0f;
	float araw = alpha_op(alu, src, dot, tl, aop == R500_AOP_MDV ? nb_v : nb_h);
	for (int c = 0; c < 3; c++) {
		float v;
		if (is_dot(rop))
			v = dot;
		else if (rop == R500_ROP_SOP)
			v = araw;
		else
			v = rgb_lane(alu, src, c, tl, rop == R500_ROP_MDV ? nb_v : nb_h);
		r->rgb[c] = emu_omod_clamp(v, alu->rgb_omod & 7, in->cmn.rgb_clamp & 1);
	}
	r->a = emu_omod_clamp(araw, alu->alpha_omod & 7, in->cmn.alpha_clamp & 1);
}

/* Invalid encodings are runtime faults (never guessed at). */
static bool validate(struct emu_ctx *ctx, const struct r500_alu *alu)
{
	int rop = alu->rgb_op & 15, aop = alu->alpha_op & 15;
	if (rop == R500_ROP_RESERVED6 || rop >= R500_ROP_RESERVED13)
		return emu_fail(ctx, "slot %d: reserved RGB opcode %d", ctx->pc, rop);
	if (aop == R500_AOP_RESERVED4)
		return emu_fail(ctx, "slot %d: reserved alpha opcode %d", ctx->pc, aop);
	if (rop == R500_ROP_SOP && !is_transcendental(aop))
		return emu_fail(ctx, "slot %d: RGB SOP without a transcendental alpha op", ctx->pc);
	if (aop == R500_AOP_DP && !is_dot(rop))
		return emu_fail(ctx, "slot %d: alpha DP without an RGB dot product", ctx->pc);
	return true;
}

/* Writes of pixel i; *wrote collects the temporary channels written
 * (bit c of RGB destination, bit 4 + 3 for the alpha one). */
static void write_pixel(struct emu_ctx *ctx, long i, const struct r500_inst *in,
			const struct alu_plan *pl, const struct alu_res *r, unsigned *wrote)
{
	const struct r500_cmn *m = &in->cmn;
	const struct r500_alu *alu = &in->alu;
	struct emu_pixel *px = &ctx->px[i];
	if (!emu_pixel_writes(px, m))
		return;
	bool prgb[3], pa = emu_pred_alpha(px, m);
	for (int c = 0; c < 3; c++)
		prgb[c] = emu_pred_rgb(px, m, c);
	float (*t)[4] = emu_temps(ctx, i);
	uint8_t *written = emu_written(ctx, i);
	for (int c = 0; c < 3; c++)
		if (m->rgb_wmask >> c & 1 && prgb[c]) {
			t[pl->drgb][c] = r->rgb[c];
			written[pl->drgb] |= (uint8_t)(1u << c);
			*wrote |= 1u << c;
		}
	if (m->alpha_wmask & 1 && pa) {
		t[pl->da][3] = r->a;
		written[pl->da] |= 8;
		*wrote |= 0x80;
	}
	if ((m->type & 3) == R500_TYPE_OUT) {
		if (px->at < 0)
			return; /* a helper pixel's latches go nowhere */
		struct emu_image *img = ctx->img;
		for (int c = 0; c < 3; c++)
			if (m->rgb_omask >> c & 1 && prgb[c])
				img->rt[alu->rgb_target & 3][px->at * 4 + c] = r->rgb[c];
		if (m->alpha_omask & 1 && pa)
			img->rt[alu->alpha_target & 3][px->at * 4 + 3] = r->a;
		if (alu->w_omask & 1 && pa)
			img->depth[px->at] = r->a;
		return;
	}
	uint8_t pred = px->pred;
	for (int c = 0; c < 3; c++)
		if (m->rgb_omask >> c & 1 && prgb[c])
			pred = (uint8_t)((pred & ~(1u << c)) |
					 (unsigned)emu_compare(r->rgb[c], alu->rgb_target) << c);
	if (m->alpha_omask & 1 && pa)
		pred = (uint8_t)((pred & ~8u) | (unsigned)emu_compare(r->a, alu->alpha_target) << 3);
	px->pred = pred;
	if (alu->alu_wmask & 1 && (m->alu_result_sel ? pa : prgb[0]))
		px->alu_result = emu_compare(m->alu_result_sel ? r->a : r->rgb[0],
					     m->alu_result_op);
}

/* Does any pixel of quad q write anything at this slot? */
static bool quad_writes(const struct emu_ctx *ctx, long q, const struct r500_cmn *m)
{
	const struct emu_pixel *px = &ctx->px[q * EMU_QUAD];
	if (m->write_inactive)
		return true;
	for (int i = 0; i < EMU_QUAD; i++)
		if (px[i].flow == EMU_ACTIVE)
			return true;
	return false;
}

bool emu_exec_alu(struct emu_ctx *ctx, const struct r500_inst *in)
{
	const struct r500_alu *alu = &in->alu;
	struct alu_plan pl;
	if (!validate(ctx, alu))
		return false;
	plan_alu(ctx, alu, &pl);
	check_reads(ctx, in, &pl);
	long nquads = ctx->npx / EMU_QUAD;
	unsigned wrote = 0;
	for (long q = 0; q < nquads; q++) {
		float src[EMU_QUAD][4][4];
		struct alu_res res[EMU_QUAD];
		long base = q * EMU_QUAD;
		if (!quad_writes(ctx, q, &in->cmn))
			continue;
		for (int i = 0; i < EMU_QUAD; i++)
			fetch_sources(&pl, emu_temps(ctx, base + i), alu, src[i]);
		/* MDH/MDV: pixel 0 is the quad's top-left, 1 its right
		 * neighbour, 2 the one above in GL rows (§12) */
		for (int i = 0; i < EMU_QUAD; i++)
			compute(in, src[i], src[0][0], src[1][0], src[2][0], &res[i]);
		for (int i = 0; i < EMU_QUAD; i++)
			write_pixel(ctx, base + i, in, &pl, &res[i], &wrote);
	}
	emu_note_slot_write(ctx, pl.drgb, wrote & 7);
	emu_note_slot_write(ctx, pl.da, wrote >> 4);
	if ((in->cmn.type & 3) == R500_TYPE_ALU && (alu->alu_wmask & 1))
		ctx->alu_valid = true;
	return true;
}
