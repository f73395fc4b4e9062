/* Helpers for the flow-control tests: FC slots, additions and jump
 * conditions built by hand (Mesa's encodings, ISA.md §6.11). */
#ifndef TEST_EMU_FC_UTIL_H
#define TEST_EMU_FC_UTIL_H

#include "test_emu_util.h"

static inline struct r500_inst *fc(struct tp *t, int op, int func, int any, int addr)
{
	struct r500_inst *in = &t->code[t->n++];
	memset(in, 0, sizeof *in);
	in->cmn.type = R500_TYPE_FC;
	in->cmn.alu_wait = 1;
	in->fc.op = (uint16_t)op;
	in->fc.jump_func = (uint16_t)func;
	in->fc.jump_any = (uint16_t)any;
	in->fc.jump_addr = (uint16_t)addr;
	return in;
}

/* t[dst] = A*B + C with A from src0, B = 1, C from src1 (or 0). */
static inline struct r500_inst *add(struct tp *t, int dst, struct r500_addr a, struct r500_addr c)
{
	struct r500_inst *in = tp_alu(t, R500_TYPE_ALU);
	in->alu.rgb_addr.src[0] = in->alu.alpha_addr.src[0] = a;
	in->alu.rgb_addr.src[1] = in->alu.alpha_addr.src[1] = c;
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	in->alu.rgb_arg[2].sel = R500_SEL_SRC1;
	in->alu.alpha_arg[2].sel = R500_SEL_SRC1;
	in->alu.rgb_addrd = in->alu.alpha_addrd = (uint16_t)dst;
	in->cmn.rgb_wmask = 7;
	in->cmn.alpha_wmask = 1;
	return in;
}

static inline struct r500_addr T(int n) { return (struct r500_addr){ .addr = (uint16_t)n }; }
static inline struct r500_addr K(int n) { return (struct r500_addr){ .addr = (uint16_t)n, .cnst = 1 }; }
static inline struct r500_addr I(int code) { return (struct r500_addr){ .addr = (uint16_t)(0x80 | code) }; }

/* ALU result = (t0.x + c) < 0, no temp write. */
static inline struct r500_inst *cond_x_plus(struct tp *t, struct r500_addr c, int neg)
{
	struct r500_inst *in = add(t, 0, T(0), c);
	in->cmn.rgb_wmask = 0;
	in->cmn.alpha_wmask = 0;
	in->alu.rgb_arg[2].mod = (uint16_t)(neg ? R500_MOD_NEG : 0);
	in->alu.alu_wmask = 1;
	in->cmn.alu_result_op = R500_CMP_LT0;
	return in;
}

static inline struct r500_inst *out_const_swz(struct tp *t, int r, int g, int b)
{
	struct r500_inst *in = tp_out(t);
	tp_rgb_swz(in, 0, r, g, b);
	in->alu.alpha_arg[0].swz[0] = R500_SWZ_ONE;
	tp_rgb_swz(in, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	in->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
	return in;
}

#endif
