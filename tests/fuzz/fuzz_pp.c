/* libFuzzer target: the GLSL preprocessor alone (frontend/pp.h).  The
 * first byte picks the stage, whether -D/-U options are given, and
 * whether the rest also goes through pp_eval as an #if expression.
 * Checks: the output is as long as it says and has a line and column for
 * every byte and one past the end. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "fe.h"
#include "fuzz_util.h"
#include "pp.h"

static volatile long long sink;

static void run(const char *src, unsigned sel, struct arena *arena)
{
	static const struct glsl_define defines[] = {
		{ "FUZZ", NULL, false }, { "VALUE", "(1 + 2) * 3", false },
		{ "FN", "x", false }, { "GL_ES", NULL, true }, { "FUZZ", NULL, true },
		{ "LATE", "FUZZ", false },
	};
	struct diag_sink d;
	diag_init(&d, arena);
	diag_add_source(&d, "fuzz.frag", src);
	struct glsl_options opts = {
		.stage = (sel & 1) ? GLSL_STAGE_VERTEX : GLSL_STAGE_FRAGMENT,
		.defines = (sel & 2) ? defines : NULL,
		.ndefines = (sel & 2) ? (int)(sizeof defines / sizeof *defines) : 0 };
	struct fe_ctx fe;
	memset(&fe, 0, sizeof fe);
	fe.arena = arena;
	fe.diag = &d;
	fe.file = "fuzz.frag";
	fe.stage = opts.stage;
	fe.version = 110;
	limits_default(&fe.limits);
	struct pp_output out;
	memset(&out, 0, sizeof out);
	if (pp_run(&fe, src, &opts, &out)) {
		if (!out.text || strlen(out.text) != out.len)
			fuzz_bug("preprocessed text is not as long as it says", src);
		if (!out.line || !out.col)
			fuzz_bug("preprocessed text has no locations", src);
		/* #line may set any line number: only read them all */
		for (size_t i = 0; i <= out.len; i++)
			sink += out.line[i] + out.col[i];
	}
	(void)diag_render(&d);
	if (sel & 4) {
		long long v = 0;
		const char *err = pp_eval(src, &v);
		sink += err ? (long long)strlen(err) : v;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *src = fuzz_strndup(data + 1, size - 1);
	struct arena *arena = arena_create(&mem_default_allocator);
	if (arena)
		run(src, data[0], arena);
	arena_destroy(arena);
	free(src);
	return 0;
}
