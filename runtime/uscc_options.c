/* Options of a compile, and the cache key computed from them. */
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "fnv.h"
#include "shadow.h"
#include "uscc_build_id.h"
#include "uscc_internal.h"

struct mem_allocator uscc_allocator_of(const struct uscc_allocator *a)
{
	if (!a || !a->fn)
		return mem_default_allocator;
	return (struct mem_allocator){ a->fn, a->ud };
}

static char *dup_str(const struct mem_allocator *a, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = mem_alloc(a, n);
	if (p)
		memcpy(p, s, n);
	return p;
}

static void free_str(const struct mem_allocator *a, char *s)
{
	if (s)
		mem_free(a, s, strlen(s) + 1);
}

const char *uscc_skip_name(int i)
{
	return i >= 0 && i < SW_COUNT ? sw_name((enum sw_id)i) : NULL;
}

enum uscc_status uscc_options_skip(struct uscc_options *o, const char *name)
{
	enum sw_id sw;
	if (!o || !sw_find(name, &sw))
		return USCC_USAGE_ERROR;
	o->skip |= sw_bit(sw);
	return USCC_OK;
}

/* USCC_SKIP: names separated by commas; the first unknown one is kept
 * for the warning every run gives. */
static void skip_from_env(struct uscc_options *o)
{
	const char *env = getenv("USCC_SKIP");
	for (const char *p = env; p && *p;) {
		size_t len = strcspn(p, ",");
		char name[64];
		if (len > 0 && len < sizeof name) {
			memcpy(name, p, len);
			name[len] = 0;
			if (uscc_options_skip(o, name) != USCC_OK && !o->skip_env_bad[0])
				memcpy(o->skip_env_bad, name, len + 1);
		} else if (len > 0 && !o->skip_env_bad[0]) {
			memcpy(o->skip_env_bad, p, sizeof o->skip_env_bad - 1);
		}
		p += len + (p[len] == ',');
	}
}

struct uscc_options *uscc_options_init_default(struct uscc_options *o,
					       const struct uscc_allocator *alloc)
{
	memset(o, 0, sizeof *o);
	o->alloc = uscc_allocator_of(alloc);
	o->stage = USCC_STAGE_FRAGMENT;
	o->opt_level = 2;
	limits_default(&o->limits);
	skip_from_env(o);
	return o;
}

struct uscc_options *uscc_options_create(const struct uscc_allocator *alloc)
{
	struct mem_allocator a = uscc_allocator_of(alloc);
	struct uscc_options *o = mem_alloc(&a, sizeof *o);
	return o ? uscc_options_init_default(o, alloc) : NULL;
}

void uscc_options_destroy(struct uscc_options *o)
{
	if (!o)
		return;
	struct mem_allocator a = o->alloc;
	for (int i = 0; i < o->ndefines; i++) {
		free_str(&a, (char *)o->defines[i].name);
		free_str(&a, (char *)o->defines[i].value);
	}
	mem_free(&a, o->defines, (size_t)o->cap * sizeof *o->defines);
	free_str(&a, o->filename);
	mem_free(&a, o, sizeof *o);
}

enum uscc_status uscc_options_set_stage(struct uscc_options *o, enum uscc_stage stage)
{
	if (stage != USCC_STAGE_FRAGMENT && stage != USCC_STAGE_VERTEX)
		return USCC_USAGE_ERROR;
	o->stage = stage;
	return USCC_OK;
}

enum uscc_status uscc_options_set_language(struct uscc_options *o, enum uscc_language lang)
{
	if (lang != USCC_LANGUAGE_GLSL && lang != USCC_LANGUAGE_TGSI &&
	    lang != USCC_LANGUAGE_TGSI_TOKENS)
		return USCC_USAGE_ERROR;
	o->language = lang;
	return USCC_OK;
}

enum uscc_status uscc_options_set_opt_level(struct uscc_options *o, int level)
{
	if (level != 0 && level != 2)
		return USCC_USAGE_ERROR;
	o->opt_level = level;
	return USCC_OK;
}

static bool is_identifier(const char *s)
{
	if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static enum uscc_status add_define(struct uscc_options *o, const char *name, const char *value,
				   bool undef)
{
	if (!is_identifier(name))
		return USCC_USAGE_ERROR;
	if (o->ndefines == o->cap) {
		int cap = o->cap ? o->cap * 2 : 8;
		struct glsl_define *d = mem_realloc(&o->alloc, o->defines,
						    (size_t)o->cap * sizeof *d, (size_t)cap * sizeof *d);
		if (!d)
			return USCC_OUT_OF_MEMORY;
		o->defines = d;
		o->cap = cap;
	}
	char *n = dup_str(&o->alloc, name);
	char *v = value ? dup_str(&o->alloc, value) : NULL;
	if (!n || (value && !v)) {
		free_str(&o->alloc, n);
		free_str(&o->alloc, v);
		return USCC_OUT_OF_MEMORY;
	}
	o->defines[o->ndefines++] = (struct glsl_define){ n, v, undef };
	return USCC_OK;
}

enum uscc_status uscc_options_define(struct uscc_options *o, const char *name, const char *value)
{
	return add_define(o, name, value, false);
}

enum uscc_status uscc_options_undefine(struct uscc_options *o, const char *name)
{
	return add_define(o, name, NULL, true);
}

enum uscc_status uscc_options_set_werror(struct uscc_options *o, bool on)
{
	o->werror = on;
	return USCC_OK;
}

enum uscc_status uscc_options_set_filename(struct uscc_options *o, const char *name)
{
	char *n = dup_str(&o->alloc, name ? name : "<source>");
	if (!n)
		return USCC_OUT_OF_MEMORY;
	free_str(&o->alloc, o->filename);
	o->filename = n;
	return USCC_OK;
}

enum uscc_status uscc_options_set_record_time(struct uscc_options *o, bool on)
{
	o->record_time = on;
	return USCC_OK;
}

enum uscc_status uscc_options_set_constant_program(struct uscc_options *o, bool on)
{
	o->no_constant_program = !on;
	return USCC_OK;
}

enum uscc_status uscc_options_set_divergent_jumps(struct uscc_options *o, bool on)
{
	o->divergent_jumps = on;
	return USCC_OK;
}

/* Every field is hashed with its length first (fixed 8-byte little-endian),
 * so no two different inputs are the same byte stream. */
static uint64_t hash_u64(uint64_t h, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return fnv64_update(h, b, 8);
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	return fnv64_update(hash_u64(h, n), p, n);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	if (!s)
		return hash_u64(h, UINT64_MAX);
	return hash_bytes(h, s, strlen(s));
}

_Static_assert((int)USCC_LIMIT_COUNT == (int)LIMIT_COUNT, "uscc.h's enum uscc_limit follows compile_limits.def");
_Static_assert((int)USCC_COMPARE_NEVER == (int)TEX_COMPARE_NEVER &&
	       (int)USCC_COMPARE_GREATER == (int)TEX_COMPARE_GREATER &&
	       (int)USCC_DEPTH_RED == (int)TEX_DEPTH_RED, "uscc.h's shadow enums follow util/shadow.h");

long uscc_limit_default(enum uscc_limit which)
{
	return (unsigned)which < LIMIT_COUNT ? limit_infos[which].def : -1;
}

const char *uscc_limit_name(enum uscc_limit which)
{
	return (unsigned)which < LIMIT_COUNT ? limit_infos[which].name : NULL;
}

enum uscc_status uscc_limit_find(const char *name, enum uscc_limit *out)
{
	int k = name ? limits_find(name, strlen(name)) : -1;
	if (k < 0)
		return USCC_USAGE_ERROR;
	*out = (enum uscc_limit)k;
	return USCC_OK;
}

enum uscc_status uscc_options_set_limit(struct uscc_options *o, enum uscc_limit which, long value)
{
	if (!o || (unsigned)which >= LIMIT_COUNT || value < 1 || value > limit_infos[which].def)
		return USCC_USAGE_ERROR;
	o->limits.v[which] = value;
	return USCC_OK;
}

enum uscc_status uscc_options_set_shadow(struct uscc_options *o, int unit, enum uscc_compare compare,
					 enum uscc_depth_mode mode)
{
	if (!o || unit < 0 || unit >= GLSL_SHADOW_UNITS || (unsigned)compare >= TEX_COMPARE_COUNT ||
	    (unsigned)mode >= TEX_DEPTH_COUNT)
		return USCC_USAGE_ERROR;
	o->shadow[unit].compare = (uint8_t)compare;
	o->shadow[unit].depth_mode = (uint8_t)mode;
	return USCC_OK;
}

enum uscc_status uscc_options_set_r300_conventions(struct uscc_options *o, bool on)
{
	if (!o)
		return USCC_USAGE_ERROR;
	o->r300 = on;
	return USCC_OK;
}

_Static_assert((int)USCC_WRAP_MIRRORED_CLAMP == (int)IR_R300_WRAP_MIRRORED_CLAMP,
	       "uscc.h's enum uscc_wrap follows ir/r300_conventions.h");

enum uscc_status uscc_options_set_r300_wrap(struct uscc_options *o, int unit, enum uscc_wrap wrap,
					    bool clamp_and_scale)
{
	if (!o || unit < 0 || unit >= IR_R300_UNITS || (unsigned)wrap >= IR_R300_WRAP_COUNT)
		return USCC_USAGE_ERROR;
	o->r300_units[unit] = (struct ir_r300_unit){ (uint8_t)wrap, clamp_and_scale };
	return USCC_OK;
}

long uscc_options_limit(const struct uscc_options *o, enum uscc_limit which)
{
	if ((unsigned)which >= LIMIT_COUNT)
		return -1;
	return o ? o->limits.v[which] : limit_infos[which].def;
}

uint64_t uscc_cache_key(const struct uscc_options *o, const char *source, size_t len)
{
	if (len == USCC_NUL_TERMINATED)
		len = source ? strlen(source) : 0;
	struct uscc_options defaults;
	if (!o)
		o = uscc_options_init_default(&defaults, NULL);
	uint64_t h = FNV64_BASIS;
	h = hash_str(h, "uscc");
	h = hash_str(h, USCC_VERSION_STRING);
	h = hash_str(h, USCC_BUILD_ID); /* the compiler's sources */
	h = hash_u64(h, CONTAINER_VERSION);
	h = hash_u64(h, (uint64_t)o->stage);
	if (o->language != USCC_LANGUAGE_GLSL) /* GLSL keys stay as they were */
		h = hash_str(h, "language TGSI");
	h = hash_u64(h, (uint64_t)o->opt_level);
	h = hash_u64(h, o->werror);
	h = hash_u64(h, o->record_time);
	h = hash_u64(h, o->no_constant_program);
	h = hash_u64(h, o->divergent_jumps);
	h = hash_u64(h, (uint64_t)o->ndefines);
	for (int i = 0; i < o->ndefines; i++) {
		h = hash_u64(h, o->defines[i].undef);
		h = hash_str(h, o->defines[i].name);
		h = hash_str(h, o->defines[i].value);
	}
	/* limits tightened below their defaults change what is refused; keys
	 * of default options stay as they were before limits existed */
	for (int k = 0; k < LIMIT_COUNT; k++)
		if (o->limits.v[k] != limit_infos[k].def) {
			h = hash_u64(h, (uint64_t)k);
			h = hash_u64(h, (uint64_t)o->limits.v[k]);
		}
	if (o->skip) /* default keys stay as they were before --skip existed */
		h = hash_u64(hash_u64(h, (uint64_t)1 << 32), o->skip);
	for (int u = 0; u < GLSL_SHADOW_UNITS; u++) /* likewise for the shadow state */
		if (o->shadow[u].compare || o->shadow[u].depth_mode)
			h = hash_u64(h, (uint64_t)2 << 32 | (uint64_t)u << 16 |
					(uint64_t)o->shadow[u].compare << 8 | o->shadow[u].depth_mode);
	if (o->r300) { /* likewise for r300's conventions */
		h = hash_u64(h, (uint64_t)3 << 32);
		for (int u = 0; u < IR_R300_UNITS; u++)
			h = hash_u64(h, (uint64_t)o->r300_units[u].wrap << 8 |
					o->r300_units[u].clamp_and_scale);
	}
	return hash_bytes(h, source ? source : "", source ? len : 0);
}
