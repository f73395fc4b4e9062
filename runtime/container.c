/* The container: writer and validating reader (layout in docs/container.md).
 *
 * Layout: a 16-byte header ("USCC", version, total size, section count),
 * eight tagged sections in a fixed order, each padded to 4 bytes, then an
 * FNV-1a 64 checksum of every byte before it.  All integers little-endian.
 * The writer fills a buffer on the stack and counts what does not fit;
 * only a container larger than it is written a second time, into one
 * allocation of the size the first run measured.  The reader trusts nothing: every
 * read is bounds-checked and every value range-checked. */
#include "container.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fnv.h"
#include "ir.h"
#include "r500_codec.h"
#include "r500_cp.h"

enum { HEADER_SIZE = 16, CHECKSUM_SIZE = 8, NSECTIONS = 9, STR4_LEN = 4 };

#define TAG(a, b, c, d) \
	((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* Version 2 has exactly these sections, in this order (version 1 had
 * the first eight). */
static const uint32_t section_tags[NSECTIONS] = {
	TAG('C', 'O', 'D', 'E'), TAG('C', 'N', 'S', 'T'), TAG('U', 'N', 'I', 'F'),
	TAG('S', 'A', 'M', 'P'), TAG('I', 'N', 'P', 'T'), TAG('O', 'U', 'T', 'P'),
	TAG('F', 'L', 'O', 'W'), TAG('S', 'T', 'A', 'T'), TAG('C', 'P', 'R', 'G'),
};
static const char *const section_names[NSECTIONS] = {
	"CODE", "CNST", "UNIF", "SAMP", "INPT", "OUTP", "FLOW", "STAT", "CPRG",
};

/* ------------------------------------------------------------------ */
/* Writer */

/* Bytes past cap are only counted (cap 0: a measuring run). */
struct wbuf {
	uint8_t *buf;
	size_t cap, len;
};

static bool room(const struct wbuf *w, size_t n)
{
	return n <= w->cap && w->len <= w->cap - n;
}

static void put_bytes(struct wbuf *w, const void *p, size_t n)
{
	if (room(w, n))
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void put_u8(struct wbuf *w, unsigned v)
{
	uint8_t b = (uint8_t)v;
	put_bytes(w, &b, 1);
}

static void put_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	put_bytes(w, b, 4);
}

static void put_u64(struct wbuf *w, uint64_t v)
{
	put_u32(w, (uint32_t)v);
	put_u32(w, (uint32_t)(v >> 32));
}

static void put_f32(struct wbuf *w, float f)
{
	uint32_t v;
	memcpy(&v, &f, 4);
	put_u32(w, v);
}

/* u32 length, the bytes, a NUL */
static void put_str(struct wbuf *w, const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	put_u32(w, (uint32_t)n);
	put_bytes(w, s, n);
	put_u8(w, 0);
}

/* u8 length 1..4, then 4 chars padded with NUL */
static void put_str4(struct wbuf *w, const char *s)
{
	size_t n = strnlen(s, STR4_LEN);
	char b[STR4_LEN] = { 0 };
	memcpy(b, s, n);
	put_u8(w, (unsigned)n);
	put_bytes(w, b, STR4_LEN);
}

static void patch_u32(struct wbuf *w, size_t at, uint32_t v)
{
	struct wbuf p = { w->buf, w->cap, at };
	put_u32(&p, v);
}

static void write_code(struct wbuf *w, const struct r500_program *p)
{
	put_u32(w, (uint32_t)p->ninst);
	size_t size = (size_t)p->ninst * R500_WORDS * 4;
	if (!room(w, size)) { /* only counted: the size needs no encoding */
		w->len += size;
		return;
	}
	for (int i = 0; i < p->ninst; i++) {
		uint32_t words[R500_WORDS];
		r500_encode(&p->code[i], words);
		for (int k = 0; k < R500_WORDS; k++)
			put_u32(w, words[k]);
	}
}

static void write_consts(struct wbuf *w, const struct r500_program *p)
{
	uint32_t nimm = 0;
	for (int s = 0; s < p->nconst_slots; s++)
		nimm += p->const_is_imm && p->const_is_imm[s];
	put_u32(w, (uint32_t)p->nconst_slots);
	put_u32(w, nimm);
	for (int s = 0; s < p->nconst_slots; s++) {
		if (!p->const_is_imm || !p->const_is_imm[s])
			continue;
		put_u32(w, (uint32_t)s);
		for (int c = 0; c < 4; c++)
			put_f32(w, p->consts[s][c]);
	}
}

static void write_uniforms(struct wbuf *w, const struct r500_program *p)
{
	put_u32(w, (uint32_t)p->nuniforms);
	for (int i = 0; i < p->nuniforms; i++) {
		const struct r500_uniform *u = &p->uniforms[i];
		put_str(w, u->name);
		put_str(w, u->type);
		put_u32(w, (uint32_t)u->array_len);
		put_u32(w, (uint32_t)u->element);
		put_u32(w, (uint32_t)u->slot);
		put_str4(w, u->swizzle);
	}
	/* the initializers, only when there are any (docs/container.md) */
	uint32_t ninit = 0;
	for (int i = 0; i < p->nuniforms; i++)
		ninit += p->uniforms[i].init != NULL;
	if (!ninit)
		return;
	put_u32(w, ninit);
	for (int i = 0; i < p->nuniforms; i++) {
		if (!p->uniforms[i].init)
			continue;
		put_u32(w, (uint32_t)i);
		for (int c = 0; c < 4; c++)
			put_f32(w, p->uniforms[i].init[c]);
	}
}

static void write_samplers(struct wbuf *w, const struct r500_program *p)
{
	put_u32(w, (uint32_t)p->nsamplers);
	for (int i = 0; i < p->nsamplers; i++) {
		const struct r500_sampler *s = &p->samplers[i];
		put_str(w, s->name);
		put_u8(w, (unsigned)s->unit);
		put_u8(w, (unsigned)s->target);
		put_u8(w, s->shadow ? 1 : 0);
		put_u8(w, 0);
	}
}

static void write_inputs(struct wbuf *w, const struct r500_program *p)
{
	put_u32(w, (uint32_t)p->ninputs);
	for (int i = 0; i < p->ninputs; i++) {
		put_str(w, p->inputs[i].name);
		put_u8(w, (unsigned)p->inputs[i].temp);
		put_str4(w, p->inputs[i].components);
	}
}

static void write_outputs(struct wbuf *w, const struct r500_program *p)
{
	put_u32(w, (uint32_t)p->noutputs);
	for (int i = 0; i < p->noutputs; i++) {
		put_str(w, p->outputs[i].name);
		put_u32(w, (uint32_t)(int32_t)p->outputs[i].target);
	}
}

/* A loop descriptor as the US_FC_INT_CONST register value (ISA.md §2.7). */
static uint32_t loop_const_reg(const struct r500_loop_const *c)
{
	return (uint32_t)c->count | (uint32_t)c->init << 8 | (uint32_t)(uint8_t)c->step << 16;
}

static void write_flow(struct wbuf *w, const struct r500_program *p)
{
	put_u32(w, p->uses_fc ? 1 : 0);
	put_u32(w, (uint32_t)p->pixsize);
	put_u32(w, p->bool_const);
	put_u32(w, p->int_const_used);
	for (int i = 0; i < 32; i++)
		if (p->int_const_used >> i & 1)
			put_u32(w, loop_const_reg(&p->int_consts[i]));
}

/* The figures in r500_stats.def's order: int ones as u32, int64_t ones as u64. */
static void write_stats(struct wbuf *w, const struct r500_program *p)
{
	const struct r500_stats *s = &p->stats;
#define R500_STAT(name, type, meaning)                  \
	if (sizeof s->name == sizeof(uint64_t))         \
		put_u64(w, (uint64_t)s->name);          \
	else                                            \
		put_u32(w, (uint32_t)s->name);
#include "r500_stats.def"
#undef R500_STAT
}

/* A constant-program source: file, swizzle (2 bits a component), index. */
static void put_cp_src(struct wbuf *w, const struct r500_cp_src *s)
{
	put_u8(w, s->file);
	put_u8(w, (unsigned)(s->swz[0] & 3) | (unsigned)(s->swz[1] & 3) << 2 |
		  (unsigned)(s->swz[2] & 3) << 4 | (unsigned)(s->swz[3] & 3) << 6);
	put_u8(w, s->index & 0xff);
	put_u8(w, s->index >> 8);
}

static void write_const_prog(struct wbuf *w, const struct r500_program *p)
{
	const struct r500_const_prog *cp = &p->cp;
	put_u32(w, (uint32_t)cp->ninst);
	put_u32(w, (uint32_t)cp->nimm);
	put_u32(w, (uint32_t)cp->nouts);
	for (int i = 0; i < cp->nimm; i++)
		for (int c = 0; c < 4; c++)
			put_f32(w, cp->imm[i][c]);
	for (int i = 0; i < cp->ninst; i++) {
		const struct r500_cp_inst *in = &cp->code[i];
		put_u8(w, in->op);
		put_u8(w, in->ncomp);
		put_u8(w, in->nsrc);
		put_u8(w, in->src0_ncomp);
		for (int k = 0; k < R500_CP_MAX_SRC; k++)
			put_cp_src(w, k < in->nsrc ? &in->src[k] : &(struct r500_cp_src){ 0 });
	}
	for (int o = 0; o < cp->nouts; o++) {
		const struct r500_cp_output *out = &cp->outs[o];
		put_cp_src(w, &out->src);
		put_u8(w, out->slot & 0xff);
		put_u8(w, out->slot >> 8);
		put_u8(w, out->shift);
		put_u8(w, out->ncomp);
	}
}

typedef void (*section_writer)(struct wbuf *w, const struct r500_program *p);
static const section_writer section_writers[NSECTIONS] = {
	write_code, write_consts, write_uniforms, write_samplers,
	write_inputs, write_outputs, write_flow, write_stats, write_const_prog,
};

enum { TOTAL_AT = 8 }; /* the header's total size */

/* The whole container into w; its length in w->len, and its bytes when
 * they fit (w->len <= w->cap). */
static void write_all(struct wbuf *w, const struct r500_program *p)
{
	put_bytes(w, "USCC", 4);
	put_u32(w, CONTAINER_VERSION);
	put_u32(w, 0); /* the total, known at the end */
	put_u32(w, NSECTIONS);
	for (int i = 0; i < NSECTIONS; i++) {
		put_u32(w, section_tags[i]);
		size_t len_at = w->len;
		put_u32(w, 0);
		size_t start = w->len;
		section_writers[i](w, p);
		patch_u32(w, len_at, (uint32_t)(w->len - start));
		while (w->len % 4)
			put_u8(w, 0);
	}
	patch_u32(w, TOTAL_AT, (uint32_t)(w->len + CHECKSUM_SIZE));
	if (room(w, CHECKSUM_SIZE))
		put_u64(w, fnv64(w->buf, w->len));
	else
		w->len += CHECKSUM_SIZE;
}

/* A small program's container fits on the stack: one run of the writer
 * and a copy, where measuring first doubled the writer's cost. */
enum { STACK_BUF = 8192 };

uint8_t *container_write(const struct r500_program *p, const struct mem_allocator *alloc,
			 size_t *size)
{
	if (!alloc)
		alloc = &mem_default_allocator;
	uint8_t stack[STACK_BUF];
	struct wbuf first = { stack, sizeof stack, 0 };
	write_all(&first, p);
	if (first.len > UINT32_MAX)
		return NULL;
	uint8_t *buf = mem_alloc(alloc, first.len);
	if (!buf)
		return NULL;
	if (first.len <= first.cap) {
		memcpy(buf, stack, first.len);
	} else {
		struct wbuf w = { buf, first.len, 0 };
		write_all(&w, p);
	}
	*size = first.len;
	return buf;
}

/* ------------------------------------------------------------------ */
/* Reader */

struct rbuf {
	const uint8_t *p;
	size_t len, pos;
	const char *section;   /* for messages */
	bool failed;
	char *why;
	size_t why_len;
};

static bool fail(struct rbuf *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct rbuf *r, const char *fmt, ...)
{
	if (r->failed)
		return false;
	r->failed = true;
	if (r->why && r->why_len) {
		int n = snprintf(r->why, r->why_len, "%s%s", r->section ? r->section : "",
				 r->section ? " section: " : "");
		if (n < 0)
			n = 0;
		if ((size_t)n < r->why_len) {
			va_list ap;
			va_start(ap, fmt);
			vsnprintf(r->why + n, r->why_len - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	return false;
}

static bool need(struct rbuf *r, size_t n)
{
	if (r->failed)
		return false;
	if (r->len - r->pos < n)
		return fail(r, "truncated (needs %zu more bytes at offset %zu, %zu left)", n,
			    r->pos, r->len - r->pos);
	return true;
}

static uint32_t get_u8(struct rbuf *r)
{
	if (!need(r, 1))
		return 0;
	return r->p[r->pos++];
}

static uint32_t get_u32(struct rbuf *r)
{
	if (!need(r, 4))
		return 0;
	const uint8_t *b = r->p + r->pos;
	r->pos += 4;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t get_u64(struct rbuf *r)
{
	uint64_t lo = get_u32(r);
	return lo | (uint64_t)get_u32(r) << 32;
}

static float get_f32(struct rbuf *r)
{
	uint32_t v = get_u32(r);
	float f;
	memcpy(&f, &v, 4);
	return f;
}

/* A count of entries of at least `min_size` bytes each must fit in what is
 * left and under `max`: a corrupt count can neither overrun nor make us
 * allocate more than the input justifies. */
static uint32_t get_count(struct rbuf *r, const char *what, size_t min_size, uint32_t max)
{
	uint32_t n = get_u32(r);
	if (r->failed)
		return 0;
	if (n > max) {
		fail(r, "%s count %u exceeds the limit %u", what, n, max);
		return 0;
	}
	if ((size_t)n > (r->len - r->pos) / min_size) {
		fail(r, "%s count %u does not fit in the %zu bytes left", what, n, r->len - r->pos);
		return 0;
	}
	return n;
}

static const char *get_str(struct rbuf *r, struct arena *arena, const char *what)
{
	uint32_t n = get_u32(r);
	if (r->failed)
		return NULL;
	if ((size_t)n >= r->len - r->pos) {
		fail(r, "%s string of %u bytes runs past the end", what, n);
		return NULL;
	}
	const char *s = (const char *)r->p + r->pos;
	if (s[n] != 0) {
		fail(r, "%s string is not NUL-terminated", what);
		return NULL;
	}
	if (memchr(s, 0, n)) {
		fail(r, "%s string has an embedded NUL", what);
		return NULL;
	}
	r->pos += (size_t)n + 1;
	return arena_strndup(arena, s, n);
}

/* A 1..4 letter swizzle over x, y, z, w. */
static void get_str4(struct rbuf *r, char out[5], const char *what)
{
	uint32_t n = get_u8(r);
	if (!need(r, STR4_LEN))
		return;
	const char *s = (const char *)r->p + r->pos;
	r->pos += STR4_LEN;
	if (n < 1 || n > STR4_LEN) {
		fail(r, "%s has length %u (must be 1..4)", what, n);
		return;
	}
	for (uint32_t i = 0; i < STR4_LEN; i++) {
		bool ok = i < n ? (s[i] && strchr("xyzw", s[i])) : s[i] == 0;
		if (!ok) {
			fail(r, "%s has an invalid component", what);
			return;
		}
	}
	memcpy(out, s, n);
	out[n] = 0;
}

static bool in_range(struct rbuf *r, const char *what, int64_t v, int64_t lo, int64_t hi)
{
	if (r->failed)
		return false;
	if (v < lo || v > hi)
		return fail(r, "%s %lld out of range %lld..%lld", what, (long long)v,
			    (long long)lo, (long long)hi);
	return true;
}

static bool alloc_ok(struct rbuf *r, const void *p)
{
	return p ? true : fail(r, "out of memory");
}

static void read_code(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	uint32_t n = get_count(r, "instruction", 4 * R500_WORDS, R500_MAX_SLOTS);
	if (r->failed)
		return;
	if (n == 0) {
		fail(r, "program has no instructions");
		return;
	}
	out->code = arena_alloc(arena, n * sizeof *out->code);
	if (!alloc_ok(r, out->code))
		return;
	out->ninst = (int)n;
	for (uint32_t i = 0; i < n && !r->failed; i++) {
		uint32_t words[R500_WORDS];
		for (int k = 0; k < R500_WORDS; k++)
			words[k] = get_u32(r);
		char why[160];
		if (!r->failed && !r500_decode(words, &out->code[i], why, sizeof why))
			fail(r, "instruction %u is invalid: %s", i, why);
	}
}

static void read_consts(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	uint32_t nslots = get_u32(r);
	if (!in_range(r, "constant slot count", nslots, 0, R500_NUM_CONSTS))
		return;
	uint32_t nimm = get_count(r, "immediate", 20, nslots);
	if (r->failed)
		return;
	out->nconst_slots = (int)nslots;
	out->consts = arena_alloc(arena, (nslots ? nslots : 1) * sizeof *out->consts);
	out->const_is_imm = arena_alloc(arena, nslots ? nslots : 1);
	if (!alloc_ok(r, out->consts) || !alloc_ok(r, out->const_is_imm))
		return;
	int64_t prev = -1;
	for (uint32_t i = 0; i < nimm && !r->failed; i++) {
		uint32_t slot = get_u32(r);
		if (!in_range(r, "immediate slot", slot, prev + 1, (int64_t)nslots - 1))
			return;
		prev = slot;
		out->const_is_imm[slot] = 1;
		for (int c = 0; c < 4; c++)
			out->consts[slot][c] = get_f32(r);
	}
}

/* The optional list after the entries: (entry index, x, y, z, w), at
 * least one, indices strictly increasing. */
static void read_uniform_inits(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	uint32_t n = get_count(r, "uniform initializer", 20, (uint32_t)out->nuniforms);
	if (r->failed)
		return;
	if (n == 0) {
		fail(r, "uniform initializer count is 0 (the list is left out instead)");
		return;
	}
	float (*vals)[4] = arena_alloc(arena, n * sizeof *vals);
	if (!alloc_ok(r, vals))
		return;
	int64_t prev = -1;
	for (uint32_t i = 0; i < n && !r->failed; i++) {
		uint32_t entry = get_u32(r);
		if (!in_range(r, "uniform initializer entry", entry, prev + 1,
			      (int64_t)out->nuniforms - 1))
			return;
		prev = entry;
		for (int c = 0; c < 4; c++)
			vals[i][c] = get_f32(r);
		out->uniforms[entry].init = vals[i];
	}
}

static void read_uniforms(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	/* every element holds at least one component of one slot */
	uint32_t n = get_count(r, "uniform", 27, R500_NUM_CONSTS * 4);
	if (r->failed)
		return;
	out->uniforms = arena_alloc(arena, (n ? n : 1) * sizeof *out->uniforms);
	if (!alloc_ok(r, out->uniforms))
		return;
	out->nuniforms = (int)n;
	for (uint32_t i = 0; i < n && !r->failed; i++) {
		struct r500_uniform *u = &out->uniforms[i];
		u->name = get_str(r, arena, "uniform name");
		u->type = get_str(r, arena, "uniform type");
		uint32_t array_len = get_u32(r), element = get_u32(r), slot = get_u32(r);
		get_str4(r, u->swizzle, "uniform swizzle");
		in_range(r, "uniform array length", array_len, 0, CONTAINER_MAX_ARRAY_LEN);
		in_range(r, "uniform element", element, 0, CONTAINER_MAX_UNIFORM_ELEMENT);
		in_range(r, "uniform slot", slot, 0, R500_NUM_CONSTS - 1);
		u->array_len = (int)array_len;
		u->element = (int)element;
		u->slot = (int)slot;
		if (!r->failed && (!u->name || !u->type))
			fail(r, "out of memory");
	}
	if (!r->failed && r->pos < r->len)
		read_uniform_inits(r, arena, out);
}

static void read_samplers(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	uint32_t n = get_count(r, "sampler", 9, R500_NUM_SAMPLERS);
	if (r->failed)
		return;
	out->samplers = arena_alloc(arena, (n ? n : 1) * sizeof *out->samplers);
	if (!alloc_ok(r, out->samplers))
		return;
	out->nsamplers = (int)n;
	for (uint32_t i = 0; i < n && !r->failed; i++) {
		struct r500_sampler *s = &out->samplers[i];
		s->name = get_str(r, arena, "sampler name");
		uint32_t unit = get_u8(r), target = get_u8(r), shadow = get_u8(r), pad = get_u8(r);
		in_range(r, "sampler unit", unit, 0, R500_NUM_SAMPLERS - 1);
		in_range(r, "sampler target", target, 0, IR_TARGET_RECT);
		in_range(r, "sampler shadow flag", shadow, 0, 1);
		in_range(r, "sampler padding", pad, 0, 0);
		s->unit = (int)unit;
		s->target = (int)target;
		s->shadow = (int)shadow;
		if (!r->failed && !s->name)
			fail(r, "out of memory");
	}
}

static void read_inputs(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	uint32_t n = get_count(r, "input", 10, R500_NUM_TEMPS);
	if (r->failed)
		return;
	out->inputs = arena_alloc(arena, (n ? n : 1) * sizeof *out->inputs);
	if (!alloc_ok(r, out->inputs))
		return;
	out->ninputs = (int)n;
	for (uint32_t i = 0; i < n && !r->failed; i++) {
		struct r500_input *in = &out->inputs[i];
		in->name = get_str(r, arena, "input name");
		uint32_t temp = get_u8(r);
		get_str4(r, in->components, "input components");
		in_range(r, "input temporary", temp, 0, R500_NUM_TEMPS - 1);
		in->temp = (int)temp;
		if (!r->failed && !in->name)
			fail(r, "out of memory");
	}
}

static void read_outputs(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	/* four colour targets and depth */
	uint32_t n = get_count(r, "output", 9, R500_NUM_TARGETS + 1);
	if (r->failed)
		return;
	out->outputs = arena_alloc(arena, (n ? n : 1) * sizeof *out->outputs);
	if (!alloc_ok(r, out->outputs))
		return;
	out->noutputs = (int)n;
	for (uint32_t i = 0; i < n && !r->failed; i++) {
		struct r500_output *o = &out->outputs[i];
		o->name = get_str(r, arena, "output name");
		int32_t target = (int32_t)get_u32(r);
		in_range(r, "output target", target, -1, R500_NUM_TARGETS - 1);
		o->target = target;
		if (!r->failed && !o->name)
			fail(r, "out of memory");
	}
}

static void read_flow(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	(void)arena;
	uint32_t uses_fc = get_u32(r), pixsize = get_u32(r);
	out->bool_const = get_u32(r);
	out->int_const_used = get_u32(r);
	in_range(r, "uses_fc flag", uses_fc, 0, 1);
	in_range(r, "pixsize", pixsize, 0, R500_NUM_TEMPS - 1);
	out->uses_fc = (int)uses_fc;
	out->pixsize = (int)pixsize;
	for (int i = 0; i < 32 && !r->failed; i++) {
		if (!(out->int_const_used >> i & 1))
			continue;
		uint32_t v = get_u32(r);
		if (v >> 24) {
			fail(r, "US_FC_INT_CONST_%d has bits set above bit 23", i);
			return;
		}
		out->int_consts[i].count = (uint8_t)v;
		out->int_consts[i].init = (uint8_t)(v >> 8);
		out->int_consts[i].step = (int8_t)(uint8_t)(v >> 16);
	}
}

/* A negative figure is refused: by its position among the 32-bit ones,
 * by name for a 64-bit one. */
static void read_stats(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	(void)arena;
	struct r500_stats *s = &out->stats;
	int figure = 0;
#define R500_STAT(name, type, meaning)                                          \
	if (sizeof s->name == sizeof(uint64_t)) {                               \
		s->name = (type)get_u64(r);                                     \
		if (!r->failed && s->name < 0)                                  \
			fail(r, "%s is negative", #name);                       \
	} else {                                                                \
		s->name = (type)(int32_t)get_u32(r);                            \
		if (!r->failed && s->name < 0)                                  \
			fail(r, "figure %d is negative", figure);               \
		figure++;                                                       \
	}
#include "r500_stats.def"
#undef R500_STAT
}

static uint16_t get_u16(struct rbuf *r)
{
	uint32_t lo = get_u8(r);
	return (uint16_t)(lo | get_u8(r) << 8);
}

static struct r500_cp_src get_cp_src(struct rbuf *r)
{
	struct r500_cp_src s = { (uint8_t)get_u8(r), { 0 }, 0 };
	uint32_t swz = get_u8(r);
	for (int c = 0; c < 4; c++)
		s.swz[c] = (uint8_t)(swz >> (2 * c) & 3);
	s.index = get_u16(r);
	return s;
}

/* The constant program: sizes first (bounded before anything is
 * allocated), then r500_cp_check against the constant slots. */
static void read_const_prog(struct rbuf *r, struct arena *arena, struct r500_program *out)
{
	struct r500_const_prog *cp = &out->cp;
	uint32_t ninst = get_u32(r), nimm = get_u32(r), nouts = get_u32(r);
	if (!in_range(r, "instructions", ninst, 0, R500_CP_MAX_INST) ||
	    !in_range(r, "immediates", nimm, 0, R500_CP_MAX_IMM) ||
	    !in_range(r, "outputs", nouts, 0, R500_CP_MAX_OUT))
		return;
	cp->code = arena_alloc(arena, sizeof *cp->code * (ninst + 1));
	cp->imm = arena_alloc(arena, sizeof *cp->imm * (nimm + 1));
	cp->outs = arena_alloc(arena, sizeof *cp->outs * (nouts + 1));
	if (!cp->code || !cp->imm || !cp->outs) {
		fail(r, "out of memory");
		return;
	}
	cp->ninst = (int)ninst;
	cp->nimm = (int)nimm;
	cp->nouts = (int)nouts;
	for (uint32_t i = 0; i < nimm; i++)
		for (int c = 0; c < 4; c++)
			cp->imm[i][c] = get_f32(r);
	for (uint32_t i = 0; i < ninst && !r->failed; i++) {
		struct r500_cp_inst *in = &cp->code[i];
		in->op = (uint8_t)get_u8(r);
		in->ncomp = (uint8_t)get_u8(r);
		in->nsrc = (uint8_t)get_u8(r);
		in->src0_ncomp = (uint8_t)get_u8(r);
		for (int k = 0; k < R500_CP_MAX_SRC; k++) {
			struct r500_cp_src s = get_cp_src(r);
			if (k < in->nsrc)
				in->src[k] = s;
			else if (s.file || s.index || s.swz[0] || s.swz[1] || s.swz[2] || s.swz[3])
				fail(r, "instruction %u: unused source %d is not zero", i, k);
		}
	}
	for (uint32_t o = 0; o < nouts && !r->failed; o++) {
		struct r500_cp_output *x = &cp->outs[o];
		x->src = get_cp_src(r);
		x->slot = get_u16(r);
		x->shift = (uint8_t)get_u8(r);
		x->ncomp = (uint8_t)get_u8(r);
	}
	char why[160];
	if (!r->failed && !r500_cp_check(cp, out->nconst_slots, why, sizeof why))
		fail(r, "%s", why);
}

bool container_code_words(const uint8_t *data, size_t size, int ninst, uint32_t *words)
{
	/* the header, CODE's tag and length, the instruction count */
	struct rbuf r = { data, size, HEADER_SIZE, NULL, false, NULL, 0 };
	uint32_t tag = get_u32(&r);
	get_u32(&r);
	if (tag != section_tags[0] || get_u32(&r) != (uint32_t)ninst)
		return false;
	for (size_t i = 0; i < (size_t)ninst * R500_WORDS; i++)
		words[i] = get_u32(&r);
	return !r.failed;
}

typedef void (*section_reader)(struct rbuf *r, struct arena *arena, struct r500_program *out);
static const section_reader section_readers[NSECTIONS] = {
	read_code, read_consts, read_uniforms, read_samplers,
	read_inputs, read_outputs, read_flow, read_stats, read_const_prog,
};

static bool read_header(struct rbuf *r)
{
	if (r->len < 8)
		return fail(r, "truncated: %zu bytes is shorter than the header", r->len);
	if (memcmp(r->p, "USCC", 4) != 0)
		return fail(r, "bad magic (not a uscc container)");
	r->pos = 4;
	uint32_t version = get_u32(r);
	if (version != CONTAINER_VERSION)
		return fail(r, "unsupported container version %u (this reader knows %d)", version,
			    CONTAINER_VERSION);
	if (r->len < HEADER_SIZE + CHECKSUM_SIZE)
		return fail(r, "truncated: %zu bytes is too short for a container", r->len);
	uint32_t total = get_u32(r);
	if (total != r->len)
		return fail(r, "%s: header says %u bytes, have %zu",
			    total > r->len ? "truncated" : "size mismatch", total, r->len);
	uint32_t nsec = get_u32(r);
	if (nsec != NSECTIONS)
		return fail(r, "has %u sections, version %d has %d", nsec, CONTAINER_VERSION,
			    NSECTIONS);
	struct rbuf t = { r->p + r->len - CHECKSUM_SIZE, CHECKSUM_SIZE, 0, NULL, false, NULL, 0 };
	uint64_t want = get_u64(&t);
	if (fnv64(r->p, r->len - CHECKSUM_SIZE) != want)
		return fail(r, "checksum mismatch (the file is corrupt)");
	return true;
}

bool container_read(const uint8_t *data, size_t size, struct arena *arena,
		    struct r500_program *out, char *why, size_t why_len)
{
	struct rbuf r = { data, size, 0, NULL, false, why, why_len };
	memset(out, 0, sizeof *out);
	if (why && why_len)
		why[0] = 0;
	if (!data)
		return fail(&r, "no data");
	if (!read_header(&r))
		return false;
	size_t body_end = size - CHECKSUM_SIZE;
	r.len = body_end;
	for (int i = 0; i < NSECTIONS; i++) {
		uint32_t tag = get_u32(&r), len = get_u32(&r);
		if (r.failed)
			return false;
		if (tag != section_tags[i])
			return fail(&r, "section %d should be %s", i, section_names[i]);
		if ((size_t)len > body_end - r.pos)
			return fail(&r, "section %s (%u bytes) runs past the end", section_names[i],
				    len);
		/* parse the payload with the end moved in to the section's end */
		struct rbuf s = { data, r.pos + len, r.pos, section_names[i], false, why, why_len };
		section_readers[i](&s, arena, out);
		if (s.failed)
			return false;
		if (s.pos != s.len)
			return fail(&s, "%zu unexpected bytes at its end", s.len - s.pos);
		r.pos += len;
		size_t pad = (4 - len % 4) % 4;
		if (pad > body_end - r.pos)
			return fail(&r, "section %s padding runs past the end", section_names[i]);
		for (size_t k = 0; k < pad; k++)
			if (data[r.pos + k] != 0)
				return fail(&r, "section %s has non-zero padding", section_names[i]);
		r.pos += pad;
	}
	if (r.pos != body_end)
		return fail(&r, "%zu unexpected bytes after the last section", body_end - r.pos);
	if (arena_failed(arena))
		return fail(&r, "out of memory");
	return true;
}
