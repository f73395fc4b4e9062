/* The little the llvmpipe oracle must know about a fragment shader before
 * GL sees it: its #version, its user varyings, its samplers (in
 * declaration order, the order uscc gives them texture units) and which
 * compatibility built-in varyings it reads.  A token scan, not a parser:
 * declarations hidden behind macros are not seen. */
#ifndef USCC_ORACLE_SCAN_H
#define USCC_ORACLE_SCAN_H

#include <stdbool.h>
#include <stddef.h>

enum { SCAN_MAX_DECLS = 32, SCAN_NAME_LEN = 64 };

struct scan_decl {
	char type[SCAN_NAME_LEN];  /* "vec2", "sampler2D", ... */
	char name[SCAN_NAME_LEN];
	int length;                /* array length; 0 when not an array */
};

struct frag_scan {
	int version;               /* 110 when the source has no #version */
	bool es;                   /* #version 100 (GLSL ES 1.00) */
	struct scan_decl varyings[SCAN_MAX_DECLS]; int nvaryings;
	struct scan_decl samplers[SCAN_MAX_DECLS]; int nsamplers;
	bool uses_texcoord, uses_color, uses_secondary, uses_fog, uses_fragdata;
	bool uses_derivatives;     /* dFdx, dFdy or fwidth */
	int texcoord_len;          /* gl_TexCoord redeclared with this size; 0: not */
};

/* Scans `src`; false with a message in `why` when a declaration is beyond
 * the scanner (too many, a name too long). */
bool scan_fragment(const char *src, struct frag_scan *out, char *why, size_t why_len);

/* The vertex attribute feeding varying `name`: an index into the given
 * varyings (by their --varying names), or -1 for the default (u, v, 0, 1). */
typedef int (*scan_attr_fn)(const char *name, void *ud);

/* Writes a pass-through vertex shader for the scanned fragment shader into
 * buf: `a_pos` (vec2, clip xy), `a_def` (the default varying), `a_v0`..
 * `a_v<n-1>` (given varyings) feeding every user varying and, on desktop
 * GL, gl_TexCoord[0..7], gl_FrontColor, gl_FrontSecondaryColor and
 * gl_FogFragCoord.  False when buf is too small. */
bool scan_vertex_shader(const struct frag_scan *fs, int nattr, scan_attr_fn attr, void *ud,
			char *buf, size_t len);

/* The R500's derivatives are coarse: dFdx is the difference along the
 * quad's lower row, dFdy along its left column, shared by all four pixels
 * (ISA.md §12); llvmpipe's are per row and per column.  Returns a malloc'd
 * copy of `src` whose dFdx, dFdy and fwidth are redefined (by macros over
 * helper functions inserted after the leading #version/#extension lines)
 * to give the R500's values, or NULL when out of memory. */
char *scan_coarse_derivatives(const char *src, bool es);

#endif
