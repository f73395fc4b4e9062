/* The TGSI frontend's entry point (tgsi.h): parse, check the structure,
 * lower. */
#include "tgsi.h"

#include <string.h>

#include "tgsi_lower.h"
#include "tgsi_tokens.h"

/* Reads the program into *prog from text (words NULL) or tokens. */
static struct ir_func *to_ir(const char *source, const uint32_t *words, size_t nwords,
			     const char *filename, const struct glsl_options *opts,
			     struct arena *arena, struct diag_sink *diag)
{
	struct fe_ctx fe;
	memset(&fe, 0, sizeof fe);
	fe.arena = arena;
	fe.diag = diag;
	fe.file = filename ? arena_strdup(arena, filename) : "<source>";
	fe.stage = GLSL_STAGE_FRAGMENT;
	if (opts && opts->limits)
		fe.limits = *opts->limits;
	else
		limits_default(&fe.limits);
	if (!words) {
		if (!source)
			source = "";
		diag_add_source(diag, fe.file, source);
	}
	if (opts && opts->stage != GLSL_STAGE_FRAGMENT) {
		diag_error(diag, fe_loc(&fe, 0, 0), "uscc compiles TGSI fragment programs only");
		return NULL;
	}
	struct tgsi_prog prog;
	bool read = words ? tgsi_read_tokens(words, nwords, fe.file, arena, diag, &prog)
			  : tgsi_parse(source, fe.file, arena, diag, &prog);
	if (!read || !tgsi_structure(&prog, diag)) {
		if (!diag->errors)
			diag_error(diag, fe_loc(&fe, 0, 0), "out of memory");
		return NULL;
	}
	struct ir_func *f = tgsi_lower_program(&fe, &prog, !(opts && opts->tgsi_trig_radians));
	glsl_apply_shadow_state(f, opts);
	return f;
}

struct ir_func *tgsi_to_ir(const char *source, const char *filename,
			   const struct glsl_options *opts, struct arena *arena,
			   struct diag_sink *diag)
{
	return to_ir(source, NULL, 0, filename, opts, arena, diag);
}

struct ir_func *tgsi_tokens_to_ir(const uint32_t *words, size_t nwords, const char *filename,
				  const struct glsl_options *opts, struct arena *arena,
				  struct diag_sink *diag)
{
	static const uint32_t none[1];
	return to_ir(NULL, words ? words : none, words ? nwords : 0, filename, opts, arena, diag);
}
