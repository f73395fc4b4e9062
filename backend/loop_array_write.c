/* Carried local arrays (loop_array.c): element PHIs at a loop's head
 * that each pass writes back through select(i + c == key, v, old),
 * possibly under IFs of the body (a PHI after each IF merging the select
 * with the old element).  Their keys must be consecutive, the values
 * selected must go nowhere but back, and every other read of the element
 * PHIs in the loop must come before the write (it is a late op). */
#include "loop_array.h"
#include "loop_counter.h"

#include <limits.h>
#include <string.h>

/* One element write found at a PHI of the loop's head. */
struct cand {
	const struct ir_instr *phi, *sel;
	const struct ir_instr *join[ARR_MAX_JOINS]; /* IF joins from the back edge in */
	int njoin;
	const struct ir_src *idx, *value;
	int key;
};

/* The IF that the PHIs of block-node `join` merge: the node before it. */
static const struct ir_cf *joined_if(const struct ir_instr *phi)
{
	const struct ir_cf *cf = ir_instr_cf(phi);
	return cf && cf->prev && cf->prev->kind == IR_CF_IF && cf->block.first &&
	       cf->block.first->op == IR_OP_PHI ? cf->prev : NULL;
}

/* The select writing PHI p each pass, when p matches the write form:
 * p's back edges carry p or one value, which is the select, or a PHI
 * after an IF merging p and (inside the IF) such a value: a write under
 * IFs.  Each value on the way has no other reader. */
static bool find_write(const struct scan *sc, const struct ir_instr *p, struct cand *c)
{
	if (p == sc->counter || p->nsrc < 2)
		return false;
	const struct ir_instr *v = NULL;
	int nback = 0;
	for (int k = 1; k < p->nsrc && k < IR_MAX_SRCS; k++) {
		const struct ir_src *s = &p->src[k];
		if (!s->def || !ir_swz_identity(s, p->ncomp))
			return false;
		if (s->def == p)
			continue;
		if (v && s->def != v)
			return false;
		v = s->def;
		nback++;
	}
	c->njoin = 0;
	const struct ir_cf *in_if = NULL;
	for (int readers = nback; v; readers = 1) {
		if (sc->uses[v->id] != readers || !la_directly_in_loop(sc, v) ||
		    (in_if && !ir_instr_inside(v, in_if)) || v->ncomp != p->ncomp)
			return false;
		if (v->op == IR_OP_SELECT)
			break;
		const struct ir_cf *iff = joined_if(v);
		if (v->op != IR_OP_PHI || v->nsrc != 2 || !iff || c->njoin == ARR_MAX_JOINS)
			return false;
		int k = v->src[0].def == p ? 1 : 0;
		if (v->src[1 - k].def != p || !ir_swz_identity(&v->src[1 - k], p->ncomp) ||
		    !ir_swz_identity(&v->src[k], p->ncomp))
			return false;
		c->join[c->njoin++] = v;
		in_if = iff;
		v = v->src[k].def;
	}
	const struct ir_instr *sel = v;
	if (!sel || sel->nsrc != 3 || sel->src[2].def != p || !ir_swz_identity(&sel->src[2], p->ncomp) ||
	    (!c->njoin && ir_instr_cf(sel)->parent != sc->loop))
		return false;
	float off;
	if (!la_eq_on_counter(sc, &sel->src[0], &c->idx, &c->key, &off))
		return false;
	c->phi = p;
	c->sel = sel;
	c->value = &sel->src[1];
	return true;
}

static bool same_write(const struct cand *a, const struct cand *b)
{
	return a->sel->block == b->sel->block && a->njoin == b->njoin &&
	       a->phi->ncomp == b->phi->ncomp &&
	       ir_src_same(a->idx, b->idx, 1) && ir_src_same(a->value, b->value, a->phi->ncomp);
}

/* Whether an instruction at `order` reading an element PHI may: before
 * the write, or in its block (the late write follows it there). */
static bool read_before(const struct scan *sc, const struct ir_instr *u, int worder,
			const struct ir_block *wblock)
{
	return sc->order[u->id] < worder || u->block == wblock;
}

static bool is_member_phi(const struct cand *g, int n, const struct ir_instr *d)
{
	for (int e = 0; e < n; e++)
		if (g[e].phi == d)
			return true;
	return false;
}

/* Every read of the group's PHIs inside the loop comes before the write
 * (see the header); PHIs of the head other than the element's own read
 * at the back edge, after it. */
static bool reads_before_write(const struct scan *sc, const struct ir_cf_list *l,
			       const struct cand *g, int n, int worder)
{
	const struct ir_block *wblock = g[0].sel->block;
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (const struct ir_instr *u = cf->block.first; u; u = u->next)
				for (int k = 0; k < u->nsrc && k < IR_MAX_SRCS; k++) {
					const struct ir_instr *d = u->src[k].def;
					if (!d || !is_member_phi(g, n, d) || u == d)
						continue;
					bool own = false;
					for (int e = 0; e < n; e++) {
						own |= u == g[e].sel && d == g[e].phi;
						for (int j = 0; j < g[e].njoin; j++)
							own |= u == g[e].join[j] && d == g[e].phi;
					}
					if (own)
						continue;
					if (u->op == IR_OP_PHI && ir_instr_cf(u) == sc->loop->body.first)
						return false;
					if (!read_before(sc, u, worder, wblock))
						return false;
				}
			break;
		case IR_CF_IF:
			if (cf->cond.def && is_member_phi(g, n, cf->cond.def))
				return false; /* an IF on an element: not worth placing */
			if (!reads_before_write(sc, &cf->then_list, g, n, worder) ||
			    !reads_before_write(sc, &cf->else_list, g, n, worder))
				return false;
			break;
		case IR_CF_LOOP:
			if (!reads_before_write(sc, &cf->body, g, n, worder))
				return false;
			break;
		}
	}
	return true;
}

/* Makes the carried array of the writes g[0..n-1] (same block, index and
 * value), when their keys are consecutive and the rules hold. */
static void try_carried(struct scan *sc, struct cand *g, int n)
{
	struct cg_ctx *cg = sc->cg;
	if (n < ARR_MIN_ELEMS || n > ARR_MAX_ELEMS)
		return;
	for (int i = 1; i < n; i++) /* by key; insertion sort */
		for (int j = i; j > 0 && g[j].key < g[j - 1].key; j--) {
			struct cand t = g[j];
			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	for (int i = 1; i < n; i++)
		if (g[i].key != g[0].key + i)
			return;
	int worder = INT_MAX, wlast = 0;
	for (int i = 0; i < n; i++) {
		int o = sc->order[g[i].sel->id];
		worder = o < worder ? o : worder;
		if (o > sc->order[g[wlast].sel->id])
			wlast = i;
	}
	if (!reads_before_write(sc, &sc->loop->body, g, n, worder))
		return;
	float off;
	loop_counter_offset(g[0].idx, sc->counter, &off);
	double pos0 = (double)sc->start + off - g[0].key;
	if (pos0 < 0 || pos0 > n - 1)
		return;
	int a = la_new_array(sc, n, g[0].phi->ncomp);
	if (a < 0)
		return;
	struct cg_array *arr = &cg->arrays[a];
	arr->phi = arena_alloc(cg->arena, sizeof *arr->phi * (size_t)n);
	if (!arr->phi) {
		cg->failed = true;
		return;
	}
	for (int e = 0; e < n; e++) {
		arr->phi[e] = g[e].phi;
		for (int j = 0; j < g[e].njoin; j++)
			if (!la_new_access(cg, g[e].join[j], CG_ARR_MEMBER, a, e))
				return;
		struct cg_arr_access *x = la_new_access(cg, g[e].sel,
						     e == wlast ? CG_ARR_WRITE : CG_ARR_MEMBER, a, e);
		if (!x)
			return;
		if (e != wlast)
			continue;
		x->pos = (int)pos0;
		x->guard = la_needs_guard(sc, sc->order[g[e].sel->id], x->pos, n - 1);
		x->limit = (float)(g[0].key + n - 1);
		x->idx = g[e].idx;
		x->value = g[e].value;
	}
}

void la_find_writes(struct scan *sc)
{
	const struct ir_cf *head = sc->loop->body.first;
	if (!head || head->kind != IR_CF_BLOCK)
		return;
	struct cand c[ARR_MAX_CAND], g[ARR_MAX_CAND];
	int nc = 0;
	for (const struct ir_instr *p = head->block.first; p && p->op == IR_OP_PHI && nc < ARR_MAX_CAND;
	     p = p->next)
		if (find_write(sc, p, &c[nc]))
			nc++;
	bool *taken = arena_alloc(sc->cg->arena, sizeof(bool) * (size_t)(nc + 1));
	if (!taken) {
		sc->cg->failed = true;
		return;
	}
	memset(taken, 0, sizeof(bool) * (size_t)(nc + 1));
	for (int i = 0; i < nc; i++) {
		if (taken[i])
			continue;
		int n = 0;
		bool dup = false;
		for (int j = i; j < nc; j++)
			if (!taken[j] && same_write(&c[i], &c[j])) {
				for (int k = 0; k < n; k++)
					dup |= g[k].key == c[j].key;
				taken[j] = true;
				g[n++] = c[j];
			}
		if (!dup)
			try_carried(sc, g, n);
	}
}

