/* What the IR passes ask of the target's costs, instead of constants of
 * their own: the one cost model is the backend's (backend/r500_cost.c
 * gives the R500's, r500_ir_cost), hung on the function (ir_func.cost)
 * by whoever compiles it; a function without one (IR tests, tools) gets
 * ir_cost_vec4, a vec4 machine's answers the R500's model starts from. */
#ifndef USCC_IR_COST_H
#define USCC_IR_COST_H

#include <stdbool.h>
#include "ir.h"

struct ir_cost_model {
	/* instructions a program may have: loop_unroll's copies that are not
	 * constants (those fold away) past this cannot fit */
	int max_instructions;
	/* constant slots (vec4) a program may use: the constant program's new
	 * uniforms must leave room for the program's own and its immediates */
	int const_slots;
	/* instructions one op costs a pixel (roughly, as the backend expands
	 * it): const_program's "does moving this pay" */
	int (*op_cost)(enum ir_op op);
	/* whether the op is one vector instruction for up to four lanes
	 * (slp's "does gathering lanes pay") */
	bool (*vector_op)(enum ir_op op);
};

/* The model f's passes ask: f->cost, else ir_cost_vec4. */
const struct ir_cost_model *ir_cost(const struct ir_func *f);

/* A vec4 machine with the R500's sizes: 512 instructions, 256 constant
 * slots; ops cost as below. */
extern const struct ir_cost_model ir_cost_vec4;
int ir_cost_vec4_op(enum ir_op op);
bool ir_cost_vec4_vector_op(enum ir_op op);

#endif
