/* The constant program's code (r500_program.h): the IR function that
 * ir_split_constant_program made, with each uniform read resolved to its
 * constant slot and each "$cpk" output to the slot the layout gave that
 * uniform in the pixel program.  An output the pixel program no longer
 * reads got no slot and is dropped.
 *
 * Needs: cg_finalize (the program) and the uniform layout, which gave
 * the constant program's inputs slots too.  Gives: cg->prog->cp. */
#include "cg.h"
#include "const_program.h"
#include "ir_eval.h"
#include "r500_cp.h"

#include <string.h>

struct lower {
	struct cg_ctx *cg;
	const struct ir_func *cpf;
	struct r500_const_prog *cp;
	struct r500_cp_src *val;   /* by IR id: where the value is (swz = identity + shift) */
	bool ok;
};

static bool bad(struct lower *l, const struct ir_instr *in, const char *what)
{
	l->ok = false;
	return cg_error(l->cg, in->loc, "internal error: constant program: %s", what);
}

/* The source reading `src` through its swizzle. */
static struct r500_cp_src source(const struct lower *l, const struct ir_src *src)
{
	struct r500_cp_src s = l->val[src->def->id], r = s;
	for (int c = 0; c < 4; c++) {
		int k = s.swz[src->swz[c] & 3];
		r.swz[c] = (uint8_t)(k > 3 ? 3 : k);
	}
	return r;
}

static void lower_instr(struct ir_instr *in, void *ud)
{
	struct lower *l = ud;
	struct cg_ctx *cg = l->cg;
	struct r500_const_prog *cp = l->cp;
	if (!l->ok || in->id >= l->cpf->next_id)
		return;
	struct r500_cp_src *v = &l->val[in->id];
	*v = (struct r500_cp_src){ R500_CP_TEMP, { 0, 1, 2, 3 }, 0 };
	if (in->op == IR_OP_CONST) {
		if (cp->nimm >= R500_CP_MAX_IMM) {
			bad(l, in, "too many immediates");
			return;
		}
		memcpy(cp->imm[cp->nimm], in->imm, sizeof cp->imm[0]);
		*v = (struct r500_cp_src){ R500_CP_IMM, { 0, 1, 2, 3 }, (uint16_t)cp->nimm++ };
		return;
	}
	if (in->op == IR_OP_UNIFORM) {
		const struct ir_uniform *u = in->index >= 0 && in->index < cg->func->nuniforms
					     ? &cg->func->uniforms[in->index] : NULL;
		static const uint8_t xyzw[4] = { 0, 1, 2, 3 };
		struct cg_opnd o;
		if (!u || in->nsrc || !cg_uniform_opnd(cg, u->base + in->offset, xyzw, 0, &o)) {
			bad(l, in, "a uniform read without a slot");
			return;
		}
		*v = (struct r500_cp_src){ R500_CP_SLOT, { o.swz[0], o.swz[1], o.swz[2], o.swz[3] },
					   (uint16_t)o.index };
		return;
	}
	if (in->op == IR_OP_OUTPUT) {
		const char *name = in->index >= 0 && in->index < l->cpf->noutputs
				   ? l->cpf->outputs[in->index].name : NULL;
		int u = name ? ir_func_find_uniform(cg->func, name) : -1;
		if (u < 0) {
			bad(l, in, "an output without its uniform");
			return;
		}
		int k = cg->func->uniforms[u].base;
		if (cg->unif_slot[k] < 0)
			return; /* the pixel program does not read it */
		if (cp->nouts >= R500_CP_MAX_OUT) {
			bad(l, in, "too many outputs");
			return;
		}
		cp->outs[cp->nouts++] = (struct r500_cp_output){
			source(l, &in->src[0]), (uint16_t)cg->unif_slot[k], cg->unif_shift[k],
			cg->func->uniforms[u].ncomp };
		return;
	}
	int code = r500_cp_op_code(in->op);
	if (code < 0 || in->nsrc > R500_CP_MAX_SRC || cp->ninst >= R500_CP_MAX_INST) {
		bad(l, in, "an operation it cannot hold");
		return;
	}
	struct r500_cp_inst *ci = &cp->code[cp->ninst];
	*ci = (struct r500_cp_inst){ (uint8_t)code, in->ncomp, in->nsrc,
				     (uint8_t)(in->nsrc ? ir_src_ncomp(l->cpf, in, 0) : 4), { { 0 } } };
	for (int k = 0; k < in->nsrc; k++)
		ci->src[k] = source(l, &in->src[k]);
	v->index = (uint16_t)cp->ninst++;
}

bool cg_const_program(struct cg_ctx *cg)
{
	const struct ir_func *cpf = cg->opts->const_prog;
	struct r500_program *p = cg->prog;
	if (!cpf || !p)
		return true;
	struct r500_const_prog *cp = &p->cp;
	memset(cp, 0, sizeof *cp);
	/* the room unzeroed: each entry is written whole as it is added, and
	 * only the counted ones are read (zeroing 14 KiB was 5 % of a small
	 * shader's compile) */
	cp->code = arena_alloc_unzeroed(cg->arena, sizeof *cp->code * R500_CP_MAX_INST);
	cp->imm = arena_alloc_unzeroed(cg->arena, sizeof *cp->imm * R500_CP_MAX_IMM);
	cp->outs = arena_alloc_unzeroed(cg->arena, sizeof *cp->outs * R500_CP_MAX_OUT);
	struct lower l = { cg, cpf, cp, arena_alloc(cg->arena, sizeof *l.val * (cpf->next_id + 1)),
			   true };
	if (!cp->code || !cp->imm || !cp->outs || !l.val)
		return cg->failed = true, false;
	ir_foreach_instr((struct ir_func *)cpf, lower_instr, &l);
	if (!l.ok)
		return false;
	if (cp->nouts == 0)
		memset(cp, 0, sizeof *cp); /* nothing the pixel program reads */
	char why[160];
	if (!r500_cp_check(cp, p->nconst_slots, why, sizeof why))
		return cg_error(cg, (struct src_loc){ 0 }, "internal error: constant program: %s",
				why);
	return true;
}
