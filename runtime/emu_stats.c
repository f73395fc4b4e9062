/* --stats: the cycles each pixel executes under the cost model of
 * INTERFACES.md §4, counted as the draw runs (see emu.h, struct
 * emu_pixel_stats, for what "executes" means under one program counter).
 *
 * The TEX latency term needs, per TEX block, its distance to the first
 * slot that waits, measured as Mesa does (backend/finalize.c): from the
 * block's BEGIN_TEX marker, so a slot b slots after the block's first
 * lookup is at distance b + 1 and the wait at b + 2.  Only distances below
 * 30 matter (30 - min(30, d) is 0 beyond), so the blocks still waiting are
 * one bit mask per sequence: bit b = a block began b executed slots ago.
 * Each executed slot shifts it; a waiting slot settles and clears it.  That
 * keeps the count to a few operations per active pixel and slot, and exact
 * even when several blocks await the same wait. */
#include <stdlib.h>
#include <string.h>
#include "emu_internal.h"

enum {
	TEX_LATENCY = 30,
	TEX_LIVE = (1u << (TEX_LATENCY - 2)) - 1 /* blocks still closer than 30 */
};

/* 30 - (b + 2) for every block still waiting, begun b slots before the
 * previous slot. */
static uint64_t pending_latency(uint32_t tex)
{
	uint64_t sum = 0;
	for (; tex; tex &= tex - 1)
		sum += (uint64_t)(TEX_LATENCY - 2 - __builtin_ctz(tex));
	return sum;
}

/* One executed slot of a sequence (backend/finalize.c's static `cycles`,
 * walked in execution order). */
static inline void cost_add(struct emu_cost *c, unsigned add, bool tex, bool wait)
{
	if (wait && c->tex) {
		/* a lookup continuing its block waits for the older blocks only;
		 * its own block is the most recent one, the lowest bit */
		uint32_t own = tex && c->in_tex ? c->tex & -c->tex : 0;
		c->cycles += pending_latency(c->tex & ~own);
		c->tex = own;
	}
	c->cycles += add;
	c->instructions++;
	bool begins = tex && !c->in_tex; /* a lookup after a lookup continues its block */
	c->in_tex = tex;
	c->tex = (c->tex << 1 | (uint32_t)begins) & TEX_LIVE;
}

/* The sequence stops (end of program, or a kill): what no slot waited for
 * costs as at the end of a straight program. */
static void cost_settle(struct emu_cost *c)
{
	c->cycles += pending_latency(c->tex);
	c->tex = 0;
}

double emu_cost_bytes(const struct emu_config *cfg, long npx)
{
	if (!cfg->stats)
		return 0;
	return (double)npx * sizeof(struct emu_cost) +
	       (double)cfg->width * cfg->height * sizeof(struct emu_pixel_stats);
}

bool emu_cost_alloc(struct emu_ctx *ctx, struct emu_image *img)
{
	size_t n = (size_t)img->width * (size_t)img->height;
	ctx->cost = calloc((size_t)ctx->npx, sizeof *ctx->cost);
	img->stats = calloc(n, sizeof *img->stats);
	if (ctx->cost && img->stats)
		return true;
	return emu_fail(ctx, "out of memory for the statistics of a %dx%d draw",
			img->width, img->height);
}

/* Counts the slot at the PC, before it runs: for the draw's walk, and for
 * every pixel it finds active and not killed (see emu.h). */
void emu_cost_slot(struct emu_ctx *ctx, const struct r500_inst *in)
{
	const struct r500_cmn *m = &in->cmn;
	unsigned add = 1u + (m->nop & 1u);
	bool fc = (m->type & 3) == R500_TYPE_FC, tex = (m->type & 3) == R500_TYPE_TEX;
	bool wait = m->tex_sem_wait & 1, inactive_too = !fc && (m->write_inactive & 1);
	cost_add(&ctx->draw_cost, add, tex, wait);
	for (long i = 0; i < ctx->npx; i++) {
		const struct emu_pixel *px = &ctx->px[i];
		if (!px->killed && (px->flow == EMU_ACTIVE || inactive_too))
			cost_add(&ctx->cost[i], add, tex, wait);
	}
}

/* Settles every sequence and hands the covered pixels' figures over. */
void emu_cost_finish(struct emu_ctx *ctx, struct emu_image *img)
{
	cost_settle(&ctx->draw_cost);
	img->draw = (struct emu_pixel_stats){ ctx->draw_cost.cycles,
					      ctx->draw_cost.instructions };
	for (long i = 0; i < ctx->npx; i++) {
		struct emu_cost *c = &ctx->cost[i];
		cost_settle(c);
		if (ctx->px[i].at >= 0)
			img->stats[ctx->px[i].at] = (struct emu_pixel_stats){ c->cycles,
									     c->instructions };
	}
}

static void swap64(uint64_t *a, uint64_t *b)
{
	uint64_t t = *a;
	*a = *b;
	*b = t;
}

/* The k-th smallest of a[0..n) (reorders a): quickselect with a
 * three-way partition, since most pixels of a draw share one figure. */
static uint64_t select_kth(uint64_t *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		uint64_t x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];
		uint64_t pivot = x < y ? (y < z ? y : (x < z ? z : x))
				       : (x < z ? x : (y < z ? z : y)); /* median of 3 */
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (a[i] < pivot)
				swap64(&a[lt++], &a[i++]);
			else if (a[i] > pivot)
				swap64(&a[i], &a[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return pivot;
	}
	return a[lo];
}

/* min, lower median, max of v[0..n) (n > 0); v is reordered. */
static void spread(uint64_t *v, size_t n, uint64_t out[3])
{
	out[0] = out[2] = v[0];
	for (size_t i = 1; i < n; i++) {
		if (v[i] < out[0])
			out[0] = v[i];
		if (v[i] > out[2])
			out[2] = v[i];
	}
	out[1] = select_kth(v, n, (n - 1) / 2);
}

bool emu_stats_summarize(const struct emu_image *img, struct emu_stats_summary *out)
{
	memset(out, 0, sizeof *out);
	if (!img || !img->stats || img->width < 1 || img->height < 1)
		return false;
	size_t n = (size_t)img->width * (size_t)img->height;
	uint64_t *v = malloc(n * sizeof *v);
	if (!v)
		return false;
	out->pixels = (long)n;
	for (size_t i = 0; i < n; i++) {
		v[i] = img->stats[i].cycles;
		out->discarded += img->discarded && img->discarded[i];
	}
	spread(v, n, out->cycles);
	for (size_t i = 0; i < n; i++)
		v[i] = img->stats[i].instructions;
	spread(v, n, out->instructions);
	out->draw = img->draw;
	free(v);
	return true;
}

void emu_stats_print_json(FILE *out, const struct emu_stats_summary *s)
{
	fprintf(out, "{\"pixels\":%ld,\"discarded\":%ld,"
		"\"cycles\":{\"min\":%llu,\"median\":%llu,\"max\":%llu},"
		"\"instructions\":{\"min\":%llu,\"median\":%llu,\"max\":%llu},"
		"\"draw\":{\"cycles\":%llu,\"instructions\":%llu}}\n",
		s->pixels, s->discarded,
		(unsigned long long)s->cycles[0], (unsigned long long)s->cycles[1],
		(unsigned long long)s->cycles[2], (unsigned long long)s->instructions[0],
		(unsigned long long)s->instructions[1], (unsigned long long)s->instructions[2],
		(unsigned long long)s->draw.cycles, (unsigned long long)s->draw.instructions);
}
