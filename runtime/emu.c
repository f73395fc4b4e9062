/* The emulator's driver (INTERFACES.md §5, ISA.md §6, §12): lays the
 * rectangle out as 2x2 quads (helper pixels pad it to whole quads),
 * interpolates the inputs into every pixel's temporaries, then runs the
 * program once for the whole draw - all pixels share one program counter,
 * one loop stack and one address stack (§12) - and latches the outputs
 * straight into the image.  Execution of one slot over the draw lives in
 * emu_alu.c, emu_tex.c and emu_fc.c; the draw's storage in emu_draw.c.
 * The driver sits on top: it calls those files and the base they share
 * (emu_internal.h), and none of them calls back into it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu_internal.h"
#include "r300_conventions.h"

enum { EMU_MAX_DIM = 16384 };

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
	} else if (name && !strcmp(name, R300_POSITION_INPUT)) {
		/* r300's WPOS: the clip-space position of a full-screen quad */
		v[0] = (float)(2 * fx - 1); v[1] = (float)(2 * fy - 1); v[2] = 0.0f; v[3] = 1.0f;
	} else if (name && !strcmp(name, R300_BACKFACE_INPUT)) {
		v[0] = 0.0f; v[1] = 0.0f; v[2] = 0.0f; v[3] = 1.0f; /* a front face */
	} else {
		v[0] = (float)fx; v[1] = (float)fy; v[2] = 0.0f; v[3] = 1.0f;
	}
}

/* Interpolated inputs into every pixel's frame (helpers included: they
 * get the values the plane equations give outside the rectangle). */
static bool draw_inputs(struct emu_ctx *ctx)
{
	const struct r500_program *p = ctx->p;
	for (int k = 0; k < p->ninputs; k++) {
		const struct r500_input *in = &p->inputs[k];
		if (in->temp < 0 || in->temp >= ctx->ntemps)
			return emu_fail(ctx, "input '%s' in temporary %d, out of range",
					in->name ? in->name : "?", in->temp);
	}
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_pixel *px = &ctx->px[i];
		float (*t)[4] = emu_temps(ctx, i);
		uint8_t *written = emu_written(ctx, i);
		for (int k = 0; k < p->ninputs; k++) {
			const struct r500_input *in = &p->inputs[k];
			float v[4];
			input_value(ctx->cfg, in->name, px->x, px->y, v);
			for (int j = 0; j < 4 && in->components[j]; j++) {
				int c = component_index(in->components[j]);
				if (c < 0)
					continue;
				t[in->temp][c] = emu_flush(v[c]);
				written[in->temp] |= (uint8_t)(1u << c);
			}
		}
	}
	return true;
}

long emu_default_steps(int width, int height)
{
	long quads = (long)((width + 1) / 2) * (long)((height + 1) / 2);
	long max = EMU_DEFAULT_WORK / (quads > 0 ? quads : 1);
	if (max > EMU_DEFAULT_STEPS)
		max = EMU_DEFAULT_STEPS;
	return max < EMU_MIN_DEFAULT_STEPS ? EMU_MIN_DEFAULT_STEPS : max;
}

/* The draw's one sequencer: every slot runs over all pixels at once, up
 * to the step bound (the configured one, else EMU_DEFAULT_STEPS scaled
 * down for large draws, since each step costs a pass over all quads), so
 * that a runaway program stops in bounded time. */
static bool draw_run(struct emu_ctx *ctx)
{
	const struct r500_program *p = ctx->p;
	const struct emu_config *cfg = ctx->cfg;
	long max = cfg->max_steps > 0 ? cfg->max_steps
				      : emu_default_steps(cfg->width, cfg->height);
	int last = -1;
	ctx->pc = 0;
	ctx->skip_endloop = -1;
	for (ctx->steps = 0; ctx->pc >= 0 && ctx->pc < p->ninst; ctx->steps++) {
		if (ctx->steps >= max) {
			ctx->step_limit = true;
			return emu_fail(ctx, "runaway program: the step bound of %ld steps (%s) "
					"was reached at slot %d (one program counter for the "
					"whole draw)", max, cfg->max_steps > 0 ? "max_steps"
					: "the default for this draw size", ctx->pc);
		}
		const struct r500_inst *in = &p->code[ctx->pc];
		if (ctx->cost)
			emu_cost_slot(ctx, in);
		if (in->cmn.tex_sem_wait)
			memset(ctx->tex_acquired, 0, sizeof ctx->tex_acquired);
		bool ok;
		last = ctx->pc;
		switch (in->cmn.type & 3) {
		case R500_TYPE_FC: ok = emu_exec_fc(ctx, in); break;
		case R500_TYPE_TEX: ok = emu_exec_tex(ctx, in); ctx->pc++; break;
		default: ok = emu_exec_alu(ctx, in); ctx->pc++; break;
		}
		if (!ok)
			return false;
	}
	if (last >= 0 && (p->code[last].cmn.type & 3) != R500_TYPE_OUT)
		emu_warn(ctx, last, 2, "slot %d: the program ends on a slot that is not OUT", last);
	return true;
}

/* Outputs were latched straight into the image; discards follow kills. */
static void draw_emit(const struct emu_ctx *ctx, struct emu_image *img)
{
	for (long i = 0; i < ctx->npx; i++)
		if (ctx->px[i].at >= 0)
			img->discarded[ctx->px[i].at] = ctx->px[i].killed;
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
	free(img->stats);
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
	img->depth = malloc(n * sizeof(float));
	img->discarded = calloc(n, sizeof(bool));
	if (!img->depth || !img->discarded)
		return false;
	for (size_t i = 0; i < n; i++)
		img->depth[i] = 0.5f; /* what a pixel writing no depth keeps */
	return true;
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
	bool ok = ctx != NULL;
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
		emu_bind_constants(ctx);
		ok = emu_draw_alloc(ctx, cfg->width, cfg->height);
	}
	if (ok && !image_alloc(out, cfg->width, cfg->height))
		ok = emu_fail(ctx, "out of memory for a %dx%d image", cfg->width, cfg->height);
	if (ok && cfg->stats)
		ok = emu_cost_alloc(ctx, out);
	if (ok) {
		ctx->img = out;
		ok = draw_inputs(ctx) && draw_run(ctx);
	}
	if (ok) {
		draw_emit(ctx, out);
		if (ctx->cost)
			emu_cost_finish(ctx, out);
		out->warnings = ctx->warn;
		ctx->warn = NULL;
	}
	if (!ok)
		emu_image_free(out);
	if (ctx) {
		out->steps = ctx->steps;
		out->step_limit = ctx->step_limit;
		emu_draw_free(ctx);
		free(ctx->warn);
	}
	free(ctx);
	return ok;
}
