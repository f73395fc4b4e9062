/* Scheduling and co-issue: cg ops -> slots.
 *
 * Needs: isel's ops (each vreg component written once, so only true
 * dependences matter, plus the order of writes to one output component).
 * Gives: cg->slots, each op's slot, unit and address indices (sel), the
 * lane of every open scalar, and the figures `pairs` and `lower_bound`.
 *
 * A list scheduler, slot by slot (see cg_schedule): lookups first, then
 * the ALU op with the longest path to the end, and a second op in the
 * other unit when dependences, units and the slot's address table allow:
 * 3 RGB and 3 alpha registers, where an RGB swizzle reading A uses the
 * alpha address of the same index and vice versa (ISA.md §6.3).  An open
 * scalar takes the RGB unit (lane R) unless a partner needs it; then it
 * takes alpha (lane A); transcendentals always take alpha.  Readers of a
 * recent lookup wait while other work is ready, to hide its latency.
 *
 * Register pressure: the schedule counts the lanes its live values take
 * (lanes_of).  Under a candidate's limit (cg->pressure_limit, from
 * r500_candidate.c), once the live lanes reach it, ops that do not wait
 * on a lookup go first, then those that free lanes (last readers) before
 * those that keep them level and those that add some, and a lookup that
 * adds more than some ready ALU op waits even when it would gather. */
#include "cg.h"

#include <string.h>

/* A new empty slot at the end (the schedule only ever grows at its end). */
static struct cg_slot *slot_append(struct cg_ctx *cg)
{
	if (cg->nslots + 1 > cg->cap_slots) {
		int ncap = cg->cap_slots ? cg->cap_slots * 2 : 64;
		struct cg_slot *ns = arena_resize(cg->arena, cg->slots,
						   sizeof *ns * (size_t)cg->cap_slots,
						   sizeof *ns * (size_t)ncap);
		if (!ns)
			return cg->failed = true, NULL;
		cg->slots = ns;
		cg->cap_slots = ncap;
	}
	struct cg_slot *s = &cg->slots[cg->nslots++];
	memset(s, 0, sizeof *s);
	s->rgb = s->alpha = s->tex_op = -1;
	return s;
}

static bool addr_eq(const struct cg_addr *a, int file, int index)
{
	return a->file == file && a->index == index;
}

static bool addr_ok(const struct cg_addr *a, int file, int index)
{
	return a->file == CG_FILE_NONE || addr_eq(a, file, index);
}

/* The presubtract's sources go to addresses 0 and 1 of every unit whose
 * srcp some operand reads, and that unit's SRCP_OP must be free. */
static bool fit_presub(const struct cg_ctx *cg, const struct cg_slot *slot, const struct cg_op *op,
		       struct cg_addr rgb[3], struct cg_addr alpha[3], uint8_t srcp[2])
{
	bool need_rgb, need_a;
	cg_op_operand_units(cg, op, CG_PSRC0, &need_rgb, &need_a);
	if ((need_rgb && slot->rgb_srcp) || (need_a && slot->alpha_srcp))
		return false;
	int n = cg_presub_two(op->presub - 1) ? 2 : 1;
	for (int K = 0; K < n; K++) {
		const struct cg_opnd *o = &op->src[CG_PSRC0 + K];
		if ((need_rgb && !addr_ok(&rgb[K], o->file, o->index)) ||
		    (need_a && !addr_ok(&alpha[K], o->file, o->index)))
			return false;
		if (need_rgb)
			rgb[K] = (struct cg_addr){ o->file, o->index };
		if (need_a)
			alpha[K] = (struct cg_addr){ o->file, o->index };
	}
	srcp[0] = need_rgb ? op->presub : 0;
	srcp[1] = need_a ? op->presub : 0;
	return true;
}

/* Places the op's operands in the slot's address table; false if they
 * do not fit (the slot is left unchanged then). */
static bool fit_operands(const struct cg_ctx *cg, struct cg_slot *slot, struct cg_op *op)
{
	struct cg_addr rgb[3], alpha[3];
	uint8_t srcp[2] = { 0, 0 };
	memcpy(rgb, slot->rgb_addr, sizeof rgb);
	memcpy(alpha, slot->alpha_addr, sizeof alpha);
	if (op->presub && !fit_presub(cg, slot, op, rgb, alpha, srcp))
		return false;
	bool deriv = op->opc == CG_MDH || op->opc == CG_MDV;
	for (int k = 0; k < cg_opc_infos[op->opc].nsrc; k++) {
		const struct cg_opnd *o = &op->src[k];
		op->sel[k] = 0;
		if (deriv && k == 2) {
			op->sel[2] = op->sel[0]; /* C is src0 too */
			continue;
		}
		if (o->file == CG_FILE_PRESUB) {
			op->sel[k] = R500_SEL_SRCP;
			continue;
		}
		bool need_rgb, need_a;
		cg_op_operand_units(cg, op, k, &need_rgb, &need_a);
		if (o->file == CG_FILE_NONE || (!need_rgb && !need_a))
			continue;
		int found = -1;
		for (int pass = 0; pass < 2 && found < 0; pass++) {
			for (int K = 0; K < 3 && found < 0; K++) {
				if (deriv && K != 0)
					break;
				bool ok = pass == 0
					? (!need_rgb || addr_eq(&rgb[K], o->file, o->index)) &&
					  (!need_a || addr_eq(&alpha[K], o->file, o->index))
					: (!need_rgb || addr_ok(&rgb[K], o->file, o->index)) &&
					  (!need_a || addr_ok(&alpha[K], o->file, o->index));
				if (ok)
					found = K;
			}
		}
		if (found < 0)
			return false;
		if (need_rgb)
			rgb[found] = (struct cg_addr){ o->file, o->index };
		if (need_a)
			alpha[found] = (struct cg_addr){ o->file, o->index };
		op->sel[k] = (uint8_t)found;
	}
	memcpy(slot->rgb_addr, rgb, sizeof rgb);
	memcpy(slot->alpha_addr, alpha, sizeof alpha);
	if (srcp[0])
		slot->rgb_srcp = srcp[0];
	if (srcp[1])
		slot->alpha_srcp = srcp[1];
	return true;
}

/* The lane a late copy of vreg v wants: when v's only reader copies it,
 * unmodified, into a scalar multi vreg (a loop PHI) whose lane the first
 * copy placed has fixed, coalesce can make v's writer write that vreg
 * only in the same lane (cg_schedule fills copy_of). */
static int wanted_lane(const struct cg_ctx *cg, int v)
{
	int c = cg->copy_of && v >= 0 && v < cg->nvregs ? cg->copy_of[v] : -1;
	if (c < 0)
		return CG_LANE_ANY;
	const struct cg_op *op = &cg->ops[c];
	const struct cg_vreg *p = &cg->vregs[op->dst];
	return op->src[0].mod == R500_MOD_NONE && p->ncomp == 1 && p->array < 0 &&
	       cg->vregs[v].ncomp == 1 ? p->lane[0] : CG_LANE_ANY;
}

/* Units the op can take in this slot (0 = none); fixes an open lane. */
static unsigned pick_units(struct cg_ctx *cg, const struct cg_slot *s, struct cg_op *op,
			   bool commit)
{
	unsigned need = cg_op_units(cg, op);
	unsigned freeu = (s->rgb < 0 ? CG_UNIT_RGB : 0) | (s->alpha < 0 ? CG_UNIT_ALPHA : 0);
	if (need) 
		return (need & freeu) == need ? need : 0;
	/* an open scalar: alpha for a transcendental, else the lane its copy
	 * wants (in a later slot when this one's unit is taken: the copy it
	 * saves costs a slot), else RGB unless a partner needs it */
	int want = wanted_lane(cg, op->dst);
	bool trans = cg_opc_infos[op->opc].transcendental;
	unsigned u = trans ? CG_UNIT_ALPHA
		   : want == 3 ? CG_UNIT_ALPHA /* or a later slot */
		   : want == 0 ? CG_UNIT_RGB
		   : (freeu & CG_UNIT_RGB) && !(op->prefer_alpha && (freeu & CG_UNIT_ALPHA))
		   ? CG_UNIT_RGB : CG_UNIT_ALPHA;
	if (!(freeu & u))
		return 0;
	if (commit && op->dst >= 0)
		cg->vregs[op->dst].lane[0] = u == CG_UNIT_RGB ? 0 : 3;
	return u;
}

bool cg_slot_try_place(struct cg_ctx *cg, int pos, int opi)
{
	struct cg_slot *s = &cg->slots[pos];
	struct cg_op *op = &cg->ops[opi];
	if (s->tex || s->fc)
		return false;
	/* WRITE_INACTIVE is one bit for the slot (emit.c) */
	int other = s->rgb >= 0 ? s->rgb : s->alpha;
	if (other >= 0 && other != opi &&
	    (op->write_inactive ? !cg_op_inactive_safe(cg, &cg->ops[other])
				: cg->ops[other].write_inactive && !cg_op_inactive_safe(cg, op)))
		return false;
	unsigned u = pick_units(cg, s, op, false);
	if (!u)
		return false;
	/* a placed op tried elsewhere (sink, coalesce) keeps its unit and
	 * address indices when it does not fit */
	uint8_t old_unit = op->unit, old_sel[3];
	memcpy(old_sel, op->sel, sizeof old_sel);
	op->unit = (uint8_t)u;
	if (!fit_operands(cg, s, op)) {
		op->unit = old_unit;
		memcpy(op->sel, old_sel, sizeof old_sel);
		return false;
	}
	pick_units(cg, s, op, true);
	if (u & CG_UNIT_RGB)
		s->rgb = opi;
	if (u & CG_UNIT_ALPHA)
		s->alpha = opi;
	op->slot = pos;
	return true;
}

/* Places the ops of slot pos again on empty address tables, in one order
 * and else the other, after a stage changed their lanes (alpha_lanes.c). */
bool cg_slot_refit(struct cg_ctx *cg, int pos)
{
	struct cg_slot *s = &cg->slots[pos];
	if (s->tex || s->fc)
		return true;
	int ops[2] = { s->rgb, s->alpha != s->rgb ? s->alpha : -1 };
	struct cg_slot old = *s;
	for (int order = 0; order < 2; order++) {
		memset(s->rgb_addr, 0, sizeof s->rgb_addr);
		memset(s->alpha_addr, 0, sizeof s->alpha_addr);
		s->rgb = s->alpha = -1;
		s->rgb_srcp = s->alpha_srcp = 0;
		bool ok = true;
		for (int k = 0; k < 2 && ok; k++) {
			int i = ops[order ? 1 - k : k];
			ok = i < 0 || cg_slot_try_place(cg, pos, i);
		}
		if (ok)
			return true;
	}
	*s = old;
	return false;
}

static bool place_tex(struct cg_ctx *cg, int opi, int pos)
{
	struct cg_slot *s = slot_append(cg);
	if (!s)
		return false;
	s->tex = true;
	s->tex_op = opi;
	cg->ops[opi].slot = pos;
	return true;
}

/* A lower bound on ALU slots for the selected ops (see the comment at
 * cg_schedule): unit capacity and the ALU critical path. */
static int lower_bound(const struct cg_ctx *cg)
{
	int r = 0, a = 0, b = 0, f = 0, path = 0;
	int *depth = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nops + 1));
	if (!depth)
		return 0;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		depth[i] = 0;
		if (op->dead || op->opc == CG_FC)
			continue;
		bool tex = cg_opc_infos[op->opc].tex;
		int d = 0;
		for (int k = 0; k < cg_op_nopnd(op); k++) {
			const struct cg_opnd *o = &op->src[k];
			if (o->file != CG_FILE_VREG)
				continue;
			for (int j = 0; j < 4; j++)
				if ((cg_op_entries(op, k) & (1u << j)) && o->swz[j] < 4) {
					int w = cg->vregs[o->index].writer[o->swz[j]];
					if (w >= 0 && depth[w] > d)
						d = depth[w];
				}
		}
		depth[i] = d + (tex ? 0 : 1);
		if (depth[i] > path)
			path = depth[i];
		if (tex)
			continue;
		/* units as isel left them: open scalars count as flexible */
		bool open = op->dst >= 0 && cg->vregs[op->dst].ncomp == 1 &&
			    op->unit == 0 && !cg_opc_infos[op->opc].dot &&
			    !cg_opc_infos[op->opc].transcendental && op->opc != CG_MDH &&
			    op->opc != CG_MDV && cg->vregs[op->dst].lane[0] == CG_LANE_ANY;
		unsigned u = open ? 0 : cg_op_units(cg, op);
		if (!u && cg_opc_infos[op->opc].transcendental)
			u = CG_UNIT_ALPHA;
		if (u == CG_UNIT_BOTH)
			b++;
		else if (u == CG_UNIT_RGB)
			r++;
		else if (u == CG_UNIT_ALPHA)
			a++;
		else
			f++;
	}
	int lb = r + b > a + b ? r + b : a + b;
	int cap = (r + a + f + 2 * b + 1) / 2;
	if (cap > lb)
		lb = cap;
	return path > lb ? path : lb;
}

/* A ready op's place in the candidate order, computed once per slot (the
 * sort compares each pair, and the lookup and presubtract checks walk the
 * op's producers). */
struct rank {
	int op, height, kills;
	int grows;         /* over the pressure limit: 1 placing it adds lanes, -1 frees some */
	bool over;         /* over the pressure limit (alike for every op of a slot) */
	bool feeds_tex, waits_on_tex, presub_stall;
};

/* Dependences of each op: producers of the components it reads, and the
 * previous writer of each output component it writes. */
struct deps {
	int (*pred)[16];
	int *npred;
	int *height;
	bool *feeds_tex;   /* some lookup depends on the op */
	int *succ_start;   /* successors of op i: succ[succ_start[i] .. succ_start[i + 1]) */
	int *succ;
	/* scratch of the group being scheduled */
	int *unplaced;     /* producers not placed yet */
	int *ready_slot;   /* first slot after every placed producer */
	int *avail;        /* members whose producers are all placed */
	bool *member;
	struct rank *rank; /* the ready ops of one slot, in candidate order */
	int *readers;      /* per vreg: ops not yet placed that read it */
	bool *defined;     /* per vreg: some writer placed (or an input) */
	int live, peak;    /* vregs defined and still read; the most so far */
	int lanes, peak_lanes; /* their footprint in lanes (lanes_of); the most so far */
	int limit;         /* lanes past which pressure ranks first (0: no limit) */
	int last_wait;     /* the latest slot that waits on lookups: older ones are done */
	bool *reads_carried; /* op reads a lookup's result through a multi vreg */
	int group_start;   /* first slot of the group being scheduled */
};

/* Register pressure: while the values live are within PRESSURE_SLACK of
 * the most live so far, an op that ends values' lives ranks before a
 * higher one (bench/quality: temps 1.036x -> 0.925x Mesa's on the real
 * world corpus for +0.4 % instructions; slack 0 saves less, 2 costs
 * more). */
enum { PRESSURE_SLACK = 1 };

/* The distinct vregs op reads, into out; returns how many. */
static int vregs_read(const struct cg_op *op, int out[CG_NOPND])
{
	int n = 0;
	for (int k = 0; k < cg_op_nopnd(op); k++) {
		const struct cg_opnd *o = &op->src[k];
		if (o->file != CG_FILE_VREG || !cg_op_entries(op, k))
			continue;
		bool seen = false;
		for (int j = 0; j < n; j++)
			seen |= out[j] == o->index;
		if (!seen)
			out[n++] = o->index;
	}
	return n;
}

/* The lanes a vreg holds a temporary's worth of: a scalar shares its
 * temporary, a vector of two or three components takes the RGB lanes
 * (only a scalar may join it), a vec4 all four. */
static int lanes_of(const struct cg_ctx *cg, int v)
{
	int n = cg->vregs[v].ncomp;
	return n == 1 ? 1 : n == 4 ? 4 : 3;
}

static void count_readers(const struct cg_ctx *cg, struct deps *d)
{
	for (int i = 0; i < cg->nops; i++) {
		if (cg->ops[i].dead)
			continue;
		int v[CG_NOPND], n = vregs_read(&cg->ops[i], v);
		for (int j = 0; j < n; j++)
			d->readers[v[j]]++;
	}
	for (int v = 0; v < cg->nvregs; v++)
		if (cg->vregs[v].input >= 0 && d->readers[v] > 0) {
			d->defined[v] = true;
			d->live++;
			d->lanes += lanes_of(cg, v);
		}
	d->peak = d->live;
	d->peak_lanes = d->lanes;
}

static void placed_reads(const struct cg_ctx *cg, struct deps *d, int i)
{
	int v[CG_NOPND], n = vregs_read(&cg->ops[i], v);
	for (int j = 0; j < n; j++)
		if (--d->readers[v[j]] == 0 && d->defined[v[j]]) {
			d->live--;
			d->lanes -= lanes_of(cg, v[j]);
		}
	int w = cg->ops[i].dst;
	if (w >= 0 && !d->defined[w] && d->readers[w] > 0) {
		d->defined[w] = true;
		d->lanes += lanes_of(cg, w);
		if (d->lanes > d->peak_lanes)
			d->peak_lanes = d->lanes;
		if (++d->live > d->peak)
			d->peak = d->live;
	}
}

/* The lanes placing op i adds to those live: its result's, less those of
 * the values it reads last. */
static int lanes_added(const struct cg_ctx *cg, const struct deps *d, int i)
{
	int v[CG_NOPND], n = vregs_read(&cg->ops[i], v), add = 0;
	for (int j = 0; j < n; j++)
		if (d->readers[v[j]] == 1 && d->defined[v[j]])
			add -= lanes_of(cg, v[j]);
	int w = cg->ops[i].dst;
	if (w >= 0 && !d->defined[w] && d->readers[w] > 0)
		add += lanes_of(cg, w);
	return add;
}

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

/* Whether the live lanes are at the candidate's limit or past it. */
static bool over_limit(const struct deps *d)
{
	return d->limit > 0 && d->lanes >= d->limit;
}

/* Values whose last reader op i is: placing it ends their lives. */
static int kills(const struct cg_ctx *cg, const struct deps *d, int i)
{
	int v[CG_NOPND], n = vregs_read(&cg->ops[i], v), k = 0;
	for (int j = 0; j < n; j++)
		k += d->readers[v[j]] == 1;
	return k;
}

static void add_pred(struct deps *d, int i, int w)
{
	for (int k = 0; k < d->npred[i]; k++)
		if (d->pred[i][k] == w)
			return;
	if (d->npred[i] < 16)
		d->pred[i][d->npred[i]++] = w;
}

/* Successor lists (the preds turned around) and the group scratch. */
static bool build_succ(struct cg_ctx *cg, struct deps *d)
{
	int n = cg->nops, total = 0;
	/* cleared below, not by the arena too */
	d->succ_start = arena_alloc_unzeroed(cg->arena, sizeof(int) * (size_t)(n + 2));
	d->unplaced = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	d->ready_slot = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	d->avail = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	d->member = arena_alloc(cg->arena, sizeof(bool) * (size_t)(n + 1));
	d->rank = arena_alloc(cg->arena, sizeof *d->rank * (size_t)(n + 1));
	if (!d->succ_start || !d->unplaced || !d->ready_slot || !d->avail || !d->member ||
	    !d->rank)
		return cg->failed = true, false;
	memset(d->succ_start, 0, sizeof(int) * (size_t)(n + 2));
	for (int i = 0; i < n; i++)
		for (int k = 0; k < d->npred[i]; k++)
			d->succ_start[d->pred[i][k] + 2]++;
	for (int i = 0; i < n; i++) {
		total += d->succ_start[i + 2];
		d->succ_start[i + 2] = total;
	}
	d->succ = arena_alloc(cg->arena, sizeof(int) * (size_t)(total + 1));
	if (!d->succ)
		return cg->failed = true, false;
	for (int i = 0; i < n; i++) /* succ_start[w + 1] runs as w's fill pointer */
		for (int k = 0; k < d->npred[i]; k++)
			d->succ[d->succ_start[d->pred[i][k] + 1]++] = i;
	return true;
}

/* Lookups whose result only a late copy reads, into a multi vreg p: a
 * loop PHI carrying the lookup to the next trip (loop_prefetch).  The
 * lookup goes after the ops of its region that read p (the value this
 * trip carried in), so that coalesce can make it write p itself: else
 * the copy, at the end of the trip, waits for the lookup in flight, and
 * costs a slot.  Ops that depend on the lookup are left alone (an order
 * they cannot keep), and so are late ones (they go after the region's
 * other ops anyway). */
enum { CARRIED_MAX_LOOKUPS = 64 };

static bool order_carried_lookups(struct cg_ctx *cg, struct deps *d)
{
	int n = cg->nops, done = 0;
	bool *after = NULL; /* ops of the region that depend on the lookup */
	for (int t = 0; t < n && done < CARRIED_MAX_LOOKUPS; t++) {
		const struct cg_op *tx = &cg->ops[t];
		if (tx->dead || !cg_opc_infos[tx->opc].tex || tx->dst < 0 ||
		    cg->vregs[tx->dst].multi)
			continue;
		int copy = cg->copy_of[tx->dst]; /* maybe in a later region */
		if (copy < 0)
			continue;
		const struct cg_op *c = &cg->ops[copy];
		/* the region: the ops between the barriers around t */
		int lo = t, hi = t + 1;
		while (lo > 0 && !(!cg->ops[lo - 1].dead && cg_op_barrier(&cg->ops[lo - 1])))
			lo--;
		while (hi < n && !(!cg->ops[hi].dead && cg_op_barrier(&cg->ops[hi])))
			hi++;
		done++;
		if (!after && !(after = arena_alloc(cg->arena, sizeof(bool) * (size_t)(n + 1))))
			return cg->failed = true, false;
		memset(after + lo, 0, sizeof(bool) * (size_t)(hi - lo));
		after[t] = true;
		for (bool grew = true; grew;) { /* producers may follow their readers */
			grew = false;
			for (int i = lo; i < hi; i++)
				for (int k = 0; !after[i] && k < d->npred[i]; k++) {
					int w = d->pred[i][k];
					if (w >= lo && w < hi && after[w])
						grew = after[i] = true;
				}
		}
		int p = c->dst;
		for (int i = lo; i < hi; i++) {
			const struct cg_op *r = &cg->ops[i];
			if (r->dead || r->late || after[i])
				continue;
			int v[CG_NOPND], k = vregs_read(r, v);
			for (int j = 0; j < k; j++)
				if (v[j] == p)
					add_pred(d, t, i);
		}
	}
	return true;
}

static bool build_deps(struct cg_ctx *cg, struct deps *d)
{
	int n = cg->nops;
	/* not zeroed: an op's entries are read only below its npred */
	d->pred = arena_alloc_unzeroed(cg->arena, sizeof *d->pred * (size_t)(n + 1));
	d->npred = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	d->height = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	d->feeds_tex = arena_alloc(cg->arena, sizeof(bool) * (size_t)(n + 1));
	if (!d->pred || !d->npred || !d->height || !d->feeds_tex)
		return cg->failed = true, false;
	int last_out[CG_OUT_DEPTH + 1][4];
	for (int t = 0; t <= CG_OUT_DEPTH; t++)
		for (int c = 0; c < 4; c++)
			last_out[t][c] = -1;
	for (int i = 0; i < n; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead)
			continue;
		for (int k = 0; k < cg_op_nopnd(op); k++) {
			const struct cg_opnd *o = &op->src[k];
			if (o->file != CG_FILE_VREG)
				continue;
			unsigned ent = cg_op_entries(op, k);
			for (int j = 0; j < 4; j++)
				if ((ent & (1u << j)) && o->swz[j] < 4 &&
				    cg->vregs[o->index].writer[o->swz[j]] >= 0)
					add_pred(d, i, cg->vregs[o->index].writer[o->swz[j]]);
		}
		for (int c = 0; op->out != CG_OUT_NONE && c < 4; c++) /* a later write replaces */
			if (op->wmask & (1u << c)) {
				if (last_out[op->out][c] >= 0)
					add_pred(d, i, last_out[op->out][c]);
				last_out[op->out][c] = i;
			}
	}
	if (!order_carried_lookups(cg, d))
		return false;
	/* height: the longest weighted path to the end; a TEX weighs more so
	 * that lookups and what feeds them go early, hiding their latency */
	for (int i = n - 1; i >= 0; i--)
		d->height[i] += cg_opc_infos[cg->ops[i].opc].tex ? 8 : 1;
	for (int i = n - 1; i >= 0; i--)
		for (int k = 0; k < d->npred[i]; k++) {
			int w = d->pred[i][k];
			int h = d->height[i] + (cg_opc_infos[cg->ops[w].opc].tex ? 8 : 1);
			if (h > d->height[w])
				d->height[w] = h;
			d->feeds_tex[w] |= d->feeds_tex[i] || cg_opc_infos[cg->ops[i].opc].tex;
		}
	return build_succ(cg, d);
}

/* Ops reading a multi vreg that a lookup's result is copied into (or
 * that the lookup writes itself): a loop PHI carrying a lookup issued
 * late in the previous trip (loop_prefetch), or the value after an IF
 * whose branch looked it up.  The lookup is outside the group, so no
 * dependence shows that it may still be in flight. */
static bool mark_carried_reads(struct cg_ctx *cg, struct deps *d)
{
	int n = cg->nops;
	/* cleared below, not by the arena too */
	bool *carried = arena_alloc_unzeroed(cg->arena, sizeof(bool) * (size_t)(cg->nvregs + 1));
	d->reads_carried = arena_alloc_unzeroed(cg->arena, sizeof(bool) * (size_t)(n + 1));
	if (!carried || !d->reads_carried)
		return cg->failed = true, false;
	memset(carried, 0, sizeof(bool) * (size_t)(cg->nvregs + 1));
	memset(d->reads_carried, 0, sizeof(bool) * (size_t)(n + 1));
	for (int i = 0; i < n; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->dst < 0 || !cg->vregs[op->dst].multi)
			continue;
		bool tex = cg_opc_infos[op->opc].tex;
		for (int k = 0; k < cg_op_nopnd(op) && !tex; k++) {
			const struct cg_opnd *o = &op->src[k];
			if (o->file != CG_FILE_VREG || cg->vregs[o->index].multi)
				continue;
			for (int c = 0; c < 4; c++) {
				int w = cg->vregs[o->index].writer[c];
				tex |= w >= 0 && cg_opc_infos[cg->ops[w].opc].tex;
			}
		}
		carried[op->dst] |= tex;
	}
	for (int i = 0; i < n; i++) {
		int v[CG_NOPND], nv = vregs_read(&cg->ops[i], v);
		for (int j = 0; j < nv; j++)
			d->reads_carried[i] |= carried[v[j]];
	}
	return true;
}

/* Whether op i, placed in slot p, reads a carried lookup result that may
 * still be in flight: no slot of its group has waited yet, and the group
 * began less than the latency window ago. */
static bool waits_on_carried(const struct deps *d, int i, int p)
{
	return d->reads_carried[i] && d->last_wait < d->group_start && p - d->group_start < 30;
}

/* Reads a lookup issued less than 30 slots ago (the cost model's window)
 * that no slot has waited for yet: a wait settles every lookup before it. */
static bool waits_on_tex(const struct cg_ctx *cg, const struct deps *d, int i, int p)
{
	for (int k = 0; k < d->npred[i]; k++) {
		const struct cg_op *w = &cg->ops[d->pred[i][k]];
		if (cg_opc_infos[w->opc].tex && w->slot > d->last_wait && p - w->slot - 1 < 30)
			return true;
	}
	return false;
}

/* After slot p is filled: whether it waits, for waits_on_tex (flow
 * control does not: a lookup stays in flight across it, hazards.c). */
static void note_wait(const struct cg_ctx *cg, struct deps *d, int p)
{
	const struct cg_slot *s = &cg->slots[p];
	int ops[3] = { s->rgb, s->alpha, s->tex_op };
	for (int k = 0; k < 3; k++)
		if (ops[k] >= 0 && waits_on_tex(cg, d, ops[k], p))
			d->last_wait = p;
}

/* Whether op i placed in slot p reads a presubtract source that the ALU
 * slot p - 1 writes: the hardware then needs a NOP between them (ISA.md
 * §6.10), a cycle lost. */
static bool presub_stall(const struct cg_ctx *cg, int i, int p)
{
	const struct cg_op *op = &cg->ops[i];
	if (!op->presub || p == 0 || cg->slots[p - 1].tex || cg->slots[p - 1].fc)
		return false;
	for (int k = CG_PSRC0; k < CG_NOPND; k++) {
		const struct cg_opnd *o = &op->src[k];
		unsigned ent = cg_op_entries(op, k);
		for (int j = 0; j < 4 && o->file == CG_FILE_VREG; j++) {
			int w = (ent & (1u << j)) && o->swz[j] < 4
				? cg->vregs[o->index].writer[o->swz[j]] : -1;
			if (w >= 0 && cg->ops[w].slot == p - 1)
				return true;
		}
	}
	return false;
}

static struct rank rank_of(const struct cg_ctx *cg, const struct deps *d, int i, int p)
{
	bool pressed = d->live >= d->peak - PRESSURE_SLACK;
	return (struct rank){ .op = i, .height = d->height[i],
			      .kills = pressed ? kills(cg, d, i) : 0,
			      .grows = over_limit(d) ? sign(lanes_added(cg, d, i)) : 0,
			      .over = over_limit(d),
			      .feeds_tex = d->feeds_tex[i],
			      .waits_on_tex = waits_on_tex(cg, d, i, p) ||
					      waits_on_carried(d, i, p),
			      .presub_stall = presub_stall(cg, i, p) };
}

/* Candidate order: past the pressure limit not waiting on a lookup and
 * lanes freed before lanes added; then feeding a lookup, not waiting on
 * one, no presubtract stall, under pressure more values ended, greater
 * height, program order. */
static bool better(const struct rank *a, const struct rank *b)
{
	if (a->over && a->waits_on_tex != b->waits_on_tex)
		return !a->waits_on_tex;
	if (a->grows != b->grows)
		return a->grows < b->grows;
	if (a->feeds_tex != b->feeds_tex)
		return a->feeds_tex;
	if (a->waits_on_tex != b->waits_on_tex)
		return !a->waits_on_tex;
	if (a->presub_stall != b->presub_stall)
		return !a->presub_stall;
	if (a->kills != b->kills)
		return a->kills > b->kills;
	if (a->height != b->height)
		return a->height > b->height;
	return a->op < b->op;
}

static bool is_open_scalar(const struct cg_ctx *cg, const struct cg_op *op)
{
	return cg_op_units(cg, op) == 0 && !cg_opc_infos[op->opc].transcendental;
}

static bool fill_alu_slot(struct cg_ctx *cg, const struct deps *d, int *ready, int nready,
			  int p)
{
	/* sort the ready ops by preference (few: insertion sort) */
	struct rank *r = d->rank;
	for (int i = 0; i < nready; i++) {
		struct rank v = rank_of(cg, d, ready[i], p);
		int j = i - 1;
		while (j >= 0 && better(&v, &r[j])) {
			r[j + 1] = r[j];
			j--;
		}
		r[j + 1] = v;
	}
	for (int i = 0; i < nready; i++)
		ready[i] = r[i].op;
	int first = ready[0];
	struct cg_op *op = &cg->ops[first];
	if (is_open_scalar(cg, op)) /* leave RGB to a partner that needs it */
		for (int i = 1; i < nready; i++)
			if (cg_op_units(cg, &cg->ops[ready[i]]) == CG_UNIT_RGB)
				op->prefer_alpha = true;
	if (!cg_slot_try_place(cg, p, first))
		return cg_error(cg, op->loc, "internal error: operation %s does not fit an empty "
				"slot", cg_opc_infos[op->opc].name);
	/* A partner that waits on a lookup makes the whole slot wait.  Held
	 * back, it may pair later in a slot that waits anyway, and the work
	 * before that slot hides more of the latency; but it may also take a
	 * slot of its own.  r500_compile compiles both ways and keeps the
	 * cheaper (hold_waiting_partners). */
	for (int i = 1; i < nready; i++) {
		const struct cg_slot *s = &cg->slots[p];
		if (s->rgb >= 0 && s->alpha >= 0)
			break;
		if (cg->hold_waiting_partners && r[i].waits_on_tex && !r[0].waits_on_tex) {
			cg->held_waiting_partner = true;
			continue;
		}
		cg_slot_try_place(cg, p, ready[i]);
	}
	return true;
}

/* Past the pressure limit, whether some ready ALU op adds fewer lanes
 * than `than` (a lookup's): the lookup waits for it, however it gathers. */
static bool alu_grows_less(const struct cg_ctx *cg, const struct deps *d, const int *ready,
			   int nready, int than, int p)
{
	for (int k = 0; k < nready; k++)
		if (lanes_added(cg, d, ready[k]) < than && !waits_on_tex(cg, d, ready[k], p) &&
		    !waits_on_carried(d, ready[k], p))
			return true;
	return false;
}

/* One group of a region: the ops in [lo, hi) that are not barriers and
 * whose `late` flag is `late`, list-scheduled into new slots.  Readiness
 * is kept as the group goes (producers left, first slot after them), so a
 * slot costs the ops available then, not the whole region. */
static bool schedule_group(struct cg_ctx *cg, struct deps *d, int *ready, int lo, int hi,
			   bool late)
{
	int live = 0, placed = 0, navail = 0;
	d->group_start = cg->nslots;
	for (int i = lo; i < hi; i++) {
		const struct cg_op *op = &cg->ops[i];
		d->member[i] = !op->dead && !cg_op_barrier(op) && op->late == late;
		if (!d->member[i])
			continue;
		live++;
		d->unplaced[i] = d->ready_slot[i] = 0;
		for (int k = 0; k < d->npred[i]; k++) {
			int s = cg->ops[d->pred[i][k]].slot;
			if (s < 0)
				d->unplaced[i]++;
			else if (s + 1 > d->ready_slot[i])
				d->ready_slot[i] = s + 1;
		}
		if (!d->unplaced[i])
			d->avail[navail++] = i;
	}
	while (placed < live) {
		int p = cg->nslots, nready = 0, tex = -1;
		bool feeding = false;
		for (int k = 0; k < navail; k++) {
			int i = d->avail[k];
			if (d->ready_slot[i] > p)
				continue;
			if (cg_opc_infos[cg->ops[i].opc].tex) {
				if (tex < 0 || d->height[i] > d->height[tex] ||
				    (d->height[i] == d->height[tex] && i < tex))
					tex = i;
			} else {
				ready[nready++] = i;
				feeding |= d->feeds_tex[i];
			}
		}
		/* lookups wait while ALU work for other lookups is ready, so that
		 * they issue together as one run; a run once begun takes every
		 * ready lookup (ALU work made ready by the run's own results
		 * must not split it) */
		bool in_run = p > 0 && cg->slots[p - 1].tex && cg->slots[p - 1].tex_op >= lo &&
			      cg->slots[p - 1].tex_op < hi;
		bool take_tex = tex >= 0 && (in_run || !feeding);
		if (tex >= 0 && nready > 0 && over_limit(d))
			take_tex = !alu_grows_less(cg, d, ready, nready, lanes_added(cg, d, tex), p);
		if (take_tex) {
			if (!place_tex(cg, tex, p))
				return false;
		} else if (nready == 0) {
			return cg_error(cg, (struct src_loc){ 0 }, "internal error: nothing ready to "
					"schedule");
		} else if (!slot_append(cg) || !fill_alu_slot(cg, d, ready, nready, p)) {
			return false;
		}
		note_wait(cg, d, p);
		/* what this slot placed leaves the available list and frees its
		 * successors of the group */
		int keep = 0, before = navail;
		for (int k = 0; k < before; k++) {
			int i = d->avail[k];
			if (cg->ops[i].slot < 0) {
				d->avail[keep++] = i;
				continue;
			}
			placed++;
			placed_reads(cg, d, i);
			for (int j = d->succ_start[i]; j < d->succ_start[i + 1]; j++) {
				int sc = d->succ[j];
				if (!d->member[sc] || cg->ops[sc].slot >= 0)
					continue;
				if (p + 1 > d->ready_slot[sc])
					d->ready_slot[sc] = p + 1;
				if (--d->unplaced[sc] == 0)
					d->avail[navail++] = sc;
			}
		}
		/* newly available ops were appended after the old entries */
		for (int k = before; k < navail; k++)
			d->avail[keep++] = d->avail[k];
		navail = keep;
	}
	return true;
}

/* A barrier in a slot of its own after everything before it. */
static bool place_barrier(struct cg_ctx *cg, int opi)
{
	int p = cg->nslots;
	struct cg_slot *s = slot_append(cg);
	if (!s)
		return false;
	if (cg->ops[opi].opc == CG_FC) {
		s->fc = true;
		s->tex_op = opi;
		cg->ops[opi].slot = p;
		return true;
	}
	if (!cg_slot_try_place(cg, p, opi))
		return cg_error(cg, cg->ops[opi].loc, "internal error: condition does not fit a "
				"slot");
	return true;
}

/* copy_of[v]: v's only reader when it is a late copy of v (its first
 * operand) into a multi vreg, -1 otherwise. */
static bool find_copies_of(struct cg_ctx *cg)
{
	int n = cg->nvregs;
	int *copy = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	int *readers = arena_alloc(cg->arena, sizeof(int) * (size_t)(n + 1));
	if (!copy || !readers)
		return cg->failed = true, false;
	for (int v = 0; v < n; v++)
		copy[v] = -1, readers[v] = 0;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead)
			continue;
		int v[CG_NOPND], k = vregs_read(op, v);
		for (int j = 0; j < k; j++) {
			readers[v[j]]++;
			if (op->late && op->dst >= 0 && cg->vregs[op->dst].multi &&
			    op->src[0].file == CG_FILE_VREG && op->src[0].index == v[j])
				copy[v[j]] = i;
		}
	}
	for (int v = 0; v < n; v++)
		if (readers[v] != 1)
			copy[v] = -1;
	cg->copy_of = copy;
	return true;
}

/* Figures: pairs = ALU slots holding two different ops (RGB + alpha
 * co-issue).  lower_bound = max(rgb-unit ops + vec4 ops, alpha-unit ops +
 * vec4 ops, ceil(all unit work / 2), longest chain of dependent ALU ops):
 * every op needs a distinct slot in each unit it occupies, each slot
 * offers one RGB and one alpha unit, and dependent ops cannot share a
 * slot.  It bounds the ALU slots for this selection of ops, not for every
 * possible selection.
 *
 * The schedule is a list schedule, region by region (the ops between two
 * barriers, cg_op.late): slot by slot, a ready lookup gets the next slot
 * unless ALU work feeding another lookup is ready (so lookups issue
 * together as one TEX run); otherwise the best ready op (see `better`)
 * takes a new ALU slot and the next ready ops that fit share it
 * (co-issue).  The region's late copies follow, then the barrier. */
bool cg_schedule(struct cg_ctx *cg)
{
	struct deps d;
	cg->lower_bound = lower_bound(cg);
	if (!find_copies_of(cg))
		return false;
	if (!build_deps(cg, &d))
		return false;
	int *ready = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nops + 1));
	d.readers = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nvregs + 1));
	d.defined = arena_alloc(cg->arena, sizeof(bool) * (size_t)(cg->nvregs + 1));
	d.live = d.peak = d.lanes = d.peak_lanes = 0;
	d.limit = cg->pressure_limit;
	d.last_wait = -1;
	if (!ready || !d.readers || !d.defined)
		return cg->failed = true, false;
	count_readers(cg, &d);
	if (!mark_carried_reads(cg, &d))
		return false;
	int lo = 0;
	for (int i = 0; i <= cg->nops; i++) {
		if (i < cg->nops && (cg->ops[i].dead || !cg_op_barrier(&cg->ops[i])))
			continue;
		if (!schedule_group(cg, &d, ready, lo, i, false) ||
		    !schedule_group(cg, &d, ready, lo, i, true))
			return false;
		if (i < cg->nops) {
			if (!place_barrier(cg, i))
				return false;
			note_wait(cg, &d, cg->nslots - 1);
			placed_reads(cg, &d, i);
		}
		lo = i + 1;
	}
	cg->peak_lanes = d.peak_lanes;
	cg->pairs = 0;
	for (int p = 0; p < cg->nslots; p++) {
		const struct cg_slot *s = &cg->slots[p];
		if (!s->tex && !s->fc && s->rgb >= 0 && s->alpha >= 0 && s->rgb != s->alpha)
			cg->pairs++;
	}
	return !cg->failed;
}
