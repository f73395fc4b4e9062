/* What uscc-ref binds before running: textures by unit and uniform values
 * by name, with the rules uscc-run applies to a container's tables
 * (runtime/main_uscc_run.c, runtime/emu_bind.c), here over the IR's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uscc_ref.h"

static int sampler_target(const struct ir_func *f, int unit)
{
	for (int i = 0; i < f->nsamplers; i++)
		if (f->samplers[i].unit == unit)
			return f->samplers[i].target;
	return IR_TARGET_2D;
}

bool ref_textures_load(struct run_textures *t, const struct ref_opts *o,
		       const struct ir_func *f)
{
	int target[RUN_UNITS];
	char why[512];
	for (int u = 0; u < RUN_UNITS; u++)
		target[u] = sampler_target(f, u);
	if (!run_textures_load(t, &o->run, target, why, sizeof why)) {
		fprintf(stderr, "%s\n", why);
		return false;
	}
	return true;
}

/* Does `cfg` name uniform `name` whole (*elem = -1) or element k of it? */
static bool names_uniform(const char *cfg, const char *name, int *elem)
{
	size_t n = strlen(name);
	if (strncmp(cfg, name, n) != 0)
		return false;
	if (cfg[n] == 0) {
		*elem = -1;
		return true;
	}
	if (cfg[n] != '[')
		return false;
	char *end;
	long k = strtol(cfg + n + 1, &end, 10);
	if (end == cfg + n + 1 || strcmp(end, "]") != 0 || k < 0 || k > 1000000)
		return false;
	*elem = (int)k;
	return true;
}

/* Values are packed as the emulator reads them: `ncomp` per vec4 element
 * (a matrix column), elements in order, counted from the first element
 * addressed; values beyond those given are 0.  The GL uniform `name`
 * (array_len elements, 0: not an array) is nvec4 elements from base,
 * `stride` apart; column_major: column c of array element k at
 * c * array_len + k (ir_uniform_is_matrix_array). */
static void bind_gl_uniform(const char *name, int array_len, int nvec4, int ncomp, int base,
			    int stride, bool column_major, const struct run_uniform *v,
			    float (*vals)[4])
{
	int elem, first = 0, count = nvec4;
	if (!names_uniform(v->name, name, &elem))
		return;
	if (elem >= 0) {
		/* as the emulator reads it, "m[0]" of a non-array is all of it */
		int per = array_len > 0 ? nvec4 / array_len : nvec4;
		if (elem >= (array_len > 0 ? array_len : 1))
			return;
		first = elem * per;
		count = per;
	}
	int per = array_len > 0 ? nvec4 / array_len : nvec4;
	for (int e = 0; e < count; e++) {
		int g = first + e, to = column_major ? g % per * array_len + g / per : g * stride;
		for (int c = 0; c < ncomp && c < 4; c++) {
			int at = e * ncomp + c;
			vals[base + to][c] = at < v->ncomp && at < 16 ? v->value[at] : 0.0f;
		}
	}
}

/* A member-major uniform is one GL uniform per struct ("lights[2].m",
 * "lights[2].w" an array), its columns array_len elements apart. */
static void bind_uniform(const struct ir_uniform *un, const struct run_uniform *v,
			 float (*vals)[4])
{
	if (!v->name)
		return;
	if (!un->member_major || ir_uniform_is_matrix_array(un)) {
		char gl[256];
		snprintf(gl, sizeof gl, "%.*s", (int)strcspn(un->name, "["), un->name);
		bind_gl_uniform(un->member_major ? gl : un->name, un->array_len, un->nvec4, un->ncomp,
				un->base, 1, un->member_major, v, vals);
		return;
	}
	int per = un->nvec4 / un->array_len; /* the IR was validated */
	char name[256];
	for (int k = 0; k < un->array_len; k++)
		if (ir_uniform_member_name(un, k, name, sizeof name))
			bind_gl_uniform(name, ir_uniform_member_len(un), per, un->ncomp, un->base + k,
					un->array_len, false, v, vals);
}

float (*ref_uniform_values(const struct ref_opts *o, const struct ir_func *f))[4]
{
	size_t n = f->nuniform_vec4 > 0 ? (size_t)f->nuniform_vec4 : 1;
	float (*vals)[4] = calloc(n, sizeof *vals);
	if (!vals)
		return NULL;
	/* what is not given keeps the program's initializer, as in uscc-run */
	ir_uniform_defaults(f, vals);
	for (int u = 0; u < f->nuniforms; u++) {
		const struct ir_uniform *un = &f->uniforms[u];
		if (un->base < 0 || un->base + un->nvec4 > f->nuniform_vec4)
			continue;
		for (int k = 0; k < o->run.nuniforms; k++)
			bind_uniform(un, &o->run.uniforms[k], vals);
	}
	return vals;
}
