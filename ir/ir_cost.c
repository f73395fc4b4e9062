/* The cost model the IR passes ask (ir_cost.h) when the function has
 * none of the backend's. */
#include "ir_cost.h"

/* Source modifiers are free, sin/cos reduce their range first, the
 * inverse trigonometric functions are polynomials; a VEC gathering values
 * of different registers takes copies (1). */
int ir_cost_vec4_op(enum ir_op op)
{
	switch (op) {
	case IR_OP_MOV: case IR_OP_NEG: case IR_OP_ABS: case IR_OP_B2F:
		return 0;
	case IR_OP_SIN: case IR_OP_COS:
		return 3;
	case IR_OP_POW: case IR_OP_TAN:
		return 3;
	case IR_OP_DIV: case IR_OP_SQRT: case IR_OP_MIX: case IR_OP_SIGN:
		return 2;
	case IR_OP_ASIN: case IR_OP_ACOS: case IR_OP_ATAN: case IR_OP_ATAN2:
		return 8;
	default:
		return 1;
	}
}

/* The ops a vector unit does lane by lane in one instruction (the
 * transcendental ones are one lane an instruction). */
bool ir_cost_vec4_vector_op(enum ir_op op)
{
	switch (op) {
	case IR_OP_ADD: case IR_OP_SUB: case IR_OP_MUL: case IR_OP_MAD: case IR_OP_NEG:
	case IR_OP_ABS: case IR_OP_SIGN: case IR_OP_FLOOR: case IR_OP_CEIL: case IR_OP_FRACT:
	case IR_OP_TRUNC: case IR_OP_MIN: case IR_OP_MAX: case IR_OP_CLAMP: case IR_OP_SAT:
	case IR_OP_MIX: case IR_OP_STEP:
		return true;
	default:
		return false;
	}
}

const struct ir_cost_model ir_cost_vec4 = {
	.max_instructions = 512,
	.const_slots = 256,
	.op_cost = ir_cost_vec4_op,
	.vector_op = ir_cost_vec4_vector_op,
};

const struct ir_cost_model *ir_cost(const struct ir_func *f)
{
	return f->cost ? f->cost : &ir_cost_vec4;
}
