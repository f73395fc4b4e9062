/* Inline constants (ISA.md §5): 7-bit unsigned mini-float, bias 7. */
#include "r500.h"

#include <math.h>

float r500_inline_value(unsigned code)
{
	unsigned e = (code >> 3) & 15, m = code & 7;
	if (e == 0)
		return ldexpf((float)m / 8.0f, 1 - 7); /* AMD: denormal */
	return ldexpf(1.0f + (float)m / 8.0f, (int)e - 7);
}

int r500_inline_code(float v)
{
	/* §12: only codes with exponent field >= 1 are emitted */
	for (unsigned code = 8; code < 128; code++)
		if (r500_inline_value(code) == v)
			return (int)code;
	return -1;
}
