/* The backend's pipeline: a table of stages run in order (Mesa r300 style),
 * each in its own file.  After register allocation the assignment is
 * re-checked by simulation (it does not trust liveness); after the
 * hazards, every instruction and the program go through the validator. */
#include "r500_compile.h"

#include <stdio.h>
#include <string.h>

#include "cg.h"
#include "name_list.h"
#include "r500_codec.h"
#include "r500_cp.h"

static bool stage_check_regs(struct cg_ctx *cg)
{
	char why[256];
	if (cg_regalloc_check(cg, why, sizeof why))
		return true;
	return cg_error(cg, (struct src_loc){ 0 }, "internal error: register assignment: %s", why);
}

static bool stage_validate(struct cg_ctx *cg)
{
	char why[256];
	for (int i = 0; i < cg->ninst; i++)
		if (!r500_inst_validate(&cg->code[i], why, sizeof why))
			return cg_error(cg, (struct src_loc){ 0 }, "internal error: instruction %d "
					"is invalid: %s", i, why);
	if (!r500_program_validate(cg->code, cg->ninst, why, sizeof why))
		return cg_error(cg, (struct src_loc){ 0 }, "internal error: program is invalid: %s",
				why);
	return true;
}

/* The stage table.  Columns: the name (--skip, --dump-backend=all); the
 * stage; whether it only optimizes (off at -O0 and when skipped: the
 * program stays correct without it); and what it makes, so that the
 * validator knows what to check after it (cg_validate). */
struct cg_stage {
	const char *name;
	bool (*run)(struct cg_ctx *cg);
	bool optional;
	enum cg_phase gives;
};

static const struct cg_stage stages[] = {
	{ "isel", cg_isel, false, CG_PHASE_OPS },
	{ "limits-early", cg_limits_early, false, CG_PHASE_OPS },
	{ "copy-fold", cg_copy_fold, true, CG_PHASE_OPS },
	{ "copy-bypass", cg_copy_bypass, true, CG_PHASE_OPS },
	{ "merge", cg_merge, true, CG_PHASE_OPS },
	{ "presub", cg_presub, true, CG_PHASE_OPS },
	{ "schedule", cg_schedule, false, CG_PHASE_SLOTS },
	{ "sink", cg_sink_constants, true, CG_PHASE_SLOTS },
	{ "coalesce", cg_coalesce, true, CG_PHASE_SLOTS },
	{ "regalloc", cg_regalloc, false, CG_PHASE_REGS },
	{ "check-regs", stage_check_regs, false, CG_PHASE_REGS },
	{ "self-copies", cg_self_copies, true, CG_PHASE_REGS },
	{ "emit", cg_emit, false, CG_PHASE_CODE },
	{ "hazards", cg_hazards, false, CG_PHASE_CODE },
	{ "limits", cg_limits, false, CG_PHASE_CODE },
	{ "validate", stage_validate, false, CG_PHASE_CODE },
	{ "finalize", cg_finalize, false, CG_PHASE_CODE },
	{ "const-program", cg_const_program, false, CG_PHASE_CODE },
};
enum { NSTAGES = sizeof stages / sizeof stages[0] };

/* Optimizations made inside isel and the scheduler, switched like
 * optional stages (cg_opt_enabled). */
static const char *const isel_opts[] = { "mad-fusion", "omod", "kill-compare", "loop-rel",
					 "loop-array", "phi-share",
					 "hold-waiting" };
enum { NISEL_OPTS = sizeof isel_opts / sizeof isel_opts[0] };

const char *r500_stage_name(int i)
{
	if (i >= 0 && i < NSTAGES)
		return stages[i].name;
	if (i >= NSTAGES && i < NSTAGES + NISEL_OPTS)
		return isel_opts[i - NSTAGES];
	return NULL;
}

bool r500_stage_optional_at(int i)
{
	return (i >= 0 && i < NSTAGES && stages[i].optional) ||
	       (i >= NSTAGES && i < NSTAGES + NISEL_OPTS);
}

enum r500_stage_kind r500_stage_kind(const char *name)
{
	for (int i = 0; name && r500_stage_name(i); i++)
		if (name_list_has(r500_stage_name(i), name))
			return r500_stage_optional_at(i) ? R500_STAGE_OPTIONAL : R500_STAGE_REQUIRED;
	return R500_STAGE_UNKNOWN;
}

bool cg_opt_enabled(const struct cg_ctx *cg, const char *name)
{
	return cg->opts && cg->opts->opt_level > 0 && !name_list_has(cg->opts->skip, name);
}

static bool stage_runs(const struct cg_ctx *cg, const struct cg_stage *st)
{
	return !st->optional || cg_opt_enabled(cg, st->name);
}

static bool check_stage(struct cg_ctx *cg, const struct cg_stage *st)
{
	char why[256];
	if (cg_validate(cg, st->gives, why, sizeof why))
		return true;
	return cg_error(cg, (struct src_loc){ 0 }, "internal error: backend form invalid after "
			"stage '%s': %s", st->name, why);
}

/* The stages in order on a new context; NULL with diagnostics, and then
 * *arrays_over (when given) says whether the compile failed for want of
 * slots or temporaries with local arrays planned (loop_array.c). */
static struct cg_ctx *run_stages_why(struct ir_func *f, const struct r500_compile_options *opts,
				     bool hold_waiting_partners, struct arena *arena,
				     struct diag_sink *diag, bool *arrays_over)
{
	struct cg_ctx *cg = arena_alloc(arena, sizeof *cg);
	if (!cg)
		return NULL;
	cg->arena = arena;
	cg->diag = diag;
	cg->func = f;
	cg->opts = opts;
	cg->hold_waiting_partners = hold_waiting_partners;
	for (int i = 0; i < NSTAGES; i++) {
		const struct cg_stage *st = &stages[i];
		if (!stage_runs(cg, st))
			continue;
		bool ok = st->run(cg) && !cg->failed && !arena_failed(arena);
		if (ok && cg->opts->validate)
			ok = check_stage(cg, st);
		if (!ok) {
			if (arena_failed(arena) && !cg->failed)
				cg_error(cg, (struct src_loc){ 0 }, "out of memory in backend stage %s",
					 st->name);
			if (arrays_over)
				*arrays_over = cg->narrays > 0 && cg->over_limit;
			return NULL;
		}
		if (cg->opts->dump)
			cg->opts->dump(cg->opts->dump_ud, st->name, cg);
	}
	return cg->prog ? cg : NULL;
}

static struct cg_ctx *run_stages(struct ir_func *f, const struct r500_compile_options *opts,
				 bool hold_waiting_partners, struct arena *arena,
				 struct diag_sink *diag)
{
	return run_stages_why(f, opts, hold_waiting_partners, arena, diag, NULL);
}

/* Three choices the stages make blind are checked by compiling again:
 *  - whether a lookup's reader may share a slot with an op that does not
 *    wait (schedule.c, hold-waiting): the wait may come anyway, from a
 *    register reuse that allocation makes later;
 *  - whether a presubtract pays (presub.c): its reader cannot follow the
 *    slot that writes the presubtract's sources without a NOP;
 *  - whether local arrays pay in consecutive temporaries (loop_array.c):
 *    a copied array costs copies before its loop, and the temporaries in
 *    a row may not fit where the elements alone did.  A compile with
 *    arrays is compared with one without, and a compile that fails is
 *    tried again without them.
 * A compile that held partners back is compared with one that did not,
 * and a program with NOPs with one without presubtracts; the cheaper
 * program is kept (r500_program_weighted_cost, then fewer instructions;
 * a full tie keeps the first).
 * The other compiles have a diagnostics sink of their own; the stages'
 * dumps are those of the program kept. */
struct variant {
	bool hold;
	const struct r500_compile_options *opts;
};

/* Compiles variant v and keeps it in *best if it costs less. */
static void try_variant(struct ir_func *f, struct variant v, struct arena *arena,
			struct diag_sink *diag, struct cg_ctx **best, struct variant *kept_v)
{
	struct diag_sink kept = *diag;
	diag_init(diag, arena);
	struct cg_ctx *other = run_stages(f, v.opts, v.hold, arena, diag);
	bool oom = arena_failed(arena);
	*diag = kept;
	long la, lb, a = 0, b = 0;
	if (other && !oom) {
		a = r500_program_weighted_cost((*best)->prog, &la);
		b = r500_program_weighted_cost(other->prog, &lb);
	}
	if (other && !oom && (b < a || (b == a && other->prog->ninst < (*best)->prog->ninst))) {
		*best = other;
		*kept_v = v;
	}
}

static struct cg_ctx *run_best(struct ir_func *f, const struct r500_compile_options *opts,
			       struct arena *arena, struct diag_sink *diag)
{
	struct r500_compile_options quiet = *opts, no_presub, no_array;
	quiet.dump = NULL;
	struct variant v = { opts->opt_level > 0 && !name_list_has(opts->skip, "hold-waiting"),
			     &quiet };
	if (opts->no_variants)
		return run_stages(f, opts, v.hold, arena, diag);
	struct diag_sink mark;
	if (diag)
		mark = *diag;
	bool arrays = opts->opt_level > 0 && !name_list_has(opts->skip, "loop-array");
	bool arrays_over = false;
	struct cg_ctx *cg = run_stages_why(f, &quiet, v.hold, arena, diag, &arrays_over);
	if (!cg && diag && arrays && arrays_over && !arena_failed(arena)) {
		no_array = quiet;
		no_array.skip = name_list_add(arena, opts->skip, "loop-array");
		if (no_array.skip) {
			diag_rewind(diag, &mark);
			cg = run_stages(f, &no_array, v.hold, arena, diag);
			v.opts = &no_array;
			arrays = false;
		}
	}
	if (cg && diag) {
		quiet.too_long = NULL;
		no_presub = quiet;
		bool held = cg->held_waiting_partner;
		bool presub_nops = cg->nops_inserted > 0 && cg_opt_enabled(cg, "presub");
		if (held)
			try_variant(f, (struct variant){ false, &quiet }, arena, diag, &cg, &v);
		no_presub.skip = presub_nops ? name_list_add(arena, opts->skip, "presub") : NULL;
		if (no_presub.skip)
			try_variant(f, (struct variant){ v.hold, &no_presub }, arena, diag, &cg,
				    &v);
		if (arrays && cg->narrays > 0) {
			no_array = *v.opts;
			no_array.skip = name_list_add(arena, v.opts->skip, "loop-array");
			if (no_array.skip)
				try_variant(f, (struct variant){ v.hold, &no_array }, arena, diag,
					    &cg, &v);
		}
	}
	if (cg && opts->dump) { /* again, to show the kept program's forms */
		struct r500_compile_options shown = *v.opts;
		shown.dump = opts->dump;
		shown.dump_ud = opts->dump_ud;
		shown.too_long = opts->too_long;
		cg = run_stages(f, &shown, v.hold, arena, diag);
	}
	return cg;
}

struct r500_program *r500_compile(struct ir_func *f, const struct r500_compile_options *opts,
				  struct arena *arena, struct diag_sink *diag)
{
	if (!f || !arena)
		return NULL;
	static const struct r500_compile_options defaults = { .opt_level = 2 };
	if (!opts)
		opts = &defaults;
	if (f->stage != IR_STAGE_FRAGMENT) {
		if (diag)
			diag_error(diag, (struct src_loc){ 0 }, "only fragment shaders compile to "
				   "R500 code");
		return NULL;
	}
	struct cg_ctx *cg = run_best(f, opts, arena, diag);
	return cg ? cg->prog : NULL;
}
