/* Read chains of local arrays (loop_array.c): selects (i + c == k) ? a_k
 * : rest on a loop's counter, ending in a default, over a carried array's
 * PHIs or over values made before the loop (a copied array).  One aL
 * operand reads the element; a guard gives the default past the end. */
#include "loop_array.h"
#include "loop_counter.h"

#include <string.h>

/* The array (of this loop) and element that PHI d is, -1 none. */
static int carried_elem(const struct scan *sc, const struct ir_instr *d, int *elem)
{
	const struct cg_ctx *cg = sc->cg;
	for (int a = sc->first_array; a < cg->narrays; a++)
		for (int e = 0; cg->arrays[a].phi && e < cg->arrays[a].n; e++)
			if (cg->arrays[a].phi[e] == d) {
				*elem = e;
				return a;
			}
	return -1;
}

/* A chain select: (idx == key) ? arm : rest, on the counter. */
static bool chain_node(const struct scan *sc, const struct ir_instr *x, const struct ir_src **idx,
		       int *key)
{
	float off;
	return x && x->op == IR_OP_SELECT && x->nsrc == 3 && la_directly_in_loop(sc, x) &&
	       (!sc->cg->arr_access[x->id]) && la_eq_on_counter(sc, &x->src[0], idx, key, &off);
}

struct chain {
	const struct ir_instr *node[ARR_MAX_ELEMS];
	int key[ARR_MAX_ELEMS];
	int n;
	const struct ir_src *idx, *dflt;
};

static bool walk_chain(const struct scan *sc, const struct ir_instr *root, struct chain *ch)
{
	ch->n = 0;
	ch->idx = ch->dflt = NULL;
	const struct ir_instr *x = root;
	const struct ir_src *idx;
	int key;
	while (chain_node(sc, x, &idx, &key) && ch->n < ARR_MAX_ELEMS - 1) {
		if (ch->n > 0 && (!ir_src_same(idx, ch->idx, 1) || sc->uses[x->id] != 1 ||
				  x->ncomp != root->ncomp))
			break;
		ch->idx = idx;
		ch->node[ch->n] = x;
		ch->key[ch->n++] = key;
		ch->dflt = &x->src[2];
		x = x->src[2].def;
	}
	return ch->n >= ARR_MIN_ELEMS - 1;
}

/* Whether the chain's arms and default are one carried array's PHIs at
 * the elements their keys name; the in-range elements [lo, hi]. */
static int chain_carried(const struct scan *sc, const struct chain *ch, int *lo, int *hi,
			 int *key0)
{
	int n = ch->node[0]->ncomp, ed, a = carried_elem(sc, ch->dflt->def, &ed);
	if (a < 0 || !ir_swz_same(ch->dflt, &ch->node[0]->src[1], n))
		return -1;
	const struct cg_array *arr = &sc->cg->arrays[a];
	int k0 = 0;
	bool seen[ARR_MAX_ELEMS] = { false };
	seen[ed] = true;
	for (int i = 0; i < ch->n; i++) {
		int e;
		const struct ir_src *arm = &ch->node[i]->src[1];
		if (carried_elem(sc, arm->def, &e) != a || !ir_swz_same(arm, &ch->node[0]->src[1], n))
			return -1;
		if (i == 0)
			k0 = ch->key[0] - e;
		if (ch->key[i] - e != k0 || seen[e])
			return -1;
		seen[e] = true;
	}
	*lo = 0;
	while (*lo < arr->n && !seen[*lo])
		(*lo)++;
	*hi = *lo;
	while (*hi + 1 < arr->n && seen[*hi + 1])
		(*hi)++;
	for (int e = *hi + 1; e < arr->n; e++)
		if (seen[e])
			return -1; /* a gap */
	*key0 = k0;
	return a;
}

/* A copied array of the chain's arms in key order, then its default,
 * when they are all made before the loop (an existing one if equal). */
static int chain_copied(struct scan *sc, const struct chain *ch, int *key0)
{
	struct cg_ctx *cg = sc->cg;
	int n = ch->n + 1, ncomp = ch->node[0]->ncomp;
	const struct ir_src *val[ARR_MAX_ELEMS];
	int kmin = ch->key[0];
	for (int i = 1; i < ch->n; i++)
		kmin = ch->key[i] < kmin ? ch->key[i] : kmin;
	for (int i = 0; i < n; i++)
		val[i] = NULL;
	for (int i = 0; i < ch->n; i++) {
		int e = ch->key[i] - kmin;
		if (e >= ch->n || val[e])
			return -1; /* keys not consecutive */
		val[e] = &ch->node[i]->src[1];
	}
	val[n - 1] = ch->dflt;
	for (int i = 0; i < n; i++) { /* made before the loop, or made by no code */
		const struct ir_instr *d = val[i]->def;
		if (!d || (la_in_loop(sc, d) && d->op != IR_OP_CONST &&
			   !(d->op == IR_OP_UNIFORM && d->nsrc == 0)))
			return -1;
	}
	*key0 = kmin;
	for (int a = sc->first_array; a < cg->narrays; a++) {
		const struct cg_array *arr = &cg->arrays[a];
		bool eq = arr->val && arr->n == n && arr->ncomp == ncomp;
		for (int i = 0; eq && i < n; i++)
			eq = ir_src_same(&arr->val[i], val[i], ncomp);
		if (eq)
			return a;
	}
	int a = la_new_array(sc, n, ncomp);
	if (a < 0)
		return -1;
	struct ir_src *v = arena_alloc(cg->arena, sizeof *v * (size_t)n);
	if (!v)
		return cg->failed = true, -1;
	for (int i = 0; i < n; i++)
		v[i] = *val[i];
	cg->arrays[a].val = v;
	return a;
}

static void try_chain(struct scan *sc, const struct ir_instr *root)
{
	struct chain ch;
	if (!walk_chain(sc, root, &ch))
		return;
	int lo, hi, key0, a = chain_carried(sc, &ch, &lo, &hi, &key0);
	if (a < 0) {
		if ((a = chain_copied(sc, &ch, &key0)) < 0)
			return;
		lo = 0;
		hi = sc->cg->arrays[a].n - 1;
	}
	float off;
	loop_counter_offset(ch.idx, sc->counter, &off);
	double pos0 = (double)sc->start + off - key0;
	if (pos0 < lo || pos0 > hi)
		return;
	struct cg_arr_access *x = la_new_access(sc->cg, root, CG_ARR_READ, a, 0);
	if (!x)
		return;
	x->pos = (int)pos0;
	x->guard = la_needs_guard(sc, sc->order[root->id], x->pos, hi);
	x->limit = (float)(key0 + hi);
	x->idx = ch.idx;
	x->value = ch.dflt;
	x->arm = &ch.node[0]->src[1];
	for (int i = 1; i < ch.n; i++)
		if (!la_new_access(sc->cg, ch.node[i], CG_ARR_SKIP, a, 0))
			return;
}

/* Marks the chain selects that another chain select of the same index
 * reads as its rest, and nothing else reads: they are not roots. */
static void find_chains(struct scan *sc, const struct ir_cf_list *l, bool *inner)
{
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			find_chains(sc, &cf->then_list, inner);
			find_chains(sc, &cf->else_list, inner);
		} else if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *x = cf->block.first; x; x = x->next) {
				const struct ir_src *i1, *i2;
				int k;
				const struct ir_instr *r = x->op == IR_OP_SELECT ? x->src[2].def : NULL;
				if (chain_node(sc, x, &i1, &k) && chain_node(sc, r, &i2, &k) &&
				    ir_src_same(i1, i2, 1) && sc->uses[r->id] == 1)
					inner[r->id] = true;
			}
		}
	}
}

static void find_roots(struct scan *sc, const struct ir_cf_list *l, const bool *inner)
{
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			find_roots(sc, &cf->then_list, inner);
			find_roots(sc, &cf->else_list, inner);
		} else if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *x = cf->block.first; x && !sc->cg->failed; x = x->next)
				if (x->op == IR_OP_SELECT && !inner[x->id] && !sc->cg->arr_access[x->id])
					try_chain(sc, x);
		}
	}
}

void la_find_reads(struct scan *sc)
{
	struct cg_ctx *cg = sc->cg;
	size_t nid = (size_t)cg->func->next_id + 1;
	bool *inner = arena_alloc(cg->arena, sizeof(bool) * nid);
	if (!inner) {
		cg->failed = true;
		return;
	}
	memset(inner, 0, sizeof(bool) * nid);
	find_chains(sc, &sc->loop->body, inner);
	find_roots(sc, &sc->loop->body, inner);
}
