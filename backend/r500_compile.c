/* The backend's pipeline: a table of stages run in order (Mesa r300 style),
 * each in its own file.  Where stages are validated (debug builds,
 * tests), the assignment is re-checked by simulation after register
 * allocation (it does not trust liveness), and every instruction and the
 * program go through the validator after the hazards. */
#include "r500_compile.h"

#include <stdio.h>
#include <string.h>

#include "cg.h"
#include "r500_codec.h"
#include "r500_candidate.h"
#include "r500_cp.h"
#include "step_time.h"

static bool cg_stage_check_regs(struct cg_ctx *cg)
{
	char why[256];
	if (cg_regalloc_check(cg, why, sizeof why))
		return true;
	return cg_error(cg, (struct src_loc){ 0 }, "internal error: register assignment: %s", why);
}

/* Every word against the field table and the coupling rules, then the
 * program's rules (r500_program_validate does both: each instruction was
 * validated twice before, 7 % of a median TGSI compile); false with the
 * first fault in why. */
static bool words_valid(const struct r500_inst *code, int n, char *why, size_t len)
{
	char fault[256];
	if (!r500_program_validate(code, n, fault, sizeof fault)) {
		snprintf(why, len, "program is invalid: %s", fault);
		return false;
	}
	return true;
}

static bool cg_stage_validate(struct cg_ctx *cg)
{
	char why[300];
	if (words_valid(cg->code, cg->ninst, why, sizeof why))
		return true;
	return cg_error(cg, (struct src_loc){ 0 }, "internal error: %s", why);
}

bool cg_program_words_valid(const struct r500_program *p, struct diag_sink *diag)
{
	char why[300];
	if (words_valid(p->code, p->ninst, why, sizeof why))
		return true;
	diag_error(diag, (struct src_loc){ 0 }, "internal error: %s", why);
	return false;
}

/* The stage table, from util/pipeline.def.  Columns: the name
 * (--dump-backend=all); the stage; the switch of a stage that only
 * optimizes (off at -O0 and when skipped: the program stays correct
 * without it), NO_SWITCH for one every program needs; and what it makes,
 * so that the validator knows what to check after it (cg_validate). */
enum { NO_SWITCH = -1, SW_NONE = NO_SWITCH };
struct cg_stage {
	const char *name;
	bool (*run)(struct cg_ctx *cg);
	int sw;
	enum cg_phase gives;
	enum step_id step; /* for step_time.h */
};

static const struct cg_stage stages[] = {
#define PIPE_BACKEND(name, fn, sw, phase) { #name, fn, SW_##sw, phase, STEP_BE_##fn },
#include "pipeline_steps.h"
};
enum { NSTAGES = sizeof stages / sizeof stages[0] };
/* Each stage's index in the table, by its function: STAGE_AT_cg_presub. */
enum {
#define PIPE_BACKEND(name, fn, sw, phase) STAGE_AT_##fn,
#include "pipeline_steps.h"
};

const char *r500_stage_name(int i)
{
	return i >= 0 && i < NSTAGES ? stages[i].name : NULL;
}

bool cg_opt_enabled(const struct cg_ctx *cg, enum sw_id sw)
{
	return cg->opts && cg->opts->opt_level > 0 && !sw_off(cg->off, sw);
}

/* The checking stages only where every stage is validated (debug
 * builds, tests): otherwise r500_compile_best validates the one program
 * it keeps, not each candidate's (it walked the field table for every
 * word of every candidate: 3-11 % of a compile), and the register
 * assignment is not simulated again (1-2 % of a real-world compile;
 * the judges run the programs). */
static bool stage_runs(const struct cg_ctx *cg, const struct cg_stage *st)
{
	if ((st->run == cg_stage_validate || st->run == cg_stage_check_regs) &&
	    !cg->opts->validate)
		return false;
	return st->sw == NO_SWITCH || cg_opt_enabled(cg, (enum sw_id)st->sw);
}

static bool check_stage(struct cg_ctx *cg, const struct cg_stage *st)
{
	char why[256];
	if (cg_validate(cg, st->gives, why, sizeof why))
		return true;
	return cg_error(cg, (struct src_loc){ 0 }, "internal error: backend form invalid after "
			"stage '%s': %s", st->name, why);
}

/* The first stage a candidate's presubtract or scheduler choice changes:
 * the stages before it make the same state for such candidates. */
enum { FIRST_CHOICE_STAGE = STAGE_AT_cg_presub };

/* A copy of cg that runs without changing it: the arrays the stages
 * from presub on write (ops, vregs; slots and code they make new) are
 * copied, those they only read are shared.  NULL out of memory. */
static struct cg_ctx *copy_early(const struct cg_ctx *cg, struct arena *arena)
{
	/* not zeroed: every byte is copied */
	struct cg_ctx *c = arena_alloc_unzeroed(arena, sizeof *c);
	struct cg_op *ops = arena_alloc_unzeroed(arena, sizeof *ops * (size_t)(cg->nops + 1));
	struct cg_vreg *vregs = arena_alloc_unzeroed(arena,
						     sizeof *vregs * (size_t)(cg->nvregs + 1));
	if (!c || !ops || !vregs || cg->nslots || cg->ninst || cg->live || cg->copy_of)
		return NULL;
	*c = *cg;
	/* an empty array may be NULL, which memcpy may not be given */
	if (cg->nops)
		memcpy(ops, cg->ops, sizeof *ops * (size_t)cg->nops);
	if (cg->nvregs)
		memcpy(vregs, cg->vregs, sizeof *vregs * (size_t)cg->nvregs);
	c->ops = ops;
	c->vregs = vregs;
	c->cap_ops = cg->nops;
	c->cap_vregs = cg->nvregs;
	return c;
}

/* Whether early was made for f with the options opts gives (the choices
 * of the candidate set apart: presub and the scheduler's). */
static bool early_fits(const struct cg_early *early, const struct ir_func *f,
		       const struct r500_compile_options *o, sw_set off)
{
	const struct cg_ctx *e = early->ctx;
	const struct r500_compile_options *eo = &early->opts;
	sw_set choice = sw_bit(SW_PRESUB);
	return e && e->func == f && (e->off & ~choice) == (off & ~choice) &&
	       eo->opt_level == o->opt_level && eo->skip == o->skip &&
	       eo->validate == o->validate && eo->const_prog == o->const_prog &&
	       eo->r300 == o->r300 && !o->dump;
}

/* The stages in order on a new context for candidate c (from a copy of
 * *early where it fits); NULL with diagnostics.  *rep gets what the
 * compile found out (also on failure). */
struct cg_ctx *cg_run_stages(struct ir_func *f, const struct r500_compile_options *opts,
			     const struct r500_candidate *c, struct arena *arena,
			     struct diag_sink *diag, struct r500_compile_report *rep,
			     struct cg_early *early)
{
	*rep = (struct r500_compile_report){ 0 };
	sw_set off = opts->skip | (c->presub ? 0 : sw_bit(SW_PRESUB)) |
		     (c->arrays ? 0 : sw_bit(SW_LOOP_ARRAY));
	int choice = FIRST_CHOICE_STAGE, first = 0;
	struct cg_ctx *cg;
	if (early && early_fits(early, f, opts, off)) {
		cg = copy_early(early->ctx, arena);
		first = choice;
	} else {
		cg = arena_alloc(arena, sizeof *cg);
		if (cg)
			*cg = (struct cg_ctx){ .func = f };
	}
	if (!cg)
		return NULL;
	cg->arena = arena;
	cg->diag = diag;
	cg->opts = opts;
	cg->off = off;
	cg->hold_waiting_partners = c->hold_waiting;
	cg->pressure_limit = c->pressure_limit;
	bool ok = true;
	for (int i = first; ok && i < NSTAGES; i++) {
		const struct cg_stage *st = &stages[i];
		if (early && i == choice && first != choice && !opts->dump) {
			struct cg_ctx *kept = copy_early(cg, arena);
			if (kept)
				*early = (struct cg_early){ kept, *opts };
		}
		if (!stage_runs(cg, st))
			continue;
		int64_t t = step_time_start();
		struct ra *live = cg->live;
		ok = st->run(cg) && !cg->failed && !arena_failed(arena);
		if (cg->live == live) /* not made by this stage: it may be stale */
			cg->live = NULL;
		step_time_add(st->step, t);
		if (ok && cg->opts->validate)
			ok = check_stage(cg, st);
		if (!ok && arena_failed(arena) && !cg->failed)
			cg_error(cg, (struct src_loc){ 0 }, "out of memory in backend stage %s",
				 st->name);
		if (ok && cg->opts->dump)
			cg->opts->dump(cg->opts->dump_ud, st->name, cg);
	}
	rep->too_long = cg->too_long && f->unrolled_loops > 0;
	rep->arrays_over = !ok && cg->narrays > 0 && cg->over_limit;
	rep->held_partner = cg->held_waiting_partner;
	rep->presub_nops = cg->nops_inserted > 0 && cg_opt_enabled(cg, SW_PRESUB);
	rep->used_arrays = cg->narrays > 0;
	rep->over_limit = !ok && cg->over_limit;
	rep->peak_lanes = cg->peak_lanes;
	return ok && cg->prog ? cg : NULL;
}

/* A source of one function (r500_compile's): no variant with loops kept,
 * none legalized. */
static struct ir_func *one_function(void *ud, const struct r500_candidate *c)
{
	return r500_candidate_ir_variant(c) ? NULL : ud;
}

struct r500_program *r500_compile(struct ir_func *f, const struct r500_compile_options *opts,
				  struct arena *arena, struct diag_sink *diag)
{
	if (!f || !arena)
		return NULL;
	static const struct r500_compile_options defaults = { .opt_level = 2 };
	if (!opts)
		opts = &defaults;
	struct r500_ir_source src = { one_function, f, { 0 }, { 0 } };
	return r500_compile_best(&src, opts, arena, diag, NULL);
}
