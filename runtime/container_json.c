/* JSON forms of a program (uscc --info) and of its figures (--stats),
 * INTERFACES.md §3 and §4.  Strings are escaped so the output is valid
 * JSON (and ASCII) whatever the names hold. */
#include "container.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "r500_codec.h"

/* A growing arena string; on allocation failure `failed` sticks. */
struct jbuf {
	struct arena *arena;
	char *s;
	size_t len, cap;
	bool failed;
};

static void jb_add(struct jbuf *b, const char *s, size_t n)
{
	if (b->failed)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		char *p = arena_realloc(b->arena, b->s, b->cap, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void jb_puts(struct jbuf *b, const char *s)
{
	jb_add(b, s, strlen(s));
}

static void jb_printf(struct jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jb_printf(struct jbuf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof tmp)
		b->failed = true;
	else
		jb_add(b, tmp, (size_t)n);
}

static void jb_string(struct jbuf *b, const char *s)
{
	jb_puts(b, "\"");
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			jb_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			jb_printf(b, "\\u%04x", *p);
		else
			jb_add(b, (const char *)p, 1);
	}
	jb_puts(b, "\"");
}

/* JSON has no inf or NaN: those are written as the strings "inf", "-inf",
 * "nan" (docs/container.md). */
static void jb_float(struct jbuf *b, float f)
{
	if (isnan(f))
		jb_puts(b, "\"nan\"");
	else if (isinf(f))
		jb_puts(b, f > 0 ? "\"inf\"" : "\"-inf\"");
	else
		jb_printf(b, "%.9g", (double)f);
}

static const char *const target_names[] = { "1D", "2D", "3D", "CUBE", "RECT" };

static void stats_body(struct jbuf *b, const struct r500_stats *s)
{
	jb_printf(b, "{\"instructions\":%d,\"alu\":%d,\"tex\":%d,\"fc\":%d,\"out\":%d,",
		  s->instructions, s->alu, s->tex, s->fc, s->out);
	jb_printf(b, "\"nops\":%d,\"pairs\":%d,\"temps\":%d,\"constants\":%d,", s->nops,
		  s->pairs, s->temps, s->constants);
	jb_printf(b, "\"lower_bound\":%d,\"cycles\":%d,\"compile_us\":%lld}", s->lower_bound,
		  s->cycles, (long long)s->compile_us);
}

char *stats_to_json(const struct r500_stats *s, struct arena *arena)
{
	struct jbuf b = { arena, NULL, 0, 0, false };
	stats_body(&b, s);
	return b.failed ? NULL : b.s;
}

static void json_code(struct jbuf *b, const struct r500_program *p)
{
	jb_puts(b, "\"code\":[");
	for (int i = 0; i < p->ninst; i++) {
		uint32_t w[R500_WORDS];
		r500_encode(&p->code[i], w);
		for (int k = 0; k < R500_WORDS; k++)
			jb_printf(b, "%s\"0x%08X\"", i || k ? "," : "", (unsigned)w[k]);
	}
	jb_puts(b, "]");
}

/* Slots that hold no immediate (uniforms, unused) are null. */
static void json_constants(struct jbuf *b, const struct r500_program *p)
{
	jb_puts(b, ",\"constants\":[");
	for (int s = 0; s < p->nconst_slots; s++) {
		if (s)
			jb_puts(b, ",");
		if (!p->const_is_imm || !p->const_is_imm[s]) {
			jb_puts(b, "null");
			continue;
		}
		for (int c = 0; c < 4; c++) {
			jb_puts(b, c ? "," : "[");
			jb_float(b, p->consts[s][c]);
		}
		jb_puts(b, "]");
	}
	jb_puts(b, "]");
}

static void json_uniforms(struct jbuf *b, const struct r500_program *p)
{
	jb_puts(b, ",\"uniforms\":[");
	for (int i = 0; i < p->nuniforms; i++) {
		const struct r500_uniform *u = &p->uniforms[i];
		jb_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, u->name);
		jb_puts(b, ",\"type\":");
		jb_string(b, u->type);
		jb_printf(b, ",\"slot\":%d,\"swizzle\":", u->slot);
		jb_string(b, u->swizzle);
		jb_printf(b, ",\"array_len\":%d,\"element\":%d", u->array_len, u->element);
		for (int c = 0; u->init && c < 4; c++) {
			jb_puts(b, c ? "," : ",\"init\":[");
			jb_float(b, u->init[c]);
		}
		jb_puts(b, u->init ? "]}" : "}");
	}
	jb_puts(b, "]");
}

static void json_samplers(struct jbuf *b, const struct r500_program *p)
{
	jb_puts(b, ",\"samplers\":[");
	for (int i = 0; i < p->nsamplers; i++) {
		const struct r500_sampler *s = &p->samplers[i];
		jb_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, s->name);
		const char *t = s->target >= 0 && s->target < 5 ? target_names[s->target] : "?";
		jb_printf(b, ",\"unit\":%d,\"target\":\"%s\",\"shadow\":%s}", s->unit, t,
			  s->shadow ? "true" : "false");
	}
	jb_puts(b, "]");
}

static void json_inputs(struct jbuf *b, const struct r500_program *p)
{
	jb_puts(b, ",\"inputs\":[");
	for (int i = 0; i < p->ninputs; i++) {
		jb_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, p->inputs[i].name);
		jb_printf(b, ",\"temp\":%d,\"components\":", p->inputs[i].temp);
		jb_string(b, p->inputs[i].components);
		jb_puts(b, "}");
	}
	jb_puts(b, "]");
}

static void json_outputs(struct jbuf *b, const struct r500_program *p)
{
	jb_puts(b, ",\"outputs\":[");
	for (int i = 0; i < p->noutputs; i++) {
		jb_puts(b, i ? ",{\"name\":" : "{\"name\":");
		jb_string(b, p->outputs[i].name);
		if (p->outputs[i].target < 0)
			jb_puts(b, ",\"target\":\"depth\"}");
		else
			jb_printf(b, ",\"target\":%d}", p->outputs[i].target);
	}
	jb_puts(b, "]");
}

/* Loop descriptors by register number, only when flow control is used. */
static void json_flow(struct jbuf *b, const struct r500_program *p)
{
	jb_printf(b, ",\"pixsize\":%d", p->pixsize);
	if (!p->uses_fc)
		return;
	jb_puts(b, ",\"int_consts\":{");
	bool first = true;
	for (int i = 0; i < 32; i++) {
		if (!(p->int_const_used >> i & 1))
			continue;
		const struct r500_loop_const *c = &p->int_consts[i];
		jb_printf(b, "%s\"%d\":[%u,%u,%d]", first ? "" : ",", i, c->count, c->init, c->step);
		first = false;
	}
	jb_printf(b, "},\"bool_const\":%u", (unsigned)p->bool_const);
}

char *container_to_json(const struct r500_program *p, struct arena *arena)
{
	struct jbuf b = { arena, NULL, 0, 0, false };
	jb_printf(&b, "{\"version\":%d,", CONTAINER_VERSION);
	json_code(&b, p);
	json_constants(&b, p);
	json_uniforms(&b, p);
	json_samplers(&b, p);
	json_inputs(&b, p);
	json_outputs(&b, p);
	json_flow(&b, p);
	jb_puts(&b, ",\"stats\":");
	stats_body(&b, &p->stats);
	jb_puts(&b, "}");
	return b.failed ? NULL : b.s;
}
