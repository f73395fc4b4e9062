/* Finalize: the program's tables (constants, uniforms, samplers, inputs,
 * outputs), US_PIXSIZE and the figures of INTERFACES.md §4.
 *
 * Needs: every earlier stage.  Gives: cg->prog, allocated in the arena. */
#include "cg.h"
#include "const_program.h"

#include <string.h>

static const char xyzw[] = "xyzw";

/* Components first .. first+ncomp-1 as letters ("xyzw", "y", "zw"). */
static void swizzle_text(char *out, int first, int ncomp)
{
	if (ncomp < 1 || ncomp > 4)
		ncomp = 4;
	if (first < 0 || first + ncomp > 4)
		first = 0;
	memcpy(out, xyzw + first, (size_t)ncomp);
	out[ncomp] = 0;
}

/* The GL uniform element e of u is, as a driver names it: of a
 * member-major uniform, "lights[2].m" and its column ("lights[2].w",
 * an array, and its element's column for a member array); of a
 * uniform array of matrices held column-major ("m[]"), element
 * k * columns + c of the array "m", as if it were not (each record
 * names its own slot, so a driver never sees the order). */
static bool record_name(struct cg_ctx *cg, const struct ir_uniform *u, int e,
			struct r500_uniform *r)
{
	r->name = u->name;
	r->array_len = u->array_len;
	r->element = e;
	if (!u->member_major)
		return true;
	if (ir_uniform_is_matrix_array(u)) {
		r->name = arena_strndup(cg->arena, u->name, strlen(u->name) - 2);
		r->element = e % u->array_len * (u->nvec4 / u->array_len) + e / u->array_len;
		return r->name != NULL;
	}
	char name[256];
	if (!ir_uniform_member_name(u, e % u->array_len, name, sizeof name))
		return false; /* the IR was validated: array_len >= 1 */
	r->name = arena_strdup(cg->arena, name);
	r->array_len = ir_uniform_member_len(u);
	r->element = e / u->array_len;
	return r->name != NULL;
}

static bool tables(struct cg_ctx *cg, struct r500_program *p)
{
	const struct ir_func *f = cg->func;
	p->nconst_slots = cg->nconst_slots;
	p->consts = arena_alloc(cg->arena, sizeof *p->consts * (size_t)(cg->nconst_slots + 1));
	p->const_is_imm = arena_alloc(cg->arena, (size_t)(cg->nconst_slots + 1));
	if (!p->consts || !p->const_is_imm)
		return false;
	for (int s = 0; s < cg->nconst_slots; s++) {
		const struct cg_const_slot *cs = s < cg->cap_cslots ? &cg->cslots[s] : NULL;
		p->const_is_imm[s] = cs && cs->imm;
		if (cs && cs->imm)
			memcpy(p->consts[s], cs->v, sizeof p->consts[s]);
	}
	p->uniforms = arena_alloc(cg->arena, sizeof *p->uniforms * (size_t)(f->nuniform_vec4 + 1));
	if (!p->uniforms)
		return false;
	for (int i = 0; i < f->nuniforms; i++) {
		const struct ir_uniform *u = &f->uniforms[i];
		if (ir_uniform_is_cp_output(u))
			continue; /* the constant program fills it, not the driver */
		for (int e = 0; e < u->nvec4; e++) {
			int k = u->base + e;
			if (k >= f->nuniform_vec4 || cg->unif_slot[k] < 0)
				continue; /* never read: nothing to upload */
			struct r500_uniform *r = &p->uniforms[p->nuniforms++];
			if (!record_name(cg, u, e, r))
				return false;
			r->type = u->type;
			r->slot = cg->unif_slot[k];
			swizzle_text(r->swizzle, cg->unif_shift[k], u->ncomp);
			r->init = u->init ? u->init[e] : NULL;
		}
	}
	p->samplers = arena_alloc(cg->arena, sizeof *p->samplers * (size_t)(f->nsamplers + 1));
	p->inputs = arena_alloc(cg->arena, sizeof *p->inputs * (size_t)(f->ninputs + 1));
	p->outputs = arena_alloc(cg->arena, sizeof *p->outputs * (size_t)(f->noutputs + 1));
	if (!p->samplers || !p->inputs || !p->outputs)
		return false;
	for (int i = 0; i < f->nsamplers; i++) {
		struct r500_sampler *s = &p->samplers[p->nsamplers++];
		s->name = f->samplers[i].name;
		s->unit = f->samplers[i].unit;
		s->target = f->samplers[i].target;
		s->shadow = 0; /* the depth compare is in the code: none in the sampler */
	}
	for (int i = 0; i < f->ninputs; i++) {
		int v = cg->input_vreg[i];
		if (v < 0)
			continue;
		struct r500_input *in = &p->inputs[p->ninputs++];
		in->name = f->inputs[i].name;
		in->temp = cg->vregs[v].temp;
		swizzle_text(in->components, 0, cg->vregs[v].ncomp);
	}
	for (int i = 0; i < f->noutputs; i++) {
		struct r500_output *o = &p->outputs[p->noutputs++];
		o->name = f->outputs[i].name;
		o->target = f->outputs[i].target;
	}
	return true;
}

/* Passes a loop whose count is not known is weighed at: a guess. */
enum { GUESSED_TRIPS = 8 };
/* A weight no nest of loops goes past (255 passes nested 32 deep would
 * overflow): a program that heavy loses to any other anyway. */
static const long MAX_WEIGHT = 1L << 40;

/* The weight of the code inside LOOP instruction i's body: its own
 * passes (known or guessed) times `outer`, the weight around it. */
static long loop_weight(const struct r500_program *p, int i, long outer)
{
	long trips = p->loop_trips && p->loop_trips[i] ? p->loop_trips[i] : GUESSED_TRIPS;
	return outer > MAX_WEIGHT / trips ? MAX_WEIGHT : outer * trips;
}

/* Whether slot j is a JUMP over a loop's exit (a BREAKLOOP between it
 * and its target): a trip that goes on takes it. */
static bool skips_exit(const struct r500_inst *code, int n, int j)
{
	const struct r500_inst *in = &code[j];
	if ((in->cmn.type & 3) != R500_TYPE_FC || in->fc.op != R500_FC_JUMP)
		return false;
	int to = in->fc.jump_addr & 511;
	if (to <= j + 1 || to > n)
		return false;
	for (int k = j + 1; k < to; k++)
		if ((code[k].cmn.type & 3) == R500_TYPE_FC && code[k].fc.op == R500_FC_BREAKLOOP)
			return true;
	return false;
}

/* The stall of the TEX run [first, last] as r500_program_cycles counts
 * it, but following the innermost loop around it (body start `body`, its
 * ENDLOOP `end`; -1 outside loops) back to the top of the body once: a
 * lookup issued late in a trip for the next one is waited for there.  On
 * that way round, the jump over the loop's exit test is taken. */
static int run_stall(const struct r500_inst *code, int n, int first, int last, int body, int end)
{
	int distance = 1 + (last - first + 1);
	bool wrapped = false;
	for (int j = last + 1; j < n && distance < 30 && !code[j].cmn.tex_sem_wait;) {
		distance++;
		if (j == end && !wrapped) {
			j = body;
			wrapped = true;
		} else if (wrapped && skips_exit(code, n, j)) {
			j = code[j].fc.jump_addr & 511; /* the trip goes on */
		} else {
			j++;
		}
	}
	return 30 - (distance < 30 ? distance : 30);
}

/* Mesa's r300 cost model (INTERFACES.md §4): +1 per instruction, +1 per
 * NOP, +30 per run of TEX lookups minus min(30, the distance from the run
 * to the first instruction that waits on it).  The distance is measured
 * as Mesa's rc_get_stats measures it, from the run's BEGIN_TEX marker (an
 * entry of its instruction list before the run's first lookup): the
 * marker, the lookups of the run, then the instructions between. */
int r500_program_cycles(const struct r500_inst *code, int n)
{
	int c = 0, run_start = 0;
	for (int i = 0; i < n; i++) {
		c += 1 + code[i].cmn.nop;
		if (code[i].cmn.type != R500_TYPE_TEX)
			continue;
		if (i == 0 || code[i - 1].cmn.type != R500_TYPE_TEX)
			run_start = i;
		if (i + 1 < n && code[i + 1].cmn.type == R500_TYPE_TEX)
			continue;
		c += run_stall(code, n, run_start, i, -1, -1);
	}
	return c;
}

long r500_program_weighted_cost(const struct r500_program *p, long *in_loops)
{
	enum { MAX_DEPTH = 64 };
	int loop_at[MAX_DEPTH], depth = 0, run_start = 0;
	long weight[MAX_DEPTH + 1] = { 1 }; /* weight[d]: of code inside d loops */
	long cost = 0;
	*in_loops = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		bool fc = (in->cmn.type & 3) == R500_TYPE_FC;
		if (fc && in->fc.op == R500_FC_ENDLOOP && depth > 0)
			depth--;
		long w = weight[depth];
		cost += w * (1 + (in->cmn.nop & 1));
		*in_loops += depth ? w : 0;
		if (fc && in->fc.op == R500_FC_LOOP && depth < MAX_DEPTH) {
			loop_at[depth++] = i;
			weight[depth] = loop_weight(p, i, w);
		}
		if (in->cmn.type != R500_TYPE_TEX)
			continue;
		if (i == 0 || p->code[i - 1].cmn.type != R500_TYPE_TEX)
			run_start = i;
		if (i + 1 < p->ninst && p->code[i + 1].cmn.type == R500_TYPE_TEX)
			continue;
		int body = -1, end = -1;
		if (depth > 0) {
			/* the LOOP's jump goes to its ENDLOOP (when it runs no trip) */
			body = loop_at[depth - 1] + 1;
			end = p->code[loop_at[depth - 1]].fc.jump_addr & 511;
		}
		cost += w * run_stall(p->code, p->ninst, run_start, i, body, end);
	}
	return cost;
}

static void stats(struct cg_ctx *cg, struct r500_program *p)
{
	struct r500_stats *s = &p->stats;
	memset(s, 0, sizeof *s);
	s->instructions = p->ninst;
	for (int i = 0; i < p->ninst; i++) {
		switch (p->code[i].cmn.type) {
		case R500_TYPE_ALU: s->alu++; break;
		case R500_TYPE_OUT: s->out++; break;
		case R500_TYPE_FC: s->fc++; break;
		default: s->tex++; break;
		}
	}
	s->nops = cg->nops_inserted;
	s->pairs = cg->pairs;
	s->temps = cg->temps_used;
	s->constants = cg->nconst_slots;
	s->lower_bound = cg->lower_bound;
	s->cycles = r500_program_cycles(p->code, p->ninst);
}

/* p->loop_trips from the LOOP ops' trips (NULL without loops). */
static bool loop_trips(const struct cg_ctx *cg, struct r500_program *p)
{
	uint8_t *trips = NULL;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->opc != CG_FC || op->fc.op != R500_FC_LOOP || !op->trips ||
		    op->slot < 0 || op->slot >= p->ninst)
			continue;
		if (!trips && !(trips = arena_alloc(cg->arena, (size_t)p->ninst)))
			return false;
		trips[op->slot] = op->trips;
	}
	p->loop_trips = trips;
	return true;
}

bool cg_finalize(struct cg_ctx *cg)
{
	struct r500_program *p = arena_alloc(cg->arena, sizeof *p);
	if (!p)
		return cg->failed = true, false;
	p->code = cg->code;
	p->ninst = cg->ninst;
	if (!tables(cg, p))
		return cg->failed = true, false;
	p->pixsize = cg->temps_used - 1 > 1 ? cg->temps_used - 1 : 1;
	/* loops name US_FC_INT_CONST_0 = Mesa's {count 255, init 0, step 0},
	 * or one with aL's step (cg_int_const) */
	p->uses_fc = cg->uses_fc;
	p->int_const_used = cg->int_const_used;
	memcpy(p->int_consts, cg->int_consts, sizeof p->int_consts);
	if (!loop_trips(cg, p))
		return cg->failed = true, false;
	stats(cg, p);
	cg->prog = p;
	return true;
}
