/* Quad uniformity (quad_uniform.h): a divergence analysis over the
 * structured control flow, to a fixed point, component by component.
 * Every value starts the same in all four pixels and loses that for good
 * when
 *   - it is an input (varyings, gl_FragCoord, gl_FrontFacing) or a local
 *     array's element (stores may write values that differ);
 *   - a source differs (a VEC's or PHI's component: its own sources);
 *   - it reads quad neighbours (derivatives, implicit-LOD lookups) where
 *     some pixels may be inactive: their registers hold stale values;
 *   - it is a PHI joining paths the pixels may take differently: after an
 *     IF whose condition differs, at the head or exit of a split loop;
 *   - it is made inside a split loop: read later, it holds what each
 *     pixel's last trip left, and the pixels left at different trips.
 * A loop is split when one of its BREAKs or CONTINUEs sits under an IF
 * (inside the loop) whose condition differs.  Values only go from same
 * to differing, so the walks end. */
#include "quad_uniform.h"

#include <string.h>
#include "ir_eval.h"

struct walk {
	const struct ir_func *f;
	struct ir_quad_uniform *u;
	bool changed;
};

enum { ALL_COMPS = 0xF };

/* Whether the first n components source s reads are the same in all
 * four pixels. */
static bool comps_same(const struct ir_quad_uniform *u, const struct ir_src *s, int n)
{
	if (!s->def)
		return true;
	if (s->def->id >= u->nids)
		return false;
	unsigned need = 0;
	for (int c = 0; c < n && c < 4; c++)
		need |= 1u << (s->swz[c] & 3);
	return (u->value[s->def->id] & need) == need;
}

/* a condition: one component */
static bool same(const struct ir_quad_uniform *u, const struct ir_src *s)
{
	return comps_same(u, s, 1);
}

static bool loop_split(const struct ir_quad_uniform *u, const struct ir_cf *loop)
{
	for (int i = 0; i < u->nsplit; i++)
		if (u->split[i] == loop)
			return true;
	return false;
}

/* Whether a jump of the loop around `list` sits under an IF with a
 * differing condition (`under`: one such IF is already around it). */
static bool jumps_split(const struct ir_quad_uniform *u, const struct ir_cf_list *list, bool under)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			bool deeper = under || !same(u, &cf->cond);
			if (jumps_split(u, &cf->then_list, deeper) ||
			    jumps_split(u, &cf->else_list, deeper))
				return true;
		} else if (cf->kind == IR_CF_BLOCK && under) {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				if (in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE)
					return true;
		}
		/* a nested loop's jumps are its own */
	}
	return false;
}

/* Whether the PHIs at the start of block `cf` join paths that may differ. */
static bool phi_joins_split(const struct ir_quad_uniform *u, const struct ir_cf *cf)
{
	if (cf->prev && cf->prev->kind == IR_CF_IF)
		return !same(u, &cf->prev->cond);
	if (cf->prev && cf->prev->kind == IR_CF_LOOP)
		return loop_split(u, cf->prev);
	if (!cf->prev && cf->parent && cf->parent->kind == IR_CF_LOOP)
		return loop_split(u, cf->parent);
	return true; /* a PHI the validator would refuse: assume the worst */
}

/* Which components of `in` are the same in all four pixels, from its
 * sources'.  A VEC and a PHI go component by component (a register
 * TGSI writes whole holds a key beside a lookup of each pixel's own);
 * the other operations are the same only when all they read is. */
static unsigned instr_same(const struct walk *w, const struct ir_instr *in, const struct ir_cf *cf,
			   bool inactive)
{
	const struct ir_quad_uniform *u = w->u;
	if (in->op == IR_OP_VEC) {
		unsigned m = 0;
		for (int k = 0; k < in->nsrc && k < 4; k++)
			m |= comps_same(u, &in->src[k], 1) ? 1u << k : 0;
		return m;
	}
	if (in->op == IR_OP_PHI) {
		if (phi_joins_split(u, cf))
			return 0;
		unsigned m = 0;
		for (int c = 0; c < in->ncomp && c < 4; c++) {
			bool all = true;
			for (int k = 0; k < in->nsrc && all; k++) {
				struct ir_src one = in->src[k];
				one.swz[0] = one.swz[c];
				all = comps_same(u, &one, 1);
			}
			m |= all ? 1u << c : 0;
		}
		return m;
	}
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++)
		if (!comps_same(u, &in->src[k], ir_src_ncomp(w->f, in, k)))
			return 0;
	switch (in->op) {
	case IR_OP_INPUT:
	case IR_OP_LOAD:
		return 0;
	case IR_OP_DDX:
	case IR_OP_DDY:
		return inactive ? 0 : ALL_COMPS;
	case IR_OP_TEX:
		return !inactive || !ir_tex_kind_uses_quad(in->tex_kind) ? ALL_COMPS : 0;
	default:
		return ALL_COMPS;
	}
}

static bool note_split(struct walk *w, const struct ir_cf *loop, struct arena *arena)
{
	struct ir_quad_uniform *u = w->u;
	if (loop_split(u, loop))
		return true;
	const struct ir_cf **n = arena_grow(arena, u->split, (size_t)u->nsplit, sizeof *n);
	if (!n)
		return false;
	u->split = n;
	u->split[u->nsplit++] = loop;
	w->changed = true;
	return true;
}

/* inactive: some pixels of a quad may be inactive here; in_split: inside
 * a split loop. */
static bool walk_list(struct walk *w, const struct ir_cf_list *list, bool inactive, bool in_split,
		      struct arena *arena)
{
	struct ir_quad_uniform *u = w->u;
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
				if (in->id >= u->nids || !u->value[in->id])
					continue;
				uint8_t m = in_split ? 0 : (uint8_t)instr_same(w, in, cf, inactive);
				m &= u->value[in->id];
				if (m != u->value[in->id]) {
					u->value[in->id] = m;
					w->changed = true;
				}
			}
		} else if (cf->kind == IR_CF_IF) {
			bool side_inactive = inactive || !same(u, &cf->cond);
			if (!walk_list(w, &cf->then_list, side_inactive, in_split, arena) ||
			    !walk_list(w, &cf->else_list, side_inactive, in_split, arena))
				return false;
		} else {
			if (jumps_split(u, &cf->body, false) && !note_split(w, cf, arena))
				return false;
			bool split = loop_split(u, cf);
			if (!walk_list(w, &cf->body, inactive || split, in_split || split, arena))
				return false;
		}
	}
	return true;
}

bool ir_quad_uniform(const struct ir_func *f, struct arena *arena, struct ir_quad_uniform *u)
{
	memset(u, 0, sizeof *u);
	u->nids = f->next_id + 1;
	u->value = arena_alloc(arena, sizeof *u->value * u->nids);
	if (!u->value)
		return false;
	for (uint32_t i = 0; i < u->nids; i++)
		u->value[i] = ALL_COMPS;
	struct walk w = { f, u, true };
	while (w.changed) {
		w.changed = false;
		if (!walk_list(&w, &f->body, false, false, arena)) {
			memset(u->value, 0, sizeof *u->value * u->nids);
			return false;
		}
	}
	return true;
}

bool ir_quad_uniform_if(const struct ir_quad_uniform *u, const struct ir_cf *cf)
{
	if (!u->value || cf->kind != IR_CF_IF || !same(u, &cf->cond))
		return false;
	for (const struct ir_cf *p = cf->parent; p; p = p->parent) {
		if (p->kind == IR_CF_IF && !same(u, &p->cond))
			return false;
		if (p->kind == IR_CF_LOOP && loop_split(u, p))
			return false;
	}
	return true;
}
