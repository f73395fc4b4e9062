/* Resource limits on one compile (compile_limits.def): each is one named figure,
 * and going over it is an error at the place it happened that names the
 * limit and the figure reached, never a crash, a hang or a memory blow-up.
 * Used by the frontend (source, preprocessor, parser, checker, lowering)
 * and the IR (the growth budget of unrolling). */
#ifndef USCC_COMPILE_LIMITS_H
#define USCC_COMPILE_LIMITS_H

#include <stdbool.h>
#include "diag.h"

enum limit_kind {
#define LIMIT(e, name, def, what) LIMIT_##e,
#include "compile_limits.def"
#undef LIMIT
	LIMIT_COUNT
};

struct limit_info {
	const char *name;   /* as the CLI's --limit NAME=N and the README give it */
	long def;           /* the built-in value, also the highest allowed */
	const char *what;   /* the unit counted, for the message */
};
extern const struct limit_info limit_infos[LIMIT_COUNT];

struct limits {
	long v[LIMIT_COUNT];
};

/* Every limit at its default. */
void limits_default(struct limits *l);
/* The limit called `name` (its length n), or -1. */
int limits_find(const char *name, size_t n);

/* "FILE:LINE:COL: error: <what>: <figure>, over the limit of <value>
 * (limit '<name>')".  Returns false, for `return limit_error(...)`. */
bool limit_error(struct diag_sink *diag, struct src_loc loc, const struct limits *l,
		 enum limit_kind k, long figure);

#endif
