/* Shadow comparison and depth modes (shadow.h). */
#include "shadow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const compare_names[TEX_COMPARE_COUNT] = {
	"lequal", "gequal", "less", "greater", "equal", "notequal", "always", "never",
};
static const char *const mode_names[TEX_DEPTH_COUNT] = { "luminance", "intensity", "alpha", "red" };

const char *tex_compare_name(int compare)
{
	return compare >= 0 && compare < TEX_COMPARE_COUNT ? compare_names[compare] : NULL;
}

const char *tex_depth_mode_name(int mode)
{
	return mode >= 0 && mode < TEX_DEPTH_COUNT ? mode_names[mode] : NULL;
}

static int by_name(const char *const *names, int count, const char *s, unsigned long n)
{
	for (int i = 0; i < count; i++)
		if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
			return i;
	return -1;
}

int tex_compare_by_name(const char *s, unsigned long n)
{
	return by_name(compare_names, TEX_COMPARE_COUNT, s, n);
}

int tex_depth_mode_by_name(const char *s, unsigned long n)
{
	return by_name(mode_names, TEX_DEPTH_COUNT, s, n);
}

bool tex_shadow_parse(const char *spec, int *unit, int *compare, int *mode)
{
	char *end;
	errno = 0;
	long u = strtol(spec, &end, 10);
	if (errno || end == spec || *end != '=' || u < 0 || u > 15)
		return false;
	const char *cmp = end + 1, *comma = strchr(cmp, ',');
	*unit = (int)u;
	*compare = tex_compare_by_name(cmp, comma ? (unsigned long)(comma - cmp) : strlen(cmp));
	*mode = comma ? tex_depth_mode_by_name(comma + 1, strlen(comma + 1)) : TEX_DEPTH_LUMINANCE;
	return *compare >= 0 && *mode >= 0;
}

float tex_shadow_pass(int compare, float ref, float depth)
{
	ref = ref > 0.0f ? (ref < 1.0f ? ref : 1.0f) : 0.0f; /* NaN to 0, as the R500's clamp */
	bool pass;
	switch (compare) {
	case TEX_COMPARE_GEQUAL: pass = ref >= depth; break;
	case TEX_COMPARE_LESS: pass = ref < depth; break;
	case TEX_COMPARE_GREATER: pass = ref > depth; break;
	case TEX_COMPARE_EQUAL: pass = ref == depth; break;
	case TEX_COMPARE_NOTEQUAL: pass = ref != depth; break;
	case TEX_COMPARE_ALWAYS: pass = true; break;
	case TEX_COMPARE_NEVER: pass = false; break;
	default: pass = ref <= depth; break;
	}
	return pass ? 1.0f : 0.0f;
}

void tex_shadow_result(int mode, float v, float out[4])
{
	switch (mode) {
	case TEX_DEPTH_INTENSITY: out[0] = out[1] = out[2] = out[3] = v; break;
	case TEX_DEPTH_ALPHA: out[0] = out[1] = out[2] = 0.0f; out[3] = v; break;
	case TEX_DEPTH_RED: out[0] = v; out[1] = out[2] = 0.0f; out[3] = 1.0f; break;
	default: out[0] = out[1] = out[2] = v; out[3] = 1.0f; break;
	}
}
