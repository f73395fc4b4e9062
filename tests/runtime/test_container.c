/* Container: round trip, byte layout, and rejection of every kind of
 * corruption (truncation, bit flips, garbage, out-of-range fields). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "arena_strbuf.h"
#include "container.h"
#include "r500_cp.h"
#include "fnv.h"
#include "ir.h"
#include "r500_codec.h"
#include "program_fixture.h"

static uint8_t *write_fixture(struct fixture *f, size_t *size)
{
	fixture_init(f);
	for (int i = 0; i < 3; i++) {
		char why[128];
		uint32_t w[6];
		struct r500_inst d;
		r500_encode(&f->code[i], w);
		if (!r500_decode(w, &d, why, sizeof why))
			fail_msg("fixture instruction %d invalid: %s", i, why);
	}
	uint8_t *buf = container_write(&f->p, NULL, size);
	assert_non_null(buf);
	return buf;
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void resign(uint8_t *buf, size_t size)
{
	uint64_t h = fnv64(buf, size - 8);
	for (int i = 0; i < 8; i++)
		buf[size - 8 + i] = (uint8_t)(h >> (8 * i));
}

static bool read_ok(const uint8_t *buf, size_t size, char *why, size_t why_len)
{
	struct arena *a = arena_create(NULL);
	struct r500_program p;
	bool ok = container_read(buf, size, a, &p, why, why_len);
	arena_destroy(a);
	return ok;
}

static void test_fnv_vectors(void **state)
{
	(void)state;
	/* published FNV-1a 64 test vectors */
	assert_true(fnv64("", 0) == 0xcbf29ce484222325ULL);
	assert_true(fnv64("a", 1) == 0xaf63dc4c8601ec8cULL);
	assert_true(fnv64("foobar", 6) == 0x85944171f73967e8ULL);
}

static void test_layout(void **state)
{
	(void)state;
	struct fixture f;
	size_t size;
	uint8_t *buf = write_fixture(&f, &size);
	assert_memory_equal(buf, "USCC", 4);
	assert_int_equal(le32(buf + 4), 2);
	assert_int_equal(le32(buf + 8), size);
	assert_int_equal(le32(buf + 12), 9);
	/* first section: CODE, 4 + 3 * 24 bytes */
	assert_memory_equal(buf + 16, "CODE", 4);
	assert_int_equal(le32(buf + 20), 76);
	assert_int_equal(le32(buf + 24), 3);
	uint32_t w[6];
	r500_encode(&f.code[0], w);
	assert_int_equal(le32(buf + 28), w[0]);
	/* then CNST: nslots 4, 2 immediates of 20 bytes */
	assert_memory_equal(buf + 100, "CNST", 4);
	assert_int_equal(le32(buf + 104), 48);
	assert_int_equal(le32(buf + 108), 4);
	assert_int_equal(le32(buf + 112), 2);
	assert_int_equal(le32(buf + 116), 1);          /* slot */
	assert_int_equal(le32(buf + 120), 0x3f800000); /* 1.0f */
	assert_int_equal(le32(buf + 124), 0x3f000000); /* 0.5f */
	assert_int_equal(le32(buf + 128), 0xc0000000); /* -2.0f */
	assert_int_equal(le32(buf + 136), 3);          /* second slot */
	assert_memory_equal(buf + 156, "UNIF", 4);
	assert_int_equal(size % 4, 0);
	/* trailer: FNV-1a 64 of the rest, little-endian */
	uint64_t h = fnv64(buf, size - 8);
	assert_int_equal(le32(buf + size - 8), (uint32_t)h);
	assert_int_equal(le32(buf + size - 4), (uint32_t)(h >> 32));
	free(buf);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct fixture f;
	size_t size;
	uint8_t *buf = write_fixture(&f, &size);
	struct arena *a = arena_create(NULL);
	struct r500_program p;
	char why[256];
	bool ok = container_read(buf, size, a, &p, why, sizeof why);
	if (!ok)
		fail_msg("read failed: %s", why);
	assert_int_equal(p.ninst, 3);
	for (int i = 0; i < 3; i++)
		assert_memory_equal(&p.code[i], &f.code[i], sizeof f.code[i]);
	assert_int_equal(p.nconst_slots, 4);
	assert_int_equal(p.const_is_imm[0], 0);
	assert_int_equal(p.const_is_imm[1], 1);
	assert_int_equal(p.const_is_imm[3], 1);
	assert_true(p.consts[1][2] == -2.0f);
	assert_true(p.consts[3][3] == 0.25f);
	assert_int_equal(p.nuniforms, 2);
	assert_string_equal(p.uniforms[1].name, "m\"x\n");
	assert_string_equal(p.uniforms[1].type, "mat2");
	assert_int_equal(p.uniforms[1].array_len, 3);
	assert_int_equal(p.uniforms[1].element, 1);
	assert_int_equal(p.uniforms[1].slot, 2);
	assert_string_equal(p.uniforms[1].swizzle, "xy");
	assert_int_equal(p.nsamplers, 1);
	assert_string_equal(p.samplers[0].name, "tex");
	assert_int_equal(p.samplers[0].unit, 3);
	assert_int_equal(p.samplers[0].target, IR_TARGET_2D);
	assert_string_equal(p.inputs[0].name, "gl_TexCoord[0]");
	assert_string_equal(p.inputs[0].components, "xyzw");
	assert_int_equal(p.noutputs, 2);
	assert_int_equal(p.outputs[1].target, -1);
	assert_int_equal(p.uses_fc, 1);
	assert_int_equal(p.int_const_used, 0x21);
	assert_int_equal(p.int_consts[5].count, 10);
	assert_int_equal(p.int_consts[5].init, 2);
	assert_int_equal(p.int_consts[5].step, -3);
	assert_int_equal(p.bool_const, 5);
	assert_int_equal(p.pixsize, 2);
	assert_int_equal(p.stats.cycles, 33);
	assert_int_equal(p.stats.compile_us, 1234);
	assert_int_equal(p.cp.ninst, 2);
	assert_int_equal(p.cp.nimm, 1);
	assert_int_equal(p.cp.nouts, 1);
	assert_memory_equal(p.cp.code, f.cp_code, sizeof f.cp_code);
	assert_memory_equal(p.cp.outs, f.cp_outs, sizeof f.cp_outs);
	assert_true(p.cp.imm[0][0] == 2.0f);
	/* writing what was read gives the same bytes */
	size_t size2;
	uint8_t *buf2 = container_write(&p, NULL, &size2);
	assert_int_equal(size2, size);
	assert_memory_equal(buf2, buf, size);
	free(buf2);
	arena_destroy(a);
	free(buf);
}

static void test_every_truncation_rejected(void **state)
{
	(void)state;
	struct fixture f;
	size_t size;
	uint8_t *buf = write_fixture(&f, &size);
	for (size_t n = 0; n < size; n++) {
		/* a copy of exactly n bytes, so ASan sees any overread */
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, buf, n);
		char why[256] = "";
		assert_false(read_ok(cut, n, why, sizeof why));
		assert_true(why[0] != 0);
		free(cut);
	}
	free(buf);
}

static void test_every_bit_flip_rejected(void **state)
{
	(void)state;
	struct fixture f;
	size_t size;
	uint8_t *buf = write_fixture(&f, &size);
	for (size_t i = 0; i < size * 8; i++) {
		buf[i / 8] ^= (uint8_t)(1u << (i % 8));
		char why[256];
		assert_false(read_ok(buf, size, why, sizeof why));
		buf[i / 8] ^= (uint8_t)(1u << (i % 8));
	}
	assert_true(read_ok(buf, size, NULL, 0));
	free(buf);
}

/* With the checksum fixed up, a flip reaches the parser: it may accept
 * (a float changed) but must never crash or overrun. */
static void test_resigned_bit_flips_parse_safely(void **state)
{
	(void)state;
	struct fixture f;
	size_t size;
	uint8_t *buf = write_fixture(&f, &size);
	int rejected = 0;
	for (size_t i = 0; i < (size - 8) * 8; i++) {
		uint8_t *copy = malloc(size);
		memcpy(copy, buf, size);
		copy[i / 8] ^= (uint8_t)(1u << (i % 8));
		resign(copy, size);
		char why[256];
		rejected += !read_ok(copy, size, why, sizeof why);
		free(copy);
	}
	assert_true(rejected > 0);
	free(buf);
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void test_garbage_never_crashes(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	for (int iter = 0; iter < 3000; iter++) {
		size_t n = lcg(&seed) % 400;
		uint8_t *g = malloc(n ? n : 1);
		for (size_t i = 0; i < n; i++)
			g[i] = (uint8_t)lcg(&seed);
		/* half the time make the header and checksum plausible */
		if (iter % 2 && n >= 24) {
			memcpy(g, "USCC\2\0\0\0", 8);
			g[8] = (uint8_t)n;
			g[9] = (uint8_t)(n >> 8);
			g[10] = g[11] = 0;
			memcpy(g + 12, "\11\0\0\0CODE", 8);
			resign(g, n);
		}
		char why[128];
		assert_false(read_ok(g, n, why, sizeof why));
		free(g);
	}
}

static void expect_reject(const uint8_t *buf, size_t size, const char *needle)
{
	char why[256] = "";
	assert_false(read_ok(buf, size, why, sizeof why));
	if (!strstr(why, needle))
		fail_msg("message \"%s\" lacks \"%s\"", why, needle);
}

static void test_specific_errors(void **state)
{
	(void)state;
	struct fixture f;
	size_t size;
	uint8_t *buf = write_fixture(&f, &size);
	buf[0] = 'X';
	expect_reject(buf, size, "magic");
	buf[0] = 'U';
	buf[4] = 1;
	expect_reject(buf, size, "version 1");
	buf[4] = 2;
	buf[size - 1] ^= 1;
	expect_reject(buf, size, "checksum");
	buf[size - 1] ^= 1;
	expect_reject(buf, size - 4, "truncated");
	free(buf);

	/* out-of-range input temporary (written as a byte: 200) */
	fixture_init(&f);
	f.inputs[0].temp = 200;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "input temporary 200");
	free(buf);

	fixture_init(&f);
	f.samplers[0].unit = 16;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "sampler unit 16");
	free(buf);

	fixture_init(&f);
	f.uniforms[0].slot = 256;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "uniform slot 256");
	free(buf);

	fixture_init(&f);
	f.outputs[0].target = 4;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "output target 4");
	free(buf);

	/* negative figures: a 32-bit one by its position, compile_us by name */
	fixture_init(&f);
	f.p.stats.nops = -1;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "figure 5 is negative");
	free(buf);

	fixture_init(&f);
	f.p.stats.compile_us = -2;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "compile_us is negative");
	free(buf);

	/* a reserved RGB opcode makes the decoder refuse instruction 1 */
	fixture_init(&f);
	f.code[1].alu.rgb_op = R500_ROP_RESERVED6;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "instruction 1 is invalid");
	free(buf);
}

/* The constant program: the fixture's runs as ir_eval computes it; a
 * malformed one is refused by name. */
static void test_const_prog(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	assert_string_equal(r500_cp_op_name(4), "mul");
	assert_string_equal(r500_cp_op_name(26), "sin");
	assert_int_equal(r500_cp_op_code(IR_OP_SIN), 26);
	assert_null(r500_cp_op_name(200));
	float c[4][4] = { { 0.25f, -0.5f, 1.0f, 3.0f }, { 0 }, { 7, 7, 7, 7 }, { 0 } };
	assert_true(r500_cp_run(&f.p.cp, c, 4));
	assert_true(c[2][0] == sinf(0.5f) && c[2][1] == sinf(-1.0f));
	assert_true(c[2][2] == 7.0f && c[2][3] == 7.0f); /* not its components */
	assert_false(r500_cp_run(&f.p.cp, c, 2));       /* slot 2 is past 2 slots */
	struct arena *a = arena_create(NULL);
	struct strbuf line;
	strbuf_init(&line, a);
	assert_true(r500_cp_format(&line, &f.p.cp, 0));
	assert_string_equal(strbuf_text(&line), "t0 = mul c0.xyzw, i0.xxxx (4)");
	strbuf_init(&line, a);
	assert_true(r500_cp_format(&line, &f.p.cp, 2));
	assert_string_equal(strbuf_text(&line), "c2.xy = t1.xy");
	assert_false(r500_cp_format(&line, &f.p.cp, 3));
	assert_string_equal(strbuf_text(&line), "c2.xy = t1.xy");
	arena_destroy(a);

	size_t size;
	uint8_t *buf;
	f.cp_code[0].src[0] = (struct r500_cp_src){ R500_CP_TEMP, { 0 }, 1 };
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "reads temporary 1 before it is written");
	free(buf);
	fixture_init(&f);
	f.cp_code[1].op = 200;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "operation 200");
	free(buf);
	fixture_init(&f);
	f.cp_outs[0].slot = 9;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "slot 9 of 4");
	free(buf);
	fixture_init(&f);
	f.cp_code[1].nsrc = 2;
	buf = container_write(&f.p, NULL, &size);
	expect_reject(buf, size, "sin with 2 sources");
	free(buf);
}

static void test_json(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	struct arena *a = arena_create(NULL);
	char *j = container_to_json(&f.p, a);
	assert_non_null(j);
	assert_true(strncmp(j, "{\"version\":2,\"code\":[\"0x", 24) == 0);
	uint32_t w[6];
	char hex[16];
	r500_encode(&f.code[2], w);
	snprintf(hex, sizeof hex, "\"0x%08X\"", (unsigned)w[5]);
	assert_non_null(strstr(j, hex));
	assert_non_null(strstr(j, "\"constants\":[null,[1,0.5,-2,0],null,[0,0,0,0.25]]"));
	assert_non_null(strstr(j, "{\"name\":\"u\",\"type\":\"vec4\",\"slot\":0,\"swizzle\":\"xyzw\""));
	assert_non_null(strstr(j, "\"name\":\"m\\\"x\\u000a\""));
	assert_non_null(strstr(j, "\"samplers\":[{\"name\":\"tex\",\"unit\":3,\"target\":\"2D\""));
	assert_non_null(strstr(j, "\"inputs\":[{\"name\":\"gl_TexCoord[0]\",\"temp\":0,"
				  "\"components\":\"xyzw\"}]"));
	assert_non_null(strstr(j, "{\"name\":\"gl_FragDepth\",\"target\":\"depth\"}"));
	assert_non_null(strstr(j, "\"int_consts\":{\"0\":[255,0,1],\"5\":[10,2,-3]},\"bool_const\":5"));
	assert_non_null(strstr(j, "\"stats\":{\"instructions\":3,"));
	assert_int_equal(j[strlen(j) - 1], '}');

	/* no flow control: no int_consts / bool_const keys */
	f.p.uses_fc = 0;
	j = container_to_json(&f.p, a);
	assert_null(strstr(j, "int_consts"));
	assert_null(strstr(j, "bool_const"));
	arena_destroy(a);
}

static void test_stats_json(void **state)
{
	(void)state;
	struct r500_stats s = { .instructions = 10, .alu = 6, .tex = 2, .fc = 1, .out = 1, .nops = 1,
				.pairs = 4, .temps = 5, .constants = 3, .lower_bound = 5,
				.cycles = 41, .compile_us = 77 };
	struct arena *a = arena_create(NULL);
	assert_string_equal(stats_to_json(&s, a),
			    "{\"instructions\":10,\"alu\":6,\"tex\":2,\"fc\":1,\"out\":1,"
			    "\"nops\":1,\"pairs\":4,\"temps\":5,\"constants\":3,"
			    "\"lower_bound\":5,\"cycles\":41,\"compile_us\":77}");
	arena_destroy(a);
}

/* Allocator that fails from the Nth call on. */
struct failing {
	int left;
};

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)osize;
	struct failing *f = ud;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	if (f->left-- <= 0)
		return NULL;
	return realloc(ptr, nsize);
}

/* The unrolled loop hashes every length as the plain byte loop does. */
static void test_fnv_lengths(void **state)
{
	(void)state;
	uint8_t data[41];
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 37 + 11);
	for (size_t n = 0; n <= sizeof data; n++) {
		uint64_t h = FNV64_BASIS;
		for (size_t i = 0; i < n; i++)
			h = (h ^ data[i]) * FNV64_PRIME;
		assert_true(fnv64(data, n) == h);
	}
}

/* A container too large for the writer's stack buffer is written a
 * second time into its allocation: the same bytes a reader accepts. */
static void test_large_program(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	enum { N = 500 }; /* 500 * 24 bytes of code: past 8 KiB */
	struct r500_inst *code = calloc(N, sizeof *code);
	assert_non_null(code);
	for (int i = 0; i < N; i++)
		code[i] = f.code[1];
	code[N - 1] = f.code[2];
	f.p.code = code;
	f.p.ninst = N;
	size_t size;
	uint8_t *buf = container_write(&f.p, NULL, &size);
	assert_non_null(buf);
	assert_true(size > 8192);
	assert_int_equal(le32(buf + 8), size);
	struct arena *a = arena_create(NULL);
	struct r500_program p;
	char why[256];
	if (!container_read(buf, size, a, &p, why, sizeof why))
		fail_msg("read failed: %s", why);
	assert_int_equal(p.ninst, N);
	size_t size2;
	uint8_t *buf2 = container_write(&p, NULL, &size2);
	assert_int_equal(size2, size);
	assert_memory_equal(buf2, buf, size);
	free(buf2);
	free(buf);
	free(code);
	arena_destroy(a);
}

static void test_write_allocation_failure(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	struct failing fl = { 0 };
	struct mem_allocator al = { failing_alloc, &fl };
	size_t size = 0;
	assert_null(container_write(&f.p, &al, &size));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv_vectors),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_every_truncation_rejected),
		cmocka_unit_test(test_every_bit_flip_rejected),
		cmocka_unit_test(test_resigned_bit_flips_parse_safely),
		cmocka_unit_test(test_garbage_never_crashes),
		cmocka_unit_test(test_specific_errors),
		cmocka_unit_test(test_const_prog),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_stats_json),
		cmocka_unit_test(test_write_allocation_failure),
		cmocka_unit_test(test_fnv_lengths),
		cmocka_unit_test(test_large_program),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
