/* Bridge to the IR pass runner (ir/ir_pass.h). */
#include "uscc_optimize.h"

#include "ir_pass.h"
#include "r500_cost.h"

bool uscc_optimize(struct ir_func *f, int opt_level, sw_set skip, bool dump_all, char **dump,
		   struct arena *arena, struct diag_sink *diag)
{
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, diag);
	ctx.skip = skip;
	struct ir_dump_text text = { .full = false };
	strbuf_init(&text.buf, arena);
	if (dump_all) {
		/* the IR as the frontend made it comes first */
		ir_dump_text_append(&text, "frontend", f);
		ctx.dump = ir_dump_text_append;
		ctx.dump_ud = &text;
	}
	f->cost = &r500_ir_cost; /* the passes' questions go to the backend's model */
	bool ok = ir_optimize(f, opt_level, &ctx) && !ctx.failed;
	if (dump_all)
		*dump = strbuf_text(&text.buf);
	return ok && !arena_failed(arena) && (!dump_all || *dump);
}
