/* Coarse (R500) derivatives over llvmpipe's fine ones (see oracle_scan.h).
 *
 * In a quad, llvmpipe's dFdx(e) at an upper-row pixel is the upper row's
 * difference g; the lower row's is g - dFdy(g) (g is constant along a row
 * of the quad, so its fine dFdy is the same in both columns).  dFdy is the
 * mirror image with columns.  The selects come after both derivatives so
 * that no derivative sits in non-uniform control flow. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oracle_scan.h"

static const char helpers_head[] =
	"float uscc_odd_row() { return mod(floor(gl_FragCoord.y), 2.0); }\n"
	"float uscc_odd_col() { return mod(floor(gl_FragCoord.x), 2.0); }\n";

/* One overload per float type; @ stands for the type. */
static const char helpers_typed[] =
	"@ uscc_dFdx(@ e) { @ g = dFdx(e); @ d = dFdy(g);"
	" return uscc_odd_row() > 0.5 ? g - d : g; }\n"
	"@ uscc_dFdy(@ e) { @ g = dFdy(e); @ d = dFdx(g);"
	" return uscc_odd_col() > 0.5 ? g - d : g; }\n"
	"@ uscc_fwidth(@ e) { return abs(uscc_dFdx(e)) + abs(uscc_dFdy(e)); }\n";

/* Appends helpers_typed for `type` at out + n; returns the new length. */
static size_t append_typed(char *out, size_t n, size_t cap, const char *type)
{
	size_t tl = strlen(type);
	for (const char *p = helpers_typed; *p && n + tl + 1 < cap; p++) {
		if (*p == '@') {
			memcpy(out + n, type, tl);
			n += tl;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = 0;
	return n;
}

static const char helpers_tail[] =
	"#define dFdx uscc_dFdx\n#define dFdy uscc_dFdy\n#define fwidth uscc_fwidth\n";

/* Offset just past the leading lines that must stay first: blank lines,
 * comments and #version / #extension / #pragma directives; *line is the
 * number of lines skipped. */
static size_t leading_directives(const char *src, int *line)
{
	size_t at = 0, keep = 0;
	int n = 0;
	*line = 0;
	while (src[at]) {
		const char *eol = strchr(src + at, '\n');
		size_t len = eol ? (size_t)(eol - (src + at)) : strlen(src + at);
		const char *p = src + at;
		while (*p == ' ' || *p == '\t')
			p++;
		bool directive = *p == '#' && (strstr(p, "version") || strstr(p, "extension") ||
					       strstr(p, "pragma"));
		bool blank = (size_t)(p - (src + at)) == len || !strncmp(p, "//", 2);
		if (!directive && !blank)
			break;
		at += len + (eol ? 1 : 0);
		n++;
		if (directive) {
			keep = at;
			*line = n;
		}
	}
	return keep;
}

char *scan_coarse_derivatives(const char *src, bool es)
{
	static const char *const types[] = { "float", "vec2", "vec3", "vec4" };
	int line;
	size_t head = leading_directives(src, &line);
	size_t cap = strlen(src) + 8192; /* the helpers take about 1.5 KB */
	char *out = malloc(cap);
	if (!out)
		return NULL;
	size_t n = 0;
	memcpy(out, src, head);
	n += head;
	if (head > 0 && out[n - 1] != '\n')
		out[n++] = '\n';
	n += (size_t)snprintf(out + n, cap - n, "%s%s",
			      es ? "#extension GL_OES_standard_derivatives : enable\n"
				   "precision highp float;\n" : "", helpers_head);
	for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
		n = append_typed(out, n, cap, types[t]);
	/* diagnostics keep the user's line numbers: Mesa numbers the line
	 * after "#line N" N + 1 in GLSL 1.10/1.20, N in GLSL ES */
	n += (size_t)snprintf(out + n, cap - n, "%s#line %d\n", helpers_tail,
			      es ? line + 1 : line);
	snprintf(out + n, cap - n, "%s", src + head);
	return out;
}
