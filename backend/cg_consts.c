/* Immediate operands: the cheapest form that gives the wanted values.
 * In order of preference: the 0 / 0.5 / 1 swizzles (no register at all),
 * one inline constant (ISA.md §5; exponent >= 1 only, §12) mixed with
 * those swizzles, NEG for an all-negative vector, and last a constant slot
 * after the uniforms, packed (a slot holds up to four different values,
 * reused by every operand that needs a subset of them). */
#include "cg.h"

#include <math.h>
#include <string.h>

static int special_swz(float v)
{
	if (v == 0.0f)
		return CG_SWZ_ZERO;
	if (v == 0.5f)
		return CG_SWZ_HALF;
	if (v == 1.0f)
		return CG_SWZ_ONE;
	return -1;
}

/* Swizzles and one inline code, with `neg` applied to every channel. */
static bool try_inline(const float *v, int n, bool neg, struct cg_opnd *out)
{
	int code = -1;
	float inl = 0;
	struct cg_opnd o = { CG_FILE_NONE, neg ? R500_MOD_NEG : R500_MOD_NONE, { 0 }, 0 };
	for (int i = 0; i < n; i++) {
		float a = neg ? -v[i] : v[i];
		if (neg && v[i] == 0.0f)
			return false; /* NEG of the zero swizzle would give -0 */
		if (!(a >= 0.0f))
			return false;
		int s = special_swz(a);
		if (s >= 0) {
			o.swz[i] = (uint8_t)s;
			continue;
		}
		if (code >= 0 && a != inl)
			return false;
		if (code < 0) {
			code = r500_inline_code(a);
			if (code < 0)
				return false;
			inl = a;
		}
		o.swz[i] = 0; /* read the inline value */
	}
	for (int i = n; i < 4; i++)
		o.swz[i] = o.swz[n - 1];
	if (code >= 0) {
		o.file = CG_FILE_INLINE;
		o.index = code;
	}
	*out = o;
	return true;
}

/* Bit-identical: a NaN must find itself, and packing must not merge
 * values that compare equal but differ (-0 and +0). */
static bool same_value(float a, float b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

static int find_in_slot(const struct cg_ctx *cg, int slot, float x)
{
	const struct cg_const_slot *cs = &cg->cslots[slot];
	for (int c = 0; c < cs->ncomp; c++)
		if (same_value(cs->v[c], x))
			return c;
	return -1;
}

/* Room in cslots for slots 0..n-1, zeroed; grown from the first
 * immediate on (a fixed table of all 256 slots was most of the context
 * each compile zeroed). */
static bool slots_room(struct cg_ctx *cg, int n)
{
	struct cg_const_slot *t = cg_room(cg, cg->cslots, &cg->cap_cslots, n, sizeof *t, true);
	if (!t)
		return false;
	cg->cslots = t;
	return true;
}

/* Places the non-special values in one immediate slot; returns the slot,
 * -1 when the constant file is full, -2 out of memory. */
static int pack_values(struct cg_ctx *cg, const float *v, int n)
{
	float need[4];
	int nneed = 0;
	for (int i = 0; i < n; i++) {
		if (special_swz(v[i]) >= 0)
			continue;
		bool dup = false;
		for (int k = 0; k < nneed; k++)
			dup |= same_value(need[k], v[i]);
		if (!dup)
			need[nneed++] = v[i];
	}
	int best = -1;
	for (int s = cg->nuniform_slots; s < cg->nconst_slots && best < 0; s++) {
		if (!cg->cslots[s].imm)
			continue;
		int missing = 0;
		for (int k = 0; k < nneed; k++)
			missing += find_in_slot(cg, s, need[k]) < 0;
		if (missing <= 4 - cg->cslots[s].ncomp)
			best = s;
	}
	if (best < 0) {
		if (cg->nconst_slots >= R500_NUM_CONSTS)
			return -1;
		if (!slots_room(cg, cg->nconst_slots + 1))
			return -2;
		best = cg->nconst_slots++;
		cg->cslots[best].imm = true;
	}
	struct cg_const_slot *cs = &cg->cslots[best];
	for (int k = 0; k < nneed; k++)
		if (find_in_slot(cg, best, need[k]) < 0)
			cs->v[cs->ncomp++] = need[k];
	return best;
}

bool cg_const_opnd(struct cg_ctx *cg, const float *v, int n, struct src_loc loc,
		   struct cg_opnd *out)
{
	if (try_inline(v, n, false, out) || try_inline(v, n, true, out))
		return true;
	int slot = pack_values(cg, v, n);
	if (slot == -2)
		return cg->failed = true, false;
	if (slot < 0)
		return cg_error(cg, loc, "shader needs more than %d constant slots "
				"(R500 limit)", R500_NUM_CONSTS);
	struct cg_opnd o = { CG_FILE_CONST, R500_MOD_NONE, { 0 }, slot };
	for (int i = 0; i < n; i++) {
		int s = special_swz(v[i]);
		o.swz[i] = (uint8_t)(s >= 0 ? s : find_in_slot(cg, slot, v[i]));
	}
	for (int i = n; i < 4; i++)
		o.swz[i] = o.swz[n - 1];
	*out = o;
	return true;
}
