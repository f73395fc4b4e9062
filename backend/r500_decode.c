/* Decoder: six dwords -> struct r500_inst, one loop over r500_fields, then
 * the reserved-bit check and the instruction rules of r500_validate.c. */
#include "r500_field_access.h"

#include <string.h>

bool r500_decode(const uint32_t words[6], struct r500_inst *out, char *why, size_t why_len)
{
	unsigned type = words[0] & 3;
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < r500_nfields; i++) {
		const struct r500_field *f = &r500_fields[i];
		if (!r500_field_applies(f, type))
			continue;
		uint32_t mask = (uint32_t)(((uint64_t)1 << f->width) - 1);
		r500_field_set(out, f, (uint16_t)((words[f->dword] >> f->lo) & mask));
	}
	for (unsigned d = 0; d < R500_WORDS; d++) {
		uint32_t extra = words[d] & ~r500_field_coverage(type, d);
		if (extra)
			return r500_why(why, why_len, "reserved bits 0x%08x set in dword %u",
					(unsigned)extra, d);
	}
	return r500_inst_validate(out, why, why_len);
}
