/* The cost interface (r500_cost.h). */
#include "r500_cost.h"

#include "r500.h"
#include "r500_compile.h"

struct r500_cost r500_program_cost(const struct r500_program *p)
{
	struct r500_cost c = { .instructions = p->ninst, .temps = p->stats.temps };
	c.weighted = r500_program_weighted_cost(p, &c.in_loops);
	return c;
}

/* Whether weights a and b are within COST_NEAR_PERCENT of the heavier
 * (weights stay below 2^50: finalize.c's MAX_WEIGHT times the slots). */
static bool near(long a, long b)
{
	long hi = a > b ? a : b, diff = a > b ? a - b : b - a;
	return diff * 100 <= hi * COST_NEAR_PERCENT;
}

bool r500_cost_better(const struct r500_cost *alt, const struct r500_cost *kept)
{
	if (alt->temps != kept->temps && near(alt->weighted, kept->weighted))
		return alt->temps < kept->temps;
	if (alt->weighted != kept->weighted)
		return alt->weighted < kept->weighted;
	if (alt->in_loops != kept->in_loops)
		return alt->in_loops < kept->in_loops;
	return alt->instructions < kept->instructions;
}

/* The IR passes' questions (ir_cost.h): the R500's sizes; its ops cost as
 * a vec4 machine's until this model knows better. */
const struct ir_cost_model r500_ir_cost = {
	.max_instructions = R500_MAX_SLOTS,
	.const_slots = R500_NUM_CONSTS,
	.op_cost = ir_cost_vec4_op,
	.vector_op = ir_cost_vec4_vector_op,
};
