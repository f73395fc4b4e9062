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
	/* §12: only codes with exponent field >= 1 are emitted.  v is
	 * (1 + m/8) * 2^(e-7): read e and m off frexpf (the compiler asks
	 * this for every constant operand, so no search over the codes). */
	if (!(v > 0.0f) || isinf(v))
		return -1;
	int exp;
	float frac = frexpf(v, &exp); /* v = frac * 2^exp, frac in [0.5, 1) */
	int e = exp - 1 + 7;
	float m = (frac * 2.0f - 1.0f) * 8.0f;
	if (e < 1 || e > 15 || m != floorf(m))
		return -1;
	unsigned code = (unsigned)e << 3 | (unsigned)m;
	return r500_inline_value(code) == v ? (int)code : -1;
}
