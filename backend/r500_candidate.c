/* Candidates of one compile and the choice between them (r500_candidate.h). */
#include "r500_candidate.h"

#include "cg.h"
#include "const_program.h"
#include "ir_pass.h"
#include "r500_cost.h"
#include "step_time.h"

struct r500_candidate r500_candidate_first(const struct r500_compile_options *opts)
{
	bool opt = opts->opt_level > 0;
	return (struct r500_candidate){
		.const_program = opt && opts->const_program,
		.hold_waiting = opt && !sw_off(opts->skip, SW_HOLD_WAITING),
		.presub = true,
		.arrays = opt && !sw_off(opts->skip, SW_LOOP_ARRAY),
	};
}

int r500_candidate_ir_variant(const struct r500_candidate *c)
{
	return c->keep_loops + 2 * c->legalize;
}

int r500_candidate_opt_level(const struct r500_candidate *c, int level)
{
	return c->legalize && level < 2 ? 2 : level;
}

/* f's uniform-only work split off: the pixel program in *pixel (a copy of
 * f), the constant program in *cp (NULL: nothing moved).  False with a
 * diagnostic. */
static bool split_constant_program(struct ir_func *f, struct ir_func **pixel,
				   struct ir_func **cp, struct diag_sink *diag)
{
	bool failed = false;
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, diag);
	int64_t t = step_time_start();
	struct ir_func *g = ir_func_clone(f);
	*cp = g ? ir_split_constant_program(g, &ctx, &failed) : NULL;
	step_time_add(STEP_SPLIT_CONSTANT_PROGRAM, t);
	if (!g || failed) {
		if (!ctx.failed) /* else the invalid step said so */
			diag_error(diag, (struct src_loc){ 0 },
				   "out of memory splitting the constant program");
		return false;
	}
#ifndef NDEBUG
	if (*cp && !ir_validate(*cp, diag))
		return false;
#endif
	*pixel = g;
	return true;
}

/* r500_compile_candidate, from *early's state where it fits (and
 * keeping its own there where not); early may be NULL. */
static struct r500_program *compile_candidate(struct r500_ir_source *src,
					      const struct r500_candidate *c,
					      const struct r500_compile_options *opts,
					      struct arena *arena, struct diag_sink *diag,
					      struct r500_compile_report *rep,
					      struct cg_early *early)
{
	struct r500_compile_report ignored;
	if (!rep)
		rep = &ignored;
	*rep = (struct r500_compile_report){ 0 };
	struct ir_func *f = src->ir_for(src->ud, c);
	if (!f)
		return NULL;
	if (f->stage != IR_STAGE_FRAGMENT) {
		diag_error(diag, (struct src_loc){ 0 }, "only fragment shaders compile to R500 code");
		return NULL;
	}
	struct r500_compile_options o = *opts;
	o.opt_level = r500_candidate_opt_level(c, o.opt_level);
	if (c->const_program) {
		int k = r500_candidate_ir_variant(c);
		if (!src->pixel[k] && !split_constant_program(f, &src->pixel[k], &src->cp[k], diag))
			return NULL;
		f = src->pixel[k];
		o.const_prog = src->cp[k];
	}
	struct cg_ctx *cg = cg_run_stages(f, &o, c, arena, diag, rep, early);
	if (!cg || diag_failed(diag) || arena_failed(arena))
		return NULL;
	return cg->prog;
}

struct r500_program *r500_compile_candidate(struct r500_ir_source *src,
					    const struct r500_candidate *c,
					    const struct r500_compile_options *opts,
					    struct arena *arena, struct diag_sink *diag,
					    struct r500_compile_report *rep)
{
	return compile_candidate(src, c, opts, arena, diag, rep, NULL);
}

/* One compile of the search: its candidate, program and report. */
struct tried {
	struct r500_candidate c;
	struct r500_program *p;
	struct r500_compile_report rep;
};

/* t in *best if its program costs less (the one compare of the search). */
static void keep_cheaper(const struct tried *t, struct tried *best)
{
	struct r500_cost a = r500_program_cost(t->p), b = r500_program_cost(best->p);
	if (r500_cost_better(&a, &b))
		*best = *t;
}

struct search {
	struct r500_ir_source *src;
	const struct r500_compile_options *opts; /* dumps off */
	struct arena *arena;
	struct diag_sink *diag;
	struct diag_sink fresh;                  /* *diag before the search */
	struct cg_early early;                   /* the last compile's state before presub */
};

/* Compiles t->c with diagnostics in s->diag. */
static bool compile(struct search *s, struct tried *t)
{
	t->p = compile_candidate(s->src, &t->c, s->opts, s->arena, s->diag, &t->rep, &s->early);
	return t->p != NULL;
}

/* Compiles alternative c quietly (diagnostics of its own, dropped) and
 * keeps it in *best if it costs less. */
static void try_alternative(struct search *s, struct r500_candidate c, struct tried *best)
{
	struct diag_sink kept = *s->diag;
	diag_init(s->diag, s->arena);
	struct tried t = { .c = c };
	bool ok = compile(s, &t) && !arena_failed(s->arena);
	*s->diag = kept;
	if (ok)
		keep_cheaper(&t, best);
}

/* t->c as it is, else with local arrays as selects where they did not fit
 * (the diagnostics of the compile that stands). */
static bool compile_fitting(struct search *s, struct tried *t)
{
	struct diag_sink mark = *s->diag;
	if (compile(s, t) || !t->rep.arrays_over || arena_failed(s->arena))
		return t->p != NULL;
	bool too_long = t->rep.too_long;
	diag_rewind(s->diag, &mark);
	t->c.arrays = false;
	compile(s, t);
	t->rep.too_long |= too_long;
	return t->p != NULL;
}

/* The first candidate that fits: as given, else with every loop kept
 * where the unrolled program was too long (the first attempt's errors
 * stand if that fails too). */
static bool first_fit(struct search *s, struct tried *t)
{
	struct diag_sink fresh = *s->diag;
	struct tried first = *t;
	if (compile_fitting(s, &first) || !first.rep.too_long || t->c.keep_loops ||
	    arena_failed(s->arena)) {
		*t = first;
		return t->p != NULL;
	}
	struct diag_sink failed = *s->diag;
	*s->diag = fresh;
	t->c.keep_loops = true;
	if (compile_fitting(s, t))
		return true;
	*s->diag = failed;
	*t = first;
	return false;
}

/* -O0's program did not fit: the candidate -O2 starts from, legalized,
 * in t (first_fit's fallbacks too), with a warning instead of the errors;
 * false (the errors stand) when that does not fit either. */
static bool legalize(struct search *s, struct tried *t)
{
	if (s->opts->opt_level > 0 || !t->rep.over_limit || t->c.legalize || arena_failed(s->arena))
		return false;
	struct r500_compile_options o2 = *s->opts;
	o2.opt_level = 2;
	struct tried l = { .c = r500_candidate_first(&o2) };
	l.c.legalize = true;
	struct diag_sink failed = *s->diag;
	diag_rewind(s->diag, &s->fresh);
	if (!first_fit(s, &l)) {
		*s->diag = failed;
		return false;
	}
	diag_warning(s->diag, (struct src_loc){ 0 },
		     "the unoptimized program does not fit the R500 (more instruction slots or "
		     "temporaries than it has): compiled with the optimizations of -O2");
	*t = l;
	return true;
}

/* The scheduler under a pressure limit (schedule.c), as a share of the
 * live lanes the best program's schedule peaked at: a half, and where
 * that is kept a quarter (trying three quarters where a half lost saved
 * 1 temp more over the corpora for a compile more each time).  Tried
 * only where the best program takes PRESSURE_MIN_TEMPS or more (on the
 * corpora 108 of 1713 programs, holding 37 of the 45 temporaries the
 * limit saved from 4 up; from 4 it cost 13 % of the median real-world
 * compile inside r300, 40 % of the total). */
enum { PRESSURE_MIN_TEMPS = 7 };

static bool try_pressure_share(struct search *s, struct tried *best, int peak, int percent)
{
	struct r500_candidate c = best->c;
	c.pressure_limit = peak * percent / 100 > 1 ? peak * percent / 100 : 1;
	struct r500_program *before = best->p;
	try_alternative(s, c, best);
	return best->p != before;
}

static void try_pressure(struct search *s, struct tried *best)
{
	int peak = best->rep.peak_lanes;
	if (r500_candidate_opt_level(&best->c, s->opts->opt_level) < 1 ||
	    sw_off(s->opts->skip, SW_PRESSURE) || best->p->stats.temps < PRESSURE_MIN_TEMPS ||
	    best->c.pressure_limit)
		return;
	bool kept = try_pressure_share(s, best, peak, 50);
	if (kept)
		try_pressure_share(s, best, peak, 25);
}

/* The backend's alternatives of best, each one setting changed from the
 * best so far: without holding readers back where some were, without
 * presubtracts where NOPs came, with selects where arrays took
 * temporaries. */
static void try_backend_alternatives(struct search *s, struct tried *best)
{
	struct r500_compile_report first = best->rep;
	struct r500_candidate c = best->c;
	if (first.held_partner) {
		c.hold_waiting = false;
		try_alternative(s, c, best);
	}
	if (first.presub_nops) {
		c = best->c;
		c.presub = false;
		try_alternative(s, c, best);
	}
	if (best->c.arrays && best->rep.used_arrays) {
		c = best->c;
		c.arrays = false;
		try_alternative(s, c, best);
	}
	try_pressure(s, best);
}

/* r500_compile_best's search, its words unchecked without opts->validate. */
static struct r500_program *search_best(struct r500_ir_source *src,
					const struct r500_compile_options *opts,
					struct arena *arena, struct diag_sink *diag,
					struct r500_candidate *kept)
{
	struct r500_compile_options quiet = *opts;
	quiet.dump = NULL;
	struct search s = { src, &quiet, arena, diag, *diag, { 0 } };
	struct tried best = { .c = r500_candidate_first(opts) };
	if (opts->no_variants) {
		s.opts = opts;
		compile(&s, &best);
		if (kept)
			*kept = best.c;
		return best.p;
	}
	if (!first_fit(&s, &best) && !legalize(&s, &best))
		return NULL;
	try_backend_alternatives(&s, &best);
	if (best.c.const_program && best.p->cp.nouts) {
		/* the pixel program computing everything, with its own alternatives */
		struct r500_compile_options o2 = *opts;
		o2.opt_level = r500_candidate_opt_level(&best.c, opts->opt_level);
		struct r500_candidate plain = r500_candidate_first(&o2);
		plain.keep_loops = best.c.keep_loops;
		plain.legalize = best.c.legalize;
		plain.const_program = false;
		struct diag_sink kept_diag = *diag;
		diag_init(diag, arena);
		struct tried t = { .c = plain };
		if (compile_fitting(&s, &t) && !arena_failed(arena)) {
			try_backend_alternatives(&s, &t);
			keep_cheaper(&t, &best);
		}
		*diag = kept_diag;
	}
	if (kept)
		*kept = best.c;
	if (!opts->dump)
		return best.p;
	/* again, to show the kept program's forms */
	return r500_compile_candidate(src, &best.c, opts, arena, diag, NULL);
}

struct r500_program *r500_compile_best(struct r500_ir_source *src,
				       const struct r500_compile_options *opts, struct arena *arena,
				       struct diag_sink *diag, struct r500_candidate *kept)
{
	struct r500_program *p = search_best(src, opts, arena, diag, kept);
	if (p && !opts->validate && !cg_program_words_valid(p, diag))
		return NULL;
	return p;
}
