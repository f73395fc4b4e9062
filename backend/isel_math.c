/* Isel of the operations the R500 has no instruction for, in ALU code:
 * inverse trigonometry by polynomials and uniform arrays read with a
 * run-time index (a CMP chain over the elements). */
#include "isel.h"

#include <assert.h>
#include <string.h>

/* --- inverse trigonometry, by polynomials (ALU code only) --- */

static bool kconst(struct isel *s, float k, int n, struct cg_opnd *out)
{
	float v[4] = { k, k, k, k };
	return cg_const_opnd(s->cg, v, n, s->loc, out);
}

/* d = a*b + k for a constant k */
static int mad_k(struct isel *s, int n, struct cg_opnd a, struct cg_opnd b, float k)
{
	struct cg_opnd kc;
	return kconst(s, k, n, &kc) ? isel_mad(s, n, a, b, kc) : -1;
}

static const float PI_F = 3.14159265358979f, HALF_PI_F = 1.57079632679490f;

/* atan(t) for t in [0, 1]: Abramowitz & Stegun 4.4.49, the odd
 * polynomial t(c1 + c3 t^2 + c5 t^4 + c7 t^6 + c9 t^8), |error| <= 1e-5
 * (1.15e-5 measured over [0, 1] in double precision). */
static int atan_unit(struct isel *s, int n, struct cg_opnd t)
{
	static const float c[5] = { 0.9998660f, -0.3302995f, 0.1801410f, -0.0851330f,
				    0.0208351f };
	int t2 = isel_mad(s, n, t, t, ZERO);
	if (t2 < 0)
		return -1;
	struct cg_opnd k9;
	if (!kconst(s, c[4], n, &k9))
		return -1;
	int p = mad_k(s, n, vopnd(t2), k9, c[3]);
	for (int i = 2; p >= 0 && i >= 0; i--)
		p = mad_k(s, n, vopnd(p), vopnd(t2), c[i]);
	return p < 0 ? -1 : isel_mad(s, n, vopnd(p), t, ZERO);
}

/* atan2(y, x): t = min(|x|,|y|) / max(|x|,|y|) in [0, 1], a = atan(t);
 * pi/2 - a when |y| > |x|, pi - that when x < 0, negated when y < 0.
 * Error: that of atan_unit plus a few fp32 roundings (< 2e-5). */
static int atan2_of(struct isel *s, int n, struct cg_opnd y, struct cg_opnd x)
{
	struct cg_opnd ax = opnd_abs(x), ay = opnd_abs(y);
	int mx = isel_op(s, CG_MAX, n, &ax, &ay, NULL);
	int mn = mx < 0 ? -1 : isel_op(s, CG_MIN, n, &ax, &ay, NULL);
	int r = mn < 0 ? -1 : isel_trans(s, CG_RCP, n, vopnd(mx));
	int t = r < 0 ? -1 : isel_mad(s, n, vopnd(mn), vopnd(r), ZERO);
	int a = t < 0 ? -1 : atan_unit(s, n, vopnd(t));
	int b = a < 0 ? -1 : mad_k(s, n, opnd_neg(vopnd(a)), ONE, HALF_PI_F);
	int d = b < 0 ? -1 : isel_mad(s, n, ax, ONE, opnd_neg(ay)); /* |x| - |y| */
	if (d < 0)
		return -1;
	struct cg_opnd av = vopnd(a), bv = vopnd(b), dv = vopnd(d);
	int a1 = isel_op(s, CG_CMP, n, &av, &bv, &dv);
	int c = a1 < 0 ? -1 : mad_k(s, n, opnd_neg(vopnd(a1)), ONE, PI_F);
	if (c < 0)
		return -1;
	struct cg_opnd a1v = vopnd(a1), cv = vopnd(c);
	int a2 = isel_op(s, CG_CMP, n, &a1v, &cv, &x); /* x >= 0 ? a1 : pi - a1 */
	if (a2 < 0)
		return -1;
	struct cg_opnd p = vopnd(a2), m = opnd_neg(vopnd(a2));
	return isel_op(s, CG_CMP, n, &p, &m, &y);      /* y >= 0 ? a2 : -a2 */
}
int isel_sel_atan2(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	return atan2_of(s, in->ncomp, o[0], o[1]);
}
int isel_sel_atan(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_opnd one;
	float v[4] = { 1, 1, 1, 1 };
	if (!cg_const_opnd(s->cg, v, in->ncomp, s->loc, &one))
		return -1;
	return atan2_of(s, in->ncomp, o[0], one);
}

/* acos(|x|) = sqrt(1 - |x|) (a0 + a1|x| + ... + a7|x|^7): Abramowitz &
 * Stegun 4.4.46, |error| <= 2e-8 on [0, 1] (2.2e-8 measured); fp32
 * evaluation adds a few ulps.  Then acos(x) = pi - acos(|x|) for x < 0 and
 * asin(x) = pi/2 - acos(x). */
int isel_sel_asin_acos(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	static const float a[8] = { 1.5707963050f, -0.2145988016f, 0.0889789874f,
				    -0.0501743046f, 0.0308918810f, -0.0170881256f,
				    0.0066700901f, -0.0012624911f };
	int n = in->ncomp;
	struct cg_opnd x = o[0], ax = opnd_abs(o[0]);
	int om = isel_mad(s, n, opnd_nab(x), ONE, ONE); /* 1 - |x| */
	int rs = om < 0 ? -1 : isel_trans(s, CG_RSQ, n, vopnd(om));
	int sq = rs < 0 ? -1 : isel_mad(s, n, vopnd(om), vopnd(rs), ZERO); /* 0 * inf = 0 */
	struct cg_opnd k7;
	if (sq < 0 || !kconst(s, a[7], n, &k7))
		return -1;
	int p = mad_k(s, n, ax, k7, a[6]);
	for (int i = 5; p >= 0 && i >= 0; i--)
		p = mad_k(s, n, vopnd(p), ax, a[i]);
	int r = p < 0 ? -1 : isel_mad(s, n, vopnd(sq), vopnd(p), ZERO); /* acos(|x|) */
	if (r < 0)
		return -1;
	if (in->op == IR_OP_ACOS) {
		int c = mad_k(s, n, opnd_neg(vopnd(r)), ONE, PI_F);
		if (c < 0)
			return -1;
		struct cg_opnd rv = vopnd(r), cv = vopnd(c);
		return isel_op(s, CG_CMP, n, &rv, &cv, &x);
	}
	int u = mad_k(s, n, opnd_neg(vopnd(r)), ONE, HALF_PI_F);
	if (u < 0)
		return -1;
	struct cg_opnd uv = vopnd(u), mu = opnd_neg(vopnd(u));
	return isel_op(s, CG_CMP, n, &uv, &mu, &x);
}

bool isel_rel_uniform_opnd(const struct isel *s, const struct ir_instr *d, const uint8_t swz[4],
			   uint8_t mod, struct cg_opnd *out)
{
	const struct cg_ctx *cg = s->cg;
	if (d->op != IR_OP_UNIFORM || d->nsrc < 1 || !cg->rel_first || d->id >= s->nids ||
	    cg->rel_first[d->id] < 0 || !s->loop || !s->loop->rel ||
	    s->loop->cf != cg->rel_loop[d->id] || d->index < 0 ||
	    d->index >= cg->func->nuniforms || !cg->unif_rel[d->index])
		return false;
	const struct ir_uniform *u = &cg->func->uniforms[d->index];
	if (!cg_uniform_opnd(cg, u->base + cg->rel_first[d->id], swz, mod, out))
		return false;
	out->file = CG_FILE_CONST_REL;
	return true;
}

static struct isel_index_tests *make_tests(struct isel *s, struct isel_index_tests *k, float start,
					   int count, struct cg_opnd idx_opnd);

/* The test values index + start - k of `in`'s index, shared in a block
 * for one index and start (the members of a uniform array of structs
 * read at one index); make_tests extends them as a chain asks. */
static struct isel_index_tests *index_tests(struct isel *s, const struct ir_instr *in, float start)
{
	const struct ir_src *src = &in->src[0];
	struct isel_index_tests *k = NULL;
	for (int i = 0; src->def && i < s->ntests && !k; i++) {
		struct isel_index_tests *c = &s->tests[i];
		if (c->block == in->block && c->def == src->def->id && c->swz == src->swz[0] &&
		    c->start == start)
			k = c;
	}
	if (!k) {
		k = &s->tests[s->tests_next];
		s->tests_next = (s->tests_next + 1) % 4;
		s->ntests += s->ntests < 4;
		*k = (struct isel_index_tests){ in->block, src->def ? src->def->id : UINT32_MAX,
						src->swz[0], start, 0, NULL };
	}
	return k;
}

/* Extends k's test values index + start - j, j = 0 .. count - 1, to
 * `count`; NULL on failure. */
static struct isel_index_tests *make_tests(struct isel *s, struct isel_index_tests *k, float start,
					   int count, struct cg_opnd idx_opnd)
{
	if (k->n >= count)
		return k;
	int *t = arena_alloc(s->cg->arena, sizeof *t * (size_t)count);
	if (!t)
		return NULL;
	if (k->n)
		memcpy(t, k->t, sizeof *t * (size_t)k->n);
	k->t = t;
	for (; k->n < count; k->n++) {
		int v = k->n ? isel_mad(s, 1, vopnd(t[k->n - 1]), ONE, opnd_neg(ONE))
			     : mad_k(s, 1, opnd_entry(idx_opnd, 0), ONE, start);
		if (v < 0)
			return NULL;
		t[k->n] = v;
	}
	return k;
}

/* A uniform array read with a run-time index: a chain of CMPs over the
 * elements first..last it is clamped to (ir_uniform_index_range),
 * element e taken when offset + index + 0.5 >= e, so the result is
 * element clamp(floor(offset + index + 0.5), first, last) and element
 * first for NaN, the interpreter's convention.  The test value starts at
 * index + offset - 0.5 - first and drops by 1 per element.  A read
 * loop_rel.c chose is one aL operand instead. */
int isel_sel_uniform_dyn(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_ctx *cg = s->cg;
	if (in->index < 0 || in->index >= cg->func->nuniforms)
		return cg_error(cg, in->loc, "internal error: bad uniform index"), -1;
	const struct ir_uniform *u = &cg->func->uniforms[in->index];
	assert(in->ncomp >= 1 && in->ncomp <= 4); /* the IR was validated */
	int n = in->ncomp < 1 || in->ncomp > 4 ? 4 : in->ncomp;
	static const uint8_t xyzw[4] = { 0, 1, 2, 3 };
	struct cg_opnd e0;
	if (isel_rel_uniform_opnd(s, in, xyzw, R500_MOD_NONE, &e0))
		return isel_mad(s, n, e0, ONE, ZERO);
	int first, last;
	ir_uniform_index_range(u, in->offset, &first, &last);
	if (!cg_uniform_opnd(cg, u->base + first, xyzw, R500_MOD_NONE, &e0))
		return cg_error(cg, in->loc, "internal error: uniform element without a slot"), -1;
	if (last <= first)
		return isel_mad(s, n, e0, ONE, ZERO);
	/* the members of a uniform array of structs are read together and
	 * share the tests; a plain array's reads are often far apart, where
	 * test values kept live would cost temporaries (fs-nan-builtin-min:
	 * 5 -> 9), so each makes its own */
	float start = (float)(in->offset - first) - 0.5f;
	struct isel_index_tests own = { 0 };
	struct isel_index_tests *k = u->member_major ? index_tests(s, in, start) : &own;
	struct cg_opnd cur = e0;
	int d = -1;
	for (int e = first + 1; e <= last; e++) {
		struct cg_opnd el;
		if (!cg_uniform_opnd(cg, u->base + e, xyzw, R500_MOD_NONE, &el))
			return cg_error(cg, in->loc, "internal error: uniform element without a slot"), -1;
		/* each test value made just before its CMP, as the chain reads */
		if (!k || !make_tests(s, k, start, e - first, o[0]))
			return -1;
		struct cg_opnd tv = vopnd(k->t[e - first - 1]);
		d = isel_op(s, CG_CMP, n, &el, &cur, &tv);
		if (d < 0)
			return -1;
		cur = vopnd(d);
	}
	return d;
}

