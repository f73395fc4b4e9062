/* Encoder: struct r500_inst -> six dwords, one loop over r500_fields. */
#include "r500_field_access.h"

void r500_encode(const struct r500_inst *in, uint32_t words[6])
{
	unsigned type = in->cmn.type & 3;
	for (int d = 0; d < R500_WORDS; d++)
		words[d] = 0;
	for (size_t i = 0; i < r500_nfields; i++) {
		const struct r500_field *f = &r500_fields[i];
		if (!r500_field_applies(f, type))
			continue;
		uint32_t mask = (uint32_t)(((uint64_t)1 << f->width) - 1);
		words[f->dword] |= ((uint32_t)r500_field_get(in, f) & mask) << f->lo;
	}
}
