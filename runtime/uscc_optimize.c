/* Bridge to the IR pass runner (ir/ir_pass.h). */
#include "uscc_optimize.h"

#include "ir_pass.h"

bool uscc_optimize(struct ir_func *f, int opt_level, bool dump_all, char **dump,
		   struct arena *arena, struct diag_sink *diag)
{
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, diag);
	struct ir_dump_text text = { .arena = arena, .text = "" };
	if (dump_all) {
		/* the IR as the frontend made it comes first */
		ir_dump_text_append(&text, "frontend", f);
		ctx.dump = ir_dump_text_append;
		ctx.dump_ud = &text;
	}
	bool ok = ir_optimize(f, opt_level, &ctx) && !ctx.failed;
	if (dump_all)
		*dump = text.text;
	return ok && !arena_failed(arena);
}
