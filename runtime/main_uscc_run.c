/* uscc-run: runs a container in the emulator over a rectangle of pixels
 * (INTERFACES.md §5).  Exit status: 0 success, 1 bad program or runtime
 * fault, 2 usage or I/O error.
 *
 * Textures given as 2D images are bound to a unit per the program's
 * sampler table: a 1D sampler reads the image's bottom row, a 3D sampler
 * sees it as one slice (depth 1), a cube sampler gets the image on all six
 * faces, a RECT sampler reads it in texel coordinates.  All are sampled
 * with nearest filtering and repeat wrapping (cube faces clamp). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "builtin_textures.h"
#include "container.h"
#include "emu.h"
#include "ir.h"
#include "png_io.h"

enum { MAX_ITEMS = 64, MAX_PROBES = 64 };

struct run_opts {
	const char *file, *out_png;
	int width, height, target;
	bool dump;
	struct emu_uniform uniforms[MAX_ITEMS]; int nuniforms;
	struct emu_varying varyings[MAX_ITEMS]; int nvaryings;
	const char *tex_spec[R500_NUM_SAMPLERS];
	int probes[MAX_PROBES][2]; int nprobes;
};

static void usage(FILE *f)
{
	fputs("usage: uscc-run FILE.bin [--size WxH] [--uniform NAME=x[,y,z,w...]]...\n"
	      "                [--texture UNIT=FILE.png|checker|gradient]...\n"
	      "                [--varying NAME=BL:BR:TL:TR] [--target N] [-o out.png]\n"
	      "                [--dump] [--probe X,Y]\n", f);
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

static bool parse_varying(char *arg, struct emu_varying *v)
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

static bool parse_uniform(char *arg, struct emu_uniform *u)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return false;
	*eq = 0;
	u->name = arg;
	u->ncomp = parse_floats(eq + 1, u->value, 16);
	return u->ncomp > 0;
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
		fprintf(stderr, "uscc-run: %s needs a value\n", name);
		exit(2);
	}
	return argv[++*i];
}

static bool parse_args(int argc, char **argv, struct run_opts *o)
{
	memset(o, 0, sizeof *o);
	o->width = o->height = 64;
	for (int i = 1; i < argc; i++) {
		const char *v;
		char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--dump")) {
			o->dump = true;
		} else if ((v = opt_value(argc, argv, &i, "--size"))) {
			if (sscanf(v, "%dx%d", &o->width, &o->height) != 2 || o->width < 1 ||
			    o->height < 1 || o->width > 16384 || o->height > 16384) {
				fprintf(stderr, "uscc-run: bad size '%s' (want WxH)\n", v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--uniform"))) {
			if (o->nuniforms >= MAX_ITEMS ||
			    !parse_uniform((char *)v, &o->uniforms[o->nuniforms++])) {
				fprintf(stderr, "uscc-run: bad uniform '%s' (want NAME=x,y,...)\n", v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--varying"))) {
			if (o->nvaryings >= MAX_ITEMS ||
			    !parse_varying((char *)v, &o->varyings[o->nvaryings++])) {
				fprintf(stderr, "uscc-run: bad varying '%s' (want NAME=BL:BR:TL:TR, "
					"each x,y,z,w)\n", v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--texture"))) {
			int unit;
			const char *eq = strchr(v, '=');
			char num[16];
			size_t len = eq ? (size_t)(eq - v) : 0;
			if (!eq || len == 0 || len >= sizeof num ||
			    (memcpy(num, v, len), num[len] = 0, !parse_int(num, &unit)) ||
			    unit < 0 || unit >= R500_NUM_SAMPLERS || !eq[1]) {
				fprintf(stderr, "uscc-run: bad texture '%s' (want UNIT=FILE.png|"
					"checker|gradient, unit 0..15)\n", v);
				return false;
			}
			o->tex_spec[unit] = eq + 1;
		} else if ((v = opt_value(argc, argv, &i, "--target"))) {
			if (!parse_int(v, &o->target) || o->target < 0 || o->target > 3) {
				fprintf(stderr, "uscc-run: bad target '%s' (0..3)\n", v);
				return false;
			}
		} else if ((v = opt_value(argc, argv, &i, "--probe"))) {
			int *p = o->probes[o->nprobes];
			if (o->nprobes >= MAX_PROBES || sscanf(v, "%d,%d", &p[0], &p[1]) != 2) {
				fprintf(stderr, "uscc-run: bad probe '%s' (want X,Y)\n", v);
				return false;
			}
			o->nprobes++;
		} else if ((v = opt_value(argc, argv, &i, "-o"))) {
			o->out_png = v;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "uscc-run: unknown option '%s'\n", a);
			return false;
		} else if (o->file) {
			fprintf(stderr, "uscc-run: more than one input file\n");
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

static uint8_t *read_file(const char *path, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *nb = cap < (1u << 28) ? realloc(buf, cap * 2) : NULL;
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
	if (err) {
		free(buf);
		return NULL;
	}
	*size = n;
	return buf;
}

static int sampler_target(const struct r500_program *p, int unit)
{
	for (int i = 0; p->samplers && i < p->nsamplers; i++)
		if (p->samplers[i].unit == unit)
			return p->samplers[i].target;
	return IR_TARGET_2D;
}

/* Loads the texture of each unit given; texel storage goes to store[]. */
static bool load_textures(const struct run_opts *o, const struct r500_program *p,
			  struct tex_image *tex, float **store)
{
	for (int u = 0; u < R500_NUM_SAMPLERS; u++) {
		const char *spec = o->tex_spec[u];
		int w, h;
		float *t = NULL;
		if (!spec)
			continue;
		if (!builtin_texture(spec, &w, &h, &t)) {
			char why[512];
			if (!png_read_rgba(spec, &w, &h, &t, why, sizeof why)) {
				fprintf(stderr, "uscc-run: %s\n", why);
				return false;
			}
		}
		int target = sampler_target(p, u);
		if (target == IR_TARGET_CUBE) {
			size_t face = (size_t)w * (size_t)h * 4;
			float *cube = malloc(face * 6 * sizeof(float));
			if (!cube) {
				free(t);
				fprintf(stderr, "uscc-run: out of memory\n");
				return false;
			}
			for (int f = 0; f < 6; f++)
				memcpy(cube + face * (size_t)f, t, face * sizeof(float));
			free(t);
			t = cube;
		}
		store[u] = t;
		tex[u] = (struct tex_image){ .target = target, .width = w, .height = h,
					     .depth = 1, .texels = t,
					     .filter = TEX_FILTER_NEAREST,
					     .wrap = TEX_WRAP_REPEAT };
	}
	return true;
}

static void print_pixel(const struct emu_image *img, int target, int x, int y)
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

/* Runs the program and reports; returns the exit status. */
static int run(const struct run_opts *o, const struct r500_program *p)
{
	struct tex_image tex[R500_NUM_SAMPLERS];
	float *store[R500_NUM_SAMPLERS] = { 0 };
	memset(tex, 0, sizeof tex);
	int status = 2;
	if (load_textures(o, p, tex, store)) {
		struct emu_config cfg = { .width = o->width, .height = o->height,
					  .varyings = o->varyings, .nvaryings = o->nvaryings,
					  .uniforms = o->uniforms, .nuniforms = o->nuniforms,
					  .textures = tex, .ntextures = R500_NUM_SAMPLERS };
		struct emu_image img;
		char why[512];
		status = 1;
		if (!emu_run(p, &cfg, &img, why, sizeof why)) {
			fprintf(stderr, "%s: error: %s\n", o->file, why);
		} else {
			status = 0;
			for (char *w = img.warnings, *nl; w && *w; w = nl + 1) {
				nl = strchr(w, '\n');
				if (!nl)
					nl = w + strlen(w) - 1;
				fprintf(stderr, "%s: warning: %.*s\n", o->file, (int)(nl - w), w);
			}
			if (o->dump || (!o->out_png && !o->nprobes))
				for (int y = 0; y < img.height; y++)
					for (int x = 0; x < img.width; x++)
						print_pixel(&img, o->target, x, y);
			for (int i = 0; i < o->nprobes; i++)
				print_pixel(&img, o->target, o->probes[i][0], o->probes[i][1]);
			if (o->out_png && !png_write_rgba(o->out_png, img.width, img.height,
							   img.rt[o->target], why, sizeof why)) {
				fprintf(stderr, "uscc-run: %s\n", why);
				status = 2;
			}
			emu_image_free(&img);
		}
	}
	for (int u = 0; u < R500_NUM_SAMPLERS; u++)
		free(store[u]);
	return status;
}

int main(int argc, char **argv)
{
	struct run_opts o;
	if (!parse_args(argc, argv, &o))
		return 2;
	size_t size = 0;
	uint8_t *data = read_file(o.file, &size);
	if (!data) {
		fprintf(stderr, "uscc-run: cannot read %s: %s\n", o.file, strerror(errno));
		return 2;
	}
	struct arena *arena = arena_create(&mem_default_allocator);
	if (!arena) {
		free(data);
		fprintf(stderr, "uscc-run: out of memory\n");
		return 2;
	}
	struct r500_program prog;
	char why[512];
	int status;
	memset(&prog, 0, sizeof prog);
	if (!container_read(data, size, arena, &prog, why, sizeof why)) {
		fprintf(stderr, "%s: error: %s\n", o.file, why);
		status = 1;
	} else {
		status = run(&o, &prog);
	}
	arena_destroy(arena);
	free(data);
	return status;
}
