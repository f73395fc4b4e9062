/* The emulator's bounds (runtime/emu*.c): the step bound and its message,
 * the default bound by draw size, jumps past the end, the address stack,
 * constants past the program's slots, the draw's memory limit, uniform
 * elements and inputs out of range, unbound texture units; and every
 * one-bit mutation of real containers (checksum fixed, so the decoder and
 * then the emulator see it) gives a result or a clean error. */
#include <stdio.h>
#include "test_emu_fc_util.h"
#include "container.h"
#include "fnv.h"
#include "uscc.h"
#include "../test_util.h"

/* An OUT slot sending src0 * 1 + 0 to render target 0. */
static struct r500_inst *out_src0(struct tp *t)
{
	struct r500_inst *o = tp_out(t);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	return o;
}

/* 0: JUMP always to 0 (never ends); 1: OUT. */
static void runaway(struct tp *t)
{
	tp_init(t);
	fc(t, R500_FC_JUMP, 0xFF, 1, 0);
	tp_out(t);
}

static void test_step_bound(void **state)
{
	(void)state;
	struct tp t;
	runaway(&t);
	t.cfg.max_steps = 1000;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "runaway program: the step bound of 1000 steps "
				      "(max_steps) was reached at slot 0"));
	assert_true(t.img.step_limit);
	assert_int_equal(t.img.steps, 1000);
	assert_null(t.img.rt[0]);

	/* the default bound names itself and is emu_default_steps */
	t.cfg.max_steps = 0;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "(the default for this draw size)"));
	assert_true(t.img.step_limit);
	assert_int_equal(t.img.steps, emu_default_steps(2, 2));

	/* other faults are no step-bound hit */
	tp_init(&t);
	fc(&t, R500_FC_ENDLOOP, 0xFF, 1, 0);
	tp_out(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_false(t.img.step_limit);

	/* a program that ends reports its steps */
	tp_init(&t);
	tp_out(&t);
	t.cfg.max_steps = 1;
	tp_run(&t);
	assert_false(t.img.step_limit);
	assert_int_equal(t.img.steps, 1);
	tp_done(&t);
}

static void test_default_steps(void **state)
{
	(void)state;
	assert_int_equal(emu_default_steps(2, 2), 2000000);
	assert_int_equal(emu_default_steps(1, 1), 2000000);
	assert_int_equal(emu_default_steps(64, 64), 50000000 / 1024);
	assert_int_equal(emu_default_steps(512, 512), 1024); /* 50000000 / 65536 is below the floor */
	assert_int_equal(emu_default_steps(16384, 16384), 1024);
}

static void test_jump_targets(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	fc(&t, R500_FC_JUMP, 0xFF, 1, 7);
	tp_out(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_string_equal(t.why, "slot 0: jumps to slot 7, past the end of the program "
			    "(2 instructions)");
	/* 511, the largest address a word holds */
	t.code[0].fc.jump_addr = 511;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "jumps to slot 511"));
	/* one past the last slot ends the program */
	t.code[0].fc.jump_addr = 2;
	tp_run(&t);
	assert_non_null(t.img.warnings);
	assert_non_null(strstr(t.img.warnings, "the program ends on a slot that is not OUT"));
	tp_done(&t);
	/* a jump never taken may point anywhere */
	t.code[0].fc.jump_func = 0;
	t.code[0].fc.jump_addr = 400;
	tp_run(&t);
	tp_done(&t);
}

static void test_address_stack(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	fc(&t, R500_FC_JUMP, 0xFF, 1, 0)->fc.a_op = R500_FC_A_PUSH; /* calls itself */
	tp_out(&t);
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_string_equal(t.why, "slot 0: address stack overflow");
	t.code[0].fc.a_op = R500_FC_A_POP;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_string_equal(t.why, "slot 0: return with an empty address stack");
}

/* OUT c5: past a program of 2 constant slots, a warning (the value is 0). */
static void test_constant_past_slots(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	struct r500_inst *o = out_src0(&t);
	tp_src_const(o, 0, 5);
	tp_const(&t, 5, 1, 2, 3, 4);
	struct r500_program *p = tp_prog(&t);
	p->nconst_slots = 2;
	assert_true(emu_run(p, &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(t.img.warnings);
	assert_non_null(strstr(t.img.warnings, "slot 0: reads constant c5, past the program's 2 "
					       "constant slots"));
	tp_expect(&t, 0, 0, 0, 0, 0, 0, 0);
	tp_done(&t);
	p->nconst_slots = 6;
	assert_true(emu_run(p, &t.cfg, &t.img, t.why, sizeof t.why));
	assert_null(t.img.warnings);
	tp_expect(&t, 0, 1, 1, 1, 2, 3, 4);
	tp_done(&t);
	/* relative (aL is 0 outside a loop): c250, past the slots too */
	tp_init(&t);
	o = out_src0(&t);
	o->alu.rgb_addr.src[0] = (struct r500_addr){ .addr = 250, .cnst = 1, .rel = 1 };
	o->alu.alpha_addr.src[0] = (struct r500_addr){ .addr = 250, .cnst = 1, .rel = 1 };
	p = tp_prog(&t);
	p->nconst_slots = 2; /* (tp_run would set 256 again) */
	assert_true(emu_run(p, &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(t.img.warnings);
	assert_non_null(strstr(t.img.warnings, "reads constant c250"));
	tp_done(&t);
}

static void test_memory_limit(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_out(&t);
	t.cfg.width = t.cfg.height = 8192;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "a 8192x8192 draw of a program using 1 temporaries needs"));
	assert_non_null(strstr(t.why, "more than the emulator's limit of 1024 MiB"));
	assert_null(t.img.rt[0]);
	t.cfg.width = 16385;
	t.cfg.height = 1;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_string_equal(t.why, "bad size 16385x1");
	t.cfg.width = -3;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	/* relative temporaries: every pixel has all 128 */
	t.code[0].alu.rgb_addrd_rel = 1;
	t.cfg.width = t.cfg.height = 1024;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "using 128 temporaries"));
	t.cfg.width = t.cfg.height = 128;
	tp_run(&t);
	tp_done(&t);
}

static void test_tables_out_of_range(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	struct r500_inst *o = out_src0(&t);
	tp_src_const(o, 0, 0);
	t.unis[0] = (struct r500_uniform){ .name = "u", .type = "vec4", .element = 1 << 30,
					   .slot = 0, .swizzle = "xyzw" };
	t.unis[1] = (struct r500_uniform){ .name = "w", .type = "mat4", .element = -5,
					   .slot = 0, .swizzle = "xyzw" };
	t.unis[2] = (struct r500_uniform){ .name = "v", .type = "vec4", .slot = 300,
					   .swizzle = "xyzw" };
	t.nunis = 3;
	struct emu_uniform given[3] = {
		{ .name = "u", .value = { 1, 1, 1, 1 }, .ncomp = 4 },
		{ .name = "w[3]", .value = { 1, 1, 1, 1 }, .ncomp = 4 },
		{ .name = "v", .value = { 1, 1, 1, 1 }, .ncomp = 4 },
	};
	t.cfg.uniforms = given;
	t.cfg.nuniforms = 3;
	tp_run(&t);
	tp_expect(&t, 0, 1, 1, 0, 0, 0, 0); /* none of them reached c0 */
	tp_done(&t);

	t.inputs[0].temp = 200;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_string_equal(t.why, "input 'v' in temporary 200, out of range");
}

/* TEX from unit 15 with one texture bound: (0, 0, 0, 1). */
static void test_unbound_texture_unit(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	struct r500_inst *x = &t.code[t.n++];
	memset(x, 0, sizeof *x);
	x->cmn.type = R500_TYPE_TEX;
	x->cmn.rgb_wmask = 7;
	x->cmn.alpha_wmask = 1;
	x->tex.inst = R500_TEX_LD;
	x->tex.tex_id = 15;
	x->tex.sem_acquire = 1;
	x->tex.dst_addr = 1;
	for (int c = 0; c < 4; c++)
		x->tex.src_swz[c] = x->tex.dst_swz[c] = (uint16_t)c;
	struct r500_inst *o = out_src0(&t);
	o->cmn.tex_sem_wait = 1;
	tp_src_temp(o, 0, 1);
	float white[4] = { 1, 1, 1, 1 };
	struct tex_image one = { .width = 1, .height = 1, .depth = 1, .texels = white };
	t.cfg.textures = &one;
	t.cfg.ntextures = 1;
	tp_run(&t);
	tp_expect(&t, 0, 1, 1, 0, 0, 0, 1);
	tp_done(&t);
	x->tex.tex_id = 0;
	tp_run(&t);
	tp_expect(&t, 0, 1, 1, 1, 1, 1, 1);
	tp_done(&t);
}

/* ---- mutated containers ---- */

static uint8_t *compile_file(const char *name, size_t *size)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", USCC_SOURCE_DIR, name);
	char *src = test_read_file(path);
	assert_non_null(src);
	struct uscc_result *r;
	assert_int_equal(uscc_compile(NULL, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	const void *d = uscc_result_data(r, size);
	uint8_t *bin = malloc(*size);
	assert_non_null(bin);
	memcpy(bin, d, *size);
	uscc_result_destroy(r);
	free(src);
	return bin;
}

static void fix_checksum(uint8_t *bin, size_t size)
{
	uint64_t h = fnv64(bin, size - 8);
	for (int i = 0; i < 8; i++)
		bin[size - 8 + (size_t)i] = (uint8_t)(h >> (8 * i));
}

/* Runs a container if it decodes; returns whether it decoded. */
static bool try_container(const uint8_t *bin, size_t size, const struct tex_image *tex)
{
	struct arena *a = arena_create(NULL);
	assert_non_null(a);
	struct r500_program p;
	char why[256] = "";
	bool decoded = container_read(bin, size, a, &p, why, sizeof why);
	if (!decoded) {
		assert_true(why[0] != 0);
	} else {
		struct emu_config cfg = { .width = 3, .height = 3, .textures = tex,
					  .ntextures = 16, .max_steps = 20000 };
		struct emu_image img;
		if (emu_run(&p, &cfg, &img, why, sizeof why))
			emu_image_free(&img);
		else
			assert_true(why[0] != 0);
	}
	arena_destroy(a);
	return decoded;
}

/* Every bit of every byte flipped in turn, the checksum made right again;
 * then every truncation.  Nothing may crash, leak or run unbounded. */
static void test_mutated_containers(void **state)
{
	(void)state;
	static const char *const files[] = {
		"samples/checkerboard.frag", "samples/phong.frag",
		"tests/shaders/cf_while_break.frag", "tests/shaders/cf_dynamic_index.frag",
	};
	/* 2x2 texels, six times over for the cube units */
	float texels[6 * 2 * 2 * 4];
	for (int i = 0; i < 96; i++)
		texels[i] = (float)(i % 5) / 4.0f;
	struct tex_image tex[16];
	for (int u = 0; u < 16; u++)
		tex[u] = (struct tex_image){ .target = u % 5, .width = 2, .height = 2, .depth = 1,
					     .texels = texels };
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
		size_t size;
		uint8_t *bin = compile_file(files[f], &size);
		assert_true(try_container(bin, size, tex));
		int decoded = 0, tried = 0;
		for (size_t i = 0; i + 8 < size; i++)
			for (int b = 0; b < 8; b++) {
				bin[i] ^= (uint8_t)(1u << b);
				fix_checksum(bin, size);
				decoded += try_container(bin, size, tex);
				tried++;
				bin[i] ^= (uint8_t)(1u << b);
			}
		fix_checksum(bin, size);
		for (size_t n = 0; n < size; n++)
			assert_false(try_container(bin, n, tex));
		/* the decoder rejects much, but not all: the emulator ran some */
		assert_true(decoded > 0 && decoded < tried);
		free(bin);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_bound),
		cmocka_unit_test(test_default_steps),
		cmocka_unit_test(test_jump_targets),
		cmocka_unit_test(test_address_stack),
		cmocka_unit_test(test_constant_past_slots),
		cmocka_unit_test(test_memory_limit),
		cmocka_unit_test(test_tables_out_of_range),
		cmocka_unit_test(test_unbound_texture_unit),
		cmocka_unit_test(test_mutated_containers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
