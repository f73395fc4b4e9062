/* Rewrites before the constant program split (const_program.c), so that
 * more uniform-only work can move; the last bits may differ, as GLSL
 * allows:
 *   x / u        -> x * rcp(u)
 *   (x * u) * k  -> x * (u * k)
 *   (x * k) / u  -> x * (k * rcp(u))
 *   sin(x + u)   -> sin(mad(x, 1/2pi, u * 1/2pi) * 2pi)   (reduce_trig)
 *   phi after if (u) of uniform-only values -> select        (phis_to_selects)
 *     (the values made inside the IF made again after it)
 *   a[u]         -> select(u >= n-1.5, a[n-1], ... select(u >= 0.5, a[1], a[0]))
 *     (index_to_selects: the R500 reads a constant at a computed index
 *     through a CMP per element in every pixel, the constant program
 *     once)
 * with u, k uniform-only and x not.  A uniform-only value is one the
 * split could move (const_program.c says which). */
#include "cp_prepare.h"

#include <stdlib.h>
#include <string.h>

#include "ir_eval.h"
#include "ir_pass.h"

/* One walk in program order, which knows what is uniform-only so far. */
struct prep_scan {
	struct ir_func *f;
	uint32_t n;          /* ids before the scan (the new ops come after) */
	bool *uniform_only;  /* by id below n; below cap once phis_to_selects
				runs, its selects and copies included */
	uint32_t cap;
	bool failed;
};

/* Whether def is uniform-only; the ops this scan makes are, but for
 * reduce_trig's argument, which only its trig op reads (already seen). */
static bool uniform_only(const struct prep_scan *d, const struct ir_instr *def)
{
	return def && (def->id >= d->n || d->uniform_only[def->id]);
}

/* (x * u) * k with u and k uniform-only, x not: x * (u * k), so that
 * u * k can move (iTime * 1.5 * t * t * 0.4 keeps one product per pixel).
 * Products only: a sum regrouped could cancel differently. */
static void group_factors(struct prep_scan *d, struct ir_instr *in)
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
			struct ir_src u = ir_src_through(us, as->swz), x = ir_src_through(xs, as->swz);
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

/* A constant of n components (NULL when memory ran out). */
static struct ir_instr *const_before(struct prep_scan *d, struct ir_instr *before, int n,
				     const float v[4])
{
	struct ir_instr *k = ir_build_const_before(d->f, before, n, IR_FLOAT, v);
	d->failed |= !k;
	return k;
}

/* The 1 / 2pi and 2pi of the R500's revolutions; their product is 1.0
 * exactly in single precision, which isel relies on (revolutions_of). */
#define INV_2PI 0.15915494309189535f
#define TWO_PI 6.28318548f

/* sin(x + w), w uniform-only and x not (likewise x - w, w - x, cos and
 * tan): the R500 takes its sine in revolutions after an FRC, so isel
 * scales the argument by 1 / 2pi (a MAD) after computing it (another
 * op).  As sin(mad(x, 1/2pi, w * 1/2pi) * 2pi), w's scaling moves to the
 * constant program (or folds, w constant) and isel makes one MAD of the
 * argument and its scale.  A constant factor of x, x' * k, joins the
 * scale. */
static void reduce_trig(struct prep_scan *d, struct ir_instr *in)
{
	const struct ir_src *as = &in->src[0];
	struct ir_instr *a = as->def;
	if (!a || (a->op != IR_OP_ADD && a->op != IR_OP_SUB) || uniform_only(d, a))
		return;
	int wi = uniform_only(d, a->src[1].def) ? 1 : uniform_only(d, a->src[0].def) ? 0 : -1;
	if (wi < 0)
		return;
	/* the new ops have the trig op's components: a's as the trig op reads
	 * them */
	int n = in->ncomp;
	struct ir_src x = ir_src_through(&a->src[1 - wi], as->swz);
	struct ir_src w = ir_src_through(&a->src[wi], as->swz);
	float xs = a->op == IR_OP_SUB && wi == 0 ? -INV_2PI : INV_2PI;
	float ws = a->op == IR_OP_SUB && wi == 1 ? -INV_2PI : INV_2PI;
	float xk[4], wk[4], two_pi[4] = { TWO_PI, TWO_PI, TWO_PI, TWO_PI };
	for (int c = 0; c < 4; c++) {
		xk[c] = xs;
		wk[c] = ws;
	}
	const struct ir_instr *m = x.def;
	for (int j = 0; m && m->op == IR_OP_MUL && j < 2; j++) {
		const struct ir_src *ks = &m->src[j], *ys = &m->src[1 - j];
		if (!ks->def || ks->def->op != IR_OP_CONST || !ys->def || ys->def->op == IR_OP_CONST)
			continue;
		for (int c = 0; c < 4; c++)
			xk[c] *= ks->def->imm[ks->swz[x.swz[c] & 3] & 3];
		x = ir_src_through(ys, x.swz);
		break;
	}
	struct ir_instr *kx = const_before(d, in, n, xk), *ww;
	if (w.def->op == IR_OP_CONST) {
		for (int c = 0; c < 4; c++)
			wk[c] *= w.def->imm[w.swz[c] & 3];
		ww = const_before(d, in, n, wk);
	} else {
		struct ir_instr *kw = const_before(d, in, n, wk);
		ww = kw ? ir_build_before(d->f, in, IR_OP_MUL, n, IR_FLOAT, 2,
					  (struct ir_src[]){ w, ir_src_of(kw) }) : NULL;
	}
	struct ir_instr *y = kx && ww ? ir_build_before(d->f, in, IR_OP_MAD, n, IR_FLOAT, 3,
		(struct ir_src[]){ x, ir_src_of(kx), ir_src_of(ww) }) : NULL;
	struct ir_instr *k2 = y ? const_before(d, in, n, two_pi) : NULL;
	struct ir_instr *r = k2 ? ir_build_before(d->f, in, IR_OP_MUL, n, IR_FLOAT, 2,
		(struct ir_src[]){ ir_src_of(y), ir_src_of(k2) }) : NULL;
	if (!r) {
		d->failed = true;
		return;
	}
	in->src[0] = ir_src_of(r);
}

/* Whether `in` is an op ir_eval computes whose sources are all
 * uniform-only by the table below `limit` (a source forwarded to a
 * select phis_to_selects made is resolved first). */
static bool of_uniforms(const struct prep_scan *d, struct ir_instr *in, uint32_t limit)
{
	if (in->op == IR_OP_PHI || !in->ncomp || !in->nsrc || !ir_op_is_evaluable(in->op))
		return false;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		ir_src_forward(&in->src[i]);
		const struct ir_instr *def = in->src[i].def;
		if (!def || def->id >= limit || !d->uniform_only[def->id])
			return false;
	}
	return true;
}

/* Elements of a uniform index_to_selects reads at most (a chain of one
 * compare and one select per element after the first). */
enum { PREP_MAX_INDEXED = 16 };

/* The elements a uniform read at an index may give. */
static int index_run(const struct ir_func *f, const struct ir_instr *in)
{
	int first, last;
	ir_uniform_index_range(&f->uniforms[in->index], in->offset, &first, &last);
	return last - first + 1;
}

/* `in`, a uniform read at a uniform-only index (u[i], element
 * clamp(floor(offset + i + 0.5), first, last), first for NaN: the
 * interpreter's rule, ir_uniform_index_range), becomes a chain of selects
 * over those elements read at constant indexes: element e where
 * i >= e - offset - 0.5, the last such e taken, none (NaN, below) first. */
static bool index_to_selects(struct prep_scan *d, struct ir_instr *in)
{
	const struct ir_uniform *u = &d->f->uniforms[in->index];
	struct ir_src idx = in->src[0];
	struct ir_src v = { 0 };
	int first, last;
	ir_uniform_index_range(u, in->offset, &first, &last);
	for (int e = first; e <= last; e++) {
		struct ir_instr *r = ir_build_before(d->f, in, IR_OP_UNIFORM, in->ncomp, IR_FLOAT, 0, NULL);
		if (!r) {
			d->failed = true;
			return false;
		}
		r->index = in->index;
		r->offset = e;
		if (e == first) {
			v = ir_src_of(r);
			continue;
		}
		float at = (float)(e - in->offset) - 0.5f;
		struct ir_instr *k = const_before(d, in, 1, (float[4]){ at, at, at, at });
		struct ir_instr *ge = k ? ir_build_before(d->f, in, IR_OP_GE, 1, IR_BOOL, 2,
			(struct ir_src[]){ idx, ir_src_of(k) }) : NULL;
		if (!ge) {
			d->failed = true;
			return false;
		}
		struct ir_src s[3] = { ir_src_of(ge), ir_src_of(r), v };
		if (e == last) { /* the last select is `in` itself */
			in->op = IR_OP_SELECT;
			in->nsrc = 3;
			memcpy(in->src, s, sizeof s);
			in->index = in->offset = 0;
			return true;
		}
		struct ir_instr *sel = ir_build_before(d->f, in, IR_OP_SELECT, in->ncomp, IR_FLOAT, 3, s);
		if (!sel) {
			d->failed = true;
			return false;
		}
		v = ir_src_of(sel);
	}
	/* one element: read at a constant index */
	in->nsrc = 0;
	in->offset = first;
	memset(&in->src[0], 0, sizeof in->src[0]);
	return true;
}

/* Notes whether `in` is uniform-only, then applies the rewrites.  The
 * last: x / u with u uniform-only (not a constant: isel multiplies by a
 * folded reciprocal then) and x not becomes x * rcp(u), as the R500
 * computes it anyway, so that rcp(u) can move (Shadertoy's fragCoord /
 * iResolution). */
static void prepare_instr(struct ir_instr *in, void *ud)
{
	struct prep_scan *d = ud;
	if (in->id >= d->n)
		return;
	bool chain = in->op == IR_OP_UNIFORM && in->nsrc == 1 && uniform_only(d, in->src[0].def) &&
		     index_run(d->f, in) <= PREP_MAX_INDEXED && !d->failed &&
		     index_to_selects(d, in);
	bool u = chain || in->op == IR_OP_CONST || (in->op == IR_OP_UNIFORM && in->nsrc == 0) ||
		 of_uniforms(d, in, d->n);
	d->uniform_only[in->id] = u;
	if (in->op == IR_OP_MUL && !u && !d->failed)
		group_factors(d, in);
	if ((in->op == IR_OP_SIN || in->op == IR_OP_COS || in->op == IR_OP_TAN) && !u &&
	    !d->failed)
		reduce_trig(d, in);
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

/* Ops of a select's sources copied out of an IF, at most, and out of all
 * IFs (the copies are uniform-only: the split moves them, or the compile
 * without a constant program weighs them). */
enum { PREP_MAX_COPIES = 64, PREP_MAX_ALL_COPIES = 1024 };

/* Copies made for the PHIs of one IF: copy[id] is the copy of id when
 * mark[id] == gen. */
struct prep_copies {
	struct ir_instr **copy;
	unsigned *mark, gen;
	int left, all_left;
};

/* Whether def is uniform-only, as phis_to_selects knows it. */
static bool known_uniform(const struct prep_scan *d, const struct ir_instr *def)
{
	return def && def->id < d->cap && d->uniform_only[def->id];
}

/* Notes that in, a select or copy phis_to_selects made, is uniform-only
 * (ids below cap: the budgets keep them there). */
static void note_uniform(struct prep_scan *d, const struct ir_instr *in)
{
	if (in->id < d->cap)
		d->uniform_only[in->id] = true;
}

/* Uniform-only value v made inside `iff`, made again before `at` (after
 * the IF) with copies of the values it reads inside the IF; NULL when
 * that takes more than the copies left or memory ran out. */
static struct ir_instr *copy_out(struct prep_scan *d, struct prep_copies *pc,
				 const struct ir_cf *iff, struct ir_instr *at, struct ir_instr *v,
				 int depth)
{
	if (!known_uniform(d, v))
		return NULL;
	if (pc->mark[v->id] == pc->gen)
		return pc->copy[v->id];
	if (pc->left <= 0 || pc->all_left <= 0 || depth > PREP_MAX_COPIES)
		return NULL;
	pc->left--;
	pc->all_left--;
	struct ir_src src[IR_MAX_SRCS];
	for (int i = 0; i < v->nsrc && i < IR_MAX_SRCS; i++) {
		src[i] = v->src[i];
		ir_src_forward(&src[i]); /* an inner PHI made a select */
		struct ir_instr *s = src[i].def;
		if (s && ir_instr_inside(s, iff) &&
		    !(src[i].def = copy_out(d, pc, iff, at, s, depth + 1)))
			return NULL;
	}
	struct ir_instr *c = ir_instr_copy(d->f, v);
	if (!c) {
		d->failed = true;
		return NULL;
	}
	for (int i = 0; i < v->nsrc && i < IR_MAX_SRCS; i++)
		c->src[i] = src[i];
	c->loc = at->loc; /* as ir_build_before gave it */
	ir_instr_insert_before(at, c);
	note_uniform(d, c);
	pc->mark[v->id] = pc->gen;
	pc->copy[v->id] = c;
	return c;
}

/* Source s of a PHI after `iff`, readable after it as a select's source:
 * a uniform-only value from before the IF, or one made inside it, made
 * again after the IF (copy_out). */
static bool select_source(struct prep_scan *d, struct prep_copies *pc, const struct ir_cf *iff,
			  struct ir_instr *at, struct ir_src *s)
{
	ir_src_forward(s); /* an inner PHI made a select */
	struct ir_instr *v = s->def;
	if (!known_uniform(d, v))
		return false;
	if (!ir_instr_inside(v, iff))
		return true;
	struct ir_instr *c = copy_out(d, pc, iff, at, v, 0);
	if (!c)
		return false;
	s->def = c;
	return true;
}

/* The ops of block that read a select phis_to_selects made (or such an
 * op) are uniform-only now: noted, so that a PHI further on that takes
 * them becomes a select too (nested and chained uniform IFs). */
static void note_block(struct prep_scan *d, struct ir_block *b)
{
	for (struct ir_instr *in = b->first; in; in = in->next)
		if (!known_uniform(d, in) && of_uniforms(d, in, d->cap))
			note_uniform(d, in);
}

/* A PHI after an IF whose condition and sources are uniform-only becomes
 * select(cond, then, else) after the block's PHIs, which the split can
 * move (it takes no PHI): `if (u_on) c = A; else c = B;` is one value per
 * draw.  The PHI stays, unread. */
static void phis_to_selects(struct prep_scan *d, struct prep_copies *pc, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf && !d->failed; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			phis_to_selects(d, pc, &cf->then_list);
			phis_to_selects(d, pc, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			phis_to_selects(d, pc, &cf->body);
		} else {
			note_block(d, &cf->block);
		}
		struct ir_cf *next = cf->next;
		if (cf->kind != IR_CF_IF || !next || next->kind != IR_CF_BLOCK)
			continue;
		ir_src_forward(&cf->cond); /* a bool PHI made a select */
		if (!known_uniform(d, cf->cond.def))
			continue;
		struct ir_instr *at = next->block.first;
		while (at && at->op == IR_OP_PHI)
			at = at->next;
		if (!at) {
			/* a block of PHIs only: the selects go before an
			 * anchor at its end (unread: dce removes it) */
			struct ir_builder b;
			ir_builder_init(&b, d->f);
			b.block = &next->block;
			if (!(at = ir_build_constf(&b, 0.0f))) {
				d->failed = true;
				return;
			}
		}
		pc->gen++;
		pc->left = PREP_MAX_COPIES;
		for (struct ir_instr *phi = next->block.first; phi && phi->op == IR_OP_PHI;
		     phi = phi->next) {
			struct ir_src t = phi->src[0], e = phi->src[1];
			if (phi->nsrc != 2 ||
			    !select_source(d, pc, cf, at, &t) || !select_source(d, pc, cf, at, &e))
				continue;
			struct ir_src cond = cf->cond;
			for (int k = 0; k < 4; k++)
				cond.swz[k] = cf->cond.swz[0];
			struct ir_instr *sel = ir_build_before(d->f, at, IR_OP_SELECT, phi->ncomp,
							       phi->base, 3,
							       (struct ir_src[]){ cond, t, e });
			if (!sel) {
				d->failed = true;
				return;
			}
			note_uniform(d, sel);
			ir_forward(phi, sel);
		}
	}
}

static void count_phi(struct ir_instr *in, void *ud)
{
	*(uint32_t *)ud += in->op == IR_OP_PHI;
}

bool ir_cp_prepare(struct ir_func *f, struct ir_pass_ctx *ctx)
{
	struct prep_scan d = { .f = f, .n = f->next_id, .uniform_only = calloc((size_t)f->next_id + 1, 1) };
	if (!d.uniform_only)
		return false;
	ir_foreach_instr(f, prepare_instr, &d);
	/* phis_to_selects's tables: by id of the values so far (the rewrites
	 * above made some, not marked uniform-only) and of the selects and
	 * copies it may make (one per PHI, PREP_MAX_ALL_COPIES) */
	uint32_t nphi = 0;
	ir_foreach_instr(f, count_phi, &nphi);
	d.cap = f->next_id + nphi + PREP_MAX_ALL_COPIES + 1;
	bool *grown = d.failed ? NULL : realloc(d.uniform_only, d.cap);
	if (grown) {
		memset(grown + d.n, 0, d.cap - d.n);
		d.uniform_only = grown;
	}
	struct prep_copies pc = { calloc(d.cap, sizeof *pc.copy), calloc(d.cap, sizeof *pc.mark),
				  0, 0, PREP_MAX_ALL_COPIES };
	d.failed |= !grown || !pc.copy || !pc.mark;
	if (!d.failed) {
		phis_to_selects(&d, &pc, &f->body);
		ir_apply_forwards(f);
		/* the PHIs made selects, and what only they read: else the
		 * split would take a PHI's source for a root */
		ir_pass_run_split(ctx, f, IR_SPLIT_CP_PREPARE_DCE, ir_opt_dce);
	}
	free(d.uniform_only);
	free(pc.copy);
	free(pc.mark);
	return !d.failed;
}

