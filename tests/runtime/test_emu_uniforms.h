/* The differential judges' uniforms (test_differential.c,
 * test_backend_cf.c): the IR interpreter's values of every uniform
 * element, and the emulator's, given by name as a driver gives them. */
#ifndef USCC_TEST_EMU_UNIFORMS_H
#define USCC_TEST_EMU_UNIFORMS_H

#include "emu.h"
#include "ir.h"
#include "../test_util.h"

/* uni[0 .. nuniform_vec4): element e of each uniform, test_uniform_value
 * of its name and e * ncomp + c. */
static inline void test_ir_uniforms(const struct ir_func *f, float (*uni)[4])
{
	for (int u = 0; u < f->nuniforms; u++) {
		const struct ir_uniform *un = &f->uniforms[u];
		for (int e = 0; e < un->nvec4; e++)
			for (int c = 0; c < un->ncomp; c++)
				uni[un->base + e][c] = test_uniform_value(un->name, e * un->ncomp + c);
	}
}

/* The same values, one emulator uniform per GL uniform: "u", "a[2]", or
 * a member-major uniform's "lights[2].pos".  The count; more than max
 * fails the test (a uniform left unset would differ for no reason). */
static inline int test_emu_uniforms(const struct ir_func *f, struct arena *a,
				    struct emu_uniform *unis, int max)
{
	int n = 0;
	for (int u = 0; u < f->nuniforms; u++) {
		const struct ir_uniform *un = &f->uniforms[u];
		int per = un->array_len > 0 ? un->nvec4 / un->array_len : un->nvec4;
		int nelem = un->array_len > 0 ? un->array_len : 1;
		for (int e = 0; e < nelem; e++) {
			if (n == max)
				fail_msg("more than %d GL uniforms: raise the judge's MAX_UNIFORMS", max);
			struct emu_uniform *eu = &unis[n++];
			memset(eu, 0, sizeof *eu);
			char gl[256];
			if (un->member_major && ir_uniform_member_name(un, e, gl, sizeof gl))
				eu->name = arena_strdup(a, gl);
			else
				eu->name = un->array_len > 0 ? arena_printf(a, "%s[%d]", un->name, e)
							     : un->name;
			eu->ncomp = per * un->ncomp;
			assert_true(eu->ncomp <= 16);
			for (int k = 0; k < eu->ncomp; k++)
				eu->value[k] = test_uniform_value(un->name,
					ir_uniform_element(un, e, k / un->ncomp) * un->ncomp + k % un->ncomp);
		}
	}
	return n;
}

#endif
