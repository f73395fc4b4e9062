/* JSON forms of a program (uscc --info) and of its figures (--stats),
 * INTERFACES.md §3 and §4.  Strings are escaped so the output is valid
 * JSON (and ASCII) whatever the names hold. */
#include "container.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "r500_codec.h"
#include "r500_cp.h"
#include "texture.h"
#include "arena_strbuf.h"
#include "decimal.h"

static void jb_string(struct strbuf *b, const char *s)
{
	strbuf_puts(b, "\"");
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			strbuf_printf(b, "\\u%04x", *p);
		else
			strbuf_add(b, (const char *)p, 1);
	}
	strbuf_puts(b, "\"");
}

/* JSON has no inf or NaN: those are written as the strings "inf", "-inf",
 * "nan" (docs/container.md). */
static void jb_float(struct strbuf *b, float f)
{
	if (isnan(f))
		strbuf_puts(b, "\"nan\"");
	else if (isinf(f))
		strbuf_puts(b, f > 0 ? "\"inf\"" : "\"-inf\"");
	else
		strbuf_printf(b, "%.9g", (double)f);
}


/* The longest statistics JSON: every figure at its widest. */
enum {
	STATS_JSON_MAX = 2
#define R500_STAT(name, type, meaning) + sizeof(",\"" #name "\":") + DECIMAL_MAX
#include "r500_stats.def"
#undef R500_STAT
};

/* {"instructions":N,...} in r500_stats.def's order into json; returns its
 * length (no NUL).  One buffer, no strbuf append per piece: every compile
 * made it (uscc_result_stats_json), and the appends were 5% of a
 * 1-instruction shader's compile. */
static size_t stats_json_write(char json[STATS_JSON_MAX], const struct r500_stats *s)
{
	char *p = json, sep = '{', digits[DECIMAL_MAX];
	const char *d;
	size_t len;
#define R500_STAT(name, type, meaning)                                            \
	*p++ = sep;                                                               \
	memcpy(p, "\"" #name "\":", sizeof("\"" #name "\":") - 1);                  \
	p += sizeof("\"" #name "\":") - 1;                                        \
	d = decimal_format(digits, (long long)s->name, &len);                     \
	memcpy(p, d, len);                                                        \
	p += len;                                                                 \
	sep = ',';
#include "r500_stats.def"
#undef R500_STAT
	*p++ = '}';
	return (size_t)(p - json);
}

size_t stats_json_max(void)
{
	return STATS_JSON_MAX;
}

void stats_json_into(char *json, const struct r500_stats *s)
{
	json[stats_json_write(json, s)] = 0;
}

char *stats_to_json(const struct r500_stats *s, struct arena *arena)
{
	char json[STATS_JSON_MAX];
	return arena_strndup(arena, json, stats_json_write(json, s));
}

static void stats_body(struct strbuf *b, const struct r500_stats *s)
{
	char json[STATS_JSON_MAX];
	strbuf_add(b, json, stats_json_write(json, s));
}

static void json_code(struct strbuf *b, const struct r500_program *p)
{
	strbuf_puts(b, "\"code\":[");
	for (int i = 0; i < p->ninst; i++) {
		uint32_t w[R500_WORDS];
		r500_encode(&p->code[i], w);
		for (int k = 0; k < R500_WORDS; k++)
			strbuf_printf(b, "%s\"0x%08X\"", i || k ? "," : "", (unsigned)w[k]);
	}
	strbuf_puts(b, "]");
}

/* Slots that hold no immediate (uniforms, unused) are null. */
static void json_constants(struct strbuf *b, const struct r500_program *p)
{
	strbuf_puts(b, ",\"constants\":[");
	for (int s = 0; s < p->nconst_slots; s++) {
		if (s)
			strbuf_puts(b, ",");
		if (!p->const_is_imm || !p->const_is_imm[s]) {
			strbuf_puts(b, "null");
			continue;
		}
		for (int c = 0; c < 4; c++) {
			strbuf_puts(b, c ? "," : "[");
			jb_float(b, p->consts[s][c]);
		}
		strbuf_puts(b, "]");
	}
	strbuf_puts(b, "]");
}

static void json_uniforms(struct strbuf *b, const struct r500_program *p)
{
	strbuf_puts(b, ",\"uniforms\":[");
	for (int i = 0; i < p->nuniforms; i++) {
		const struct r500_uniform *u = &p->uniforms[i];
		strbuf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, u->name);
		strbuf_puts(b, ",\"type\":");
		jb_string(b, u->type);
		strbuf_printf(b, ",\"slot\":%d,\"swizzle\":", u->slot);
		jb_string(b, u->swizzle);
		strbuf_printf(b, ",\"array_len\":%d,\"element\":%d", u->array_len, u->element);
		for (int c = 0; u->init && c < 4; c++) {
			strbuf_puts(b, c ? "," : ",\"init\":[");
			jb_float(b, u->init[c]);
		}
		strbuf_puts(b, u->init ? "]}" : "}");
	}
	strbuf_puts(b, "]");
}

static void json_samplers(struct strbuf *b, const struct r500_program *p)
{
	strbuf_puts(b, ",\"samplers\":[");
	for (int i = 0; i < p->nsamplers; i++) {
		const struct r500_sampler *s = &p->samplers[i];
		strbuf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, s->name);
		const char *t = tex_target_name(s->target);
		strbuf_printf(b, ",\"unit\":%d,\"target\":\"%s\",\"shadow\":%s}", s->unit, t,
			  s->shadow ? "true" : "false");
	}
	strbuf_puts(b, "]");
}

static void json_inputs(struct strbuf *b, const struct r500_program *p)
{
	strbuf_puts(b, ",\"inputs\":[");
	for (int i = 0; i < p->ninputs; i++) {
		strbuf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, p->inputs[i].name);
		strbuf_printf(b, ",\"temp\":%d,\"components\":", p->inputs[i].temp);
		jb_string(b, p->inputs[i].components);
		strbuf_puts(b, "}");
	}
	strbuf_puts(b, "]");
}

static void json_outputs(struct strbuf *b, const struct r500_program *p)
{
	strbuf_puts(b, ",\"outputs\":[");
	for (int i = 0; i < p->noutputs; i++) {
		strbuf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, p->outputs[i].name);
		if (p->outputs[i].target < 0)
			strbuf_puts(b, ",\"target\":\"depth\"}");
		else
			strbuf_printf(b, ",\"target\":%d}", p->outputs[i].target);
	}
	strbuf_puts(b, "]");
}

/* Loop descriptors by register number, only when flow control is used. */
static void json_flow(struct strbuf *b, const struct r500_program *p)
{
	strbuf_printf(b, ",\"pixsize\":%d", p->pixsize);
	if (!p->uses_fc)
		return;
	strbuf_puts(b, ",\"int_consts\":{");
	bool first = true;
	for (int i = 0; i < 32; i++) {
		if (!(p->int_const_used >> i & 1))
			continue;
		const struct r500_loop_const *c = &p->int_consts[i];
		strbuf_printf(b, "%s\"%d\":[%u,%u,%d]", first ? "" : ",", i, c->count, c->init, c->step);
		first = false;
	}
	strbuf_printf(b, "},\"bool_const\":%u", (unsigned)p->bool_const);
}

/* The constant program's lines (r500_cp_format), when it has one. */
static void json_const_prog(struct strbuf *b, const struct r500_program *p)
{
	const struct r500_const_prog *cp = &p->cp;
	if (!cp->nouts)
		return;
	strbuf_printf(b, ",\"constant_program\":{\"instructions\":%d,\"outputs\":%d,\"lines\":[",
		      cp->ninst, cp->nouts);
	for (int i = 0; i < cp->ninst + cp->nouts; i++) {
		struct strbuf line;
		strbuf_init(&line, b->arena);
		r500_cp_format(&line, cp, i);
		const char *text = strbuf_text(&line);
		if (!text) {
			b->failed = true;
			return;
		}
		strbuf_puts(b, i ? "," : "");
		jb_string(b, text);
	}
	strbuf_puts(b, "]}");
}

char *container_to_json(const struct r500_program *p, struct arena *arena)
{
	struct strbuf b;
	strbuf_init(&b, arena);
	strbuf_printf(&b, "{\"version\":%d,", CONTAINER_VERSION);
	json_code(&b, p);
	json_constants(&b, p);
	json_uniforms(&b, p);
	json_samplers(&b, p);
	json_inputs(&b, p);
	json_outputs(&b, p);
	json_flow(&b, p);
	json_const_prog(&b, p);
	strbuf_puts(&b, ",\"stats\":");
	stats_body(&b, &p->stats);
	strbuf_puts(&b, "}");
	return strbuf_text(&b);
}
