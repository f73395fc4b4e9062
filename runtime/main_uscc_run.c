/* uscc-run: runs a container in the emulator over a rectangle of pixels
 * (INTERFACES.md §5).  Exit status: 0 success, 1 bad program or runtime
 * fault (a corrupt container, a runaway loop stopped at the step bound,
 * a draw too large for the emulator), 2 usage or I/O error (a bad option,
 * an unreadable file, a texture that is no readable PNG).
 *
 * Textures given as 2D images are bound to a unit per the program's
 * sampler table: a 1D sampler reads the image's bottom row, a 3D sampler
 * sees it as one slice (depth 1), a cube sampler gets the image on all six
 * faces, a RECT sampler reads it in texel coordinates.  Each unit is
 * sampled with its --filter (default nearest; a mipmap filter gives a
 * single image a chain by box filtering, the built-in miptree has its
 * own) and --wrap mode (default repeat; cube faces clamp); the level of
 * detail comes from each quad's coordinates, as on the R500. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena.h"
#include "container.h"
#include "emu.h"
#include "ir.h"
#include "run_args.h"

static const char usage[] =
	"usage: uscc-run FILE.bin [--size WxH] [--uniform NAME=x[,y,z,w...]]...\n"
	"                [--texture UNIT=FILE.png|checker|gradient|miptree]...\n"
	"                [--wrap UNIT=repeat|clamp|mirror]... [--filter UNIT=MIN[,MAG]]...\n"
	"                [--varying NAME=BL:BR:TL:TR] [--target N] [-o out.png]\n"
	"                [--dump] [--probe X,Y] [--stats] [--max-steps N]\n"
	"       uscc-run FILE.bin --list\n"
	"Runs the program in FILE.bin (\"-\": standard input) over WxH pixels\n"
	"(default 64x64, at most 16384 a side) and prints every pixel as\n"
	"\"X Y R G B A\" (--dump, or when none of -o, --probe, --stats is given).\n"
	"  --stats         print, after any --dump and --probe lines, one line of\n"
	"                  JSON: {\"pixels\":N,\"discarded\":K,\"cycles\":{\"min\":..,\n"
	"                  \"median\":..,\"max\":..},\"instructions\":{...},\"draw\":\n"
	"                  {\"cycles\":..,\"instructions\":..}}.  cycles: the cost model\n"
	"                  of \"uscc --stats\" (+1 per slot, +1 per NOP, +30 per TEX\n"
	"                  block minus min(30, distance to the first slot that\n"
	"                  waits, from the block's start as Mesa counts it: 1 +\n"
	"                  the block's lookups + the slots between))\n"
	"                  over the slots each pixel executed, every loop trip\n"
	"                  counted.  A pixel executes a slot when the draw's one\n"
	"                  program counter reaches it while the pixel is active\n"
	"                  (not in a branch it did not take, not out of a loop it\n"
	"                  left) and not yet killed; its figure is its own path.\n"
	"                  draw: the same over every slot the program counter\n"
	"                  visited, which every pixel of the draw waits through.\n"
	"                  Discarded pixels count what they ran up to their\n"
	"                  kill; median: the lower middle value.\n"
	"  --wrap UNIT=M   wrap mode of a texture unit: repeat (default), clamp\n"
	"                  (to edge) or mirror (mirrored repeat); cube maps clamp\n"
	"  --texture UNIT=T  a PNG file or a built-in: checker (8x8), gradient\n"
	"                  (16x16), miptree (piglit's: 8x8 red, 4x4 green, 2x2\n"
	"                  blue, 1x1 white levels)\n"
	"  --filter UNIT=MIN[,MAG]  minification filter: nearest (default), linear\n"
	"                  (bilinear), or GL's nearest_mipmap_nearest,\n"
	"                  linear_mipmap_nearest, nearest_mipmap_linear,\n"
	"                  linear_mipmap_linear, which give a single image a chain\n"
	"                  of levels by box filtering; MAG, nearest or linear,\n"
	"                  magnifies (default: as MIN within a level).  The level\n"
	"                  of detail is GL's, from each 2x2 quad's coordinates\n"
	"  --list          print what the program takes and gives, no draw: its\n"
	"                  uniforms (slot and components of each vec4 element),\n"
	"                  samplers (unit, target), inputs (temporary, components),\n"
	"                  outputs (render target, or depth), and the slots the\n"
	"                  constant program computes before every draw\n"
	"  --max-steps N   stop a runaway program after N steps of the program\n"
	"                  counter (one for the whole draw; 1..1000000000); the\n"
	"                  default is 2000000 for small draws, less for large ones\n"
	"Exit status: 0 success; 1 invalid or corrupt program, or a runtime\n"
	"fault (the step bound reached, a draw too large); 2 bad usage or I/O\n"
	"error (including a texture file that is no readable PNG).\n";

enum { MAX_STEPS_LIMIT = 1000000000 };

/* uscc-run's own options. */
struct run_extra {
	int max_steps;          /* 0: the emulator's default */
	bool stats, list;
};

/* uscc-run's own options: --max-steps N, --stats, --list. */
static int extra_option(void *ctx, int argc, char **argv, int *i, char *why, size_t why_len)
{
	struct run_extra *x = ctx;
	if (!strcmp(argv[*i], "--stats")) {
		x->stats = true;
		return 1;
	}
	if (!strcmp(argv[*i], "--list")) {
		x->list = true;
		return 1;
	}
	const char *v;
	int got = run_opt_value("uscc-run", argc, argv, i, "--max-steps", &v, why, why_len);
	if (got <= 0)
		return got;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (end == v || *end || errno == ERANGE || n < 1 || n > MAX_STEPS_LIMIT) {
		snprintf(why, why_len, "uscc-run: bad max-steps '%s' (want 1..%d)", v,
			 MAX_STEPS_LIMIT);
		return -1;
	}
	x->max_steps = (int)n;
	return 1;
}

_Static_assert((int)RUN_UNITS == (int)R500_NUM_SAMPLERS, "one texture spec per sampler unit");

static int sampler_target(const struct r500_program *p, int unit)
{
	for (int i = 0; p->samplers && i < p->nsamplers; i++)
		if (p->samplers[i].unit == unit)
			return p->samplers[i].target;
	return IR_TARGET_2D;
}

/* --list: the program's interface, one line per item. */
static void list_program(const struct r500_program *p)
{
	for (int i = 0; i < p->nuniforms; i++) {
		const struct r500_uniform *u = &p->uniforms[i];
		/* a record is one vec4 element: of a matrix, one column */
		int cols = ir_type_columns(u->type);
		printf("uniform %s", u->name);
		if (u->array_len)
			printf("[%d]", u->element / cols);
		printf(" %s", u->type);
		if (cols > 1)
			printf(" column %d", u->element % cols);
		else if (!u->array_len && u->element)
			printf(" (element %d)", u->element);
		printf(" -> c%d.%s\n", u->slot, u->swizzle);
	}
	for (int i = 0; i < p->nsamplers; i++)
		printf("sampler %s %s%s -> unit %d\n", p->samplers[i].name,
		       tex_target_name(p->samplers[i].target), p->samplers[i].shadow ? " shadow" : "",
		       p->samplers[i].unit);
	for (int i = 0; i < p->ninputs; i++)
		printf("input %s.%s -> t%d\n", p->inputs[i].name, p->inputs[i].components,
		       p->inputs[i].temp);
	for (int i = 0; i < p->noutputs; i++) {
		if (p->outputs[i].target < 0)
			printf("output %s -> depth\n", p->outputs[i].name);
		else
			printf("output %s -> target %d\n", p->outputs[i].name, p->outputs[i].target);
	}
	/* the slots the constant program fills before every draw */
	for (int o = 0; o < p->cp.nouts; o++) {
		const struct r500_cp_output *out = &p->cp.outs[o];
		printf("computed c%u.", out->slot);
		for (int c = 0; c < out->ncomp && c < 4; c++)
			putchar("xyzw"[(out->shift + c) & 3]);
		printf(" <- constant program (%d instructions)\n", p->cp.ninst);
	}
}

/* --stats: the JSON line after the other stdout output. */
static bool print_stats(const struct emu_image *img)
{
	struct emu_stats_summary s;
	if (!emu_stats_summarize(img, &s))
		return false;
	emu_stats_print_json(stdout, &s);
	return true;
}

/* Runs the program and reports; returns the exit status. */
static int run(const struct run_opts *o, const struct r500_program *p,
	       const struct run_extra *x)
{
	struct run_textures tex;
	int target[RUN_UNITS];
	char why[512];
	for (int u = 0; u < RUN_UNITS; u++)
		target[u] = sampler_target(p, u);
	if (!run_textures_load(&tex, o, target, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return 2;
	}
	/* the emulator's own copies of the inputs, field for field */
	struct emu_uniform uniforms[RUN_MAX_ITEMS];
	struct emu_varying varyings[RUN_MAX_ITEMS];
	for (int i = 0; i < o->nuniforms; i++) {
		uniforms[i].name = o->uniforms[i].name;
		uniforms[i].ncomp = o->uniforms[i].ncomp;
		memcpy(uniforms[i].value, o->uniforms[i].value, sizeof uniforms[i].value);
	}
	for (int i = 0; i < o->nvaryings; i++) {
		varyings[i].name = o->varyings[i].name;
		memcpy(varyings[i].corners, o->varyings[i].corners, sizeof varyings[i].corners);
	}
	struct emu_config cfg = { .width = o->width, .height = o->height,
				  .varyings = varyings, .nvaryings = o->nvaryings,
				  .uniforms = uniforms, .nuniforms = o->nuniforms,
				  .textures = tex.img, .ntextures = R500_NUM_SAMPLERS,
				  .max_steps = x->max_steps, .stats = x->stats };
	struct emu_image img;
	int status = 1;
	if (!emu_run(p, &cfg, &img, why, sizeof why)) {
		fprintf(stderr, "%s: error: %s\n", o->file, why);
		if (img.step_limit)
			fprintf(stderr, "%s: note: raise the step bound with --max-steps N "
				"(up to %d)\n", o->file, MAX_STEPS_LIMIT);
	} else {
		status = 0;
		for (char *w = img.warnings, *nl; w && *w; w = nl + 1) {
			nl = strchr(w, '\n');
			if (!nl)
				nl = w + strlen(w) - 1;
			fprintf(stderr, "%s: warning: %.*s\n", o->file, (int)(nl - w), w);
		}
		struct run_image out = { img.width, img.height, img.rt[o->target], img.discarded };
		if (!run_report(stdout, o, &out, why, sizeof why)) {
			fprintf(stderr, "%s\n", why);
			status = 2;
		} else if (x->stats && !print_stats(&img)) {
			fprintf(stderr, "uscc-run: out of memory for --stats\n");
			status = 2;
		}
		emu_image_free(&img);
	}
	run_textures_free(&tex);
	return status;
}

int main(int argc, char **argv)
{
	static struct run_opts o;
	char why[512];
	struct run_extra extra = { 0 };
	int st = run_parse_exit(run_args_parse(&o, "uscc-run", argc, argv, extra_option,
					       &extra, why, sizeof why),
				why, usage, stdout, stderr);
	if (st >= 0)
		return st;
	o.no_default_dump = extra.stats; /* --stats alone prints just its line */
	size_t size = 0;
	char *data = run_read_file(o.file, &size);
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
	int status;
	memset(&prog, 0, sizeof prog);
	if (!container_read((const uint8_t *)data, size, arena, &prog, why, sizeof why)) {
		fprintf(stderr, "%s: error: %s\n", o.file, why);
		status = 1;
	} else if (extra.list) {
		list_program(&prog);
		status = 0;
	} else {
		status = run(&o, &prog, &extra);
	}
	arena_destroy(arena);
	free(data);
	return status;
}
