/* Diagnostics: collection and gcc-style rendering. */
#include "diag.h"

#include <stdio.h>
#include <string.h>
#include "arena_strbuf.h"

void diag_init(struct diag_sink *sink, struct arena *arena)
{
	memset(sink, 0, sizeof *sink);
	sink->arena = arena;
}

void diag_add_source(struct diag_sink *sink, const char *name, const char *text)
{
	struct diag_source *s = arena_alloc(sink->arena, sizeof *s);
	if (!s)
		return;
	s->name = name;
	s->text = text;
	s->next = sink->sources;
	sink->sources = s;
	if (!sink->input_name)
		sink->input_name = name;
}

void diag_vreport(struct diag_sink *sink, enum diag_severity sev, struct src_loc loc,
		  const char *fmt, va_list ap)
{
	if (sev == DIAG_ERROR)
		sink->errors++;
	else if (sev == DIAG_WARNING)
		sink->warnings++;
	if (sev == DIAG_ERROR && sink->max_errors && sink->errors > sink->max_errors)
		return;
	struct diag *d = arena_alloc(sink->arena, sizeof *d);
	if (!d)
		return;
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *msg = arena_alloc(sink->arena, n > 0 ? (size_t)n + 1 : 1);
	if (!msg)
		return;
	vsnprintf(msg, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
	d->severity = sev;
	d->loc = loc;
	d->message = msg;
	if (sink->last)
		sink->last->next = d;
	else
		sink->first = d;
	sink->last = d;
}

void diag_rewind(struct diag_sink *sink, const struct diag_sink *mark)
{
	sink->first = mark->first;
	sink->last = mark->last;
	if (sink->last)
		sink->last->next = NULL;
	sink->errors = mark->errors;
	sink->warnings = mark->warnings;
}

void diag_report(struct diag_sink *sink, enum diag_severity sev, struct src_loc loc,
		 const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(sink, sev, loc, fmt, ap);
	va_end(ap);
}

bool diag_failed(const struct diag_sink *sink)
{
	return sink->errors > 0 || (sink->werror && sink->warnings > 0);
}

/* Finds line `line` (1-based) of the registered text for `file`. */
static const char *find_line(const struct diag_sink *sink, const char *file, int line,
			     size_t *len)
{
	for (const struct diag_source *s = sink->sources; s; s = s->next) {
		if (!s->name || strcmp(s->name, file) != 0 || !s->text)
			continue;
		const char *p = s->text;
		for (int l = 1; l < line && p; l++) {
			p = strchr(p, '\n');
			if (p)
				p++;
		}
		if (!p || !*p)
			return NULL;
		*len = strcspn(p, "\r\n");
		return p;
	}
	return NULL;
}

char *diag_render(const struct diag_sink *sink)
{
	static const char *const names[] = { "note", "warning", "error" };
	struct strbuf sb;
	strbuf_init(&sb, sink->arena);
	for (const struct diag *d = sink->first; d; d = d->next) {
		const char *sev = names[d->severity];
		if (d->severity == DIAG_WARNING && sink->werror)
			sev = "error";
		const char *file = d->loc.file ? d->loc.file : sink->input_name;
		if (file) {
			strbuf_puts(&sb, file);
			if (d->loc.line > 0) {
				strbuf_printf(&sb, ":%d", d->loc.line);
				if (d->loc.col > 0)
					strbuf_printf(&sb, ":%d", d->loc.col);
			}
			strbuf_puts(&sb, ": ");
		}
		strbuf_puts(&sb, sev);
		strbuf_puts(&sb, ": ");
		strbuf_puts(&sb, d->message);
		strbuf_puts(&sb, "\n");
		size_t len = 0;
		const char *line = d->loc.file && d->loc.line > 0
					   ? find_line(sink, d->loc.file, d->loc.line, &len)
					   : NULL;
		if (line) {
			strbuf_add(&sb, " ", 1);
			strbuf_add(&sb, line, len);
			strbuf_puts(&sb, "\n ");
			int col = d->loc.col > 0 ? d->loc.col : 1;
			for (int i = 1; i < col && (size_t)(i - 1) < len; i++)
				strbuf_add(&sb, line[i - 1] == '\t' ? "\t" : " ", 1);
			strbuf_puts(&sb, "^\n");
		}
	}
	return strbuf_text(&sb);
}
