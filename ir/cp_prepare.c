/* Rewrites before the constant program split (const_program.c), so that
 * more uniform-only work can move; the last bits may differ, as GLSL
 * allows:
 *   x / u        -> x * rcp(u)
 *   (x * u) * k  -> x * (u * k)
 *   (x * k) / u  -> x * (k * rcp(u))
 * with u, k uniform-only and x not.  A uniform-only value is one the
 * split could move (const_program.c says which). */
#include "cp_prepare.h"

#include <stdlib.h>

#include "ir_eval.h"

/* x / u with u uniform-only (not a constant: isel multiplies by a folded
 * reciprocal then) and x not: x * rcp(u), as the R500 computes it
 * anyway, so that rcp(u) can move (Shadertoy's fragCoord / iResolution). */
struct div_scan {
	struct ir_func *f;
	uint32_t n;          /* ids before the scan (new RCPs come after) */
	bool *uniform_only;  /* by id below n */
	bool failed;
};

/* Whether def is uniform-only; the ops this scan makes are. */
static bool uniform_only(const struct div_scan *d, const struct ir_instr *def)
{
	return def && (def->id >= d->n || d->uniform_only[def->id]);
}

/* (x * u) * k with u and k uniform-only, x not: x * (u * k), so that
 * u * k can move (iTime * 1.5 * t * t * 0.4 keeps one product per pixel).
 * Products only: a sum regrouped could cancel differently. */
static void group_factors(struct div_scan *d, struct ir_instr *in)
{
	for (int k = 0; k < 2; k++) {
		const struct ir_src *ks = &in->src[k], *as = &in->src[1 - k];
		struct ir_instr *a = as->def;
		if (!uniform_only(d, ks->def) || !a || a->op != IR_OP_MUL || uniform_only(d, a))
			continue;
		for (int j = 0; j < 2; j++) {
			const struct ir_src *us = &a->src[j], *xs = &a->src[1 - j];
			if (!uniform_only(d, us->def) || uniform_only(d, xs->def))
				continue;
			struct ir_src u = *us, x = *xs;
			for (int c = 0; c < 4; c++) {
				u.swz[c] = us->swz[as->swz[c] & 3];
				x.swz[c] = xs->swz[as->swz[c] & 3];
			}
			struct ir_instr *p = ir_build_before(d->f, in, IR_OP_MUL, in->ncomp, IR_FLOAT, 2,
							(struct ir_src[]){ u, *ks });
			if (!p) {
				d->failed = true;
				return;
			}
			in->src[0] = x;
			in->src[1] = ir_src_of(p);
			return;
		}
	}
}

static void split_division(struct ir_instr *in, void *ud)
{
	struct div_scan *d = ud;
	if (in->id >= d->n)
		return;
	bool u = in->op == IR_OP_CONST || (in->op == IR_OP_UNIFORM && in->nsrc == 0);
	if (!u && in->op != IR_OP_PHI && in->ncomp && in->nsrc && ir_op_is_evaluable(in->op)) {
		u = true;
		for (int i = 0; u && i < in->nsrc && i < IR_MAX_SRCS; i++)
			u = in->src[i].def && in->src[i].def->id < d->n &&
			    d->uniform_only[in->src[i].def->id];
	}
	d->uniform_only[in->id] = u;
	if (in->op == IR_OP_MUL && !u && !d->failed)
		group_factors(d, in);
	const struct ir_instr *x = in->src[0].def, *y = in->src[1].def;
	if (in->op != IR_OP_DIV || u || d->failed || !y || y->op == IR_OP_CONST ||
	    y->id >= d->n || !d->uniform_only[y->id] || !x)
		return;
	struct ir_instr *r = ir_build_before(d->f, in, IR_OP_RCP, in->ncomp, IR_FLOAT, 1, &in->src[1]);
	if (!r) {
		d->failed = true;
		return;
	}
	in->op = IR_OP_MUL;
	in->src[1] = ir_src_of(r);
	group_factors(d, in); /* (x * k) / u: x * (k * rcp(u)) */
}

bool ir_cp_prepare(struct ir_func *f)
{
	struct div_scan d = { f, f->next_id, calloc((size_t)f->next_id + 1, 1), false };
	if (!d.uniform_only)
		return false;
	ir_foreach_instr(f, split_division, &d);
	free(d.uniform_only);
	return !d.failed;
}

