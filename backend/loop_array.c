/* aL relative addressing for local arrays in loops (ISA.md §4.2: a
 * temporary's address plus aL; LOOP sets aL = 0, each ENDLOOP adds the
 * counter's step, as for uniform arrays in loop_rel.c).
 *
 * The frontend makes a local array one SSA value per element.  In a loop
 * whose counter goes i = start, start + step, ... (loop_counter.h):
 *  - a write a[i + c] = v is, for each element e, a select
 *    a_e' = (i + c == key_e) ? v : a_e, where a_e is a PHI at the loop's
 *    head that takes a_e' back.  Such an array is *carried*: its element
 *    PHIs take consecutive temporaries and the write is one op, to the
 *    temporary of the element addressed in pass 0, plus aL;
 *  - a read a[i + c] is a chain of selects (i + c == k) ? a_k : ...
 *    ending in a default.  Over a carried array's PHIs, or over values
 *    made before the loop (a *copied* array: they are copied into
 *    consecutive temporaries before the loop), it is one operand.
 *
 * The IR gives an index outside the keys the default (a read) or no
 * effect (a write); aL does not clamp.  Where the counter's passes may
 * take the index past the elements, the access is guarded: a read is
 * CMP(element, default, limit - index); a write is predicated on
 * limit - index >= 0, so it never writes outside the array.  An index
 * below the elements in pass 0 (it only grows) is not taken.
 *
 * A carried array's write is a late op (cg_op.late): it follows every
 * read of the old elements in its region.  So the element PHIs may be
 * read elsewhere in the loop only before the write in program order, or
 * in its block, and the selected values go nowhere but back to the PHIs.
 *
 * Needs: the IR.  Gives: cg->arrays and cg->arr_access by IR id (the
 * isel side is isel_array.c).  Off at -O0 and with --skip=loop-array. */
#include "cg.h"
#include "loop_counter.h"

#include <limits.h>
#include <math.h>
#include <string.h>

enum { ARR_MIN_ELEMS = 3, ARR_MAX_ELEMS = 96, ARR_MAX_STEP = 127, ARR_MAX_KEY = 1024,
       ARR_MAX_CAND = 128, ARR_MAX_JOINS = 8 };

struct scan {
	struct cg_ctx *cg;
	const struct ir_cf *loop;
	const struct ir_instr *counter;
	float start, step;
	bool counted;              /* the counter's exit pass is known */
	const struct ir_cf *exit_if; /* the counter's exit IF when counted */
	int exit_pass, exit_order; /* code at order >= exit_order runs one pass fewer */
	int *order;                /* by id: place in the loop's walk, -1 outside the loop */
	int *uses;                 /* by id: sources reading it (function-wide) */
	int norder;
	int first_array;           /* arrays of this loop: first_array .. narrays-1 */
};

/* One element write found at a PHI of the loop's head. */
struct cand {
	const struct ir_instr *phi, *sel;
	const struct ir_instr *join[ARR_MAX_JOINS]; /* IF joins from the back edge in */
	int njoin;
	const struct ir_src *idx, *value;
	int key;
};

static bool small_int(float x, float lim)
{
	return x == floorf(x) && fabsf(x) <= lim;
}

static bool identity(const struct ir_src *s, int n)
{
	for (int j = 0; j < n; j++)
		if ((s->swz[j] & 3) != j)
			return false;
	return true;
}

static bool same_src(const struct ir_src *a, const struct ir_src *b, int n)
{
	if (a->def != b->def)
		return false;
	for (int j = 0; j < n; j++)
		if ((a->swz[j] & 3) != (b->swz[j] & 3))
			return false;
	return true;
}

static bool in_loop(const struct scan *sc, const struct ir_instr *d)
{
	return d->id < (uint32_t)sc->cg->func->next_id + 1 && sc->order[d->id] >= 0;
}

/* Whether d sits in a block of the loop itself, not of a loop inside it. */
static bool directly_in_loop(const struct scan *sc, const struct ir_instr *d)
{
	if (!in_loop(sc, d))
		return false;
	for (const struct ir_cf *cf = ir_instr_cf(d); cf; cf = cf->parent) {
		if (cf == sc->loop)
			return true;
		if (cf->kind == IR_CF_LOOP)
			return false;
	}
	return false;
}

/* cond is (idx == key) on the loop's counter: the index source and key. */
static bool eq_on_counter(const struct scan *sc, const struct ir_src *cond,
			  const struct ir_src **idx, int *key, float *off)
{
	const struct ir_instr *e = cond->def;
	if (!e || e->op != IR_OP_EQ || e->ncomp != 1 || e->nsrc != 2)
		return false;
	for (int k = 0; k < 2; k++) {
		const struct ir_src *o = &e->src[1 - k];
		if (!o->def || o->def->op != IR_OP_CONST || o->def->base != IR_FLOAT)
			continue;
		float kv = o->def->imm[o->swz[0] & 3];
		if (!small_int(kv, ARR_MAX_KEY) ||
		    !loop_counter_offset(&e->src[k], sc->counter, off) ||
		    !small_int(*off, ARR_MAX_KEY))
			continue;
		*idx = &e->src[k];
		*key = (int)kv;
		return true;
	}
	return false;
}

/* Whether an access at `order`, to element pos0 + p * step in pass p,
 * may go past element hi in a pass that reaches it (always, when the
 * loop's last pass is not known). */
static bool needs_guard(const struct scan *sc, int order, int pos0, int hi)
{
	if (!sc->counted)
		return true;
	int last = order >= sc->exit_order ? sc->exit_pass - 1 : sc->exit_pass;
	return (double)pos0 + (double)last * sc->step > (double)hi;
}

static struct cg_arr_access *new_access(struct cg_ctx *cg, const struct ir_instr *in,
					enum cg_arr_role role, int array, int elem)
{
	struct cg_arr_access *a = arena_alloc(cg->arena, sizeof *a);
	if (!a) {
		cg->failed = true;
		return NULL;
	}
	memset(a, 0, sizeof *a);
	a->role = (uint8_t)role;
	a->array = array;
	a->elem = elem;
	cg->arr_access[in->id] = a;
	return a;
}

static int new_array(struct scan *sc, int n, int ncomp)
{
	struct cg_ctx *cg = sc->cg;
	if (cg->narrays == cg->cap_arrays) {
		int ncap = cg->cap_arrays ? 2 * cg->cap_arrays : 4;
		struct cg_array *na = arena_realloc(cg->arena, cg->arrays,
						    sizeof *na * (size_t)cg->cap_arrays,
						    sizeof *na * (size_t)ncap);
		if (!na)
			return cg->failed = true, -1;
		cg->arrays = na;
		cg->cap_arrays = ncap;
	}
	struct cg_array *a = &cg->arrays[cg->narrays];
	memset(a, 0, sizeof *a);
	a->loop = sc->loop;
	a->n = n;
	a->ncomp = ncomp;
	a->step = (int)sc->step;
	a->vreg = arena_alloc(cg->arena, sizeof(int) * (size_t)n);
	if (!a->vreg)
		return cg->failed = true, -1;
	for (int e = 0; e < n; e++)
		a->vreg[e] = -1;
	return cg->narrays++;
}

/* --- carried arrays: the writes --- */

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
		if (!s->def || !identity(s, p->ncomp))
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
		if (sc->uses[v->id] != readers || !directly_in_loop(sc, v) ||
		    (in_if && !ir_instr_inside(v, in_if)) || v->ncomp != p->ncomp)
			return false;
		if (v->op == IR_OP_SELECT)
			break;
		const struct ir_cf *iff = joined_if(v);
		if (v->op != IR_OP_PHI || v->nsrc != 2 || !iff || c->njoin == ARR_MAX_JOINS)
			return false;
		int k = v->src[0].def == p ? 1 : 0;
		if (v->src[1 - k].def != p || !identity(&v->src[1 - k], p->ncomp) ||
		    !identity(&v->src[k], p->ncomp))
			return false;
		c->join[c->njoin++] = v;
		in_if = iff;
		v = v->src[k].def;
	}
	const struct ir_instr *sel = v;
	if (!sel || sel->nsrc != 3 || sel->src[2].def != p || !identity(&sel->src[2], p->ncomp) ||
	    (!c->njoin && ir_instr_cf(sel)->parent != sc->loop))
		return false;
	float off;
	if (!eq_on_counter(sc, &sel->src[0], &c->idx, &c->key, &off))
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
	       same_src(a->idx, b->idx, 1) && same_src(a->value, b->value, a->phi->ncomp);
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
	int a = new_array(sc, n, g[0].phi->ncomp);
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
			if (!new_access(cg, g[e].join[j], CG_ARR_MEMBER, a, e))
				return;
		struct cg_arr_access *x = new_access(cg, g[e].sel,
						     e == wlast ? CG_ARR_WRITE : CG_ARR_MEMBER, a, e);
		if (!x)
			return;
		if (e != wlast)
			continue;
		x->pos = (int)pos0;
		x->guard = needs_guard(sc, sc->order[g[e].sel->id], x->pos, n - 1);
		x->limit = (float)(g[0].key + n - 1);
		x->idx = g[e].idx;
		x->value = g[e].value;
	}
}

static void find_carried(struct scan *sc)
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

/* --- reads --- */

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
	return x && x->op == IR_OP_SELECT && x->nsrc == 3 && directly_in_loop(sc, x) &&
	       (!sc->cg->arr_access[x->id]) && eq_on_counter(sc, &x->src[0], idx, key, &off);
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
		if (ch->n > 0 && (!same_src(idx, ch->idx, 1) || sc->uses[x->id] != 1 ||
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
	if (a < 0 || !same_src(ch->dflt, &ch->node[0]->src[1], n))
		return -1;
	const struct cg_array *arr = &sc->cg->arrays[a];
	int k0 = 0;
	bool seen[ARR_MAX_ELEMS] = { false };
	seen[ed] = true;
	for (int i = 0; i < ch->n; i++) {
		int e;
		const struct ir_src *arm = &ch->node[i]->src[1];
		if (carried_elem(sc, arm->def, &e) != a || !same_src(arm, &ch->node[0]->src[1], n))
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
		if (!d || (in_loop(sc, d) && d->op != IR_OP_CONST &&
			   !(d->op == IR_OP_UNIFORM && d->nsrc == 0)))
			return -1;
	}
	*key0 = kmin;
	for (int a = sc->first_array; a < cg->narrays; a++) {
		const struct cg_array *arr = &cg->arrays[a];
		bool eq = arr->val && arr->n == n && arr->ncomp == ncomp;
		for (int i = 0; eq && i < n; i++)
			eq = same_src(&arr->val[i], val[i], ncomp);
		if (eq)
			return a;
	}
	int a = new_array(sc, n, ncomp);
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
	struct cg_arr_access *x = new_access(sc->cg, root, CG_ARR_READ, a, 0);
	if (!x)
		return;
	x->pos = (int)pos0;
	x->guard = needs_guard(sc, sc->order[root->id], x->pos, hi);
	x->limit = (float)(key0 + hi);
	x->idx = ch.idx;
	x->value = ch.dflt;
	x->arm = &ch.node[0]->src[1];
	for (int i = 1; i < ch.n; i++)
		if (!new_access(sc->cg, ch.node[i], CG_ARR_SKIP, a, 0))
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
				    same_src(i1, i2, 1) && sc->uses[r->id] == 1)
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

/* --- the walk --- */

/* Numbers the loop's instructions in program order (or clears them). */
static void number(struct scan *sc, const struct ir_cf_list *l, bool clear)
{
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				sc->order[in->id] = clear ? -1 : sc->norder++;
			break;
		case IR_CF_IF:
			number(sc, &cf->then_list, clear);
			number(sc, &cf->else_list, clear);
			break;
		case IR_CF_LOOP:
			number(sc, &cf->body, clear);
			break;
		}
		if (cf == sc->exit_if)
			sc->exit_order = sc->norder;
	}
}

static void scan_loop(struct scan *sc, const struct ir_cf *loop)
{
	struct cg_ctx *cg = sc->cg;
	struct loop_counter lc;
	sc->loop = loop;
	sc->counted = loop_counter_find(loop, &lc) && !lc.continue_before_exit;
	if (sc->counted) {
		sc->counter = lc.phi;
		sc->start = lc.start;
		sc->step = lc.step;
		sc->exit_if = lc.exit_if;
		sc->exit_pass = lc.exit_pass;
	} else if (!loop_counter_phi(loop, &sc->counter, &sc->start, &sc->step)) {
		return;
	} else {
		sc->exit_if = NULL;
	}
	if (!small_int(sc->start, ARR_MAX_KEY) || !small_int(sc->step, ARR_MAX_STEP))
		return;
	sc->norder = 0;
	sc->exit_order = INT_MAX;
	number(sc, &loop->body, false);
	sc->first_array = cg->narrays;
	find_carried(sc);
	size_t nid = (size_t)cg->func->next_id + 1;
	bool *inner = arena_alloc(cg->arena, sizeof(bool) * nid);
	if (!inner) {
		cg->failed = true;
	} else {
		memset(inner, 0, sizeof(bool) * nid);
		find_chains(sc, &loop->body, inner);
		find_roots(sc, &loop->body, inner);
	}
	sc->exit_if = NULL;
	number(sc, &loop->body, true);
}

static void walk(struct scan *sc, const struct ir_cf_list *l)
{
	for (const struct ir_cf *cf = l->first; cf && !sc->cg->failed; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			walk(sc, &cf->then_list);
			walk(sc, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			walk(sc, &cf->body);
			scan_loop(sc, cf);
		}
	}
}

static void count_uses(struct ir_instr *in, void *ud)
{
	int *uses = ud;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++)
		if (in->src[k].def)
			uses[in->src[k].def->id]++;
}

static void count_cond_uses(const struct ir_cf_list *l, int *uses)
{
	for (const struct ir_cf *cf = l->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			if (cf->cond.def)
				uses[cf->cond.def->id]++;
			count_cond_uses(&cf->then_list, uses);
			count_cond_uses(&cf->else_list, uses);
		} else if (cf->kind == IR_CF_LOOP) {
			count_cond_uses(&cf->body, uses);
		}
	}
}

bool cg_plan_loop_arrays(struct cg_ctx *cg)
{
	struct ir_func *f = cg->func;
	size_t nid = (size_t)f->next_id + 1;
	cg->narrays = 0;
	cg->arr_access = arena_alloc(cg->arena, sizeof *cg->arr_access * nid);
	if (!cg->arr_access)
		return cg->failed = true, false;
	memset(cg->arr_access, 0, sizeof *cg->arr_access * nid);
	if (!cg_opt_enabled(cg, "loop-array"))
		return true;
	struct scan sc = { .cg = cg };
	sc.order = arena_alloc(cg->arena, sizeof(int) * nid);
	sc.uses = arena_alloc(cg->arena, sizeof(int) * nid);
	if (!sc.order || !sc.uses)
		return cg->failed = true, false;
	for (size_t i = 0; i < nid; i++) {
		sc.order[i] = -1;
		sc.uses[i] = 0;
	}
	ir_foreach_instr(f, count_uses, sc.uses);
	count_cond_uses(&f->body, sc.uses);
	walk(&sc, &f->body);
	return !cg->failed;
}
