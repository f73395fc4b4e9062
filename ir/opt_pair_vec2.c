/* Pairs of like two-component chains become one four-component chain.
 * A convolution builds each tap's coordinate alone: pos + (dx_i, dy_i),
 * clamped by a MIN and a MAX, each a vec2 op that leaves the R500's alpha
 * unit and one RGB lane idle.  Two taps' coordinates in one vec4 (one tap
 * in x, y, the other in z, w) take one instruction a level for both, and
 * one register; each lookup reads its half through the TEX swizzle.
 *
 * Seeds: two-component vector ops (ir_cost's vector_op) of one block whose
 * sources agree at each position: both a constant, or both one value
 * (each with its own swizzle).  Seeds alike pair in program order, two at
 * a time.  A pair grows while each member has one reader, the two readers
 * are the same op, read the members at the same position and agree
 * elsewhere as seeds do.  The last level's readers take the halves.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (new ops
 * get fresh ids; the old chains are left to DCE, the half MOVs to
 * copy_prop).  Exact: each half computes what its op did. */
#include "ir.h"
#include "ir_cost.h"
#include "ir_pass.h"

#include <stdlib.h>

enum { MAX_LEVELS = 16, PARTNER_WINDOW = 32 };

struct pairs {
	struct ir_func *f;
	uint16_t *uses;
	struct ir_instr **reader;  /* by id: the last instruction reading it */
	struct ir_instr **seeds;   /* candidates in program order */
	uint32_t *pos;             /* by id: program order */
	bool *taken;               /* by id: in a pair already */
	uint32_t n, nseeds, next_pos;
	bool failed, progress;
};

/* A two-component float op lane by lane that the R500 does for four
 * lanes at once. */
static bool pair_op(const struct ir_func *f, const struct ir_instr *in)
{
	const struct ir_op_info *oi = &ir_op_infos[in->op];
	return in->ncomp == 2 && in->base == IR_FLOAT && in->op != IR_OP_MOV &&
	       (oi->flags & IRF_COMPWISE) && !(oi->flags & (IRF_QUAD | IRF_BOOL | IRF_SIDE)) &&
	       oi->src_type == 'f' && oi->res_type == 'f' && in->nsrc >= 1 &&
	       in->nsrc <= IR_MAX_SRCS && ir_cost(f)->vector_op(in->op);
}

/* Sources a and b of a pair at one position: both constants, or one value. */
static bool agree(const struct ir_src *a, const struct ir_src *b)
{
	if (ir_src_float_const(a) || ir_src_float_const(b))
		return ir_src_float_const(a) && ir_src_float_const(b);
	return a->def && a->def == b->def;
}

/* Whether ops a and b may pair: the same op in one block, their sources
 * agreeing wherever they do not read chain members ma, mb (NULL: none). */
static bool alike(const struct ir_instr *a, const struct ir_instr *b,
		  const struct ir_instr *ma, const struct ir_instr *mb)
{
	if (a->op != b->op || a->nsrc != b->nsrc || a->block != b->block)
		return false;
	for (int p = 0; p < a->nsrc; p++) {
		bool chain = ma && a->src[p].def == ma;
		if (chain != (mb && b->src[p].def == mb))
			return false;
		if (!chain && (!agree(&a->src[p], &b->src[p]) ||
			       (ma && (a->src[p].def == ma || b->src[p].def == mb))))
			return false;
	}
	return true;
}

static void scan(struct ir_instr *in, void *ud)
{
	struct pairs *s = ud;
	if (in->id >= s->n)
		return;
	s->pos[in->id] = s->next_pos++;
	ir_note_reader(in, s->reader, s->n);
	if (pair_op(s->f, in))
		s->seeds[s->nseeds++] = in;
}

/* The readers of members a, b as the next level; false when they do not
 * make one. */
static bool next_level(const struct pairs *s, const struct ir_instr *a, const struct ir_instr *b,
		       struct ir_instr **ra, struct ir_instr **rb)
{
	if (s->uses[a->id] != 1 || s->uses[b->id] != 1)
		return false;
	*ra = s->reader[a->id];
	*rb = s->reader[b->id];
	return *ra && *rb && *ra != *rb && (*ra)->id < s->n && (*rb)->id < s->n &&
	       !s->taken[(*ra)->id] && !s->taken[(*rb)->id] && pair_op(s->f, *ra) &&
	       (*ra)->block == a->block && alike(*ra, *rb, a, b);
}

static struct ir_instr *build(struct pairs *s, struct ir_instr *before, enum ir_op op, int ncomp,
			      int nsrc, const struct ir_src *src)
{
	struct ir_instr *r = ir_build_before(s->f, before, op, ncomp, IR_FLOAT, nsrc, src);
	s->failed |= !r;
	return r;
}

/* The four-component source of position p of the pair a, b (not the
 * chain): a constant of both halves, or the one value swizzled. */
static bool packed_source(struct pairs *s, const struct ir_instr *a, const struct ir_instr *b,
			  int p, struct ir_instr *before, struct ir_src *out)
{
	const struct ir_src *x = &a->src[p], *y = &b->src[p];
	if (ir_src_float_const(x)) {
		float v[4] = { ir_src_const_comp(x, 0), ir_src_const_comp(x, 1),
			       ir_src_const_comp(y, 0), ir_src_const_comp(y, 1) };
		struct ir_instr *k = ir_build_const_before(s->f, before, 4, IR_FLOAT, v);
		s->failed |= !k;
		if (!k)
			return false;
		*out = ir_src_of(k);
		return true;
	}
	*out = (struct ir_src){ x->def, { x->swz[0], x->swz[1], y->swz[0], y->swz[1] } };
	return true;
}

static struct ir_instr *first_of(const struct pairs *s, struct ir_instr *a, struct ir_instr *b)
{
	return s->pos[b->id] < s->pos[a->id] ? b : a;
}

/* The chain lv[0..nlv-1] (member 0 in x, y; member 1 in z, w) as vec4
 * ops; the last level's readers get its halves. */
static void pack(struct pairs *s, struct ir_instr *lv[][2], int nlv)
{
	struct ir_instr *prev = NULL;
	for (int l = 0; l < nlv && !s->failed; l++) {
		struct ir_instr *a = lv[l][0], *b = lv[l][1];
		struct ir_instr *before = first_of(s, a, b);
		struct ir_src src[IR_MAX_SRCS];
		for (int p = 0; p < a->nsrc; p++) {
			if (l > 0 && a->src[p].def == lv[l - 1][0])
				src[p] = ir_src_of(prev);
			else if (!packed_source(s, a, b, p, before, &src[p]))
				return;
		}
		if (!(prev = build(s, before, a->op, 4, a->nsrc, src)))
			return;
	}
	struct ir_instr *top[2] = { lv[nlv - 1][0], lv[nlv - 1][1] };
	struct ir_instr *before = first_of(s, top[0], top[1]);
	for (int i = 0; i < 2; i++) {
		uint8_t half[4] = { 2 * i, 2 * i + 1, 2 * i + 1, 2 * i + 1 };
		struct ir_instr *h = build(s, before, IR_OP_MOV, 2, 1,
					   (struct ir_src[]){ ir_src_swz(prev, half) });
		if (!h)
			return;
		ir_forward(top[i], h);
	}
	s->progress = true;
}

/* Whether every reader of `top` is a lookup taking it as its coordinate.
 * Those are what the pairing is for: the coordinates of gathered lookups
 * are live together, and two in a register halve their registers.
 * Elsewhere a vec2 op often shares its instruction with a scalar one in
 * the alpha unit, which a vec4 op would take. */
static bool feeds_lookups(const struct pairs *s, const struct ir_instr *top)
{
	struct ir_instr *r = s->reader[top->id];
	return s->uses[top->id] == 1 && r && r->op == IR_OP_TEX && r->src[0].def == top;
}

/* Grows the pair a, b and packs it. */
static void try_pair(struct pairs *s, struct ir_instr *a, struct ir_instr *b)
{
	struct ir_instr *lv[MAX_LEVELS][2] = { { a, b } };
	int nlv = 1;
	while (nlv < MAX_LEVELS &&
	       next_level(s, lv[nlv - 1][0], lv[nlv - 1][1], &lv[nlv][0], &lv[nlv][1]))
		nlv++;
	for (int l = 0; l < nlv; l++)
		s->taken[lv[l][0]->id] = s->taken[lv[l][1]->id] = true;
	if (feeds_lookups(s, lv[nlv - 1][0]) && feeds_lookups(s, lv[nlv - 1][1]))
		pack(s, lv, nlv);
}

/* Each seed not yet taken with the next one alike, in program order. */
static void pair_seeds(struct pairs *s)
{
	for (uint32_t i = 0; i < s->nseeds && !s->failed; i++) {
		struct ir_instr *a = s->seeds[i];
		if (s->taken[a->id])
			continue;
		/* the partner among the next few: unrolled code has thousands */
		for (uint32_t j = i + 1; j < s->nseeds && j <= i + PARTNER_WINDOW; j++) {
			struct ir_instr *b = s->seeds[j];
			if (!s->taken[b->id] && alike(a, b, NULL, NULL)) {
				try_pair(s, a, b);
				break;
			}
		}
	}
}

/* Counts two-component vector ops; true once two are found. */
static bool two_pairable(const struct ir_instr *in, void *ud)
{
	struct pairs *s = ud;
	return pair_op(s->f, in) && ++s->nseeds >= 2;
}

bool ir_opt_pair_vec2(struct ir_func *f)
{
	struct pairs s = { .f = f, .n = f->next_id };
	if (!ir_any_instr(f, two_pairable, &s))
		return false;
	size_t n = (size_t)f->next_id + 1;
	s.nseeds = 0;
	s.uses = ir_count_uses(f);
	s.reader = calloc(n, sizeof *s.reader);
	s.seeds = calloc(n, sizeof *s.seeds);
	s.pos = calloc(n, sizeof *s.pos);
	s.taken = calloc(n, sizeof *s.taken);
	if (s.uses && s.reader && s.seeds && s.pos && s.taken) {
		ir_foreach_instr(f, scan, &s);
		pair_seeds(&s);
		if (s.progress)
			ir_apply_forwards(f);
	}
	free(s.uses);
	free(s.reader);
	free(s.seeds);
	free(s.pos);
	free(s.taken);
	return s.progress;
}
