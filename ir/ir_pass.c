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

bool ir_pass_skipped(const struct ir_pass_ctx *ctx, const char *name)
{
	if (!ctx || !ctx->skip)
		return false;
	size_t n = strlen(name);
	for (const char *p = ctx->skip; *p;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && memcmp(p, name, n) == 0)
			return true;
		if (!end)
			break;
		p = end + 1;
	}
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

/* Appends s to the dump, growing it by doubling. */
static bool dump_put(struct ir_dump_text *d, const char *s)
{
	size_t n = strlen(s);
	if (d->len + n + 1 > d->cap) {
		size_t ncap = d->cap ? d->cap : 4096;
		while (ncap < d->len + n + 1)
			ncap *= 2;
		char *nt = arena_realloc(d->arena, d->text, d->cap, ncap);
		if (!nt)
			return false;
		d->text = nt;
		d->cap = ncap;
	}
	memcpy(d->text + d->len, s, n + 1);
	d->len += n;
	return true;
}

void ir_dump_text_append(void *ud, const char *pass, const struct ir_func *f)
{
	struct ir_dump_text *d = ud;
	if (d->full)
		return;
	const char *ir_text = ir_print(f, d->arena);
	if (!ir_text)
		return;
	if (d->len + strlen(ir_text) > IR_DUMP_MAX) {
		d->full = true;
		dump_put(d, "; --- later passes not shown: the dump would pass 16 MiB ---\n");
		return;
	}
	dump_put(d, "; --- ");
	dump_put(d, pass);
	dump_put(d, " ---\n");
	dump_put(d, ir_text);
}

enum { MAX_ROUNDS = 8 };

bool ir_optimize(struct ir_func *f, int opt_level, struct ir_pass_ctx *ctx)
{
	if (opt_level <= 0)
		return true;
	for (int round = 0; round < MAX_ROUNDS; round++) {
		bool progress = false;
		if (opt_level >= 2)
			progress |= IR_PASS(ctx, f, loop_unroll);
		progress |= IR_PASS(ctx, f, constant_fold);
		progress |= IR_PASS(ctx, f, dead_branch);
		progress |= IR_PASS(ctx, f, copy_prop);
		progress |= IR_PASS(ctx, f, cse);
		progress |= IR_PASS(ctx, f, dce);
		if (!progress || (ctx && ctx->failed))
			break;
	}
	return !(ctx && ctx->failed);
}
