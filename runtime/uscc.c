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
#include "r500_candidate.h"
#include "r500_compile.h"
#include "uscc_internal.h"
#include "tgsi.h"
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
	struct r500_stats figures;   /* the JSON's, as the compile measured them */
	char *stats_json;            /* room for it (stats_json_max() + 1), or NULL */
	bool json_made;              /* written there (uscc_result_stats_json) */
	struct uscc_container *container; /* a compile's program, or NULL */
};

struct uscc_result *uscc_result_make(const struct mem_allocator *alloc, enum uscc_status status,
				     const void *data, size_t size, const char *diag,
				     const struct r500_stats *figures)
{
	if (!diag)
		diag = "";
	size_t dlen = strlen(diag), jlen = figures ? stats_json_max() : 0;
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
	if (figures) {
		r->has_stats = true;
		r->figures = *figures;
		uscc_stats_from(&r->stats, figures);
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
	if (!r || !r->stats_json)
		return NULL;
	/* made on the first call, as uscc_container_json is (calls on one
	 * result are not concurrent): few callers ask, and writing it was
	 * 2 % of a tiny compile */
	struct uscc_result *m = (struct uscc_result *)r;
	if (!m->json_made) {
		stats_json_into(m->stats_json, &m->figures);
		m->json_made = true;
	}
	return m->stats_json;
}

void uscc_result_destroy(struct uscc_result *r)
{
	if (!r)
		return;
	uscc_container_destroy(r->container);
	struct mem_allocator a = r->alloc;
	mem_free(&a, r, r->total);
}

const struct uscc_container *uscc_result_container(const struct uscc_result *r)
{
	return r ? r->container : NULL;
}

/* ---- the pipeline ---- */

struct job {
	const struct uscc_options *o;
	enum uscc_action action;
	struct arena *arena;
	struct diag_sink diag;
	const char *file;
	const char *src;
	const uint32_t *words;  /* USCC_LANGUAGE_TGSI_TOKENS: the source as tokens */
	size_t nwords;
	/* output */
	const void *data;
	size_t size;
	const struct r500_program *program; /* COMPILE: the program kept */
	struct r500_stats figures; /* the compile's, compile_us measured */
	bool has_stats;
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

/* TGSI tokens: len bytes of whole 32-bit words, copied so that they
 * are aligned (j->src stays "" for what reads text). */
static bool read_tokens(struct job *j, const char *source, size_t len)
{
	j->src = "";
	if (len % 4) {
		diag_error(&j->diag, file_loc(j), "TGSI tokens of %zu bytes: not whole 32-bit words",
			   len);
		return false;
	}
	uint32_t *w = arena_alloc_unzeroed(j->arena, len ? len : 4);
	if (!w)
		return false;
	memcpy(w, source, len);
	j->words = w;
	j->nwords = len / 4;
	return true;
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

/* The job's source as IR, by its language, with r300's conventions when
 * asked for (NULL with diagnostics). */
static struct ir_func *source_to_ir(struct job *j, const struct glsl_options *go)
{
	struct ir_func *f =
		j->o->language == USCC_LANGUAGE_TGSI_TOKENS
			? tgsi_tokens_to_ir(j->words, j->nwords, j->file, go, j->arena, &j->diag)
		: j->o->language == USCC_LANGUAGE_TGSI
			? tgsi_to_ir(j->src, j->file, go, j->arena, &j->diag)
			: glsl_to_ir(j->src, j->file, go, j->arena, &j->diag);
	if (f && j->o->r300 && !ir_r300_conventions(f, j->o->r300_units, &j->diag))
		return NULL;
	return f;
}

/* The IR the candidates start from (r500_candidate.h): the frontend runs
 * once per job (lower_once, before the candidates, so that its
 * diagnostics stand whichever compile is kept); each setting of loops
 * gets its own copy of that IR, optimized with loop_unroll or without it.
 * With dump_all, each keeps the passes' dumps. */
struct ir_variants {
	struct job *j;
	const struct glsl_options *go;
	bool dump_all;
	struct ir_func *source;      /* the frontend's IR, never optimized (NULL once taken) */
	bool source_taken;           /* the first variant took it (only_first_variant) */
	bool made[R500_IR_VARIANTS];
	struct ir_func *f[R500_IR_VARIANTS];
	char *dump[R500_IR_VARIANTS];
};

/* The frontend's IR in v->source; false with diagnostics. */
static bool lower_once(struct ir_variants *v)
{
	struct job *j = v->j;
	v->source = source_to_ir(j, v->go);
	return v->source && !diag_failed(&j->diag) && !arena_failed(j->arena);
}

/* Whether the candidates can ask for the first IR variant only: with
 * optimization on (legalizing is for -O0's programs) and neither LOOP nor
 * IF (keep_loops has nothing to keep), so that variant may take the
 * frontend's IR itself instead of a copy (the copy was ~4 % of a tiny
 * compile). */
static bool only_first_variant(const struct ir_variants *v)
{
	return v->j->o->opt_level > 0 && !ir_func_has_flow(v->source);
}

static struct ir_func *ir_for(void *ud, const struct r500_candidate *c)
{
	struct ir_variants *v = ud;
	struct job *j = v->j;
	int k = r500_candidate_ir_variant(c);
	if (v->made[k])
		return v->f[k];
	v->made[k] = true;
	sw_set skip = j->o->skip | (c->keep_loops ? sw_bit(SW_LOOP_UNROLL) : 0);
	int level = r500_candidate_opt_level(c, j->o->opt_level);
	struct ir_func *f = NULL;
	if (v->source_taken) {
		diag_error(&j->diag, file_loc(j), "internal error: a second IR variant of a "
			   "program without loops");
		return NULL;
	}
	if (v->source && k == 0 && only_first_variant(v)) {
		f = v->source; /* optimized in place: no other variant needs it */
		v->source = NULL;
		v->source_taken = true;
	} else if (v->source) {
		f = ir_func_clone(v->source);
	}
	if (!f || !uscc_optimize(f, level, skip, v->dump_all, &v->dump[k], j->arena, &j->diag) ||
	    diag_failed(&j->diag))
		return NULL;
	v->f[k] = f;
	return f;
}

/* The backend's options for the job (every stage validated in debug
 * builds). */
static struct r500_compile_options backend_options(const struct job *j)
{
	struct r500_compile_options o = { .opt_level = j->o->opt_level, .skip = j->o->skip,
					  .const_program = !j->o->no_constant_program && !j->o->r300,
					  .r300 = j->o->r300,
					  .divergent_jumps = j->o->divergent_jumps };
#ifndef NDEBUG
	o.validate = true;
#endif
	return o;
}

/* The kept program of the job's candidates (r500_compile_best), NULL with
 * diagnostics; its candidate in *kept (may be NULL).  With dump, the
 * backend's middle form of the kept program is collected there. */
static struct r500_program *best_program(struct job *j, const struct glsl_options *go,
					 struct backend_dump *dump, struct r500_candidate *kept)
{
	struct ir_variants v = { .j = j, .go = go };
	if (!lower_once(&v))
		return NULL;
	struct r500_ir_source src = { ir_for, &v, { 0 }, { 0 } };
	struct r500_compile_options co = backend_options(j);
	if (dump) {
		co.dump = backend_dump;
		co.dump_ud = dump;
	}
	struct r500_program *p = r500_compile_best(&src, &co, j->arena, &j->diag, kept);
	if (!p || diag_failed(&j->diag) || arena_failed(j->arena))
		return NULL;
	return p;
}

/* Frontend, passes, backend: the program kept, or NULL with diagnostics,
 * with its statistics in the job. */
static struct r500_program *compile_program(struct job *j, struct glsl_options *go,
					    struct backend_dump *dump)
{
	int64_t t0 = now_us();
	struct r500_program *p = best_program(j, go, dump, NULL);
	if (!p)
		return NULL;
	int64_t us = now_us() - t0;
	p->stats.compile_us = us;
	j->figures = p->stats;
	j->has_stats = true;
	if (!j->o->record_time)
		p->stats.compile_us = 0;
	return p;
}

/* An allocator over the job's arena, so container_write's buffer is
 * freed with everything else (and its failure recorded by the arena).
 * Not zeroed: the writer fills every byte it asks for. */
static void *arena_hook(void *ud, void *ptr, size_t osize, size_t nsize)
{
	if (nsize == 0)
		return NULL;
	return arena_resize(ud, ptr, osize, nsize);
}

static bool do_compile(struct job *j, struct glsl_options *go)
{
	struct r500_program *p = compile_program(j, go, NULL);
	if (!p)
		return false;
	struct mem_allocator a = { arena_hook, j->arena };
	j->data = container_write(p, &a, &j->size);
	j->program = p;
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
	if (j->o->language != USCC_LANGUAGE_GLSL) /* parsed and lowered */
		return source_to_ir(j, go) != NULL;
	return glsl_check(j->src, j->file, go, j->arena, &j->diag);
}

/* The candidate compile_program keeps (loops kept or not, a constant
 * program or not), found quietly (diagnostics of its own), so that
 * --dump-ir shows the IR of the program -S lists.  The first candidate
 * where the shader does not compile. */
static struct r500_candidate kept_candidate(struct job *j, struct glsl_options *go,
					    bool *has_cp)
{
	struct r500_compile_options co = backend_options(j);
	struct r500_candidate kept = r500_candidate_first(&co);
	struct diag_sink saved = j->diag;
	diag_init(&j->diag, j->arena);
	struct r500_program *p = best_program(j, go, NULL, &kept);
	j->diag = saved;
	*has_cp = p && p->cp.nouts > 0;
	return kept;
}

/* The optimized IR of the candidate the compile keeps; with =all after
 * every pass, and the constant program split when the compile keeps it. */
static bool do_dump_ir(struct job *j, struct glsl_options *go)
{
	bool all = j->action == USCC_ACTION_DUMP_IR_ALL;
	bool has_cp = false;
	struct r500_candidate kept = { .keep_loops = false };
	if (j->o->stage == USCC_STAGE_FRAGMENT)
		kept = kept_candidate(j, go, &has_cp);
	struct ir_variants v = { .j = j, .go = go, .dump_all = all };
	struct ir_func *f = lower_once(&v) ? ir_for(&v, &kept) : NULL;
	if (!f)
		return false;
	char *dump = v.dump[r500_candidate_ir_variant(&kept)];
	if (all && has_cp) {
		struct ir_dump_text t = { .full = false };
		strbuf_init(&t.buf, j->arena);
		strbuf_puts(&t.buf, dump);
		/* the split's clean-up steps dump the pixel program as they go */
		struct ir_pass_ctx ctx;
		ir_pass_ctx_init(&ctx, &j->diag);
		ctx.dump = ir_dump_text_append;
		ctx.dump_ud = &t;
		bool failed;
		struct ir_func *cp = ir_split_constant_program(f, &ctx, &failed);
		if (failed)
			return false;
		ir_dump_text_append(&t, "constant_program: the pixel program", f);
		ir_dump_text_append(&t, "constant_program: run before the draw", cp);
		dump = strbuf_text(&t.buf);
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
	if (o->language != USCC_LANGUAGE_GLSL && j->action == USCC_ACTION_PREPROCESS) {
		diag_error(&j->diag, file_loc(j), "-E: TGSI has no preprocessor");
		return USCC_USAGE_ERROR;
	}
	if (!source) {
		diag_error(&j->diag, file_loc(j), "no source");
		return USCC_USAGE_ERROR;
	}
	if (o->language == USCC_LANGUAGE_TGSI_TOKENS) {
		if (!read_tokens(j, source, len))
			return arena_failed(j->arena) ? USCC_OUT_OF_MEMORY : USCC_SHADER_ERROR;
	} else {
		char *src = arena_strndup(j->arena, source, len);
		if (!src)
			return USCC_OUT_OF_MEMORY;
		j->src = src;
		diag_add_source(&j->diag, j->file, src);
		if (!check_no_nul(j, source, len))
			return USCC_SHADER_ERROR;
	}
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
				ok && j.has_stats ? &j.figures : NULL);
	if (*out && ok && j.program) {
		/* the program read as a container, while the compile's arena holds it */
		(*out)->container = uscc_container_of_program(&alloc, j.program, (*out)->data,
							      (*out)->size);
		if (!(*out)->container) {
			uscc_result_destroy(*out);
			st = USCC_OUT_OF_MEMORY;
			*out = uscc_result_make(&alloc, st, NULL, 0, "error: out of memory\n", NULL);
		}
	}
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
