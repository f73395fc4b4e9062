/* Token scan of a fragment shader for the llvmpipe oracle, and the
 * pass-through vertex shader that feeds it (see oracle_scan.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oracle_scan.h"

enum { TOK_LEN = 128 };

struct lexer {
	const char *p;
	bool line_start;
	struct frag_scan *fs;
};

/* Reads "#version N [es]" or skips any other directive (with its
 * backslash-continued lines). */
static void lex_directive(struct lexer *lx)
{
	const char *p = lx->p + 1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!strncmp(p, "version", 7)) {
		char *end;
		long v = strtol(p + 7, &end, 10);
		if (end != p + 7 && v > 0 && v < 1000) {
			lx->fs->version = (int)v;
			lx->fs->es = v == 100;
		}
	}
	while (*p && *p != '\n') {
		if (*p == '\\' && p[1] == '\n')
			p++;
		p++;
	}
	lx->p = p;
}

/* The next token into tok (identifiers and numbers whole, punctuation one
 * character); false at the end of the source. */
static bool lex_next(struct lexer *lx, char *tok)
{
	for (;;) {
		const char *p = lx->p;
		if (!*p)
			return false;
		if (*p == '\n') {
			lx->line_start = true;
			lx->p++;
		} else if (isspace((unsigned char)*p)) {
			lx->p++;
		} else if (p[0] == '/' && p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			lx->p = end ? end + 2 : p + strlen(p);
		} else if (*p == '#' && lx->line_start) {
			lex_directive(lx);
		} else {
			break;
		}
	}
	lx->line_start = false;
	const char *p = lx->p;
	size_t n = 0;
	if (isdigit((unsigned char)*p) || *p == '.') {
		while ((isalnum((unsigned char)p[n]) || p[n] == '.') && n < TOK_LEN - 1)
			n++;
	} else if (isalpha((unsigned char)*p) || *p == '_') {
		while ((isalnum((unsigned char)p[n]) || p[n] == '_') && n < TOK_LEN - 1)
			n++;
	} else {
		n = 1;
	}
	memcpy(tok, p, n);
	tok[n] = 0;
	lx->p = p + n;
	return true;
}

static bool is_precision(const char *t)
{
	return !strcmp(t, "lowp") || !strcmp(t, "mediump") || !strcmp(t, "highp");
}

static bool fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return false;
}

/* After "varying"/"uniform": [precision] TYPE NAME [ '[' N ']' ] {, NAME ...} ;
 * appends the names to list (only samplers when only_samplers). */
static bool scan_declaration(struct lexer *lx, struct scan_decl *list, int *count,
			     bool only_samplers, char *why, size_t why_len)
{
	char type[TOK_LEN], tok[TOK_LEN];
	do {
		if (!lex_next(lx, type))
			return true;
	} while (is_precision(type));
	bool keep = !only_samplers || !strncmp(type, "sampler", 7);
	while (lex_next(lx, tok)) {
		if (!strcmp(tok, ";"))
			return true;
		if (!keep || !(isalpha((unsigned char)tok[0]) || tok[0] == '_'))
			continue;
		if (*count >= SCAN_MAX_DECLS)
			return fail(why, why_len, "more than %d declarations", SCAN_MAX_DECLS);
		if (strlen(tok) >= SCAN_NAME_LEN || strlen(type) >= SCAN_NAME_LEN)
			return fail(why, why_len, "name '%s' too long", tok);
		struct scan_decl *d = &list[(*count)++];
		memset(d, 0, sizeof *d);
		strcpy(d->type, type);
		strcpy(d->name, tok);
		const char *save = lx->p;
		char br[TOK_LEN], num[TOK_LEN], close[TOK_LEN];
		if (lex_next(lx, br) && !strcmp(br, "[") && lex_next(lx, num) &&
		    lex_next(lx, close) && !strcmp(close, "]")) {
			long n = strtol(num, NULL, 0);
			d->length = n > 0 && n <= 64 ? (int)n : 1;
		} else {
			lx->p = save;
		}
		if (!strcmp(d->name, "gl_TexCoord")) {
			/* a redeclared built-in (GLSL 1.10 §7.6): only its size */
			lx->fs->texcoord_len = d->length > 0 && d->length <= 8 ? d->length : 8;
			(*count)--;
		}
	}
	return true;
}

static void note_builtin(struct frag_scan *fs, const char *tok)
{
	if (!strcmp(tok, "gl_TexCoord"))
		fs->uses_texcoord = true;
	else if (!strcmp(tok, "gl_Color"))
		fs->uses_color = true;
	else if (!strcmp(tok, "gl_SecondaryColor"))
		fs->uses_secondary = true;
	else if (!strcmp(tok, "gl_FogFragCoord"))
		fs->uses_fog = true;
	else if (!strcmp(tok, "gl_FragData"))
		fs->uses_fragdata = true;
	else if (!strcmp(tok, "dFdx") || !strcmp(tok, "dFdy") || !strcmp(tok, "fwidth"))
		fs->uses_derivatives = true;
}

bool scan_fragment(const char *src, struct frag_scan *out, char *why, size_t why_len)
{
	memset(out, 0, sizeof *out);
	out->version = 110;
	struct lexer lx = { .p = src, .line_start = true, .fs = out };
	char tok[TOK_LEN];
	int depth = 0;
	while (lex_next(&lx, tok)) {
		note_builtin(out, tok);
		if (!strcmp(tok, "{"))
			depth++;
		else if (!strcmp(tok, "}") && depth > 0)
			depth--;
		else if (depth == 0 && !strcmp(tok, "varying")) {
			if (!scan_declaration(&lx, out->varyings, &out->nvaryings, false, why, why_len))
				return false;
		} else if (depth == 0 && !strcmp(tok, "uniform")) {
			if (!scan_declaration(&lx, out->samplers, &out->nsamplers, true, why, why_len))
				return false;
		}
	}
	return true;
}

struct out_buf {
	char *p;
	size_t len, used;
	bool full;
};

static void emit(struct out_buf *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(o->p + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->used)
		o->full = true;
	else
		o->used += (size_t)n;
}

/* The swizzle that narrows a vec4 attribute to a varying type. */
static const char *narrowing(const char *type)
{
	static const struct { const char *type, *swz; } table[] = {
		{ "float", ".x" }, { "vec2", ".xy" }, { "vec3", ".xyz" }, { "vec4", "" },
	};
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(type, table[i].type))
			return table[i].swz;
	return NULL;
}

/* One assignment `lhs = attribute;` for the varying the emulator names `name`. */
static void emit_feed(struct out_buf *o, const char *lhs, const char *name, const char *swz,
		      scan_attr_fn attr, void *ud)
{
	int a = attr(name, ud);
	if (a < 0)
		emit(o, "\t%s = a_def%s;\n", lhs, swz);
	else
		emit(o, "\t%s = a_v%d%s;\n", lhs, a, swz);
}

bool scan_vertex_shader(const struct frag_scan *fs, int nattr, scan_attr_fn attr, void *ud,
			char *buf, size_t len)
{
	struct out_buf o = { buf, len, 0, len == 0 };
	if (len)
		buf[0] = 0;
	if (fs->version != 110)
		emit(&o, "#version %d\n", fs->version);
	emit(&o, "attribute vec2 a_pos;\nattribute vec4 a_def;\n");
	for (int i = 0; i < nattr; i++)
		emit(&o, "attribute vec4 a_v%d;\n", i);
	for (int i = 0; i < fs->nvaryings; i++) {
		const struct scan_decl *d = &fs->varyings[i];
		if (d->length)
			emit(&o, "varying %s %s[%d];\n", d->type, d->name, d->length);
		else
			emit(&o, "varying %s %s;\n", d->type, d->name);
	}
	if (fs->texcoord_len && !fs->es)
		emit(&o, "varying vec4 gl_TexCoord[%d];\n", fs->texcoord_len);
	emit(&o, "void main()\n{\n\tgl_Position = vec4(a_pos, 0.0, 1.0);\n");
	char lhs[2 * SCAN_NAME_LEN];
	for (int i = 0; i < fs->nvaryings; i++) {
		const struct scan_decl *d = &fs->varyings[i];
		const char *swz = narrowing(d->type);
		if (!swz)
			continue; /* matrix varyings: uscc refuses them; leave undefined */
		if (!d->length) {
			emit_feed(&o, d->name, d->name, swz, attr, ud);
			continue;
		}
		for (int e = 0; e < d->length; e++) {
			snprintf(lhs, sizeof lhs, "%s[%d]", d->name, e);
			emit_feed(&o, lhs, lhs, swz, attr, ud);
		}
	}
	if (!fs->es) {
		int ntex = fs->texcoord_len ? fs->texcoord_len : 8;
		if (fs->uses_texcoord)
			for (int k = 0; k < ntex; k++) {
				snprintf(lhs, sizeof lhs, "gl_TexCoord[%d]", k);
				emit_feed(&o, lhs, lhs, "", attr, ud);
			}
		if (fs->uses_color)
			emit_feed(&o, "gl_FrontColor", "gl_Color", "", attr, ud);
		if (fs->uses_secondary)
			emit_feed(&o, "gl_FrontSecondaryColor", "gl_SecondaryColor", "", attr, ud);
		if (fs->uses_fog)
			emit_feed(&o, "gl_FogFragCoord", "gl_FogFragCoord", ".x", attr, ud);
	}
	emit(&o, "}\n");
	return !o.full;
}
