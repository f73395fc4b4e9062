/* Register allocation over the 128 temporaries, lane by lane.
 *
 * Needs: scheduled ops (every op has its slot, every written lane fixed).
 * Gives: vreg->temp for every vreg with a live component; inputs keep their
 * pre-coloured temporaries; cg->temps_used.
 *
 * Each vreg component lives from the slot that writes it to the last slot
 * that reads it, in half-slot time: written at 2s, read at 2u, so a value
 * may take the lanes of one whose last read is in the same slot (reads
 * happen before writes).  Inputs are written before slot 0.  A vreg keeps
 * its lanes (the scheduler fixed them) and takes the lowest temporary whose
 * lanes are all free over its components' ranges, so values of different
 * lanes share temporaries.
 *
 * A lookup's result reserves its whole temporary from the TEX to its
 * first reader (tex_window): another value's read or write of the
 * temporary in that window would make the hardware wait for the lookup.
 *
 * Flow control: a multi vreg (PHI, output latch) lives from its first
 * write to its last read or write.  Slot order is a valid linear order
 * for branches (a pixel that skips a branch keeps its registers: writes
 * are masked by the active state), but not for loops: a component live
 * somewhere in a loop that is defined before it or read after it is
 * live over the whole loop, back edge included.  cg_regalloc_check re-runs the program on
 * value names to prove the assignment, without trusting these ranges.
 *
 * The same ranges make WRITE_INACTIVE safe (cg_op.write_inactive): such
 * an op writes only a plain SSA vreg (cg_op_inactive_safe, checked by
 * cg_validate), whose range starts at its write.  A pixel inactive there
 * resumes later in slot order (past an ELSE, ENDIF or ENDLOOP) or at a
 * loop head; whatever it still needs is read there or later, so in slot
 * order its range spans the write (or the loop holding it), and no
 * temporary lane holding it is ever given to the written vreg. */
#include "cg.h"

#include <stdio.h>
#include <string.h>


struct lane_occ {
	struct cg_range *v;
	int n, cap;
};

struct ra {
	struct cg_ctx *cg;
	/* by temporary and lane, for the temporaries some value took so far
	 * (the rest are free): sized as they are taken, since zeroing all
	 * 128 (8 KiB) was a tenth of a small shader's backend */
	struct lane_occ (*occ)[4];
	int nocc;
	int now;            /* the start of the vreg being assigned (occ_free) */
	int (*last)[4];     /* per vreg component: last reading slot, -1 none */
	int (*wfirst)[4], (*wlast)[4]; /* first and last writing slot, -1 none */
	struct cg_range (*rng)[4];          /* live range, a > b when none */
	int *first_read;               /* per vreg: first reading slot, -1 none */
	bool *lane_fixed;              /* per vreg: read by a presubtract, which works
					  lane by lane on its operands' temporaries, or
					  as a derivative's src0 (no swizzle: ISA.md §4) */
};

static bool occ_add(struct ra *ra, int t, int lane, struct cg_range iv)
{
	if (t < 0 || t >= R500_NUM_TEMPS)
		return false;
	struct lane_occ(*occ)[4] = cg_room(ra->cg, ra->occ, &ra->nocc, t + 1, sizeof *ra->occ, true);
	if (!occ)
		return false;
	ra->occ = occ;
	struct lane_occ *o = &ra->occ[t][lane];
	if (o->n == o->cap) {
		int ncap = o->cap ? o->cap * 2 : 8;
		struct cg_range *nv = arena_realloc(ra->cg->arena, o->v, sizeof *nv * (size_t)o->cap,
					       sizeof *nv * (size_t)ncap);
		if (!nv)
			return false;
		o->v = nv;
		o->cap = ncap;
	}
	o->v[o->n++] = iv;
	return true;
}

/* Whether lane `lane` of temporary t is free over iv.  The vregs come
 * in order of their starts and every range asked about begins at the
 * current one's start or later (ra->now), so a range ending by then can
 * meet none again: it leaves the list (the lists grew with the program,
 * and each look walked them whole). */
static bool occ_free(struct ra *ra, int t, int lane, struct cg_range iv)
{
	if (t >= ra->nocc)
		return true;
	struct lane_occ *o = &ra->occ[t][lane];
	for (int i = 0; i < o->n;) {
		if (o->v[i].b <= ra->now) {
			o->v[i] = o->v[--o->n];
			continue;
		}
		if (iv.a < o->v[i].b && o->v[i].a < iv.b)
			return false;
		i++;
	}
	return true;
}

/* Live range of component c of vreg v; false if it is never written. */
static bool comp_range(const struct ra *ra, int v, int c, struct cg_range *iv)
{
	const struct cg_vreg *r = &ra->cg->vregs[v];
	int def, lastw;
	if (r->input >= 0)
		def = lastw = -1;
	else if (ra->wfirst[v][c] >= 0)
		def = ra->wfirst[v][c], lastw = ra->wlast[v][c];
	else
		return false;
	int use = ra->last[v][c];
	iv->a = 2 * def;
	iv->b = use >= 0 ? 2 * use : 2 * def + 1;
	if (2 * lastw + 1 > iv->b)
		iv->b = 2 * lastw + 1;
	if (r->input >= 0 && use < 0)
		return false; /* an input component nobody reads */
	return true;
}

/* Widens ranges over the loops they cross (see the header). */
static void extend_loops(struct ra *ra)
{
	struct cg_ctx *cg = ra->cg;
	for (bool changed = true; changed;) {
		changed = false;
		for (int l = 0; l < cg->nloops; l++) {
			int ls = 2 * cg->ops[cg->loops[l][0]].slot;
			int le = 2 * cg->ops[cg->loops[l][1]].slot + 1;
			for (int v = 0; v < cg->nvregs; v++)
				for (int c = 0; c < 4; c++) {
					struct cg_range *iv = &ra->rng[v][c];
					if (iv->a > iv->b || iv->b <= ls || iv->a >= le)
						continue; /* no range, or outside the loop */
					if (iv->a >= ls && iv->b <= le)
						continue; /* wholly inside */
					if (iv->a > ls || iv->b < le) {
						iv->a = iv->a < ls ? iv->a : ls;
						iv->b = iv->b > le ? iv->b : le;
						changed = true;
					}
				}
		}
	}
}

static void note_write(struct ra *ra, int v, unsigned mask, int slot)
{
	for (int c = 0; c < 4; c++) {
		if (!(mask & (1u << c)))
			continue;
		int *f = &ra->wfirst[v][c], *l = &ra->wlast[v][c];
		if (*f < 0 || slot < *f)
			*f = slot;
		if (slot > *l)
			*l = slot;
	}
}

/* An aL write or read may reach any element of its array: it counts as a
 * write or read of each (the same components). */
static const struct cg_array *rel_array(const struct cg_ctx *cg, int v)
{
	int a = cg->vregs[v].array;
	return a >= 0 && a < cg->narrays ? &cg->arrays[a] : NULL;
}

static void note_writes(struct ra *ra)
{
	struct cg_ctx *cg = ra->cg;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead || op->dst < 0 || op->slot < 0)
			continue;
		const struct cg_array *arr = op->dst_rel ? rel_array(cg, op->dst) : NULL;
		for (int e = 0; arr && e < arr->n; e++)
			note_write(ra, arr->vreg[e], op->wmask, op->slot);
		if (!arr)
			note_write(ra, op->dst, op->wmask, op->slot);
	}
}

static void note_read(struct ra *ra, int v, unsigned comps, int slot)
{
	for (int c = 0; c < 4; c++)
		if ((comps & (1u << c)) && ra->last[v][c] < slot)
			ra->last[v][c] = slot;
	if (comps && (ra->first_read[v] < 0 || slot < ra->first_read[v]))
		ra->first_read[v] = slot;
}

static void note_uses(struct ra *ra)
{
	struct cg_ctx *cg = ra->cg;
	for (int i = 0; i < cg->nops; i++) {
		const struct cg_op *op = &cg->ops[i];
		if (op->dead)
			continue;
		for (int k = 0; k < cg_op_nopnd(op); k++) {
			const struct cg_opnd *o = &op->src[k];
			if (o->file == CG_FILE_TEMP_REL) {
				const struct cg_array *arr = rel_array(cg, o->index);
				for (int e = 0; arr && e < arr->n; e++)
					note_read(ra, arr->vreg[e], (1u << arr->ncomp) - 1, op->slot);
				continue;
			}
			note_read(ra, o->index, cg_op_vreg_comps(op, k), op->slot);
			bool quad_read = k == 0 && (op->opc == CG_MDH || op->opc == CG_MDV);
			if ((k >= CG_PSRC0 || quad_read) && o->file == CG_FILE_VREG)
				ra->lane_fixed[o->index] = true;
		}
	}
}

/* A lookup's result in flight: from its TEX slot to the slot of its first
 * reader, the hardware waits for it at any read or write of its temporary
 * (hazards.c), so no other value may use the temporary's other lanes
 * then.  The window, or an empty one when v is no lookup's result. */
static struct cg_range tex_window(const struct ra *ra, int v)
{
	const struct cg_ctx *cg = ra->cg;
	const struct cg_vreg *r = &cg->vregs[v];
	for (int c = 0; c < r->ncomp; c++) {
		int w = r->writer[c];
		if (w < 0 || !cg_opc_infos[cg->ops[w].opc].tex || cg->ops[w].slot < 0 ||
		    ra->first_read[v] < 0)
			continue;
		return (struct cg_range){ 2 * cg->ops[w].slot, 2 * ra->first_read[v] };
	}
	return (struct cg_range){ 1, 0 };
}

static bool out_of_temps(struct cg_ctx *cg)
{
	cg->over_limit = true;
	return cg_error(cg, (struct src_loc){ 0 }, "shader needs more than %d temporaries "
			"(R500 limit)", R500_NUM_TEMPS);
}

/* A local array's elements: the lowest run of consecutive temporaries
 * whose lanes are free over each element's ranges (plan_arrays.c). */
static bool assign_array(struct ra *ra, const struct cg_array *arr)
{
	struct cg_ctx *cg = ra->cg;
	for (int t = 0; t + arr->n <= R500_NUM_TEMPS; t++) {
		bool ok = true;
		for (int e = 0; ok && e < arr->n; e++)
			for (int c = 0; ok && c < arr->ncomp; c++) {
				struct cg_range iv = ra->rng[arr->vreg[e]][c];
				ok = iv.a > iv.b || occ_free(ra, t + e, c, iv);
			}
		if (!ok)
			continue;
		for (int e = 0; e < arr->n; e++) {
			for (int c = 0; c < arr->ncomp; c++) {
				struct cg_range iv = ra->rng[arr->vreg[e]][c];
				if (iv.a <= iv.b && !occ_add(ra, t + e, c, iv))
					return cg->failed = true, false;
			}
			cg->vregs[arr->vreg[e]].temp = t + e;
		}
		if (t + arr->n > cg->temps_used)
			cg->temps_used = t + arr->n;
		return true;
	}
	return out_of_temps(cg);
}

/* An op whose lanes regalloc may choose: it writes only its vreg, in the
 * RGB unit (a transcendental through SOP, which gives R, G and B alike),
 * nothing that fixes a lane (an output, the ALU result, an element of an
 * array), and is no derivative (MDH/MDV take their lanes as they are) or
 * lookup. */
static bool op_lanes_free(const struct cg_ctx *cg, const struct cg_op *op, int v)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	unsigned units = info->transcendental ? CG_UNIT_BOTH : CG_UNIT_RGB;
	return !op->dead && op->dst == v && op->out == CG_OUT_NONE && !op->alu_result &&
	       !op->pred_write && !op->dst_rel && !info->tex && op->opc != CG_MDH &&
	       op->opc != CG_MDV && cg_op_units(cg, op) == units;
}

/* Whether v (up to three components, all in R, G, B) may take any lanes
 * of R, G, B: every op writing it is one op_lanes_free allows, and no
 * presubtract or derivative reads it (ra.lane_fixed).  Readers find v by
 * lane: emit resolves their swizzles from the lanes regalloc sets. */
static bool rgb_lanes_free(const struct ra *ra, int v)
{
	const struct cg_ctx *cg = ra->cg;
	const struct cg_vreg *r = &cg->vregs[v];
	if (r->ncomp > 3 || r->input >= 0 || r->multi || r->array >= 0 || ra->lane_fixed[v])
		return false;
	for (int c = 0; c < r->ncomp; c++)
		if (r->lane[c] > 2 || r->writer[c] < 0 ||
		    !op_lanes_free(cg, &cg->ops[r->writer[c]], v))
			return false;
	return true;
}

/* Lanes of R, G, B for v's components, all different, where the live
 * ones are free in temporary t: into lane[], true when found. */
static bool pick_rgb_lanes(struct ra *ra, int t, const struct cg_vreg *r,
			   const struct cg_range *iv, const bool *live, uint8_t lane[4])
{
	int n = r->ncomp;
	for (int k = 0; k < 27; k++) {
		uint8_t l[3] = { (uint8_t)(k % 3), (uint8_t)(k / 3 % 3), (uint8_t)(k / 9) };
		if ((n < 3 && l[2]) || (n < 2 && l[1]))
			continue; /* each choice once */
		bool ok = true;
		for (int c = 0; ok && c < n; c++) {
			for (int d = 0; d < c; d++)
				ok &= l[c] != l[d];
			ok = ok && (!live[c] || occ_free(ra, t, l[c], iv[c]));
		}
		if (ok) {
			memcpy(lane, l, (size_t)n);
			return true;
		}
	}
	return false;
}

static bool assign(struct ra *ra, int v)
{
	struct cg_ctx *cg = ra->cg;
	struct cg_vreg *r = &cg->vregs[v];
	if (r->array >= 0)
		return r->temp >= 0 || assign_array(ra, &cg->arrays[r->array]);
	struct cg_range iv[4];
	bool live[4] = { false };
	bool any = false;
	for (int c = 0; c < r->ncomp; c++) {
		iv[c] = ra->rng[v][c];
		live[c] = iv[c].a <= iv[c].b;
		if (live[c] && r->lane[c] == CG_LANE_ANY)
			return cg_error(cg, (struct src_loc){ 0 }, "internal error: vreg %d has no lane", v);
		any |= live[c];
	}
	if (!any)
		return true;
	struct cg_range win = tex_window(ra, v);
	bool own[4] = { false, false, false, false };
	for (int c = 0; c < r->ncomp; c++)
		own[r->lane[c] & 3] |= live[c];
	int t0 = r->temp >= 0 ? r->temp : 0, t1 = r->temp >= 0 ? r->temp + 1 : R500_NUM_TEMPS;
	bool free_lanes = rgb_lanes_free(ra, v);
	for (int t = t0; t < t1; t++) {
		bool ok = true;
		for (int c = 0; ok && c < r->ncomp; c++)
			ok = !live[c] || occ_free(ra, t, r->lane[c], iv[c]);
		/* a value of the RGB unit takes other lanes of R, G, B where its
		 * own are taken */
		if (!ok && free_lanes)
			ok = pick_rgb_lanes(ra, t, r, iv, live, r->lane);
		for (int l = 0; ok && l < 4 && win.a < win.b; l++)
			ok = own[l] || occ_free(ra, t, l, win);
		if (!ok && r->input < 0)
			continue;
		for (int c = 0; c < r->ncomp; c++)
			if (live[c] && !occ_add(ra, t, r->lane[c], iv[c]))
				return cg->failed = true, false;
		for (int l = 0; l < 4 && win.a < win.b && r->input < 0; l++)
			if (!own[l] && !occ_add(ra, t, l, win))
				return cg->failed = true, false;
		r->temp = t;
		if (t + 1 > cg->temps_used)
			cg->temps_used = t + 1;
		return true;
	}
	return out_of_temps(cg);
}

enum { NO_START = 1 << 30 };

static int start_of(const struct ra *ra, int v)
{
	const struct cg_vreg *r = &ra->cg->vregs[v];
	if (r->input >= 0)
		return -3;
	int s = NO_START;
	for (int c = 0; c < r->ncomp; c++)
		if (ra->rng[v][c].a <= ra->rng[v][c].b && ra->rng[v][c].a < s)
			s = ra->rng[v][c].a;
	return s;
}

/* A start's place among nkeys keys: -3 (inputs) first, NO_START last. */
static int sort_key(int start, int nkeys)
{
	return start == NO_START ? nkeys - 1 : start + 3;
}

/* The ranges of every vreg component, in half-slot time (see the header). */
static struct ra *ra_ranges(struct cg_ctx *cg)
{
	struct ra *ra = arena_alloc(cg->arena, sizeof *ra);
	if (!ra)
		return cg->failed = true, NULL;
	memset(ra, 0, sizeof *ra);
	ra->cg = cg;
	size_t nv = (size_t)(cg->nvregs + 1);
	ra->last = arena_alloc(cg->arena, sizeof *ra->last * nv);
	ra->wfirst = arena_alloc(cg->arena, sizeof *ra->wfirst * nv);
	ra->wlast = arena_alloc(cg->arena, sizeof *ra->wlast * nv);
	ra->rng = arena_alloc(cg->arena, sizeof *ra->rng * nv);
	ra->first_read = arena_alloc(cg->arena, sizeof *ra->first_read * nv);
	ra->lane_fixed = arena_alloc(cg->arena, sizeof *ra->lane_fixed * nv);
	if (!ra->last || !ra->wfirst || !ra->wlast || !ra->rng || !ra->first_read ||
	    !ra->lane_fixed)
		return cg->failed = true, NULL;
	for (int v = 0; v < cg->nvregs; v++) {
		ra->first_read[v] = -1;
		ra->lane_fixed[v] = false;
		for (int c = 0; c < 4; c++)
			ra->last[v][c] = ra->wfirst[v][c] = ra->wlast[v][c] = -1;
	}
	note_uses(ra);
	note_writes(ra);
	for (int v = 0; v < cg->nvregs; v++)
		for (int c = 0; c < 4; c++)
			if (c >= cg->vregs[v].ncomp || !comp_range(ra, v, c, &ra->rng[v][c]))
				ra->rng[v][c] = (struct cg_range){ 1, 0 };
	extend_loops(ra);
	return ra;
}

bool cg_live_ranges(struct cg_ctx *cg, struct cg_range (**rng)[4], const bool **lane_fixed)
{
	struct ra *ra = ra_ranges(cg);
	if (!ra)
		return false;
	cg->live = ra;
	*rng = ra->rng;
	*lane_fixed = ra->lane_fixed;
	return true;
}

bool cg_regalloc(struct cg_ctx *cg)
{
	struct ra *ra = cg->live ? cg->live : ra_ranges(cg);
	cg->live = NULL;
	int *order = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nvregs + 1));
	int *start = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nvregs + 1));
	if (!ra || !order || !start)
		return cg->failed = true, false;
	cg->temps_used = cg->ninput_temps;
	/* inputs first (pre-coloured), then by first write: a linear scan;
	 * a counting sort by start keeps equal starts in vreg order (an
	 * insertion sort was quadratic in long shaders) */
	int n = cg->nvregs, top = 0;
	for (int v = 0; v < n; v++) {
		start[v] = start_of(ra, v);
		if (start[v] != NO_START && start[v] > top)
			top = start[v];
	}
	/* keys: an input's -3 first, starts from -2 up, no range last */
	int nkeys = top + 5;
	int *at = arena_alloc(cg->arena, sizeof(int) * (size_t)(nkeys + 1));
	if (!at)
		return cg->failed = true, false;
	memset(at, 0, sizeof(int) * (size_t)(nkeys + 1));
	for (int v = 0; v < n; v++)
		at[sort_key(start[v], nkeys) + 1]++;
	for (int k = 1; k <= nkeys; k++)
		at[k] += at[k - 1];
	for (int v = 0; v < n; v++)
		order[at[sort_key(start[v], nkeys)]++] = v;
	for (int i = 0; i < n; i++) {
		ra->now = start[order[i]];
		if (!assign(ra, order[i]))
			return false;
	}
	return !cg->failed;
}

/* --- the checker: re-simulates which value each lane holds --- */

/* An aL read may reach every element: each must be in place. */
static bool check_array_read(const struct cg_ctx *cg, const struct cg_op *op, int k,
			     int (*hold)[4], int slot, char *why, size_t len)
{
	const struct cg_array *arr = rel_array(cg, op->src[k].index);
	for (int e = 0; arr && e < arr->n; e++) {
		int v = arr->vreg[e];
		const struct cg_vreg *r = &cg->vregs[v];
		for (int c = 0; c < arr->ncomp; c++)
			if (r->temp < 0 || r->temp >= R500_NUM_TEMPS ||
			    hold[r->temp][c] != v * 4 + c + 1) {
				snprintf(why, len, "slot %d: an aL read of array v%d finds element "
					 "v%d.%c not in t%d", slot, op->src[k].index, v, "xyzw"[c],
					 r->temp);
				return false;
			}
	}
	return true;
}

static bool check_reads(const struct cg_ctx *cg, const struct cg_op *op, int (*hold)[4],
			int slot, char *why, size_t len)
{
	for (int k = 0; k < cg_op_nopnd(op); k++) {
		const struct cg_opnd *o = &op->src[k];
		if (o->file == CG_FILE_TEMP_REL) {
			if (!check_array_read(cg, op, k, hold, slot, why, len))
				return false;
			continue;
		}
		if (o->file != CG_FILE_VREG)
			continue;
		const struct cg_vreg *r = &cg->vregs[o->index];
		unsigned ent = cg_op_entries(op, k);
		for (int j = 0; j < 4; j++) {
			if (!(ent & (1u << j)) || o->swz[j] >= 4)
				continue;
			int c = o->swz[j], lane = r->lane[c];
			if (r->temp < 0 || r->temp >= R500_NUM_TEMPS || lane > 3) {
				snprintf(why, len, "slot %d: v%d.%c has no register", slot, o->index,
					 "xyzw"[c]);
				return false;
			}
			if (hold[r->temp][lane] != o->index * 4 + c + 1) {
				snprintf(why, len, "slot %d: %s reads v%d.%c from t%d.%c, which holds "
					 "something else", slot, cg_opc_infos[op->opc].name, o->index,
					 "xyzw"[c], r->temp, "xyzw"[lane]);
				return false;
			}
		}
	}
	return true;
}

static void apply_write(const struct cg_ctx *cg, int v, unsigned wmask, int (*hold)[4])
{
	const struct cg_vreg *r = &cg->vregs[v];
	for (int c = 0; c < 4; c++)
		if ((wmask & (1u << c)) && r->temp >= 0 && r->temp < R500_NUM_TEMPS &&
		    r->lane[c] < 4)
			hold[r->temp][r->lane[c]] = v * 4 + c + 1;
}

/* An aL write (plan_arrays.c) lands in one element of its array, each
 * keeping its own value otherwise. */
static void apply_writes(const struct cg_ctx *cg, const struct cg_op *op, int (*hold)[4])
{
	if (op->dst < 0)
		return;
	const struct cg_array *arr = op->dst_rel ? rel_array(cg, op->dst) : NULL;
	for (int e = 0; arr && e < arr->n; e++)
		apply_write(cg, arr->vreg[e], op->wmask, hold);
	if (!arr)
		apply_write(cg, op->dst, op->wmask, hold);
}

bool cg_regalloc_check(const struct cg_ctx *cg, char *why, size_t len)
{
	/* only the temporaries some vreg has are ever looked at: zeroing all
	 * 128 (2 KiB) was most of the check of a small shader */
	int hold[R500_NUM_TEMPS][4], ntemps = 0;
	for (int v = 0; v < cg->nvregs; v++) {
		int t = cg->vregs[v].temp;
		if (t >= ntemps && t < R500_NUM_TEMPS)
			ntemps = t + 1;
	}
	memset(hold, 0, sizeof hold[0] * (size_t)ntemps);
	for (int v = 0; v < cg->nvregs; v++) {
		const struct cg_vreg *r = &cg->vregs[v];
		if (r->input < 0 || r->temp < 0 || r->temp >= R500_NUM_TEMPS)
			continue;
		for (int c = 0; c < r->ncomp; c++)
			hold[r->temp][r->lane[c] & 3] = v * 4 + c + 1;
	}
	for (int p = 0; p < cg->nslots; p++) {
		const struct cg_slot *s = &cg->slots[p];
		int ops[3] = { s->tex ? s->tex_op : s->rgb, s->tex ? -1 : s->alpha, -1 };
		if (ops[1] == ops[0])
			ops[1] = -1;
		for (int i = 0; i < 2; i++)
			if (ops[i] >= 0 && !check_reads(cg, &cg->ops[ops[i]], hold, p, why, len))
				return false;
		for (int i = 0; i < 2; i++)
			if (ops[i] >= 0)
				apply_writes(cg, &cg->ops[ops[i]], hold);
	}
	return true;
}
