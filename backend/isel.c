/* Instruction selection: IR function -> cg ops on vregs (cg.h).
 *
 * Needs: a valid IR function.  Gives: cg->ops in program order (FC ops
 * and late copies included, isel_cf.c), cg->vregs, input vregs
 * pre-coloured to t0, t1, ... in input order, uniform slots and packed
 * immediates.  Small IFs are if-converted here (isel_list); the others
 * and every LOOP become real flow control (isel_cf.c).
 *
 * CONST, UNIFORM, MOV, NEG, ABS and B2F make no code: an operand is
 * resolved through them into a swizzle and a modifier on the value they
 * read.  Everything else maps onto MAD/DP3/DP4/MIN/MAX/CND/CMP/FRC, the
 * alpha-unit transcendentals (one op per component), MDH/MDV and TEX
 * (ISA.md §8): ADD = MAD(a,1,b), MUL = MAD(a,b,0), MOV = MAD(a,1,0).
 * A dead-code sweep at the end drops ops and components nobody reads. */
#include "isel.h"
#include "ir_eval.h"
#include "shadow.h"

#include <assert.h>
#include <math.h>

#include <string.h>

/* Values of a source when it is a compile-time constant. */
static bool src_const(const struct ir_src *src, int n, float *v)
{
	uint8_t swz[4];
	memcpy(swz, src->swz, 4);
	bool neg = false, abs = false;
	const struct ir_instr *d = src->def;
	for (;;) {
		if (!d)
			return false;
		if (d->op == IR_OP_MOV || d->op == IR_OP_B2F || d->op == IR_OP_NEG ||
		    d->op == IR_OP_ABS) {
			if (d->op == IR_OP_NEG && !abs)
				neg = !neg;
			if (d->op == IR_OP_ABS)
				abs = true;
			for (int i = 0; i < n; i++)
				swz[i] = d->src[0].swz[swz[i] & 3];
			d = d->src[0].def;
			continue;
		}
		if (d->op != IR_OP_CONST)
			return false;
		for (int i = 0; i < n; i++) {
			float x = d->imm[swz[i] & 3];
			if (abs)
				x = x < 0 ? -x : x;
			v[i] = neg ? -x : x;
		}
		return true;
	}
}

/* Whether src reads the constant 0 in all n components. */
static bool src_zero(const struct ir_src *src, int n)
{
	float v[4];
	if (!src_const(src, n, v))
		return false;
	for (int i = 0; i < n; i++)
		if (v[i] != 0.0f)
			return false;
	return true;
}

/* The operand reading `src` for n destination components (entries). */
bool isel_opnd(struct isel *s, const struct ir_src *src, int n, struct cg_opnd *out)
{
	struct cg_ctx *cg = s->cg;
	float v[4];
	if (src_const(src, n, v))
		return cg_const_opnd(cg, v, n, s->loc, out);
	uint8_t swz[4];
	for (int i = 0; i < 4; i++)
		swz[i] = src->swz[i < n ? i : n - 1] & 3;
	bool neg = false, abs = false;
	const struct ir_instr *d = src->def;
	while (d && (d->op == IR_OP_MOV || d->op == IR_OP_B2F || d->op == IR_OP_NEG ||
		     d->op == IR_OP_ABS)) {
		if (d->op == IR_OP_NEG && !abs)
			neg = !neg;
		if (d->op == IR_OP_ABS)
			abs = true;
		for (int i = 0; i < 4; i++)
			swz[i] = d->src[0].swz[swz[i]] & 3;
		d = d->src[0].def;
	}
	if (!d)
		return cg_error(cg, s->loc, "internal error: source without definition");
	int mod = abs ? (neg ? R500_MOD_NAB : R500_MOD_ABS) : (neg ? R500_MOD_NEG : R500_MOD_NONE);
	if (isel_rel_uniform_opnd(s, d, swz, (uint8_t)mod, out))
		return true;
	if (d->op == IR_OP_UNIFORM && d->nsrc == 0) {
		const struct ir_uniform *u = &s->cg->func->uniforms[d->index];
		if (!cg_uniform_opnd(cg, u->base + d->offset, swz, (uint8_t)mod, out))
			return cg_error(cg, s->loc, "internal error: uniform element without a slot");
		return true;
	}
	if (d->id < s->nids && s->vreg_of[d->id] == -2) { /* a deferred MUL */
		struct src_loc loc = s->loc;
		s->vreg_of[d->id] = -1;
		if (!isel_instr(s, (struct ir_instr *)d, false))
			return false;
		s->loc = loc;
	}
	if (d->id >= s->nids || s->vreg_of[d->id] < 0)
		return cg_error(cg, s->loc, "internal error: value %%%u used before selected",
				(unsigned)d->id);
	*out = cg_opnd_vreg(s->vreg_of[d->id], swz, mod);
	return true;
}

bool isel_vec_swizzle_opnd(struct isel *s, const struct ir_src *src, int n,
			   struct cg_opnd *out)
{
	const struct ir_instr *v = src->def;
	if (!v || v->op != IR_OP_VEC || v->id >= s->nids || s->vreg_of[v->id] < 0)
		return false;
	uint8_t swz[4];
	bool konst = false;
	for (int c = 0; c < 4; c++) {
		int k = src->swz[c < n ? c : n - 1] & 3;
		float cv;
		swz[c] = (uint8_t)k;
		if (k >= v->nsrc || !src_const(&v->src[k], 1, &cv))
			continue;
		if (cv != 0.0f && cv != 0.5f && cv != 1.0f)
			return false;
		swz[c] = cv == 0.0f ? CG_SWZ_ZERO : cv == 0.5f ? CG_SWZ_HALF : CG_SWZ_ONE;
		konst = true;
	}
	if (!konst)
		return false;
	*out = cg_opnd_vreg(s->vreg_of[v->id], swz, R500_MOD_NONE);
	return true;
}

struct cg_op *isel_alu(struct isel *s, enum cg_opc opc, int dst, uint8_t wmask,
			 const struct cg_opnd *a, const struct cg_opnd *b, const struct cg_opnd *c)
{
	struct cg_op *op = cg_new_op(s->cg, opc, dst, wmask);
	if (!op)
		return NULL;
	const struct cg_opnd *srcs[3] = { a, b, c };
	for (int k = 0; k < 3; k++)
		if (srcs[k])
			op->src[k] = *srcs[k];
	op->loc = s->loc;
	return op;
}

/* d = MAD(a, b, c) over n components into a fresh vreg. */
int isel_mad(struct isel *s, int n, struct cg_opnd a, struct cg_opnd b, struct cg_opnd c)
{
	int d = cg_new_vreg(s->cg, n);
	if (d < 0 || !isel_alu(s, CG_MAD, d, mask_of(n), &a, &b, &c))
		return -1;
	return d;
}

int isel_op(struct isel *s, enum cg_opc opc, int n, const struct cg_opnd *a,
		  const struct cg_opnd *b, const struct cg_opnd *c)
{
	int d = cg_new_vreg(s->cg, n);
	if (d < 0 || !isel_alu(s, opc, d, mask_of(n), a, b, c))
		return -1;
	return d;
}

/* One transcendental op per component (the alpha unit is scalar). */
int isel_trans(struct isel *s, enum cg_opc opc, int n, struct cg_opnd a)
{
	int d = cg_new_vreg(s->cg, n);
	if (d < 0)
		return -1;
	for (int c = 0; c < n; c++)
		if (!isel_alu(s, opc, d, (uint8_t)(1u << c), &a, NULL, NULL))
			return -1;
	return d;
}

/* --- writing results in place ---
 * When a value is read only by a VEC or an OUTPUT, the ops computing it
 * can write the VEC's components (or the output) directly instead of
 * being copied: the op's write mask and its operands' entries are
 * renumbered from the value's components to the new ones. */

static int new_lane(const struct cg_ctx *cg, int newdst, int out, int k)
{
	if (newdst >= 0)
		return cg->vregs[newdst].lane[k];
	return out == CG_OUT_DEPTH ? 3 : k;
}

/* o: the operand reading the value through entries in kmask. */
bool isel_retarget(struct isel *s, const struct ir_src *src, const struct cg_opnd *o,
		     uint8_t kmask, int newdst, int out, bool sole)
{
	struct cg_ctx *cg = s->cg;
	const struct ir_instr *d = src->def;
	/* through copies and bool-to-float, which select no op of their own
	 * (o already reads what they read): each must have this one reader */
	while (d && (d->op == IR_OP_MOV || d->op == IR_OP_B2F) && d->id < s->nids &&
	       s->uses[d->id] == 1)
		d = d->src[0].def;
	if (!d || o->file != CG_FILE_VREG || o->mod != R500_MOD_NONE || d->id >= s->nids ||
	    s->uses[d->id] != 1 || s->vreg_of[d->id] != o->index)
		return false;
	struct cg_vreg *v = &cg->vregs[o->index];
	if (v->input >= 0 || v->multi || (newdst >= 0 && cg->vregs[newdst].multi))
		return false;
	uint8_t kto[4] = { 0, 0, 0, 0 }; /* value component -> new components */
	for (int k = 0; k < 4; k++) {
		if (!(kmask & (1u << k)))
			continue;
		int c = o->swz[k];
		if (c >= 4 || c >= v->ncomp || v->writer[c] < 0)
			return false;
		kto[c] |= (uint8_t)(1u << k);
	}
	bool any = false;
	for (int c = 0; c < v->ncomp; c++) {
		if (v->writer[c] < 0)
			continue;
		if (!kto[c]) {
			if (!sole)
				return false; /* a component is needed elsewhere */
			continue;
		}
		any = true;
		const struct cg_op *p = &cg->ops[v->writer[c]];
		const struct cg_opc_info *info = &cg_opc_infos[p->opc];
		bool fixed = info->tex || p->opc == CG_MDH || p->opc == CG_MDV;
		if (p->out != CG_OUT_NONE || p->dst != o->index)
			return false;
		/* one value into several components (vec3(gray)): the op writes
		 * them all, its operands' entries repeated (a dot product's
		 * result is repeated by the hardware); not a lookup's or a
		 * transcendental's single lane */
		bool several = __builtin_popcount(kto[c]) > 1;
		if (several && (fixed || info->transcendental))
			return false;
		for (int k = 0; k < 4; k++) {
			int nl = (kto[c] & (1u << k)) ? new_lane(cg, newdst, out, k) : -1;
			if (nl >= 0 && fixed && (v->lane[c] != nl || nl == CG_LANE_ANY))
				return false;
		}
		if (info->tex && out != CG_OUT_NONE)
			return false;
	}
	if (!any)
		return false;
	/* apply: each writer of a kept component once (a writer of several
	 * components must not be renumbered again for each of them); writers
	 * of dropped components only keep writing v, which nobody reads */
	uint8_t moved = 0;
	for (int c = 0; c < v->ncomp; c++) {
		int w = v->writer[c];
		bool seen = false;
		for (int c0 = 0; c0 < c; c0++)
			seen |= v->writer[c0] == w && kto[c0];
		if (w < 0 || seen || !kto[c])
			continue;
		struct cg_op *p = &cg->ops[w];
		uint8_t nmask = 0;
		struct cg_opnd nsrc[3];
		memcpy(nsrc, p->src, sizeof nsrc);
		for (int c2 = 0; c2 < v->ncomp; c2++) {
			if (v->writer[c2] != w)
				continue;
			moved |= (uint8_t)(1u << c2);
			nmask |= kto[c2]; /* dropped components: no longer written */
			for (int k = 0; k < 4; k++)
				if ((kto[c2] & (1u << k)) && !cg_opc_infos[p->opc].dot)
					for (int j = 0; j < 3; j++)
						nsrc[j].swz[k] = p->src[j].swz[c2];
		}
		memcpy(p->src, nsrc, sizeof nsrc);
		if (newdst >= 0 && cg->vregs[newdst].ncomp == 1 && cg->vregs[newdst].lane[0] == CG_LANE_ANY &&
		    v->lane[c] != CG_LANE_ANY)
			cg->vregs[newdst].lane[0] = v->lane[c];
		p->wmask = nmask;
		p->dst = newdst;
		p->out = out;
		for (int c2 = 0; c2 < v->ncomp; c2++) {
			if (v->writer[c2] != w)
				continue;
			for (int k = 0; k < 4 && newdst >= 0; k++)
				if (kto[c2] & (1u << k))
					cg->vregs[newdst].writer[k] = w;
		}
	}
	for (int c = 0; c < 4; c++)
		if (moved & (1u << c))
			v->writer[c] = -1;
	return true;
}

static int sel_vec(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
static bool fuse_mul(struct isel *s, struct ir_instr *in, int k, bool neg_mul, struct cg_opnd *other, int *d);

/* --- per-opcode selection: each returns the result vreg or -1 --- */

typedef int (*sel_fn)(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);

static bool deferred(const struct isel *s, const struct ir_src *src)
{
	return src->def && src->def->id < s->nids && s->vreg_of[src->def->id] == -2;
}

/* Source j of the deferred MUL/DIV that `src` reads, read through src's
 * swizzle (n components), for a reader that selects the product itself. */
static struct ir_src product_source(const struct ir_src *src, int j, int n)
{
	const struct ir_instr *m = src->def;
	struct ir_src c = m->src[j];
	int last = n > 0 ? n - 1 : 0; /* entries past n repeat the last */
	for (int i = 0; i < 4; i++)
		c.swz[i] = m->src[j].swz[src->swz[i < n ? i : last] & 3];
	return c;
}

/* ADD/SUB resolve their own operands so that a deferred MUL can fuse. */
static int sel_addsub(struct isel *s, struct ir_instr *in, bool sub)
{
	int d, n = in->ncomp;
	struct cg_opnd a, b;
	if (deferred(s, &in->src[0])) {
		if (!isel_opnd(s, &in->src[1], n, &b))
			return -1;
		if (sub)
			b = opnd_neg(b);
		if (fuse_mul(s, in, 0, false, &b, &d))
			return d;
	} else if (deferred(s, &in->src[1])) {
		if (!isel_opnd(s, &in->src[0], n, &a))
			return -1;
		if (fuse_mul(s, in, 1, sub, &a, &d))
			return d;
	}
	if (!isel_opnd(s, &in->src[0], n, &a) || !isel_opnd(s, &in->src[1], n, &b))
		return -1;
	return isel_mad(s, n, a, ONE, sub ? opnd_neg(b) : b);
}
static int sel_add(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	return sel_addsub(s, in, false);
}
static int sel_sub(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	return sel_addsub(s, in, true);
}
/* The vreg of operand x (source k of `in`) when the ops computing it can
 * take a result modifier for `in`: x is read only here, whole and
 * unswizzled, and every op writing it is a plain ALU op that writes
 * nothing else.  With `scale`, OMOD: the ops have no clamp or OMOD yet
 * (ISA.md §6.5: OMOD scales the unit's result before the clamp).
 * Otherwise the clamp, which goes after an OMOD but not after OMOD
 * "disabled".  -1 when it does not apply. */
static int modifiable(struct isel *s, const struct ir_instr *in, int k, const struct cg_opnd *x,
		      bool scale)
{
	struct cg_ctx *cg = s->cg;
	int n = in->ncomp;
	const struct ir_instr *d = in->src[k].def;
	if (!d || x->file != CG_FILE_VREG || x->mod != R500_MOD_NONE || d->id >= s->nids ||
	    s->uses[d->id] != 1 || s->vreg_of[d->id] != x->index)
		return -1;
	struct cg_vreg *vr = &cg->vregs[x->index];
	if (vr->input >= 0 || vr->multi || vr->ncomp < n)
		return -1;
	for (int c = 0; c < n; c++)
		if (x->swz[c] != c || vr->writer[c] < 0)
			return -1;
	for (int c = 0; c < vr->ncomp; c++) {
		if (vr->writer[c] < 0)
			continue;
		const struct cg_op *p = &cg->ops[vr->writer[c]];
		const struct cg_opc_info *info = &cg_opc_infos[p->opc];
		if (info->tex || p->opc == CG_FC || p->opc == CG_KIL || p->opc == CG_MDH ||
		    p->opc == CG_MDV || p->late || p->alu_result || p->out != CG_OUT_NONE ||
		    p->dst != x->index)
			return -1;
		if (scale ? info->transcendental || p->clamp || p->omod
			  : p->omod == R500_OMOD_DISABLE)
			return -1;
	}
	return x->index;
}

/* Sets the result modifier on every op writing vreg v. */
static void modify_writers(struct cg_ctx *cg, int v, int omod, bool clamp)
{
	const struct cg_vreg *vr = &cg->vregs[v];
	for (int c = 0; c < vr->ncomp; c++) {
		if (vr->writer[c] < 0)
			continue;
		struct cg_op *p = &cg->ops[vr->writer[c]];
		if (omod >= 0)
			p->omod = (uint8_t)omod;
		p->clamp |= clamp;
	}
}

/* x * 2^k for k = 1..3 or -1..-3 (all components alike): the OMOD of the
 * ops computing x (modifiable).  Returns x's vreg, or -1 when it does not
 * apply (nothing changed). */
static int mul_as_omod(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	static const struct { float k; uint8_t omod; } scales[] = {
		{ 2.0f, R500_OMOD_MUL2 }, { 4.0f, R500_OMOD_MUL4 }, { 8.0f, R500_OMOD_MUL8 },
		{ 0.5f, R500_OMOD_DIV2 }, { 0.25f, R500_OMOD_DIV4 }, { 0.125f, R500_OMOD_DIV8 },
	};
	int n = in->ncomp;
	for (int k = 0; k < 2; k++) {
		float v[4];
		if (!src_const(&in->src[k], n, v))
			continue;
		int omod = -1;
		for (size_t i = 0; i < sizeof scales / sizeof scales[0]; i++)
			if (v[0] == scales[i].k)
				omod = scales[i].omod;
		for (int c = 1; c < n; c++)
			if (v[c] != v[0])
				omod = -1;
		int x = omod < 0 ? -1 : modifiable(s, in, 1 - k, &o[1 - k], true);
		if (x >= 0)
			modify_writers(s->cg, x, omod, false);
		return x;
	}
	return -1;
}

static int sel_mul(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int d = cg_opt_enabled(s->cg, SW_OMOD) ? mul_as_omod(s, in, o) : -1;
	return d >= 0 ? d : isel_mad(s, in->ncomp, o[0], o[1], ZERO);
}
static int sel_mad(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_mad(s, in->ncomp, o[0], o[1], o[2]);
}
static int sel_and(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_mad(s, in->ncomp, o[0], o[1], ZERO);
}
static int sel_not(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_mad(s, in->ncomp, o[0], opnd_neg(ONE), ONE);
}
/* The operand 1 / y for a division x / y (n components; y's operand
 * is o, or y is the constant source ysrc): the reciprocals of a constant,
 * or the RCP of y (one RCP for a divisor that repeats one component,
 * v.xyz / v.w). */
static bool reciprocal_opnd(struct isel *s, int n, const struct ir_src *ysrc,
			    const struct cg_opnd *o, struct cg_opnd *out)
{
	float v[4];
	if (src_const(ysrc, n, v)) {
		for (int i = 0; i < n; i++)
			v[i] = 1.0f / v[i];
		return cg_const_opnd(s->cg, v, n, s->loc, out);
	}
	bool one = o->file == CG_FILE_VREG || o->file == CG_FILE_CONST;
	for (int c = 1; c < n; c++)
		one = one && o->swz[c] == o->swz[0];
	int r = isel_trans(s, CG_RCP, one ? 1 : n, *o);
	static const uint8_t rep[4] = { 0, 0, 0, 0 };
	if (r < 0)
		return false;
	*out = one ? cg_opnd_vreg(r, rep, 0) : vopnd(r);
	return true;
}

static int sel_div(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd r;
	return reciprocal_opnd(s, in->ncomp, &in->src[1], &o[1], &r)
		? isel_mad(s, in->ncomp, o[0], r, ZERO) : -1;
}
static int sel_floor(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int f = isel_op(s, CG_FRC, in->ncomp, &o[0], NULL, NULL);
	return f < 0 ? -1 : isel_mad(s, in->ncomp, opnd_neg(vopnd(f)), ONE, o[0]);
}
static int sel_ceil(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd na = opnd_neg(o[0]);
	int f = isel_op(s, CG_FRC, in->ncomp, &na, NULL, NULL);
	return f < 0 ? -1 : isel_mad(s, in->ncomp, o[0], ONE, vopnd(f));
}
static int sel_fract(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_op(s, CG_FRC, in->ncomp, &o[0], NULL, NULL);
}
static int sel_trunc(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int n = in->ncomp;
	struct cg_opnd aa = opnd_abs(o[0]);
	int f = isel_op(s, CG_FRC, n, &aa, NULL, NULL);
	int m = f < 0 ? -1 : isel_mad(s, n, opnd_neg(vopnd(f)), ONE, aa); /* floor(|a|) */
	if (m < 0)
		return -1;
	struct cg_opnd pm = vopnd(m), nm = opnd_neg(vopnd(m));
	return isel_op(s, CG_CMP, n, &pm, &nm, &o[0]);
}
static int sel_sign(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd mone = opnd_neg(ONE), nab = opnd_nab(o[0]);
	int t = isel_op(s, CG_CMP, in->ncomp, &ONE, &mone, &o[0]); /* a >= 0 ? 1 : -1 */
	if (t < 0)
		return -1;
	struct cg_opnd tv = vopnd(t);
	return isel_op(s, CG_CMP, in->ncomp, &ZERO, &tv, &nab); /* a == 0 ? 0 : t */
}
static int sel_min(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_op(s, CG_MIN, in->ncomp, &o[0], &o[1], NULL);
}
static int sel_max(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_op(s, CG_MAX, in->ncomp, &o[0], &o[1], NULL);
}
/* sat(x): the clamp of the ops computing x where they can take it
 * (modifiable), else a clamped copy. */
static int sel_sat(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int x = cg_opt_enabled(s->cg, SW_OMOD) ? modifiable(s, in, 0, &o[0], false) : -1;
	if (x >= 0) {
		modify_writers(s->cg, x, -1, true);
		return x;
	}
	int d = isel_mad(s, in->ncomp, o[0], ONE, ZERO);
	if (d >= 0)
		s->cg->ops[s->cg->nops - 1].clamp = 1;
	return d;
}
static int sel_clamp(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	float lo[4], hi[4];
	int n = in->ncomp;
	if (src_const(&in->src[1], n, lo) && src_const(&in->src[2], n, hi)) {
		bool unit = true;
		for (int i = 0; i < n; i++)
			unit &= lo[i] == 0.0f && hi[i] == 1.0f;
		if (unit)
			return sel_sat(s, in, o);
	}
	int t = isel_op(s, CG_MAX, n, &o[0], &o[1], NULL);
	if (t < 0)
		return -1;
	struct cg_opnd tv = vopnd(t);
	return isel_op(s, CG_MIN, n, &tv, &o[2], NULL);
}
static bool src_after_tex(const struct isel *s, const struct ir_src *src)
{
	return src->def && src->def->id < s->nids && s->after_tex[src->def->id];
}

/* a + (b - a) * t; b - a folds when a and b are constants.  When b waits
 * on a lookup and a and t do not, b * t + (a - a * t): the inner MAD runs
 * while the lookup is in flight, and the lookup's reader is one MAD (the
 * first form puts b - a, or a presubtract and its NOP, after it). */
static int sel_mix(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int n = in->ncomp;
	if (src_after_tex(s, &in->src[1]) && !src_after_tex(s, &in->src[0]) &&
	    !src_after_tex(s, &in->src[2])) {
		int k = isel_mad(s, n, opnd_neg(o[0]), o[2], o[0]);
		return k < 0 ? -1 : isel_mad(s, n, o[1], o[2], vopnd(k));
	}
	float a[4], b[4];
	if (src_const(&in->src[0], n, a) && src_const(&in->src[1], n, b)) {
		struct cg_opnd d;
		for (int i = 0; i < n; i++)
			b[i] -= a[i];
		if (!cg_const_opnd(s->cg, b, n, s->loc, &d))
			return -1;
		return isel_mad(s, n, d, o[2], o[0]);
	}
	int t = isel_mad(s, n, o[1], ONE, opnd_neg(o[0])); /* b - a */
	return t < 0 ? -1 : isel_mad(s, n, vopnd(t), o[2], o[0]);
}

/* a - b, or a itself when b is 0 */
static bool diff_opnd(struct isel *s, struct ir_instr *in, const struct cg_opnd *o,
		      struct cg_opnd *out)
{
	if (src_zero(&in->src[1], in->ncomp)) {
		*out = o[0];
		return true;
	}
	int t = isel_mad(s, in->ncomp, o[0], ONE, opnd_neg(o[1]));
	*out = vopnd(t);
	return t >= 0;
}
static int sel_step(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int t = isel_mad(s, in->ncomp, o[1], ONE, opnd_neg(o[0])); /* x - edge */
	if (t < 0)
		return -1;
	struct cg_opnd tv = vopnd(t);
	return isel_op(s, CG_CMP, in->ncomp, &ONE, &ZERO, &tv);
}
static int sel_cmp(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd t;
	if (!diff_opnd(s, in, o, &t))
		return -1;
	/* CMP: C >= 0 ? A : B */
	switch (in->op) {
	case IR_OP_LT:
		return isel_op(s, CG_CMP, in->ncomp, &ZERO, &ONE, &t);
	case IR_OP_GE:
		return isel_op(s, CG_CMP, in->ncomp, &ONE, &ZERO, &t);
	case IR_OP_EQ:
		t = opnd_nab(t);
		return isel_op(s, CG_CMP, in->ncomp, &ONE, &ZERO, &t);
	default: /* NE, XOR */
		t = opnd_nab(t);
		return isel_op(s, CG_CMP, in->ncomp, &ZERO, &ONE, &t);
	}
}
static int sel_or(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return isel_op(s, CG_MAX, in->ncomp, &o[0], &o[1], NULL);
}
static int sel_f2b(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd t = opnd_nab(o[0]);
	return isel_op(s, CG_CMP, in->ncomp, &ZERO, &ONE, &t);
}
/* Source k of cond's definition, read through cond's swizzle. */
static struct ir_src cond_source(const struct ir_src *cond, int k)
{
	struct ir_src c = cond->def->src[k];
	for (int i = 0; i < 4; i++)
		c.swz[i] = cond->def->src[k].swz[cond->swz[i] & 3];
	return c;
}

/* cond ? a : b over n components, cond a bool scalar (replicated) or of n
 * components.  Bools are 0.0 / 1.0: CND picks a where cond > 0.5.  A
 * cond that is a comparison, x < y, x >= y, x == y, x != y or F2B(x)
 * (x != 0), needs no bool: sel_cmp makes it CMP on t = x - y (-|t| for
 * == and !=), then CND picks by it, and one CMP on t picks alike, NaN
 * included.  It is taken when t costs no op (y or x is 0) or the
 * comparison has no other reader (its own ops then go unread). */
static int select_on(struct isel *s, int n, const struct ir_src *cond, bool scalar,
		     struct cg_opnd a, struct cg_opnd b)
{
	const struct ir_instr *d = cond->def;
	enum ir_op op = d ? d->op : IR_OP_COUNT;
	int m = scalar ? 1 : n;
	if (op == IR_OP_F2B || op == IR_OP_LT || op == IR_OP_GE || op == IR_OP_EQ ||
	    op == IR_OP_NE) {
		struct ir_src x = cond_source(cond, 0), y = x;
		bool unary = op == IR_OP_F2B;
		if (!unary)
			y = cond_source(cond, 1);
		bool yzero = unary || src_zero(&y, m), xzero = !unary && src_zero(&x, m);
		bool sole = d->id < s->nids && s->uses[d->id] == 1;
		if (yzero || xzero || sole) {
			struct cg_opnd xo, yo, t;
			if (!isel_opnd(s, yzero ? &x : &y, m, yzero ? &xo : &yo))
				return -1;
			if (yzero) {
				t = xo;
			} else if (xzero) {
				t = opnd_neg(yo);
			} else {
				int dv = isel_opnd(s, &x, m, &xo) ?
					 isel_mad(s, m, xo, ONE, opnd_neg(yo)) : -1;
				if (dv < 0)
					return -1;
				t = vopnd(dv);
			}
			if (scalar)
				t = opnd_entry(t, 0);
			if (op != IR_OP_LT && op != IR_OP_GE)
				t = opnd_nab(t);
			/* CMP: t >= 0 ? first : second */
			bool a_on_ge = op == IR_OP_GE || op == IR_OP_EQ;
			return isel_op(s, CG_CMP, n, a_on_ge ? &a : &b, a_on_ge ? &b : &a, &t);
		}
	}
	struct cg_opnd co;
	if (!isel_opnd(s, cond, m, &co))
		return -1;
	if (scalar)
		co = opnd_entry(co, 0);
	return isel_op(s, CG_CND, n, &a, &b, &co);
}
static int sel_select(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return select_on(s, in->ncomp, &in->src[0], false, o[1], o[2]);
}
/* ANY / ALL: a chain over the components of the source's definition. */
static int sel_reduce(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd cur = opnd_entry(o[0], 0);
	int n = in->src[0].def ? in->src[0].def->ncomp : 1;
	int d = -1;
	if (n == 1)
		return isel_mad(s, 1, cur, ONE, ZERO);
	for (int c = 1; c < n; c++) {
		struct cg_opnd next = opnd_entry(o[0], c);
		d = in->op == IR_OP_ANY ? isel_op(s, CG_MAX, 1, &cur, &next, NULL)
					: isel_mad(s, 1, cur, next, ZERO);
		if (d < 0)
			return -1;
		cur = vopnd(d);
	}
	return d;
}
static int sel_trans(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	static const uint8_t opc[IR_OP_COUNT] = {
		[IR_OP_RCP] = CG_RCP, [IR_OP_RSQ] = CG_RSQ, [IR_OP_EXP2] = CG_EX2,
		[IR_OP_LOG2] = CG_LN2,
	};
	return isel_trans(s, (enum cg_opc)opc[in->op], in->ncomp, o[0]);
}
static int sel_sqrt(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	/* x * rsq(x): 0 * inf = 0 (US_CONFIG 0*x = 0, ISA.md §12) gives sqrt(0) = 0 */
	int r = isel_trans(s, CG_RSQ, in->ncomp, o[0]);
	return r < 0 ? -1 : isel_mad(s, in->ncomp, o[0], vopnd(r), ZERO);
}
static int sel_pow(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	int l = isel_trans(s, CG_LN2, in->ncomp, o[0]);
	int m = l < 0 ? -1 : isel_mad(s, in->ncomp, vopnd(l), o[1], ZERO);
	return m < 0 ? -1 : isel_trans(s, CG_EX2, in->ncomp, vopnd(m));
}
/* SIN/COS take revolutions: scale by 1/2pi, FRC to [0,1) (ISA.md §6.4).
 * Each returns the operand SIN/COS read, or file NONE on failure. */
static const struct cg_opnd NO_OPND = { CG_FILE_NONE, 0, { 0, 0, 0, 0 }, -1 };

static struct cg_opnd frc_of(struct isel *s, int n, struct cg_opnd a)
{
	int f = isel_op(s, CG_FRC, n, &a, NULL, NULL);
	return f < 0 ? NO_OPND : vopnd(f);
}

/* a * k's FRC: k one constant for every component (nk 1) or one each. */
static struct cg_opnd revolutions(struct isel *s, int n, struct cg_opnd a, const float *k, int nk)
{
	struct cg_opnd kc;
	if (!cg_const_opnd(s->cg, k, nk, s->loc, &kc))
		return NO_OPND;
	int t = isel_mad(s, n, a, kc, ZERO);
	return t < 0 ? NO_OPND : frc_of(s, n, vopnd(t));
}
/* The revolutions of the operand of SIN/COS/TAN `in`.  An argument x * c
 * or x / c (c constant, the product read only here) is one MAD by c / 2pi
 * from x: sin(t * 3.3)
 * scales t once, not twice; x * 2pi is x's FRC alone (the constant
 * program's preparation makes such arguments, cp_prepare.c), and nothing
 * when x is a fract already (r300's TGSI reduces SIN's argument so, and
 * the TGSI frontend scales it back to radians).  x * 2pi need not be
 * made for SIN/COS even when something else reads it. */
static struct cg_opnd revolutions_of(struct isel *s, struct ir_instr *in)
{
	const float inv_2pi = 0.15915494309189535f;
	int n = in->ncomp;
	const struct ir_src *src = &in->src[0];
	const struct ir_instr *m = src->def;
	if (m && (m->op == IR_OP_MUL || m->op == IR_OP_DIV)) {
		struct ir_src c[2] = { product_source(src, 0, n), product_source(src, 1, n) };
		float v[4];
		for (int j = m->op == IR_OP_DIV ? 1 : 0; j < 2; j++) {
			if (!src_const(&c[j], n, v))
				continue;
			bool unit = true;
			for (int i = 0; i < n; i++) {
				v[i] = (m->op == IR_OP_DIV ? 1.0f / v[i] : v[i]) * inv_2pi;
				unit &= v[i] == 1.0f;
			}
			/* a product made already may be x's own vreg with an OMOD
			 * (mul_as_omod: x * 2 where x has no other reader): x is
			 * read past it only when the product is not made yet, or
			 * is x * 2pi, which no OMOD is */
			if (!unit && !deferred(s, src))
				break;
			struct cg_opnd a;
			if (!isel_opnd(s, &c[1 - j], n, &a))
				return NO_OPND;
			if (unit) {
				const struct ir_instr *x = c[1 - j].def;
				return x && x->op == IR_OP_FRACT ? a : frc_of(s, n, a);
			}
			return revolutions(s, n, a, v, n);
		}
	}
	struct cg_opnd a;
	return isel_opnd(s, src, n, &a) ? revolutions(s, n, a, &inv_2pi, 1) : NO_OPND;
}
/* revolutions_of, made once a block for one argument. */
static struct cg_opnd shared_revolutions(struct isel *s, struct ir_instr *in)
{
	const struct ir_src *src = &in->src[0];
	uint8_t n = in->ncomp;
	for (int i = 0; src->def && i < s->nrev; i++) {
		const struct isel_revolutions *r = &s->rev[i];
		if (r->block == in->block && r->def == src->def->id && r->n == n &&
		    !memcmp(r->swz, src->swz, n))
			return r->opnd;
	}
	struct cg_opnd f = revolutions_of(s, in);
	if (f.file != CG_FILE_NONE && src->def) {
		struct isel_revolutions *r = &s->rev[s->rev_next];
		s->rev_next = (s->rev_next + 1) % 8;
		s->nrev += s->nrev < 8;
		*r = (struct isel_revolutions){ in->block, src->def->id, { 0 }, n, f };
		memcpy(r->swz, src->swz, n);
	}
	return f;
}
static int sel_sincos(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	struct cg_opnd f = shared_revolutions(s, in);
	return f.file == CG_FILE_NONE ? -1
				      : isel_trans(s, in->op == IR_OP_SIN ? CG_SIN : CG_COS, in->ncomp, f);
}
static int sel_tan(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	int n = in->ncomp;
	struct cg_opnd f = shared_revolutions(s, in);
	int sn = f.file == CG_FILE_NONE ? -1 : isel_trans(s, CG_SIN, n, f);
	int cs = sn < 0 ? -1 : isel_trans(s, CG_COS, n, f);
	int rc = cs < 0 ? -1 : isel_trans(s, CG_RCP, n, vopnd(cs));
	return rc < 0 ? -1 : isel_mad(s, n, vopnd(sn), vopnd(rc), ZERO);
}
static int sel_dot(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd a = o[0], b = o[1];
	enum cg_opc opc = in->op == IR_OP_DOT4 ? CG_DP4 : CG_DP3;
	if (in->op == IR_OP_DOT2)
		a.swz[2] = CG_SWZ_ZERO;
	int d = isel_op(s, opc, 1, &a, &b, NULL);
	if (d >= 0)
		s->cg->vregs[d].lane[0] = 0; /* the RGB unit computes dot products */
	return d;
}
static int sel_deriv(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	/* MDH/MDV read src0 of the quad neighbours with no swizzle: the value
	 * must sit in the lanes the result is written to (ISA.md §6.7). */
	int n = in->ncomp;
	struct cg_opnd a = o[0];
	bool direct = a.file == CG_FILE_VREG && a.mod == R500_MOD_NONE &&
		      s->cg->vregs[a.index].ncomp > 1;
	for (int c = 0; direct && c < n; c++)
		direct = s->cg->vregs[a.index].lane[a.swz[c]] == c;
	if (!direct) {
		int w = isel_mad(s, n, a, ONE, ZERO);
		if (w < 0)
			return -1;
		s->cg->vregs[w].lane[0] = 0;
		a = vopnd(w);
	}
	struct cg_opnd mone = opnd_neg(ONE);
	int d = isel_op(s, in->op == IR_OP_DDX ? CG_MDH : CG_MDV, n, &a, &mone, &a);
	if (d >= 0)
		s->cg->vregs[d].lane[0] = 0;
	return d;
}

/* A fresh 4-component vreg filled from (operand, components) pieces. */
static int build_vec(struct isel *s, const struct cg_opnd *pieces, const uint8_t *masks, int n)
{
	int v = cg_new_vreg(s->cg, 4);
	for (int i = 0; v >= 0 && i < n; i++)
		if (masks[i] && !isel_alu(s, CG_MAD, v, masks[i], &pieces[i], &ONE, &ZERO))
			return -1;
	return v;
}

static int tex_dims(int target)
{
	static const uint8_t dims[] = { [IR_TARGET_1D] = 1, [IR_TARGET_2D] = 2,
					[IR_TARGET_3D] = 3, [IR_TARGET_CUBE] = 3,
					[IR_TARGET_RECT] = 2 };
	return target >= 0 && target <= IR_TARGET_RECT ? dims[target] : 2;
}

/* The depth compare in code (the TEX word has none), by the unit's
 * compare function and depth mode (util/shadow.h): CMP(d, pass, fail)
 * gives pass where d >= 0, with d = depth - ref (LEQUAL, GREATER),
 * ref - depth (GEQUAL, LESS) or -|depth - ref| (EQUAL, NOTEQUAL). */
static int shadow_compare(struct isel *s, const struct ir_sampler *smp, struct cg_opnd depth,
			  struct cg_opnd ref)
{
	struct cg_ctx *cg = s->cg;
	int cmp = smp->compare;
	int m = smp->depth_mode < TEX_DEPTH_COUNT ? smp->depth_mode : TEX_DEPTH_LUMINANCE;
	bool le = cmp == TEX_COMPARE_LEQUAL || cmp == TEX_COMPARE_GREATER;
	bool ge = cmp == TEX_COMPARE_GEQUAL || cmp == TEX_COMPARE_LESS;
	bool inverted = cmp == TEX_COMPARE_GREATER || cmp == TEX_COMPARE_LESS ||
			cmp == TEX_COMPARE_NOTEQUAL;
	/* which components get the pass value, 1 or 0, by the depth mode */
	static const uint8_t v_mask[TEX_DEPTH_COUNT] = { 7, 15, 8, 1 };
	static const uint8_t one_mask[TEX_DEPTH_COUNT] = { 8, 0, 0, 8 };
	uint8_t zero_mask = (uint8_t)(15 & ~(v_mask[m] | one_mask[m]));
	int r = cg_new_vreg(cg, 4);
	if (r < 0)
		return -1;
	if (cmp == TEX_COMPARE_ALWAYS || cmp == TEX_COMPARE_NEVER) {
		if (!isel_alu(s, CG_MAD, r, v_mask[m], cmp == TEX_COMPARE_ALWAYS ? &ONE : &ZERO, &ONE,
			      &ZERO))
			return -1;
	} else {
		/* depth textures are fixed point: the reference is clamped to
		 * [0, 1] first (GL 2.1 §3.8.14) */
		int rc = cg_new_vreg(cg, 1);
		struct cg_op *sat = rc < 0 ? NULL : isel_alu(s, CG_MAD, rc, 1, &ref, &ONE, &ZERO);
		if (!sat)
			return -1;
		sat->clamp = 1;
		ref = opnd_entry(vopnd(rc), 0);
		int diff = ge ? isel_mad(s, 1, ref, ONE, opnd_neg(depth))
			      : isel_mad(s, 1, depth, ONE, opnd_neg(ref));
		if (diff < 0)
			return -1;
		struct cg_opnd dv = opnd_entry(vopnd(diff), 0);
		if (!le && !ge)
			dv.mod = R500_MOD_NAB; /* -|depth - ref| >= 0 only when equal */
		if (!isel_alu(s, CG_CMP, r, v_mask[m], inverted ? &ZERO : &ONE, inverted ? &ONE : &ZERO,
			      &dv))
			return -1;
	}
	if ((one_mask[m] && !isel_alu(s, CG_MAD, r, one_mask[m], &ONE, &ONE, &ZERO)) ||
	    (zero_mask && !isel_alu(s, CG_MAD, r, zero_mask, &ZERO, &ZERO, &ZERO)))
		return -1;
	return r;
}

/* A TEX source must be a vreg read as it is: no modifier, no constant
 * swizzle in the entries of `mask`; anything else is built first. */
static bool tex_direct(struct isel *s, struct cg_opnd *o, uint8_t mask)
{
	bool direct = o->file == CG_FILE_VREG && o->mod == R500_MOD_NONE;
	for (int e = 0; direct && e < 4; e++)
		direct = !(mask & (1u << e)) || o->swz[e] < 4;
	if (!direct) {
		int v = build_vec(s, o, &mask, 1);
		if (v < 0)
			return false;
		*o = vopnd(v);
	}
	for (int e = 0; e < 4; e++)
		if (!(mask & (1u << e)))
			o->swz[e] = o->swz[0];
	return true;
}

/* A lookup: S,T,R from coordinates 0..dims-1, Q = the projector (coord
 * .w, as the frontend gives it) or the bias / lod.  Projective lookups
 * with a bias, lod or gradients, or a shadow compare, divide by .w in ALU
 * code first.  Gradients go to DXDY's own operands (ISA.md §4.8).
 * Shadow samplers compare in ALU code after an ordinary lookup. */
static int sel_tex(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	struct cg_ctx *cg = s->cg;
	static const int8_t inst[IR_TEX_KIND_COUNT] = {
		[IR_TEX_PLAIN] = R500_TEX_LD, [IR_TEX_BIAS] = R500_TEX_LODBIAS,
		[IR_TEX_LOD] = R500_TEX_LOD, [IR_TEX_PROJ] = R500_TEX_PROJ,
		[IR_TEX_PROJ_BIAS] = R500_TEX_LODBIAS, [IR_TEX_PROJ_LOD] = R500_TEX_LOD,
		[IR_TEX_GRAD] = R500_TEX_DXDY, [IR_TEX_PROJ_GRAD] = R500_TEX_DXDY };
	if (in->tex_kind >= IR_TEX_KIND_COUNT || in->index < 0 || in->index >= cg->func->nsamplers ||
	    in->nsrc < 1 + ir_tex_kind_nextra(in->tex_kind)) {
		cg_error(cg, in->loc, "internal error: bad texture lookup");
		return -1;
	}
	const struct ir_sampler *smp = &cg->func->samplers[in->index];
	int dims = tex_dims(smp->target);
	bool shadow = in->tex_shadow || smp->shadow;
	bool proj = ir_tex_kind_is_proj(in->tex_kind);
	bool extra = ir_tex_kind_nextra(in->tex_kind) == 1; /* bias / lod in Q */
	bool grad = ir_tex_kind_nextra(in->tex_kind) == 2;
	int hw = inst[in->tex_kind];
	struct cg_opnd coord;
	if (!isel_opnd(s, &in->src[0], 4, &coord))
		return -1;
	if (proj && (extra || grad || shadow)) {
		/* the divide by q: by a folded reciprocal when q is a constant */
		struct ir_src qs = in->src[0];
		float qv, rq[3];
		qs.swz[0] = in->src[0].swz[3];
		if (qs.def && qs.def->op == IR_OP_VEC && (qs.swz[0] & 3) < qs.def->nsrc)
			qs = qs.def->src[qs.swz[0] & 3]; /* a VEC's component: its source */
		struct cg_opnd rk;
		int r = -1;
		if (src_const(&qs, 1, &qv) && qv != 0.0f) {
			rq[0] = rq[1] = rq[2] = 1.0f / qv;
			if (!cg_const_opnd(cg, rq, 3, s->loc, &rk))
				return -1;
		} else if ((r = isel_trans(s, CG_RCP, 1, opnd_entry(coord, 3))) < 0) {
			return -1;
		} else {
			rk = vopnd(r);
		}
		int q = isel_mad(s, 3, coord, rk, ZERO);
		if (q < 0)
			return -1;
		coord = vopnd(q);
		proj = false;
		if (hw == R500_TEX_PROJ)
			hw = R500_TEX_LD;
	}
	uint8_t mask = mask_of(dims) | (proj || extra ? 8 : 0);
	struct cg_opnd entries = coord;
	if (extra) {
		struct cg_opnd pieces[2] = { entries, entries };
		uint8_t masks[2] = { (uint8_t)(mask & 7), 8 };
		if (!isel_opnd(s, &in->src[1], 1, &pieces[1]))
			return -1;
		pieces[1] = opnd_entry(pieces[1], 0);
		int v = build_vec(s, pieces, masks, 2);
		if (v < 0)
			return -1;
		entries = vopnd(v);
	}
	if (!tex_direct(s, &entries, mask))
		return -1;
	struct cg_opnd g[2];
	uint8_t gmask = mask_of(tex_dims(smp->target));
	for (int i = 0; grad && i < 2; i++)
		if (!isel_opnd(s, &in->src[1 + i], dims, &g[i]) || !tex_direct(s, &g[i], gmask))
			return -1;
	int d = cg_new_vreg(cg, 4);
	struct cg_op *op = d < 0 ? NULL : isel_alu(s, grad ? CG_TXD : CG_TEX, d, 0xf, &entries,
						    grad ? &g[0] : NULL, grad ? &g[1] : NULL);
	if (!op)
		return -1;
	op->tex_grad_mask = grad ? gmask : 0;
	op->tex_inst = (uint8_t)hw;
	op->tex_unit = (uint8_t)smp->unit;
	op->tex_mask = mask;
	op->tex_unscaled = smp->target == IR_TARGET_RECT;
	if (!shadow)
		return d;
	return shadow_compare(s, smp, opnd_entry(vopnd(d), 0), opnd_entry(coord, 2));
}

/* The kill condition: the DISCARD's own condition AND every enclosing
 * IF condition (negated in else branches), as 0.0 / 1.0. */
bool isel_path_condition(struct isel *s, const struct cg_opnd *own, struct cg_opnd *out,
			   bool *always)
{
	struct cg_opnd terms[17];
	bool neg[17];
	int n = 0;
	if (own) {
		terms[n] = opnd_entry(*own, 0);
		neg[n++] = false;
	}
	for (int i = 0; i < s->npath; i++) {
		if (!isel_opnd(s, &s->path[i], 1, &terms[n]))
			return false;
		terms[n] = opnd_entry(terms[n], 0);
		neg[n++] = s->path_neg[i];
	}
	*always = n == 0;
	if (n == 0)
		return true;
	struct cg_opnd t = terms[0];
	if (neg[0]) { /* 1 - c */
		int v = isel_mad(s, 1, t, opnd_neg(ONE), ONE);
		if (v < 0)
			return false;
		t = vopnd(v);
	}
	for (int i = 1; i < n; i++) {
		/* t * c, or t * (1 - c) = t - t * c */
		int v = neg[i] ? isel_mad(s, 1, t, opnd_neg(terms[i]), t)
			       : isel_mad(s, 1, t, terms[i], ZERO);
		if (v < 0)
			return false;
		t = vopnd(v);
	}
	*out = t;
	return true;
}

/* discard when a < b with one side constant: TEXKILL on a - b itself (one
 * MAD) instead of the compare's 0/1 turned into 0.5 - c (three ops).  Kills on a
 * negative value, -0 included, so the constant is added as its negation
 * folded (-0.0 for b = 0 would kill a = -0, which is not below 0): a + -b
 * is -0 only when both are -0, and a constant a = -0 is left to the
 * general path.  A NaN gives NaN, which kills nothing, like a < b. */
static bool kill_on_difference(struct isel *s, struct ir_instr *in, struct cg_opnd *kv)
{
	/* the kill condition must be one term: the DISCARD's own, or the one
	 * IF (then side) it sits in */
	const struct ir_src *term = in->nsrc > 0 ? (s->npath ? NULL : &in->src[0])
				  : s->npath == 1 && !s->path_neg[0] ? &s->path[0] : NULL;
	const struct ir_instr *lt = term ? term->def : NULL;
	if (!lt || lt->op != IR_OP_LT || lt->ncomp != 1)
		return false;
	float va, vb;
	bool ka = src_const(&lt->src[0], 1, &va), kb = src_const(&lt->src[1], 1, &vb);
	if (ka == kb || (ka && va == 0.0f && signbit(va)))
		return false;
	struct cg_opnd x, k;
	float negk = ka ? va : (vb == 0.0f ? 0.0f : -vb);
	if (!isel_opnd(s, &lt->src[ka ? 1 : 0], 1, &x) || !cg_const_opnd(s->cg, &negk, 1, s->loc, &k))
		return false;
	x = opnd_entry(x, 0);
	k = opnd_entry(k, 0);
	int v = isel_mad(s, 4, x, ka ? opnd_neg(ONE) : ONE, k); /* b - x, or x - b */
	if (v < 0)
		return false;
	*kv = vopnd(v);
	return true;
}

static int sel_discard(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	/* TEXKILL kills when any of S,T,R,Q < 0: always-kill uses -1, a
	 * condition c (0.0 or 1.0) uses 0.5 - c (never -0, which also kills). */
	struct cg_opnd c, kv;
	bool always;
	if (cg_opt_enabled(s->cg, SW_KILL_COMPARE) && kill_on_difference(s, in, &kv)) {
		/* kv holds a - b */
	} else {
		if (!isel_path_condition(s, in->nsrc > 0 ? &o[0] : NULL, &c, &always))
			return -1;
		int v = always ? isel_mad(s, 4, opnd_neg(ONE), ONE, ZERO)
			       : isel_mad(s, 4, opnd_neg(opnd_entry(c, 0)), ONE, HALF);
		if (v < 0)
			return -1;
		kv = vopnd(v);
	}
	struct cg_op *op = isel_alu(s, CG_KIL, -1, 0, &kv, NULL, NULL);
	if (!op)
		return -1;
	op->tex_inst = R500_TEX_KILL;
	op->tex_mask = 0xf;
	return 0;
}

/* PHI after an IF: CND picks the then-value when the condition is 1.0. */
static int sel_phi(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	const struct ir_cf *cf = s->prev_if;
	int n = in->ncomp;
	if (!cf || in->nsrc != 2)
		return cg_error(s->cg, in->loc, "operation phi of a loop not supported by the "
				"R500 backend yet"), -1;
	struct cg_opnd a, b;
	const struct ir_src *ts = &in->src[0], *es = &in->src[1];
	if (!ts->def)
		ts = es;
	if (!es->def)
		es = ts;
	if (!ts->def)
		return cg_error(s->cg, in->loc, "internal error: phi without sources"), -1;
	if (!isel_opnd(s, ts, n, &a) || !isel_opnd(s, es, n, &b))
		return -1;
	return select_on(s, n, &cf->cond, true, a, b);
}

/* a*b + c when source k of an ADD/SUB is a MUL or a DIV (x * 1/y) read
 * only there: the MUL made no code (selected lazily, see isel_instr), so
 * fuse it. */
static bool fuse_mul(struct isel *s, struct ir_instr *in, int k, bool neg_mul, struct cg_opnd *other,
		     int *d)
{
	const struct ir_src *src = &in->src[k];
	struct ir_instr *m = src->def;
	if (!m || (m->op != IR_OP_MUL && m->op != IR_OP_DIV) || !deferred(s, src))
		return false;
	struct cg_opnd f[2];
	for (int j = 0; j < 2; j++) {
		struct ir_src c = product_source(src, j, in->ncomp);
		float v[4];
		bool konst = m->op == IR_OP_DIV && j == 1 && src_const(&c, in->ncomp, v);
		if (!konst && !isel_opnd(s, &c, in->ncomp, &f[j]))
			return false;
		if (m->op == IR_OP_DIV && j == 1 && !reciprocal_opnd(s, in->ncomp, &c, &f[1], &f[1]))
			return false;
	}
	if (neg_mul)
		f[0] = opnd_neg(f[0]);
	*d = isel_mad(s, in->ncomp, f[0], f[1], *other);
	return *d >= 0;
}

/* VEC: components grouped by the register they come from; constants
 * together in one operand; a value read only here is computed in place. */
static int sel_vec(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	struct cg_ctx *cg = s->cg;
	int n = in->ncomp;
	int d = cg_new_vreg(cg, n);
	if (d < 0)
		return -1;
	struct cg_opnd opnd[4];
	float cv[4] = { 0, 0, 0, 0 };
	uint8_t cmask = 0, done = 0;
	for (int k = 0; k < n; k++) {
		struct ir_src one = in->src[k];
		if (src_const(&one, 1, &cv[k])) {
			cmask |= (uint8_t)(1u << k);
			continue;
		}
		if (!isel_opnd(s, &one, 1, &opnd[k]))
			return -1;
	}
	for (int k = 0; k < n; k++) {
		if ((cmask | done) & (1u << k))
			continue;
		struct cg_opnd g = opnd[k];
		uint8_t gm = 0;
		for (int j = k; j < n; j++) {
			if ((cmask | done) & (1u << j))
				continue;
			const struct cg_opnd *x = &opnd[j];
			if (x->file == g.file && x->index == g.index && x->mod == g.mod &&
			    in->src[j].def == in->src[k].def) {
				gm |= (uint8_t)(1u << j);
				g.swz[j] = x->swz[0];
			}
		}
		done |= gm;
		bool sole = true;
		for (int j = 0; j < n; j++)
			sole &= in->src[j].def != in->src[k].def || (gm & (1u << j));
		if (isel_retarget(s, &in->src[k], &g, gm, d, CG_OUT_NONE, sole))
			continue;
		if (!isel_alu(s, CG_MAD, d, gm, &g, &ONE, &ZERO))
			return -1;
	}
	if (cmask) {
		float v[4];
		int first = -1;
		for (int k = 0; k < n; k++)
			if (cmask & (1u << k)) {
				if (first < 0)
					first = k;
			}
		for (int k = 0; k < n; k++)
			v[k] = (cmask & (1u << k)) ? cv[k] : cv[first];
		struct cg_opnd c;
		if (!cg_const_opnd(cg, v, n, s->loc, &c) ||
		    !isel_alu(s, CG_MAD, d, cmask, &c, &ONE, &ZERO))
			return -1;
	}
	return d;
}

/* How each IR opcode is selected; NULL = not supported yet. `ncomp`
 * is how many entries each operand needs: 0 = the instruction's ncomp. */
struct sel_rule {
	sel_fn fn;
	int8_t nentries;
};
static const struct sel_rule sel_rules[IR_OP_COUNT] = {
	[IR_OP_ADD] = { sel_add, -1 },   [IR_OP_SUB] = { sel_sub, -1 },
	[IR_OP_MUL] = { sel_mul, 0 },    [IR_OP_DIV] = { sel_div, 0 },
	[IR_OP_MAD] = { sel_mad, 0 },    [IR_OP_FLOOR] = { sel_floor, 0 },
	[IR_OP_CEIL] = { sel_ceil, 0 },  [IR_OP_FRACT] = { sel_fract, 0 },
	[IR_OP_TRUNC] = { sel_trunc, 0 }, [IR_OP_SIGN] = { sel_sign, 0 },
	[IR_OP_MIN] = { sel_min, 0 },    [IR_OP_MAX] = { sel_max, 0 },
	[IR_OP_CLAMP] = { sel_clamp, 0 }, [IR_OP_SAT] = { sel_sat, 0 },
	[IR_OP_MIX] = { sel_mix, 0 },    [IR_OP_STEP] = { sel_step, 0 },
	[IR_OP_RCP] = { sel_trans, 0 },  [IR_OP_RSQ] = { sel_trans, 0 },
	[IR_OP_SQRT] = { sel_sqrt, 0 },  [IR_OP_EXP2] = { sel_trans, 0 },
	[IR_OP_LOG2] = { sel_trans, 0 }, [IR_OP_POW] = { sel_pow, 0 },
	[IR_OP_SIN] = { sel_sincos, -1 }, [IR_OP_COS] = { sel_sincos, -1 },
	[IR_OP_TAN] = { sel_tan, -1 },
	[IR_OP_DOT2] = { sel_dot, 2 },   [IR_OP_DOT3] = { sel_dot, 3 },
	[IR_OP_DOT4] = { sel_dot, 4 },
	[IR_OP_LT] = { sel_cmp, 0 },     [IR_OP_GE] = { sel_cmp, 0 },
	[IR_OP_EQ] = { sel_cmp, 0 },     [IR_OP_NE] = { sel_cmp, 0 },
	[IR_OP_XOR] = { sel_cmp, 0 },
	[IR_OP_AND] = { sel_and, 0 },    [IR_OP_OR] = { sel_or, 0 },
	[IR_OP_NOT] = { sel_not, 0 },
	[IR_OP_ANY] = { sel_reduce, 4 }, [IR_OP_ALL] = { sel_reduce, 4 },
	[IR_OP_F2B] = { sel_f2b, 0 },    [IR_OP_SELECT] = { sel_select, 0 },
	[IR_OP_DDX] = { sel_deriv, 0 },  [IR_OP_DDY] = { sel_deriv, 0 },
	[IR_OP_TEX] = { sel_tex, -1 },   [IR_OP_DISCARD] = { sel_discard, 1 },
	[IR_OP_OUTPUT] = { isel_sel_output, -2 }, [IR_OP_VEC] = { sel_vec, -1 },
	[IR_OP_PHI] = { sel_phi, -1 },
	[IR_OP_BREAK] = { isel_sel_break, -1 }, [IR_OP_CONTINUE] = { isel_sel_break, -1 },
	[IR_OP_UNIFORM] = { isel_sel_uniform_dyn, 1 },
	[IR_OP_ASIN] = { isel_sel_asin_acos, 0 }, [IR_OP_ACOS] = { isel_sel_asin_acos, 0 },
	[IR_OP_ATAN] = { isel_sel_atan, 0 },  [IR_OP_ATAN2] = { isel_sel_atan2, 0 },
};

bool isel_is_virtual(const struct ir_instr *in)
{
	enum ir_op op = in->op;
	return op == IR_OP_CONST || (op == IR_OP_UNIFORM && in->nsrc == 0) || op == IR_OP_MOV ||
	       op == IR_OP_NEG || op == IR_OP_ABS || op == IR_OP_B2F || op == IR_OP_INPUT;
}

bool isel_instr(struct isel *s, struct ir_instr *in, bool allow_defer)
{
	struct cg_ctx *cg = s->cg;
	s->loc = in->loc;
	if (in->op == IR_OP_INPUT) {
		if (in->index < 0 || in->index >= cg->func->ninputs)
			return cg_error(cg, in->loc, "internal error: bad input index");
		s->vreg_of[in->id] = cg->input_vreg[in->index];
		return true;
	}
	if (isel_is_virtual(in))
		return true;
	if (cg->arr_access && in->id < s->nids && cg->arr_access[in->id])
		return isel_array_access(s, in, cg->arr_access[in->id]);
	/* a MUL read once in the same block (or anywhere without FC: its
	 * operands cannot change before the reader runs) waits to fuse */
	bool mul_like = in->op == IR_OP_MUL || in->op == IR_OP_DIV;
	if (allow_defer && mul_like && s->uses[in->id] == 1 && cg_opt_enabled(cg, SW_MAD_FUSION) &&
	    (!s->has_fc || s->user_block[in->id] == in->block)) {
		s->vreg_of[in->id] = -2; /* selected by its reader: it may fuse */
		return true;
	}
	const struct sel_rule *r = &sel_rules[in->op];
	if (!r->fn)
		return cg_error(cg, in->loc, "operation %s not supported by the R500 backend yet",
				ir_op_infos[in->op].name);
	struct cg_opnd o[IR_MAX_SRCS];
	memset(o, 0, sizeof o);
	int n = r->nentries > 0 ? r->nentries : in->ncomp;
	if (r->nentries == -2) /* OUTPUT: the output's components */
		n = in->index >= 0 && in->index < cg->func->noutputs
			    ? isel_output_ncomp(&cg->func->outputs[in->index]) : 1;
	if (n < 1 || n > 4)
		n = 4;
	if (r->nentries != -1)
		for (int k = 0; k < in->nsrc && k < 3; k++)
			if (!isel_opnd(s, &in->src[k], n, &o[k]))
				return false;
	int d = r->fn(s, in, o);
	if (d < 0 || cg->failed)
		return cg->failed ? false : cg_error(cg, in->loc, "internal error in isel");
	if (in->ncomp > 0)
		s->vreg_of[in->id] = d;
	return true;
}

/* Straight-line code, IFs by if-conversion (both sides run, PHIs become
 * CND on the condition, DISCARDs and latched outputs take the path
 * condition) or by real flow control, and LOOPs. */
bool isel_list(struct isel *s, const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_LOOP) {
			if (!isel_select_loop(s, cf))
				return false;
			s->prev_if = NULL;
			continue;
		}
		if (cf->kind == IR_CF_IF && isel_if_needs_fc(s, cf)) {
			if (!isel_select_if_fc(s, cf))
				return false;
			s->prev_if = NULL;
			continue;
		}
		if (cf->kind == IR_CF_IF) {
			if (s->npath >= 16)
				return cg_error(s->cg, cf->cond.def ? cf->cond.def->loc
								    : (struct src_loc){ 0 },
						"if nested deeper than 16 levels: not supported by "
						"the R500 backend yet");
			s->path[s->npath] = cf->cond;
			s->path_neg[s->npath++] = false;
			bool ok = isel_list(s, &cf->then_list);
			s->path_neg[s->npath - 1] = true;
			ok = ok && isel_list(s, &cf->else_list);
			s->npath--;
			if (!ok)
				return false;
			s->prev_if = cf;
			continue;
		}
		for (struct ir_instr *in = cf->block.first; in; in = in->next) {
			if (in->op == IR_OP_PHI && in->id < s->nids && s->vreg_of[in->id] >= 0)
				continue; /* a multi vreg, written by copies */
			if (!isel_instr(s, in, true))
				return false;
		}
		s->prev_if = NULL;
	}
	return true;
}

static void count_cf_uses(struct isel *s, const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			if (cf->cond.def && cf->cond.def->id < s->nids)
				s->uses[cf->cond.def->id] += 2; /* never computed in place */
			count_cf_uses(s, &cf->then_list);
			count_cf_uses(s, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			count_cf_uses(s, &cf->body);
		}
	}
}

static void count_uses(struct ir_instr *in, void *ud)
{
	struct isel *s = ud;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++) {
		const struct ir_instr *d = in->src[k].def;
		bool seen = false;
		for (int j = 0; j < k; j++)
			seen |= in->src[j].def == d;
		if (d && !seen && d->id < s->nids) {
			s->uses[d->id]++;
			s->user_block[d->id] = in->block;
		}
	}
}

/* after_tex in program order: a loop PHI's value from the loop's end is
 * not seen yet, so such a value may be missed (a guess for scheduling). */
static void mark_after_tex(struct ir_instr *in, void *ud)
{
	struct isel *s = ud;
	if (in->id >= s->nids)
		return;
	bool dep = in->op == IR_OP_TEX;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS && !dep; k++) {
		const struct ir_instr *d = in->src[k].def;
		dep = d && d->id < s->nids && s->after_tex[d->id];
	}
	s->after_tex[in->id] = dep;
}

static void mark_inputs(struct ir_instr *in, void *ud)
{
	bool *used = ud;
	if (in->op == IR_OP_INPUT && in->index >= 0)
		used[in->index] = true;
}

/* Used inputs get t0, t1, ... in input order (the container's table);
 * under r300's conventions every input gets one, input i temporary i
 * (r300 interpolates every declared input). */
static bool assign_inputs(struct cg_ctx *cg)
{
	int n = cg->func->ninputs;
	bool *used = arena_alloc(cg->arena, sizeof(bool) * (size_t)(n + 1));
	cg->input_vreg = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	if (!used || !cg->input_vreg)
		return cg->failed = true, false;
	for (int i = 0; i < n; i++)
		cg->input_vreg[i] = -1;
	ir_foreach_instr(cg->func, mark_inputs, used);
	for (int i = 0; i < n; i++) {
		if ((!used[i] && !cg->opts->r300) || i >= n)
			continue;
		int nc = cg->func->inputs[i].ncomp;
		assert(nc >= 1 && nc <= 4); /* the IR was validated */
		int v = cg_new_vreg(cg, nc < 1 || nc > 4 ? 4 : nc);
		if (v < 0)
			return false;
		cg->vregs[v].lane[0] = 0;
		cg->vregs[v].temp = cg->ninput_temps++;
		cg->vregs[v].input = i;
		cg->input_vreg[i] = v;
	}
	return true;
}

bool cg_sweep_dead(struct cg_ctx *cg)
{
	for (int v = 0; v < cg->nvregs; v++)
		cg->vregs[v].used = 0;
	for (int i = cg->nops - 1; i >= 0; i--) {
		struct cg_op *op = &cg->ops[i];
		bool side = op->out != CG_OUT_NONE || op->opc == CG_KIL || op->opc == CG_FC ||
			    op->late || op->alu_result;
		if (!side && op->dst >= 0) {
			op->wmask &= cg->vregs[op->dst].used;
			for (int c = 0; c < 4; c++) /* a trimmed component has no writer */
				if (!(op->wmask & (1u << c)) && cg->vregs[op->dst].writer[c] == i)
					cg->vregs[op->dst].writer[c] = -1;
		}
		op->dead = !side && op->wmask == 0;
		if (op->dead)
			continue;
		for (int k = 0; k < 3; k++) {
			const struct cg_opnd *o = &op->src[k];
			if (o->file != CG_FILE_VREG)
				continue;
			unsigned e = cg_op_entries(op, k);
			for (int j = 0; j < 4; j++)
				if ((e & (1u << j)) && o->swz[j] < 4)
					cg->vregs[o->index].used |= (uint8_t)(1u << o->swz[j]);
		}
	}
	for (int v = 0; v < cg->nvregs; v++)
		for (int c = 0; c < 4; c++)
			if (cg->vregs[v].writer[c] >= 0 && cg->ops[cg->vregs[v].writer[c]].dead)
				cg->vregs[v].writer[c] = -1;
	return true;
}

bool cg_isel(struct cg_ctx *cg)
{
	struct isel s;
	memset(&s, 0, sizeof s);
	s.cg = cg;
	s.nids = cg->func->next_id + 1;
	s.vreg_of = arena_alloc(cg->arena, sizeof(int) * s.nids);
	s.uses = arena_alloc(cg->arena, sizeof(int) * s.nids);
	s.user_block = arena_alloc(cg->arena, sizeof *s.user_block * s.nids);
	s.after_tex = arena_alloc(cg->arena, sizeof *s.after_tex * s.nids);
	int nout = cg->func->noutputs;
	s.latch = arena_alloc(cg->arena, sizeof *s.latch * (size_t)(nout + 1));
	s.in_lvreg = arena_alloc(cg->arena, sizeof *s.in_lvreg * (size_t)(nout + 1));
	s.cur = arena_alloc(cg->arena, sizeof *s.cur * (size_t)(nout + 1));
	s.lvreg = arena_alloc(cg->arena, sizeof *s.lvreg * (size_t)(nout + 1));
	if (!s.vreg_of || !s.uses || !s.user_block || !s.after_tex || !s.latch || !s.in_lvreg ||
	    !s.cur || !s.lvreg || !assign_inputs(cg))
		return cg->failed = true, false;
	/* both are about IFs, loops and their PHIs: straight-line code has none */
	bool flow = ir_func_has_flow(cg->func);
	if (flow && (!ir_quad_uniform(cg->func, cg->arena, &s.quad) || !isel_inactive_init(&s)))
		return cg->failed = true, false;
	for (uint32_t i = 0; i < s.nids; i++)
		s.vreg_of[i] = -1;
	for (int i = 0; i < nout; i++) {
		s.cur[i] = ZERO; /* never written: 0, as the interpreter */
		s.lvreg[i] = -1;
	}
	if (flow && cg_opt_enabled(cg, SW_PHI_SHARE) && !isel_phi_share_init(&s))
		return cg->failed = true, false;
	ir_foreach_instr(cg->func, count_uses, &s);
	ir_foreach_instr(cg->func, mark_after_tex, &s);
	count_cf_uses(&s, &cg->func->body);
	isel_mark_latches(&s, &cg->func->body, false);
	if (!isel_arrays_start(&s) || !isel_list(&s, &cg->func->body))
		return false;
	for (int i = 0; i < nout; i++) /* latched outputs, written once at the end */
		if (s.latch[i] && !isel_write_output(&s, i, NULL, s.cur[i]))
			return false;
	return !cg->failed;
}
