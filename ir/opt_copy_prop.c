/* Copy propagation: every source that reads a MOV reads the MOV's own
 * source instead, with the two swizzles composed; a source that reads
 * only components of a VEC that all come from one value reads that value
 * (c.x += k on a vector is a VEC of the new x and the old y, z: the next
 * c.x reads the add itself, so constant chains and CSE see through it).
 * A source that reads a trivial PHI reads the one value it merges (see
 * trivial_phi), and one that reads only components a PHI's sources agree
 * in reads their value (agreeing_lanes: `if (c) v.w = 1.0` leaves v.xyz,
 * and the R500 then selects only v.w).  The MOVs, VECs and PHIs
 * themselves are left for DCE.
 * Needs: valid IR.  Keeps: control flow, ids; scoping stays valid because
 * a MOV's or VEC's sources are visible wherever it is, and a trivial
 * PHI's value is defined before the IF or loop the PHI belongs to. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

/* The VEC's sources for the n components s reads, when they are one
 * value: s rewritten to read it.  False (s unchanged) otherwise. */
static bool through_vec(struct ir_src *s, int n)
{
	const struct ir_instr *v = s->def;
	struct ir_instr *one = NULL;
	uint8_t swz[4] = { 0, 0, 0, 0 };
	for (int c = 0; c < n; c++) {
		int j = s->swz[c] & 3;
		if (j >= v->nsrc || !v->src[j].def || (one && v->src[j].def != one))
			return false;
		one = v->src[j].def;
		swz[c] = v->src[j].swz[0];
	}
	if (!one)
		return false;
	for (int c = 0; c < 4; c++)
		s->swz[c] = c < n ? swz[c] : swz[n - 1];
	s->def = one;
	return true;
}

/* The IF or LOOP a PHI belongs to: the loop whose body it heads, or the
 * IF or loop it follows.  NULL for a PHI in no such place. */
static const struct ir_cf *phi_construct(const struct ir_instr *phi, bool *head)
{
	const struct ir_cf *b = ir_instr_cf(phi);
	if (!b)
		return NULL;
	*head = !b->prev && b->parent && b->parent->kind == IR_CF_LOOP;
	if (*head)
		return b->parent;
	return b->prev && b->prev->kind != IR_CF_BLOCK ? b->prev : NULL;
}

/* A trivial PHI merges one value: each source is that value (the same
 * def and components) or, at a loop's head, the PHI itself unchanged (a
 * variable the loop may assign but does not: the frontend gives every
 * variable PHIs in a loop that calls a function).  The value must be
 * defined outside the PHI's IF or loop, so that it is visible wherever
 * the PHI is: always true of a head PHI's value before the loop.  The
 * value's source, or NULL when the PHI is not trivial. */
static const struct ir_src *trivial_phi(const struct ir_instr *phi)
{
	bool head = false;
	const struct ir_cf *at = phi_construct(phi, &head);
	int n = phi->ncomp;
	if (!at || n < 1 || n > 4)
		return NULL;
	const struct ir_src *one = NULL;
	for (int i = 0; i < phi->nsrc && i < IR_MAX_SRCS; i++) {
		const struct ir_src *s = &phi->src[i];
		if (!s->def)
			return NULL;
		if (head && s->def == phi && ir_swz_identity(s, n))
			continue;
		if (one && !ir_src_same(one, s, n))
			return NULL;
		one = s;
	}
	if (!one || one->def == phi || ir_instr_inside(one->def, at))
		return NULL;
	return one;
}

/* The value and component that component j of source s comes from,
 * through MOVs and VECs: *def, *comp. */
static void lane_origin(const struct ir_src *s, int j, struct ir_instr **def, int *comp)
{
	struct ir_instr *d = s->def;
	int k = s->swz[j] & 3;
	for (int guard = 0; guard < 64 && d; guard++) {
		const struct ir_src *next = NULL;
		if (d->op == IR_OP_VEC && k < d->nsrc)
			next = &d->src[k], k = 0;
		else if (d->op == IR_OP_MOV && d->nsrc == 1)
			next = &d->src[0];
		if (!next || !next->def)
			break;
		k = next->swz[k] & 3;
		d = next->def;
	}
	*def = d;
	*comp = k;
}

/* A PHI whose sources agree in the components reader s takes: in each,
 * every source's component comes (lane_origin) from the same component of
 * one value defined outside the PHI's IF or loop (at a loop's head, a
 * component the loop passes on unchanged does not count): `if (c)
 * v.w = 1.0` leaves v.xyz as they were.  s rewritten to read that value;
 * false (s unchanged) otherwise. */
static bool agreeing_lanes(struct ir_src *s, int n)
{
	const struct ir_instr *phi = s->def;
	bool head = false;
	const struct ir_cf *at = phi_construct(phi, &head);
	if (!at || n < 1 || n > 4)
		return false;
	struct ir_instr *one = NULL;
	uint8_t swz[4] = { 0, 0, 0, 0 };
	for (int c = 0; c < n; c++) {
		int j = s->swz[c] & 3, k0 = -1;
		struct ir_instr *d0 = NULL;
		for (int i = 0; i < phi->nsrc && i < IR_MAX_SRCS; i++) {
			struct ir_instr *d;
			int k;
			if (!phi->src[i].def)
				return false;
			lane_origin(&phi->src[i], j, &d, &k);
			if (head && d == phi && k == j)
				continue;
			if (d0 && (d != d0 || k != k0))
				return false;
			d0 = d;
			k0 = k;
		}
		if (!d0 || (one && d0 != one))
			return false;
		one = d0;
		swz[c] = (uint8_t)k0;
	}
	if (one == phi || ir_instr_inside(one, at))
		return false;
	s->def = one;
	for (int c = 0; c < 4; c++)
		s->swz[c] = c < n ? swz[c] : swz[n - 1];
	return true;
}

/* Follows chains of MOVs and one-value VECs; whether the source changed.
 * n: the components the reader takes. */
static bool propagate(struct ir_src *s, int n)
{
	bool changed = false;
	for (int guard = 0; guard < 64 && s->def; guard++) {
		if (s->def->op == IR_OP_VEC && n >= 1 && n <= 4 && through_vec(s, n)) {
			changed = true;
			continue;
		}
		const struct ir_src *m = NULL;
		if (s->def->op == IR_OP_MOV && s->def->nsrc == 1 && s->def->src[0].def)
			m = &s->def->src[0];
		else if (s->def->op == IR_OP_PHI)
			m = trivial_phi(s->def);
		if (!m)
			break;
		*s = ir_src_through(m, s->swz);
		changed = true;
	}
	return changed;
}

/* The values other than constants a VEC's sources read, counted once
 * each: the registers it gathers from. */
static int vec_inputs(const struct ir_src *src, int nsrc)
{
	int n = 0;
	for (int i = 0; i < nsrc; i++) {
		bool seen = !src[i].def || src[i].def->op == IR_OP_CONST;
		for (int j = 0; j < i && !seen; j++)
			seen = src[j].def == src[i].def;
		n += !seen;
	}
	return n;
}

/* Sources reading components a PHI's sources agree in read the value
 * itself (agreeing_lanes).  A VEC takes it only where it gathers from no
 * more values than before: `if (c) v.w = 1.0` then `v.xyz` read next to
 * another lane of the PHI would cost a copy to gather. */
static bool narrow_phi_reads(struct ir_func *f, struct ir_instr *in)
{
	struct ir_src src[IR_MAX_SRCS];
	int nsrc = in->nsrc < IR_MAX_SRCS ? in->nsrc : IR_MAX_SRCS;
	bool changed = false;
	for (int i = 0; i < nsrc; i++) {
		src[i] = in->src[i];
		if (src[i].def && src[i].def->op == IR_OP_PHI)
			changed |= agreeing_lanes(&src[i], ir_src_ncomp(f, in, i));
	}
	if (!changed || (in->op == IR_OP_VEC && vec_inputs(src, nsrc) > vec_inputs(in->src, nsrc)))
		return false;
	for (int i = 0; i < nsrc; i++)
		in->src[i] = src[i];
	return true;
}

static bool prop_instr(struct ir_func *f, struct ir_instr *in)
{
	bool progress = false;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		progress |= propagate(&in->src[i], ir_src_ncomp(f, in, i));
	return narrow_phi_reads(f, in) || progress;
}

static void prop_cond(struct ir_src *cond, void *ud)
{
	bool *progress = ud;
	*progress |= propagate(cond, 1);
}

bool ir_opt_copy_prop(struct ir_func *f)
{
	bool progress = ir_rewrite_each(f, prop_instr);
	ir_foreach_cond(f, prop_cond, &progress);
	return progress;
}
