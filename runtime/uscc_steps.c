/* The steps of a compile for uscc --list-steps (uscc.h), read from
 * util/pipeline.def: the one table of what runs and in what order. */
#include "step_time.h"
#include "switches.h"
#include "uscc.h"

#include <pthread.h>

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
#define PIPE_IR_NEEDED(id, name, fn) STEP("ir", name, SW_NONE, NULL, \
					  "in rounds, alone at -O0; no switch: every compile needs it", 0)
#define PIPE_IR_ONCE(id, fn, level) STEP("ir-once", sw_name(SW_##id), SW_##id, NULL, \
					 "once, then the rounds again", level)
#define PIPE_SPLIT(id, name, what) STEP("split", name, SW_NONE, NULL, what, 1)
#define PIPE_BACKEND(name, fn, sw, phase) STEP("backend", #name, SW_##sw, NULL, \
					       phase_notes[phase], SW_##sw >= 0)
#define PIPE_INSIDE(step, sw, what) STEP("inside", sw_name(SW_##sw), SW_##sw, #step, what, 1)
#include "pipeline_steps.h"
#undef STEP
	return n;
}

/* step_time.h counts the table's lines: one id per PIPE_ line */
static struct uscc_step table[STEP_COUNT];
static int table_len;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void fill_table(void)
{
	table_len = fill(table);
}

/* The table is built once (its names come from functions, so it cannot be
 * a static initializer); pthread_once because any thread may ask first. */
bool uscc_pipeline_step(int i, struct uscc_step *out)
{
	pthread_once(&table_once, fill_table);
	if (i < 0 || i >= table_len)
		return false;
	*out = table[i];
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
