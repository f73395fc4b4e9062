/* GLSL types: the built-in ones are a const table; arrays and structs are
 * made in the compile's arena.  Vectors are 1 column of `rows` components;
 * a matCxR has `cols` columns of `rows` components. */
#ifndef USCC_FE_TYPES_H
#define USCC_FE_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include "arena.h"

enum glsl_base {
	GLSL_VOID, GLSL_BOOL, GLSL_INT, GLSL_FLOAT, GLSL_SAMPLER, GLSL_STRUCT, GLSL_ARRAY,
	GLSL_ERROR /* the type of an expression already diagnosed: never re-reported */
};

struct glsl_type;

struct glsl_field {
	const char *name;
	const struct glsl_type *type;
};

struct glsl_type {
	enum glsl_base base;
	uint8_t cols, rows;
	uint8_t target;                  /* SAMPLER: enum ir_tex_target */
	bool shadow;                     /* SAMPLER */
	bool external;                   /* SAMPLER: samplerExternalOES (sampled as 2D) */
	bool v120;                       /* only a keyword from GLSL 1.20 on */
	const char *name;
	const struct glsl_type *elem;    /* ARRAY */
	int length;                      /* ARRAY; 0 = size not known yet */
	const struct glsl_field *fields; /* STRUCT */
	int nfields;
	int struct_depth;                /* STRUCT: 1 + deepest struct among its fields */
};

/* Built-in types by name, NULL when `name` is not one. */
const struct glsl_type *glsl_type_by_name(const char *name);
extern const struct glsl_type glsl_type_void, glsl_type_bool, glsl_type_int, glsl_type_float,
	glsl_type_error;
/* bool/int/float scalar or vector of n (1..4) components. */
const struct glsl_type *glsl_type_vec(enum glsl_base base, int n);
/* matCxR, NULL if not a GLSL type. */
const struct glsl_type *glsl_type_mat(int cols, int rows);
const struct glsl_type *glsl_type_array(struct arena *a, const struct glsl_type *elem, int len);

bool glsl_type_equal(const struct glsl_type *a, const struct glsl_type *b);
/* A sampler, or an array or struct holding one (at any depth). */
bool glsl_has_sampler(const struct glsl_type *t);
/* "vec3", "float[4]", "S" as an arena string (for messages). */
const char *glsl_type_name(struct arena *a, const struct glsl_type *t);

static inline bool glsl_is_scalar(const struct glsl_type *t)
{
	return t->base <= GLSL_FLOAT && t->base != GLSL_VOID && t->cols == 1 && t->rows == 1;
}
static inline bool glsl_is_vector(const struct glsl_type *t)
{
	return t->base <= GLSL_FLOAT && t->base != GLSL_VOID && t->cols == 1 && t->rows > 1;
}
static inline bool glsl_is_matrix(const struct glsl_type *t)
{
	return t->base == GLSL_FLOAT && t->cols > 1;
}
static inline bool glsl_is_numeric(const struct glsl_type *t)
{
	return t->base == GLSL_INT || t->base == GLSL_FLOAT;
}
/* scalars, vectors and matrices */
static inline bool glsl_is_basic(const struct glsl_type *t)
{
	return t->base == GLSL_BOOL || t->base == GLSL_INT || t->base == GLSL_FLOAT;
}
/* number of scalar components of a basic type */
static inline int glsl_components(const struct glsl_type *t)
{
	return t->cols * t->rows;
}

#endif
