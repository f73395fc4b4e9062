/* The one table of R500 instruction fields (r500/ISA.md §4).  The encoder,
 * decoder, validator, disassembler and assembler all read it, so they
 * cannot disagree about where a field lives. */
#include "r500_field_access.h"

#include <stdarg.h>
#include <string.h>

#define M(member) offsetof(struct r500_inst, member)
#define F(name, types, dw, lo, width, member, legal, names) \
	{ name, types, dw, lo, width, M(member), legal, names }

enum { A = R500_T_ALUOUT, T = R500_T_TEX, C = R500_T_FC, ALL = R500_T_ALL };

static const char *const type_names[] = { "alu", "out", "fc", "tex", NULL };
static const char *const alpha_op_names[] = {
	"MAD", "DP", "MIN", "MAX", "AOP4", "CND", "CMP", "FRC",
	"EX2", "LN2", "RCP", "RSQ", "SIN", "COS", "MDH", "MDV", NULL };
static const char *const rgb_op_names[] = {
	"MAD", "DP3", "DP4", "D2A", "MIN", "MAX", "ROP6", "CND",
	"CMP", "FRC", "SOP", "MDH", "MDV", "ROP13", "ROP14", "ROP15", NULL };
static const char *const tex_inst_names[] = {
	"NOP", "LD", "TEXKILL", "PROJ", "LODBIAS", "LOD", "DXDY", "TEX7", NULL };
static const char *const fc_op_names[] = {
	"JUMP", "LOOP", "ENDLOOP", "REP", "ENDREP", "BREAKLOOP", "BREAKREP",
	"CONTINUE", NULL };
static const char *const a_op_names[] = { "none", "pop", "push", "aop3", NULL };
static const char *const b_op_names[] = { "none", "decr", "incr", "bop3", NULL };
static const char *const srcp_names[] = { "1-2*src0", "src1-src0", "src1+src0", "1-src0", NULL };

/* ADDR0..2 with CONST and REL, then SRCP_OP, of one address word */
#define ADDR_WORD(P, dw, w) \
	F(P "_ADDR0", A, dw, 0, 8, w.src[0].addr, 0, NULL), \
	F(P "_ADDR0_CONST", A, dw, 8, 1, w.src[0].cnst, 0, NULL), \
	F(P "_ADDR0_REL", A, dw, 9, 1, w.src[0].rel, 0, NULL), \
	F(P "_ADDR1", A, dw, 10, 8, w.src[1].addr, 0, NULL), \
	F(P "_ADDR1_CONST", A, dw, 18, 1, w.src[1].cnst, 0, NULL), \
	F(P "_ADDR1_REL", A, dw, 19, 1, w.src[1].rel, 0, NULL), \
	F(P "_ADDR2", A, dw, 20, 8, w.src[2].addr, 0, NULL), \
	F(P "_ADDR2_CONST", A, dw, 28, 1, w.src[2].cnst, 0, NULL), \
	F(P "_ADDR2_REL", A, dw, 29, 1, w.src[2].rel, 0, NULL), \
	F(P "_SRCP_OP", A, dw, 30, 2, w.srcp_op, 0, srcp_names)

/* SEL, three swizzles and MOD of one RGB input starting at bit lo */
#define RGB_ARG(X, dw, lo, k) \
	F("RGB_SEL_" X, A, dw, lo, 2, alu.rgb_arg[k].sel, 0, NULL), \
	F("RED_SWIZ_" X, A, dw, lo + 2, 3, alu.rgb_arg[k].swz[0], 0, NULL), \
	F("GREEN_SWIZ_" X, A, dw, lo + 5, 3, alu.rgb_arg[k].swz[1], 0, NULL), \
	F("BLUE_SWIZ_" X, A, dw, lo + 8, 3, alu.rgb_arg[k].swz[2], 0, NULL), \
	F("RGB_MOD_" X, A, dw, lo + 11, 2, alu.rgb_arg[k].mod, 0, NULL)

#define ALPHA_ARG(X, dw, lo, k) \
	F("ALPHA_SEL_" X, A, dw, lo, 2, alu.alpha_arg[k].sel, 0, NULL), \
	F("ALPHA_SWIZ_" X, A, dw, lo + 2, 3, alu.alpha_arg[k].swz[0], 0, NULL), \
	F("ALPHA_MOD_" X, A, dw, lo + 5, 2, alu.alpha_arg[k].mod, 0, NULL)

/* temporary address + REL + four 2-bit swizzles of a TEX address half */
#define TEX_HALF(P, dw, lo, addr, rel, swz, S0, S1, S2, S3) \
	F(P "_ADDR", T, dw, lo, 7, tex.addr, 0, NULL), \
	F(P "_ADDR_REL", T, dw, lo + 7, 1, tex.rel, 0, NULL), \
	F(P "_" S0 "_SWIZ", T, dw, lo + 8, 2, tex.swz[0], 0, NULL), \
	F(P "_" S1 "_SWIZ", T, dw, lo + 10, 2, tex.swz[1], 0, NULL), \
	F(P "_" S2 "_SWIZ", T, dw, lo + 12, 2, tex.swz[2], 0, NULL), \
	F(P "_" S3 "_SWIZ", T, dw, lo + 14, 2, tex.swz[3], 0, NULL)

const struct r500_field r500_fields[] = {
	/* dword 0: US_CMN_INST (§4.1) */
	F("TYPE", ALL, 0, 0, 2, cmn.type, 0, type_names),
	F("TEX_SEM_WAIT", ALL, 0, 2, 1, cmn.tex_sem_wait, 0, NULL),
	F("RGB_PRED_SEL", ALL, 0, 3, 3, cmn.rgb_pred_sel, 0x3F, NULL),
	F("RGB_PRED_INV", ALL, 0, 6, 1, cmn.rgb_pred_inv, 0, NULL),
	F("WRITE_INACTIVE", ALL, 0, 7, 1, cmn.write_inactive, 0, NULL),
	F("LAST", ALL, 0, 8, 1, cmn.last, 0, NULL),
	F("NOP", ALL, 0, 9, 1, cmn.nop, 0, NULL),
	F("ALU_WAIT", ALL, 0, 10, 1, cmn.alu_wait, 0, NULL),
	F("RGB_WMASK", ALL, 0, 11, 3, cmn.rgb_wmask, 0, NULL),
	F("ALPHA_WMASK", ALL, 0, 14, 1, cmn.alpha_wmask, 0, NULL),
	F("RGB_OMASK", ALL, 0, 15, 3, cmn.rgb_omask, 0, NULL),
	F("ALPHA_OMASK", ALL, 0, 18, 1, cmn.alpha_omask, 0, NULL),
	F("RGB_CLAMP", ALL, 0, 19, 1, cmn.rgb_clamp, 0, NULL),
	F("ALPHA_CLAMP", ALL, 0, 20, 1, cmn.alpha_clamp, 0, NULL),
	F("ALU_RESULT_SEL", ALL, 0, 21, 1, cmn.alu_result_sel, 0, NULL),
	F("ALPHA_PRED_INV", ALL, 0, 22, 1, cmn.alpha_pred_inv, 0, NULL),
	F("ALU_RESULT_OP", ALL, 0, 23, 2, cmn.alu_result_op, 0, NULL),
	F("ALPHA_PRED_SEL", ALL, 0, 25, 3, cmn.alpha_pred_sel, 0x3F, NULL),
	F("STAT_WE", ALL, 0, 28, 4, cmn.stat_we, 0, NULL),

	/* dwords 1, 2: US_ALU_RGB_ADDR, US_ALU_ALPHA_ADDR (§4.2) */
	ADDR_WORD("RGB", 1, alu.rgb_addr),
	ADDR_WORD("ALPHA", 2, alu.alpha_addr),

	/* dword 3: US_ALU_RGB_INST (§4.3) */
	RGB_ARG("A", 3, 0, 0),
	RGB_ARG("B", 3, 13, 1),
	F("RGB_OMOD", A, 3, 26, 3, alu.rgb_omod, 0, NULL),
	F("RGB_TARGET", A, 3, 29, 2, alu.rgb_target, 0, NULL),
	F("ALU_WMASK", A, 3, 31, 1, alu.alu_wmask, 0, NULL),

	/* dword 4: US_ALU_ALPHA_INST (§4.4); opcode 4 reserved */
	F("ALPHA_OP", A, 4, 0, 4, alu.alpha_op, 0xFFEF, alpha_op_names),
	F("ALPHA_ADDRD", A, 4, 4, 7, alu.alpha_addrd, 0, NULL),
	F("ALPHA_ADDRD_REL", A, 4, 11, 1, alu.alpha_addrd_rel, 0, NULL),
	ALPHA_ARG("A", 4, 12, 0),
	ALPHA_ARG("B", 4, 19, 1),
	F("ALPHA_OMOD", A, 4, 26, 3, alu.alpha_omod, 0, NULL),
	F("ALPHA_TARGET", A, 4, 29, 2, alu.alpha_target, 0, NULL),
	F("W_OMASK", A, 4, 31, 1, alu.w_omask, 0, NULL),

	/* dword 5: US_ALU_RGBA_INST (§4.5); opcodes 6, 13..15 reserved */
	F("RGB_OP", A, 5, 0, 4, alu.rgb_op, 0x1FBF, rgb_op_names),
	F("RGB_ADDRD", A, 5, 4, 7, alu.rgb_addrd, 0, NULL),
	F("RGB_ADDRD_REL", A, 5, 11, 1, alu.rgb_addrd_rel, 0, NULL),
	RGB_ARG("C", 5, 12, 2),
	ALPHA_ARG("C", 5, 25, 2),

	/* dword 1: US_TEX_INST (§4.6); INST 7 reserved */
	F("TEX_ID", T, 1, 16, 4, tex.tex_id, 0, NULL),
	F("INST", T, 1, 22, 3, tex.inst, 0x7F, tex_inst_names),
	F("TEX_SEM_ACQUIRE", T, 1, 25, 1, tex.sem_acquire, 0, NULL),
	F("IGNORE_UNCOVERED", T, 1, 26, 1, tex.ignore_uncovered, 0, NULL),
	F("UNSCALED", T, 1, 27, 1, tex.unscaled, 0, NULL),
	/* dword 2: US_TEX_ADDR (§4.7) */
	TEX_HALF("SRC", 2, 0, src_addr, src_addr_rel, src_swz, "S", "T", "R", "Q"),
	TEX_HALF("DST", 2, 16, dst_addr, dst_addr_rel, dst_swz, "R", "G", "B", "A"),
	/* dword 3: US_TEX_ADDR_DXDY (§4.8; DY_ADDR_REL is bit 23) */
	TEX_HALF("DX", 3, 0, dx_addr, dx_addr_rel, dx_swz, "S", "T", "R", "Q"),
	TEX_HALF("DY", 3, 16, dy_addr, dy_addr_rel, dy_swz, "S", "T", "R", "Q"),

	/* dword 2: US_FC_INST (§4.9); A_OP 3 and B_OP 3 reserved */
	F("OP", C, 2, 0, 3, fc.op, 0, fc_op_names),
	F("B_ELSE", C, 2, 4, 1, fc.b_else, 0, NULL),
	F("JUMP_ANY", C, 2, 5, 1, fc.jump_any, 0, NULL),
	F("A_OP", C, 2, 6, 2, fc.a_op, 0x7, a_op_names),
	F("JUMP_FUNC", C, 2, 8, 8, fc.jump_func, 0, NULL),
	F("B_POP_CNT", C, 2, 16, 5, fc.b_pop_cnt, 0, NULL),
	F("B_OP0", C, 2, 24, 2, fc.b_op0, 0x7, b_op_names),
	F("B_OP1", C, 2, 26, 2, fc.b_op1, 0x7, b_op_names),
	F("IGNORE_UNCOVERED", C, 2, 28, 1, fc.ignore_uncovered, 0, NULL),
	/* dword 3: US_FC_ADDR (§4.10) */
	F("BOOL_ADDR", C, 3, 0, 5, fc.bool_addr, 0, NULL),
	F("INT_ADDR", C, 3, 8, 5, fc.int_addr, 0, NULL),
	F("JUMP_ADDR", C, 3, 16, 9, fc.jump_addr, 0, NULL),
	F("JUMP_GLOBAL", C, 3, 31, 1, fc.jump_global, 0, NULL),
};
const size_t r500_nfields = sizeof r500_fields / sizeof r500_fields[0];
_Static_assert(sizeof r500_fields / sizeof r500_fields[0] <= R500_MAX_FIELDS,
	       "r500_encode's lists of one type's fields are too short");

const struct r500_field *r500_field_find(const char *name, unsigned type)
{
	for (size_t i = 0; i < r500_nfields; i++)
		if (r500_field_applies(&r500_fields[i], type) && !strcmp(r500_fields[i].name, name))
			return &r500_fields[i];
	return NULL;
}

uint32_t r500_field_coverage(unsigned type, unsigned dw)
{
	uint32_t m = 0;
	for (size_t i = 0; i < r500_nfields; i++) {
		const struct r500_field *f = &r500_fields[i];
		if (f->dword == dw && r500_field_applies(f, type))
			m |= (uint32_t)(((uint64_t)1 << f->width) - 1) << f->lo;
	}
	return m;
}

bool r500_why(char *why, size_t len, const char *fmt, ...)
{
	if (why && len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return false;
}
