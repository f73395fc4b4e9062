/* The built-in GLSL types and the arena-made ones (arrays). */
#include "types.h"

#include <stdio.h>
#include <string.h>

#include "ir.h"

#define SCALAR(b, n, r) { .base = (b), .cols = 1, .rows = (r), .name = (n) }
#define MAT(c, r, n, v) { .base = GLSL_FLOAT, .cols = (c), .rows = (r), .name = (n), .v120 = (v) }
#define SAMPLER(n, t, s) { .base = GLSL_SAMPLER, .cols = 1, .rows = 1, .target = (t), .shadow = (s), .name = (n) }

const struct glsl_type glsl_type_void = { .base = GLSL_VOID, .name = "void" };
const struct glsl_type glsl_type_error = { .base = GLSL_ERROR, .cols = 1, .rows = 1, .name = "<error>" };
const struct glsl_type glsl_type_bool = SCALAR(GLSL_BOOL, "bool", 1);
const struct glsl_type glsl_type_int = SCALAR(GLSL_INT, "int", 1);
const struct glsl_type glsl_type_float = SCALAR(GLSL_FLOAT, "float", 1);

static const struct glsl_type vec_types[3][3] = {
	{ SCALAR(GLSL_BOOL, "bvec2", 2), SCALAR(GLSL_BOOL, "bvec3", 3), SCALAR(GLSL_BOOL, "bvec4", 4) },
	{ SCALAR(GLSL_INT, "ivec2", 2), SCALAR(GLSL_INT, "ivec3", 3), SCALAR(GLSL_INT, "ivec4", 4) },
	{ SCALAR(GLSL_FLOAT, "vec2", 2), SCALAR(GLSL_FLOAT, "vec3", 3), SCALAR(GLSL_FLOAT, "vec4", 4) },
};

/* [cols-2][rows-2] */
static const struct glsl_type mat_types[3][3] = {
	{ MAT(2, 2, "mat2", false), MAT(2, 3, "mat2x3", true), MAT(2, 4, "mat2x4", true) },
	{ MAT(3, 2, "mat3x2", true), MAT(3, 3, "mat3", false), MAT(3, 4, "mat3x4", true) },
	{ MAT(4, 2, "mat4x2", true), MAT(4, 3, "mat4x3", true), MAT(4, 4, "mat4", false) },
};

static const struct glsl_type sampler_types[] = {
	SAMPLER("sampler1D", IR_TARGET_1D, false),
	SAMPLER("sampler2D", IR_TARGET_2D, false),
	SAMPLER("sampler3D", IR_TARGET_3D, false),
	SAMPLER("samplerCube", IR_TARGET_CUBE, false),
	SAMPLER("sampler1DShadow", IR_TARGET_1D, true),
	SAMPLER("sampler2DShadow", IR_TARGET_2D, true),
	SAMPLER("sampler2DRect", IR_TARGET_RECT, false),
	SAMPLER("sampler2DRectShadow", IR_TARGET_RECT, true),
	{ .base = GLSL_SAMPLER, .cols = 1, .rows = 1, .target = IR_TARGET_2D,
	  .external = true, .name = "samplerExternalOES" },
};

const struct glsl_type *glsl_type_vec(enum glsl_base base, int n)
{
	if (n < 1 || n > 4)
		return NULL;
	const struct glsl_type *scalars[] = { &glsl_type_bool, &glsl_type_int, &glsl_type_float };
	int k = base == GLSL_BOOL ? 0 : base == GLSL_INT ? 1 : base == GLSL_FLOAT ? 2 : -1;
	if (k < 0)
		return NULL;
	return n == 1 ? scalars[k] : &vec_types[k][n - 2];
}

const struct glsl_type *glsl_type_mat(int cols, int rows)
{
	if (cols < 2 || cols > 4 || rows < 2 || rows > 4)
		return NULL;
	return &mat_types[cols - 2][rows - 2];
}

/* The lexer asks this of every name in a program: the name's shape picks
 * the one table entry it can be, instead of comparing with them all. */
const struct glsl_type *glsl_type_by_name(const char *name)
{
	const struct glsl_type *t = NULL;
	const char *vec = name;
	switch (name[0]) {
	case 'v':
		if (strcmp(name, "void") == 0)
			return &glsl_type_void;
		break;
	case 'b':
		if (strcmp(name, "bool") == 0)
			return &glsl_type_bool;
		vec = name + 1;
		break;
	case 'i':
		if (strcmp(name, "int") == 0)
			return &glsl_type_int;
		vec = name + 1;
		break;
	case 'f':
		return strcmp(name, "float") == 0 ? &glsl_type_float : NULL;
	case 'm': /* mat2 .. mat4, matCxR, and matNxN for matN */
		if (strncmp(name, "mat", 3) == 0 && name[3] >= '2' && name[3] <= '4') {
			int c = name[3] - '0';
			if (name[4] == 0)
				return glsl_type_mat(c, c);
			if (name[4] == 'x' && name[5] >= '2' && name[5] <= '4' && name[6] == 0)
				t = glsl_type_mat(c, name[5] - '0');
		}
		return t;
	case 's':
		for (size_t i = 0; i < sizeof sampler_types / sizeof sampler_types[0]; i++)
			if (strcmp(sampler_types[i].name, name) == 0)
				return &sampler_types[i];
		return NULL;
	default:
		return NULL;
	}
	/* [bi]?vec[234] */
	if (strncmp(vec, "vec", 3) != 0 || vec[3] < '2' || vec[3] > '4' || vec[4] != 0)
		return NULL;
	int k = vec == name ? 2 : name[0] == 'b' ? 0 : 1;
	return &vec_types[k][vec[3] - '2'];
}

const struct glsl_type *glsl_type_array(struct arena *a, const struct glsl_type *elem, int len)
{
	struct glsl_type *t = arena_alloc(a, sizeof *t);
	if (!t)
		return &glsl_type_error;
	t->base = GLSL_ARRAY;
	t->cols = t->rows = 1;
	t->elem = elem;
	t->length = len;
	t->name = elem->name;
	return t;
}

bool glsl_type_equal(const struct glsl_type *a, const struct glsl_type *b)
{
	if (a == b)
		return true;
	if (a->base != b->base)
		return false;
	if (a->base == GLSL_ARRAY)
		return a->length == b->length && glsl_type_equal(a->elem, b->elem);
	if (a->base == GLSL_STRUCT)
		return false; /* structs are equal only to themselves */
	return a->cols == b->cols && a->rows == b->rows && a->target == b->target &&
	       a->shadow == b->shadow && a->external == b->external;
}

bool glsl_has_sampler(const struct glsl_type *t)
{
	while (t->base == GLSL_ARRAY)
		t = t->elem;
	if (t->base == GLSL_SAMPLER)
		return true;
	for (int i = 0; t->base == GLSL_STRUCT && i < t->nfields; i++)
		if (glsl_has_sampler(t->fields[i].type))
			return true;
	return false;
}

const char *glsl_type_name(struct arena *a, const struct glsl_type *t)
{
	if (t->base != GLSL_ARRAY)
		return t->name ? t->name : "?";
	int depth = 0;
	char dims[64] = "";
	for (; t->base == GLSL_ARRAY && depth < 4; t = t->elem, depth++) {
		size_t n = strlen(dims);
		if (t->length)
			snprintf(dims + n, sizeof dims - n, "[%d]", t->length);
		else
			snprintf(dims + n, sizeof dims - n, "[]");
	}
	return arena_printf(a, "%s%s", t->name ? t->name : "?", dims);
}
