/* Hardware limits, checked once before the program is handed out, each
 * with an error that names the limit and the figure reached (ISA.md §1). */
#include "cg.h"

static const struct src_loc no_loc = { 0 };

bool cg_limits(struct cg_ctx *cg)
{
	const struct ir_func *f = cg->func;
	bool ok = true;
	if (cg->ninst > R500_MAX_SLOTS)
		ok = cg_error(cg, no_loc, "program needs %d instruction slots; the R500 has %d",
			      cg->ninst, R500_MAX_SLOTS);
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
