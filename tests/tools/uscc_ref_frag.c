/* uscc-ref's fragment mode: the IR interpreter over the rectangle in 2x2
 * quads, with the inputs uscc-run's emulator delivers (runtime/emu.c):
 * varyings bilinear between the given corners at pixel centres, else
 * (u, v, 0, 1); gl_FragCoord the pixel centre (x+0.5, y+0.5, 0.5, 1);
 * gl_FrontFacing (1, 0, 0, 1).  Pixels of a quad beyond the rectangle
 * run as helpers (inputs extrapolated, results dropped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir_interp.h"
#include "uscc_ref.h"

struct image {
	int width, height;
	float *rt[4];      /* [(y*width + x)*4 + c] */
	float *depth;
	bool *discarded;
};

static const struct run_varying *find_varying(const struct ref_opts *o, const char *name)
{
	for (int i = 0; i < o->run.nvaryings; i++)
		if (!strcmp(o->run.varyings[i].name, name))
			return &o->run.varyings[i];
	return NULL;
}

static void input_value(const struct ref_opts *o, const char *name, int x, int y, float v[4])
{
	double fx = (x + 0.5) / o->run.width, fy = (y + 0.5) / o->run.height;
	const struct run_varying *var = find_varying(o, name);
	if (var) {
		for (int c = 0; c < 4; c++) {
			double bot = var->corners[0][c] * (1 - fx) + var->corners[1][c] * fx;
			double top = var->corners[2][c] * (1 - fx) + var->corners[3][c] * fx;
			v[c] = (float)(bot * (1 - fy) + top * fy);
		}
	} else if (!strcmp(name, "gl_FragCoord")) {
		v[0] = (float)(x + 0.5); v[1] = (float)(y + 0.5); v[2] = 0.5f; v[3] = 1.0f;
	} else if (!strcmp(name, "gl_FrontFacing")) {
		v[0] = 1.0f; v[1] = 0.0f; v[2] = 0.0f; v[3] = 1.0f;
	} else {
		v[0] = (float)fx; v[1] = (float)fy; v[2] = 0.0f; v[3] = 1.0f;
	}
}

static bool image_alloc(struct image *img, int w, int h)
{
	size_t n = (size_t)w * (size_t)h;
	memset(img, 0, sizeof *img);
	img->width = w;
	img->height = h;
	for (int r = 0; r < 4; r++)
		if (!(img->rt[r] = calloc(n * 4, sizeof(float))))
			return false;
	img->depth = malloc(n * sizeof(float));
	img->discarded = calloc(n, sizeof(bool));
	if (!img->depth || !img->discarded)
		return false;
	for (size_t i = 0; i < n; i++)
		img->depth[i] = 0.5f; /* what uscc-run keeps where no depth is written */
	return true;
}

static void image_free(struct image *img)
{
	for (int r = 0; r < 4; r++)
		free(img->rt[r]);
	free(img->depth);
	free(img->discarded);
}

/* Keeps the covered pixels' results of one quad. */
static void store_quad(struct image *img, const struct ir_func *f, int qx, int qy,
		       const struct ir_interp_result *res)
{
	for (int p = 0; p < 4; p++) {
		int x = qx + (p & 1), y = qy + (p >> 1);
		if (x >= img->width || y >= img->height)
			continue;
		size_t at = (size_t)y * (size_t)img->width + (size_t)x;
		img->discarded[at] = res->discarded[p];
		for (int k = 0; k < f->noutputs && k < 8; k++) {
			const struct ir_output *out = &f->outputs[k];
			if (!res->written[k])
				continue;
			if (out->target < 0)
				img->depth[at] = res->outputs[k][p][0];
			else if (out->target < 4)
				for (int c = 0; c < out->ncomp && c < 4; c++)
					img->rt[out->target][at * 4 + c] = res->outputs[k][p][c];
		}
	}
}

/* Renders the rectangle; false after a message on a runtime failure. */
static bool render(const struct ref_opts *o, const struct ir_func *f,
		   const struct run_textures *tex, const float (*uni)[4], struct image *img)
{
	size_t nin = f->ninputs > 0 ? (size_t)f->ninputs : 1;
	float (*ins)[4][4] = calloc(nin, sizeof *ins);
	const float (**in_ptrs)[4] = calloc(nin, sizeof *in_ptrs);
	struct arena *arena = arena_create(&mem_default_allocator);
	bool ok = ins && in_ptrs && arena;
	if (!ok)
		fprintf(stderr, "uscc-ref: out of memory\n");
	for (int i = 0; ok && i < f->ninputs; i++)
		in_ptrs[i] = (const float (*)[4])ins[i];
	for (int qy = 0; ok && qy < o->run.height; qy += 2) {
		for (int qx = 0; ok && qx < o->run.width; qx += 2) {
			struct ir_interp_env env = { .inputs = in_ptrs, .uniform_values = uni,
						     .textures = tex->img, .ntextures = RUN_UNITS };
			for (int p = 0; p < 4; p++) {
				int x = qx + (p & 1), y = qy + (p >> 1);
				env.covered[p] = x < o->run.width && y < o->run.height;
				for (int i = 0; i < f->ninputs; i++)
					input_value(o, f->inputs[i].name, x, y, ins[i][p]);
			}
			struct diag_sink diag;
			struct ir_interp_result res;
			diag_init(&diag, arena);
			if (!ir_interp_quad(f, &env, &res, &diag)) {
				fprintf(stderr, "%s: error: interpreting the quad at (%d,%d) failed\n%s",
					o->run.file, qx, qy, diag_render(&diag));
				ok = false;
				break;
			}
			store_quad(img, f, qx, qy, &res);
		}
	}
	arena_destroy(arena);
	free(ins);
	free(in_ptrs);
	return ok;
}

static int report(const struct run_opts *o, const struct image *img)
{
	struct run_image out = { img->width, img->height, img->rt[o->target], img->discarded };
	char why[512];
	if (!run_report(stdout, o, &out, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return 2;
	}
	return 0;
}

int ref_run_fragment(const struct ref_opts *o, const struct ir_func *f)
{
	struct run_textures tex;
	if (!ref_textures_load(&tex, o, f))
		return 2;
	float (*uni)[4] = ref_uniform_values(o, f);
	struct image img;
	int status = 2;
	if (!uni || !image_alloc(&img, o->run.width, o->run.height))
		fprintf(stderr, "uscc-ref: out of memory\n");
	else if (!render(o, f, &tex, (const float (*)[4])uni, &img))
		status = 1;
	else
		status = report(&o->run, &img);
	if (uni)
		image_free(&img);
	free(uni);
	run_textures_free(&tex);
	return status;
}
