/* Helpers shared by the frontend tests: compile a source string, look at
 * the diagnostics, run the IR on one quad. */
#ifndef USCC_TEST_FE_TEST_H
#define USCC_TEST_FE_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "glsl.h"
#include "ir_interp.h"

struct fe_test {
	struct arena *arena;
	struct diag_sink diag;
	struct ir_func *f;
	char *text;        /* preprocessed text */
	const char *diags; /* rendered diagnostics */
};

static inline void fe_test_begin(struct fe_test *t)
{
	memset(t, 0, sizeof *t);
	t->arena = arena_create(&mem_default_allocator);
	assert_non_null(t->arena);
	diag_init(&t->diag, t->arena);
}

static inline void fe_test_end(struct fe_test *t)
{
	arena_destroy(t->arena);
}

static inline struct ir_func *fe_compile(struct fe_test *t, const char *src)
{
	struct glsl_options o = { .stage = GLSL_STAGE_FRAGMENT };
	t->f = glsl_to_ir(src, "t.frag", &o, t->arena, &t->diag);
	t->diags = diag_render(&t->diag);
	return t->f;
}

static inline char *fe_pp(struct fe_test *t, const char *src, const struct glsl_define *defs,
			  int ndefs)
{
	struct glsl_options o = { .stage = GLSL_STAGE_FRAGMENT, .defines = defs, .ndefines = ndefs };
	t->text = glsl_preprocess(src, "t.frag", &o, t->arena, &t->diag);
	t->diags = diag_render(&t->diag);
	return t->text;
}

/* fe_compile that must succeed and give valid IR (the test fails with
 * the diagnostics, or the IR and the validator's, otherwise). */
static inline struct ir_func *fe_compile_ok(struct fe_test *t, const char *src)
{
	struct ir_func *f = fe_compile(t, src);
	if (!f)
		fail_msg("compile failed:\n%s", t->diags);
	if (!ir_validate(f, &t->diag))
		fail_msg("invalid IR:\n%s\n%s", ir_print(f, t->arena), diag_render(&t->diag));
	return f;
}

/* Does the rendered diagnostics text contain `s`? */
static inline bool fe_has(const struct fe_test *t, const char *s)
{
	return t->diags && strstr(t->diags, s) != NULL;
}

#define assert_diag(t, s)                                                      \
	do {                                                                   \
		if (!fe_has((t), (s)))                                         \
			fail_msg("expected diagnostic \"%s\" in:\n%s", (s),    \
				 (t)->diags ? (t)->diags : "(none)");          \
	} while (0)

/* Counts instructions of one op in the whole function. */
struct fe_count { enum ir_op op; int n; };
static inline void fe_count_fn(struct ir_instr *in, void *ud)
{
	struct fe_count *c = ud;
	if (in->op == c->op)
		c->n++;
}
static inline int fe_count_op(struct ir_func *f, enum ir_op op)
{
	struct fe_count c = { op, 0 };
	ir_foreach_instr(f, fe_count_fn, &c);
	return c.n;
}

/* Counts LOOP nodes in a cf list, nested ones too. */
static inline int fe_count_loops(const struct ir_cf_list *list)
{
	int n = 0;
	for (const struct ir_cf *c = list->first; c; c = c->next) {
		if (c->kind == IR_CF_LOOP)
			n += 1 + fe_count_loops(&c->body);
		else if (c->kind == IR_CF_IF)
			n += fe_count_loops(&c->then_list) + fe_count_loops(&c->else_list);
	}
	return n;
}

/* Runs the function on one quad: every input has value inputs[i] at all
 * four pixels (NULL: 0); uniforms from `uniforms` (vec4 slots).  The
 * whole result in *r; false when the interpreter fails. */
static inline bool fe_run_quad(struct ir_func *f, const float (*inputs)[4],
			       const float (*uniforms)[4], const struct tex_image *tex, int ntex,
			       struct ir_interp_result *r)
{
	static const float zeros[64][4];
	float in_store[8][4][4];
	const float (*in_ptr[8])[4];
	for (int i = 0; i < f->ninputs && i < 8; i++) {
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++)
				in_store[i][p][c] = inputs ? inputs[i][c] : 0;
		in_ptr[i] = in_store[i];
	}
	struct ir_interp_env env;
	memset(&env, 0, sizeof env);
	env.inputs = in_ptr;
	env.uniform_values = uniforms ? uniforms : zeros;
	env.textures = tex;
	env.ntextures = ntex;
	for (int p = 0; p < 4; p++)
		env.covered[p] = true;
	memset(r, 0, sizeof *r);
	struct arena *a = arena_create(&mem_default_allocator);
	struct diag_sink d;
	diag_init(&d, a);
	bool ok = ir_interp_quad(f, &env, r, &d);
	arena_destroy(a);
	return ok;
}

/* fe_run_quad's output `out` of pixel 0 in `res`; false when it fails or
 * the output is not written. */
static inline bool fe_run(struct ir_func *f, const float (*inputs)[4], const float (*uniforms)[4],
			  const struct tex_image *tex, int ntex, int out, float res[4])
{
	struct ir_interp_result r;
	if (!fe_run_quad(f, inputs, uniforms, tex, ntex, &r) || out >= f->noutputs ||
	    !r.written[out])
		return false;
	memcpy(res, r.outputs[out][0], sizeof(float) * 4);
	return true;
}

#define assert_vec4_near(v, x, y, z, w)                                  \
	do {                                                             \
		const float e_[4] = { (x), (y), (z), (w) };              \
		for (int i_ = 0; i_ < 4; i_++)                           \
			if (!((v)[i_] > e_[i_] - 1e-4f && (v)[i_] < e_[i_] + 1e-4f)) \
				fail_msg("component %d: got %g, expected %g", i_, \
					 (double)(v)[i_], (double)e_[i_]);         \
	} while (0)

#endif
