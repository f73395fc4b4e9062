/* The one diagnostics sink every layer reports through.
 * Diagnostics are collected (never printed from inside the library) and
 * rendered gcc-style: "FILE:LINE:COL: error: MESSAGE", the source line and
 * a caret under the column. */
#ifndef USCC_DIAG_H
#define USCC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include "arena.h"

struct src_loc {
	const char *file; /* name as the user knows it; NULL = no location */
	int line;         /* 1-based; 0 = whole file */
	int col;          /* 1-based; 0 = whole line */
};

enum diag_severity { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR };

struct diag {
	enum diag_severity severity;
	struct src_loc loc;
	const char *message;
	struct diag *next;
};

struct diag_source {
	const char *name;
	const char *text;
	struct diag_source *next;
};

struct diag_sink {
	struct arena *arena;
	struct diag *first, *last;
	struct diag_source *sources; /* for printing source lines */
	const char *input_name;      /* the first source registered: named by
					diagnostics of the whole program (no location) */
	int errors, warnings;
	bool werror;                 /* warnings count as errors */
	int max_errors;              /* 0 = unlimited */
};

void diag_init(struct diag_sink *sink, struct arena *arena);
/* Takes back what was reported since `mark`, a copy of the sink made
 * then (a compile tried again another way: its first errors go). */
void diag_rewind(struct diag_sink *sink, const struct diag_sink *mark);
/* Register the text of a file so diagnostics can quote its lines. */
void diag_add_source(struct diag_sink *sink, const char *name, const char *text);

void diag_report(struct diag_sink *sink, enum diag_severity sev, struct src_loc loc,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_vreport(struct diag_sink *sink, enum diag_severity sev, struct src_loc loc,
		  const char *fmt, va_list ap);
#define diag_error(sink, loc, ...) diag_report((sink), DIAG_ERROR, (loc), __VA_ARGS__)
#define diag_warning(sink, loc, ...) diag_report((sink), DIAG_WARNING, (loc), __VA_ARGS__)
#define diag_note(sink, loc, ...) diag_report((sink), DIAG_NOTE, (loc), __VA_ARGS__)

/* True when the run has failed (errors, or warnings under -Werror). */
bool diag_failed(const struct diag_sink *sink);

/* Render every diagnostic as text (with source line and caret); returns an
 * arena string, "" when there is nothing. */
char *diag_render(const struct diag_sink *sink);

#endif
