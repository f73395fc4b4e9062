/* The frontend's entry points (glsl.h): preprocess, parse, check, lower. */
#include "glsl.h"

#include <string.h>

#include "lower.h"
#include "parse.h"
#include "pp.h"
#include "sema.h"
#include "step_time.h"

static int diag_cmp(const void *a, const void *b)
{
	const struct diag *x = *(const struct diag *const *)a, *y = *(const struct diag *const *)b;
	if (x->loc.line != y->loc.line)
		return x->loc.line < y->loc.line ? -1 : 1;
	if (x->loc.col != y->loc.col)
		return x->loc.col < y->loc.col ? -1 : 1;
	return 0;
}

/* The stages report in their own order (preprocessor, parser, checker);
 * the user reads them in source order.  Sorts the diagnostics this call
 * added (those after `before`), stable, by line and column. */
static void diag_sort_since(struct diag_sink *diag, struct diag *before)
{
	struct diag *first = before ? before->next : diag->first;
	int n = 0;
	for (struct diag *d = first; d; d = d->next)
		n++;
	if (n < 2)
		return;
	struct diag **v = arena_alloc(diag->arena, sizeof *v * (size_t)n);
	if (!v)
		return;
	n = 0;
	for (struct diag *d = first; d; d = d->next)
		v[n++] = d;
	/* insertion sort: stable, and the lists are short */
	for (int i = 1; i < n; i++) {
		struct diag *x = v[i];
		int j = i - 1;
		for (; j >= 0 && diag_cmp(&v[j], &x) > 0; j--)
			v[j + 1] = v[j];
		v[j + 1] = x;
		if (i > 2000)
			break; /* hostile input: keep the rest as reported */
	}
	for (int i = 0; i + 1 < n; i++)
		v[i]->next = v[i + 1];
	v[n - 1]->next = NULL;
	if (before)
		before->next = v[0];
	else
		diag->first = v[0];
	diag->last = v[n - 1];
}

static void fe_init(struct fe_ctx *fe, const char *source, const char *filename,
		    const struct glsl_options *opts, struct arena *arena, struct diag_sink *diag)
{
	memset(fe, 0, sizeof *fe);
	fe->arena = arena;
	fe->diag = diag;
	fe->file = filename ? arena_strdup(arena, filename) : "<source>";
	fe->stage = opts ? opts->stage : GLSL_STAGE_FRAGMENT;
	fe->version = 110;
	if (opts && opts->limits)
		fe->limits = *opts->limits;
	else
		limits_default(&fe->limits);
	diag_add_source(diag, fe->file, source ? source : "");
}

char *glsl_preprocess(const char *source, const char *filename, const struct glsl_options *opts,
		      struct arena *arena, struct diag_sink *diag)
{
	struct fe_ctx fe;
	fe_init(&fe, source, filename, opts, arena, diag);
	struct pp_output out;
	if (!pp_run(&fe, source, opts, &out))
		return NULL;
	return out.text;
}

/* Preprocesses, parses and checks; false on errors. */
static bool front(struct fe_ctx *fe, const char *source, const struct glsl_options *opts,
		  struct sema_program *prog)
{
	struct pp_output out;
	memset(prog, 0, sizeof *prog);
	int64_t t = step_time_start();
	bool preprocessed = pp_run(fe, source, opts, &out);
	step_time_add(STEP_FE_preprocess, t);
	if (!preprocessed)
		return false;
	struct parse_ctx pc;
	memset(&pc, 0, sizeof pc);
	pc.fe = fe;
	pc.pp = &out;
	/* after syntax errors (the parser recovers at the next ';') the
	 * checker still runs, but stays quiet about undeclared names: those
	 * are mostly the declarations the syntax errors dropped */
	t = step_time_start();
	bool parsed = parse_unit(&pc);
	step_time_add(STEP_FE_parse, t);
	if (pc.over_limit)
		return false; /* the parse stopped early: no checks on a torn tree */
	fe->after_syntax_errors = !parsed;
	t = step_time_start();
	bool checked = sema_check(fe, pc.unit.first, prog);
	step_time_add(STEP_FE_check, t);
	return parsed && checked;
}

bool glsl_check(const char *source, const char *filename, const struct glsl_options *opts,
		struct arena *arena, struct diag_sink *diag)
{
	struct fe_ctx fe;
	fe_init(&fe, source, filename, opts, arena, diag);
	struct sema_program prog;
	struct diag *before = diag->last;
	bool ok = front(&fe, source, opts, &prog);
	diag_sort_since(diag, before);
	return ok;
}

struct ir_func *glsl_to_ir(const char *source, const char *filename,
			   const struct glsl_options *opts, struct arena *arena,
			   struct diag_sink *diag)
{
	struct fe_ctx fe;
	fe_init(&fe, source, filename, opts, arena, diag);
	struct sema_program prog;
	struct diag *before = diag->last;
	struct ir_func *f = NULL;
	if (front(&fe, source, opts, &prog)) {
		int64_t t = step_time_start();
		f = lower_program(&fe, &prog);
		step_time_add(STEP_FE_lower, t);
	}
	diag_sort_since(diag, before);
	glsl_apply_shadow_state(f, opts);
	return f;
}

void glsl_apply_shadow_state(struct ir_func *f, const struct glsl_options *opts)
{
	for (int i = 0; f && opts && opts->shadow && i < f->nsamplers; i++) {
		struct ir_sampler *s = &f->samplers[i];
		if (s->unit >= 0 && s->unit < GLSL_SHADOW_UNITS) {
			s->compare = opts->shadow[s->unit].compare;
			s->depth_mode = opts->shadow[s->unit].depth_mode;
		}
	}
}
