/* The pass runner and the -O2 pipeline (ir_pass.h). */
#include "ir_pass.h"

#include <string.h>

#include "name_list.h"

void ir_pass_ctx_init(struct ir_pass_ctx *ctx, struct diag_sink *diag)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->diag = diag;
#ifndef NDEBUG
	ctx->validate = true;
#endif
}

bool ir_pass_skipped(const struct ir_pass_ctx *ctx, const char *name)
{
	return ctx && name_list_has(ctx->skip, name);
}

static const char *const pass_names[] = {
	"loop_unroll", "constant_fold", "lane_const", "algebraic", "scalar_factor", "scale_fold",
	"dot_offset", "known_cond", "dead_branch", "copy_prop", "vec_affine", "cse", "licm", "dce",
	"slp", "loop_prefetch"
};

const char *ir_pass_name(int i)
{
	return i >= 0 && i < (int)(sizeof pass_names / sizeof *pass_names) ? pass_names[i] : NULL;
}

bool ir_pass_known(const char *name)
{
	for (int i = 0; ir_pass_name(i); i++)
		if (name_list_has(ir_pass_name(i), name))
			return true;
	return false;
}

bool ir_pass_run(struct ir_pass_ctx *ctx, struct ir_func *f, const char *name, ir_pass_fn pass)
{
	if (ctx && (ctx->failed || ir_pass_skipped(ctx, name)))
		return false;
	bool progress = pass(f);
	if (ctx && progress && ctx->validate) {
		struct diag_sink local;
		diag_init(&local, f->arena);
		struct diag_sink *d = ctx->diag ? ctx->diag : &local;
		if (!ir_validate(f, d)) {
			diag_error(d, (struct src_loc){ 0 }, "IR invalid after pass '%s'", name);
			ctx->failed = true;
		}
	}
	if (ctx && ctx->dump)
		ctx->dump(ctx->dump_ud, name, f);
	return progress;
}

void ir_dump_text_add(struct ir_dump_text *d, const char *heading, const char *body)
{
	if (d->full)
		return;
	if (d->buf.len + strlen(body) > IR_DUMP_MAX) {
		d->full = true;
		strbuf_puts(&d->buf, "; --- later dumps not shown: they would pass 16 MiB ---\n");
		return;
	}
	strbuf_printf(&d->buf, "; --- %s ---\n", heading);
	strbuf_puts(&d->buf, body);
}

void ir_dump_text_append(void *ud, const char *pass, const struct ir_func *f)
{
	struct ir_dump_text *d = ud;
	if (d->full)
		return;
	const char *ir_text = ir_print(f, d->buf.arena);
	if (ir_text)
		ir_dump_text_add(d, pass, ir_text);
}

enum { MAX_ROUNDS = 8 };

/* The passes to a fixed point (loop_unroll too when `unroll`). */
static void run_rounds(struct ir_func *f, int opt_level, bool unroll, struct ir_pass_ctx *ctx)
{
	for (int round = 0; round < MAX_ROUNDS; round++) {
		bool progress = false;
		if (unroll)
			progress |= IR_PASS(ctx, f, loop_unroll);
		progress |= IR_PASS(ctx, f, constant_fold);
		progress |= IR_PASS(ctx, f, lane_const);
		progress |= IR_PASS(ctx, f, algebraic);
		progress |= IR_PASS(ctx, f, scalar_factor);
		progress |= IR_PASS(ctx, f, scale_fold);
		progress |= IR_PASS(ctx, f, dot_offset);
		progress |= IR_PASS(ctx, f, known_cond);
		progress |= IR_PASS(ctx, f, dead_branch);
		progress |= IR_PASS(ctx, f, copy_prop);
		progress |= IR_PASS(ctx, f, vec_affine);
		progress |= IR_PASS(ctx, f, cse);
		if (opt_level >= 2)
			progress |= IR_PASS(ctx, f, licm);
		progress |= IR_PASS(ctx, f, dce);
		progress |= IR_PASS(ctx, f, slp);
		if (!progress || (ctx && ctx->failed))
			break;
	}
}

/* loop_prefetch runs once, on the loops the rounds kept (run again it
 * would fetch a further trip ahead); the rounds then clean up after it
 * (its clones of the next trip's step meet the step's own op in cse). */
bool ir_optimize(struct ir_func *f, int opt_level, struct ir_pass_ctx *ctx)
{
	if (opt_level <= 0)
		return true;
	run_rounds(f, opt_level, opt_level >= 2, ctx);
	if (opt_level >= 2 && !(ctx && ctx->failed) && IR_PASS(ctx, f, loop_prefetch))
		run_rounds(f, opt_level, false, ctx);
	return !(ctx && ctx->failed);
}
