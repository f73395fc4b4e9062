/* The cost interface (r500_cost.h). */
#include "r500_cost.h"

#include "r500_compile.h"

struct r500_cost r500_program_cost(const struct r500_program *p)
{
	struct r500_cost c = { .instructions = p->ninst };
	c.weighted = r500_program_weighted_cost(p, &c.in_loops);
	return c;
}

bool r500_cost_better(const struct r500_cost *alt, const struct r500_cost *kept)
{
	if (alt->weighted != kept->weighted)
		return alt->weighted < kept->weighted;
	if (alt->in_loops != kept->in_loops)
		return alt->in_loops < kept->in_loops;
	return alt->instructions < kept->instructions;
}
