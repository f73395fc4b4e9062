/* Real flow control for isel (ISA.md §6.11, with Mesa's encodings, §8):
 * the cost rule deciding which IFs keep real jumps, IF / ELSE / ENDIF,
 * LOOP / ENDLOOP, BREAKLOOP / CONTINUE, the copies that destroy SSA
 * (PHIs get multi vregs, see cg_op.late) and the output latches.
 * The walk over the IR is isel_list (isel.c). */
#include "isel.h"
#include "ir_eval.h"
#include "loop_counter.h"

#include <assert.h>

bool isel_stable_opnd(struct isel *s, int n, struct cg_opnd *o)
{
	if (o->file != CG_FILE_VREG || !s->cg->vregs[o->index].multi)
		return true;
	int t = isel_mad(s, n, *o, ONE, ZERO);
	if (t < 0)
		return false;
	*o = vopnd(t);
	return true;
}

static int new_multi(struct isel *s, int n)
{
	int v = cg_new_vreg(s->cg, n);
	if (v >= 0) /* a scalar's lane is fixed by the first copy placed (every
		     * reader comes after some copy); the later ones follow it */
		s->cg->vregs[v].multi = true;
	return v;
}

/* dst (a multi vreg) = o, as a late copy (cg_op.late). */
static bool late_copy(struct isel *s, int dst, int n, struct cg_opnd o)
{
	struct cg_op *op = isel_alu(s, CG_MAD, dst, mask_of(n), &o, &ONE, &ZERO);
	if (!op)
		return false;
	op->late = true;
	return true;
}

/* Writes output `idx` from operand a (its components 0..n-1). */
bool isel_write_output(struct isel *s, int idx, const struct ir_src *src, struct cg_opnd a)
{
	const struct ir_output *out = &s->cg->func->outputs[idx];
	int n = isel_output_ncomp(out);
	int target = out->target < 0 ? CG_OUT_DEPTH : out->target;
	if (src && isel_retarget(s, src, &a, mask_of(n), -1, target, true))
		return true;
	if (src)
		isel_vec_swizzle_opnd(s, src, n, &a);
	struct cg_op *op = isel_alu(s, CG_MAD, -1, mask_of(n), &a, &ONE, &ZERO);
	if (!op)
		return false;
	op->out = target;
	op->out_ncomp = (uint8_t)n;
	return true;
}

/* Before each FC op: latched outputs go to their multi vregs. */
static bool flush_latches(struct isel *s)
{
	for (int i = 0; i < s->cg->func->noutputs; i++) {
		if (!s->latch[i] || s->in_lvreg[i])
			continue;
		int n = isel_output_ncomp(&s->cg->func->outputs[i]);
		if (s->lvreg[i] < 0 && (s->lvreg[i] = new_multi(s, n)) < 0)
			return false;
		struct cg_opnd o = s->cur[i];
		if (!isel_stable_opnd(s, n, &o) || !late_copy(s, s->lvreg[i], n, o))
			return false;
		s->cur[i] = vopnd(s->lvreg[i]);
		s->in_lvreg[i] = true;
	}
	return true;
}

int isel_sel_output(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	struct cg_ctx *cg = s->cg;
	if (in->index < 0 || in->index >= cg->func->noutputs)
		return cg_error(cg, in->loc, "internal error: bad output index"), -1;
	const struct ir_output *out = &cg->func->outputs[in->index];
	if (out->target < -1 || out->target >= R500_NUM_TARGETS) {
		cg_error(cg, in->loc, "output %s: render target %d exceeds the R500 limit of %d "
			 "targets", out->name, out->target, R500_NUM_TARGETS);
		return -1;
	}
	if (!s->latch[in->index])
		return isel_write_output(s, in->index, &in->src[0], o[0]) ? 0 : -1;
	/* latched: under if-converted IFs keep the old value where the path
	 * condition is false */
	int n = isel_output_ncomp(out);
	struct cg_opnd v = o[0], c;
	bool always;
	if (!isel_path_condition(s, NULL, &c, &always))
		return -1;
	if (!always) {
		struct cg_opnd ce = opnd_entry(c, 0);
		int d = isel_op(s, CG_CND, n, &v, &s->cur[in->index], &ce);
		if (d < 0)
			return -1;
		v = vopnd(d);
	}
	s->cur[in->index] = v;
	s->in_lvreg[in->index] = false;
	return 0;
}

/* --- real flow control (ISA.md §6.11, Mesa's encodings) ---
 * IFs that are cheap and safe are if-converted (isel_list); the others
 * and every LOOP become JUMP / LOOP / ENDLOOP / BREAKLOOP / CONTINUE.
 * SSA destruction: each PHI after an FC construct or at a loop head gets
 * a multi vreg, written by late copies just before the FC op that leaves
 * each predecessor; pixels that do not take that path are inactive and
 * keep their registers. */

/* FC_QUAD_IF_COST: an IF with implicit-LOD lookups that all pixels of a
 * quad take alike jumps only past this many instructions: jumping keeps
 * its lookups from gathering with those around it, and a lookup waited
 * for costs up to 30 cycles (ISA.md: TEX latency), which the IF's skipped
 * instructions must win back.
 * FC_JUMP_COST: what taking a jump adds to the side a pixel runs (the
 * JUMP at the IF, the one past ELSE, the copies for the PHIs). */
enum { FC_IF_COST = 16, FC_QUAD_IF_COST = FC_IF_COST + 30, FC_JUMP_COST = 4, FC_MAX_DEPTH = 32 };

struct fc_scan {
	int weight;       /* instructions making code */
	bool forced;      /* LOOP, BREAK, CONTINUE, or an IF needing FC */
	bool quad;        /* derivatives, or lookups whose level of detail comes
			   * from the quad: keep all pixels running */
};

static bool if_needs_fc(const struct isel *s, const struct ir_cf *cf, struct fc_scan *sides);

/* One walk of the list: a nested IF's own verdict comes from the same
 * walk of its branches (asking isel_if_needs_fc there would walk them
 * again at every level: exponential in the nesting). */
static void scan_list(const struct isel *s, const struct ir_cf_list *list, struct fc_scan *sc)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_LOOP) {
			sc->forced = true;
		} else if (cf->kind == IR_CF_IF) {
			struct fc_scan sub;
			sc->forced |= if_needs_fc(s, cf, &sub);
			sc->weight += sub.weight;
			sc->quad |= sub.quad;
		} else {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
				sc->forced |= in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE;
				sc->quad |= in->op == IR_OP_DDX || in->op == IR_OP_DDY ||
					    (in->op == IR_OP_TEX && ir_tex_kind_uses_quad(in->tex_kind));
				sc->weight += !isel_is_virtual(in) && in->op != IR_OP_PHI;
			}
		}
	}
}

/* The cost rule: an IF needs real flow control when it holds a loop, a
 * BREAK or CONTINUE (or such an IF).  Otherwise, when it uses derivatives
 * or implicit-LOD lookups (whose quad neighbours must have run the same
 * code), if the four pixels of a quad cannot take different sides
 * (same_side: ir/quad_uniform.h) past FC_QUAD_IF_COST; where they can,
 * only with divergent jumps asked for (whether they pay depends on where
 * the pixels go, which only the draws know), if its ops may compute what
 * the neighbours read for inactive pixels too (isel_inactive.c), and
 * past FC_IF_COST without those ops (every pixel runs them).  An IF that
 * jumps for another reason (a loop inside) marks those ops too when it
 * can.  Otherwise
 * when both sides together make more than FC_IF_COST instructions, or,
 * where every pixel takes the same side, when running one side and the
 * jumps costs less than running both (the shorter side is longer than
 * the jumps).  `sides` gets both sides' scan together. */
static bool if_needs_fc(const struct isel *s, const struct ir_cf *cf, struct fc_scan *sides)
{
	struct fc_scan then_sc = { 0, false, false }, else_sc = { 0, false, false };
	scan_list(s, &cf->then_list, &then_sc);
	scan_list(s, &cf->else_list, &else_sc);
	*sides = (struct fc_scan){ then_sc.weight + else_sc.weight, then_sc.forced || else_sc.forced,
				   then_sc.quad || else_sc.quad };
	bool same_side = ir_quad_uniform_if(&s->quad, cf);
	if (sides->forced)
		return true;
	if (sides->quad && same_side)
		return sides->weight > FC_QUAD_IF_COST;
	int nchain = 0;
	if (sides->quad && (!s->cg->opts->divergent_jumps || !isel_inactive_jump_ok(s, cf, &nchain)))
		return false;
	if (sides->quad) /* what the pixels skipping a side save */
		return sides->weight - nchain > FC_IF_COST;
	int shorter = then_sc.weight < else_sc.weight ? then_sc.weight : else_sc.weight;
	return sides->weight > FC_IF_COST || (same_side && shorter > FC_JUMP_COST);
}

bool isel_if_needs_fc(const struct isel *s, const struct ir_cf *cf)
{
	struct fc_scan sides;
	return if_needs_fc(s, cf, &sides);
}

static struct cg_op *fc_new(struct isel *s, int *index, struct r500_fc fc)
{
	struct cg_op *op = cg_new_op(s->cg, CG_FC, -1, 0);
	if (!op)
		return NULL;
	fc.ignore_uncovered = fc.ignore_uncovered & 1;
	op->fc = fc;
	op->loc = s->loc;
	*index = s->cg->nops - 1;
	return op;
}

static void fc_target(struct isel *s, int op, int target, int delta)
{
	s->cg->ops[op].fc_target = target;
	s->cg->ops[op].fc_delta = (int8_t)delta;
}

static bool fc_enter(struct isel *s, struct src_loc loc)
{
	s->cg->uses_fc = true;
	if (++s->fc_depth > FC_MAX_DEPTH)
		return cg_error(s->cg, loc, "flow control nested %d deep; the R500 allows %d "
				"(full flow-control mode)", s->fc_depth, FC_MAX_DEPTH);
	return true;
}

static const struct ir_block *block_of(const struct ir_cf *cf)
{
	return cf && cf->kind == IR_CF_BLOCK ? &cf->block : NULL;
}

/* PHIs at the start of blk get multi vregs. */
static bool assign_phis(struct isel *s, const struct ir_block *blk)
{
	for (const struct ir_instr *in = blk ? blk->first : NULL; in && in->op == IR_OP_PHI;
	     in = in->next) {
		if (in->id >= s->nids)
			return cg_error(s->cg, in->loc, "internal error: bad phi");
		assert(in->ncomp >= 1 && in->ncomp <= 4); /* the IR was validated */
		int v = isel_phi_share_vreg(s, in);
		if (v < 0)
			v = new_multi(s, in->ncomp < 1 || in->ncomp > 4 ? 4 : in->ncomp);
		if (v < 0)
			return false;
		s->vreg_of[in->id] = v;
		isel_phi_share_note(s, in);
	}
	return true;
}

/* Source index each PHI of a block takes on one incoming path. */
enum phi_path { PHI_SRC, PHI_CONT };

/* Late copies PHI <- source (index k; for PHI_CONT the k-th CONTINUE of
 * `ncont`) for the PHIs at the start of blk: a parallel copy, so a source
 * that is itself a multi vreg is copied to a fresh vreg first. */
static bool phi_copies(struct isel *s, const struct ir_block *blk, enum phi_path path, int k,
		       int ncont)
{
	int nphi = 0;
	for (const struct ir_instr *in = blk ? blk->first : NULL; in && in->op == IR_OP_PHI;
	     in = in->next)
		nphi++;
	if (!nphi)
		return true;
	struct cg_opnd *o = arena_alloc(s->cg->arena, sizeof *o * (size_t)nphi);
	int *dst = arena_alloc(s->cg->arena, sizeof *dst * (size_t)nphi), n = 0;
	if (!o || !dst)
		return s->cg->failed = true, false;
	for (const struct ir_instr *in = blk->first; in && in->op == IR_OP_PHI; in = in->next) {
		int i = path == PHI_SRC ? k : in->nsrc - ncont + k;
		if (i < 0 || i >= in->nsrc || i >= IR_MAX_SRCS || !in->src[i].def)
			continue;
		int nc = s->cg->vregs[s->vreg_of[in->id]].ncomp;
		const struct ir_instr *d = in->src[i].def;
		if (d->id < s->nids && s->vreg_of[d->id] == s->vreg_of[in->id] &&
		    ir_swz_identity(&in->src[i], nc))
			continue; /* itself, or an array element written in place */
		s->loc = in->loc;
		if (!isel_opnd(s, &in->src[i], nc, &o[n]) || !isel_stable_opnd(s, nc, &o[n]))
			return false;
		dst[n++] = s->vreg_of[in->id];
	}
	for (int i = 0; i < n; i++)
		if (!late_copy(s, dst[i], s->cg->vregs[dst[i]].ncomp, o[i]))
			return false;
	return true;
}

static bool list_has_code(const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next)
		if (cf->kind != IR_CF_BLOCK || cf->block.first)
			return true;
	return false;
}

/* The ALU op before an IF: the ALU result = the condition.  A float
 * comparison (under NOTs) read here is folded in, as Mesa does: the op
 * computes a - b and the ALU result compares it with 0; otherwise it
 * tests the bool (0.0 / 1.0) value != 0. */
static bool cond_to_alu_result(struct isel *s, const struct ir_src *cond, struct cg_opnd c)
{
	static const uint8_t cmp_of[IR_OP_COUNT] = {
		[IR_OP_LT] = R500_CMP_LT0 + 1, [IR_OP_GE] = R500_CMP_GE0 + 1,
		[IR_OP_EQ] = R500_CMP_EQ0 + 1, [IR_OP_NE] = R500_CMP_NE0 + 1,
	};
	static const uint8_t inverse[4] = { [R500_CMP_EQ0] = R500_CMP_NE0,
					    [R500_CMP_LT0] = R500_CMP_GE0,
					    [R500_CMP_GE0] = R500_CMP_LT0,
					    [R500_CMP_NE0] = R500_CMP_EQ0 };
	const struct ir_instr *d = cond->def;
	int comp = cond->swz[0] & 3;
	bool inv = false;
	while (d && (d->op == IR_OP_NOT || d->op == IR_OP_MOV) && d->nsrc == 1) {
		inv ^= d->op == IR_OP_NOT;
		comp = d->src[0].swz[comp] & 3;
		d = d->src[0].def;
	}
	struct cg_opnd a = opnd_entry(c, 0), b = ZERO;
	int op = R500_CMP_NE0;
	if (d && cmp_of[d->op] && d->nsrc == 2 && d->src[0].def && d->src[0].def->base == IR_FLOAT &&
	    d->src[1].def && d->src[1].def->base == IR_FLOAT) {
		struct ir_src x = d->src[0], y = d->src[1];
		for (int i = 0; i < 4; i++) {
			x.swz[i] = d->src[0].swz[comp];
			y.swz[i] = d->src[1].swz[comp];
		}
		if (!isel_opnd(s, &x, 1, &a) || !isel_opnd(s, &y, 1, &b))
			return false;
		b = opnd_neg(b);
		op = cmp_of[d->op] - 1;
		if (inv)
			op = inverse[op];
	}
	struct cg_op *o = isel_alu(s, CG_MAD, -1, 1, &a, &ONE, &b);
	if (!o)
		return false;
	o->alu_result = true;
	o->alu_cmp = (uint8_t)op;
	return true;
}

/* Whether the ops of a jumped IF write inactive pixels too: its quad
 * neighbours may take differently and read values made inside it. */
static bool inactive_writes(const struct isel *s, const struct ir_cf *cf)
{
	struct fc_scan sides;
	(void)if_needs_fc(s, cf, &sides);
	int nchain;
	return sides.quad && !ir_quad_uniform_if(&s->quad, cf) &&
	       isel_inactive_jump_ok(s, cf, &nchain);
}

/* IF / [ELSE] / ENDIF with the condition in the ALU result (R != 0) of
 * an ALU op just before; JUMP_FUNC 0x0F jumps when it is false. */
bool isel_select_if_fc(struct isel *s, const struct ir_cf *cf)
{
	struct cg_ctx *cg = s->cg;
	const struct ir_block *after = block_of(cf->next);
	bool has_else = list_has_code(&cf->else_list);
	struct cg_opnd c;
	s->loc = cf->cond.def ? cf->cond.def->loc : s->loc;
	if (!fc_enter(s, s->loc) || !isel_opnd(s, &cf->cond, 1, &c) || !assign_phis(s, after))
		return false;
	/* without an else, the else values are in place before the jump */
	if (!has_else && !phi_copies(s, after, PHI_SRC, 1, 0))
		return false;
	if (!flush_latches(s) || !cond_to_alu_result(s, &cf->cond, c))
		return false;
	int if_op, else_op = -1, endif_op;
	if (!fc_new(s, &if_op, (struct r500_fc){ .op = R500_FC_JUMP, .jump_func = 0x0F,
				   .b_op0 = R500_FC_B_INCR,
				   .b_op1 = has_else ? R500_FC_B_INCR : R500_FC_B_NONE,
				   .ignore_uncovered = 1 }))
		return false;
	if (s->loop)
		s->loop->if_depth++;
	int npath = s->npath;
	s->npath = 0;
	int first = cg->nops;
	bool ok = isel_list(s, &cf->then_list) && phi_copies(s, after, PHI_SRC, 0, 0) &&
		  flush_latches(s);
	if (ok && has_else) {
		ok = fc_new(s, &else_op, (struct r500_fc){ .op = R500_FC_JUMP, .jump_func = 0x00,
							   .b_else = 1, .b_op1 = R500_FC_B_DECR,
							   .b_pop_cnt = 1 }) &&
		     isel_list(s, &cf->else_list) && phi_copies(s, after, PHI_SRC, 1, 0) &&
		     flush_latches(s);
	}
	if (ok && inactive_writes(s, cf))
		isel_mark_inactive_writes(s, first);
	ok = ok && fc_new(s, &endif_op, (struct r500_fc){ .op = R500_FC_JUMP, .jump_func = 0x00,
							  .jump_any = 1, .b_op0 = R500_FC_B_DECR,
							  .b_pop_cnt = 1 });
	s->npath = npath;
	if (s->loop)
		s->loop->if_depth--;
	s->fc_depth--;
	if (!ok)
		return false;
	fc_target(s, if_op, has_else ? else_op : endif_op, has_else ? 1 : 1);
	if (has_else)
		fc_target(s, else_op, endif_op, 1);
	fc_target(s, endif_op, endif_op, 1);
	return !cg->failed;
}

/* BREAK / CONTINUE: the copies for the PHIs they feed, then the jump
 * (its target, the ENDLOOP, is set when the loop is done). */
int isel_sel_break(struct isel *s, struct ir_instr *in, const struct cg_opnd *o)
{
	(void)o;
	struct isel_loop *l = s->loop;
	if (!l)
		return cg_error(s->cg, in->loc, "internal error: %s outside a loop",
				ir_op_infos[in->op].name), -1;
	bool cont = in->op == IR_OP_CONTINUE;
	bool ok = cont ? phi_copies(s, block_of(l->cf->body.first), PHI_CONT, l->ncont++,
				    l->ncont_total)
		       : phi_copies(s, block_of(l->cf->next), PHI_SRC, l->nbrk++, 0);
	int op;
	s->loc = in->loc;
	if (ok && !cont && l->flag >= 0) /* the outer loop ends too */
		ok = late_copy(s, l->flag, 1, ONE);
	if (!ok || !flush_latches(s) ||
	    !fc_new(s, &op, (struct r500_fc){ .op = cont ? R500_FC_CONTINUE : R500_FC_BREAKLOOP,
					      .jump_func = 0xFF, .b_op1 = R500_FC_B_DECR,
					      .b_pop_cnt = (uint16_t)l->if_depth,
					      .ignore_uncovered = 1 }))
		return -1;
	fc_target(s, op, l->loop_op, cont ? 0 : 1); /* fixed up at ENDLOOP */
	return 0;
}

/* What a loop's form says of its passes: *bounded when it surely makes
 * fewer than 250 (a BREAK at the top level of the body, or a counter,
 * loop_counter.h, that reaches its limit within them: every pass runs its
 * IF, or the loop never ends, for the IR too); the passes themselves
 * (the head of the last one, which leaves, included) when known, else 0. */
static uint8_t loop_passes(const struct ir_cf *cf, bool *bounded)
{
	struct loop_counter c;
	*bounded = true;
	if (loop_breaks_at_top(cf))
		return 1;
	*bounded = loop_counter_find(cf, &c);
	if (*bounded && !c.continue_before_exit)
		return (uint8_t)(c.exit_pass + 1 < 255 ? c.exit_pass + 1 : 255);
	return 0;
}

static bool record_loop(struct cg_ctx *cg, int loop_op, int end_op)
{
	if (cg->nloops == cg->cap_loops) {
		int ncap = cg->cap_loops ? cg->cap_loops * 2 : 8;
		int (*nl)[2] = arena_realloc(cg->arena, cg->loops, sizeof *nl * (size_t)cg->cap_loops,
					     sizeof *nl * (size_t)ncap);
		if (!nl)
			return cg->failed = true, false;
		cg->loops = nl;
		cg->cap_loops = ncap;
	}
	cg->loops[cg->nloops][0] = loop_op;
	cg->loops[cg->nloops++][1] = end_op;
	return true;
}

static const struct r500_fc FC_LOOP = { .op = R500_FC_LOOP, .jump_func = 0x00,
					.ignore_uncovered = 1 };
static const struct r500_fc FC_ENDLOOP = { .op = R500_FC_ENDLOOP, .jump_func = 0xFF,
					   .jump_any = 1, .ignore_uncovered = 1 };

/* After the inner loop of an unbounded one: IF (flag) BREAKLOOP ENDIF,
 * ENDLOOP of the outer loop. */
static bool outer_tail(struct isel *s, int flag, int outer_op, int *outer_end)
{
	int if_op, brk_op, endif_op;
	if (!fc_enter(s, s->loc))
		return false;
	struct cg_op *c = isel_alu(s, CG_MAD, -1, 1, &(struct cg_opnd){ CG_FILE_VREG, 0,
						   { 0, 0, 0, 0 }, flag }, &ONE, &ZERO);
	if (!c)
		return false;
	c->alu_result = true;
	c->alu_cmp = R500_CMP_NE0;
	bool ok = fc_new(s, &if_op, (struct r500_fc){ .op = R500_FC_JUMP, .jump_func = 0x0F,
						      .b_op0 = R500_FC_B_INCR,
						      .ignore_uncovered = 1 }) &&
		  fc_new(s, &brk_op, (struct r500_fc){ .op = R500_FC_BREAKLOOP, .jump_func = 0xFF,
						       .b_op1 = R500_FC_B_DECR, .b_pop_cnt = 1,
						       .ignore_uncovered = 1 }) &&
		  fc_new(s, &endif_op, (struct r500_fc){ .op = R500_FC_JUMP, .jump_func = 0x00,
							 .jump_any = 1, .b_op0 = R500_FC_B_DECR,
							 .b_pop_cnt = 1 });
	s->fc_depth--;
	if (!ok || !fc_new(s, outer_end, FC_ENDLOOP))
		return false;
	fc_target(s, if_op, endif_op, 1);
	fc_target(s, brk_op, *outer_end, 1);
	fc_target(s, endif_op, endif_op, 1);
	fc_target(s, outer_op, *outer_end, 0);
	fc_target(s, *outer_end, outer_op, 1);
	return record_loop(s->cg, outer_op, *outer_end);
}

/* LOOP ... ENDLOOP with US_FC_INT_CONST_0 = {255, 0, 0} (as Mesa), or
 * {255, 0, step} when its uniform reads use aL; the loop exits through
 * BREAKLOOP.  The hardware count stops a loop after
 * 255 passes, so a loop not known to stop sooner runs inside a second
 * one (up to 255 * 255 passes): its BREAKs also set a flag that breaks
 * the outer loop after the inner one. */
bool isel_select_loop(struct isel *s, const struct ir_cf *cf)
{
	struct cg_ctx *cg = s->cg;
	const struct ir_block *head = block_of(cf->body.first), *after = block_of(cf->next);
	if (head && head->first)
		s->loc = head->first->loc;
	struct isel_loop l = { .cf = cf, .outer = s->loop,
			       .ncont_total = ir_cf_list_jumps(&cf->body, IR_JUMP_CONTINUE),
			       .flag = -1 };
	int outer_op = -1, outer_end = -1;
	if (!assign_phis(s, head) || !assign_phis(s, after) ||
	    !phi_copies(s, head, PHI_SRC, 0, 0))
		return false;
	bool bounded;
	uint8_t trips = loop_passes(cf, &bounded);
	if (!bounded) {
		if ((l.flag = new_multi(s, 1)) < 0 || !late_copy(s, l.flag, 1, ZERO) ||
		    !flush_latches(s) || !fc_enter(s, s->loc) || !fc_new(s, &outer_op, FC_LOOP))
			return false;
	}
	/* aL = 0, step, 2 step, ... when the loop reads uniforms through it */
	int step = 0, ic = -1;
	if (cg_rel_loop_step(cg, cf, &step) && (ic = cg_int_const(cg, (struct r500_loop_const){
				.count = 255, .init = 0, .step = (int8_t)step })) > 0)
		l.rel = true;
	else
		ic = cg_int_const(cg, (struct r500_loop_const){ .count = 255 });
	struct r500_fc loop_fc = FC_LOOP, end_fc = FC_ENDLOOP;
	loop_fc.int_addr = end_fc.int_addr = (uint16_t)(ic > 0 ? ic : 0);
	if (!fc_enter(s, s->loc) || !flush_latches(s) || !fc_new(s, &l.loop_op, loop_fc))
		return false;
	cg->ops[l.loop_op].trips = trips;
	int npath = s->npath;
	s->npath = 0;
	s->loop = &l;
	int end_op = -1;
	bool ok = isel_list(s, &cf->body) && phi_copies(s, head, PHI_SRC, 1, 0) &&
		  flush_latches(s) && fc_new(s, &end_op, end_fc);
	s->loop = l.outer;
	s->npath = npath;
	s->fc_depth--;
	if (!ok)
		return false;
	fc_target(s, l.loop_op, end_op, 0);
	fc_target(s, end_op, l.loop_op, 1);
	/* this loop's BREAK / CONTINUE: BREAK to ENDLOOP+1, CONTINUE to ENDLOOP */
	for (int i = l.loop_op + 1; i < end_op; i++) {
		struct cg_op *op = &cg->ops[i];
		if (op->opc == CG_FC && op->fc_target == l.loop_op &&
		    (op->fc.op == R500_FC_BREAKLOOP || op->fc.op == R500_FC_CONTINUE))
			op->fc_target = end_op;
	}
	if (!record_loop(cg, l.loop_op, end_op))
		return false;
	if (l.flag >= 0) {
		ok = outer_tail(s, l.flag, outer_op, &outer_end);
		s->fc_depth--;
	}
	return ok;
}

/* Outputs written inside an IF or a LOOP are latched (struct isel). */
void isel_mark_latches(struct isel *s, const struct ir_cf_list *list, bool nested)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			isel_mark_latches(s, &cf->then_list, true);
			isel_mark_latches(s, &cf->else_list, true);
		} else if (cf->kind == IR_CF_LOOP) {
			s->has_fc = true;
			isel_mark_latches(s, &cf->body, true);
		} else {
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				if (nested && in->op == IR_OP_OUTPUT && in->index >= 0 &&
				    in->index < s->cg->func->noutputs)
					s->latch[in->index] = true;
		}
		if (cf->kind == IR_CF_IF && isel_if_needs_fc(s, cf))
			s->has_fc = true;
	}
}


bool isel_late_copy(struct isel *s, int dst, int n, struct cg_opnd o)
{
	return isel_stable_opnd(s, n, &o) && late_copy(s, dst, n, o);
}
