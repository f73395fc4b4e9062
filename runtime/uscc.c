/* libuscc's compile entry: source -> frontend -> IR passes -> backend ->
 * container, or one of the tool outputs (-E, --check, --dump-ir, -S).
 * Everything of one call lives in one arena from the caller's allocator;
 * only the result is copied out. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "container.h"
#include "diag.h"
#include "glsl.h"
#include "ir_pass.h"
#include "const_program.h"
#include "r500_compile.h"
#include "name_list.h"
#include "uscc_internal.h"
#include "uscc_optimize.h"

const char *uscc_version(void)
{
	return USCC_VERSION_STRING;
}

static const char *const status_strings[] = {
	[USCC_OK] = "success",
	[USCC_SHADER_ERROR] = "invalid shader or does not fit the hardware",
	[USCC_USAGE_ERROR] = "usage error",
	[USCC_CORRUPT_CONTAINER] = "corrupt container",
	[USCC_IO_ERROR] = "I/O error",
	[USCC_OUT_OF_MEMORY] = "out of memory",
	[USCC_NOT_FOUND] = "not found",
};

const char *uscc_status_string(enum uscc_status s)
{
	if ((unsigned)s >= sizeof status_strings / sizeof *status_strings)
		return "unknown status";
	return status_strings[s];
}

/* ---- results: one allocation holding header, data, diagnostics ---- */

struct uscc_result {
	struct mem_allocator alloc;
	size_t total;
	enum uscc_status status;
	const char *data;
	size_t size;
	const char *diag;
	bool has_stats;
	struct uscc_stats stats;
	const char *stats_json;
};

struct uscc_result *uscc_result_make(const struct mem_allocator *alloc, enum uscc_status status,
				     const void *data, size_t size, const char *diag,
				     const struct uscc_stats *stats, const char *stats_json)
{
	if (!diag)
		diag = "";
	size_t dlen = strlen(diag), jlen = stats_json ? strlen(stats_json) : 0;
	size_t total = sizeof(struct uscc_result) + size + 1 + dlen + 1 + jlen + 1;
	struct uscc_result *r = mem_alloc(alloc, total);
	if (!r)
		return NULL;
	memset(r, 0, sizeof *r);
	r->alloc = *alloc;
	r->total = total;
	r->status = status;
	char *p = (char *)(r + 1);
	if (data && size)
		memcpy(p, data, size);
	p[size] = 0;
	r->data = data ? p : NULL;
	r->size = data ? size : 0;
	p += size + 1;
	memcpy(p, diag, dlen + 1);
	r->diag = p;
	p += dlen + 1;
	if (stats) {
		r->has_stats = true;
		r->stats = *stats;
	}
	if (stats_json) {
		memcpy(p, stats_json, jlen + 1);
		r->stats_json = p;
	}
	return r;
}

enum uscc_status uscc_result_status(const struct uscc_result *r)
{
	return r ? r->status : USCC_OUT_OF_MEMORY;
}

const void *uscc_result_data(const struct uscc_result *r, size_t *size)
{
	if (size)
		*size = r && r->data ? r->size : 0;
	return r ? r->data : NULL;
}

const char *uscc_result_diagnostics(const struct uscc_result *r)
{
	return r ? r->diag : "error: out of memory\n";
}

bool uscc_result_stats(const struct uscc_result *r, struct uscc_stats *out)
{
	if (!r || !r->has_stats)
		return false;
	*out = r->stats;
	return true;
}

const char *uscc_result_stats_json(const struct uscc_result *r)
{
	return r ? r->stats_json : NULL;
}

void uscc_result_destroy(struct uscc_result *r)
{
	if (!r)
		return;
	struct mem_allocator a = r->alloc;
	mem_free(&a, r, r->total);
}

/* ---- the pipeline ---- */

struct job {
	const struct uscc_options *o;
	enum uscc_action action;
	struct arena *arena;
	struct diag_sink diag;
	const char *file;
	const char *src;
	/* output */
	const void *data;
	size_t size;
	struct uscc_stats stats;
	bool has_stats;
	char *stats_json;
};

static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static struct src_loc file_loc(const struct job *j)
{
	return (struct src_loc){ j->file, 0, 0 };
}

/* GLSL has no NUL character; report the first one where it is. */
static bool check_no_nul(struct job *j, const char *src, size_t len)
{
	const char *nul = memchr(src, 0, len);
	if (!nul)
		return true;
	struct src_loc loc = { j->file, 1, 1 };
	for (const char *p = src; p < nul; p++) {
		if (*p == '\n') {
			loc.line++;
			loc.col = 1;
		} else {
			loc.col++;
		}
	}
	diag_error(&j->diag, loc, "source contains a NUL character");
	return false;
}

static struct glsl_options frontend_options(const struct uscc_options *o)
{
	return (struct glsl_options){
		.stage = o->stage == USCC_STAGE_VERTEX ? GLSL_STAGE_VERTEX : GLSL_STAGE_FRAGMENT,
		.defines = o->defines, .ndefines = o->ndefines, .limits = &o->limits,
		.shadow = o->shadow };
}

/* The backend's middle form after each stage (--dump-backend=all), or
 * after the last one only. */
struct backend_dump {
	struct ir_dump_text text;
	bool all;
};

static void backend_dump_clear(struct backend_dump *d)
{
	d->text.buf.len = 0;
	d->text.full = false;
}

static void backend_dump(void *ud, const char *stage, const struct cg_ctx *cg)
{
	struct backend_dump *d = ud;
	if (!d->all) /* only the last stage's form is kept */
		backend_dump_clear(d);
	const char *form = cg_print(cg, d->text.buf.arena);
	if (form)
		ir_dump_text_add(&d->text, stage, form);
}

/* The backend on an optimized function: co's options (every stage
 * validated in debug builds), the job's arena and diagnostics. */
static struct r500_program *backend(struct job *j, struct ir_func *f,
				    const struct r500_compile_options *co)
{
	struct r500_compile_options o = *co;
#ifndef NDEBUG
	o.validate = true;
#endif
	struct r500_program *p = r500_compile(f, &o, j->arena, &j->diag);
	if (!p || diag_failed(&j->diag) || arena_failed(j->arena))
		return NULL;
	return p;
}

/* Frontend, passes, backend once, with the passes and stages in `skip`
 * left out; sets *too_long when the program passed the slot limit after
 * some loop was unrolled (without one, keeping loops changes nothing).
 * With a constant program split off, *plain (when not NULL) gets a copy
 * of the optimized function from before the split, for keep_better. */
static struct r500_program *compile_once(struct job *j, struct glsl_options *go,
					 struct backend_dump *dump, const char *skip, bool *too_long,
					 struct ir_func **plain)
{
	struct ir_func *f = glsl_to_ir(j->src, j->file, go, j->arena, &j->diag);
	if (!f || diag_failed(&j->diag) || arena_failed(j->arena))
		return NULL;
	if (!uscc_optimize(f, j->o->opt_level, skip, false, NULL, j->arena, &j->diag) ||
	    diag_failed(&j->diag))
		return NULL;
	struct r500_compile_options co = { .opt_level = j->o->opt_level, .skip = skip,
					   .too_long = too_long };
	if (j->o->opt_level > 0 && !j->o->no_constant_program) {
		bool failed;
		if (plain && !(*plain = ir_func_clone(f))) {
			diag_error(&j->diag, (struct src_loc){ 0 }, "out of memory copying the IR");
			return NULL;
		}
		co.const_prog = ir_split_constant_program(f, &failed);
		if (failed) {
			diag_error(&j->diag, (struct src_loc){ 0 },
				   "out of memory splitting the constant program");
			return NULL;
		}
#ifndef NDEBUG
		if (co.const_prog && !ir_validate(co.const_prog, &j->diag))
			return NULL;
#endif
	}
	if (dump) {
		co.dump = backend_dump;
		co.dump_ud = dump;
	}
	struct r500_program *p = backend(j, f, &co);
	if (too_long && f->unrolled_loops == 0)
		*too_long = false;
	return p;
}

/* The constant program is kept only where it pays: a program that has one
 * is compiled again without it, from the copy of the optimized function
 * made before the split (the same options, a diagnostics sink of its own:
 * the first compile's warnings stand).  The constant program stays when
 * its program is no more costly (r500_program_weighted_cost; a tie goes
 * to fewer instructions) and has no more work inside loops, whose trips
 * the weights only guess.  Moving work can cost the pixel program: a
 * product the backend would have fused into a MAD becomes a constant read
 * that fills an address slot.  A compile that dumps the backend's forms
 * makes no copy (plain is NULL): it keeps the first compile, the one with
 * the constant program, whose forms it shows. */
static struct r500_program *keep_better(struct job *j, const char *skip, struct r500_program *p,
					struct ir_func *plain)
{
	if (!p->cp.nouts || !plain)
		return p;
	struct diag_sink kept = j->diag;
	diag_init(&j->diag, j->arena);
	struct r500_compile_options co = { .opt_level = j->o->opt_level, .skip = skip };
	struct r500_program *q = backend(j, plain, &co);
	bool oom = arena_failed(j->arena);
	j->diag = kept;
	if (!q || oom)
		return p;
	long la, lb;
	long a = r500_program_weighted_cost(p, &la), b = r500_program_weighted_cost(q, &lb);
	return la > lb || b < a || (b == a && q->ninst < p->ninst) ? q : p;
}

/* The options of the compile that keeps every loop (compile_program's
 * retry): the frontend unrolls no `for` and loop_unroll is skipped.  The
 * skip list, NULL when out of memory. */
static const char *kept_loop_options(struct job *j, const struct glsl_options *go,
				     const char *skip, struct glsl_options *keep)
{
	*keep = *go;
	keep->keep_loops = true;
	return name_list_add(j->arena, skip, "loop_unroll");
}

/* Frontend, passes, backend; the program or NULL with diagnostics.  With
 * dump, the backend's middle form is collected there.  Unrolling can make
 * a program too long for the R500 that fits with its loops kept as R500
 * loops: then the compile runs again with no loop unrolled (neither the
 * frontend's `for` unrolling nor loop_unroll), and the first attempt's
 * error stands only if that fails too. */
static struct r500_program *compile_program(struct job *j, struct glsl_options *go,
					    struct backend_dump *dump)
{
	int64_t t0 = now_us();
	const char *skip = uscc_skip_list(j->o, j->arena);
	if (!skip)
		return NULL;
	struct diag_sink fresh = j->diag;
	bool too_long = false;
	struct glsl_options keep;
	struct ir_func *plain = NULL;
	struct ir_func **want_plain = dump ? NULL : &plain;
	struct r500_program *p = compile_once(j, go, dump, skip, &too_long, want_plain);
	if (!p && too_long && !go->keep_loops) {
		const char *rolled = kept_loop_options(j, go, skip, &keep);
		struct diag_sink first = j->diag;
		j->diag = fresh;
		if (dump)
			backend_dump_clear(dump); /* the retry's forms only */
		plain = NULL;
		p = rolled ? compile_once(j, &keep, dump, rolled, NULL, want_plain) : NULL;
		if (!p)
			j->diag = first;
		else
			skip = rolled;
	}
	if (!p)
		return NULL;
	p = keep_better(j, skip, p, plain);
	int64_t us = now_us() - t0;
	p->stats.compile_us = us;
	uscc_stats_from(&j->stats, &p->stats);
	j->has_stats = true;
	j->stats_json = stats_to_json(&p->stats, j->arena);
	if (!j->o->record_time)
		p->stats.compile_us = 0;
	return p;
}

/* An allocator over the job's arena, so container_write's buffer is
 * freed with everything else (and its failure recorded by the arena). */
static void *arena_hook(void *ud, void *ptr, size_t osize, size_t nsize)
{
	if (nsize == 0)
		return NULL;
	return arena_realloc(ud, ptr, osize, nsize);
}

static bool do_compile(struct job *j, struct glsl_options *go)
{
	struct r500_program *p = compile_program(j, go, NULL);
	if (!p)
		return false;
	struct mem_allocator a = { arena_hook, j->arena };
	j->data = container_write(p, &a, &j->size);
	return j->data != NULL;
}

static bool do_assembly(struct job *j, struct glsl_options *go)
{
	struct r500_program *p = compile_program(j, go, NULL);
	if (!p)
		return false;
	j->data = r500_program_listing(p, j->arena);
	return j->data != NULL;
}

static bool do_preprocess(struct job *j, struct glsl_options *go)
{
	j->data = glsl_preprocess(j->src, j->file, go, j->arena, &j->diag);
	return j->data != NULL;
}

static bool do_check(struct job *j, struct glsl_options *go)
{
	j->data = "";
	return glsl_check(j->src, j->file, go, j->arena, &j->diag);
}

/* Whether compile_program would keep this shader's loops (its retry):
 * the program with loops unrolled is too long for the R500.  Compiled
 * once, quietly (diagnostics of its own), to find out. */
static bool compile_keeps_loops(struct job *j, struct glsl_options *go, const char *skip)
{
	struct diag_sink kept = j->diag;
	diag_init(&j->diag, j->arena);
	bool too_long = false;
	struct r500_program *p = compile_once(j, go, NULL, skip, &too_long, NULL);
	j->diag = kept;
	return !p && too_long && !arena_failed(j->arena);
}

/* The optimized IR the compile goes on with: with loops kept where
 * compile_program keeps them, so that --dump-ir shows what -S lists. */
static bool do_dump_ir(struct job *j, struct glsl_options *go)
{
	const char *skip = uscc_skip_list(j->o, j->arena);
	if (!skip)
		return false;
	bool all = j->action == USCC_ACTION_DUMP_IR_ALL;
	char *dump = NULL;
	struct diag_sink fresh = j->diag;
	struct ir_func *f = glsl_to_ir(j->src, j->file, go, j->arena, &j->diag);
	if (!f || diag_failed(&j->diag) ||
	    !uscc_optimize(f, j->o->opt_level, skip, all, &dump, j->arena, &j->diag))
		return false;
	if (f->unrolled_loops > 0 && !go->keep_loops && compile_keeps_loops(j, go, skip)) {
		struct glsl_options keep;
		skip = kept_loop_options(j, go, skip, &keep);
		dump = NULL;
		j->diag = fresh; /* the retry's warnings only, as compile_program */
		f = skip ? glsl_to_ir(j->src, j->file, &keep, j->arena, &j->diag) : NULL;
		if (!f || diag_failed(&j->diag) ||
		    !uscc_optimize(f, j->o->opt_level, skip, all, &dump, j->arena, &j->diag))
			return false;
	}
	if (all && dump && j->o->opt_level > 0 && !j->o->no_constant_program) {
		/* the split the compile makes next (kept only where the pixel
		 * program gets cheaper: -S shows whether it was) */
		bool failed;
		struct ir_func *cp = ir_split_constant_program(f, &failed);
		if (failed)
			return false;
		if (cp) {
			struct ir_dump_text t = { .full = false };
			strbuf_init(&t.buf, j->arena);
			strbuf_puts(&t.buf, dump);
			ir_dump_text_append(&t, "constant_program: the pixel program", f);
			ir_dump_text_append(&t, "constant_program: run before the draw", cp);
			dump = strbuf_text(&t.buf);
		}
	}
	j->data = all ? dump : ir_print(f, j->arena);
	return j->data != NULL;
}

static bool do_dump_backend(struct job *j, struct glsl_options *go)
{
	struct backend_dump d = { .all = j->action == USCC_ACTION_DUMP_BACKEND_ALL };
	strbuf_init(&d.text.buf, j->arena);
	if (!compile_program(j, go, &d))
		return false;
	j->data = strbuf_text(&d.text.buf);
	return j->data != NULL;
}

typedef bool (*action_fn)(struct job *j, struct glsl_options *go);
static const action_fn actions[] = {
	[USCC_ACTION_COMPILE] = do_compile,   [USCC_ACTION_ASSEMBLY] = do_assembly,
	[USCC_ACTION_PREPROCESS] = do_preprocess, [USCC_ACTION_CHECK] = do_check,
	[USCC_ACTION_DUMP_IR] = do_dump_ir,   [USCC_ACTION_DUMP_IR_ALL] = do_dump_ir,
	[USCC_ACTION_DUMP_BACKEND] = do_dump_backend,
	[USCC_ACTION_DUMP_BACKEND_ALL] = do_dump_backend,
};

static enum uscc_status run_job(struct job *j, const char *source, size_t len)
{
	const struct uscc_options *o = j->o;
	if ((unsigned)j->action >= sizeof actions / sizeof *actions) {
		diag_error(&j->diag, file_loc(j), "unknown action %d", (int)j->action);
		return USCC_USAGE_ERROR;
	}
	if (o->stage == USCC_STAGE_VERTEX &&
	    (j->action == USCC_ACTION_COMPILE || j->action == USCC_ACTION_ASSEMBLY ||
	     j->action == USCC_ACTION_DUMP_BACKEND || j->action == USCC_ACTION_DUMP_BACKEND_ALL)) {
		diag_error(&j->diag, file_loc(j),
			   "vertex shaders are only checked and lowered to IR (--check, "
			   "--dump-ir); R500 code is for fragment shaders");
		return USCC_USAGE_ERROR;
	}
	if (!source) {
		diag_error(&j->diag, file_loc(j), "no source");
		return USCC_USAGE_ERROR;
	}
	char *src = arena_strndup(j->arena, source, len);
	if (!src)
		return USCC_OUT_OF_MEMORY;
	j->src = src;
	diag_add_source(&j->diag, j->file, src);
	if (!check_no_nul(j, source, len))
		return USCC_SHADER_ERROR;
	if (o->skip_env_bad[0])
		diag_warning(&j->diag, file_loc(j), "USCC_SKIP names '%s', which is neither an IR "
			     "pass nor an optional backend stage (uscc --skip=help lists them)",
			     o->skip_env_bad);

	struct glsl_options go = frontend_options(o);
	bool ok = actions[j->action](j, &go);
	if (diag_failed(&j->diag))
		return USCC_SHADER_ERROR;
	if (arena_failed(j->arena))
		return USCC_OUT_OF_MEMORY;
	if (!ok) {
		/* only allocation fails silently; anything else is our bug */
		diag_error(&j->diag, file_loc(j), "internal error: compilation failed without a "
			   "diagnostic");
		return USCC_SHADER_ERROR;
	}
	if (j->action != USCC_ACTION_COMPILE)
		j->size = strlen(j->data);
	return USCC_OK;
}

enum uscc_status uscc_run(const struct uscc_options *o, enum uscc_action action,
			  const char *source, size_t len, struct uscc_result **out)
{
	*out = NULL;
	/* NULL options: the defaults of uscc_options_create(NULL) */
	struct uscc_options defaults;
	if (!o)
		o = uscc_options_init_default(&defaults, NULL);
	struct mem_allocator alloc = o->alloc;
	if (len == USCC_NUL_TERMINATED)
		len = source ? strlen(source) : 0;
	struct job j = { .o = o, .action = action };
	j.file = o->filename ? o->filename : "<source>";
	j.arena = arena_create(&alloc);
	if (!j.arena)
		return USCC_OUT_OF_MEMORY;
	diag_init(&j.diag, j.arena);
	j.diag.werror = o->werror;
	enum uscc_status st = run_job(&j, source, len);
	const char *diag = diag_render(&j.diag);
	if (arena_failed(j.arena)) {
		st = USCC_OUT_OF_MEMORY;
		diag = "error: out of memory\n";
	}
	bool ok = st == USCC_OK;
	*out = uscc_result_make(&alloc, st, ok ? j.data : NULL, ok ? j.size : 0, diag,
				ok && j.has_stats ? &j.stats : NULL, ok ? j.stats_json : NULL);
	arena_destroy(j.arena);
	if (!*out)
		return USCC_OUT_OF_MEMORY;
	return st;
}

enum uscc_status uscc_compile(const struct uscc_options *o, const char *source, size_t len,
			      struct uscc_result **out)
{
	return uscc_run(o, USCC_ACTION_COMPILE, source, len, out);
}
