/* The emulator's driver (INTERFACES.md §5, ISA.md §6): splits the
 * rectangle into 2x2 quads, interpolates the inputs into their
 * temporaries, steps each quad through the program with one shared PC,
 * and emits the latched outputs.  Execution of one slot lives in
 * emu_alu.c, emu_tex.c and emu_fc.c. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu_internal.h"

enum { EMU_MAX_DIM = 16384, EMU_MAX_WARN = 64 * 1024 };

void emu_warn(struct emu_ctx *ctx, int pc, int kind, const char *fmt, ...)
{
	if (pc < 0 || pc >= R500_MAX_SLOTS || kind < 0 || kind > 2 || ctx->warned[pc][kind])
		return;
	ctx->warned[pc][kind] = 1;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	line[n] = 0;
	if (ctx->warn_len + (size_t)n + 1 > ctx->warn_cap) {
		if (ctx->warn_len + (size_t)n + 1 > EMU_MAX_WARN)
			return;
		size_t cap = ctx->warn_cap ? ctx->warn_cap * 2 : 1024;
		while (cap < ctx->warn_len + (size_t)n + 1)
			cap *= 2;
		char *w = realloc(ctx->warn, cap);
		if (!w)
			return;
		ctx->warn = w;
		ctx->warn_cap = cap;
	}
	memcpy(ctx->warn + ctx->warn_len, line, (size_t)n + 1);
	ctx->warn_len += (size_t)n;
}

bool emu_fail(struct emu_ctx *ctx, const char *fmt, ...)
{
	if (!ctx->fault && ctx->why && ctx->why_len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ctx->why, ctx->why_len, fmt, ap);
		va_end(ap);
	}
	ctx->fault = true;
	return false;
}

int emu_al(const struct emu_quad *q)
{
	return q->nloops ? q->loops[q->nloops - 1].al : 0;
}

bool emu_pixel_writes(const struct emu_pixel *px, const struct r500_cmn *cmn)
{
	return px->flow == EMU_ACTIVE || cmn->write_inactive;
}

/* Predicate select for channel c (0..2) of the RGB unit (§3, §6.6). */
bool emu_pred_rgb(const struct emu_pixel *px, const struct r500_cmn *cmn, int c)
{
	int sel = cmn->rgb_pred_sel & 7;
	bool bit;
	if (sel == R500_PRED_NONE)
		return true;
	if (sel == R500_PRED_RGBA)
		bit = px->pred >> c & 1;
	else if (sel <= R500_PRED_AAAA)
		bit = px->pred >> (sel - R500_PRED_RRRR) & 1;
	else
		bit = false; /* 6, 7 undefined: never write */
	return bit != (cmn->rgb_pred_inv & 1);
}

bool emu_pred_alpha(const struct emu_pixel *px, const struct r500_cmn *cmn)
{
	int sel = cmn->alpha_pred_sel & 7;
	bool bit;
	if (sel == R500_PRED_NONE)
		return true;
	if (sel == R500_PRED_RGBA || sel == R500_PRED_AAAA)
		bit = px->pred >> 3 & 1;
	else if (sel <= R500_PRED_BBBB)
		bit = px->pred >> (sel - R500_PRED_RRRR) & 1;
	else
		bit = false;
	return bit != (cmn->alpha_pred_inv & 1);
}

/* Hazard reports for a read of `mask` components of temporary `temp` by
 * the active pixels of the quad: never written (poison) or a TEX result
 * not yet covered by ACQUIRE+WAIT (§6.9). */
void emu_check_read(struct emu_ctx *ctx, struct emu_quad *q, int pc, int temp,
		    unsigned mask)
{
	static const char chan[4] = { 'x', 'y', 'z', 'w' };
	mask &= 15;
	if (!mask || temp < 0 || temp >= R500_NUM_TEMPS)
		return;
	unsigned stale = (q->tex_pending[temp] | q->tex_acquired[temp]) & mask;
	if (stale) {
		int c = __builtin_ctz(stale);
		emu_warn(ctx, pc, 1, "slot %d: reads t%d.%c, written by a TEX not yet "
			 "covered by ACQUIRE+WAIT", pc, temp, chan[c]);
	}
	for (int i = 0; i < EMU_QUAD; i++) {
		const struct emu_pixel *px = &q->px[i];
		unsigned unwritten = mask & ~px->written[temp];
		if (px->flow != EMU_ACTIVE || !unwritten)
			continue;
		emu_warn(ctx, pc, 0, "slot %d: reads t%d.%c, never written",
			 pc, temp, chan[__builtin_ctz(unwritten)]);
		break;
	}
}

void emu_note_write(struct emu_quad *q, struct emu_pixel *px, int temp, int c)
{
	px->written[temp] |= (uint8_t)(1u << c);
	q->tex_pending[temp] &= (uint8_t)~(1u << c);
	q->tex_acquired[temp] &= (uint8_t)~(1u << c);
}

/* Component index of an input-table letter (xyzw, rgba, stpq). */
static int component_index(char ch)
{
	static const char *const sets[] = { "xyzw", "rgba", "stpq" };
	for (int s = 0; s < 3; s++)
		for (int c = 0; c < 4; c++)
			if (sets[s][c] == ch)
				return c;
	return -1;
}

static const struct emu_varying *find_varying(const struct emu_config *cfg, const char *name)
{
	for (int i = 0; i < cfg->nvaryings && cfg->varyings; i++)
		if (cfg->varyings[i].name && name && !strcmp(cfg->varyings[i].name, name))
			return &cfg->varyings[i];
	return NULL;
}

/* The value the rasterizer delivers for input `name` at pixel (x, y). */
static void input_value(const struct emu_config *cfg, const char *name, int x, int y,
			float v[4])
{
	double fx = (x + 0.5) / cfg->width, fy = (y + 0.5) / cfg->height;
	const struct emu_varying *var = name ? find_varying(cfg, name) : NULL;
	if (var) {
		for (int c = 0; c < 4; c++) {
			double bot = var->corners[0][c] * (1 - fx) + var->corners[1][c] * fx;
			double top = var->corners[2][c] * (1 - fx) + var->corners[3][c] * fx;
			v[c] = emu_round(bot * (1 - fy) + top * fy);
		}
	} else if (name && !strcmp(name, "gl_FragCoord")) {
		v[0] = (float)(x + 0.5); v[1] = (float)(y + 0.5); v[2] = 0.5f; v[3] = 1.0f;
	} else if (name && !strcmp(name, "gl_FrontFacing")) {
		v[0] = 1.0f; v[1] = 0.0f; v[2] = 0.0f; v[3] = 1.0f;
	} else {
		v[0] = (float)fx; v[1] = (float)fy; v[2] = 0.0f; v[3] = 1.0f;
	}
}

static bool quad_init(struct emu_ctx *ctx, struct emu_quad *q, int qx, int qy)
{
	const struct r500_program *p = ctx->p;
	memset(q, 0, sizeof *q);
	q->skip_endloop = -1;
	for (int i = 0; i < EMU_QUAD; i++) {
		struct emu_pixel *px = &q->px[i];
		px->x = qx + (i & 1);
		px->y = qy + (i >> 1);
		px->covered = px->x < ctx->cfg->width && px->y < ctx->cfg->height;
		px->depth = 0.5f;
		memcpy(px->t, ctx->poison, sizeof px->t);
		for (int k = 0; k < p->ninputs; k++) {
			const struct r500_input *in = &p->inputs[k];
			if (in->temp < 0 || in->temp >= R500_NUM_TEMPS)
				return emu_fail(ctx, "input '%s' in temporary %d, out of range",
						in->name ? in->name : "?", in->temp);
			float v[4];
			input_value(ctx->cfg, in->name, px->x, px->y, v);
			for (int j = 0; j < 4 && in->components[j]; j++) {
				int c = component_index(in->components[j]);
				if (c < 0)
					continue;
				px->t[in->temp][c] = emu_flush(v[c]);
				px->written[in->temp] |= (uint8_t)(1u << c);
			}
		}
	}
	return true;
}

static bool quad_run(struct emu_ctx *ctx, struct emu_quad *q)
{
	const struct r500_program *p = ctx->p;
	long max = ctx->cfg->max_steps > 0 ? ctx->cfg->max_steps : EMU_DEFAULT_STEPS;
	int last = -1;
	for (long steps = 0; q->pc >= 0 && q->pc < p->ninst; steps++) {
		if (steps >= max)
			return emu_fail(ctx, "runaway program: more than %ld instructions "
					"executed for the quad at (%d,%d)", max,
					q->px[0].x, q->px[0].y);
		const struct r500_inst *in = &p->code[q->pc];
		if (in->cmn.tex_sem_wait)
			memset(q->tex_acquired, 0, sizeof q->tex_acquired);
		bool ok;
		switch (in->cmn.type & 3) {
		case R500_TYPE_FC: ok = emu_exec_fc(ctx, q, in); break;
		case R500_TYPE_TEX: ok = emu_exec_tex(ctx, q, in); q->pc++; break;
		default: ok = emu_exec_alu(ctx, q, in); q->pc++; break;
		}
		if (!ok)
			return false;
		last = (int)(in - p->code);
	}
	if (last >= 0 && (p->code[last].cmn.type & 3) != R500_TYPE_OUT)
		emu_warn(ctx, last, 2, "slot %d: the program ends on a slot that is not OUT", last);
	return true;
}

/* Latched outputs of the quad's covered pixels go to the image. */
static void quad_emit(const struct emu_quad *q, struct emu_image *img)
{
	for (int i = 0; i < EMU_QUAD; i++) {
		const struct emu_pixel *px = &q->px[i];
		if (!px->covered)
			continue;
		size_t at = (size_t)px->y * (size_t)img->width + (size_t)px->x;
		for (int r = 0; r < R500_NUM_TARGETS; r++)
			memcpy(&img->rt[r][at * 4], px->rt[r], sizeof px->rt[r]);
		img->depth[at] = px->depth;
		img->discarded[at] = px->killed;
	}
}

void emu_image_free(struct emu_image *img)
{
	if (!img)
		return;
	for (int r = 0; r < R500_NUM_TARGETS; r++)
		free(img->rt[r]);
	free(img->depth);
	free(img->discarded);
	free(img->warnings);
	memset(img, 0, sizeof *img);
}

static bool image_alloc(struct emu_image *img, int w, int h)
{
	size_t n = (size_t)w * (size_t)h;
	memset(img, 0, sizeof *img);
	img->width = w;
	img->height = h;
	for (int r = 0; r < R500_NUM_TARGETS; r++)
		if (!(img->rt[r] = calloc(n * 4, sizeof(float))))
			return false;
	img->depth = calloc(n, sizeof(float));
	img->discarded = calloc(n, sizeof(bool));
	return img->depth && img->discarded;
}

static bool program_check(struct emu_ctx *ctx)
{
	const struct r500_program *p = ctx->p;
	if (!p->code || p->ninst <= 0)
		return emu_fail(ctx, "the program has no instructions");
	if (p->ninst > R500_MAX_SLOTS)
		return emu_fail(ctx, "the program has %d instructions, more than %d",
				p->ninst, R500_MAX_SLOTS);
	if (p->ninputs && !p->inputs)
		return emu_fail(ctx, "the program's input table is missing");
	return true;
}

bool emu_run(const struct r500_program *p, const struct emu_config *cfg,
	     struct emu_image *out, char *why, size_t why_len)
{
	if (why && why_len)
		why[0] = 0;
	if (!out)
		return false;
	memset(out, 0, sizeof *out);
	if (!p || !cfg) {
		if (why && why_len)
			snprintf(why, why_len, "no program or configuration");
		return false;
	}
	if (cfg->width < 1 || cfg->height < 1 || cfg->width > EMU_MAX_DIM ||
	    cfg->height > EMU_MAX_DIM) {
		if (why && why_len)
			snprintf(why, why_len, "bad size %dx%d", cfg->width, cfg->height);
		return false;
	}
	struct emu_ctx *ctx = calloc(1, sizeof *ctx);
	struct emu_quad *q = malloc(sizeof *q);
	bool ok = ctx && q;
	if (ok) {
		ctx->p = p;
		ctx->cfg = cfg;
		ctx->why = why;
		ctx->why_len = why_len;
		ok = program_check(ctx);
	} else if (why && why_len) {
		snprintf(why, why_len, "out of memory");
	}
	if (ok) {
		for (int t = 0; t < R500_NUM_TEMPS; t++)
			for (int c = 0; c < 4; c++)
				ctx->poison[t][c] = NAN;
		emu_bind_constants(ctx);
		if (!image_alloc(out, cfg->width, cfg->height))
			ok = emu_fail(ctx, "out of memory for a %dx%d image",
				      cfg->width, cfg->height);
	}
	for (int qy = 0; ok && qy < cfg->height; qy += 2)
		for (int qx = 0; ok && qx < cfg->width; qx += 2) {
			ok = quad_init(ctx, q, qx, qy) && quad_run(ctx, q);
			if (ok)
				quad_emit(q, out);
		}
	if (ctx && ok) {
		out->warnings = ctx->warn;
		ctx->warn = NULL;
	}
	if (!ok)
		emu_image_free(out);
	if (ctx)
		free(ctx->warn);
	free(ctx);
	free(q);
	return ok;
}
