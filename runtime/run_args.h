/* The command line and output shared by the renderers that take
 * uscc-run's interface (INTERFACES.md §5): uscc-run itself, uscc-ref
 * (tests/tools) and llvmpipe-render (tests/oracle).  Depends only on
 * png_io, builtin_textures and texture.h, so a tool can compile it in
 * without the compiler libraries.  Never prints to stderr or exits:
 * messages, prefixed with the program's name, go to a `why` buffer. */
#ifndef USCC_RUN_ARGS_H
#define USCC_RUN_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "texture.h"

enum { RUN_MAX_ITEMS = 64, RUN_MAX_PROBES = 64, RUN_UNITS = 16 };

struct run_varying {
	const char *name;
	float corners[4][4];       /* BL, BR, TL, TR */
};

struct run_uniform {
	const char *name;          /* "u", or "u[2]" for one array element */
	float value[16];           /* up to a mat4 (column-major) */
	int ncomp;
};

struct run_opts {
	const char *prog;          /* prefixes every message: "uscc-run" */
	const char *file, *out_png;
	int width, height, target;
	bool dump;
	bool no_default_dump;      /* set by a program that prints something else
				      (uscc-run --stats): no dump unless --dump */
	struct run_uniform uniforms[RUN_MAX_ITEMS]; int nuniforms;
	struct run_varying varyings[RUN_MAX_ITEMS]; int nvaryings;
	const char *tex_spec[RUN_UNITS];
	enum tex_wrap wrap[RUN_UNITS];     /* --wrap; default repeat */
	enum tex_filter filter[RUN_UNITS]; /* --filter MIN; default nearest */
	enum tex_mag mag[RUN_UNITS];       /* --filter MIN,MAG; default as MIN */
	int probes[RUN_MAX_PROBES][2]; int nprobes;
};

enum run_parse {
	RUN_PARSE_OK,
	RUN_PARSE_HELP,            /* --help: print the usage to stdout, exit 0 */
	RUN_PARSE_USAGE,           /* no input file: print the usage, exit 2 */
	RUN_PARSE_ERROR,           /* message in why: exit 2 */
};

/* A program's own options: looks at argv[*i], stepping *i past a value it
 * takes.  1: taken, 0: not one of its own, -1: bad (message in why). */
typedef int (*run_extra_option)(void *ctx, int argc, char **argv, int *i,
				char *why, size_t why_len);

/* Parses argv (values are split in place, so argv must outlive o); the
 * program's own options are tried first, with ctx.  Size defaults to 64x64. */
enum run_parse run_args_parse(struct run_opts *o, const char *prog, int argc, char **argv,
			      run_extra_option extra, void *ctx, char *why, size_t why_len);

/* What a main does with a parse result other than RUN_PARSE_OK: the usage
 * to out (--help) or to err, or the message in why to err; returns the
 * exit status (0 or 2), or -1 for RUN_PARSE_OK (nothing printed). */
int run_parse_exit(enum run_parse parsed, const char *why, const char *usage, FILE *out,
		   FILE *err);

/* The value of option `name` at argv[*i]: "--name=V" or "--name V".
 * 1 with *value set, 0 when argv[*i] is another option, -1 (message in
 * why) when the value is missing. */
int run_opt_value(const char *prog, int argc, char **argv, int *i, const char *name,
		  const char **value, char *why, size_t why_len);

/* Up to max comma-separated floats into v; the count, or -1 if malformed. */
int run_parse_floats(const char *s, float *v, int max);

/* A decimal int in [-1e6, 1e6], nothing after it. */
bool run_parse_int(const char *s, int *out);

/* The whole file ("-": stdin), NUL-terminated (not counted in *size, which
 * may be NULL), malloc'd; NULL with errno set on failure. */
char *run_read_file(const char *path, size_t *size);

/* The textures the options give, with each unit's filters and wrap mode
 * (default nearest, repeat; cube maps always clamp).
 * target[u] is the enum ir_tex_target unit u is sampled as (NULL: all 2D);
 * a cube gets the image on all six faces, level by level.  A built-in
 * with levels (miptree) keeps them; under a mipmap minification filter a
 * single image gets a full chain by box filtering (tex_build_levels).  A
 * 1D unit with levels keeps row 0 of each; RECT units have one level. */
struct run_textures {
	struct tex_image img[RUN_UNITS];
	float *store[RUN_UNITS];
};
bool run_textures_load(struct run_textures *t, const struct run_opts *o,
		       const int target[RUN_UNITS], char *why, size_t why_len);
void run_textures_free(struct run_textures *t);

/* One render target of a result: rgba[(y*width + x)*4 + c], discarded[y*width + x]. */
struct run_image {
	int width, height;
	const float *rgba;
	const bool *discarded;
};

/* Prints "X Y R G B A", "X Y discard" or "X Y outside". */
void run_print_pixel(FILE *out, const struct run_image *img, int x, int y);

/* What the options ask for: every pixel (--dump, or when none of -o,
 * --probe and no_default_dump is given), then the probes, to out; then
 * the PNG (-o).  False
 * (message in why) when the PNG cannot be written. */
bool run_report(FILE *out, const struct run_opts *o, const struct run_image *img,
		char *why, size_t why_len);

#endif
