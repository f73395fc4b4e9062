/* What a run reports besides its image: hazard warnings, once per slot and
 * kind, gathered into one buffer that becomes emu_image.warnings, and the
 * first fault's message, written to the caller's `why`.  Part of the
 * emulator's base: every other file reports through it, and it calls none
 * of them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emu_internal.h"

enum { EMU_MAX_WARN = 64 * 1024 };

void emu_warn(struct emu_ctx *ctx, int pc, int kind, const char *fmt, ...)
{
	if (pc < 0 || pc >= R500_MAX_SLOTS || kind < 0 || kind > 2 || ctx->warned[pc][kind])
		return;
	ctx->warned[pc][kind] = 1;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (n > (int)sizeof line - 2)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	line[n] = 0;
	if (ctx->warn_len + (size_t)n + 1 > ctx->warn_cap) {
		if (ctx->warn_len + (size_t)n + 1 > EMU_MAX_WARN)
			return;
		size_t cap = ctx->warn_cap ? ctx->warn_cap * 2 : 1024;
		while (cap < ctx->warn_len + (size_t)n + 1)
			cap *= 2;
		char *w = realloc(ctx->warn, cap);
		if (!w)
			return;
		ctx->warn = w;
		ctx->warn_cap = cap;
	}
	memcpy(ctx->warn + ctx->warn_len, line, (size_t)n + 1);
	ctx->warn_len += (size_t)n;
}

bool emu_fail(struct emu_ctx *ctx, const char *fmt, ...)
{
	if (!ctx->fault && ctx->why && ctx->why_len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(ctx->why, ctx->why_len, fmt, ap);
		va_end(ap);
	}
	ctx->fault = true;
	return false;
}
