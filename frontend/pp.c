/* GLSL preprocessor (GLSL 1.10/1.20/ES 1.00, chapter 3.3 of each spec).
 * Two phases: comments become spaces (newlines kept), then lines are either
 * directives (replaced by an empty line) or text whose macros are expanded.
 * Every output byte keeps the original line/column (see pp.h). */
#include "pp.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pp_text.h"

enum { PP_BUCKETS = 256 };

struct pp_macro {
	const char *name;
	const char *body;
	int nparams;              /* -1: object-like */
	const char **params;
	bool builtin;             /* cannot be redefined or undefined */
	struct pp_macro *next;
};

struct pp_cond {
	bool parent_active;       /* the enclosing region is active */
	bool taken;               /* some branch of this #if was taken */
	bool active;              /* the current branch is active */
	bool seen_else;
	int line, col;
};

struct pp {
	struct fe_ctx *fe;
	struct pp_macro *buckets[PP_BUCKETS];
	struct pp_text clean, out;
	struct pp_cond *conds;
	int nconds, capconds;
	bool seen_content;        /* anything but comments/space before #version */
	bool too_big;
	int line_delta;           /* from #line */
};

/* A span of text and the map of where each byte came from; when `line` is
 * NULL every byte came from (fline, fcol): macro expansion results. */
struct pp_span {
	const char *text;
	size_t len;
	const int *line, *col;
	int fline, fcol;
};

static bool is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool is_ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static unsigned name_hash(const char *s, size_t n)
{
	unsigned h = 5381;
	for (size_t i = 0; i < n; i++)
		h = h * 33 + (unsigned char)s[i];
	return h % PP_BUCKETS;
}

static struct pp_macro *macro_find(struct pp *pp, const char *s, size_t n)
{
	for (struct pp_macro *m = pp->buckets[name_hash(s, n)]; m; m = m->next)
		if (strlen(m->name) == n && memcmp(m->name, s, n) == 0)
			return m;
	return NULL;
}

static void macro_remove(struct pp *pp, const char *s, size_t n)
{
	struct pp_macro **p = &pp->buckets[name_hash(s, n)];
	for (; *p; p = &(*p)->next)
		if (strlen((*p)->name) == n && memcmp((*p)->name, s, n) == 0) {
			*p = (*p)->next;
			return;
		}
}

static struct pp_macro *macro_add(struct pp *pp, const char *name, size_t n, const char *body)
{
	struct pp_macro *m = arena_alloc(pp->fe->arena, sizeof *m);
	if (!m)
		return NULL;
	m->name = arena_strndup(pp->fe->arena, name, n);
	m->body = arena_strdup(pp->fe->arena, body ? body : "");
	m->nparams = -1;
	unsigned h = name_hash(name, n);
	m->next = pp->buckets[h];
	pp->buckets[h] = m;
	return m;
}

static void pp_error(struct pp *pp, int line, int col, const char *fmt, const char *arg)
{
	diag_error(pp->fe->diag, fe_loc(pp->fe, line, col), fmt, arg);
}

/* --- phase 1: comments --- */

/* Skips line continuations (backslash, newline) at src[*i]: none of the
 * three specs has them, but every driver joins the lines (as C does,
 * before comments), and piglit's multi-line-define expects it. */
static void skip_splices(const char *src, size_t *i, int *line, int *col)
{
	for (;;) {
		size_t n = src[*i] == '\\' && src[*i + 1] == '\r' ? 2 : 1;
		if (src[*i] != '\\' || src[*i + n] != '\n')
			return;
		*i += n + 1;
		++*line;
		*col = 1;
	}
}

/* The source's size and its longest line, checked before any other work
 * so that an oversized input costs one pass over its bytes. */
static bool source_fits(struct pp *pp, const char *src)
{
	const struct limits *lim = &pp->fe->limits;
	long line = 1, col = 1, size = 0;
	for (const char *p = src; *p; p++) {
		if (++size > lim->v[LIMIT_SOURCE_BYTES]) {
			size_t total = (size_t)size + strlen(p + 1);
			return limit_error(pp->fe->diag, fe_loc(pp->fe, (int)line, (int)col), lim,
					   LIMIT_SOURCE_BYTES, (long)total);
		}
		if (*p == '\n') {
			line++, col = 1;
		} else if (col++ > lim->v[LIMIT_LINE_LENGTH]) {
			long n = col - 1;
			while (p[1] && p[1] != '\n')
				p++, n++;
			return limit_error(pp->fe->diag, fe_loc(pp->fe, (int)line,
				(int)lim->v[LIMIT_LINE_LENGTH] + 1), lim, LIMIT_LINE_LENGTH, n);
		}
	}
	return true;
}

static bool strip_comments(struct pp *pp, const char *src)
{
	int line = 1, col = 1;
	bool ok = true;
	for (size_t i = 0; skip_splices(src, &i, &line, &col), src[i];) {
		char c = src[i];
		if (c == '/' && src[i + 1] == '/') {
			while (skip_splices(src, &i, &line, &col), src[i] && src[i] != '\n')
				i++, col++;
			continue;
		}
		if (c == '/' && src[i + 1] == '*') {
			int sl = line, sc = col;
			pp_text_putc(&pp->clean, ' ', line, col);
			i += 2, col += 2;
			while (src[i] && !(src[i] == '*' && src[i + 1] == '/')) {
				if (src[i] == '\n') {
					pp_text_putc(&pp->clean, '\n', line, col);
					line++, col = 1;
				} else {
					col++;
				}
				i++;
			}
			if (!src[i]) {
				pp_error(pp, sl, sc, "unterminated comment%s", "");
				ok = false;
				break;
			}
			i += 2, col += 2;
			continue;
		}
		if (c == '\r') {
			if (src[i + 1] != '\n')
				pp_text_putc(&pp->clean, ' ', line, col);
			i++, col++;
			continue;
		}
		pp_text_putc(&pp->clean, c, line, col);
		i++;
		if (c == '\n')
			line++, col = 1;
		else
			col++;
	}
	pp_text_putc(&pp->clean, '\n', line, col); /* every line ends in a newline */
	return ok;
}

/* --- macro expansion --- */

struct pp_hide {
	const struct pp_macro *m;
	const struct pp_hide *up;
};

static bool hidden(const struct pp_hide *h, const struct pp_macro *m)
{
	for (; h; h = h->up)
		if (h->m == m)
			return true;
	return false;
}

static void span_loc(const struct pp_span *s, size_t i, int *line, int *col)
{
	if (s->line) {
		*line = s->line[i];
		*col = s->col[i];
	} else {
		*line = s->fline;
		*col = s->fcol;
	}
}

static void emit(struct pp *pp, struct pp_text *out, const struct pp_span *s, size_t from, size_t to)
{
	const struct limits *lim = &pp->fe->limits;
	if (out->s.len + (to - from) > (size_t)lim->v[LIMIT_PREPROCESSED_BYTES]) {
		if (!pp->too_big) {
			int l, c;
			span_loc(s, from, &l, &c);
			limit_error(pp->fe->diag, fe_loc(pp->fe, l + pp->line_delta, c), lim,
				    LIMIT_PREPROCESSED_BYTES, (long)(out->s.len + (to - from)));
			pp->too_big = true;
		}
		return;
	}
	for (size_t i = from; i < to; i++) {
		int l, c;
		span_loc(s, i, &l, &c);
		pp_text_putc(out, s->text[i], l + pp->line_delta, c);
	}
}

static void expand(struct pp *pp, struct pp_text *out, const struct pp_span *s,
		   const struct pp_hide *hide, int depth);

/* Replaces parameters by their arguments' text in a function-like body. */
static char *substitute(struct pp *pp, const struct pp_macro *m, const char **args,
			const size_t *alen)
{
	struct pp_text b;
	pp_text_init(&b, pp->fe->arena, false);
	const char *p = m->body;
	while (*p) {
		if (is_ident_start((unsigned char)*p)) {
			const char *q = p;
			while (is_ident_char((unsigned char)*q))
				q++;
			int k = -1;
			for (int i = 0; i < m->nparams; i++)
				if (strlen(m->params[i]) == (size_t)(q - p) &&
				    memcmp(m->params[i], p, (size_t)(q - p)) == 0)
					k = i;
			if (k >= 0)
				pp_text_append(&b, args[k], alen[k], 0, 0);
			else
				pp_text_append(&b, p, (size_t)(q - p), 0, 0);
			p = q;
		} else {
			pp_text_putc(&b, *p++, 0, 0);
		}
	}
	return b.s.failed ? NULL : b.s.text;
}

/* A function-like macro's name at s[start..pos): reads its arguments from
 * s[pos..]; returns the position after ')' or 0 when there is no call. */
static size_t expand_call(struct pp *pp, struct pp_text *out, const struct pp_span *s,
			  size_t start, size_t pos, const struct pp_macro *m,
			  const struct pp_hide *hide, int depth)
{
	size_t i = pos;
	while (i < s->len && isspace((unsigned char)s->text[i]))
		i++;
	if (i >= s->len || s->text[i] != '(')
		return 0;
	int l, c;
	span_loc(s, start, &l, &c);
	enum { MAX_ARGS = 64 };
	const char *args[MAX_ARGS];
	size_t alen[MAX_ARGS];
	int nargs = 0, nest = 0, newlines = 0;
	size_t arg_start = ++i;
	for (; i < s->len; i++) {
		char ch = s->text[i];
		if (ch == '\n')
			newlines++;
		if (ch == '(') {
			nest++;
		} else if ((ch == ',' && nest == 0) || (ch == ')' && nest == 0)) {
			if (nargs == MAX_ARGS) {
				pp_error(pp, l, c, "too many arguments in call of macro '%s'", m->name);
				return i + 1;
			}
			size_t a = arg_start, e = i;
			while (a < e && isspace((unsigned char)s->text[a]))
				a++;
			while (e > a && isspace((unsigned char)s->text[e - 1]))
				e--;
			args[nargs] = s->text + a;
			alen[nargs++] = e - a;
			arg_start = i + 1;
			if (ch == ')')
				break;
		} else if (ch == ')') {
			nest--;
		}
	}
	if (i >= s->len) {
		pp_error(pp, l, c, "unterminated call of macro '%s'", m->name);
		return s->len;
	}
	if (m->nparams == 0 && nargs == 1 && alen[0] == 0)
		nargs = 0;
	if (nargs != m->nparams) {
		diag_error(pp->fe->diag, fe_loc(pp->fe, l + pp->line_delta, c),
			   "macro '%s' takes %d argument%s, %d given", m->name, m->nparams,
			   m->nparams == 1 ? "" : "s", nargs);
		return i + 1;
	}
	char *body = substitute(pp, m, args, alen);
	if (body) {
		struct pp_span sub = { body, strlen(body), NULL, NULL, l, c };
		struct pp_hide h = { m, hide };
		expand(pp, out, &sub, &h, depth + 1);
	}
	/* keep the line count of the source when a call spans lines */
	for (size_t k = pos; k <= i; k++)
		if (s->text[k] == '\n') {
			int nl, nc;
			span_loc(s, k, &nl, &nc);
			pp_text_putc(out, '\n', nl + pp->line_delta, nc);
		}
	(void)newlines;
	return i + 1;
}

static void expand(struct pp *pp, struct pp_text *out, const struct pp_span *s,
		   const struct pp_hide *hide, int depth)
{
	if (depth > pp->fe->limits.v[LIMIT_MACRO_DEPTH]) {
		if (!pp->too_big)
			limit_error(pp->fe->diag, fe_loc(pp->fe, s->fline + pp->line_delta, s->fcol),
				    &pp->fe->limits, LIMIT_MACRO_DEPTH, depth);
		pp->too_big = true;
		return;
	}
	size_t i = 0;
	while (i < s->len && !pp->too_big) {
		unsigned char ch = (unsigned char)s->text[i];
		if (isdigit(ch) || (ch == '.' && i + 1 < s->len && isdigit((unsigned char)s->text[i + 1]))) {
			/* a pp-number: never expand the suffix letters inside it */
			size_t j = i + 1;
			while (j < s->len && (is_ident_char((unsigned char)s->text[j]) || s->text[j] == '.' ||
					      ((s->text[j] == '+' || s->text[j] == '-') &&
					       (s->text[j - 1] == 'e' || s->text[j - 1] == 'E'))))
				j++;
			emit(pp, out, s, i, j);
			i = j;
			continue;
		}
		if (!is_ident_start(ch)) {
			emit(pp, out, s, i, i + 1);
			i++;
			continue;
		}
		size_t j = i;
		while (j < s->len && is_ident_char((unsigned char)s->text[j]))
			j++;
		const char *name = s->text + i;
		size_t n = j - i;
		int l, c;
		span_loc(s, i, &l, &c);
		char num[32];
		const char *special = NULL;
		if (n == 8 && memcmp(name, "__LINE__", 8) == 0) {
			snprintf(num, sizeof num, "%d", l + pp->line_delta);
			special = num;
		} else if (n == 8 && memcmp(name, "__FILE__", 8) == 0) {
			special = "0";
		} else if (n == 11 && memcmp(name, "__VERSION__", 11) == 0) {
			snprintf(num, sizeof num, "%d", pp->fe->version);
			special = num;
		}
		if (special) {
			struct pp_span sp = { special, strlen(special), NULL, NULL, l, c };
			emit(pp, out, &sp, 0, sp.len);
			i = j;
			continue;
		}
		const struct pp_macro *m = macro_find(pp, name, n);
		if (!m || hidden(hide, m)) {
			emit(pp, out, s, i, j);
			i = j;
			continue;
		}
		if (m->nparams < 0) {
			struct pp_span body = { m->body, strlen(m->body), NULL, NULL, l, c };
			struct pp_hide h = { m, hide };
			expand(pp, out, &body, &h, depth + 1);
			i = j;
			continue;
		}
		size_t after = expand_call(pp, out, s, i, j, m, hide, depth);
		if (!after) {
			emit(pp, out, s, i, j);
			i = j;
		} else {
			i = after;
		}
	}
}

/* --- directives --- */

/* A directive line: text[pos..end) after the '#', with the clean map. */
struct pp_line {
	const char *text;
	size_t pos, end;
	const int *line, *col;
	int hline, hcol;          /* location of the '#' */
};

static void dl_space(struct pp_line *d)
{
	while (d->pos < d->end && (d->text[d->pos] == ' ' || d->text[d->pos] == '\t' ||
				   d->text[d->pos] == '\f' || d->text[d->pos] == '\v'))
		d->pos++;
}

/* Reads an identifier; returns its length (0 if none). */
static size_t dl_ident(struct pp_line *d, const char **name, int *line, int *col)
{
	dl_space(d);
	size_t s = d->pos;
	*line = d->line[s < d->end ? s : d->end];
	*col = d->col[s < d->end ? s : d->end];
	if (s >= d->end || !is_ident_start((unsigned char)d->text[s]))
		return 0;
	while (d->pos < d->end && is_ident_char((unsigned char)d->text[d->pos]))
		d->pos++;
	*name = d->text + s;
	return d->pos - s;
}

static bool dl_at_end(struct pp_line *d)
{
	dl_space(d);
	return d->pos >= d->end;
}

static bool region_active(const struct pp *pp)
{
	return pp->nconds == 0 || pp->conds[pp->nconds - 1].active;
}

static bool name_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

static void dir_define(struct pp *pp, struct pp_line *d)
{
	const char *name;
	int l, c;
	size_t n = dl_ident(d, &name, &l, &c);
	if (!n) {
		pp_error(pp, l, c, "macro name expected after #define%s", "");
		return;
	}
	char *nm = arena_strndup(pp->fe->arena, name, n);
	if (!nm)
		return;
	if (n >= 3 && memcmp(name, "GL_", 3) == 0) {
		pp_error(pp, l, c, "macro names beginning with 'GL_' are reserved: '%s'", nm);
		return;
	}
	const char *params[64];
	int nparams = -1;
	if (d->pos < d->end && d->text[d->pos] == '(') {
		d->pos++;
		nparams = 0;
		for (;;) {
			const char *p;
			int pl, pc;
			size_t pn = dl_ident(d, &p, &pl, &pc);
			dl_space(d);
			if (pn) {
				if (nparams == 64) {
					pp_error(pp, pl, pc, "too many macro parameters%s", "");
					return;
				}
				params[nparams++] = arena_strndup(pp->fe->arena, p, pn);
				dl_space(d);
			}
			if (d->pos < d->end && d->text[d->pos] == ')' && (pn || nparams == 0)) {
				d->pos++;
				break;
			}
			if (d->pos < d->end && d->text[d->pos] == ',' && pn) {
				d->pos++;
				continue;
			}
			pp_error(pp, pl, pc, "invalid parameter list in definition of macro '%s'", nm);
			return;
		}
	}
	dl_space(d);
	size_t bs = d->pos, be = d->end;
	while (be > bs && isspace((unsigned char)d->text[be - 1]))
		be--;
	char *body = arena_strndup(pp->fe->arena, d->text + bs, be - bs);
	if (!body)
		return;
	if (strchr(body, '#')) {
		pp_error(pp, l, c, "'#' and '##' are not allowed in macros (GLSL): '%s'", nm);
		return;
	}
	struct pp_macro *old = macro_find(pp, name, n);
	if (old) {
		if (old->builtin) {
			pp_error(pp, l, c, "cannot redefine built-in macro '%s'", nm);
			return;
		}
		if (old->nparams != nparams || strcmp(old->body, body) != 0) {
			pp_error(pp, l, c, "macro '%s' redefined differently", nm);
			return;
		}
		return;
	}
	struct pp_macro *m = macro_add(pp, name, n, body);
	if (m && nparams >= 0) {
		m->nparams = nparams;
		m->params = arena_alloc(pp->fe->arena, sizeof(char *) * (size_t)(nparams + 1));
		if (m->params)
			memcpy(m->params, params, sizeof(char *) * (size_t)nparams);
		else
			m->nparams = -1;
	}
}

static void dir_undef(struct pp *pp, struct pp_line *d)
{
	const char *name;
	int l, c;
	size_t n = dl_ident(d, &name, &l, &c);
	if (!n) {
		pp_error(pp, l, c, "macro name expected after #undef%s", "");
		return;
	}
	struct pp_macro *m = macro_find(pp, name, n);
	if ((m && m->builtin) || name_is(name, n, "__LINE__") || name_is(name, n, "__FILE__") ||
	    name_is(name, n, "__VERSION__")) {
		pp_error(pp, l, c, "cannot undefine built-in macro '%s'",
			 arena_strndup(pp->fe->arena, name, n));
		return;
	}
	macro_remove(pp, name, n);
}

static struct pp_cond *cond_push(struct pp *pp, int line, int col)
{
	if (pp->nconds == pp->capconds) {
		int ncap = pp->capconds ? pp->capconds * 2 : 16;
		struct pp_cond *t = arena_realloc(pp->fe->arena, pp->conds,
						  sizeof *t * (size_t)pp->capconds,
						  sizeof *t * (size_t)ncap);
		if (!t)
			return NULL;
		pp->conds = t;
		pp->capconds = ncap;
	}
	struct pp_cond *cd = &pp->conds[pp->nconds];
	memset(cd, 0, sizeof *cd);
	cd->parent_active = region_active(pp);
	cd->line = line;
	cd->col = col;
	pp->nconds++;
	return cd;
}

/* Evaluates the rest of an #if/#elif line: `defined` first, then macros. */
static bool eval_condition(struct pp *pp, struct pp_line *d)
{
	struct pp_text tmp;
	pp_text_init(&tmp, pp->fe->arena, true);
	while (!dl_at_end(d)) {
		size_t s = d->pos;
		const char *name;
		int l, c;
		size_t n = dl_ident(d, &name, &l, &c);
		if (n && name_is(name, n, "defined")) {
			dl_space(d);
			bool paren = d->pos < d->end && d->text[d->pos] == '(';
			if (paren)
				d->pos++;
			const char *mn;
			int ml, mc;
			size_t mlen = dl_ident(d, &mn, &ml, &mc);
			dl_space(d);
			if (!mlen || (paren && (d->pos >= d->end || d->text[d->pos++] != ')'))) {
				pp_error(pp, ml, mc, "macro name expected after 'defined'%s", "");
				return false;
			}
			bool def = macro_find(pp, mn, mlen) || name_is(mn, mlen, "__LINE__") ||
				   name_is(mn, mlen, "__FILE__") || name_is(mn, mlen, "__VERSION__");
			pp_text_append(&tmp, def ? " 1 " : " 0 ", 3, l, c);
			continue;
		}
		if (!n)
			d->pos++;
		for (size_t i = s; i < d->pos; i++)
			pp_text_putc(&tmp, d->text[i], d->line[i], d->col[i]);
	}
	struct pp_text ex;
	pp_text_init(&ex, pp->fe->arena, true);
	struct pp_span sp = { tmp.s.text, tmp.s.len, tmp.line, tmp.col, d->hline, d->hcol };
	int delta = pp->line_delta;
	pp->line_delta = 0;
	expand(pp, &ex, &sp, NULL, 0);
	pp->line_delta = delta;
	if (tmp.s.failed || ex.s.failed)
		return false;
	long long v;
	const char *why = pp_eval(ex.s.text, &v);
	if (why) {
		pp_error(pp, d->hline, d->hcol, "%s", why);
		return false;
	}
	return v != 0;
}

static void dir_if(struct pp *pp, struct pp_line *d, int kind /* 0 if, 1 ifdef, 2 ifndef */)
{
	bool outer = region_active(pp);
	bool v = false;
	if (outer) {
		if (kind == 0) {
			v = eval_condition(pp, d);
		} else {
			const char *name;
			int l, c;
			size_t n = dl_ident(d, &name, &l, &c);
			if (!n)
				pp_error(pp, l, c, "macro name expected%s", "");
			else
				v = (macro_find(pp, name, n) != NULL ||
				     name_is(name, n, "__LINE__") || name_is(name, n, "__FILE__") ||
				     name_is(name, n, "__VERSION__")) == (kind == 1);
		}
	}
	struct pp_cond *cd = cond_push(pp, d->hline, d->hcol);
	if (!cd)
		return;
	cd->active = outer && v;
	cd->taken = cd->active;
}

static void dir_else(struct pp *pp, struct pp_line *d, bool is_elif)
{
	if (!pp->nconds) {
		pp_error(pp, d->hline, d->hcol, "%s without #if", is_elif ? "#elif" : "#else");
		return;
	}
	struct pp_cond *cd = &pp->conds[pp->nconds - 1];
	if (cd->seen_else) {
		pp_error(pp, d->hline, d->hcol, "%s after #else", is_elif ? "#elif" : "#else");
		return;
	}
	if (!is_elif) {
		cd->seen_else = true;
		cd->active = cd->parent_active && !cd->taken;
	} else if (cd->parent_active && !cd->taken) {
		cd->active = eval_condition(pp, d);
	} else {
		cd->active = false;
	}
	cd->taken |= cd->active;
}

/* Each extension of the dialect defines its name as 1 (GLSL 1.10 §3.3);
 * #version changes the dialect, and with it the set. */
static void define_extension_macros(struct pp *pp)
{
	for (int e = 0; e < FE_EXT_COUNT; e++) {
		const char *nm = fe_ext_name((enum fe_ext)e);
		size_t n = strlen(nm);
		macro_remove(pp, nm, n);
		if (!fe_ext_in_dialect(pp->fe, (enum fe_ext)e))
			continue;
		struct pp_macro *m = macro_add(pp, nm, n, "1");
		if (m)
			m->builtin = true;
	}
}

static void dir_version(struct pp *pp, struct pp_line *d)
{
	dl_space(d);
	int l = d->line[d->pos], c = d->col[d->pos];
	if (pp->seen_content) {
		pp_error(pp, d->hline, d->hcol, "#version must come before anything else%s", "");
		return;
	}
	char *end;
	long v = strtol(d->text + d->pos, &end, 10);
	if (end == d->text + d->pos) {
		pp_error(pp, l, c, "version number expected after #version%s", "");
		return;
	}
	d->pos = (size_t)(end - d->text);
	if (v != 100 && v != 110 && v != 120) {
		diag_error(pp->fe->diag, fe_loc(pp->fe, l, c),
			   "GLSL version %ld is not supported (supported: 100, 110, 120)", v);
		return;
	}
	const char *prof;
	int pl, pc;
	size_t pn = dl_ident(d, &prof, &pl, &pc);
	if (pn && !(v == 100 && name_is(prof, pn, "es"))) {
		pp_error(pp, pl, pc, "unexpected profile '%s' after #version",
			 arena_strndup(pp->fe->arena, prof, pn));
		return;
	}
	pp->fe->version = (int)v;
	pp->fe->es = v == 100;
	fe_ext_reset(pp->fe);
	define_extension_macros(pp);
	if (v == 100) {
		struct pp_macro *m = macro_add(pp, "GL_ES", 5, "1");
		if (m)
			m->builtin = true;
		if (pp->fe->stage == GLSL_STAGE_FRAGMENT) {
			m = macro_add(pp, "GL_FRAGMENT_PRECISION_HIGH", 26, "1");
			if (m)
				m->builtin = true;
		}
	}
}

static void dir_extension(struct pp *pp, struct pp_line *d)
{
	const char *name, *beh;
	int l, c, bl, bc;
	size_t n = dl_ident(d, &name, &l, &c);
	dl_space(d);
	if (!n || d->pos >= d->end || d->text[d->pos] != ':') {
		pp_error(pp, l, c, "expected '#extension name : behavior'%s", "");
		return;
	}
	d->pos++;
	size_t bn = dl_ident(d, &beh, &bl, &bc);
	if (!bn || !(name_is(beh, bn, "require") || name_is(beh, bn, "enable") ||
		     name_is(beh, bn, "warn") || name_is(beh, bn, "disable"))) {
		pp_error(pp, bl, bc, "extension behavior must be require, enable, warn or disable%s", "");
		return;
	}
	char *nm = arena_strndup(pp->fe->arena, name, n);
	if (!nm)
		return;
	if (!dl_at_end(d)) {
		pp_error(pp, d->line[d->pos], d->col[d->pos], "unexpected text after #extension%s", "");
		return;
	}
	bool on = name_is(beh, bn, "require") || name_is(beh, bn, "enable");
	bool warn = name_is(beh, bn, "warn");
	if (name_is(name, n, "all")) {
		/* all : warn  enables every extension, warning on each use;
		 * all : disable  goes back to the core language */
		if (on) {
			pp_error(pp, bl, bc, "'all' only takes warn or disable%s", "");
			return;
		}
		unsigned every = 0;
		for (int e = 0; e < FE_EXT_COUNT; e++)
			if (fe_ext_in_dialect(pp->fe, (enum fe_ext)e))
				every |= 1u << e;
		pp->fe->ext_on = warn ? every : 0;
		pp->fe->ext_warn = warn ? every : 0;
		return;
	}
	int e = fe_ext_lookup(pp->fe, name, n);
	if (e >= 0) {
		unsigned bit = 1u << e;
		pp->fe->ext_on = on || warn ? pp->fe->ext_on | bit : pp->fe->ext_on & ~bit;
		pp->fe->ext_warn = warn ? pp->fe->ext_warn | bit : pp->fe->ext_warn & ~bit;
		return;
	}
	if (name_is(beh, bn, "require"))
		pp_error(pp, l, c, "extension '%s' is not supported", nm);
	else if (!name_is(beh, bn, "disable"))
		diag_warning(pp->fe->diag, fe_loc(pp->fe, l, c), "extension '%s' is not supported",
			     nm);
}

static void dir_line(struct pp *pp, struct pp_line *d)
{
	dl_space(d);
	char *end;
	long v = strtol(d->text + d->pos, &end, 10);
	if (end == d->text + d->pos || v < 0 || v > 1000000000) {
		pp_error(pp, d->hline, d->hcol, "line number expected after #line%s", "");
		return;
	}
	/* the line after the directive gets number v */
	pp->line_delta = (int)v - (d->hline + 1);
}

static void directive(struct pp *pp, struct pp_line *d)
{
	const char *name = "";
	int l, c;
	size_t n = dl_ident(d, &name, &l, &c);
	bool active = region_active(pp);
	bool was_content = pp->seen_content;
	if (!(n && name_is(name, n, "version")))
		pp->seen_content = true;
	if (name_is(name, n, "if"))
		dir_if(pp, d, 0);
	else if (name_is(name, n, "ifdef"))
		dir_if(pp, d, 1);
	else if (name_is(name, n, "ifndef"))
		dir_if(pp, d, 2);
	else if (name_is(name, n, "elif"))
		dir_else(pp, d, true);
	else if (name_is(name, n, "else"))
		dir_else(pp, d, false);
	else if (name_is(name, n, "endif")) {
		if (!pp->nconds)
			pp_error(pp, d->hline, d->hcol, "#endif without #if%s", "");
		else
			pp->nconds--;
	} else if (!active) {
		return; /* anything else in a skipped region is ignored */
	} else if (!n) {
		if (!dl_at_end(d))
			pp_error(pp, l, c, "invalid preprocessor directive%s", "");
	} else if (name_is(name, n, "define")) {
		dir_define(pp, d);
	} else if (name_is(name, n, "undef")) {
		dir_undef(pp, d);
	} else if (name_is(name, n, "version")) {
		pp->seen_content = was_content;
		dir_version(pp, d);
		pp->seen_content = true;
	} else if (name_is(name, n, "extension")) {
		dir_extension(pp, d);
	} else if (name_is(name, n, "pragma")) {
		/* optimize, debug, STDGL and unknown pragmas are ignored */
	} else if (name_is(name, n, "line")) {
		dir_line(pp, d);
	} else if (name_is(name, n, "error")) {
		dl_space(d);
		pp_error(pp, d->hline, d->hcol, "#error %s",
			 arena_strndup(pp->fe->arena, d->text + d->pos, d->end - d->pos));
	} else {
		pp_error(pp, l, c, "unknown preprocessor directive '#%s'",
			 arena_strndup(pp->fe->arena, name, n));
	}
}

static void add_command_line(struct pp *pp, const struct glsl_options *opts)
{
	for (int i = 0; opts && i < opts->ndefines; i++) {
		const struct glsl_define *df = &opts->defines[i];
		if (!df->name || !is_ident_start((unsigned char)df->name[0]))
			continue;
		size_t n = strlen(df->name);
		macro_remove(pp, df->name, n);
		if (!df->undef)
			macro_add(pp, df->name, n, df->value ? df->value : "1");
	}
}

/* Expands the active text lines clean[from..to). */
static void flush_text(struct pp *pp, size_t from, size_t to)
{
	if (from >= to)
		return;
	struct pp_span s = { pp->clean.s.text + from, to - from, pp->clean.line + from,
			     pp->clean.col + from, 0, 0 };
	expand(pp, &pp->out, &s, NULL, 0);
}

bool pp_run(struct fe_ctx *fe, const char *source, const struct glsl_options *opts,
	    struct pp_output *out)
{
	struct pp pp;
	memset(&pp, 0, sizeof pp);
	pp.fe = fe;
	fe->version = 110;
	fe->es = false;
	fe_ext_reset(fe);
	int errors0 = fe->diag->errors;
	pp_text_init(&pp.clean, fe->arena, true);
	pp_text_init(&pp.out, fe->arena, true);
	if (!source_fits(&pp, source ? source : ""))
		return false;
	strip_comments(&pp, source ? source : "");
	define_extension_macros(&pp);
	add_command_line(&pp, opts);
	size_t run = 0; /* start of the pending run of text lines */
	const char *t = pp.clean.s.text;
	size_t len = pp.clean.s.len;
	for (size_t ls = 0; ls < len && !pp.clean.s.failed;) {
		size_t le = ls;
		while (le < len && t[le] != '\n')
			le++;
		size_t p = ls;
		while (p < le && (t[p] == ' ' || t[p] == '\t' || t[p] == '\f' || t[p] == '\v'))
			p++;
		if (p < le && t[p] == '#') {
			flush_text(&pp, run, ls);
			struct pp_line d = { t, p + 1, le, pp.clean.line, pp.clean.col,
					     pp.clean.line[p], pp.clean.col[p] };
			directive(&pp, &d);
			pp_text_putc(&pp.out, '\n', pp.clean.line[le] + pp.line_delta, pp.clean.col[le]);
			run = le + 1;
		} else if (!region_active(&pp)) {
			flush_text(&pp, run, ls);
			pp_text_putc(&pp.out, '\n', pp.clean.line[le] + pp.line_delta, pp.clean.col[le]);
			run = le + 1;
		} else if (p < le) {
			pp.seen_content = true;
		}
		ls = le + 1;
	}
	flush_text(&pp, run, len);
	for (int i = pp.nconds - 1; i >= 0; i--)
		pp_error(&pp, pp.conds[i].line, pp.conds[i].col, "unterminated #if%s", "");
	if (pp.clean.s.failed || pp.out.s.failed || arena_failed(fe->arena)) {
		diag_error(fe->diag, fe_loc(fe, 0, 0), "out of memory");
		return false;
	}
	/* the final newline added by strip_comments is not the user's */
	if (pp.out.s.len && pp.out.s.text[pp.out.s.len - 1] == '\n')
		pp.out.s.text[--pp.out.s.len] = 0;
	out->text = pp.out.s.text;
	out->len = pp.out.s.len;
	out->line = pp.out.line;
	out->col = pp.out.col;
	return fe->diag->errors == errors0;
}
