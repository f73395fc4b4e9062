/* uscc: the command line (INTERFACES.md §1), a thin main over libuscc.
 * Parses options, reads the input, runs one library action, writes the
 * output atomically (temporary file + rename) and maps the status to the
 * exit code: 0 success, 1 invalid shader / container, 2 usage or I/O. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shadow.h"
#include "uscc.h"

enum mode { MODE_COMPILE, MODE_ASSEMBLY, MODE_PREPROCESS, MODE_CHECK, MODE_DUMP_IR,
	    MODE_DUMP_IR_ALL, MODE_DUMP_BACKEND, MODE_DUMP_BACKEND_ALL, MODE_DISASM, MODE_INFO };
enum emit { EMIT_BIN, EMIT_RAW, EMIT_HEX };
enum { EXIT_INVALID = 1, EXIT_USAGE = 2 };

struct cli {
	enum mode mode;
	bool mode_set, stats, werror, stage_set, language_set;
	enum uscc_stage stage;
	enum uscc_language language;
	int opt_level;
	enum emit emit;
	const char *input, *output;
	struct uscc_options *opts;
};

static const char help_text[] =
	"Usage: uscc [options] FILE.glsl [-o FILE.bin]   compile a fragment shader\n"
	"       uscc [options] FILE.glsl --dump-ir[=all] print the SSA IR (=all: after every pass)\n"
	"       uscc [options] FILE.glsl -S              print the R500 program as assembly\n"
	"       uscc [options] FILE.glsl --dump-backend[=all]  print the backend's middle form\n"
	"                                                after its last stage (=all: every stage)\n"
	"       uscc [options] FILE.glsl --stats         print the figures as one JSON object\n"
	"       uscc -E FILE.glsl                        print the preprocessed source\n"
	"       uscc --check FILE                        preprocess, parse, type-check only\n"
	"       uscc --disasm FILE.bin                   print a container's program as assembly\n"
	"       uscc --info FILE.bin                     print a container as one JSON object\n"
	"       uscc --list-steps                        every step of a compile, in order\n"
	"\n"
	"Options:\n"
	"  -o FILE            output file ('-' = standard output).  Compiling without -o\n"
	"                     writes a.bin in the current directory (like cc's a.out);\n"
	"                     text outputs go to standard output.\n"
	"  --stage=fragment|vertex  shader stage; default from the file name: .vert/.vs\n"
	"                     vertex, anything else (.frag/.fs/...) fragment.  Vertex\n"
	"                     shaders are only checked and lowered to IR.\n"
	"  -x glsl|tgsi|tgsi-tokens  source language; default from the file name:\n"
	"                     .tgsi TGSI (a fragment program as Mesa's tgsi_dump\n"
	"                     prints it, docs/tgsi.md), .tgsib the same as Mesa's\n"
	"                     binary tokens, anything else GLSL\n"
	"  -D NAME[=VALUE]    define a macro (VALUE defaults to 1)\n"
	"  -U NAME            undefine a macro\n"
	"  -O0                no optimization passes and no optimizing backend stage\n"
	"                     (still correct code)\n"
	"  -O2, -O            optimize (the default)\n"
	"  --emit=bin|raw|hex output form when compiling: the container (default), the\n"
	"                     bare little-endian code words, or C array text\n"
	"  -Werror            treat warnings as errors\n"
	"  --no-constant-program  compute everything in the pixel program; by default\n"
	"                     work that depends only on uniforms moves into a constant\n"
	"                     program the driver runs when the uniforms change\n"
	"  --divergent-jumps  IFs with lookups whose quad's pixels may differ jump\n"
	"                     (lookup coordinates made for inactive pixels too) when\n"
	"                     large; by default they are if-converted\n"
	"  --r300             Mesa r300's conventions: inputs, constants, the window\n"
	"                     position and the face as r300 sets them up\n"
	"                     (integrations/mesa-r300)\n"
	"  --limit NAME=N     tighten a resource limit (source-bytes, line-length, tokens,\n"
	"                     preprocessed-bytes, macro-depth, expression-depth,\n"
	"                     block-depth, call-depth, array-size, struct-fields,\n"
	"                     struct-depth, ir-instructions); N is 1 up to the default\n"
	"  --shadow UNIT=COMPARE[,MODE]\n"
	"                     the depth compare of a shadow sampler's unit, as the\n"
	"                     texture there has it: COMPARE lequal (default), gequal,\n"
	"                     less, greater, equal, notequal, always, never; MODE\n"
	"                     luminance (default), intensity, alpha, red\n"
	"  --skip=NAME        skip one IR pass or optional backend stage (repeatable;\n"
	"                     --skip=help lists them); for bisecting a miscompile.  The\n"
	"                     environment variable USCC_SKIP=NAME,NAME does the same for\n"
	"                     every program that uses libuscc\n"
	"  --version          print the version\n"
	"  --help             print this help\n"
	"  FILE '-'           read the source from standard input\n"
	"\n"
	"Diagnostics go to standard error as FILE:LINE:COL: error: MESSAGE.\n"
	"Exit status: 0 success, 1 invalid shader (or does not fit the hardware, or a\n"
	"corrupt container), 2 bad usage or I/O failure.  On failure the output file is\n"
	"not created and an existing one is left untouched.\n";

static int usage(const char *fmt, const char *arg)
{
	fputs("uscc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'uscc --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

static int exit_code(enum uscc_status st)
{
	switch (st) {
	case USCC_OK: return 0;
	case USCC_SHADER_ERROR:
	case USCC_CORRUPT_CONTAINER: return EXIT_INVALID;
	default: return EXIT_USAGE;
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static enum uscc_stage stage_of_file(const char *name)
{
	return ends_with(name, ".vert") || ends_with(name, ".vs") ? USCC_STAGE_VERTEX
								   : USCC_STAGE_FRAGMENT;
}

/* ---- files ---- */

/* Whole file (or stdin for "-") in a malloc'ed buffer. */
static char *read_input(const char *path, size_t *size)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else {
			buf = nb;
			cap *= 2;
		}
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

/* Writes to a temporary file beside `path`, then renames it over `path`:
 * on any failure `path` is not created and an existing file is untouched. */
static bool write_output(const char *path, const void *data, size_t size)
{
	if (strcmp(path, "-") == 0)
		return fwrite(data, 1, size, stdout) == size && fflush(stdout) == 0;
	size_t n = strlen(path);
	char *tmp = malloc(n + 16);
	if (!tmp)
		return false;
	snprintf(tmp, n + 16, "%s.tmp-XXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return false;
	}
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	FILE *f = fdopen(fd, "wb");
	bool ok = f && fwrite(data, 1, size, f) == size;
	if (f)
		ok = fclose(f) == 0 && ok;
	else
		close(fd);
	ok = ok && rename(tmp, path) == 0;
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok;
}

/* ---- options ---- */

static const struct { const char *name; enum mode mode; } mode_flags[] = {
	{ "-S", MODE_ASSEMBLY },       { "-E", MODE_PREPROCESS },
	{ "--check", MODE_CHECK },     { "--dump-ir", MODE_DUMP_IR },
	{ "--dump-ir=all", MODE_DUMP_IR_ALL }, { "--dump-backend", MODE_DUMP_BACKEND },
	{ "--dump-backend=all", MODE_DUMP_BACKEND_ALL }, { "--disasm", MODE_DISASM },
	{ "--info", MODE_INFO },
};

static const struct { const char *name; enum emit emit; } emit_names[] = {
	{ "bin", EMIT_BIN }, { "raw", EMIT_RAW }, { "hex", EMIT_HEX },
};

static int set_mode(struct cli *c, enum mode m, const char *flag)
{
	if (c->mode_set && c->mode != m)
		return usage("'%s' conflicts with another mode option", flag);
	c->mode = m;
	c->mode_set = true;
	return 0;
}

/* The value of an option given as "-XVALUE" or "-X VALUE". */
static const char *option_value(int argc, char **argv, int *i, size_t flag_len)
{
	if (argv[*i][flag_len])
		return argv[*i] + flag_len;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int parse_define(struct cli *c, const char *v)
{
	const char *eq = strchr(v, '=');
	char *name = eq ? strndup(v, (size_t)(eq - v)) : strdup(v);
	if (!name)
		return usage("out of memory%s", "");
	enum uscc_status st = uscc_options_define(c->opts, name, eq ? eq + 1 : NULL);
	free(name);
	return st == USCC_OK ? 0 : usage("invalid macro name in -D '%s'", v);
}

/* --list-steps: util/pipeline.def as a table, the step column as wide
 * as its longest name */
static void list_steps(void)
{
	struct uscc_step st;
	int width = 4;
	for (int i = 0; uscc_pipeline_step(i, &st); i++)
		if ((int)strlen(st.name) > width)
			width = (int)strlen(st.name);
	printf("%-9s %-*s %-16s %-3s %s\n", "layer", width, "step", "--skip", "-O", "note");
	for (int i = 0; uscc_pipeline_step(i, &st); i++) {
		char note[160];
		snprintf(note, sizeof note, "%s%s%s", st.within ? "inside " : "",
			 st.within ? st.within : "", st.within ? ": " : "");
		printf("%-9s %-*s %-16s %-3d %s%s\n", st.layer, width, st.name,
		       st.skip ? st.skip : "-", st.min_level, note, st.note ? st.note : "");
	}
}

/* --skip=NAME; --skip=help lists the names */
static int parse_skip(struct cli *c, const char *v)
{
	if (strcmp(v, "help") == 0) {
		puts("IR passes and optional backend stages --skip takes:");
		for (int i = 0; uscc_skip_name(i); i++)
			printf("  %s\n", uscc_skip_name(i));
		exit(0);
	}
	if (uscc_options_skip(c->opts, v) == USCC_OK)
		return 0;
	return usage("--skip: '%s' is neither an IR pass nor an optional backend stage "
		     "(--skip=help lists them)", v);
}

/* --limit NAME=N */
static int parse_limit(struct cli *c, const char *v)
{
	const char *eq = strchr(v, '=');
	char *name = eq ? strndup(v, (size_t)(eq - v)) : NULL;
	enum uscc_limit which;
	bool known = name && uscc_limit_find(name, &which) == USCC_OK;
	free(name);
	if (!known)
		return usage("unknown limit in --limit '%s' (see --help)", v);
	char *end;
	errno = 0;
	long n = strtol(eq + 1, &end, 10);
	if (errno || end == eq + 1 || *end || uscc_options_set_limit(c->opts, which, n) != USCC_OK)
		return usage("--limit '%s': the value must be an integer from 1 up to the default", v);
	return 0;
}

/* --shadow UNIT=COMPARE[,MODE] */
static int parse_shadow(struct cli *c, const char *v)
{
	int unit, compare, mode;
	if (!tex_shadow_parse(v, &unit, &compare, &mode) ||
	    uscc_options_set_shadow(c->opts, unit, (enum uscc_compare)compare,
				    (enum uscc_depth_mode)mode) != USCC_OK)
		return usage("--shadow '%s': a unit 0..15, a compare function and a depth mode "
			     "(see --help)", v);
	return 0;
}

static int parse_one(struct cli *c, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	for (size_t k = 0; k < sizeof mode_flags / sizeof *mode_flags; k++)
		if (strcmp(a, mode_flags[k].name) == 0)
			return set_mode(c, mode_flags[k].mode, a);
	if (strcmp(a, "--list-steps") == 0) {
		list_steps();
		exit(0);
	} else if (strcmp(a, "--stats") == 0) {
		c->stats = true;
	} else if (strcmp(a, "-Werror") == 0) {
		c->werror = true;
	} else if (strcmp(a, "--no-constant-program") == 0) {
		uscc_options_set_constant_program(c->opts, false);
	} else if (strcmp(a, "--divergent-jumps") == 0) {
		uscc_options_set_divergent_jumps(c->opts, true);
	} else if (strcmp(a, "--r300") == 0) {
		uscc_options_set_r300_conventions(c->opts, true);
	} else if (strcmp(a, "-O0") == 0) {
		c->opt_level = 0;
	} else if (strcmp(a, "-O2") == 0 || strcmp(a, "-O") == 0) {
		c->opt_level = 2;
	} else if (strcmp(a, "-o") == 0) {
		if (c->output)
			return usage("'%s' given twice", "-o");
		if (*i + 1 >= argc)
			return usage("'%s' needs a file name", "-o");
		c->output = argv[++*i];
	} else if (strncmp(a, "-D", 2) == 0) {
		const char *v = option_value(argc, argv, i, 2);
		return v ? parse_define(c, v) : usage("'%s' needs a macro name", "-D");
	} else if (strncmp(a, "-x", 2) == 0) {
		const char *v = option_value(argc, argv, i, 2);
		if (v && !strcmp(v, "glsl"))
			c->language = USCC_LANGUAGE_GLSL;
		else if (v && !strcmp(v, "tgsi"))
			c->language = USCC_LANGUAGE_TGSI;
		else if (v && !strcmp(v, "tgsi-tokens"))
			c->language = USCC_LANGUAGE_TGSI_TOKENS;
		else
			return usage("-x takes glsl, tgsi or tgsi-tokens, not '%s'", v ? v : "");
		c->language_set = true;
	} else if (strncmp(a, "-U", 2) == 0) {
		const char *v = option_value(argc, argv, i, 2);
		if (!v)
			return usage("'%s' needs a macro name", "-U");
		if (uscc_options_undefine(c->opts, v) != USCC_OK)
			return usage("invalid macro name in -U '%s'", v);
	} else if (strcmp(a, "--limit") == 0 || strncmp(a, "--limit=", 8) == 0) {
		const char *v = a[7] == '=' ? a + 8 : *i + 1 < argc ? argv[++*i] : NULL;
		return v ? parse_limit(c, v) : usage("'%s' needs NAME=N", "--limit");
	} else if (strcmp(a, "--shadow") == 0 || strncmp(a, "--shadow=", 9) == 0) {
		const char *v = a[8] == '=' ? a + 9 : *i + 1 < argc ? argv[++*i] : NULL;
		return v ? parse_shadow(c, v) : usage("'%s' needs UNIT=COMPARE[,MODE]", "--shadow");
	} else if (strcmp(a, "--skip") == 0 || strncmp(a, "--skip=", 7) == 0) {
		const char *v = a[6] == '=' ? a + 7 : *i + 1 < argc ? argv[++*i] : NULL;
		return v ? parse_skip(c, v) : usage("'%s' needs a name", "--skip");
	} else if (strncmp(a, "--stage=", 8) == 0) {
		const char *v = a + 8;
		if (!strcmp(v, "fragment") || !strcmp(v, "frag"))
			c->stage = USCC_STAGE_FRAGMENT;
		else if (!strcmp(v, "vertex") || !strcmp(v, "vert"))
			c->stage = USCC_STAGE_VERTEX;
		else
			return usage("unknown stage '%s' (fragment or vertex)", v);
		c->stage_set = true;
	} else if (strncmp(a, "--emit=", 7) == 0) {
		size_t k = 0, n = sizeof emit_names / sizeof *emit_names;
		while (k < n && strcmp(a + 7, emit_names[k].name) != 0)
			k++;
		if (k == n)
			return usage("unknown --emit form '%s' (bin, raw or hex)", a + 7);
		c->emit = emit_names[k].emit;
	} else if (a[0] == '-' && a[1]) {
		return usage("unknown option '%s'", a);
	} else {
		if (c->input)
			return usage("more than one input file ('%s')", a);
		c->input = a;
	}
	return 0;
}

/* ---- modes ---- */

static int report(const struct uscc_result *r)
{
	fputs(uscc_result_diagnostics(r), stderr);
	return exit_code(uscc_result_status(r));
}

static int write_or_fail(const char *out, const void *data, size_t size)
{
	if (write_output(out, data, size))
		return 0;
	fprintf(stderr, "uscc: error: cannot write '%s'\n", out);
	return EXIT_USAGE;
}

/* The code words of a container as the --emit form asks. */
static int emit_code(const struct cli *c, const void *bin, size_t size, const char *out)
{
	if (c->emit == EMIT_BIN)
		return write_or_fail(out, bin, size);
	struct uscc_container *ct;
	char err[256];
	enum uscc_status st = uscc_container_open(NULL, bin, size, &ct, err, sizeof err);
	if (st != USCC_OK) {
		fprintf(stderr, "uscc: error: %s\n", err);
		return exit_code(st);
	}
	int ninst;
	const uint32_t *w = uscc_container_code(ct, &ninst);
	size_t nwords = (size_t)ninst * 6;
	size_t cap = 128 + nwords * 13;
	char *text = malloc(c->emit == EMIT_RAW ? nwords * 4 : cap);
	size_t len = 0;
	if (text && c->emit == EMIT_RAW) {
		for (size_t i = 0; i < nwords; i++)
			for (int b = 0; b < 4; b++)
				text[len++] = (char)(w[i] >> (8 * b));
	} else if (text) {
		len += (size_t)snprintf(text, cap, "/* uscc %s: %d instructions, 6 words each */\n"
				"static const uint32_t uscc_code[%zu] = {\n", uscc_version(), ninst, nwords);
		for (size_t i = 0; i < nwords; i++)
			len += (size_t)snprintf(text + len, cap - len, "%s0x%08X,%s", i % 6 ? " " : "\t",
						(unsigned)w[i], i % 6 == 5 ? "\n" : "");
		len += (size_t)snprintf(text + len, cap - len, "};\n");
	}
	int code = text ? write_or_fail(out, text, len) : EXIT_USAGE;
	free(text);
	uscc_container_destroy(ct);
	return code;
}

static const enum uscc_action mode_actions[] = {
	[MODE_COMPILE] = USCC_ACTION_COMPILE,       [MODE_ASSEMBLY] = USCC_ACTION_ASSEMBLY,
	[MODE_PREPROCESS] = USCC_ACTION_PREPROCESS, [MODE_CHECK] = USCC_ACTION_CHECK,
	[MODE_DUMP_IR] = USCC_ACTION_DUMP_IR,       [MODE_DUMP_IR_ALL] = USCC_ACTION_DUMP_IR_ALL,
	[MODE_DUMP_BACKEND] = USCC_ACTION_DUMP_BACKEND,
	[MODE_DUMP_BACKEND_ALL] = USCC_ACTION_DUMP_BACKEND_ALL,
};

static int run_source(struct cli *c, const char *src, size_t len)
{
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_run(c->opts, mode_actions[c->mode], src, len, &r);
	if (!r) {
		fputs("uscc: error: out of memory\n", stderr);
		return EXIT_USAGE;
	}
	int code = report(r);
	if (st == USCC_OK) {
		size_t size;
		const void *data = uscc_result_data(r, &size);
		const char *out = c->output;
		if (c->mode == MODE_COMPILE) {
			/* --stats alone only prints the figures */
			if (!out && !c->stats)
				out = "a.bin";
			if (out)
				code = emit_code(c, data, size, out);
		} else if (c->mode != MODE_CHECK) {
			code = write_or_fail(out ? out : "-", data, size);
		}
		const char *json = uscc_result_stats_json(r);
		if (code == 0 && c->stats && json)
			printf("%s\n", json);
	}
	uscc_result_destroy(r);
	return code;
}

/* --disasm and --info read a container. */
static int run_container(struct cli *c, const void *data, size_t size)
{
	struct uscc_container *ct;
	char err[256];
	enum uscc_status st = uscc_container_open(NULL, data, size, &ct, err, sizeof err);
	if (st != USCC_OK) {
		fprintf(stderr, "%s: error: %s\n", c->input, err);
		return exit_code(st);
	}
	const char *text = c->mode == MODE_INFO ? uscc_container_json(ct)
						: uscc_container_disasm(ct);
	int code = EXIT_USAGE;
	if (text) {
		size_t n = strlen(text);
		char *buf = malloc(n + 2);
		if (buf) {
			memcpy(buf, text, n);
			if (!n || text[n - 1] != '\n')
				buf[n++] = '\n';
			code = write_or_fail(c->output ? c->output : "-", buf, n);
			free(buf);
		}
	}
	uscc_container_destroy(ct);
	return code;
}

static int run(struct cli *c, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(help_text, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("uscc %s\n", uscc_version());
			return 0;
		}
	}
	for (int i = 1; i < argc; i++) {
		int e = parse_one(c, argc, argv, &i);
		if (e)
			return e;
	}
	if (!c->input)
		return usage("no input file%s", "");
	bool container_mode = c->mode == MODE_DISASM || c->mode == MODE_INFO;
	if (c->stats && c->mode != MODE_COMPILE && c->mode != MODE_ASSEMBLY)
		return usage("'%s' goes with compiling or -S", "--stats");
	if (c->emit != EMIT_BIN && c->mode != MODE_COMPILE)
		return usage("'%s' goes with compiling only", "--emit");
	if (!c->stage_set)
		c->stage = stage_of_file(c->input);
	if (!c->language_set)
		c->language = ends_with(c->input, ".tgsi")    ? USCC_LANGUAGE_TGSI
			      : ends_with(c->input, ".tgsib") ? USCC_LANGUAGE_TGSI_TOKENS
							      : USCC_LANGUAGE_GLSL;
	if (c->language != USCC_LANGUAGE_GLSL && c->mode == MODE_PREPROCESS)
		return usage("'%s' is TGSI, which has no preprocessor (-E)", c->input);
	if (!container_mode && c->stage == USCC_STAGE_VERTEX &&
	    (c->mode == MODE_COMPILE || c->mode == MODE_ASSEMBLY || c->mode == MODE_DUMP_BACKEND ||
	     c->mode == MODE_DUMP_BACKEND_ALL))
		return usage("'%s' is a vertex shader: only --check, -E and --dump-ir apply "
			     "(R500 code is for fragment shaders)", c->input);
	size_t size = 0;
	char *data = read_input(c->input, &size);
	if (!data) {
		fprintf(stderr, "uscc: error: cannot read '%s'\n", c->input);
		return EXIT_USAGE;
	}
	int code;
	if (container_mode) {
		code = run_container(c, data, size);
	} else {
		const char *name = strcmp(c->input, "-") ? c->input : "<stdin>";
		bool ok = uscc_options_set_stage(c->opts, c->stage) == USCC_OK &&
			  uscc_options_set_language(c->opts, c->language) == USCC_OK &&
			  uscc_options_set_opt_level(c->opts, c->opt_level) == USCC_OK &&
			  uscc_options_set_werror(c->opts, c->werror) == USCC_OK &&
			  uscc_options_set_filename(c->opts, name) == USCC_OK;
		code = ok ? run_source(c, data, size) : usage("out of memory%s", "");
	}
	free(data);
	return code;
}

int main(int argc, char **argv)
{
	struct cli c = { .opt_level = 2 };
	c.opts = uscc_options_create(NULL);
	if (!c.opts) {
		fputs("uscc: error: out of memory\n", stderr);
		return EXIT_USAGE;
	}
	int code = run(&c, argc, argv);
	uscc_options_destroy(c.opts);
	return code;
}
