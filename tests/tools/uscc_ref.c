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
#include "shadow.h"
#include "uscc_ref.h"
#include "tgsi.h"

static const char usage[] =
	"usage: uscc-ref FILE.frag [--size WxH] [--uniform NAME=x[,y,z,w...]]...\n"
	"                [--texture UNIT=FILE.png|checker|gradient|miptree]...\n"
	"                [--varying NAME=BL:BR:TL:TR] [--target N] [-o out.png]\n"
	"                [--dump] [--probe X,Y] [-D NAME[=VALUE]]...\n"
	"                [--shadow UNIT=COMPARE[,MODE]]...  (as uscc takes it)\n"
	"       uscc-ref --stage=vertex FILE.vert [--vertex-count N]\n"
	"                [--attrib NAME=x,y,z,w[;x,y,z,w]...]... [--uniform ...]\n"
	"                [--texture ...]\n"
	"Vertex mode prints one line per written output per vertex:\n"
	"  VERTEX NAME x [y z w]\n"
	"An --attrib with one value gives it to every vertex; otherwise it\n"
	"needs one value per vertex ('x,y,z,w' groups separated by ';',\n"
	"missing components (0,0,0,1)).  Attributes not given are (0,0,0,1).\n";

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
		if (run_parse_floats(s, c, 4) < 0)
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

static bool bad(char *why, size_t why_len, const char *what, const char *v, const char *want)
{
	snprintf(why, why_len, "uscc-ref: bad %s '%s' (want %s)", what, v, want);
	return false;
}

/* uscc-ref's own options, for run_args_parse. */
static bool own_option(struct ref_opts *o, const char *name, const char *v, char *why,
		       size_t why_len)
{
	if (!strcmp(name, "--stage")) {
		if (!strcmp(v, "fragment"))
			o->stage = GLSL_STAGE_FRAGMENT;
		else if (!strcmp(v, "vertex"))
			o->stage = GLSL_STAGE_VERTEX;
		else
			return bad(why, why_len, "stage", v, "fragment|vertex");
	} else if (!strcmp(name, "--attrib")) {
		if (o->nattribs >= REF_MAX_ITEMS ||
		    !parse_attrib((char *)v, &o->attribs[o->nattribs++]))
			return bad(why, why_len, "attrib", v, "NAME=x,y,z,w[;x,y,z,w]...");
	} else if (!strcmp(name, "--shadow")) {
		int unit, compare, mode;
		if (!tex_shadow_parse(v, &unit, &compare, &mode))
			return bad(why, why_len, "shadow state", v, "UNIT=COMPARE[,MODE]");
		o->shadow[unit].compare = (uint8_t)compare;
		o->shadow[unit].depth_mode = (uint8_t)mode;
	} else if (!strcmp(name, "--vertex-count")) {
		if (!run_parse_int(v, &o->nvertices) || o->nvertices < 1 ||
		    o->nvertices > REF_MAX_VERTICES)
			return bad(why, why_len, "vertex count", v, "1..4096");
	} else if (o->ndefines >= REF_MAX_DEFINES ||
		   !parse_define((char *)v, &o->defines[o->ndefines++])) {
		return bad(why, why_len, "define", v, "NAME[=VALUE]");
	}
	return true;
}

static int extra_option(void *ctx, int argc, char **argv, int *i, char *why, size_t why_len)
{
	static const char *const names[] = { "--stage", "--attrib", "--vertex-count", "--shadow", "-D" };
	const char *a = argv[*i], *v;
	if (a[0] == '-' && a[1] == 'D' && a[2] && a[2] != '=') /* -DNAME, gcc style */
		return own_option(ctx, "-D", a + 2, why, why_len) ? 1 : -1;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		int got = run_opt_value("uscc-ref", argc, argv, i, names[k], &v, why, why_len);
		if (got)
			return got < 0 ? -1 : own_option(ctx, names[k], v, why, why_len) ? 1 : -1;
	}
	return 0;
}

static void free_opts(struct ref_opts *o)
{
	for (int i = 0; i < o->nattribs; i++)
		free(o->attribs[i].values);
}

int main(int argc, char **argv)
{
	static struct ref_opts o;
	char why[512];
	o.stage = GLSL_STAGE_FRAGMENT;
	enum run_parse parsed = run_args_parse(&o.run, "uscc-ref", argc, argv, extra_option, &o,
					       why, sizeof why);
	int st = run_parse_exit(parsed, why, usage, stdout, stderr);
	if (st >= 0) {
		free_opts(&o);
		return st;
	}
	char *src = run_read_file(o.run.file, NULL);
	if (!src) {
		fprintf(stderr, "uscc-ref: cannot read %s: %s\n", o.run.file, strerror(errno));
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
				      .ndefines = o.ndefines, .shadow = o.shadow };
	const char *name = strcmp(o.run.file, "-") ? o.run.file : "<stdin>";
	size_t nlen = strlen(name);
	bool tgsi = nlen >= 5 && !strcmp(name + nlen - 5, ".tgsi"); /* as uscc tells them */
	struct ir_func *f = tgsi ? tgsi_to_ir(src, name, &gopts, arena, &diag)
				 : glsl_to_ir(src, name, &gopts, arena, &diag);
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
