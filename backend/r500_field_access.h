/* Private helpers of the R500 codec: reach the struct member a field
 * describes, find a field by name, build "why" messages. */
#ifndef USCC_R500_FIELD_ACCESS_H
#define USCC_R500_FIELD_ACCESS_H

#include <stdarg.h>
#include <stdio.h>
#include "r500_codec.h"

enum { R500_T_ALU = 1 << R500_TYPE_ALU, R500_T_OUT = 1 << R500_TYPE_OUT,
       R500_T_FC = 1 << R500_TYPE_FC, R500_T_TEX = 1 << R500_TYPE_TEX,
       R500_T_ALUOUT = R500_T_ALU | R500_T_OUT, R500_T_ALL = 15 };

/* At least r500_nfields (r500_fields.c checks): the encoder's lists of
 * one type's fields have this room. */
enum { R500_MAX_FIELDS = 256 };

static inline uint16_t r500_field_get(const struct r500_inst *in, const struct r500_field *f)
{
	return *(const uint16_t *)((const char *)in + f->offset);
}

static inline void r500_field_set(struct r500_inst *in, const struct r500_field *f, uint16_t v)
{
	*(uint16_t *)((char *)in + f->offset) = v;
}

static inline bool r500_field_applies(const struct r500_field *f, unsigned type)
{
	return (f->types >> (type & 3)) & 1;
}

/* The field named `name` that applies to `type`, or NULL. */
const struct r500_field *r500_field_find(const char *name, unsigned type);

/* Bits of dword `dw` that some field of `type` covers. */
uint32_t r500_field_coverage(unsigned type, unsigned dw);

/* snprintf into why (if non-NULL); always returns false so callers can
 * `return r500_why(...)`. */
bool r500_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
