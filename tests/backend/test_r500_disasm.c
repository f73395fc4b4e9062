/* Disassembler and assembler: hand-encoded (words, text) pairs tested both
 * ways, round trips of random instructions through the text, and no crash
 * on 100000 random words.  Words were worked out by hand from ISA.md §4. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arena.h"
#include "arena_strbuf.h"
#include "r500_codec.h"

/* The assembly text of one instruction, in arena a. */
static const char *disasm(struct arena *a, const struct r500_inst *in)
{
	struct strbuf b;
	strbuf_init(&b, a);
	r500_disasm_inst(&b, in);
	const char *text = strbuf_text(&b);
	assert_non_null(text);
	return text;
}

struct golden { uint32_t w[6]; const char *text; };

static const struct golden goldens[] = {
	/* §9 worked example: OUT, MAD, temp + const sources */
	{ { 0x0007F805, 0x10000801, 0x10000801, 0x00442220, 0x0068C000, 0x1C222000 },
	  "out sem_wait src0=t1,t1 src1=t2,t2 src2=c0,c0 : t0.rgb = MAD src0.rgb, src1.rgb, src2.rgb"
	  " -> rt0.rgb : t0.a = MAD src0.a, src1.a, src2.a -> rt0.a" },
	/* presubtract, inline constants 0.5 / 0 / 1.0, clamp, OMOD x2, NEG, ABS, NOP */
	{ { 0x00087A00, 0x4B001404, 0x0B820107, 0x04444223, 0x0070C030, 0x9AA20030 },
	  "alu nop src0=t4,c7 src1=t5,0 src2=0.5,1 srcp=src1-src0,1-2*src0 : t3.rgb = MAD_sat*2"
	  " srcp.rgb, src2.rgb, -src0.rgb : t3.a = MAD src0.a, src2.a, |src1.a|" },
	/* predication, predicate writes with compare codes, ALU result, OMOD 7 */
	{ { 0x0B659808, 0x08020002, 0x08020002, 0xBC440220, 0x6068C016, 0x58220015 },
	  "alu src0=t2,t2 src1=0,0 src2=0,0 : (p.rgba) t1.rg = MAX_omod7 src0.rgb, src0.rgb, src0.rgb"
	  " -> p.rg<0 : (!p.aaaa) t1.- = CMP src0.a, src1.a, -src0.a -> p.a!=0 : result=a>=0" },
	/* OUT to two targets + depth, REL addressing, WRITE_INACTIVE, LAST, constant swizzles */
	{ { 0x0017C185, 0x080C2A03, 0x08020000, 0x20442220, 0xC0C8C860, 0x24492050 },
	  "out sem_wait last write_inactive src0=t[aL+3],t0 src1=c[aL+10],0 src2=0,0 : t5.- = MAD"
	  " src0.rgb, src1.rgb, src2.000 -> rt1.rgb : t[aL+6].a = MAD_sat src0.a, src1.1, src2.0"
	  " -> rt2.a depth" },
	/* DP4 with alpha DP */
	{ { 0x00007800, 0x08040400, 0x08040400, 0x00442220, 0x0068C021, 0x24492022 },
	  "alu src0=t0,t0 src1=c1,c1 src2=0,0 : t2.rgb = DP4 src0.rgb, src1.rgb, src2.000"
	  " : t2.a = DP src0.a, src1.a, src2.0" },
	/* SOP + RCP, OMOD /2, alpha reading .r of the RGB slot */
	{ { 0x00007800, 0x08020007, 0x08020007, 0x10440220, 0x1004008A, 0x0022008A },
	  "alu src0=t7,t7 src1=0,0 src2=0,0 : t8.rgb = SOP/2 src0.rgb, src0.rgb, src0.rgb"
	  " : t8.a = RCP/2 |src0.r|, src0.r, src0.r" },
	/* MDH in both units with B = -1 */
	{ { 0x00007800, 0x08020001, 0x08020001, 0x01DB0220, 0x01C0C02E, 0x1822002B },
	  "alu src0=t1,t1 src1=0,0 src2=0,0 : t2.rgb = MDH src0.rgb, -src0.111, src0.rgb"
	  " : t2.a = MDH src0.a, -src0.1, src0.a" },
	/* FRC, OMOD x4, STAT_WE, ALU_WAIT, empty write masks */
	{ { 0xF0000400, 0x08020080, 0x08020080, 0x08440220, 0x08000007, 0x00220009 },
	  "alu alu_wait stat_we=0xF src0=0,0 src1=0,0 src2=0,0 : t0.- = FRC*4 src0.rgb, src0.rgb,"
	  " src0.rgb : t0.- = FRC*4 src0.r, src0.r, src0.r" },
	/* TEX LD with ACQUIRE */
	{ { 0x00007807, 0x02430000, 0xE402E400, 0, 0, 0 },
	  "tex sem_wait LD t2.rgba = tex3(t0.rgba).rgba acquire" },
	/* TEX PROJ, predicated, partial mask, REL dst, swizzles, flags */
	{ { 0x0000185B, 0x0CCF0000, 0xC684C009, 0, 0, 0 },
	  "tex (!p.gggg) PROJ t[aL+4].rg = tex15(t9.rrra).bgra ignore_uncovered unscaled" },
	/* TEX DXDY with its gradient word */
	{ { 0x00007803, 0x01800000, 0xE401E400, 0x5583E402, 0, 0 },
	  "tex DXDY t1.rgba = tex0(t0.rgba).rgba dx=t2.rgba dy=t[aL+3].gggg" },
	/* TEXKILL; a CMN field TEX ignores printed by name */
	{ { 0x00080003, 0x00800000, 0xE400E401, 0, 0, 0 },
	  "tex RGB_CLAMP=1 TEXKILL t0.- = tex0(t1.rgba).rgba" },
	/* FC: Mesa's IF */
	{ { 0x00000402, 0, 0x12000F00, 0x000C0000, 0, 0 },
	  "fc alu_wait JUMP func=0x0F b_op0=incr ignore_uncovered addr=12" },
	/* FC: Mesa's ENDIF */
	{ { 0x00000402, 0, 0x01010020, 0x000D0000, 0, 0 },
	  "fc alu_wait JUMP func=0x00 any b_op0=decr pop_cnt=1 addr=13" },
	/* FC: every field */
	{ { 0x0000066E, 0, 0x1400FF91, 0x81FF051F, 0, 0 },
	  "fc nop alu_wait sem_wait (!p.aaaa) LOOP func=0xFF else a_op=push b_op1=decr"
	  " ignore_uncovered bool=31 int=5 addr=511 global" },
};
enum { NGOLDEN = sizeof goldens / sizeof goldens[0] };

static void test_golden_disasm(void **state)
{
	(void)state;
	for (int i = 0; i < NGOLDEN; i++) {
		struct r500_inst in;
		char why[160];
		if (!r500_decode(goldens[i].w, &in, why, sizeof why)) {
			print_error("golden %d invalid: %s\n", i, why);
			fail();
		}
		struct arena *a = arena_create(&mem_default_allocator);
		assert_string_equal(disasm(a, &in), goldens[i].text);
		arena_destroy(a);
	}
}

static void test_golden_asm(void **state)
{
	(void)state;
	for (int i = 0; i < NGOLDEN; i++) {
		struct r500_inst in;
		char why[160];
		uint32_t w[6];
		if (!r500_asm_inst(goldens[i].text, &in, why, sizeof why)) {
			print_error("golden %d: %s\n", i, why);
			fail();
		}
		r500_encode(&in, w);
		assert_memory_equal(w, goldens[i].w, sizeof w);
	}
}

static void test_asm_rejects(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"", "add", "alu", "tex LD t2.rgba = tex16(t0.rgba).rgba",
		"tex LD t128.rgba = tex0(t0.rgba).rgba", "tex LD t2.gr = tex0(t0.rgba).rgba",
		"fc JUMP func=0x100 addr=0", "fc JUMP addr=512", "fc JUMP bogus",
		"alu src0=t1,t1 src1=0,0 src2=0.3,0 : t0.rgb = MAD src0.rgb, src0.rgb, src0.rgb"
		" : t0.a = MAD src0.a, src0.a, src0.a",
		"alu src0=c256,t1 src1=0,0 src2=0,0 : t0.rgb = MAD src0.rgb, src0.rgb, src0.rgb"
		" : t0.a = MAD src0.a, src0.a, src0.a",
		"alu src0=t1,t1 src1=0,0 src2=0,0 : t0.rgb = MAD src0.rgb, src0.rgb, src0.rg"
		" : t0.a = MAD src0.a, src0.a, src0.a",
		"alu src0=t1,t1 src1=0,0 src2=0,0 : t0.rgb = MAD src0.rgb, src0.rgb, src0.rgb"
		" : t0.a = MAD src0.a, src0.a, src0.a trailing",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct r500_inst in;
		char why[160] = "";
		assert_false(r500_asm_inst(bad[i], &in, why, sizeof why));
		assert_true(why[0] != 0);
	}
	struct r500_inst in;
	assert_false(r500_asm_inst(NULL, &in, NULL, 0));
}

static uint32_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 16);
}

/* bits some field of `type` covers in dword dw */
static uint32_t coverage(unsigned type, unsigned dw)
{
	uint32_t m = 0;
	for (size_t i = 0; i < r500_nfields; i++)
		if (((r500_fields[i].types >> type) & 1) && r500_fields[i].dword == dw)
			m |= (uint32_t)(((uint64_t)1 << r500_fields[i].width) - 1) << r500_fields[i].lo;
	return m;
}

/* (e) random words never crash; valid ones round-trip through the text */
static void test_random_words(void **state)
{
	(void)state;
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	int valid = 0, by_type[4] = { 0 };
	for (int i = 0; i < 100000; i++) {
		uint32_t w[6], w2[6];
		for (int d = 0; d < 6; d++)
			w[d] = next_rand(&seed) ^ next_rand(&seed) << 16;
		if (i & 1) /* half of them without reserved bits, to reach more valid ones */
			for (int d = 0; d < 6; d++)
				w[d] &= coverage(w[0] & 3, d);
		struct r500_inst in, back;
		char why[160], why2[160];
		bool ok = r500_decode(w, &in, why, sizeof why);
		assert_int_equal(ok, r500_inst_validate(&in, NULL, 0) &&
				 (r500_encode(&in, w2), !memcmp(w, w2, sizeof w)));
		struct arena *a = arena_create(&mem_default_allocator);
		const char *text = disasm(a, &in);
		assert_true(text[0] != 0);
		if (ok) {
			valid++;
			by_type[in.cmn.type]++;
			if (!r500_asm_inst(text, &back, why2, sizeof why2)) {
				print_error("asm failed on '%s': %s\n", text, why2);
				fail();
			}
			r500_encode(&back, w2);
			if (memcmp(w, w2, sizeof w)) {
				print_error("round trip differs for '%s'\n", text);
				fail();
			}
		}
		arena_destroy(a);
	}
	assert_true(valid > 10000);
	for (int t = 0; t < 4; t++)
		assert_true(by_type[t] > 1000);
}

/* hostile text: mutated and truncated goldens never crash the assembler,
 * and whatever it accepts disassembles again */
static void test_asm_mutations(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	static const char alphabet[] = " .,:=-|()[]!<>+*/_0123456789abcdefghlnoprstuvxyzAGLPR";
	for (int i = 0; i < 40000; i++) {
		char text[1100], why[160];
		const char *g = goldens[i % NGOLDEN].text;
		size_t n = strlen(g);
		memcpy(text, g, n + 1);
		int edits = 1 + (int)(next_rand(&seed) % 3);
		for (int e = 0; e < edits; e++)
			text[next_rand(&seed) % n] = alphabet[next_rand(&seed) % (sizeof alphabet - 1)];
		if (i % 7 == 0)
			text[next_rand(&seed) % n] = 0;
		struct r500_inst in;
		if (r500_asm_inst(text, &in, why, sizeof why)) {
			struct arena *a = arena_create(&mem_default_allocator);
			assert_true(disasm(a, &in)[0] != 0);
			arena_destroy(a);
		}
	}
	char big[3000];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = 0;
	struct r500_inst in;
	assert_false(r500_asm_inst(big, &in, NULL, 0));
	for (size_t i = 0; i < sizeof big - 1; i++)
		big[i] = i % 2 ? ' ' : 'a';
	big[1500] = 0;
	assert_false(r500_asm_inst(big, &in, NULL, 0));
}

static void test_program_listing(void **state)
{
	(void)state;
	uint32_t words[3 * 6];
	memcpy(words, goldens[8].w, sizeof goldens[8].w);
	static const uint32_t bad[6] = { 0x00000003, 0x00000001, 0, 0, 0, 0 };
	memcpy(words + 6, bad, sizeof bad);
	memcpy(words + 12, goldens[0].w, sizeof goldens[0].w);
	struct arena *a = arena_create(&mem_default_allocator);
	struct strbuf b;
	strbuf_init(&b, a);
	r500_disasm_program(&b, words, 3);
	char expect[2048];
	snprintf(expect, sizeof expect,
		 "000: %s\n001: .words 0x00000003 0x00000001 0x00000000 0x00000000 0x00000000"
		 " 0x00000000 ; invalid: reserved bits 0x00000001 set in dword 1\n002: %s\n",
		 goldens[8].text, goldens[0].text);
	assert_string_equal(strbuf_text(&b), expect);
	strbuf_init(&b, a);
	r500_disasm_program(&b, words, 0);
	r500_disasm_program(&b, NULL, 5);
	assert_string_equal(strbuf_text(&b), "");
	arena_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_disasm),
		cmocka_unit_test(test_golden_asm),
		cmocka_unit_test(test_asm_rejects),
		cmocka_unit_test(test_random_words),
		cmocka_unit_test(test_asm_mutations),
		cmocka_unit_test(test_program_listing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
