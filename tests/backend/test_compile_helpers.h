/* Shared by the backend compile tests: build IR with the builder, compile
 * it, and check what every program must satisfy. */
#ifndef TEST_COMPILE_HELPERS_H
#define TEST_COMPILE_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ir.h"
#include "r500_codec.h"
#include "r500_compile.h"

struct tc {
	struct arena *arena;
	struct diag_sink diag;
	struct ir_func *f;
	struct ir_builder b;
};

static inline void tc_init(struct tc *t)
{
	t->arena = arena_create(&mem_default_allocator);
	assert_non_null(t->arena);
	diag_init(&t->diag, t->arena);
	t->f = ir_func_create(t->arena, IR_STAGE_FRAGMENT);
	assert_non_null(t->f);
	ir_builder_init(&t->b, t->f);
	t->b.loc = (struct src_loc){ "t.frag", 3, 7 };
}

static inline void tc_fini(struct tc *t)
{
	arena_destroy(t->arena);
}

static inline struct ir_instr *tc_input(struct tc *t, const char *name, int ncomp)
{
	int idx = ir_func_find_input(t->f, name);
	if (idx < 0)
		idx = ir_func_add_input(t->f, name, ncomp);
	struct ir_instr *in = ir_build(&t->b, IR_OP_INPUT, ncomp, IR_FLOAT, 0, NULL);
	in->index = idx;
	return in;
}

static inline struct ir_instr *tc_uniform(struct tc *t, const char *name, const char *type,
					  int ncomp, int offset)
{
	int idx = ir_func_find_uniform(t->f, name);
	if (idx < 0)
		idx = ir_func_add_uniform(t->f, name, type, 0, 1, ncomp);
	struct ir_instr *u = ir_build(&t->b, IR_OP_UNIFORM, ncomp, IR_FLOAT, 0, NULL);
	u->index = idx;
	u->offset = offset;
	return u;
}

static inline struct ir_instr *tc_const4(struct tc *t, float x, float y, float z, float w)
{
	float v[4] = { x, y, z, w };
	return ir_build_const(&t->b, 4, IR_FLOAT, v);
}

static inline void tc_output(struct tc *t, const char *name, int target, int ncomp,
			     struct ir_instr *val)
{
	int idx = ir_func_find_output(t->f, name);
	if (idx < 0)
		idx = ir_func_add_output(t->f, name, target, ncomp);
	struct ir_src s = ir_src_of(val);
	struct ir_instr *o = ir_build(&t->b, IR_OP_OUTPUT, 0, IR_FLOAT, 1, &s);
	o->index = idx;
}

static inline struct ir_instr *tc_vec(struct tc *t, int n, struct ir_src *srcs)
{
	return ir_build(&t->b, IR_OP_VEC, n, IR_FLOAT, n, srcs);
}

static inline void tc_dump_diags(const struct tc *t)
{
	for (const struct diag *d = t->diag.first; d; d = d->next)
		print_message("diag: %s\n", d->message);
}

/* Compiles and checks the invariants of every program. */
static inline struct r500_program *tc_compile(struct tc *t)
{
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	struct r500_program *p = r500_compile(t->f, &o, t->arena, &t->diag);
	if (!p) {
		tc_dump_diags(t);
		fail_msg("compile failed");
	}
	char why[256];
	for (int i = 0; i < p->ninst; i++)
		if (!r500_inst_validate(&p->code[i], why, sizeof why))
			fail_msg("inst %d invalid: %s", i, why);
	if (!r500_program_validate(p->code, p->ninst, why, sizeof why))
		fail_msg("program invalid: %s", why);
	assert_true(p->ninst >= 1);
	const struct r500_inst *last = &p->code[p->ninst - 1];
	assert_int_equal(last->cmn.type, R500_TYPE_OUT);
	assert_int_equal(last->cmn.tex_sem_wait, 1);
	assert_int_equal(p->stats.instructions, p->ninst);
	assert_true(p->stats.lower_bound <= p->stats.alu + p->stats.out);
	/* every encoded instruction decodes back to itself */
	for (int i = 0; i < p->ninst; i++) {
		uint32_t w[6];
		struct r500_inst back;
		r500_encode(&p->code[i], w);
		if (!r500_decode(w, &back, why, sizeof why))
			fail_msg("inst %d does not decode: %s", i, why);
	}
	return p;
}

static inline bool tc_has_error(const struct tc *t, const char *needle)
{
	for (const struct diag *d = t->diag.first; d; d = d->next)
		if (d->severity == DIAG_ERROR && strstr(d->message, needle))
			return true;
	return false;
}

#endif
