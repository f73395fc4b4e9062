/* Reassociation of constant chains and reciprocal pairs (fp-inexact by a
 * rounding or two, as GLSL allows and as every shader compiler does):
 *   (x + k1) + k2 -> x + (k1 + k2)     with - on either side and k - x
 *                                      (k2 - (k1 + x) -> (k2 - k1) - x)
 *   (x * k1) * k2 -> x * (k1 * k2)     with / k as * (1 / k) on either side
 *   rcp(rcp(x))   -> x
 *   a / (1 / y)   -> a * y
 *   a / sqrt(x)   -> a * rsq(x)
 *   (x + k1) * k2 -> mad(x, k2, k1 * k2)   with - and / k likewise
 *   pow(k, x)     -> exp2(x * log2(k))     k > 0
 *   x * k1 + x * k2 -> x * (k1 + k2)     with - and x alone as x * 1
                                        (x + x -> x * 2)
 * A loop that adds a constant every trip, once unrolled, becomes one add;
 * the inner op stays for its other readers, or DCE removes it.  The walk is
 * in program order, so a whole chain folds in one run: each outer op finds
 * its inner op already rewritten.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (new
 * constants get fresh ids).  Leaves dead code for DCE. */
#include "ir.h"
#include "ir_pass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* `in` as xsign * x + ksign * k: which source is x and the two signs
 * (k - x has xsign -1); false otherwise. */
static bool as_add_const(const struct ir_instr *in, int *x, float *xsign, float *ksign)
{
	if (in->op != IR_OP_ADD && in->op != IR_OP_SUB)
		return false;
	bool sub = in->op == IR_OP_SUB;
	for (int i = 0; i < 2; i++)
		if (ir_src_float_const(&in->src[1 - i]) && !ir_src_float_const(&in->src[i])) {
			*x = i;
			*xsign = sub && i == 1 ? -1.0f : 1.0f;
			*ksign = sub && i == 0 ? -1.0f : 1.0f;
			return true;
		}
	return false;
}

/* `in` as x * k, with x / k as x * (1 / k) (*inv set): which source is x. */
static bool as_mul_const(const struct ir_instr *in, int *x, bool *inv)
{
	*inv = false;
	if (in->op == IR_OP_DIV && ir_src_float_const(&in->src[1]) &&
	    !ir_src_float_const(&in->src[0])) {
		*x = 0;
		*inv = true;
		return true;
	}
	if (in->op != IR_OP_MUL)
		return false;
	for (int i = 0; i < 2; i++)
		if (ir_src_float_const(&in->src[1 - i]) && !ir_src_float_const(&in->src[i])) {
			*x = i;
			return true;
		}
	return false;
}

/* A new float constant of `in`'s width, inserted before it. */
static struct ir_instr *new_const(struct ir_func *f, struct ir_instr *in, const float v[4])
{
	return ir_build_const_before(f, in, in->ncomp, IR_FLOAT, v);
}

/* The source that reads component sw[c] of inner's source i, for each c. */
static struct ir_src compose(const struct ir_instr *inner, int i, const uint8_t sw[4])
{
	return ir_src_through(&inner->src[i], sw);
}

/* outer = inner OP k2, inner = x OP k1, both with the same OP kind; for
 * adds either side may be subtracted: (k2 - (k1 - x)) -> x + (k2 - k1). */
static bool fold_chain(struct ir_func *f, struct ir_instr *in)
{
	int xo, xi;
	float xso = 1.0f, so = 1.0f, xsi = 1.0f, si = 1.0f;
	bool invo = false, invi = false;
	bool add = as_add_const(in, &xo, &xso, &so);
	if (!add && !as_mul_const(in, &xo, &invo))
		return false;
	struct ir_instr *inner = in->src[xo].def;
	if (!inner || inner->base != IR_FLOAT ||
	    (add ? !as_add_const(inner, &xi, &xsi, &si) : !as_mul_const(inner, &xi, &invi)))
		return false;
	const uint8_t *sw = in->src[xo].swz;
	float v[4] = { 0, 0, 0, 0 };
	for (int c = 0; c < in->ncomp; c++) {
		float k1 = ir_src_const_comp(&inner->src[1 - xi], sw[c] & 3);
		float k2 = ir_src_const_comp(&in->src[1 - xo], c);
		if (invi)
			k1 = 1.0f / k1;
		if (invo)
			k2 = 1.0f / k2;
		/* xso * (xsi * x + si * k1) + so * k2 */
		v[c] = add ? xso * si * k1 + so * k2 : k1 * k2;
	}
	struct ir_instr *k = new_const(f, in, v);
	if (!k)
		return false;
	struct ir_src x = compose(inner, xi, sw);
	if (!add) {
		in->op = IR_OP_MUL;
		in->src[0] = x;
		in->src[1] = ir_src_of(k);
	} else if (xso * xsi > 0.0f) { /* x + K */
		in->op = IR_OP_ADD;
		in->src[0] = x;
		in->src[1] = ir_src_of(k);
	} else { /* K - x */
		in->op = IR_OP_SUB;
		in->src[0] = ir_src_of(k);
		in->src[1] = x;
	}
	return true;
}

/* The walk, with the readers of each value (ir_count_uses, counted when
 * a rewrite first asks: most functions never do) for the rewrites that
 * pay only when the op they take apart has one reader. */
struct reassoc {
	struct ir_func *f;
	uint16_t *uses;
	uint32_t n;
	bool counted, progress;
};

static bool read_once(struct reassoc *r, const struct ir_instr *d)
{
	if (!r->counted) {
		r->counted = true;
		r->n = r->f->next_id;
		r->uses = ir_count_uses(r->f);
	}
	return r->uses && d->id < r->n && r->uses[d->id] == 1;
}

/* (x + k1) * k2 -> mad(x, k2, k1 * k2) (- and / k likewise) where the ADD
 * has no other reader: one MAD for an ADD and a MUL; texel offsets scaled
 * to coordinates, (p + e) * 0.01, become one op each.  (With other readers
 * the ADD would stay beside a MAD that replaced a MUL, and warp's
 * |(q - 0.9) * 2.04| would lose its scalar factor.)  Constants that are
 * not finite stay apart (inf * (x + k1) meets x = -k1). */
static bool distribute(struct reassoc *r, struct ir_instr *in)
{
	struct ir_func *f = r->f;
	int xo, xi;
	bool inv;
	float xsi, si;
	if (!as_mul_const(in, &xo, &inv))
		return false;
	struct ir_instr *inner = in->src[xo].def;
	if (!inner || inner->base != IR_FLOAT || !as_add_const(inner, &xi, &xsi, &si) ||
	    !read_once(r, inner))
		return false;
	/* a product plus k1 is one MAD already (refract's 1 - d * d) */
	const struct ir_instr *xd = inner->src[xi].def;
	if (xd && xd->op == IR_OP_MUL)
		return false;
	const uint8_t *sw = in->src[xo].swz;
	float m[4] = { 0, 0, 0, 0 }, a[4] = { 0, 0, 0, 0 };
	for (int c = 0; c < in->ncomp; c++) {
		float k1 = ir_src_const_comp(&inner->src[1 - xi], sw[c] & 3);
		float k2 = ir_src_const_comp(&in->src[1 - xo], c);
		if (inv)
			k2 = 1.0f / k2;
		m[c] = xsi * k2;
		a[c] = si * k1 * k2;
		if (!isfinite(m[c]) || !isfinite(a[c]))
			return false;
	}
	struct ir_instr *km = new_const(f, in, m), *ka = km ? new_const(f, in, a) : NULL;
	if (!ka)
		return false;
	struct ir_src x = compose(inner, xi, sw);
	in->op = IR_OP_MAD;
	in->nsrc = 3;
	in->src[0] = x;
	in->src[1] = ir_src_of(km);
	in->src[2] = ir_src_of(ka);
	return true;
}

/* pow(k, x) -> exp2(x * log2(k)) for a constant k > 0: the R500 takes
 * pow as EX2(x * LN2(k)) anyway, and LN2 of a constant need not run in
 * every pixel (pow(2.0, float(i)) in an octave loop is exp2(i)). */
static bool pow_const_base(struct ir_func *f, struct ir_instr *in)
{
	if (in->op != IR_OP_POW || !ir_src_float_const(&in->src[0]) ||
	    ir_src_float_const(&in->src[1]))
		return false;
	float l[4] = { 0, 0, 0, 0 };
	bool unit = true;
	for (int c = 0; c < in->ncomp; c++) {
		float k = ir_src_const_comp(&in->src[0], c);
		if (!(k > 0.0f) || !isfinite(k))
			return false;
		l[c] = log2f(k);
		unit &= l[c] == 1.0f;
	}
	struct ir_src x = in->src[1];
	if (!unit) {
		struct ir_instr *kl = new_const(f, in, l);
		struct ir_instr *m = kl ? ir_build_before(f, in, IR_OP_MUL, in->ncomp, IR_FLOAT, 2,
							   (struct ir_src[]){ x, ir_src_of(kl) })
					: NULL;
		if (!m)
			return false;
		x = ir_src_of(m);
	}
	in->op = IR_OP_EXP2;
	in->nsrc = 1;
	in->src[0] = x;
	return true;
}

/* a / sqrt(x) -> a * rsq(x): one reciprocal square root instead of a
 * square root (itself x * rsq(x) on the R500) and a reciprocal.  The
 * rsq takes the distinct components the division reads (a vector over a
 * replicated scalar, p / length(p), needs one: each component is an op
 * of its own on the R500).  The sqrt stays for its other readers, or DCE
 * removes it. */
static bool fold_div_sqrt(struct ir_func *f, struct ir_instr *in)
{
	struct ir_instr *d = in->op == IR_OP_DIV ? in->src[1].def : NULL;
	if (!d || d->op != IR_OP_SQRT || d->base != IR_FLOAT || !d->src[0].def || d->pass_data)
		return false;
	uint8_t distinct[4] = { 0, 0, 0, 0 }, at[4] = { 0, 0, 0, 0 };
	int n = 0;
	for (int c = 0; c < in->ncomp && c < 4; c++) {
		int k = 0;
		while (k < n && distinct[k] != (in->src[1].swz[c] & 3))
			k++;
		if (k == n)
			distinct[n++] = in->src[1].swz[c] & 3;
		at[c] = (uint8_t)k;
	}
	for (int c = n; c < 4; c++)
		distinct[c] = distinct[n - 1];
	struct ir_instr *r = ir_build_before(f, in, IR_OP_RSQ, (uint8_t)n, IR_FLOAT, 0, NULL);
	if (!r)
		return false;
	r->nsrc = 1;
	r->src[0] = compose(d, 0, distinct);
	in->op = IR_OP_MUL;
	in->src[1] = ir_src_of(r);
	for (int c = 0; c < 4; c++)
		in->src[1].swz[c] = at[c < in->ncomp ? c : in->ncomp - 1];
	return true;
}

/* rcp(rcp(x)) -> mov x;  a / (1 / y) -> a * y. */
static bool fold_reciprocal(struct ir_instr *in)
{
	int r = in->op == IR_OP_RCP ? 0 : in->op == IR_OP_DIV ? 1 : -1;
	if (r < 0)
		return false;
	struct ir_instr *d = in->src[r].def;
	if (!d || d->base != IR_FLOAT)
		return false;
	int y;
	if (d->op == IR_OP_RCP) {
		y = 0;
	} else if (d->op == IR_OP_DIV && ir_src_float_const(&d->src[0])) {
		for (int c = 0; c < in->ncomp; c++)
			if (ir_src_const_comp(&d->src[0], in->src[r].swz[c] & 3) != 1.0f)
				return false;
		y = 1;
	} else {
		return false;
	}
	in->src[r] = compose(d, y, in->src[r].swz);
	in->op = r == 0 ? IR_OP_MOV : IR_OP_MUL;
	return true;
}

/* Source s of an add as x * k: x (read through s's swizzle) and k per
 * component, k = 1 when s is no product by a constant. */
static struct ir_src as_scaled(const struct ir_src *s, int n, float k[4])
{
	int x;
	bool inv;
	const struct ir_instr *d = s->def;
	for (int c = 0; c < 4; c++)
		k[c] = 1.0f;
	if (!d || d->base != IR_FLOAT || !as_mul_const(d, &x, &inv))
		return *s;
	for (int c = 0; c < n; c++) {
		float v = ir_src_const_comp(&d->src[1 - x], s->swz[c] & 3);
		k[c] = inv ? 1.0f / v : v;
	}
	return compose(d, x, s->swz);
}

/* x * k1 + x * k2 -> x * (k1 + k2), likewise with - and with x alone as
 * x * 1: x + x is x * 2 (no dearer, an OMOD where it fits), so that a
 * sum of copies, x + x + x ..., folds to one product.  The products stay
 * for other readers, or DCE removes them. */
static bool factor_terms(struct ir_func *f, struct ir_instr *in)
{
	if (in->op != IR_OP_ADD && in->op != IR_OP_SUB)
		return false;
	int n = in->ncomp;
	float k1[4], k2[4];
	struct ir_src x1 = as_scaled(&in->src[0], n, k1), x2 = as_scaled(&in->src[1], n, k2);
	if (!ir_src_same(&x1, &x2, n) || ir_src_float_const(&x1))
		return false;
	float v[4] = { 0, 0, 0, 0 };
	for (int c = 0; c < n; c++)
		v[c] = in->op == IR_OP_ADD ? k1[c] + k2[c] : k1[c] - k2[c];
	struct ir_instr *k = new_const(f, in, v);
	if (!k)
		return false;
	in->op = IR_OP_MUL;
	in->src[0] = x1;
	in->src[1] = ir_src_of(k);
	return true;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct reassoc *r = ud;
	struct ir_func *f = r->f;
	if (in->ncomp == 0 || in->base != IR_FLOAT)
		return;
	r->progress |= fold_chain(f, in) || distribute(r, in) || fold_reciprocal(in) ||
		       fold_div_sqrt(f, in) || factor_terms(f, in) || pow_const_base(f, in);
}

/* A square root read other than as a divisor stays: its reciprocal then
 * costs what the rsq would (pass_data marks it). */
static void mark_sqrt_kept(struct ir_instr *in, void *ud)
{
	(void)ud;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++) {
		struct ir_instr *d = in->src[k].def;
		if (d && d->op == IR_OP_SQRT && !(in->op == IR_OP_DIV && k == 1))
			d->pass_data = d;
	}
}

bool ir_opt_reassociate(struct ir_func *f)
{
	ir_clear_pass_data(f);
	ir_foreach_instr(f, mark_sqrt_kept, NULL);
	struct reassoc r = { f, NULL, 0, false, false };
	ir_foreach_instr(f, visit, &r);
	free(r.uses);
	return r.progress;
}
