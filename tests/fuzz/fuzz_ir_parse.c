/* libFuzzer target: IR text through ir_parse, ir_validate and ir_print;
 * valid IR then through the -O2 pass pipeline (validating after every
 * pass) and the IR interpreter on one 2x2 quad, before and after the
 * passes: the passes must keep valid IR valid and the results equal
 * where the function is well-conditioned (struct conditioning).
 * Then the constant program split: both functions valid, and the pixel
 * program fed by the constant program's outputs computes what the whole
 * did once prepared (cp_prepare.h's rewrites, which change last bits by
 * design, applied to a copy), on uniform values none of which is 0, where
 * that is finite and well-conditioned.
 * Last, a fragment function goes through the backend with
 * its constant program (validating every stage): it may refuse the
 * program with a diagnostic, never crash or leave invalid code. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "const_program.h"
#include "cp_prepare.h"
#include "diag.h"
#include "fuzz_util.h"
#include "ir.h"
#include "ir_interp.h"
#include "ir_pass.h"
#include "r500_compile.h"

/* Per-loop iteration bound, and the loop nesting the interpreter is run
 * on (the work grows as bound^depth). */
enum { MAX_ITER = 16, MAX_LOOP_DEPTH = 3 };

/* 2x2 texels for every face of a cube: enough for any target. */
static const float texels[6 * 2 * 2 * 4] = {
	0.0f, 0.25f, 0.5f, 1.0f, 1.0f, 0.75f, 0.5f, 1.0f,
	0.5f, 0.5f, 0.0f, 0.0f, -1.0f, 2.0f, 0.125f, 1.0f,
};

static int loop_depth(const struct ir_cf_list *list)
{
	int max = 0;
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		int d = 0;
		if (cf->kind == IR_CF_IF) {
			int a = loop_depth(&cf->then_list), b = loop_depth(&cf->else_list);
			d = a > b ? a : b;
		} else if (cf->kind == IR_CF_LOOP) {
			d = 1 + loop_depth(&cf->body);
		}
		if (d > max)
			max = d;
	}
	return max;
}

/* Runs one quad with the given uniform values (NULL: the defaults);
 * false when the interpreter refuses (limits, no memory). */
static bool interp_at(const struct ir_func *f, struct arena *arena,
		      struct ir_interp_result *res, const float (*uniforms)[4], float eps)
{
	if (loop_depth(&f->body) > MAX_LOOP_DEPTH)
		return false;
	int nin = f->ninputs;
	const float(**in)[4] = arena_alloc(arena, sizeof *in * (size_t)(nin + 1));
	float(*vals)[4][4] = arena_alloc(arena, sizeof *vals * (size_t)(nin + 1));
	struct tex_image tex[16];
	if (!in || !vals)
		return false;
	for (int i = 0; i < nin; i++) {
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++)
				vals[i][p][c] = ((float)(i + 1) * 0.25f + (float)p * 0.5f - (float)c) *
						(1.0f + eps) + eps;
		in[i] = vals[i];
	}
	for (int u = 0; u < 16; u++)
		tex[u] = (struct tex_image){ .target = IR_TARGET_2D, .width = 2, .height = 2,
					     .depth = 1, .texels = texels };
	for (int s = 0; s < f->nsamplers; s++)
		if (f->samplers[s].unit >= 0 && f->samplers[s].unit < 16 &&
		    f->samplers[s].target <= IR_TARGET_RECT)
			tex[f->samplers[s].unit].target = f->samplers[s].target;
	if (eps != 0.0f) { /* the uniforms (given or the defaults), moved too */
		float(*u)[4] = arena_alloc(arena, sizeof *u * (size_t)(f->nuniform_vec4 + 1));
		if (!u)
			return false;
		if (uniforms)
			memcpy(u, uniforms, sizeof *u * (size_t)f->nuniform_vec4);
		else
			ir_uniform_defaults(f, u);
		for (int e = 0; e < f->nuniform_vec4; e++)
			for (int c = 0; c < 4; c++)
				u[e][c] = u[e][c] * (1.0f + eps) + eps;
		uniforms = (const float(*)[4])u;
	}
	struct ir_interp_env env = { .inputs = in, .uniform_values = uniforms, .textures = tex,
				     .ntextures = 16, .covered = { true, true, true, true },
				     .max_iterations = MAX_ITER };
	struct diag_sink d;
	diag_init(&d, arena);
	return ir_interp_quad(f, &env, res, &d);
}

/* Runs one quad with the given uniform values (NULL: the defaults). */
static bool interp(const struct ir_func *f, struct arena *arena, struct ir_interp_result *res,
		   const float (*uniforms)[4])
{
	return interp_at(f, arena, res, uniforms, 0.0f);
}

/* A function's results with its inputs and uniforms moved both ways by a
 * few parts in a million (more for the split): where they move far, the
 * function is ill-conditioned there (a floor or fract of a large product,
 * a hash, a texel edge), and rewrites that may change last bits, as GLSL
 * allows, may change the result as much.  Computed once, on the first
 * difference, from the function's text. */
struct conditioning {
	const char *text;
	struct arena *arena;
	float eps;      /* the move, relative and absolute: near the check's tolerance */
	const float (*uniforms)[4]; /* the run's uniform values, NULL: the defaults */
	const struct ir_interp_result *base;
	struct ir_interp_result *moved; /* [0] up, [1] down */
	bool tried, ran;
};

static bool same(float a, float b);

/* Whether output o, pixel p, component c (c < 0: the pixel's discard)
 * is well-conditioned and finite, so that a difference there is a bug. */
static bool conditioned(struct conditioning *k, int o, int p, int c)
{
	/* an infinity or NaN came from an overflow, whose result GLSL leaves
	 * undefined; rewrites may overflow elsewhere or not at all (whether
	 * or not the moved runs below can run: a loop whose trips depend on
	 * the overflowing value may pass the iteration bound there) */
	float v = c < 0 ? 0.0f : k->base->outputs[o][p][c];
	if (!isfinite(v))
		return false;
	if (!k->tried) {
		k->tried = true;
		struct diag_sink d;
		diag_init(&d, k->arena);
		struct ir_func *f = ir_parse(k->text, "fuzz.ir", k->arena, &d);
		k->moved = arena_alloc(k->arena, 2 * sizeof *k->moved);
		k->ran = f && k->moved &&
			 interp_at(f, k->arena, &k->moved[0], k->uniforms, k->eps) &&
			 interp_at(f, k->arena, &k->moved[1], k->uniforms, -k->eps);
	}
	if (!k->ran)
		return true;
	for (int m = 0; m < 2; m++) {
		if (k->base->discarded[p] != k->moved[m].discarded[p])
			return false;
		if (c >= 0 && !same(v, k->moved[m].outputs[o][p][c]))
			return false;
	}
	return true;
}

static bool same(float a, float b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return a == b || fabsf(a - b) <= 1e-5f * fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b)));
}

static void compare(const struct ir_interp_result *a, const struct ir_interp_result *b,
		    const char *before, const char *after, struct arena *arena)
{
	struct conditioning k = { before, arena, 4e-6f, NULL, a, NULL, false, false };
	for (int p = 0; p < 4; p++)
		if (a->discarded[p] != b->discarded[p] && !a->undefined[p] &&
		    conditioned(&k, 0, p, -1))
			fuzz_bug("the -O2 passes change a discard", after);
	for (int o = 0; o < IR_INTERP_MAX_OUTPUTS; o++) {
		if (a->written[o] != b->written[o])
			fuzz_bug("the -O2 passes change which outputs are written", after);
		for (int p = 0; p < 4 && a->written[o]; p++)
			for (int c = 0; c < 4; c++)
				if (!a->discarded[p] && !b->discarded[p] && !a->undefined[p] &&
				    !same(a->outputs[o][p][c], b->outputs[o][p][c]) &&
				    conditioned(&k, o, p, c))
					fuzz_bug("the -O2 passes change a result", before);
	}
}

/* Uniform values for the split check, none of them 0: the split turns x /
 * u into x * rcp(u), and a division by 0 is undefined (the two differ at
 * 0 / 0, and a NaN coordinate picks another texel). */
static float (*nonzero_uniforms(const struct ir_func *f, struct arena *arena))[4]
{
	float(*u)[4] = arena_alloc(arena, sizeof *u * (size_t)(f->nuniform_vec4 + 1));
	for (int e = 0; u && e < f->nuniform_vec4; e++)
		for (int c = 0; c < 4; c++)
			u[e][c] = (float)(e + 1) * 0.375f + (float)c * 0.25f + 0.125f;
	return u;
}

static struct ir_func *split_check(struct ir_func *f, struct arena *arena,
				   const struct ir_interp_result *whole,
				   const float (*uniforms)[4], const char *text)
{
	bool failed;
	struct ir_func *cp = ir_split_constant_program(f, NULL, &failed);
	if (!cp) /* nothing to move, or out of memory (-malloc_limit_mb) */
		return NULL;
	struct diag_sink d;
	diag_init(&d, arena);
	if (!ir_validate(cp, &d) || !ir_validate(f, &d))
		fuzz_bug("the constant program split made invalid IR", diag_render(&d));
	float(*vals)[4] = arena_alloc(arena, sizeof *vals * (size_t)(f->nuniform_vec4 + 1));
	struct ir_interp_result *cr = arena_alloc(arena, sizeof *cr);
	struct ir_interp_result *pr = arena_alloc(arena, sizeof *pr);
	/* the interpreter gives at most IR_INTERP_MAX_OUTPUTS outputs: a larger
	 * constant program (up to IR_CP_MAX_OUTPUTS) cannot feed the check */
	if (!whole || !uniforms || !vals || !cr || !pr || cp->noutputs > IR_INTERP_MAX_OUTPUTS ||
	    !interp(cp, arena, cr, uniforms))
		return cp;
	memcpy(vals, uniforms, sizeof *vals * (size_t)cp->nuniform_vec4);
	for (int o = 0; o < cp->noutputs; o++) {
		int u = ir_func_find_uniform(f, cp->outputs[o].name);
		if (u < 0 || !ir_uniform_is_cp_output(&f->uniforms[u]))
			fuzz_bug("a constant program output without its uniform", text);
		memcpy(vals[f->uniforms[u].base], cr->outputs[o][0], sizeof vals[0]);
	}
	if (!interp(f, arena, pr, (const float(*)[4])vals))
		return cp;
	/* the split's rewrites (a sine's argument scaled to revolutions)
	 * change results by up to its 1e-4 tolerance: moves of that size */
	struct conditioning k = { text, arena, 3e-5f, uniforms, whole, NULL, false, false };
	for (int o = 0; o < IR_INTERP_MAX_OUTPUTS; o++)
		for (int p = 0; p < 4 && whole->written[o]; p++)
			for (int c = 0; c < 4; c++) {
				float a = whole->outputs[o][p][c], b = pr->outputs[o][p][c];
				if (!whole->discarded[p] && !whole->undefined[p] && isfinite(a) && isfinite(b) &&
				    fabsf(a - b) > 1e-4f * fmaxf(1.0f, fmaxf(fabsf(a), fabsf(b))) &&
				    conditioned(&k, o, p, c))
					fuzz_bug("the constant program split changes a result", text);
			}
	return cp;
}

static void run(const char *text, struct arena *arena)
{
	struct diag_sink d;
	diag_init(&d, arena);
	diag_add_source(&d, "fuzz.ir", text);
	struct ir_func *f = ir_parse(text, "fuzz.ir", arena, &d);
	if (!f)
		return;
	char *printed = ir_print(f, arena);
	if (!ir_validate(f, &d) || diag_failed(&d))
		return;
	struct ir_interp_result *before = arena_alloc(arena, sizeof *before);
	struct ir_interp_result *after = arena_alloc(arena, sizeof *after);
	if (!before || !after)
		return;
	bool ran = interp(f, arena, before, NULL);
	struct ir_pass_ctx ctx;
	ir_pass_ctx_init(&ctx, &d);
	ctx.validate = true;
	if (!ir_optimize(f, 2, &ctx) || ctx.failed)
		fuzz_bug("the -O2 passes made valid IR invalid", diag_render(&d));
	char *optimized = ir_print(f, arena);
	bool ran_after = ran && interp(f, arena, after, NULL);
	if (ran_after)
		compare(before, after, printed, optimized, arena);
	/* the split check's reference: the optimized function, with the
	 * split's own rewrites (cp_prepare.h: they may change last bits by
	 * design; the differential judges check their numerics), on nonzero
	 * uniforms */
	const float(*nz)[4] = (const float(*)[4])nonzero_uniforms(f, arena);
	struct ir_interp_result *whole = arena_alloc(arena, sizeof *whole);
	struct ir_func *prepared = ran_after ? ir_parse(optimized, "fuzz.ir", arena, &d) : NULL;
	bool ran_whole = prepared && nz && whole && ir_cp_prepare(prepared, NULL) &&
			 interp(prepared, arena, whole, nz);
	struct ir_func *cp = split_check(f, arena, ran_whole ? whole : NULL, nz, optimized);
	if (f->stage == IR_STAGE_FRAGMENT) {
		struct r500_compile_options co = { .opt_level = 2, .validate = true,
						   .const_prog = cp };
		struct diag_sink bd;
		diag_init(&bd, arena);
		struct r500_program *p = r500_compile(f, &co, arena, &bd);
		if (!p && !diag_failed(&bd) && !arena_failed(arena))
			fuzz_bug("the backend failed without a diagnostic", optimized);
		if (p && bd.errors)
			fuzz_bug("the backend gave a program and an error", optimized);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strndup(data, size);
	struct arena *arena = arena_create(&mem_default_allocator);
	if (arena)
		run(text, arena);
	arena_destroy(arena);
	free(text);
	return 0;
}
