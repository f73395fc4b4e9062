/* uscc-run's command line, texture specs and pixel output (INTERFACES.md
 * §5), shared by the programs that take the same interface. */
#include "run_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin_textures.h"
#include "png_io.h"

enum {
	RUN_MAX_SIZE = 16384,            /* --size: each side 1..16384 */
	RUN_MAX_TEXELS = 32 << 20,       /* all textures together (512 MiB of floats) */
};

/* "PROG: message" into why. */
static void say(char *why, size_t why_len, const char *prog, const char *fmt, ...)
{
	if (!why || !why_len)
		return;
	int n = snprintf(why, why_len, "%s: ", prog);
	if (n < 0 || (size_t)n >= why_len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why + n, why_len - (size_t)n, fmt, ap);
	va_end(ap);
}

int run_parse_floats(const char *s, float *v, int max)
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

bool run_parse_int(const char *s, int *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < -1000000 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

/* NAME=BL:BR:TL:TR, each up to x,y,z,w (missing components (0,0,0,1)). */
static bool parse_varying(char *arg, struct run_varying *v)
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
		if (run_parse_floats(s, c, 4) < 0)
			return false;
		memcpy(v->corners[k], c, sizeof c);
		s = colon + 1;
	}
	return true;
}

static bool parse_uniform(char *arg, struct run_uniform *u)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return false;
	*eq = 0;
	u->name = arg;
	u->ncomp = run_parse_floats(eq + 1, u->value, 16);
	return u->ncomp > 0;
}

/* UNIT=REST with UNIT in 0..15: *unit, and REST (NULL if malformed). */
static const char *unit_prefix(const char *v, int *unit)
{
	const char *eq = strchr(v, '=');
	char num[16];
	size_t len = eq ? (size_t)(eq - v) : 0;
	if (!eq || len == 0 || len >= sizeof num)
		return NULL;
	memcpy(num, v, len);
	num[len] = 0;
	if (!run_parse_int(num, unit) || *unit < 0 || *unit >= RUN_UNITS)
		return NULL;
	return eq + 1;
}

/* UNIT=SPEC, unit 0..15, SPEC not empty. */
static bool opt_texture(struct run_opts *o, char *v, const char **want)
{
	(void)want;
	int unit;
	const char *spec = unit_prefix(v, &unit);
	if (!spec || !*spec)
		return false;
	o->tex_spec[unit] = spec;
	return true;
}

int run_opt_value(const char *prog, int argc, char **argv, int *i, const char *name,
		  const char **value, char *why, size_t why_len)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return 0;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n] != 0)
		return 0;
	if (*i + 1 >= argc) {
		say(why, why_len, prog, "%s needs a value", name);
		return -1;
	}
	*value = argv[++*i];
	return 1;
}

/* An option with a value, its parser and the message when it is bad. */
struct valued_option {
	const char *name;
	/* may point *want at a reason more precise than `want` */
	bool (*parse)(struct run_opts *o, char *v, const char **want);
	const char *bad; /* "bad %s '%s' (%s)" */
	const char *want;
};

/* "AsepB": two decimal ints, nothing else around them. */
static bool parse_pair(const char *v, char sep, int *a, int *b)
{
	const char *at = strchr(v, sep);
	char first[16];
	size_t len = at ? (size_t)(at - v) : 0;
	if (!at || len == 0 || len >= sizeof first)
		return false;
	memcpy(first, v, len);
	first[len] = 0;
	return run_parse_int(first, a) && run_parse_int(at + 1, b);
}

static bool opt_size(struct run_opts *o, char *v, const char **want)
{
	if (!parse_pair(v, 'x', &o->width, &o->height) || o->width < 1 || o->height < 1)
		return false;
	if (o->width <= RUN_MAX_SIZE && o->height <= RUN_MAX_SIZE)
		return true;
	*want = "at most 16384 pixels a side";
	return false;
}

static bool opt_uniform(struct run_opts *o, char *v, const char **want)
{
	if (o->nuniforms < RUN_MAX_ITEMS)
		return parse_uniform(v, &o->uniforms[o->nuniforms++]);
	*want = "at most 64 --uniform options";
	return false;
}

static bool opt_varying(struct run_opts *o, char *v, const char **want)
{
	if (o->nvaryings < RUN_MAX_ITEMS)
		return parse_varying(v, &o->varyings[o->nvaryings++]);
	*want = "at most 64 --varying options";
	return false;
}

static bool opt_target(struct run_opts *o, char *v, const char **want)
{
	(void)want;
	return run_parse_int(v, &o->target) && o->target >= 0 && o->target <= 3;
}

static bool opt_probe(struct run_opts *o, char *v, const char **want)
{
	if (o->nprobes >= RUN_MAX_PROBES) {
		*want = "at most 64 --probe options";
		return false;
	}
	int *p = o->probes[o->nprobes];
	if (!parse_pair(v, ',', &p[0], &p[1]))
		return false;
	o->nprobes++;
	return true;
}

/* UNIT=NAME: the unit, and the index of NAME in names[] (n of them). */
static bool unit_choice(const char *v, const char *const *names, int n, int *unit, int *choice)
{
	const char *name = unit_prefix(v, unit);
	for (int k = 0; name && k < n; k++)
		if (strcmp(name, names[k]) == 0) {
			*choice = k;
			return true;
		}
	return false;
}

static bool opt_wrap(struct run_opts *o, char *v, const char **want)
{
	(void)want;
	static const char *const names[] = { "repeat", "clamp", "mirror" };
	static const enum tex_wrap modes[] = { TEX_WRAP_REPEAT, TEX_WRAP_CLAMP, TEX_WRAP_MIRROR };
	int unit, k;
	if (!unit_choice(v, names, 3, &unit, &k))
		return false;
	o->wrap[unit] = modes[k];
	return true;
}

/* UNIT=MIN[,MAG]: MIN any of GL's minification filters, MAG nearest or
 * linear (default: as MIN filters within a level). */
static bool opt_filter(struct run_opts *o, char *v, const char **want)
{
	(void)want;
	char name[48];
	int unit, k, mag = TEX_MAG_AS_MIN;
	const char *spec = unit_prefix(v, &unit);
	const char *comma = spec ? strchr(spec, ',') : NULL;
	if (!spec || strlen(spec) >= sizeof name)
		return false;
	strcpy(name, spec);
	if (comma) {
		if (!strcmp(comma + 1, "nearest"))
			mag = TEX_MAG_NEAREST;
		else if (!strcmp(comma + 1, "linear"))
			mag = TEX_MAG_LINEAR;
		else
			return false;
		name[comma - spec] = 0;
	}
	for (k = 0; k < TEX_FILTER_COUNT; k++)
		if (!strcmp(name, tex_filter_name(k)))
			break;
	if (k == TEX_FILTER_COUNT)
		return false;
	o->filter[unit] = (enum tex_filter)k;
	o->mag[unit] = (enum tex_mag)mag;
	return true;
}

static bool opt_output(struct run_opts *o, char *v, const char **want)
{
	(void)want;
	o->out_png = v;
	return true;
}

static const struct valued_option valued_options[] = {
	{ "--size", opt_size, "size", "want WxH" },
	{ "--uniform", opt_uniform, "uniform", "want NAME=x,y,..." },
	{ "--varying", opt_varying, "varying", "want NAME=BL:BR:TL:TR, each x,y,z,w" },
	{ "--texture", opt_texture, "texture", "want UNIT=FILE.png|checker|gradient|miptree, unit 0..15" },
	{ "--wrap", opt_wrap, "wrap mode", "want UNIT=repeat|clamp|mirror, unit 0..15" },
	{ "--filter", opt_filter, "filter",
	  "want UNIT=MIN[,MAG], MIN nearest|linear|nearest_mipmap_nearest|"
	  "linear_mipmap_nearest|nearest_mipmap_linear|linear_mipmap_linear, MAG "
	  "nearest|linear, unit 0..15" },
	{ "--target", opt_target, "target", "0..3" },
	{ "--probe", opt_probe, "probe", "want X,Y" },
	{ "-o", opt_output, "output", "" },
};

/* One of the common options at argv[*i]: 1 taken, 0 not one, -1 bad. */
static int common_option(struct run_opts *o, int argc, char **argv, int *i,
			 char *why, size_t why_len)
{
	for (size_t k = 0; k < sizeof valued_options / sizeof valued_options[0]; k++) {
		const struct valued_option *vo = &valued_options[k];
		const char *v;
		int got = run_opt_value(o->prog, argc, argv, i, vo->name, &v, why, why_len);
		if (got == 0)
			continue;
		if (got < 0)
			return -1;
		const char *want = vo->want;
		if (!vo->parse(o, (char *)v, &want)) {
			say(why, why_len, o->prog, "bad %s '%s' (%s)", vo->bad, v, want);
			return -1;
		}
		return 1;
	}
	return 0;
}

enum run_parse run_args_parse(struct run_opts *o, const char *prog, int argc, char **argv,
			      run_extra_option extra, void *ctx, char *why, size_t why_len)
{
	memset(o, 0, sizeof *o);
	o->prog = prog;
	o->width = o->height = 64;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		int got;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return RUN_PARSE_HELP;
		if (!strcmp(a, "--dump")) {
			o->dump = true;
			continue;
		}
		if (extra && (got = extra(ctx, argc, argv, &i, why, why_len)) != 0) {
			if (got < 0)
				return RUN_PARSE_ERROR;
			continue;
		}
		if ((got = common_option(o, argc, argv, &i, why, why_len)) != 0) {
			if (got < 0)
				return RUN_PARSE_ERROR;
		} else if (a[0] == '-' && a[1]) {
			say(why, why_len, prog, "unknown option '%s'", a);
			return RUN_PARSE_ERROR;
		} else if (o->file) {
			say(why, why_len, prog, "more than one input file");
			return RUN_PARSE_ERROR;
		} else {
			o->file = a;
		}
	}
	return o->file ? RUN_PARSE_OK : RUN_PARSE_USAGE;
}

int run_parse_exit(enum run_parse parsed, const char *why, const char *usage, FILE *out,
		   FILE *err)
{
	if (parsed == RUN_PARSE_OK)
		return -1;
	if (parsed == RUN_PARSE_ERROR)
		fprintf(err, "%s\n", why);
	else
		fputs(usage, parsed == RUN_PARSE_HELP ? out : err);
	return parsed == RUN_PARSE_HELP ? 0 : 2;
}

char *run_read_file(const char *path, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = cap < (1u << 28) ? realloc(buf, cap * 2 + 1) : NULL;
		if (!nb) {
			free(buf);
			buf = NULL;
			errno = ENOMEM;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	bool err = ferror(f);
	int saved = errno;
	if (f != stdin)
		fclose(f);
	errno = saved;
	if (err || !buf) {
		free(buf);
		if (err)
			errno = EIO;
		return NULL;
	}
	buf[n] = 0;
	if (size)
		*size = n;
	return buf;
}

void run_textures_free(struct run_textures *t)
{
	for (int u = 0; u < RUN_UNITS; u++) {
		free(t->store[u]);
		t->store[u] = NULL;
	}
}

/* The levels unit u samples: a built-in's own, one for RECT, a full
 * chain to build under a mipmap filter, else the one there is. */
static int unit_levels(int tt, enum tex_filter filter, int w, int h, int have)
{
	if (tt == IR_TARGET_RECT)
		return 1;
	if (have == 1 && tex_filter_is_mipmap(filter))
		return tex_full_levels(tt, w, tt == IR_TARGET_1D ? 1 : h, 1);
	return have;
}

/* The chain of `levels` laid out for target tt (texture.h) from an image
 * of `have` levels laid out as 2D (*h rows at level 0): row 0 of each
 * level for 1D (*h becomes 1), each level on six faces for a cube, and the
 * levels missing built by box filtering.  NULL when out of memory; src is
 * the caller's still. */
static float *unit_chain(const float *src, int w, int *h, int have, int tt, int levels,
			 long long total)
{
	int rows = tt == IR_TARGET_1D && levels > 1 ? 1 : *h;
	int faces = tt == IR_TARGET_CUBE ? 6 : 1;
	float *dst = malloc((size_t)total * 4 * sizeof(float));
	if (!dst)
		return NULL;
	const float *from = src;
	float *to = dst;
	for (int l = 0; l < levels && l < have; l++) {
		int sw = w >> l > 0 ? w >> l : 1, sh = *h >> l > 0 ? *h >> l : 1, size[3];
		tex_level_size(tt, w, rows, 1, l, size);
		size_t row = (size_t)size[0] * 4;
		for (int f = 0; f < faces; f++)
			for (int y = 0; y < size[1]; y++, to += row)
				memcpy(to, from + (size_t)y * (size_t)sw * 4, row * sizeof(float));
		from += (size_t)sw * (size_t)sh * 4;
	}
	if (levels > have)
		tex_build_levels(tt, w, rows, 1, levels, dst);
	*h = rows;
	return dst;
}

bool run_textures_load(struct run_textures *t, const struct run_opts *o,
		       const int target[RUN_UNITS], char *why, size_t why_len)
{
	memset(t, 0, sizeof *t);
	double texels_left = RUN_MAX_TEXELS;
	for (int u = 0; u < RUN_UNITS; u++) {
		const char *spec = o->tex_spec[u];
		int w, h, have = 1;
		float *texels = NULL;
		if (!spec)
			continue;
		if (!builtin_texture_chain(spec, &w, &h, &have, &texels)) {
			char msg[512];
			if (!png_read_rgba(spec, &w, &h, &texels, msg, sizeof msg)) {
				say(why, why_len, o->prog, "%s", msg);
				run_textures_free(t);
				return false;
			}
		}
		int tt = target ? target[u] : IR_TARGET_2D;
		int levels = unit_levels(tt, o->filter[u], w, h, have);
		int rows = tt == IR_TARGET_1D && levels > 1 ? 1 : h;
		long long total = tex_chain_texels(tt, w, rows, 1, levels);
		texels_left -= (double)total;
		if (total < 0 || texels_left < 0) {
			say(why, why_len, o->prog, "%s: the textures given hold more than %d "
			    "texels in all (a cube map counts its image six times, a chain "
			    "its levels)", spec, RUN_MAX_TEXELS);
			free(texels);
			run_textures_free(t);
			return false;
		}
		if (levels > 1 || tt == IR_TARGET_CUBE) {
			float *chain = unit_chain(texels, w, &h, have, tt, levels, total);
			free(texels);
			if (!(texels = chain)) {
				say(why, why_len, o->prog, "out of memory");
				run_textures_free(t);
				return false;
			}
		}
		t->store[u] = texels;
		t->img[u] = (struct tex_image){ .target = tt, .width = w, .height = h,
						.depth = 1, .texels = texels, .levels = levels,
						.filter = o->filter[u], .mag = o->mag[u],
						.wrap = o->wrap[u] };
	}
	return true;
}

void run_print_pixel(FILE *out, const struct run_image *img, int x, int y)
{
	if (x < 0 || y < 0 || x >= img->width || y >= img->height) {
		fprintf(out, "%d %d outside\n", x, y);
		return;
	}
	size_t at = (size_t)y * (size_t)img->width + (size_t)x;
	if (img->discarded[at]) {
		fprintf(out, "%d %d discard\n", x, y);
		return;
	}
	const float *v = &img->rgba[at * 4];
	fprintf(out, "%d %d %g %g %g %g\n", x, y, v[0], v[1], v[2], v[3]);
}

bool run_report(FILE *out, const struct run_opts *o, const struct run_image *img,
		char *why, size_t why_len)
{
	if (o->dump || (!o->out_png && !o->nprobes && !o->no_default_dump))
		for (int y = 0; y < img->height; y++)
			for (int x = 0; x < img->width; x++)
				run_print_pixel(out, img, x, y);
	for (int i = 0; i < o->nprobes; i++)
		run_print_pixel(out, img, o->probes[i][0], o->probes[i][1]);
	char msg[512];
	if (o->out_png && !png_write_rgba(o->out_png, img->width, img->height, img->rgba,
					  msg, sizeof msg)) {
		say(why, why_len, o->prog, "%s", msg);
		return false;
	}
	return true;
}
