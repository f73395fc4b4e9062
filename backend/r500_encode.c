/* Encoder: struct r500_inst -> six dwords, from r500_fields.  Each type
 * walks only its own fields, listed once per process: the walk over the
 * whole table, skipping the fields of other types, was 1.7k instructions
 * an instruction, and every program is encoded twice (validated, then
 * written into its container). */
#include <pthread.h>

#include "r500_field_access.h"

struct type_field {
	uint16_t offset;
	uint8_t dword, lo;
	uint32_t mask;
};

static struct {
	pthread_once_t once;
	size_t n[4];
	struct type_field f[4][R500_MAX_FIELDS];
} by_type = { PTHREAD_ONCE_INIT, { 0 }, { { { 0 } } } };

static void list_fields(void)
{
	for (unsigned type = 0; type < 4; type++)
		for (size_t i = 0; i < r500_nfields; i++) {
			const struct r500_field *f = &r500_fields[i];
			if (!r500_field_applies(f, type))
				continue;
			by_type.f[type][by_type.n[type]++] = (struct type_field){
				f->offset, f->dword, f->lo, (uint32_t)(((uint64_t)1 << f->width) - 1)
			};
		}
}

void r500_encode(const struct r500_inst *in, uint32_t words[6])
{
	pthread_once(&by_type.once, list_fields);
	unsigned type = in->cmn.type & 3;
	for (int d = 0; d < R500_WORDS; d++)
		words[d] = 0;
	const struct type_field *f = by_type.f[type];
	for (size_t i = 0; i < by_type.n[type]; i++) {
		uint16_t v = *(const uint16_t *)((const char *)in + f[i].offset);
		words[f[i].dword] |= ((uint32_t)v & f[i].mask) << f[i].lo;
	}
}
