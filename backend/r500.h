/* R500 fragment-shader instructions as data.
 *
 * struct r500_inst mirrors the six dwords of one instruction slot
 * (r500/ISA.md §2.2, §4) field by field: every field of every word has a
 * member here, named after ISA.md, holding the raw field value.  The field
 * table (r500_fields.c) maps members to bits, so the encoder and decoder are
 * both driven by one table and cannot disagree.  Isel, the pairing
 * scheduler and the register allocator build and improve these structs;
 * only the encoder turns them into words.
 *
 * The CMN word (dword 0) is shared by all types.  ALU and OUT use `alu`,
 * TEX uses `tex`, FC uses `fc`; the members of the other bodies are 0.
 * Every member is uint16_t so the table can address them uniformly. */
#ifndef USCC_R500_H
#define USCC_R500_H

#include <stdbool.h>
#include <stdint.h>

enum { R500_MAX_SLOTS = 512, R500_NUM_TEMPS = 128, R500_NUM_CONSTS = 256,
       R500_NUM_SAMPLERS = 16, R500_NUM_TARGETS = 4, R500_WORDS = 6 };

enum r500_type { R500_TYPE_ALU = 0, R500_TYPE_OUT = 1, R500_TYPE_FC = 2, R500_TYPE_TEX = 3 };

/* Source select (SEL_*) */
enum r500_sel { R500_SEL_SRC0, R500_SEL_SRC1, R500_SEL_SRC2, R500_SEL_SRCP };
/* ALU swizzle codes */
enum r500_swz { R500_SWZ_R, R500_SWZ_G, R500_SWZ_B, R500_SWZ_A, R500_SWZ_ZERO,
		R500_SWZ_HALF, R500_SWZ_ONE, R500_SWZ_UNUSED };
enum r500_mod { R500_MOD_NONE, R500_MOD_NEG, R500_MOD_ABS, R500_MOD_NAB };
enum r500_omod { R500_OMOD_MUL1, R500_OMOD_MUL2, R500_OMOD_MUL4, R500_OMOD_MUL8,
		 R500_OMOD_DIV2, R500_OMOD_DIV4, R500_OMOD_DIV8, R500_OMOD_DISABLE };
enum r500_srcp { R500_SRCP_BIAS, R500_SRCP_SUB, R500_SRCP_ADD, R500_SRCP_INV };
enum r500_pred_sel { R500_PRED_NONE, R500_PRED_RGBA, R500_PRED_RRRR, R500_PRED_GGGG,
		     R500_PRED_BBBB, R500_PRED_AAAA };
enum r500_cmp { R500_CMP_EQ0, R500_CMP_LT0, R500_CMP_GE0, R500_CMP_NE0 };

enum r500_alpha_op { R500_AOP_MAD, R500_AOP_DP, R500_AOP_MIN, R500_AOP_MAX,
		     R500_AOP_RESERVED4, R500_AOP_CND, R500_AOP_CMP, R500_AOP_FRC,
		     R500_AOP_EX2, R500_AOP_LN2, R500_AOP_RCP, R500_AOP_RSQ,
		     R500_AOP_SIN, R500_AOP_COS, R500_AOP_MDH, R500_AOP_MDV };
enum r500_rgb_op { R500_ROP_MAD, R500_ROP_DP3, R500_ROP_DP4, R500_ROP_D2A,
		   R500_ROP_MIN, R500_ROP_MAX, R500_ROP_RESERVED6, R500_ROP_CND,
		   R500_ROP_CMP, R500_ROP_FRC, R500_ROP_SOP, R500_ROP_MDH,
		   R500_ROP_MDV, R500_ROP_RESERVED13, R500_ROP_RESERVED14,
		   R500_ROP_RESERVED15 };

enum r500_tex_op { R500_TEX_NOP, R500_TEX_LD, R500_TEX_KILL, R500_TEX_PROJ,
		   R500_TEX_LODBIAS, R500_TEX_LOD, R500_TEX_DXDY, R500_TEX_RESERVED7 };

enum r500_fc_op { R500_FC_JUMP, R500_FC_LOOP, R500_FC_ENDLOOP, R500_FC_REP,
		  R500_FC_ENDREP, R500_FC_BREAKLOOP, R500_FC_BREAKREP, R500_FC_CONTINUE };
enum r500_fc_aop { R500_FC_A_NONE, R500_FC_A_POP, R500_FC_A_PUSH, R500_FC_A_RESERVED3 };
enum r500_fc_bop { R500_FC_B_NONE, R500_FC_B_DECR, R500_FC_B_INCR, R500_FC_B_RESERVED3 };

/* Inline constant: source address field value 0x80 | code, CONST=0, REL=0 */
#define R500_INLINE_BIT 0x80

/* dword 0: US_CMN_INST */
struct r500_cmn {
	uint16_t type, tex_sem_wait, rgb_pred_sel, rgb_pred_inv, write_inactive,
		last, nop, alu_wait, rgb_wmask, alpha_wmask, rgb_omask, alpha_omask,
		rgb_clamp, alpha_clamp, alu_result_sel, alpha_pred_inv, alu_result_op,
		alpha_pred_sel, stat_we;
};

/* One address slot of US_ALU_RGB_ADDR / US_ALU_ALPHA_ADDR */
struct r500_addr {
	uint16_t addr;  /* 8 bits: temp N, const N, or 0x80|inline code */
	uint16_t cnst;
	uint16_t rel;
};

/* dwords 1 and 2: US_ALU_RGB_ADDR, US_ALU_ALPHA_ADDR */
struct r500_addr_word {
	struct r500_addr src[3];
	uint16_t srcp_op;
};

/* One input (A, B or C) of a unit: select, swizzle, modifier.
 * Alpha inputs use swz[0] only. */
struct r500_arg {
	uint16_t sel;
	uint16_t swz[3];
	uint16_t mod;
};

struct r500_alu {
	struct r500_addr_word rgb_addr, alpha_addr; /* dwords 1, 2 */
	/* dword 3: US_ALU_RGB_INST (args[0..1] = A, B) */
	struct r500_arg rgb_arg[3];                 /* [2] = C lives in dword 5 */
	uint16_t rgb_omod, rgb_target, alu_wmask;
	/* dword 4: US_ALU_ALPHA_INST */
	uint16_t alpha_op, alpha_addrd, alpha_addrd_rel;
	struct r500_arg alpha_arg[3];               /* [2] = C lives in dword 5 */
	uint16_t alpha_omod, alpha_target, w_omask;
	/* dword 5: US_ALU_RGBA_INST */
	uint16_t rgb_op, rgb_addrd, rgb_addrd_rel;
};

struct r500_tex {
	/* dword 1: US_TEX_INST */
	uint16_t tex_id, inst, sem_acquire, ignore_uncovered, unscaled;
	/* dword 2: US_TEX_ADDR */
	uint16_t src_addr, src_addr_rel, src_swz[4];
	uint16_t dst_addr, dst_addr_rel, dst_swz[4];
	/* dword 3: US_TEX_ADDR_DXDY */
	uint16_t dx_addr, dx_addr_rel, dx_swz[4];
	uint16_t dy_addr, dy_addr_rel, dy_swz[4];
};

struct r500_fc {
	/* dword 2: US_FC_INST */
	uint16_t op, b_else, jump_any, a_op, jump_func, b_pop_cnt, b_op0, b_op1,
		ignore_uncovered;
	/* dword 3: US_FC_ADDR */
	uint16_t bool_addr, int_addr, jump_addr, jump_global;
};

struct r500_inst {
	struct r500_cmn cmn;
	struct r500_alu alu; /* TYPE ALU, OUT */
	struct r500_tex tex; /* TYPE TEX */
	struct r500_fc fc;   /* TYPE FC */
};

/* Inline-constant mini-float (ISA.md §5), AMD's formula incl. denormals. */
float r500_inline_value(unsigned code);
/* Code for v if v is exactly representable with exponent field >= 1
 * (the only codes uscc emits, §12); -1 otherwise.  v must be >= 0. */
int r500_inline_code(float v);

#endif
