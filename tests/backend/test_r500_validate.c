/* Instruction rules (reserved values and bits, unit coupling, OMOD 7,
 * outputs vs ALU result, FC predicate, semaphore) and program rules
 * (final OUT, §6.10 NOP hazards, jumps, loop nesting, ALU_WAIT). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "r500_codec.h"

/* A valid ALU instruction: t0 = MAD(t1, 0, 0) in both units */
static const uint32_t alu_ok[6] = { 0x00007800, 0x08020001, 0x08020001,
				    0x00442220, 0x0068C000, 0x1C222000 };

static void expect_invalid(const uint32_t w[6], const char *needle)
{
	struct r500_inst in;
	char why[160] = "";
	assert_false(r500_decode(w, &in, why, sizeof why));
	if (!strstr(why, needle)) {
		print_error("why '%s' lacks '%s'\n", why, needle);
		fail();
	}
}

/* alu_ok with dword d changed: (w & ~clear) | set */
static void expect_alu_invalid(int d, uint32_t clear, uint32_t set, const char *needle)
{
	uint32_t w[6];
	memcpy(w, alu_ok, sizeof w);
	w[d] = (w[d] & ~clear) | set;
	expect_invalid(w, needle);
}

static void test_valid_base(void **state)
{
	(void)state;
	struct r500_inst in;
	char why[160];
	assert_true(r500_decode(alu_ok, &in, why, sizeof why));
	/* swizzle 7 ("unused") is accepted by the decoder (§3) */
	uint32_t w[6];
	memcpy(w, alu_ok, sizeof w);
	w[3] |= 7u << 8; /* BLUE_SWIZ_A = 7 */
	assert_true(r500_decode(w, &in, why, sizeof why));
	assert_int_equal(in.alu.rgb_arg[0].swz[2], 7);
}

/* The rules of single fields, on the struct: a value past a field's
 * width, a field of another type's body set (the decoder never makes
 * either), and the valid instruction passing again after each. */
static void test_field_rules(void **state)
{
	(void)state;
	struct r500_inst in;
	char why[160] = "";
	assert_true(r500_decode(alu_ok, &in, why, sizeof why));
	assert_true(r500_inst_validate(&in, why, sizeof why));
	in.cmn.rgb_wmask = 8; /* 3 bits */
	assert_false(r500_inst_validate(&in, why, sizeof why));
	assert_non_null(strstr(why, "RGB_WMASK value 8 does not fit 3 bits"));
	in.cmn.rgb_wmask = 7;
	assert_true(r500_inst_validate(&in, why, sizeof why));
	in.tex.sem_acquire = 1;
	assert_false(r500_inst_validate(&in, why, sizeof why));
	assert_non_null(strstr(why, "set but a alu instruction has no such field"));
	in.tex.sem_acquire = 0;
	in.alu.alpha_op = 4; /* reserved */
	assert_false(r500_inst_validate(&in, why, sizeof why));
	assert_non_null(strstr(why, "ALPHA_OP value 4 is reserved"));
}

static void test_reserved_opcodes(void **state)
{
	(void)state;
	expect_alu_invalid(4, 0xF, 4, "ALPHA_OP value 4 is reserved");
	expect_alu_invalid(5, 0xF, 6, "RGB_OP value 6 is reserved");
	expect_alu_invalid(5, 0xF, 13, "RGB_OP value 13 is reserved");
	expect_alu_invalid(5, 0xF, 14, "RGB_OP value 14");
	expect_alu_invalid(5, 0xF, 15, "RGB_OP value 15");
	expect_alu_invalid(0, 0, 6u << 3, "RGB_PRED_SEL value 6 is reserved");
	expect_alu_invalid(0, 0, 7u << 25, "ALPHA_PRED_SEL value 7 is reserved");
	static const uint32_t tex7[6] = { 0x00007807, 0x01C00000, 0xE402E400, 0, 0, 0 };
	expect_invalid(tex7, "INST value 7 is reserved");
	static const uint32_t aop3[6] = { 0x00000402, 0, 0x000000C0, 0, 0, 0 };
	expect_invalid(aop3, "A_OP value 3");
	static const uint32_t bop0[6] = { 0x00000402, 0, 0x03000000, 0, 0, 0 };
	expect_invalid(bop0, "B_OP0 value 3");
	static const uint32_t bop1[6] = { 0x00000402, 0, 0x0C000000, 0, 0, 0 };
	expect_invalid(bop1, "B_OP1 value 3");
}

static void test_reserved_bits(void **state)
{
	(void)state;
	static const uint32_t tex_lo[6] = { 0x00007803, 0x00400001, 0xE402E400, 0, 0, 0 };
	expect_invalid(tex_lo, "reserved bits 0x00000001 set in dword 1");
	static const uint32_t tex_d4[6] = { 0x00007803, 0x00400000, 0xE402E400, 0, 0x10, 0 };
	expect_invalid(tex_d4, "dword 4");
	static const uint32_t fc_d1[6] = { 0x00000402, 0x80000000, 0, 0, 0, 0 };
	expect_invalid(fc_d1, "reserved bits 0x80000000 set in dword 1");
	static const uint32_t fc_bit3[6] = { 0x00000402, 0, 0x00000008, 0, 0, 0 };
	expect_invalid(fc_bit3, "0x00000008 set in dword 2");
	static const uint32_t fc_addr[6] = { 0x00000402, 0, 0, 0x02000000, 0, 0 };
	expect_invalid(fc_addr, "0x02000000 set in dword 3");
	/* the decoder still fills the struct */
	struct r500_inst in;
	assert_false(r500_decode(fc_addr, &in, NULL, 0));
	assert_int_equal(in.cmn.type, R500_TYPE_FC);
	assert_int_equal(in.cmn.alu_wait, 1);
}

static void test_coupling_rules(void **state)
{
	(void)state;
	/* RGB SOP with alpha MAD */
	expect_alu_invalid(5, 0xF, 10, "SOP");
	/* alpha DP with RGB MAD */
	expect_alu_invalid(4, 0xF, 1, "alpha DP");
	/* OMOD 7 with MAD, per unit */
	expect_alu_invalid(3, 0, 7u << 26, "RGB OMOD 7");
	expect_alu_invalid(4, 0, 7u << 26, "alpha OMOD 7");
}

static void test_out_and_alu_result(void **state)
{
	(void)state;
	uint32_t w[6];
	struct r500_inst in;
	memcpy(w, alu_ok, sizeof w);
	w[0] |= 1;           /* OUT */
	assert_true(r500_decode(w, &in, NULL, 0));
	w[3] |= 1u << 31;    /* + ALU_WMASK */
	expect_invalid(w, "OUT instruction cannot write the ALU result");
	memcpy(w, alu_ok, sizeof w);
	w[4] |= 1u << 31;    /* W_OMASK on an ALU instruction */
	expect_invalid(w, "W_OMASK");
	memcpy(w, alu_ok, sizeof w);
	w[1] = 0x08020280 | 0x30; /* RGB src0: inline 0.5 with REL */
	expect_invalid(w, "inline constant with REL=1");
}

static void test_omod7_legal_ops(void **state)
{
	(void)state;
	static const unsigned rgb_ok[] = { 4, 5, 7, 8 }, alpha_ok[] = { 2, 3, 5, 6 };
	for (int i = 0; i < 4; i++) {
		uint32_t w[6];
		memcpy(w, alu_ok, sizeof w);
		w[3] |= 7u << 26;
		w[5] = (w[5] & ~0xFu) | rgb_ok[i];
		w[4] = (w[4] & ~0xFu) | alpha_ok[i];
		w[4] |= 7u << 26;
		char why[160];
		struct r500_inst in;
		if (!r500_decode(w, &in, why, sizeof why)) {
			print_error("%s\n", why);
			fail();
		}
	}
}

static void test_fc_and_tex_rules(void **state)
{
	(void)state;
	static const uint32_t fc_rgba[6] = { 0x0000040A, 0, 0, 0, 0, 0 }; /* pred sel 1 */
	expect_invalid(fc_rgba, "replicate");
	struct r500_inst in;
	for (unsigned s = 2; s <= 5; s++) {
		uint32_t w[6] = { 0x00000402 | s << 3, 0, 0, 0, 0, 0 };
		assert_true(r500_decode(w, &in, NULL, 0));
	}
	static const uint32_t acq[6] = { 0x00007803, 0x02400000, 0xE402E400, 0, 0, 0 };
	expect_invalid(acq, "TEX_SEM_ACQUIRE without TEX_SEM_WAIT");
	uint32_t ok[6] = { 0x00007807, 0x02400000, 0xE402E400, 0, 0, 0 };
	assert_true(r500_decode(ok, &in, NULL, 0));
}

static void test_struct_rules(void **state)
{
	(void)state;
	struct r500_inst in;
	char why[160];
	memset(&in, 0, sizeof in);
	in.cmn.type = R500_TYPE_ALU;
	in.alu.rgb_addrd = 128; /* temps are 0..127 */
	assert_false(r500_inst_validate(&in, why, sizeof why));
	assert_non_null(strstr(why, "RGB_ADDRD value 128"));
	memset(&in, 0, sizeof in);
	in.cmn.type = R500_TYPE_ALU;
	in.alu.alpha_arg[1].swz[2] = 1;
	assert_false(r500_inst_validate(&in, why, sizeof why));
	memset(&in, 0, sizeof in);
	in.cmn.type = 4;
	assert_false(r500_inst_validate(&in, why, sizeof why));
}

/* ---- programs, written in assembly ---- */

#define SRC3 "src0=t1,t1 src1=t2,t2 src2=0,0"
#define UNITS(d) " : t" #d ".rgb = MAD src0.rgb, src1.rgb, src2.rgb : t" #d ".a = MAD src0.a, src1.a, src2.a"
#define OUT_END "out sem_wait src0=t0,t0 src1=0,0 src2=0,0 : t0.- = MAD src0.rgb, src0.111, src0.000" \
	" -> rt0.rgb : t0.- = MAD src0.a, src0.1, src0.0 -> rt0.a"

static int assemble(const char *const *text, int n, struct r500_inst *code)
{
	for (int i = 0; i < n; i++) {
		char why[160];
		if (!r500_asm_inst(text[i], &code[i], why, sizeof why)) {
			print_error("line %d '%s': %s\n", i, text[i], why);
			fail();
		}
	}
	return n;
}

static void check_program(const char *const *text, int n, const char *needle)
{
	struct r500_inst code[16];
	char why[200] = "";
	assemble(text, n, code);
	bool ok = r500_program_validate(code, n, why, sizeof why);
	if (!needle) {
		if (!ok) {
			print_error("unexpected: %s\n", why);
			fail();
		}
		return;
	}
	assert_false(ok);
	if (!strstr(why, needle)) {
		print_error("why '%s' lacks '%s'\n", why, needle);
		fail();
	}
}

static void test_program_end(void **state)
{
	(void)state;
	const char *good[] = {
		"tex sem_wait LD t1.rgba = tex0(t0.rgba).rgba acquire",
		"alu sem_wait " SRC3 UNITS(0),
		OUT_END,
	};
	check_program(good, 3, NULL);
	check_program(good, 2, "slot 1: last instruction must be OUT with TEX_SEM_WAIT");
	const char *nowait[] = { "out src0=t0,t0 src1=0,0 src2=0,0 : t0.- = MAD src0.rgb, src0.111,"
				 " src0.000 -> rt0.rgb : t0.- = MAD src0.a, src0.1, src0.0 -> rt0.a" };
	check_program(nowait, 1, "slot 0: last instruction must be OUT");
	struct r500_inst code[1];
	assert_false(r500_program_validate(code, 0, NULL, 0));
	assert_false(r500_program_validate(NULL, 1, NULL, 0));
	const char *bad_inst[] = {
		"alu " SRC3 " : t0.rgb = SOP src0.rgb, src1.rgb, src2.rgb : t0.a = MAD src0.a, src1.a, src2.a",
		OUT_END,
	};
	check_program(bad_inst, 2, "slot 0: RGB SOP");
}

static void test_mdh_nop(void **state)
{
	(void)state;
	const char *prog[] = {
		"alu " SRC3 UNITS(1),
		"alu src0=t1,t1 src1=0,0 src2=0,0 : t2.rgb = MDH src0.rgb, -src0.111, src0.rgb"
		" : t2.- = MAD src0.a, src0.1, src0.0",
		OUT_END,
	};
	check_program(prog, 3, "slot 0: needs NOP before MDH/MDV in slot 1");
	const char *with_nop[] = { "alu nop " SRC3 UNITS(1), prog[1], prog[2] };
	check_program(with_nop, 3, NULL);
	/* Mesa's rule: any non-TEX predecessor, even one writing another temp */
	const char *other[] = { "alu " SRC3 UNITS(9), prog[1], prog[2] };
	check_program(other, 3, "needs NOP before MDH/MDV");
	const char *after_tex[] = { "tex sem_wait LD t1.rgba = tex0(t0.rgba).rgba acquire",
				    prog[1], prog[2] };
	check_program(after_tex, 3, NULL);
}

static void test_presub_nop(void **state)
{
	(void)state;
	/* reader: t0.rgb = srcp.rgb * 1 + 0 with srcp = t4 - t5 (SUB) */
#define READER(op) "alu src0=t4,t4 src1=t5,t5 src2=0,0 srcp=" op ",1-2*src0 : t0.rgb = MAD srcp.rgb," \
	" src2.111, src2.000 : t0.- = MAD src0.a, src0.1, src0.0"
	const char *p1[] = { "alu " SRC3 UNITS(5), READER("src1-src0"), OUT_END };
	check_program(p1, 3, "slot 0: needs NOP before presubtract reader in slot 1");
	const char *p2[] = { "alu nop " SRC3 UNITS(5), READER("src1-src0"), OUT_END };
	check_program(p2, 3, NULL);
	/* BIAS reads only src0: writing t5 is harmless */
	const char *p3[] = { "alu " SRC3 UNITS(5), READER("1-2*src0"), OUT_END };
	check_program(p3, 3, NULL);
	/* writing src0's t4 is not */
	const char *p4[] = { "alu " SRC3 UNITS(4), READER("1-2*src0"), OUT_END };
	check_program(p4, 3, "presubtract reader");
	/* TEX writers never need it (§6.10) */
	const char *p5[] = { "tex sem_wait LD t4.rgba = tex0(t0.rgba).rgba acquire",
			     READER("src1-src0"), OUT_END };
	check_program(p5, 3, NULL);
	/* the alpha presubtract through an RGB input's .a swizzle */
	const char *p6[] = {
		"alu " SRC3 " : t7.rgb = MAD src0.rgb, src1.rgb, src2.rgb : t4.a = MAD src0.a, src1.a, src2.a",
		"alu src0=t4,t4 src1=t5,t5 src2=0,0 srcp=src1-src0,1-src0 : t0.rgb = MAD srcp.aaa,"
		" src2.111, src2.000 : t0.- = MAD src0.a, src0.1, src0.0",
		OUT_END };
	check_program(p6, 3, "presubtract reader");
	struct r500_inst a, b;
	assert_true(r500_asm_inst(p6[0], &a, NULL, 0));
	assert_true(r500_asm_inst(p6[1], &b, NULL, 0));
	assert_true(r500_hazard_needs_nop(&a, &b));
	b.alu.rgb_arg[0].swz[0] = b.alu.rgb_arg[0].swz[1] = b.alu.rgb_arg[0].swz[2] = R500_SWZ_ONE;
	assert_false(r500_hazard_needs_nop(&a, &b));
}

#define IF_(addr) "fc alu_wait JUMP func=0x0F b_op0=incr ignore_uncovered addr=" #addr
#define ENDIF_(addr) "fc alu_wait JUMP func=0x00 any b_op0=decr pop_cnt=1 addr=" #addr
#define LOOP_(addr) "fc alu_wait LOOP func=0x00 ignore_uncovered addr=" #addr
#define ENDLOOP_(addr) "fc alu_wait ENDLOOP func=0xFF any ignore_uncovered addr=" #addr
#define BRK_(addr) "fc alu_wait BREAKLOOP func=0xFF b_op1=decr ignore_uncovered addr=" #addr

static void test_flow_control(void **state)
{
	(void)state;
	const char *good[] = { LOOP_(3), "alu " SRC3 UNITS(0), BRK_(4), ENDLOOP_(1), IF_(6),
			       ENDIF_(6), OUT_END };
	check_program(good, 7, NULL);
	const char *far[] = { IF_(3), "alu " SRC3 UNITS(0), OUT_END };
	check_program(far, 3, "slot 0: jump target 3 out of range");
	const char *open[] = { LOOP_(1), "alu " SRC3 UNITS(0), OUT_END };
	check_program(open, 3, "LOOP not closed");
	const char *stray[] = { "alu " SRC3 UNITS(0), ENDLOOP_(0), OUT_END };
	check_program(stray, 3, "slot 1: ENDLOOP without matching LOOP");
	const char *mixed[] = { LOOP_(1), "fc alu_wait ENDREP func=0xFF any addr=0", OUT_END };
	check_program(mixed, 3, "slot 1: ENDREP without matching REP");
	const char *brk[] = { BRK_(1), OUT_END };
	check_program(brk, 2, "slot 0: BREAKLOOP outside a LOOP");
	const char *nowait[] = { "fc JUMP func=0x0F b_op0=incr addr=1", OUT_END };
	check_program(nowait, 2, "slot 0: FC instruction without ALU_WAIT");
	const char *kill[] = { "tex TEXKILL t0.- = tex0(t1.rgba).rgba", IF_(2), OUT_END };
	check_program(kill, 3, "slot 1: first FC after TEXKILL needs TEX_SEM_WAIT");
	const char *kill_ok[] = { "tex TEXKILL t0.- = tex0(t1.rgba).rgba",
				  "fc alu_wait sem_wait JUMP func=0x0F b_op0=incr addr=2", OUT_END };
	check_program(kill_ok, 3, NULL);
	const char *rep[] = { "fc alu_wait REP func=0x00 int=2 addr=4", "fc alu_wait CONTINUE func=0xFF addr=4",
			      "fc alu_wait BREAKREP func=0xFF b_op1=decr addr=5",
			      "fc alu_wait JUMP func=0xFF addr=3 global",
			      "fc alu_wait ENDREP func=0xFF any int=2 addr=1", OUT_END };
	check_program(rep, 6, NULL);
	const char *brk_in_rep[] = { "fc alu_wait REP func=0x00 addr=2", BRK_(3),
				     "fc alu_wait ENDREP func=0xFF any addr=1", OUT_END };
	check_program(brk_in_rep, 4, "slot 1: BREAKLOOP outside a LOOP");
	const char *cont[] = { "fc alu_wait CONTINUE func=0xFF addr=1", OUT_END };
	check_program(cont, 2, "CONTINUE outside a loop");
	/* a return (A_OP = POP) uses the popped address, not JUMP_ADDR */
	const char *ret[] = { "fc alu_wait JUMP func=0xFF a_op=pop addr=400", OUT_END };
	check_program(ret, 2, NULL);
}

static void test_program_size(void **state)
{
	(void)state;
	struct r500_inst *code = calloc(R500_MAX_SLOTS + 1, sizeof *code);
	char why[160];
	assert_non_null(code);
	assert_true(r500_asm_inst(OUT_END, &code[0], why, sizeof why));
	for (int i = 1; i <= R500_MAX_SLOTS; i++)
		code[i] = code[0];
	assert_true(r500_program_validate(code, R500_MAX_SLOTS, why, sizeof why));
	assert_false(r500_program_validate(code, R500_MAX_SLOTS + 1, why, sizeof why));
	assert_non_null(strstr(why, "program size 513"));
	free(code);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_base),
		cmocka_unit_test(test_field_rules),
		cmocka_unit_test(test_reserved_opcodes),
		cmocka_unit_test(test_reserved_bits),
		cmocka_unit_test(test_coupling_rules),
		cmocka_unit_test(test_out_and_alu_result),
		cmocka_unit_test(test_omod7_legal_ops),
		cmocka_unit_test(test_fc_and_tex_rules),
		cmocka_unit_test(test_struct_rules),
		cmocka_unit_test(test_program_end),
		cmocka_unit_test(test_mdh_nop),
		cmocka_unit_test(test_presub_nop),
		cmocka_unit_test(test_flow_control),
		cmocka_unit_test(test_program_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
