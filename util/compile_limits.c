/* The table of limits.def and the one message every limit gives. */
#include "compile_limits.h"

#include <string.h>

const struct limit_info limit_infos[LIMIT_COUNT] = {
#define LIMIT(e, name, def, what) [LIMIT_##e] = { name, def, what },
#include "compile_limits.def"
#undef LIMIT
};

void limits_default(struct limits *l)
{
	for (int k = 0; k < LIMIT_COUNT; k++)
		l->v[k] = limit_infos[k].def;
}

int limits_find(const char *name, size_t n)
{
	for (int k = 0; k < LIMIT_COUNT; k++)
		if (strlen(limit_infos[k].name) == n && memcmp(limit_infos[k].name, name, n) == 0)
			return k;
	return -1;
}

bool limit_error(struct diag_sink *diag, struct src_loc loc, const struct limits *l,
		 enum limit_kind k, long figure)
{
	diag_error(diag, loc, "too many %s: %ld, over the limit of %ld (limit '%s')",
		   limit_infos[k].what, figure, l->v[k], limit_infos[k].name);
	return false;
}
