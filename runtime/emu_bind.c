/* The constant file and flow-control constants a driver would upload:
 * the compiler's immediates, the uniform values given by name mapped
 * through the program's uniform table (an element not given keeps its
 * GLSL initializer, as glLinkProgram sets it, else 0), and the loop
 * descriptors (Mesa's {255, 0, 0} where the program sets none, ISA.md §12). */
#include <stdlib.h>
#include <string.h>
#include "container.h"
#include "emu_internal.h"
#include "ir.h"
#include "r300_conventions.h"
#include "r500_cp.h"

static int swz_index(char ch)
{
	switch (ch) {
	case 'x': case 'r': case 's': return 0;
	case 'y': case 'g': case 't': return 1;
	case 'z': case 'b': case 'p': return 2;
	case 'w': case 'a': case 'q': return 3;
	default: return -1;
	}
}

/* Does config name `cfg_name` address this table entry?  "u" addresses the
 * whole uniform; "u[k]" array element k.  *first is the index, in the
 * configured values, of the element's first component. */
static bool uniform_match(const struct r500_uniform *u, const char *cfg_name, int *first)
{
	size_t n = strlen(u->name);
	int rows = (int)strnlen(u->swizzle, sizeof u->swizzle);
	int cols = ir_type_columns(u->type);
	if (strncmp(cfg_name, u->name, n) != 0)
		return false;
	if (cfg_name[n] == 0) {
		*first = u->element * rows;
		return true;
	}
	if (cfg_name[n] != '[')
		return false;
	char *end;
	long k = strtol(cfg_name + n + 1, &end, 10);
	if (end == cfg_name + n + 1 || strcmp(end, "]") != 0)
		return false;
	if (k != u->element / cols)
		return false;
	*first = (u->element % cols) * rows;
	return true;
}

/* r300's state constants (r300's conventions) as its driver sets them
 * for this draw: the viewport of the whole target, POT textures. */
static bool r300_state(const struct emu_config *cfg, const char *name, float v[4])
{
	int unit;
	switch (ir_r300_state_uniform(name, &unit)) {
	case 0: case 1: /* the viewport's scale and offset are alike */
		v[0] = (float)cfg->width / 2; v[1] = (float)cfg->height / 2; v[2] = 0.5f; v[3] = 1;
		return true;
	case 2:
		v[0] = v[1] = v[2] = v[3] = 1;
		return true;
	default:
		return false;
	}
}

static void bind_uniforms(struct emu_ctx *ctx)
{
	const struct r500_program *p = ctx->p;
	const struct emu_config *cfg = ctx->cfg;
	for (int i = 0; p->uniforms && i < p->nuniforms; i++) {
		const struct r500_uniform *u = &p->uniforms[i];
		if (!u->name || u->slot < 0 || u->slot >= R500_NUM_CONSTS || u->element < 0 ||
		    u->element > CONTAINER_MAX_UNIFORM_ELEMENT)
			continue;
		/* the program's initializer (or r300's state) first; a value
		 * given replaces it */
		float state[4];
		const float *init = r300_state(cfg, u->name, state) ? state : u->init;
		for (int j = 0; init && j < 4 && u->swizzle[j]; j++) {
			int c = swz_index(u->swizzle[j]);
			if (c >= 0)
				ctx->c[u->slot][c] = emu_flush(init[j]);
		}
		for (int k = 0; cfg->uniforms && k < cfg->nuniforms; k++) {
			const struct emu_uniform *v = &cfg->uniforms[k];
			int first;
			if (!v->name || !uniform_match(u, v->name, &first))
				continue;
			for (int j = 0; j < 4 && u->swizzle[j]; j++) {
				int c = swz_index(u->swizzle[j]), at = first + j;
				if (c < 0)
					continue;
				float val = at >= 0 && at < v->ncomp && at < 16 ? v->value[at] : 0.0f;
				ctx->c[u->slot][c] = emu_flush(val);
			}
		}
	}
}

void emu_bind_constants(struct emu_ctx *ctx)
{
	const struct r500_program *p = ctx->p;
	int n = p->nconst_slots < R500_NUM_CONSTS ? p->nconst_slots : R500_NUM_CONSTS;
	memset(ctx->c, 0, sizeof ctx->c);
	for (int s = 0; p->consts && p->const_is_imm && s < n; s++)
		if (p->const_is_imm[s])
			for (int c = 0; c < 4; c++)
				ctx->c[s][c] = emu_flush(p->consts[s][c]);
	bind_uniforms(ctx);
	/* the constant program, as the driver runs it before the draw */
	if (p->cp.nouts)
		r500_cp_run(&p->cp, ctx->c, n);
	for (int i = 0; i < 32; i++) {
		if (p->int_const_used >> i & 1)
			ctx->ic[i] = p->int_consts[i];
		else
			ctx->ic[i] = (struct r500_loop_const){ .count = 255, .init = 0, .step = 0 };
	}
	ctx->bool_const = p->bool_const;
}
