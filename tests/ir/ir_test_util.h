/* Helpers shared by the IR tests (header-only: each test is one program). */
#ifndef USCC_IR_TEST_UTIL_H
#define USCC_IR_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ir.h"
#include "ir_interp.h"
#include "../test_util.h"

/* A group's arena in cmocka's state: tests take it from *state. */
static inline int ir_test_arena_setup(void **state)
{
	*state = arena_create(&mem_default_allocator);
	return *state ? 0 : -1;
}

static inline int ir_test_arena_teardown(void **state)
{
	arena_destroy(*state);
	return 0;
}

/* Parses text that must be valid; fails the test with the diagnostics. */
static inline struct ir_func *parse_ok(struct arena *a, const char *text)
{
	struct diag_sink d;
	diag_init(&d, a);
	diag_add_source(&d, "test.ir", text);
	struct ir_func *f = ir_parse(text, "test.ir", a, &d);
	if (!f || d.errors) {
		print_error("%s\n", diag_render(&d));
		fail_msg("parse failed");
	}
	return f;
}

/* Validates; fails the test with the diagnostics if invalid. */
static inline void validate_ok(struct arena *a, const struct ir_func *f)
{
	struct diag_sink d;
	diag_init(&d, a);
	if (!ir_validate(f, &d)) {
		print_error("%s\n%s\n", diag_render(&d), ir_print(f, a));
		fail_msg("validation failed");
	}
}

static inline char *read_text_file(const char *path)
{
	return test_read_file(path);
}

/* Deterministic inputs and uniforms for before/after comparisons:
 * input i, pixel p, component c; uniform element e, component c. */
struct test_env {
	float in[8][4][4];
	const float (*in_ptrs[8])[4];
	float uni[64][4];
	struct ir_interp_env env;
};

static inline void test_env_init(struct test_env *t, int seed)
{
	memset(t, 0, sizeof *t);
	for (int i = 0; i < 8; i++) {
		for (int p = 0; p < 4; p++)
			for (int c = 0; c < 4; c++)
				t->in[i][p][c] = (float)((i * 7 + p * 3 + c * 5 + seed * 11) % 17) * 0.25f - 1.5f;
		t->in_ptrs[i] = t->in[i];
	}
	for (int e = 0; e < 64; e++)
		for (int c = 0; c < 4; c++)
			t->uni[e][c] = (float)((e * 5 + c * 3 + seed * 7) % 13) * 0.5f - 2.0f;
	t->env.inputs = t->in_ptrs;
	t->env.uniform_values = (const float(*)[4])t->uni;
	for (int p = 0; p < 4; p++)
		t->env.covered[p] = true;
}

#endif
