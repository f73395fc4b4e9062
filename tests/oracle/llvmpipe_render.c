/* llvmpipe-render: renders a GLSL fragment shader with Mesa's llvmpipe,
 * with exactly the inputs and the output format of uscc-run
 * (INTERFACES.md §5), so that the two can be compared pixel by pixel.
 *
 *   llvmpipe-render FILE.frag [--size WxH] [--uniform NAME=x[,y,z,w...]]...
 *                   [--texture UNIT=FILE.png|checker|gradient]...
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
#include "builtin_textures.h"
#include "oracle_gl.h"
#include "png_io.h"

enum { MAX_PROBES = 64 };

struct render_opts {
	const char *file, *out_png;
	int width, height, target;
	bool dump, verbose, fine_derivatives;
	struct oracle_uniform uniforms[ORACLE_MAX_UNIFORMS]; int nuniforms;
	struct oracle_varying varyings[ORACLE_MAX_VARYINGS]; int nvaryings;
	struct oracle_sampler samplers[ORACLE_UNITS * 2]; int nsamplers;
	const char *tex_spec[ORACLE_UNITS];
	int probes[MAX_PROBES][2]; int nprobes;
};

static void usage(FILE *f)
{
	fputs("usage: llvmpipe-render FILE.frag [--size WxH] [--uniform NAME=x[,y,z,w...]]...\n"
	      "                [--texture UNIT=FILE.png|checker|gradient]...\n"
	      "                [--varying NAME=BL:BR:TL:TR] [--sampler NAME=UNIT]...\n"
	      "                [--target N] [-o out.png] [--dump] [--probe X,Y]\n"
	      "                [--fine-derivatives] [--verbose]\n", f);
}

/* Parses up to max comma-separated floats; returns the count or -1. */
static int parse_floats(const char *s, float *v, int max)
{
	int n = 0;
	for (;;) {
		char *end;
		errno = 0;
		double d = strtod(s, &end);
		if (end == s || errno == ERANGE || n >= max)
			return -1;
		v[n++] = (float)d;
		if (*end == 0)
			return n;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

static bool parse_int(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < -1000000 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

static bool parse_varying(char *arg, struct oracle_varying *v)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return false;
	*eq = 0;
	v->name = arg;
	char *s = eq + 1;
	for (int k = 0; k < 4; k++) {
		char *colon = strchr(s, ':');
		if ((k < 3) != (colon != NULL))
			return false;
		if (colon)
			*colon = 0;
		float c[4] = { 0, 0, 0, 1 };
		if (parse_floats(s, c, 4) < 0)
			return false;
		memcpy(v->corners[k], c, sizeof c);
		s = colon + 1;
	}
	return true;
}

static bool parse_uniform(char *arg, struct oracle_uniform *u)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return false;
	*eq = 0;
	u->name = arg;
	u->ncomp = parse_floats(eq + 1, u->value, 16);
	return u->ncomp > 0;
}

/* "NAME=UNIT" (UNIT 0..15) for --sampler and "UNIT=SPEC" for --texture. */
static bool split_assignment(char *arg, char **lhs, char **rhs)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return false;
	*eq = 0;
	*lhs = arg;
	*rhs = eq + 1;
	return true;
}

/* The value of option `name` ("--size"): from "--size=V" or the next arg. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != 0)
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "llvmpipe-render: %s needs a value\n", name);
		exit(2);
	}
	return argv[++*i];
}

static bool parse_args(int argc, char **argv, struct render_opts *o)
{
	memset(o, 0, sizeof *o);
	o->width = o->height = 64;
	for (int i = 1; i < argc; i++) {
		const char *v;
		char *a = argv[i], *lhs, *rhs;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--dump")) {
			o->dump = true;
		} else if (!strcmp(a, "--fine-derivatives")) {
			o->fine_derivatives = true;
		} else if (!strcmp(a, "--verbose")) {
			o->verbose = true;
		} else if ((v = opt_value(argc, argv, &i, "--size"))) {
			if (sscanf(v, "%dx%d", &o->width, &o->height) != 2 || o->width < 1 ||
			    o->height < 1 || o->width > 16384 || o->height > 16384) {
				fprintf(stderr, "llvmpipe-render: bad size '%s' (want WxH)\n", v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--uniform"))) {
			if (o->nuniforms >= ORACLE_MAX_UNIFORMS ||
			    !parse_uniform((char *)v, &o->uniforms[o->nuniforms++])) {
				fprintf(stderr, "llvmpipe-render: bad uniform '%s' (want NAME=x,y,...)\n",
					v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--varying"))) {
			if (o->nvaryings >= ORACLE_MAX_VARYINGS ||
			    !parse_varying((char *)v, &o->varyings[o->nvaryings++])) {
				fprintf(stderr, "llvmpipe-render: bad varying '%s' (want NAME=BL:BR:TL:TR, "
					"each x,y,z,w; at most %d)\n", v, ORACLE_MAX_VARYINGS);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--texture"))) {
			int unit;
			if (!split_assignment((char *)v, &lhs, &rhs) || !parse_int(lhs, &unit) ||
			    unit < 0 || unit >= ORACLE_UNITS) {
				fprintf(stderr, "llvmpipe-render: bad texture '%s' (want UNIT=FILE.png|"
					"checker|gradient, unit 0..15)\n", v);
				return false;
			}
			o->tex_spec[unit] = rhs;
		} else if ((v = opt_value(argc, argv, &i, "--sampler"))) {
			struct oracle_sampler *s = &o->samplers[o->nsamplers];
			if (o->nsamplers >= ORACLE_UNITS * 2 ||
			    !split_assignment((char *)v, &lhs, &rhs) || !parse_int(rhs, &s->unit) ||
			    s->unit < 0 || s->unit >= ORACLE_UNITS) {
				fprintf(stderr, "llvmpipe-render: bad sampler '%s' (want NAME=UNIT, "
					"unit 0..15)\n", v);
				return false;
			}
			s->name = lhs;
			o->nsamplers++;
		} else if ((v = opt_value(argc, argv, &i, "--target"))) {
			if (!parse_int(v, &o->target) || o->target < 0 || o->target > 3) {
				fprintf(stderr, "llvmpipe-render: bad target '%s' (0..3)\n", v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--probe"))) {
			int *p = o->probes[o->nprobes];
			if (o->nprobes >= MAX_PROBES || sscanf(v, "%d,%d", &p[0], &p[1]) != 2) {
				fprintf(stderr, "llvmpipe-render: bad probe '%s' (want X,Y)\n", v);
				return false;
			}
			o->nprobes++;
		} else if ((v = opt_value(argc, argv, &i, "-o"))) {
			o->out_png = v;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "llvmpipe-render: unknown option '%s'\n", a);
			return false;
		} else if (o->file) {
			fprintf(stderr, "llvmpipe-render: more than one input file\n");
			return false;
		} else {
			o->file = a;
		}
	}
	if (!o->file) {
		usage(stderr);
		return false;
	}
	return true;
}

/* The whole file as a NUL-terminated string, or NULL. */
static char *read_text(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 1 << 14, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - 1 - n, f);
		if (n < cap - 1)
			break;
		char *nb = cap < (1u << 26) ? realloc(buf, cap * 2) : NULL;
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	bool err = ferror(f);
	if (f != stdin)
		fclose(f);
	if (err || !buf) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

/* Loads each unit's texture into job->textures; texel storage in store[]. */
static bool load_textures(const struct render_opts *o, struct oracle_job *job,
			  float *store[ORACLE_UNITS])
{
	for (int u = 0; u < ORACLE_UNITS; u++) {
		const char *spec = o->tex_spec[u];
		int w, h;
		float *t = NULL;
		if (!spec)
			continue;
		if (!builtin_texture(spec, &w, &h, &t)) {
			char why[512];
			if (!png_read_rgba(spec, &w, &h, &t, why, sizeof why)) {
				fprintf(stderr, "llvmpipe-render: %s\n", why);
				return false;
			}
		}
		store[u] = t;
		job->textures[u] = (struct oracle_texture){ w, h, t };
	}
	return true;
}

/* One pixel as uscc-run prints it. */
static void print_pixel(const struct oracle_image *img, int target, int x, int y)
{
	if (x < 0 || y < 0 || x >= img->width || y >= img->height) {
		printf("%d %d outside\n", x, y);
		return;
	}
	size_t at = (size_t)y * (size_t)img->width + (size_t)x;
	if (img->discarded[at]) {
		printf("%d %d discard\n", x, y);
		return;
	}
	const float *v = &img->rt[target][at * 4];
	printf("%d %d %g %g %g %g\n", x, y, v[0], v[1], v[2], v[3]);
}

static int report(const struct render_opts *o, const struct oracle_image *img)
{
	if (o->dump || (!o->out_png && !o->nprobes))
		for (int y = 0; y < img->height; y++)
			for (int x = 0; x < img->width; x++)
				print_pixel(img, o->target, x, y);
	for (int i = 0; i < o->nprobes; i++)
		print_pixel(img, o->target, o->probes[i][0], o->probes[i][1]);
	char why[512];
	if (o->out_png && !png_write_rgba(o->out_png, img->width, img->height,
					  img->rt[o->target], why, sizeof why)) {
		fprintf(stderr, "llvmpipe-render: %s\n", why);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct render_opts o;
	if (!parse_args(argc, argv, &o))
		return 2;
	char *src = read_text(o.file);
	if (!src) {
		fprintf(stderr, "llvmpipe-render: cannot read %s: %s\n", o.file, strerror(errno));
		return 2;
	}
	struct oracle_job job = {
		.frag_src = src, .width = o.width, .height = o.height,
		.varyings = o.varyings, .nvaryings = o.nvaryings,
		.uniforms = o.uniforms, .nuniforms = o.nuniforms,
		.samplers = o.samplers, .nsamplers = o.nsamplers,
		.verbose = o.verbose, .fine_derivatives = o.fine_derivatives,
	};
	float *store[ORACLE_UNITS] = { 0 };
	int status = 2;
	if (load_textures(&o, &job, store)) {
		struct oracle_image img;
		char why[4096];
		enum oracle_status st = oracle_render(&job, &img, why, sizeof why);
		if (st == ORACLE_OK) {
			status = report(&o, &img);
			oracle_image_free(&img);
		} else {
			fprintf(stderr, "%s: error: %s\n", o.file, why);
			status = (int)st;
		}
	}
	for (int u = 0; u < ORACLE_UNITS; u++)
		free(store[u]);
	free(src);
	return status;
}
