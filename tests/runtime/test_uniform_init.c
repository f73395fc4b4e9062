/* GLSL 1.20 uniform initializers past the IR: the backend's uniform table,
 * the container (layout, round trip, rejection of a corrupt list), its
 * JSON and the uscc.h accessor, and the emulator, which binds them when a
 * run gives no value, checked against the IR interpreter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "container.h"
#include "emu.h"
#include "fnv.h"
#include "ir_interp.h"
#include "ir_pass.h"
#include "r500_compile.h"
#include "uscc.h"
#include "program_fixture.h"

static const float init_m1[4] = { 1.5f, -2.0f, 0.0f, 0.0f };
static const float init_u0[4] = { 0.25f, 0.5f, 0.75f, 1.0f };

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void put_le32(uint8_t *b, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static void resign(uint8_t *buf, size_t size)
{
	uint64_t h = fnv64(buf, size - 8);
	for (int i = 0; i < 8; i++)
		buf[size - 8 + i] = (uint8_t)(h >> (8 * i));
}

/* Offset of the UNIF section's payload; its length in *len. */
static size_t unif_payload(const uint8_t *buf, uint32_t *len)
{
	size_t off = 16;
	for (int i = 0; i < 8; i++) {
		uint32_t l = le32(buf + off + 4);
		if (memcmp(buf + off, "UNIF", 4) == 0) {
			*len = l;
			return off + 8;
		}
		off += 8 + (l + 3) / 4 * 4;
	}
	fail_msg("no UNIF section");
	return 0;
}

/* The fixture's entries: "u" (vec4) 4+1+1 + "vec4" 4+4+1 + 12 + 5 = 32
 * bytes, "m\"x\n" (mat2) 9 + 9 + 12 + 5 = 35; with the count, 71. */
enum { ENTRIES_LEN = 71 };

static uint8_t *write_program(const struct r500_program *p, size_t *size)
{
	uint8_t *buf = container_write(p, NULL, size);
	assert_non_null(buf);
	return buf;
}

static void test_layout(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	size_t size0, size1;
	uint32_t len;
	uint8_t *plain = write_program(&f.p, &size0);
	unif_payload(plain, &len);
	assert_int_equal(len, ENTRIES_LEN); /* no initializers: no list at all */

	f.uniforms[1].init = init_m1;
	uint8_t *buf = write_program(&f.p, &size1);
	size_t at = unif_payload(buf, &len);
	assert_int_equal(len, ENTRIES_LEN + 4 + 20);
	/* 71 -> 95: padding 1 -> 1, so the file grows by exactly 24 bytes */
	assert_int_equal(size1, size0 + 24);
	assert_int_equal(le32(buf + at + ENTRIES_LEN), 1);       /* ninit */
	assert_int_equal(le32(buf + at + ENTRIES_LEN + 4), 1);   /* entry 1 */
	assert_int_equal(le32(buf + at + ENTRIES_LEN + 8), 0x3FC00000);  /* 1.5f */
	assert_int_equal(le32(buf + at + ENTRIES_LEN + 12), 0xC0000000); /* -2.0f */
	assert_int_equal(le32(buf + at + ENTRIES_LEN + 16), 0);
	assert_int_equal(le32(buf + at + ENTRIES_LEN + 20), 0);
	/* the rest is the program without a list: the header after the total
	 * size, the sections before UNIF, and UNIF's entries */
	assert_memory_equal(buf + 12, plain + 12, at - 4 - 12);
	assert_memory_equal(buf + at, plain + at, ENTRIES_LEN);
	free(plain);
	free(buf);
}

static void test_round_trip_and_json(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	f.uniforms[1].init = init_m1;
	size_t size;
	uint8_t *buf = write_program(&f.p, &size);
	struct arena *a = arena_create(NULL);
	struct r500_program p;
	char why[256];
	if (!container_read(buf, size, a, &p, why, sizeof why))
		fail_msg("%s", why);
	assert_int_equal(p.nuniforms, 2);
	assert_null(p.uniforms[0].init);
	assert_non_null(p.uniforms[1].init);
	assert_memory_equal(p.uniforms[1].init, init_m1, sizeof init_m1);

	/* written again, the same bytes */
	size_t size2;
	uint8_t *again = write_program(&p, &size2);
	assert_int_equal(size2, size);
	assert_memory_equal(again, buf, size);
	free(again);

	const char *json = container_to_json(&p, a);
	assert_non_null(json);
	assert_non_null(strstr(json, "\"name\":\"u\",\"type\":\"vec4\",\"slot\":0,"
				     "\"swizzle\":\"xyzw\",\"array_len\":0,\"element\":0},"));
	assert_non_null(strstr(json, "\"swizzle\":\"xy\",\"array_len\":3,\"element\":1,"
				     "\"init\":[1.5,-2,0,0]}]"));
	/* only the element that has one */
	assert_null(strstr(strstr(json, "\"init\"") + 1, "\"init\""));
	arena_destroy(a);

	/* the public accessor */
	struct uscc_container *c;
	assert_int_equal(uscc_container_open(NULL, buf, size, &c, why, sizeof why), USCC_OK);
	struct uscc_uniform_info info;
	assert_true(uscc_container_uniform(c, 0, &info));
	assert_null(info.init);
	assert_true(uscc_container_uniform(c, 1, &info));
	assert_non_null(info.init);
	assert_true(info.init[0] == 1.5f && info.init[1] == -2.0f && info.init[3] == 0.0f);
	uscc_container_destroy(c);
	free(buf);
}

/* Each corruption of the list, re-signed so that only the list is wrong. */
static void expect_rejected(void (*corrupt)(uint8_t *list), const char *message)
{
	struct fixture f;
	fixture_init(&f);
	f.uniforms[0].init = init_u0;
	f.uniforms[1].init = init_m1;
	size_t size;
	uint8_t *buf = write_program(&f.p, &size);
	uint32_t len;
	size_t at = unif_payload(buf, &len);
	assert_int_equal(len, ENTRIES_LEN + 4 + 40);
	corrupt(buf + at + ENTRIES_LEN);
	resign(buf, size);
	struct arena *a = arena_create(NULL);
	struct r500_program p;
	char why[256];
	bool ok = container_read(buf, size, a, &p, why, sizeof why);
	arena_destroy(a);
	free(buf);
	if (ok)
		fail_msg("accepted; wanted '%s'", message);
	if (!strstr(why, message) || strncmp(why, "UNIF section: ", 14) != 0)
		fail_msg("got '%s'; wanted '%s'", why, message);
}

static void count_zero(uint8_t *l) { put_le32(l, 0); }
static void count_over(uint8_t *l) { put_le32(l, 3); }
static void count_short(uint8_t *l) { put_le32(l, 1); }
static void swapped(uint8_t *l) { put_le32(l + 4, 1); put_le32(l + 24, 0); }
static void repeated(uint8_t *l) { put_le32(l + 24, 0); }
static void past_end(uint8_t *l) { put_le32(l + 24, 2); }

static void test_rejects(void **state)
{
	(void)state;
	expect_rejected(count_zero, "uniform initializer count is 0");
	expect_rejected(count_over, "uniform initializer count 3 exceeds the limit 2");
	/* one entry read, 20 bytes left over */
	expect_rejected(count_short, "20 unexpected bytes at its end");
	expect_rejected(swapped, "uniform initializer entry 0 out of range 2..1");
	expect_rejected(repeated, "uniform initializer entry 0 out of range 1..1");
	expect_rejected(past_end, "uniform initializer entry 2 out of range 1..1");
}

/* Every byte of the list set to a few values (re-signed), and every
 * truncation: read or rejected, never a crash or a read past the end
 * (run under the sanitizers). */
static void test_hostile(void **state)
{
	(void)state;
	struct fixture f;
	fixture_init(&f);
	f.uniforms[0].init = init_u0;
	f.uniforms[1].init = init_m1;
	size_t size;
	uint8_t *buf = write_program(&f.p, &size);
	uint32_t len;
	size_t at = unif_payload(buf, &len);
	uint8_t *copy = malloc(size);
	assert_non_null(copy);
	static const uint8_t values[] = { 0x00, 0x01, 0x02, 0x7f, 0x80, 0xff };
	int accepted = 0;
	for (size_t i = at + ENTRIES_LEN; i < at + len; i++)
		for (size_t v = 0; v < sizeof values; v++) {
			memcpy(copy, buf, size);
			copy[i] = values[v];
			resign(copy, size);
			struct arena *a = arena_create(NULL);
			struct r500_program p;
			char why[256];
			if (container_read(copy, size, a, &p, why, sizeof why)) {
				accepted++;
				for (int u = 0; u < p.nuniforms; u++)
					if (p.uniforms[u].init)
						(void)p.uniforms[u].init[3];
			}
			arena_destroy(a);
		}
	/* the 32 float bytes accept any value; the index and count bytes
	 * only the original ones (one per position here) */
	assert_true(accepted >= 32 * 6);
	for (size_t n = 0; n < size; n++) {
		struct arena *a = arena_create(NULL);
		struct r500_program p;
		char why[256];
		assert_false(container_read(buf, n, a, &p, why, sizeof why));
		arena_destroy(a);
	}
	free(copy);
	free(buf);
}

/* tint = vec4(0.25, 0.5, 0.75, 1); vec2 k[2] = (1, 2), (3, 4); plain has
 * none.  gl_FragColor = tint * (k[0] + k[1]).xxyy + plain. */
static const char *const prog_text =
	"stage fragment\n"
	"uniform #0 \"tint\" \"vec4\" f4 nvec4=1 array=0 base=0 init=[0.25 0.5 0.75 1]\n"
	"uniform #1 \"k\" \"vec2\" f2 nvec4=2 array=2 base=1 init=[1 2 0 0] [3 4 0 0]\n"
	"uniform #2 \"plain\" \"float\" f1 nvec4=1 array=0 base=3\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = uniform.f4 #0[0]\n"
	"%2 = uniform.f2 #1[0]\n"
	"%3 = uniform.f2 #1[1]\n"
	"%4 = uniform.f1 #2[0]\n"
	"%5 = add.f2 %2.xy, %3.xy\n"
	"%6 = mul.f4 %1.xyzw, %5.xxyy\n"
	"%7 = add.f4 %6.xyzw, %4.xxxx\n"
	"output #0 %7.xyzw\n";

struct compiled {
	struct arena *arena;
	struct ir_func *ref;
	struct r500_program loaded; /* through the container */
};

static void compile_prog(struct compiled *c, int opt_level)
{
	c->arena = arena_create(NULL);
	struct diag_sink diag;
	diag_init(&diag, c->arena);
	c->ref = ir_parse(prog_text, "init.ir", c->arena, &diag);
	struct ir_func *f = ir_parse(prog_text, "init.ir", c->arena, &diag);
	if (!c->ref || !f || diag.errors)
		fail_msg("%s", diag_render(&diag));
	if (opt_level > 0) {
		struct ir_pass_ctx pctx;
		ir_pass_ctx_init(&pctx, &diag);
		pctx.validate = true;
		if (!ir_optimize(f, opt_level, &pctx))
			fail_msg("%s", diag_render(&diag));
	}
	struct r500_compile_options o = { .opt_level = opt_level, .validate = true };
	struct r500_program *p = r500_compile(f, &o, c->arena, &diag);
	if (!p)
		fail_msg("%s", diag_render(&diag));
	/* the table: one entry per vec4 element, each with its own values */
	assert_int_equal(p->nuniforms, 4);
	assert_memory_equal(p->uniforms[0].init, init_u0, sizeof init_u0);
	const float k1[4] = { 3, 4, 0, 0 };
	assert_string_equal(p->uniforms[2].name, "k");
	assert_int_equal(p->uniforms[2].element, 1);
	assert_memory_equal(p->uniforms[2].init, k1, sizeof k1);
	assert_null(p->uniforms[3].init);
	size_t size;
	uint8_t *bin = write_program(p, &size);
	char why[256];
	if (!container_read(bin, size, c->arena, &c->loaded, why, sizeof why))
		fail_msg("%s", why);
	free(bin);
}

static void emu_pixel(const struct r500_program *p, const struct emu_uniform *u, int nu,
		      float out[4])
{
	struct emu_config cfg = { .width = 2, .height = 2, .uniforms = u, .nuniforms = nu };
	struct emu_image img;
	memset(&img, 0, sizeof img);
	char why[256];
	if (!emu_run(p, &cfg, &img, why, sizeof why))
		fail_msg("emulator: %s", why);
	for (int i = 1; i < 4; i++)
		assert_memory_equal(img.rt[0] + 4 * i, img.rt[0], 4 * sizeof(float));
	memcpy(out, img.rt[0], 4 * sizeof(float));
	emu_image_free(&img);
}

static void interp_pixel(const struct ir_func *f, const float (*uni)[4], float out[4])
{
	struct ir_interp_env env = { .uniform_values = uni, .covered = { 1, 1, 1, 1 } };
	struct ir_interp_result res;
	assert_true(ir_interp_quad(f, &env, &res, NULL));
	memcpy(out, res.outputs[0][0], 4 * sizeof(float));
}

static void assert_vec4(const char *what, const float got[4], float x, float y, float z,
			float w)
{
	const float want[4] = { x, y, z, w };
	for (int c = 0; c < 4; c++)
		if (got[c] != want[c])
			fail_msg("%s component %d: got %.9g, want %.9g", what, c,
				 (double)got[c], (double)want[c]);
}

static void check_level(int opt_level)
{
	struct compiled c;
	compile_prog(&c, opt_level);
	float emu[4], ref[4];

	/* nothing given: the initializers, plain 0 (worked out by hand:
	 * k[0] + k[1] = (4, 6), tint * (4, 4, 6, 6)) */
	emu_pixel(&c.loaded, NULL, 0, emu);
	interp_pixel(c.ref, NULL, ref);
	assert_vec4("emu, no values", emu, 1.0f, 2.0f, 4.5f, 6.0f);
	assert_vec4("interp, no values", ref, 1.0f, 2.0f, 4.5f, 6.0f);

	/* k[1] and plain given: they replace those, tint and k[0] stay:
	 * (1, 2) + (10, 20) = (11, 22); tint * (11, 11, 22, 22) + 0.5 */
	struct emu_uniform given[2] = { { .name = "k[1]", .value = { 10, 20 }, .ncomp = 2 },
					{ .name = "plain", .value = { 0.5f }, .ncomp = 1 } };
	emu_pixel(&c.loaded, given, 2, emu);
	float vals[4][4];
	ir_uniform_defaults(c.ref, vals);
	vals[2][0] = 10;
	vals[2][1] = 20;
	vals[3][0] = 0.5f;
	interp_pixel(c.ref, (const float(*)[4])vals, ref);
	assert_vec4("emu, k[1] and plain", emu, 3.25f, 6.0f, 17.0f, 22.5f);
	assert_vec4("interp, k[1] and plain", ref, 3.25f, 6.0f, 17.0f, 22.5f);

	/* the whole array given with fewer values than it has: the rest is
	 * 0, not the initializer (as for a uniform without one) */
	struct emu_uniform k_short = { .name = "k", .value = { 2, 0.5f, 1 }, .ncomp = 3 };
	emu_pixel(&c.loaded, &k_short, 1, emu);
	/* k = (2, 0.5), (1, 0): sum (3, 0.5); tint * (3, 3, 0.5, 0.5) */
	assert_vec4("emu, k short", emu, 0.75f, 1.5f, 0.375f, 0.5f);

	arena_destroy(c.arena);
}

static void test_emulator_binds_initializers(void **state)
{
	(void)state;
	check_level(0);
	check_level(2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_round_trip_and_json),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_emulator_binds_initializers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
