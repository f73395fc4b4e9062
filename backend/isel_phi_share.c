/* PHIs that share a register with a PHI they take (isel_cf.c's SSA
 * destruction gives each PHI a multi vreg written by late copies).
 *
 * A loop's accumulator c = phi(c0, c') meets c' = phi(c + s, c) after an
 * IF in the body and e = phi(c, c + s) after the loop: three multi vregs
 * and a copy on every edge between them (ball: t7 = t6, t13 = t6,
 * t7 = t13, t6 = t13, four slots a trip on its 64 trips).  When p, being
 * given its vreg, takes PHI q on some path and q is read nowhere after p
 * is made, p can live in q's vreg: the copy p <- q is then no copy at all
 * (phi_copies skips it), and so is a later copy between the two.
 *
 * "After p is made" in program order, with the reads of a PHI's source
 * placed where the copy runs: a loop head's back-edge sources at the end
 * of its body, the others at the PHI (conservatively late for a PHI after
 * a loop, whose copies run at the BREAKs).  A read by p itself, or by a
 * PHI already sharing q's vreg, does not count.  When q is made outside
 * p's innermost loop, no read of q inside that loop may count either (it
 * would run again after p, on the next trip).
 *
 * A pixel that takes the other path writes p's value into the vreg it
 * shares with q only where q is dead: after p, on that path, or (p after
 * a loop) when it leaves the loop for good. */
#include "isel.h"

#include <string.h>

struct share_use {
	const struct ir_instr *user;   /* NULL: an IF's condition */
	int pos;                       /* where the read runs (program order) */
	const struct ir_cf *loop;      /* innermost loop around the read */
};

struct isel_phi_share {
	int *pos;                      /* by id */
	const struct ir_cf **loop;     /* by id: innermost loop around it */
	int *first, *count;            /* by id: its reads, share_use[first ..] */
	struct share_use *use;
	int nuse;
	bool *plain;                   /* by id: a PHI with a vreg of its own making */
};

struct walk {
	struct isel *s;
	struct isel_phi_share *sh;
	int pos;
	bool fill;                     /* second walk: the uses, counted before */
};

static void add_use(struct walk *w, const struct ir_instr *d, const struct ir_instr *user, int pos,
		    const struct ir_cf *loop)
{
	struct isel_phi_share *sh = w->sh;
	if (!d || d->id >= w->s->nids)
		return;
	if (!w->fill) {
		sh->count[d->id]++;
		return;
	}
	struct share_use *u = &sh->use[sh->first[d->id] + sh->count[d->id]++];
	u->user = user;
	u->pos = pos;
	u->loop = loop;
}

static void walk_list(struct walk *w, const struct ir_cf_list *l, const struct ir_cf *loop);

/* A block's instructions and their reads; head_of: the loop whose head
 * block it is (its PHIs read their first source before the loop, the
 * others at `end`, after the body). */
static void walk_block(struct walk *w, const struct ir_block *b, const struct ir_cf *loop,
		       const struct ir_cf *head_of, int end)
{
	for (const struct ir_instr *in = b->first; in; in = in->next) {
		w->pos += 2;
		if (in->id < w->s->nids) {
			w->sh->pos[in->id] = w->pos;
			w->sh->loop[in->id] = loop;
		}
		for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++) {
			bool head = in->op == IR_OP_PHI && head_of;
			int at = !head ? w->pos : k == 0 ? w->pos - 1 : end;
			add_use(w, in->src[k].def, in, at,
				head && k == 0 ? ir_cf_loop_around(head_of) : loop);
		}
	}
}

/* The steps walk_list takes over l: one per instruction, IF and loop
 * (so that a loop's end is known before its body is walked). */
static int count_list(const struct ir_cf_list *l)
{
	int n = 0;
	for (const struct ir_cf *c = l->first; c; c = c->next) {
		if (c->kind == IR_CF_BLOCK)
			for (const struct ir_instr *in = c->block.first; in; in = in->next)
				n++;
		else if (c->kind == IR_CF_IF)
			n += 1 + count_list(&c->then_list) + count_list(&c->else_list);
		else
			n += 1 + count_list(&c->body);
	}
	return n;
}

static void walk_list(struct walk *w, const struct ir_cf_list *l, const struct ir_cf *loop)
{
	for (const struct ir_cf *c = l->first; c; c = c->next) {
		if (c->kind == IR_CF_BLOCK) {
			walk_block(w, &c->block, loop, NULL, 0);
		} else if (c->kind == IR_CF_IF) {
			w->pos += 2;
			add_use(w, c->cond.def, NULL, w->pos, loop);
			walk_list(w, &c->then_list, loop);
			walk_list(w, &c->else_list, loop);
		} else { /* the body takes 2 * count_list positions, then 2 */
			int end = w->pos + 2 * count_list(&c->body) + 1;
			struct ir_cf *first = c->body.first;
			if (first && first->kind == IR_CF_BLOCK) {
				walk_block(w, &first->block, c, c, end);
				first = first->next;
			}
			struct ir_cf_list rest = { first, first ? c->body.last : NULL };
			walk_list(w, &rest, c);
			w->pos = end + 1;
		}
	}
}

bool isel_phi_share_init(struct isel *s)
{
	struct arena *a = s->cg->arena;
	struct isel_phi_share *sh = arena_alloc(a, sizeof *sh);
	if (!sh)
		return false;
	memset(sh, 0, sizeof *sh);
	size_t n = s->nids;
	sh->pos = arena_alloc(a, sizeof *sh->pos * n);
	sh->loop = arena_alloc(a, sizeof *sh->loop * n);
	sh->first = arena_alloc(a, sizeof *sh->first * n);
	sh->count = arena_alloc(a, sizeof *sh->count * n);
	sh->plain = arena_alloc(a, sizeof *sh->plain * n);
	if (!sh->pos || !sh->loop || !sh->first || !sh->count || !sh->plain)
		return false;
	memset(sh->count, 0, sizeof *sh->count * n);
	memset(sh->plain, 0, sizeof *sh->plain * n);
	memset(sh->pos, 0, sizeof *sh->pos * n);
	memset(sh->loop, 0, sizeof *sh->loop * n);
	struct walk w = { s, sh, 0, false };
	walk_list(&w, &s->cg->func->body, NULL);
	int total = 0;
	for (size_t i = 0; i < n; i++) {
		sh->first[i] = total;
		total += sh->count[i];
		sh->count[i] = 0;
	}
	sh->use = arena_alloc(a, sizeof *sh->use * (size_t)(total ? total : 1));
	if (!sh->use)
		return false;
	sh->nuse = total;
	w = (struct walk){ s, sh, 0, true };
	walk_list(&w, &s->cg->func->body, NULL);
	s->share = sh;
	return true;
}

static bool inside(const struct ir_cf *loop, const struct ir_cf *outer)
{
	for (; loop; loop = loop->parent)
		if (loop == outer)
			return true;
	return false;
}

/* Whether p may live in the vreg of q, a PHI source of it. */
static bool may_share(const struct isel *s, const struct ir_instr *p, const struct ir_instr *q)
{
	const struct isel_phi_share *sh = s->share;
	if (q->op != IR_OP_PHI || q->id >= s->nids || !sh->plain[q->id] || q->ncomp != p->ncomp ||
	    s->vreg_of[q->id] < 0)
		return false;
	int vq = s->vreg_of[q->id], at = sh->pos[p->id];
	const struct ir_cf *lp = sh->loop[p->id];
	bool q_outside = lp && !inside(sh->loop[q->id], lp);
	for (int i = 0; i < sh->count[q->id]; i++) {
		const struct share_use *u = &sh->use[sh->first[q->id] + i];
		if (u->user == p ||
		    (u->user && u->user->op == IR_OP_PHI && u->user->id < s->nids &&
		     s->vreg_of[u->user->id] == vq))
			continue;
		if (u->pos >= at || (q_outside && inside(u->loop, lp)))
			return false;
	}
	return true;
}

int isel_phi_share_vreg(struct isel *s, const struct ir_instr *phi)
{
	if (!s->share || !cg_opt_enabled(s->cg, SW_PHI_SHARE))
		return -1;
	for (int k = 0; k < phi->nsrc && k < IR_MAX_SRCS; k++) {
		const struct ir_instr *q = phi->src[k].def;
		if (q && ir_swz_identity(&phi->src[k], phi->ncomp) && may_share(s, phi, q))
			return s->vreg_of[q->id];
	}
	return -1;
}

void isel_phi_share_note(struct isel *s, const struct ir_instr *phi)
{
	if (s->share && phi->id < s->nids)
		s->share->plain[phi->id] = true;
}
