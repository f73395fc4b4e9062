/* The pass runner and the -O2 pipeline (ir_pass.h). */
#include "ir_pass.h"

#include <string.h>

#include "step_time.h"

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

bool ir_pass_run_split(struct ir_pass_ctx *ctx, struct ir_func *f, enum ir_split_step step,
		       ir_pass_fn pass)
{
	static const char *const names[IR_SPLIT_COUNT] = {
#define PIPE_SPLIT(id, name, what) [IR_SPLIT_##id] = name,
#include "pipeline_steps.h"
	};
	return ir_pass_run_named(ctx, f, names[step], pass);
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

/* Rounds stop at a fixed point; the cap only bounds a pathological
 * compile.  A loop whose BREAKs are known trip by trip unrolls one trip
 * a round (a TGSI loop from nir_to_tgsi: 15 rounds for piglit's
 * fs-function-inout-array-of-structs), so 8 rounds left it half folded. */
enum { MAX_ROUNDS = 32 };

/* One round of the passes, in order, each from the -O level given
 * (util/pipeline.def); a needed step (no switch: sw is SW_COUNT) runs at
 * every level, alone at -O0. */
static const struct round_step {
	enum sw_id sw;
	ir_pass_fn run;
	int min_level;
	enum step_id step;
	const char *name;        /* needed steps' */
} round_steps[] = {
#define PIPE_IR_ROUND(id, fn, level) { SW_##id, fn, level, STEP_IR_##id, NULL },
#define PIPE_IR_NEEDED(id, name, fn) { SW_COUNT, fn, 0, STEP_IR_##id, name },
#include "pipeline_steps.h"
}, once_steps[] = {
#define PIPE_IR_ONCE(id, fn, level) { SW_##id, fn, level, STEP_IR_##id, NULL },
#include "pipeline_steps.h"
};

/* False for a step that provably changes nothing in f: the passes of
 * IFs and loops on straight-line code (their walks and tables are most
 * of a tiny shader's optimization).  Called before every step, since a
 * pass may take the last loop or IF away. */
static bool step_may_apply(const struct round_step *st, const struct ir_func *f)
{
	switch (st->step) {
	case STEP_IR_LOOP_UNROLL:
	case STEP_IR_KNOWN_COND:
	case STEP_IR_DEAD_BRANCH:
	case STEP_IR_BREAK_HOIST:
	case STEP_IR_LICM:
	case STEP_IR_LOOP_PREFETCH:
		return ir_func_has_flow(f);
	default:
		return true;
	}
}

/* One step of the table, timed (step_time.h).  A step that cannot apply
 * is not run, as if it made no progress, unless every pass's IR is being
 * dumped (the dump then shows each pass, as before). */
static bool run_step(struct ir_pass_ctx *ctx, struct ir_func *f, const struct round_step *st)
{
	if (!(ctx && ctx->dump) && !step_may_apply(st, f))
		return false;
	int64_t t = step_time_start();
	bool progress = st->sw == SW_COUNT ? ir_pass_run_named(ctx, f, st->name, st->run)
					   : ir_pass_run(ctx, f, st->sw, st->run);
	step_time_add(st->step, t);
	return progress;
}

/* The passes to a fixed point (loop_unroll only when `unroll`), in
 * rounds of the table's order.  A pass that made no progress would make
 * none again on the same IR, so the walk stops once every pass has run,
 * without progress, since the last change: at the pass after the last
 * one that changed something, not at the end of one more whole round. */
static void run_rounds(struct ir_func *f, int opt_level, bool unroll, struct ir_pass_ctx *ctx)
{
	enum { NSTEPS = sizeof round_steps / sizeof *round_steps };
	bool on[NSTEPS];
	int enabled = 0;
	for (size_t i = 0; i < NSTEPS; i++) {
		const struct round_step *st = &round_steps[i];
		on[i] = opt_level >= st->min_level && (unroll || st->sw != SW_LOOP_UNROLL);
		enabled += on[i];
	}
	int quiet = 0; /* passes run since the last change */
	for (int run = 0; quiet < enabled && run < MAX_ROUNDS * NSTEPS; run++) {
		size_t i = (size_t)run % NSTEPS;
		if (!on[i])
			continue;
		quiet = run_step(ctx, f, &round_steps[i]) ? 0 : quiet + 1;
		if (ctx && ctx->failed)
			break;
	}
}

/* loop_prefetch runs once, on the loops the rounds kept (run again it
 * would fetch a further trip ahead); the rounds then clean up after it
 * (its clones of the next trip's step meet the step's own op in cse). */
bool ir_optimize(struct ir_func *f, int opt_level, struct ir_pass_ctx *ctx)
{
	if (opt_level <= 0) {
		for (size_t i = 0; i < sizeof round_steps / sizeof *round_steps; i++)
			if (round_steps[i].sw == SW_COUNT && !(ctx && ctx->failed))
				run_step(ctx, f, &round_steps[i]);
		return !(ctx && ctx->failed);
	}
	run_rounds(f, opt_level, true, ctx);
	bool progress = false;
	for (size_t i = 0; i < sizeof once_steps / sizeof *once_steps; i++)
		if (opt_level >= once_steps[i].min_level && !(ctx && ctx->failed))
			progress |= run_step(ctx, f, &once_steps[i]);
	if (progress)
		run_rounds(f, opt_level, false, ctx);
	return !(ctx && ctx->failed);
}
