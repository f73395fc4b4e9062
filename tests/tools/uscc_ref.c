/* uscc-ref: renders a GLSL fragment shader with the IR interpreter on the
 * frontend's unoptimized IR, taking uscc-run's options and printing what
 * uscc-run prints (INTERFACES.md §5), so the two outputs compare line by
 * line.  With --stage=vertex it runs a vertex shader on given attribute
 * values instead and prints every output of every vertex.
 * Exit status: 0 success, 1 invalid shader or runtime failure, 2 usage
 * or I/O error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "uscc_ref.h"

static void usage(FILE *f)
{
	fputs("usage: uscc-ref FILE.frag [--size WxH] [--uniform NAME=x[,y,z,w...]]...\n"
	      "                [--texture UNIT=FILE.png|checker|gradient]...\n"
	      "                [--varying NAME=BL:BR:TL:TR] [--target N] [-o out.png]\n"
	      "                [--dump] [--probe X,Y] [-D NAME[=VALUE]]...\n"
	      "       uscc-ref --stage=vertex FILE.vert [--vertex-count N]\n"
	      "                [--attrib NAME=x,y,z,w[;x,y,z,w]...]... [--uniform ...]\n"
	      "                [--texture ...]\n"
	      "Vertex mode prints one line per written output per vertex:\n"
	      "  VERTEX NAME x [y z w]\n"
	      "An --attrib with one value gives it to every vertex; otherwise it\n"
	      "needs one value per vertex ('x,y,z,w' groups separated by ';',\n"
	      "missing components (0,0,0,1)).  Attributes not given are (0,0,0,1).\n", f);
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

/* NAME=x,y,z,w;x,y,z,w;... into a malloc'd value list. */
static bool parse_attrib(char *arg, struct ref_attrib *a)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return false;
	*eq = 0;
	a->name = arg;
	int n = 1;
	for (const char *s = eq + 1; *s; s++)
		n += *s == ';';
	if (n > REF_MAX_VERTICES || !(a->values = malloc(sizeof *a->values * (size_t)n)))
		return false;
	char *s = eq + 1;
	for (int k = 0; k < n; k++) {
		char *semi = strchr(s, ';');
		if (semi)
			*semi = 0;
		float c[4] = { 0, 0, 0, 1 };
		if (parse_floats(s, c, 4) < 0)
			return false;
		memcpy(a->values[k], c, sizeof c);
		s = semi ? semi + 1 : s;
	}
	a->nvalues = n;
	return true;
}

static bool parse_define(char *arg, struct glsl_define *d)
{
	if (!*arg)
		return false;
	char *eq = strchr(arg, '=');
	if (eq)
		*eq = 0;
	d->name = arg;
	d->value = eq ? eq + 1 : NULL;
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
	if (argv[*i][n] != 0) {
		/* -DNAME, gcc style */
		return n == 2 && name[1] == 'D' ? argv[*i] + n : NULL;
	}
	if (*i + 1 >= argc) {
		fprintf(stderr, "uscc-ref: %s needs a value\n", name);
		exit(2);
	}
	return argv[++*i];
}

static bool bad(const char *what, const char *v, const char *want)
{
	fprintf(stderr, "uscc-ref: bad %s '%s' (want %s)\n", what, v, want);
	return false;
}

static bool parse_texture(const char *v, struct ref_opts *o)
{
	int unit;
	const char *eq = strchr(v, '=');
	char num[16];
	size_t len = eq ? (size_t)(eq - v) : 0;
	if (!eq || len == 0 || len >= sizeof num ||
	    (memcpy(num, v, len), num[len] = 0, !parse_int(num, &unit)) || unit < 0 ||
	    unit >= REF_UNITS || !eq[1])
		return bad("texture", v, "UNIT=FILE.png|checker|gradient, unit 0..15");
	o->tex_spec[unit] = eq + 1;
	return true;
}

/* Options of both modes; false after a message on a bad one. */
static bool parse_option(int argc, char **argv, int *i, struct ref_opts *o)
{
	const char *v;
	if ((v = opt_value(argc, argv, i, "--size"))) {
		if (sscanf(v, "%dx%d", &o->width, &o->height) != 2 || o->width < 1 ||
		    o->height < 1 || o->width > 16384 || o->height > 16384)
			return bad("size", v, "WxH");
	} else if ((v = opt_value(argc, argv, i, "--uniform"))) {
		if (o->nuniforms >= REF_MAX_ITEMS ||
		    !parse_uniform((char *)v, &o->uniforms[o->nuniforms++]))
			return bad("uniform", v, "NAME=x,y,...");
	} else if ((v = opt_value(argc, argv, i, "--varying"))) {
		if (o->nvaryings >= REF_MAX_ITEMS ||
		    !parse_varying((char *)v, &o->varyings[o->nvaryings++]))
			return bad("varying", v, "NAME=BL:BR:TL:TR, each x,y,z,w");
	} else if ((v = opt_value(argc, argv, i, "--texture"))) {
		return parse_texture(v, o);
	} else if ((v = opt_value(argc, argv, i, "--target"))) {
		if (!parse_int(v, &o->target) || o->target < 0 || o->target > 3)
			return bad("target", v, "0..3");
	} else if ((v = opt_value(argc, argv, i, "--probe"))) {
		int *p = o->probes[o->nprobes];
		if (o->nprobes >= REF_MAX_PROBES || sscanf(v, "%d,%d", &p[0], &p[1]) != 2)
			return bad("probe", v, "X,Y");
		o->nprobes++;
	} else if ((v = opt_value(argc, argv, i, "--stage"))) {
		if (!strcmp(v, "fragment"))
			o->stage = GLSL_STAGE_FRAGMENT;
		else if (!strcmp(v, "vertex"))
			o->stage = GLSL_STAGE_VERTEX;
		else
			return bad("stage", v, "fragment|vertex");
	} else if ((v = opt_value(argc, argv, i, "--attrib"))) {
		if (o->nattribs >= REF_MAX_ITEMS ||
		    !parse_attrib((char *)v, &o->attribs[o->nattribs++]))
			return bad("attrib", v, "NAME=x,y,z,w[;x,y,z,w]...");
	} else if ((v = opt_value(argc, argv, i, "--vertex-count"))) {
		if (!parse_int(v, &o->nvertices) || o->nvertices < 1 ||
		    o->nvertices > REF_MAX_VERTICES)
			return bad("vertex count", v, "1..4096");
	} else if ((v = opt_value(argc, argv, i, "-D"))) {
		if (o->ndefines >= REF_MAX_DEFINES ||
		    !parse_define((char *)v, &o->defines[o->ndefines++]))
			return bad("define", v, "NAME[=VALUE]");
	} else if ((v = opt_value(argc, argv, i, "-o"))) {
		o->out_png = v;
	} else {
		fprintf(stderr, "uscc-ref: unknown option '%s'\n", argv[*i]);
		return false;
	}
	return true;
}

static bool parse_args(int argc, char **argv, struct ref_opts *o)
{
	o->width = o->height = 64;
	o->stage = GLSL_STAGE_FRAGMENT;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--dump")) {
			o->dump = true;
		} else if (a[0] == '-' && a[1]) {
			if (!parse_option(argc, argv, &i, o))
				return false;
		} else if (o->file) {
			fprintf(stderr, "uscc-ref: more than one input file\n");
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

static char *read_text(const char *path)
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
	if (buf)
		buf[n] = 0;
	return buf;
}

static void free_opts(struct ref_opts *o)
{
	for (int i = 0; i < o->nattribs; i++)
		free(o->attribs[i].values);
}

int main(int argc, char **argv)
{
	static struct ref_opts o;
	if (!parse_args(argc, argv, &o)) {
		free_opts(&o);
		return 2;
	}
	char *src = read_text(o.file);
	if (!src) {
		fprintf(stderr, "uscc-ref: cannot read %s: %s\n", o.file, strerror(errno));
		free_opts(&o);
		return 2;
	}
	struct arena *arena = arena_create(&mem_default_allocator);
	if (!arena) {
		free(src);
		free_opts(&o);
		fprintf(stderr, "uscc-ref: out of memory\n");
		return 2;
	}
	struct diag_sink diag;
	diag_init(&diag, arena);
	struct glsl_options gopts = { .stage = o.stage, .defines = o.defines,
				      .ndefines = o.ndefines };
	const char *name = strcmp(o.file, "-") ? o.file : "<stdin>";
	struct ir_func *f = glsl_to_ir(src, name, &gopts, arena, &diag);
	fputs(diag_render(&diag), stderr);
	int status;
	struct diag_sink vdiag;
	diag_init(&vdiag, arena);
	if (!f || diag_failed(&diag)) {
		status = 1;
	} else if (!ir_validate(f, &vdiag)) {
		/* a reference computed from broken IR proves nothing */
		fprintf(stderr, "%s: error: the frontend's IR does not validate:\n%s", name,
			diag_render(&vdiag));
		status = 1;
	} else if (o.stage == GLSL_STAGE_VERTEX) {
		status = ref_run_vertex(&o, f);
	} else {
		status = ref_run_fragment(&o, f);
	}
	arena_destroy(arena);
	free(src);
	free_opts(&o);
	return status;
}
