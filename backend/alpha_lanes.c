/* Alpha lanes: scalars moved out of the W lane where the schedule allows
 * it at no slot's cost, while W lanes bound the temporaries.
 *
 * The alpha unit writes only W, and a temporary has one W lane but three
 * of R, G, B (ISA.md §6.6), so a shader with many scalars live from the
 * alpha unit needs a temporary for each, with R, G, B left empty.  The
 * scheduler picks a scalar's unit slot by slot, for pairing, without
 * knowing how long the value lives.  After scheduling that is known:
 *  - two open scalars paired in one slot swap units when the one in W
 *    lives longer (both start in the slot, so the shorter one's range
 *    lies inside the longer one's: W holds less, R, G, B more);
 *  - an alpha-unit scalar whose slot leaves the RGB unit free moves to
 *    it (a transcendental then writes R through SOP, both units its).
 * Either changes no slot, only the lanes; the readers' slots are placed
 * again on their address tables (a lane of W is read through the alpha
 * table, R, G, B through the RGB one), and a move that does not fit is
 * not made.  A move is made where it lowers the bound the live values
 * put on the temporaries over the time it changes (bound_at: values in
 * W against values in R, G, B packed three lanes a temporary).
 *
 * Needs: the schedule, coalesced (its copies fixed their lanes).  Gives:
 * lanes; regalloc then places the moved scalars in any of R, G, B. */
#include "cg.h"

#include <string.h>

struct al {
	struct cg_ctx *cg;
	struct cg_range (*rng)[4];
	const bool *lane_fixed;
	int *w;               /* per time step: components live in W */
	int *rgb[4];          /* per time step: values with 1, 2, 3 components live
				 in R, G, B (index 0 unused) */
	int nt;               /* time steps: step t is (t - 2, t - 1) in half-slots */
	int *slots;           /* scratch: the slots a move places again */
	struct cg_slot *saved_slots;
	int *saved_ops;       /* ops of those slots, their unit and sel saved: */
	uint8_t (*saved_sel)[4];
};

/* Whether scalar v's lane may change: one plain op of an ALU unit writes
 * it and no presubtract or derivative reads it (they work lane by lane). */
static bool movable(const struct al *al, int v)
{
	const struct cg_ctx *cg = al->cg;
	if (v < 0)
		return false;
	const struct cg_vreg *r = &cg->vregs[v];
	if (r->ncomp != 1 || r->input >= 0 || r->multi || r->array >= 0 || al->lane_fixed[v] ||
	    r->writer[0] < 0 || al->rng[v][0].a > al->rng[v][0].b)
		return false;
	const struct cg_op *op = &cg->ops[r->writer[0]];
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	return !op->dead && op->dst == v && op->wmask == 1 && op->out == CG_OUT_NONE &&
	       !op->alu_result && !op->pred_write && !op->dst_rel && !info->tex && !info->dot &&
	       op->opc != CG_MDH && op->opc != CG_MDV;
}

/* Where v's components live: the steps of v's live ranges cut into
 * pieces over which the same components live, each passed to add with
 * how many of them are in W and how many in R, G, B (scalar v's
 * component counted in lane `lane0`, its own or a new one). */
typedef void piece_fn(struct al *al, int t0, int t1, int nw, int nrgb, int d);

static void each_piece(struct al *al, int v, int lane0, piece_fn *add, int d)
{
	const struct cg_vreg *r = &al->cg->vregs[v];
	int a[4], b[4], lane[4], n = 0, pt[8], np = 0;
	for (int c = 0; c < r->ncomp; c++) {
		int l = r->ncomp == 1 ? lane0 : r->lane[c];
		int lo = al->rng[v][c].a + 2, hi = al->rng[v][c].b + 2;
		lo = lo < 0 ? 0 : lo;
		hi = hi > al->nt ? al->nt : hi;
		if (l >= 4 || lo >= hi)
			continue;
		a[n] = lo, b[n] = hi, lane[n++] = l;
		for (int e = 0; e < 2; e++) { /* the cut points, sorted, each once */
			int x = e ? hi : lo, j = np;
			while (j > 0 && pt[j - 1] > x)
				j--;
			if (j > 0 && pt[j - 1] == x)
				continue;
			memmove(pt + j + 1, pt + j, sizeof *pt * (size_t)(np - j));
			pt[j] = x;
			np++;
		}
	}
	for (int i = 0; i + 1 < np; i++) {
		int nw = 0, nrgb = 0;
		for (int k = 0; k < n; k++)
			if (a[k] <= pt[i] && pt[i] < b[k]) {
				nw += lane[k] == 3;
				nrgb += lane[k] != 3;
			}
		if (nw || nrgb)
			add(al, pt[i], pt[i + 1], nw, nrgb, d);
	}
}

static void add_steps(struct al *al, int t0, int t1, int nw, int nrgb, int d)
{
	for (int t = t0; t < t1; t++) {
		al->w[t] += nw * d;
		if (nrgb)
			al->rgb[nrgb][t] += d;
	}
}

/* Adds d to the counts of v's live components over their ranges. */
static void count(struct al *al, int v, int lane0, int d)
{
	each_piece(al, v, lane0, add_steps, d);
}

/* count_all's form of add_steps: the changes at the ends of the piece,
 * summed up afterwards (every vreg's walk over its whole range made the
 * stage quadratic in long shaders). */
static void add_ends(struct al *al, int t0, int t1, int nw, int nrgb, int d)
{
	al->w[t0] += nw * d;
	al->w[t1] -= nw * d;
	if (nrgb) {
		al->rgb[nrgb][t0] += d;
		al->rgb[nrgb][t1] -= d;
	}
}

static bool count_all(struct al *al)
{
	struct cg_ctx *cg = al->cg;
	al->nt = 2 * cg->nslots + 4;
	size_t size = sizeof(int) * (size_t)(al->nt + 1);
	/* cleared below, not by the arena too */
	al->w = arena_alloc_unzeroed(cg->arena, size);
	for (int k = 1; k < 4; k++)
		if (!(al->rgb[k] = arena_alloc_unzeroed(cg->arena, size)))
			return false;
	if (!al->w)
		return false;
	memset(al->w, 0, size);
	for (int k = 1; k < 4; k++)
		memset(al->rgb[k], 0, size);
	for (int v = 0; v < cg->nvregs; v++)
		each_piece(al, v, cg->vregs[v].lane[0], add_ends, 1);
	for (int t = 1; t < al->nt; t++) {
		al->w[t] += al->w[t - 1];
		for (int k = 1; k < 4; k++)
			al->rgb[k][t] += al->rgb[k][t - 1];
	}
	return true;
}

/* The temporaries the values live at step t need at least: one per value
 * in W, and in R, G, B one per value of three or two components (a
 * scalar may take a pair's third lane) and one per three other scalars. */
static int bound_at(const struct al *al, int t)
{
	int v3 = al->rgb[3][t], v2 = al->rgb[2][t], s = al->rgb[1][t] - v2;
	int rgb = v3 + v2 + (s > 0 ? (s + 2) / 3 : 0);
	return al->w[t] > rgb ? al->w[t] : rgb;
}

/* The bound over the steps of range iv. */
static int bound_over(const struct al *al, struct cg_range iv)
{
	int bound = 0;
	for (int t = iv.a + 2; t < iv.b + 2 && t < al->nt; t++)
		bound = bound_at(al, t) > bound ? bound_at(al, t) : bound;
	return bound;
}

/* Moves the counts of vregs v[0..n) from lanes `from` to lanes `to`. */
static void shift(struct al *al, const int *v, const uint8_t *from, const uint8_t *to, int n)
{
	for (int k = 0; k < n; k++) {
		count(al, v[k], from[k], -1);
		count(al, v[k], to[k], 1);
	}
}

/* Whether moving vregs v[0..n) to lane[] lowers the bound over their
 * ranges (only lowering it: a move that keeps it costs as often as it
 * helps, for the allocator packs first fit); the counts follow a move
 * found worth it. */
static bool worth(struct al *al, const int *v, const uint8_t *lane, int n, uint8_t cur[2])
{
	struct cg_range span = al->rng[v[0]][0];
	for (int k = 0; k < n; k++) {
		struct cg_range r = al->rng[v[k]][0];
		span.a = r.a < span.a ? r.a : span.a;
		span.b = r.b > span.b ? r.b : span.b;
		cur[k] = al->cg->vregs[v[k]].lane[0];
	}
	int before = bound_over(al, span);
	shift(al, v, cur, lane, n);
	if (bound_over(al, span) < before)
		return true;
	shift(al, v, lane, cur, n);
	return false;
}

static void add_slot(struct al *al, int *n, int p)
{
	for (int k = 0; k < *n; k++)
		if (al->slots[k] == p)
			return;
	al->slots[(*n)++] = p;
}

/* Sets the lanes and places the slots of the writers and readers again;
 * false, with everything as it was, when some slot does not take it. */
static bool relane(struct al *al, const int *v, const uint8_t *lane, int n)
{
	struct cg_ctx *cg = al->cg;
	int ns = 0, no = 0;
	for (int k = 0; k < n; k++)
		add_slot(al, &ns, cg->ops[cg->vregs[v[k]].writer[0]].slot);
	for (int i = 0; i < cg->nops; i++)
		for (int k = 0; k < n && cg->ops[i].slot >= 0; k++)
			if (!cg->ops[i].dead && cg_op_reads_vreg(&cg->ops[i], v[k]))
				add_slot(al, &ns, cg->ops[i].slot);
	for (int j = 0; j < ns; j++) {
		const struct cg_slot *s = &cg->slots[al->slots[j]];
		al->saved_slots[j] = *s;
		int ops[2] = { s->rgb, s->alpha };
		for (int u = 0; u < 2 && !s->tex && !s->fc; u++)
			if (ops[u] >= 0) {
				al->saved_ops[no] = ops[u];
				al->saved_sel[no][3] = cg->ops[ops[u]].unit;
				memcpy(al->saved_sel[no++], cg->ops[ops[u]].sel, 3);
			}
	}
	uint8_t old[4];
	for (int k = 0; k < n; k++) {
		old[k] = cg->vregs[v[k]].lane[0];
		cg->vregs[v[k]].lane[0] = lane[k];
	}
	bool ok = true;
	for (int j = 0; j < ns && ok; j++)
		ok = cg_slot_refit(cg, al->slots[j]);
	if (ok)
		return true;
	for (int k = 0; k < n; k++)
		cg->vregs[v[k]].lane[0] = old[k];
	for (int j = 0; j < ns; j++)
		cg->slots[al->slots[j]] = al->saved_slots[j];
	for (int o = 0; o < no; o++) {
		cg->ops[al->saved_ops[o]].unit = al->saved_sel[o][3];
		memcpy(cg->ops[al->saved_ops[o]].sel, al->saved_sel[o], 3);
	}
	return false;
}

/* Lanes to move to in slot p, into v[] and lane[]: how many (0 none). */
static int candidate(const struct al *al, int p, int v[2], uint8_t lane[2])
{
	const struct cg_ctx *cg = al->cg;
	const struct cg_slot *s = &cg->slots[p];
	if (s->tex || s->fc || s->alpha < 0 || s->alpha == s->rgb)
		return 0;
	const struct cg_op *b = &cg->ops[s->alpha];
	if (!movable(al, b->dst) || cg->vregs[b->dst].lane[0] != 3)
		return 0;
	v[0] = b->dst;
	lane[0] = 0;
	if (s->rgb < 0)
		return 1;
	const struct cg_op *a = &cg->ops[s->rgb];
	if (cg_opc_infos[b->opc].transcendental || !movable(al, a->dst) ||
	    cg->vregs[a->dst].lane[0] > 2 || al->rng[a->dst][0].b >= al->rng[b->dst][0].b)
		return 0;
	v[1] = a->dst;
	lane[1] = 3;
	return 2;
}

bool cg_alpha_lanes(struct cg_ctx *cg)
{
	struct al al = { .cg = cg };
	if (!cg_live_ranges(cg, &al.rng, &al.lane_fixed))
		return false;
	/* relane's scratch, written before it is read: not zeroed */
	size_t ns = (size_t)cg->nslots + 1, nops = 2 * (size_t)cg->nslots + 1;
	al.slots = arena_alloc_unzeroed(cg->arena, sizeof(int) * ns);
	al.saved_slots = arena_alloc_unzeroed(cg->arena, sizeof *al.saved_slots * ns);
	al.saved_ops = arena_alloc_unzeroed(cg->arena, sizeof(int) * nops);
	al.saved_sel = arena_alloc_unzeroed(cg->arena, sizeof *al.saved_sel * nops);
	if (!al.slots || !al.saved_slots || !al.saved_ops || !al.saved_sel || !count_all(&al))
		return cg->failed = true, false;
	for (int p = 0; p < cg->nslots; p++) {
		int v[2];
		uint8_t lane[2], cur[2];
		int n = candidate(&al, p, v, lane);
		if (n && worth(&al, v, lane, n, cur) && !relane(&al, v, lane, n))
			shift(&al, v, lane, cur, n);
	}
	return !cg->failed;
}
