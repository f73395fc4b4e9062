/* The steps of a compile for uscc --list-steps (uscc.h), read from
 * util/pipeline.def: the one table of what runs and in what order. */
#include "step_time.h"
#include "switches.h"
#include "uscc.h"

enum { NSTEPS_MAX = 128 };

static int fill(struct uscc_step *t)
{
	int n = 0;
	static const char *const phase_notes[] = { "validated: ops", "validated: slots",
						   "validated: registers", "validated: code" };
	enum { CG_PHASE_OPS, CG_PHASE_SLOTS, CG_PHASE_REGS, CG_PHASE_CODE };
	enum { SW_NONE = -1 };
#define STEP(layer, name, sw, within, note, level) \
	t[n++] = (struct uscc_step){ layer, name, (sw) >= 0 ? sw_name((enum sw_id)(sw)) : NULL, \
				     within, note, level };
#define PIPE_FRONTEND(name, what) STEP("frontend", #name, SW_NONE, NULL, what, 0)
#define PIPE_IR_ROUND(id, fn, level) STEP("ir", sw_name(SW_##id), SW_##id, NULL, \
					  "in rounds to a fixed point", level)
#define PIPE_IR_ONCE(id, fn, level) STEP("ir-once", sw_name(SW_##id), SW_##id, NULL, \
					 "once, then the rounds again", level)
#define PIPE_SPLIT(name, what) STEP("split", #name, SW_NONE, NULL, what, 1)
#define PIPE_BACKEND(name, fn, sw, phase) STEP("backend", #name, SW_##sw, NULL, \
					       phase_notes[phase], SW_##sw >= 0)
#define PIPE_INSIDE(step, sw, what) STEP("inside", sw_name(SW_##sw), SW_##sw, #step, what, 1)
#include "pipeline_steps.h"
#undef STEP
	return n;
}

bool uscc_pipeline_step(int i, struct uscc_step *out)
{
	struct uscc_step t[NSTEPS_MAX];
	int n = fill(t);
	if (i < 0 || i >= n)
		return false;
	*out = t[i];
	return true;
}

void uscc_step_times_enable(bool on)
{
	step_time_enable(on);
}

int64_t uscc_step_time_ns(int i)
{
	return step_time_total(i);
}
