/* The extension table (extensions.def) and the per-compile switches. */
#include "extensions.h"

#include <string.h>

#include "fe.h"

static const struct {
	const char *name;
	unsigned dialects;
	bool on;
} ext_table[FE_EXT_COUNT] = {
#define EXT(e, n, d, on) [FE_EXT_##e] = { n, d, on },
#include "extensions.def"
#undef EXT
};

const char *fe_ext_name(enum fe_ext e)
{
	return (unsigned)e < FE_EXT_COUNT ? ext_table[e].name : "?";
}

bool fe_ext_in_dialect(const struct fe_ctx *fe, enum fe_ext e)
{
	return (unsigned)e < FE_EXT_COUNT && (ext_table[e].dialects & (fe->es ? FE_ES : FE_DESK));
}

void fe_ext_reset(struct fe_ctx *fe)
{
	fe->ext_on = fe->ext_warn = 0;
	for (int e = 0; e < FE_EXT_COUNT; e++)
		if (ext_table[e].on && fe_ext_in_dialect(fe, (enum fe_ext)e))
			fe->ext_on |= 1u << e;
}

int fe_ext_lookup(const struct fe_ctx *fe, const char *name, size_t n)
{
	for (int e = 0; e < FE_EXT_COUNT; e++)
		if (strlen(ext_table[e].name) == n && memcmp(ext_table[e].name, name, n) == 0)
			return fe_ext_in_dialect(fe, (enum fe_ext)e) ? e : -1;
	return -1;
}

bool fe_ext_on(const struct fe_ctx *fe, enum fe_ext e)
{
	return (unsigned)e < FE_EXT_COUNT && (fe->ext_on >> e & 1u);
}

bool fe_ext_warns(const struct fe_ctx *fe, enum fe_ext e)
{
	return (unsigned)e < FE_EXT_COUNT && (fe->ext_warn >> e & 1u);
}
