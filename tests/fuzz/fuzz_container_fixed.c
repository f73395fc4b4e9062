/* libFuzzer target: the bytes as a container whose size field and
 * FNV-1a 64 checksum are made right (docs/container.md), so mutations
 * reach the section decoder, the instruction validator and, when the
 * container opens, the emulator: a 4x4 draw with a small step bound and
 * a built-in texture on every sampler unit, as uscc-run binds them.
 * A container that opens must write back byte for byte (container_write
 * of what container_read gave): the reader keeps every field, and the
 * code words the API hands out are the file's. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "container.h"
#include "emu.h"
#include "fnv.h"
#include "fuzz_util.h"
#include "ir.h"
#include "run_args.h"

enum { HEADER = 16, CHECKSUM = 8, MAX_STEPS = 4096 };

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The size field and checksum of a container of `size` bytes. */
static void fix_container(uint8_t *buf, size_t size)
{
	if (size < HEADER + CHECKSUM || size > UINT32_MAX)
		return;
	put32(buf + 8, (uint32_t)size);
	uint64_t h = fnv64(buf, size - CHECKSUM);
	for (int i = 0; i < 8; i++)
		buf[size - CHECKSUM + (size_t)i] = (uint8_t)(h >> (8 * i));
}

/* The target unit u is sampled as (2D when no sampler uses it). */
static int unit_target(const struct r500_program *p, int u)
{
	for (int i = 0; i < p->nsamplers; i++)
		if (p->samplers[i].unit == u)
			return p->samplers[i].target;
	return IR_TARGET_2D;
}

static void round_trip(const struct r500_program *p, const uint8_t *buf, size_t size)
{
	size_t n = 0;
	uint8_t *again = container_write(p, &mem_default_allocator, &n);
	if (!again)
		abort();
	if (n != size || memcmp(again, buf, size) != 0)
		fuzz_bug("a container that opens does not write back the same bytes", NULL);
	mem_free(&mem_default_allocator, again, n);
}

static void draw(const struct r500_program *p)
{
	struct run_opts o;
	memset(&o, 0, sizeof o);
	o.prog = "fuzz";
	int target[RUN_UNITS];
	for (int u = 0; u < RUN_UNITS; u++) {
		o.tex_spec[u] = u % 2 ? "gradient" : "checker";
		target[u] = unit_target(p, u);
	}
	struct run_textures tex;
	char why[256];
	if (!run_textures_load(&tex, &o, target, why, sizeof why))
		fuzz_bug("built-in textures do not load", why);
	struct emu_config cfg = { .width = 4, .height = 4, .textures = tex.img,
				  .ntextures = RUN_UNITS, .max_steps = MAX_STEPS };
	struct emu_image img;
	if (emu_run(p, &cfg, &img, why, sizeof why))
		emu_image_free(&img);
	run_textures_free(&tex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	fix_container(buf, size);
	if (fuzz_walk_container(buf, size, false)) {
		struct arena *arena = arena_create(&mem_default_allocator);
		struct r500_program p;
		char why[256];
		memset(&p, 0, sizeof p);
		if (!arena)
			abort();
		if (!container_read(buf, size, arena, &p, why, sizeof why))
			fuzz_bug("container_read refuses what uscc_container_open took", why);
		round_trip(&p, buf, size);
		draw(&p);
		arena_destroy(arena);
	}
	free(buf);
	return 0;
}
