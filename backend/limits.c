/* Hardware limits, checked once before the program is handed out, each
 * with an error that names the limit and the figure reached (ISA.md §1). */
#include "cg.h"

static const struct src_loc no_loc = { 0 };

/* A floor on the slots the selected ops need whatever later stages do:
 * every TEX op takes a slot, and a slot writes at most 4 lanes (3 RGB + 1
 * alpha), each component being written once; late copies are left out
 * (coalescing may remove them).  Checked right after isel,
 * so that a program far too long for the R500 is refused before the
 * scheduler and the allocator spend super-linear time on it. */
bool cg_limits_early(struct cg_ctx *cg)
{
	long tex = 0, lanes = 0;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->late || op->opc == CG_FC)
			continue;
		if (cg_opc_infos[op->opc].tex) {
			tex++;
			continue;
		}
		int n = __builtin_popcount(op->wmask);
		if (op->out != CG_OUT_NONE && op->out_ncomp > n)
			n = op->out_ncomp;
		lanes += n > 0 ? n : 1;
	}
	long need = tex + (lanes + 3) / 4;
	if (need <= R500_MAX_SLOTS)
		return true;
	cg->too_long = true;
	cg->over_limit = true;
	return cg_error(cg, no_loc, "program needs at least %ld instruction slots; the R500 has "
			"%d (shorten the shader, or use loops with a bound the compiler cannot "
			"unroll)", need, R500_MAX_SLOTS);
}

bool cg_limits(struct cg_ctx *cg)
{
	const struct ir_func *f = cg->func;
	bool ok = true;
	cg->too_long = cg->ninst > R500_MAX_SLOTS;
	cg->over_limit = cg->ninst > R500_MAX_SLOTS || cg->temps_used > R500_NUM_TEMPS;
	if (cg->ninst > R500_MAX_SLOTS)
		ok = cg_error(cg, no_loc, "program needs %d instruction slots; the R500 has %d "
			      "(shorten the shader)", cg->ninst, R500_MAX_SLOTS);
	if (cg->temps_used > R500_NUM_TEMPS)
		ok = cg_error(cg, no_loc, "program needs %d temporaries; the R500 has %d",
			      cg->temps_used, R500_NUM_TEMPS);
	if (cg->nconst_slots > R500_NUM_CONSTS)
		ok = cg_error(cg, no_loc, "program needs %d constant slots; the R500 has %d",
			      cg->nconst_slots, R500_NUM_CONSTS);
	if (f->nsamplers > R500_NUM_SAMPLERS)
		ok = cg_error(cg, no_loc, "shader uses %d samplers; the R500 has %d",
			      f->nsamplers, R500_NUM_SAMPLERS);
	for (int i = 0; i < f->nsamplers; i++)
		if (f->samplers[i].unit < 0 || f->samplers[i].unit >= R500_NUM_SAMPLERS)
			ok = cg_error(cg, no_loc, "sampler %s: texture unit %d exceeds the R500 "
				      "limit of %d units", f->samplers[i].name,
				      f->samplers[i].unit, R500_NUM_SAMPLERS);
	for (int i = 0; i < f->noutputs; i++)
		if (f->outputs[i].target >= R500_NUM_TARGETS || f->outputs[i].target < -1)
			ok = cg_error(cg, no_loc, "output %s: render target %d exceeds the R500 "
				      "limit of %d targets", f->outputs[i].name,
				      f->outputs[i].target, R500_NUM_TARGETS);
	return ok;
}
