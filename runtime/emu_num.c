/* fp32 arithmetic as uscc models the R500 (ISA.md §6.5, §12): one rounding
 * per operation, fused MAD, denormals flushed to a signed zero, 0*x = 0,
 * the special values of the transcendentals, OMOD then clamp. */
#include <math.h>
#include <string.h>
#include "emu_internal.h"

float emu_flush(float x)
{
	if (fpclassify(x) == FP_SUBNORMAL)
		return copysignf(0.0f, x);
	return x;
}

float emu_round(double x)
{
	return emu_flush((float)x);
}

/* ZERO_TIMES_ANYTHING: a zero factor gives a zero product (sign as IEEE). */
float emu_mul0(float a, float b)
{
	if (a == 0.0f || b == 0.0f)
		return (signbit(a) != signbit(b)) ? -0.0f : 0.0f;
	return emu_flush(a * b);
}

float emu_mad(float a, float b, float c)
{
	if (a == 0.0f || b == 0.0f) {
		float p = (signbit(a) != signbit(b)) ? -0.0f : 0.0f;
		return emu_flush(p + c);
	}
	return emu_flush(fmaf(a, b, c));
}

/* Sum of n products plus `add`, rounded once (double holds each fp32
 * product exactly). */
float emu_dot(const float *a, const float *b, int n, float add)
{
	double s = -0.0; /* the identity that keeps the sign of zero sums */
	for (int i = 0; i < n; i++)
		s += (a[i] == 0.0f || b[i] == 0.0f) ? (double)emu_mul0(a[i], b[i])
						      : (double)a[i] * (double)b[i];
	s += add;
	return emu_round(s);
}

float emu_transcendental(int aop, float a)
{
	const double two_pi = 6.283185307179586476925286766559;
	switch (aop) {
	case R500_AOP_EX2: return emu_flush(exp2f(a));
	case R500_AOP_LN2: return emu_flush(log2f(a));  /* log2(±0) = -inf */
	case R500_AOP_RCP: return emu_flush(1.0f / a);  /* ±0 -> ±inf */
	case R500_AOP_RSQ: return emu_flush(1.0f / sqrtf(a)); /* -0 -> -inf */
	case R500_AOP_SIN: return emu_round(sin(two_pi * (double)a));
	case R500_AOP_COS: return emu_round(cos(two_pi * (double)a));
	default: return NAN;
	}
}

float emu_omod_clamp(float x, int omod, bool clamp)
{
	static const float scale[7] = { 1, 2, 4, 8, 0.5f, 0.25f, 0.125f };
	if (omod >= 7)
		return x;
	x = emu_flush(x * scale[omod]);
	if (isnan(x)) {
		uint32_t canon = 0x7FFFFFFFu;
		memcpy(&x, &canon, sizeof x);
	}
	if (clamp)
		x = isnan(x) ? 0.0f : fminf(fmaxf(x, 0.0f), 1.0f);
	return x;
}

bool emu_compare(float x, int code)
{
	switch (code & 3) {
	case R500_CMP_EQ0: return x == 0.0f;
	case R500_CMP_LT0: return x < 0.0f;
	case R500_CMP_GE0: return x >= 0.0f;
	default: return !(x == 0.0f);
	}
}

float emu_presub(int op, float s0, float s1)
{
	switch (op & 3) {
	case R500_SRCP_BIAS: return emu_round(1.0 - 2.0 * (double)s0);
	case R500_SRCP_SUB: return emu_round((double)s1 - (double)s0);
	case R500_SRCP_ADD: return emu_round((double)s1 + (double)s0);
	default: return emu_round(1.0 - (double)s0);
	}
}
