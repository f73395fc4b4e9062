/* GLSL's preprocessor.  Output keeps the source's line structure (each
 * directive becomes an empty line, comments become spaces) and maps every
 * output byte back to the line and column it came from; text produced by
 * a macro carries the location of the macro's name. */
#ifndef USCC_PP_H
#define USCC_PP_H

#include <stddef.h>
#include "fe.h"

struct pp_output {
	char *text;
	size_t len;
	int *line, *col;   /* per byte of text, len + 1 entries */
};

/* Fills `out` and sets fe->version/es; returns false on errors (reported). */
bool pp_run(struct fe_ctx *fe, const char *source, const struct glsl_options *opts,
	    struct pp_output *out);

/* Evaluates a macro-expanded #if expression (C's integer grammar, 32-bit
 * like GLSL's ints); NULL and *value, or the reason it is invalid. */
const char *pp_eval(const char *text, long long *value);

#endif
