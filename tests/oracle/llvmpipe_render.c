/* llvmpipe-render: renders a GLSL fragment shader with Mesa's llvmpipe,
 * with exactly the inputs and the output format of uscc-run
 * (INTERFACES.md §5), so that the two can be compared pixel by pixel.
 *
 *   llvmpipe-render FILE.frag [--size WxH] [--uniform NAME=x[,y,z,w...]]...
 *                   [--texture UNIT=FILE.png|checker|gradient|miptree]...
 *                   [--wrap UNIT=MODE]... [--filter UNIT=MIN[,MAG]]...
 *                   [--varying NAME=BL:BR:TL:TR] [--sampler NAME=UNIT]...
 *                   [--target N] [-o out.png] [--dump] [--probe X,Y]
 *                   [--fine-derivatives] [--verbose]
 *
 * Takes GLSL source, not a container.  Samplers get texture units in
 * declaration order, as uscc gives them; --sampler overrides one.  How the
 * inputs are reproduced in GL (varyings, discard, the R500's coarse
 * derivatives unless --fine-derivatives) is told in oracle_gl.c.
 * Exit status: 0 success, 1 the shader does not compile or link, 2 usage,
 * I/O or inputs GL cannot take, 3 no llvmpipe (no surfaceless EGL). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oracle_gl.h"
#include "oracle_scan.h"
#include "run_args.h"

/* llvmpipe-render's own options. */
struct render_extra {
	bool verbose, fine_derivatives;
	struct oracle_sampler samplers[ORACLE_UNITS * 2]; int nsamplers;
};

static const char usage[] =
	"usage: llvmpipe-render FILE.frag [--size WxH] [--uniform NAME=x[,y,z,w...]]...\n"
	"                [--texture UNIT=FILE.png|checker|gradient|miptree]...\n"
	"                [--wrap UNIT=MODE]... [--filter UNIT=MIN[,MAG]]...\n"
	"                [--varying NAME=BL:BR:TL:TR] [--sampler NAME=UNIT]...\n"
	"                [--target N] [-o out.png] [--dump] [--probe X,Y]\n"
	"                [--fine-derivatives] [--verbose]\n";

/* --sampler NAME=UNIT, unit 0..15. */
static bool parse_sampler(char *arg, struct render_extra *x)
{
	char *eq = strchr(arg, '=');
	if (x->nsamplers >= ORACLE_UNITS * 2 || !eq || eq == arg || !eq[1])
		return false;
	struct oracle_sampler *s = &x->samplers[x->nsamplers];
	if (!run_parse_int(eq + 1, &s->unit) || s->unit < 0 || s->unit >= ORACLE_UNITS)
		return false;
	*eq = 0;
	s->name = arg;
	x->nsamplers++;
	return true;
}

static int extra_option(void *ctx, int argc, char **argv, int *i, char *why, size_t why_len)
{
	struct render_extra *x = ctx;
	const char *v;
	if (!strcmp(argv[*i], "--fine-derivatives")) {
		x->fine_derivatives = true;
		return 1;
	}
	if (!strcmp(argv[*i], "--verbose")) {
		x->verbose = true;
		return 1;
	}
	int got = run_opt_value("llvmpipe-render", argc, argv, i, "--sampler", &v, why, why_len);
	if (got > 0 && !parse_sampler((char *)v, x)) {
		snprintf(why, why_len, "llvmpipe-render: bad sampler '%s' (want NAME=UNIT, "
			 "unit 0..15)", v);
		return -1;
	}
	return got;
}

/* The layout each unit's texture is loaded in: 1D for a 1D sampler (its
 * chain halves row 0 alone, as uscc-run's does), else 2D (oracle_gl.c puts
 * a 2D chain on cube faces and 3D slices itself).  Units as oracle_gl.c
 * gives them: --sampler, else declaration order. */
static void unit_targets(const char *src, const struct render_extra *x, int target[RUN_UNITS])
{
	struct frag_scan fs;
	char why[256];
	for (int u = 0; u < RUN_UNITS; u++)
		target[u] = IR_TARGET_2D;
	if (!scan_fragment(src, &fs, why, sizeof why))
		return; /* oracle_render reports it */
	int order = 0;
	for (int i = 0; i < fs.nsamplers; i++) {
		const struct scan_decl *d = &fs.samplers[i];
		bool one_d = !strncmp(d->type, "sampler1D", 9);
		for (int e = 0; e < (d->length ? d->length : 1); e++, order++) {
			char name[SCAN_NAME_LEN + 16];
			if (d->length)
				snprintf(name, sizeof name, "%s[%d]", d->name, e);
			else
				snprintf(name, sizeof name, "%s", d->name);
			int unit = order;
			for (int k = 0; k < x->nsamplers; k++)
				if (!strcmp(x->samplers[k].name, name))
					unit = x->samplers[k].unit;
			if (one_d && unit >= 0 && unit < RUN_UNITS)
				target[unit] = IR_TARGET_1D;
		}
	}
}

int main(int argc, char **argv)
{
	static struct run_opts o;
	static struct render_extra x;
	char why[4096];
	int st = run_parse_exit(run_args_parse(&o, "llvmpipe-render", argc, argv, extra_option,
					       &x, why, sizeof why), why, usage, stdout, stderr);
	if (st >= 0)
		return st;
	if (o.nvaryings > ORACLE_MAX_VARYINGS) {
		fprintf(stderr, "llvmpipe-render: too many varyings (at most %d)\n",
			ORACLE_MAX_VARYINGS);
		return 2;
	}
	_Static_assert((int)RUN_MAX_ITEMS <= (int)ORACLE_MAX_UNIFORMS, "oracle takes every uniform");
	char *src = run_read_file(o.file, NULL);
	if (!src) {
		fprintf(stderr, "llvmpipe-render: cannot read %s: %s\n", o.file, strerror(errno));
		return 2;
	}
	struct oracle_job job = {
		.frag_src = src, .width = o.width, .height = o.height,
		.varyings = o.varyings, .nvaryings = o.nvaryings,
		.uniforms = o.uniforms, .nuniforms = o.nuniforms,
		.samplers = x.samplers, .nsamplers = x.nsamplers,
		.verbose = x.verbose, .fine_derivatives = x.fine_derivatives,
	};
	struct run_textures tex;
	int status = 2, target[RUN_UNITS];
	unit_targets(src, &x, target);
	if (!run_textures_load(&tex, &o, target, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
	} else {
		for (int u = 0; u < ORACLE_UNITS && u < RUN_UNITS; u++)
			job.textures[u] = (struct oracle_texture){ tex.img[u].width, tex.img[u].height,
								   tex.img[u].texels, tex.img[u].filter,
								   tex.img[u].wrap, tex.img[u].levels,
								   tex.img[u].mag };
		struct oracle_image img;
		enum oracle_status st = oracle_render(&job, &img, why, sizeof why);
		if (st == ORACLE_OK) {
			struct run_image out = { img.width, img.height, img.rt[o.target],
						 img.discarded };
			status = 0;
			if (!run_report(stdout, &o, &out, why, sizeof why)) {
				fprintf(stderr, "%s\n", why);
				status = 2;
			}
			oracle_image_free(&img);
		} else {
			fprintf(stderr, "%s: error: %s\n", o.file, why);
			status = (int)st;
		}
		run_textures_free(&tex);
	}
	free(src);
	return status;
}
