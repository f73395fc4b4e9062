/* The pass runner and the -O2 pipeline (ir_pass.h). */
#include "ir_pass.h"

#include <string.h>


void ir_pass_ctx_init(struct ir_pass_ctx *ctx, struct diag_sink *diag)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->diag = diag;
#ifndef NDEBUG
	ctx->validate = true;
#endif
}

bool ir_pass_run(struct ir_pass_ctx *ctx, struct ir_func *f, enum sw_id sw, ir_pass_fn pass)
{
	if (ctx && sw_off(ctx->skip, sw))
		return false;
	return ir_pass_run_named(ctx, f, sw_name(sw), pass);
}

bool ir_pass_run_named(struct ir_pass_ctx *ctx, struct ir_func *f, const char *name,
		       ir_pass_fn pass)
{
	if (ctx && ctx->failed)
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

/* One round of the passes, in order, each from the -O level given. */
static const struct round_step {
	enum sw_id sw;
	ir_pass_fn run;
	int min_level;
} round_steps[] = {
	{ SW_LOOP_UNROLL, ir_opt_loop_unroll, 2 },   { SW_CONSTANT_FOLD, ir_opt_constant_fold, 1 },
	{ SW_LANE_CONST, ir_opt_lane_const, 1 },     { SW_REASSOCIATE, ir_opt_reassociate, 1 },
	{ SW_SCALAR_FACTOR, ir_opt_scalar_factor, 1 }, { SW_SCALE_FOLD, ir_opt_scale_fold, 1 },
	{ SW_DOT_OFFSET, ir_opt_dot_offset, 1 },     { SW_KNOWN_COND, ir_opt_known_cond, 1 },
	{ SW_DEAD_BRANCH, ir_opt_dead_branch, 1 },   { SW_COPY_PROP, ir_opt_copy_prop, 1 },
	{ SW_VEC_AFFINE, ir_opt_vec_affine, 1 },     { SW_CSE, ir_opt_cse, 1 },
	{ SW_LICM, ir_opt_licm, 2 },                 { SW_DCE, ir_opt_dce, 1 },
	{ SW_SLP, ir_opt_slp, 1 },
};

/* The passes to a fixed point (loop_unroll only when `unroll`). */
static void run_rounds(struct ir_func *f, int opt_level, bool unroll, struct ir_pass_ctx *ctx)
{
	for (int round = 0; round < MAX_ROUNDS; round++) {
		bool progress = false;
		for (size_t i = 0; i < sizeof round_steps / sizeof *round_steps; i++) {
			const struct round_step *st = &round_steps[i];
			if (opt_level >= st->min_level && (unroll || st->sw != SW_LOOP_UNROLL))
				progress |= ir_pass_run(ctx, f, st->sw, st->run);
		}
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
	run_rounds(f, opt_level, true, ctx);
	if (opt_level >= 2 && !(ctx && ctx->failed) &&
	    ir_pass_run(ctx, f, SW_LOOP_PREFETCH, ir_opt_loop_prefetch))
		run_rounds(f, opt_level, false, ctx);
	return !(ctx && ctx->failed);
}
