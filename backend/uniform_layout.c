/* Uniform layout: the constant slot and components of each uniform
 * element (one vec4 element of the flattened uniform values).  Only the
 * elements the program reads get room: those read at a constant index,
 * and every element of an array read at a computed index (isel selects
 * among them with CMP, so each is addressed on its own).  Elements share
 * slots: first fit, widest first, so four floats, two vec2s, or a vec3
 * and a float fill one slot (uniform vec4 a[1024] read only at a[900]
 * takes one slot, not 1024).  An array read through aL (loop_rel.c)
 * takes one slot per element, in order, so that slot + aL is element
 * + aL.
 *
 * Under r300's conventions every element has its own slot, in order.
 *
 * Needs: the IR function.  Gives: cg->unif_slot/unif_shift for every
 * element, cg->nuniform_slots; the constant slots after them are the
 * immediates'. */
#include "cg.h"

#include <assert.h>
#include <string.h>

struct scan {
	const struct ir_func *f;
	uint8_t *used;   /* by element */
	bool *dynamic;   /* by uniform */
};

static void scan_reads(struct ir_instr *in, void *ud)
{
	struct scan *sc = ud;
	if (in->op != IR_OP_UNIFORM || in->index < 0 || in->index >= sc->f->nuniforms)
		return;
	const struct ir_uniform *u = &sc->f->uniforms[in->index];
	if (in->nsrc > 0)
		sc->dynamic[in->index] = true;
	else if (in->offset >= 0 && in->offset < u->nvec4 && u->base + in->offset < sc->f->nuniform_vec4)
		sc->used[u->base + in->offset] = 1;
}

/* Places an element of n components: the first slot with room, else a
 * new one.  Past the R500's slots only the count goes on (for the error
 * that names it). */
static int place(struct cg_ctx *cg, uint8_t *fill, int n, int *shift)
{
	int open = cg->nuniform_slots < R500_NUM_CONSTS ? cg->nuniform_slots : R500_NUM_CONSTS;
	for (int s = 0; s < open; s++)
		if (fill[s] + n <= 4) {
			*shift = fill[s];
			fill[s] = (uint8_t)(fill[s] + n);
			return s;
		}
	int s = cg->nuniform_slots++;
	*shift = 0;
	if (s < R500_NUM_CONSTS)
		fill[s] = (uint8_t)n;
	return s;
}

/* r300's conventions: element k in slot k, unpacked, every element
 * (r300 uploads its externals as one run from the start). */
static bool layout_r300(struct cg_ctx *cg)
{
	int n = cg->func->nuniform_vec4;
	cg->nuniform_slots = n;
	cg->unif_slot = arena_alloc(cg->arena, sizeof *cg->unif_slot * (size_t)(n + 1));
	cg->unif_shift = arena_alloc(cg->arena, (size_t)(n + 1));
	if (!cg->unif_slot || !cg->unif_shift)
		return cg->failed = true, false;
	for (int k = 0; k < n; k++) {
		cg->unif_slot[k] = k;
		cg->unif_shift[k] = 0;
	}
	return true;
}

bool cg_layout_uniforms(struct cg_ctx *cg)
{
	if (cg->opts->r300)
		return layout_r300(cg);
	struct ir_func *f = cg->func;
	int n = f->nuniform_vec4;
	cg->nuniform_slots = 0;
	cg->unif_slot = arena_alloc(cg->arena, sizeof *cg->unif_slot * (size_t)(n + 1));
	cg->unif_shift = arena_alloc(cg->arena, (size_t)(n + 1));
	struct scan sc = { f, arena_alloc(cg->arena, (size_t)(n + 1)),
			   arena_alloc(cg->arena, sizeof(bool) * (size_t)(f->nuniforms + 1)) };
	if (!cg->unif_slot || !cg->unif_shift || !sc.used || !sc.dynamic)
		return cg->failed = true, false;
	memset(sc.used, 0, (size_t)n + 1);
	memset(sc.dynamic, 0, sizeof(bool) * (size_t)(f->nuniforms + 1));
	ir_foreach_instr(f, scan_reads, &sc);
	if (cg->opts->const_prog) /* its inputs: the driver uploads them there */
		ir_foreach_instr((struct ir_func *)cg->opts->const_prog, scan_reads, &sc);
	for (int i = 0; i < f->nuniforms; i++)
		if (sc.dynamic[i])
			for (int e = 0; e < f->uniforms[i].nvec4 && f->uniforms[i].base + e < n; e++)
				sc.used[f->uniforms[i].base + e] = 1;
	for (int k = 0; k < n; k++)
		cg->unif_slot[k] = -1;
	uint8_t fill[R500_NUM_CONSTS];
	memset(fill, 0, sizeof fill);
	/* arrays read through aL (loop_rel.c): every element, one slot each,
	 * in order, first; the rest of their slots stay open to others */
	for (int i = 0; cg->unif_rel && i < f->nuniforms; i++) {
		const struct ir_uniform *u = &f->uniforms[i];
		if (!cg->unif_rel[i])
			continue;
		if (u->base + u->nvec4 > n || cg->nuniform_slots + u->nvec4 > R500_NUM_CONSTS) {
			cg->unif_rel[i] = false; /* isel selects among the elements */
			continue;
		}
		int w = u->ncomp < 1 || u->ncomp > 4 ? 4 : u->ncomp;
		for (int e = 0; e < u->nvec4; e++) {
			int slot = cg->nuniform_slots++;
			fill[slot] = (uint8_t)w;
			cg->unif_slot[u->base + e] = slot;
			cg->unif_shift[u->base + e] = 0;
		}
	}
	for (int width = 4; width >= 1; width--)
		for (int i = 0; i < f->nuniforms; i++) {
			const struct ir_uniform *u = &f->uniforms[i];
			assert(u->ncomp >= 1 && u->ncomp <= 4); /* the IR was validated */
			int w = u->ncomp < 1 || u->ncomp > 4 ? 4 : u->ncomp;
			if (w != width)
				continue;
			for (int e = 0; e < u->nvec4 && u->base + e < n; e++) {
				int k = u->base + e, shift;
				if (!sc.used[k] || cg->unif_slot[k] >= 0)
					continue;
				cg->unif_slot[k] = place(cg, fill, w, &shift);
				cg->unif_shift[k] = (uint8_t)shift;
			}
		}
	return true;
}

bool cg_uniform_opnd(const struct cg_ctx *cg, int element, const uint8_t swz[4], uint8_t mod,
		     struct cg_opnd *out)
{
	if (element < 0 || element >= cg->func->nuniform_vec4 || cg->unif_slot[element] < 0)
		return false;
	struct cg_opnd o = { CG_FILE_CONST, mod, { 0 }, cg->unif_slot[element] };
	/* components past the element (never read) stay inside the slot */
	for (int i = 0; i < 4; i++) {
		int c = (swz[i] & 3) + cg->unif_shift[element];
		o.swz[i] = (uint8_t)(c > 3 ? 3 : c);
	}
	*out = o;
	return true;
}

bool cg_stage_layout_uniforms(struct cg_ctx *cg)
{
	if (!cg_layout_uniforms(cg))
		return false;
	if (cg->nuniform_slots > R500_NUM_CONSTS)
		return cg_error(cg, (struct src_loc){ 0 }, "uniforms need %d constant slots; the "
				"R500 has %d", cg->nuniform_slots, R500_NUM_CONSTS);
	cg->nconst_slots = cg->nuniform_slots;
	return true;
}
