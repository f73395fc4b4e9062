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
 * a loop) when it leaves the loop for good.
 *
 * The other way round, a PHI q at the end of an IF or loop whose only
 * reader is PHI p (given its vreg before q, as an outer IF's join or a
 * loop head is) may live in p's vreg: nested IFs that each update an
 * accumulator then build it in one register instead of copying it
 * outward join by join (an unrolled loop over an array, `if (a) { c +=
 * x; if (b) c += y; }`).  q's vreg is written from the start of its IF
 * (an IF without ELSE copies the else value before the jump) until p
 * takes it, so no other value of p's vreg may be read or written there
 * (p and the PHIs joined the same way into p, which take q's value
 * along, aside), nor read inside a loop around q that does not hold
 * p's copy.  A vreg with such a member takes no PHI by the first rule
 * (whose checks do not see these ranges). */
#include "isel.h"

#include <string.h>

struct share_use {
	const struct ir_instr *user;   /* NULL: an IF's condition */
	int pos;                       /* where the read runs (program order) */
	int lo, hi;                    /* the earliest and latest it may run: a
					  PHI's copies from before its IF's jump
					  to the end of a path, or at a BREAK */
	const struct ir_cf *loop;      /* innermost loop around the read */
	const struct ir_cf *runs_in;   /* the same, or the loop a BREAK's copy
					  leaves */
};

struct isel_phi_share {
	int *pos;                      /* by id */
	const struct ir_cf **loop;     /* by id: innermost loop around it */
	int *first, *count;            /* by id: its reads, share_use[first ..] */
	struct share_use *use;
	int nuse;
	bool *plain;                   /* by id: a PHI with a vreg of its own making */
	int *start, *end;              /* by id: a PHI after an IF or loop: where
					  its copies run, from the IF's start or
					  the first BREAK to the PHI or the last
					  BREAK; start -1: any other value */
	const struct ir_instr **into;  /* by id: the PHI it joined (second rule) */
	int *joined, njoined;          /* the ids that joined a PHI's vreg */
};

struct walk {
	struct isel *s;
	struct isel_phi_share *sh;
	int pos;
	bool fill;                     /* second walk: the uses, counted before */
};

static void add_use(struct walk *w, const struct ir_instr *d, const struct ir_instr *user, int lo,
		    int hi, int pos, const struct ir_cf *loop, const struct ir_cf *runs_in)
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
	u->lo = lo > sh->pos[d->id] ? lo : sh->pos[d->id]; /* not before d is made */
	u->hi = hi > u->lo ? hi : u->lo;
	u->loop = loop;
	u->runs_in = runs_in;
}

static void walk_list(struct walk *w, const struct ir_cf_list *l, const struct ir_cf *loop);

/* The position of the k-th BREAK (program order) that leaves `loop`, -1
 * when there is none; nested loops' BREAKs are theirs. */
static int find_break(const struct isel_phi_share *sh, const struct ir_cf_list *l, int *k, uint32_t nids)
{
	for (const struct ir_cf *c = l->first; c; c = c->next) {
		int at = -1;
		if (c->kind == IR_CF_BLOCK) {
			for (const struct ir_instr *in = c->block.first; in; in = in->next)
				if (in->op == IR_OP_BREAK && (*k)-- == 0)
					return in->id < nids ? sh->pos[in->id] : -1;
		} else if (c->kind == IR_CF_IF) {
			if ((at = find_break(sh, &c->then_list, k, nids)) >= 0 ||
			    (at = find_break(sh, &c->else_list, k, nids)) >= 0)
				return at;
			if (*k < 0)
				return -1;
		}
	}
	return -1;
}

/* A PHI after loop `left` is written at its BREAKs: start and end from
 * the first to the last of them (or the loop and the PHI). */
static void breaks_of(struct walk *w, const struct ir_instr *phi, const struct ir_cf *left)
{
	int lo = -1, hi = -1;
	for (int k = 0; k < phi->nsrc && k < IR_MAX_SRCS; k++) {
		int n = k, brk = find_break(w->sh, &left->body, &n, w->s->nids);
		if (brk < 0)
			return;
		lo = lo < 0 || brk < lo ? brk : lo;
		hi = brk > hi ? brk : hi;
	}
	if (lo >= 0) {
		w->sh->start[phi->id] = lo;
		w->sh->end[phi->id] = hi;
	}
}

/* The PHIs at the start of the block after c (an IF or loop) start
 * where c does. */
static void mark_join(struct walk *w, const struct ir_cf *c, int at)
{
	const struct ir_cf *next = c->next;
	if (!next || next->kind != IR_CF_BLOCK)
		return;
	for (const struct ir_instr *in = next->block.first; in && in->op == IR_OP_PHI; in = in->next)
		if (in->id < w->s->nids)
			w->sh->start[in->id] = at;
}

/* A block's instructions and their reads; head_of: the loop whose head
 * block it is (its PHIs read their first source before the loop, the
 * others at `end`, after the body). */
static void walk_block(struct walk *w, const struct ir_block *b, const struct ir_cf *loop,
		       const struct ir_cf *head_of, int end, const struct ir_cf *left)
{
	for (const struct ir_instr *in = b->first; in; in = in->next) {
		w->pos += 2;
		if (in->id < w->s->nids) {
			w->sh->pos[in->id] = w->pos;
			w->sh->loop[in->id] = loop;
		}
		bool join = in->op == IR_OP_PHI && !head_of && in->id < w->s->nids &&
			    w->sh->start[in->id] >= 0;
		if (join)
			w->sh->end[in->id] = w->pos;
		if (join && left) /* the copies run at the BREAKs */
			breaks_of(w, in, left);
		for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++) {
			bool head = in->op == IR_OP_PHI && head_of;
			int at = !head ? w->pos : k == 0 ? w->pos - 1 : end;
			int lo = join ? w->sh->start[in->id] : at, hi = at;
			const struct ir_cf *around = head && k == 0 ? ir_cf_loop_around(head_of) : loop;
			if (join && left) { /* copied at the k-th BREAK */
				int n = k, brk = find_break(w->sh, &left->body, &n, w->s->nids);
				if (brk >= 0)
					lo = hi = brk;
			}
			add_use(w, in->src[k].def, in, lo, hi, at, around, join && left ? left : around);
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
			walk_block(w, &c->block, loop, NULL, 0,
				   c->prev && c->prev->kind == IR_CF_LOOP ? c->prev : NULL);
		} else if (c->kind == IR_CF_IF) {
			w->pos += 2;
			mark_join(w, c, w->pos);
			add_use(w, c->cond.def, NULL, w->pos, w->pos, w->pos, loop, loop);
			walk_list(w, &c->then_list, loop);
			walk_list(w, &c->else_list, loop);
		} else { /* the body takes 2 * count_list positions, then 2 */
			mark_join(w, c, w->pos + 1);
			int end = w->pos + 2 * count_list(&c->body) + 1;
			struct ir_cf *first = c->body.first;
			if (first && first->kind == IR_CF_BLOCK) {
				walk_block(w, &first->block, c, c, end, NULL);
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
	sh->start = arena_alloc(a, sizeof *sh->start * n);
	sh->end = arena_alloc(a, sizeof *sh->end * n);
	sh->into = arena_alloc(a, sizeof *sh->into * n);
	sh->joined = arena_alloc(a, sizeof *sh->joined * n);
	if (!sh->pos || !sh->loop || !sh->first || !sh->count || !sh->plain || !sh->start ||
	    !sh->end || !sh->into || !sh->joined)
		return false;
	memset(sh->start, 0xff, sizeof *sh->start * n); /* -1 */
	memset(sh->into, 0, sizeof *sh->into * n);
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
	for (int i = 0; i < sh->njoined; i++)
		if (s->vreg_of[sh->joined[i]] == vq)
			return false;
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

/* Whether value id is p or a PHI that p joined on the way out. */
static bool on_chain(const struct isel_phi_share *sh, uint32_t id, const struct ir_instr *p,
		     uint32_t nids)
{
	for (; p && p->id < nids; p = sh->into[p->id])
		if (p->id == id)
			return true;
	return false;
}

/* The loop around q, outermost, that does not hold `site` (the loop
 * where q's reader copies it), NULL when q's loops all do. */
static const struct ir_cf *loop_left_out(const struct ir_cf *q_loop, const struct ir_cf *site)
{
	const struct ir_cf *out = NULL;
	for (const struct ir_cf *l = q_loop; l && l != site; l = ir_cf_loop_around(l))
		out = l;
	return out && inside(site, out) ? NULL : out;
}

/* Whether value v (another member of the vreg q would join) stays out
 * of q's range [lo, hi): not written there (but by the chain from p
 * out), not read there but by the chain, nor read inside `out`. */
static bool clear_of(const struct isel *s, const struct ir_instr *q, const struct ir_instr *p,
		     uint32_t v, int lo, int hi, const struct ir_cf *out)
{
	const struct isel_phi_share *sh = s->share;
	bool join = sh->start[v] >= 0;
	int def_lo = join ? sh->start[v] : sh->pos[v], def_hi = join ? sh->end[v] : sh->pos[v];
	if (def_lo < hi && def_hi >= lo && !on_chain(sh, v, p, s->nids))
		return false; /* the chain's writes carry q's value */
	for (int i = 0; i < sh->count[v]; i++) {
		const struct share_use *u = &sh->use[sh->first[v] + i];
		if (u->user == q || (u->user && on_chain(sh, u->user->id, p, s->nids)))
			continue;
		if ((u->lo < hi && u->hi >= lo) || (out && inside(u->runs_in, out)))
			return false;
	}
	return true;
}

/* The vreg of the only reader of q, a PHI after an IF or loop, when q
 * may live there (the second rule above); -1 otherwise. */
static int join_reader_vreg(struct isel *s, const struct ir_instr *q)
{
	struct isel_phi_share *sh = s->share;
	if (q->id >= s->nids || sh->start[q->id] < 0 || !sh->count[q->id])
		return -1;
	const struct share_use *last = NULL;
	for (int i = 0; i < sh->count[q->id]; i++) {
		const struct share_use *u = &sh->use[sh->first[q->id] + i];
		if (!u->user || u->user->op != IR_OP_PHI || (last && u->user != last->user))
			return -1;
		if (!last || u->pos > last->pos)
			last = u;
	}
	const struct ir_instr *p = last->user;
	if (p->id >= s->nids || !sh->plain[p->id] || s->vreg_of[p->id] < 0 || p->ncomp != q->ncomp ||
	    s->cg->vregs[s->vreg_of[p->id]].ncomp != q->ncomp)
		return -1;
	for (int k = 0; k < p->nsrc && k < IR_MAX_SRCS; k++)
		if (p->src[k].def == q && !ir_swz_identity(&p->src[k], q->ncomp))
			return -1;
	int vp = s->vreg_of[p->id], lo = sh->start[q->id], hi = last->pos;
	const struct ir_cf *out = loop_left_out(sh->loop[q->id], last->loop);
	for (uint32_t v = 0; v < s->nids; v++)
		if (s->vreg_of[v] == vp && v != q->id && !clear_of(s, q, p, v, lo, hi, out))
			return -1;
	sh->into[q->id] = p;
	sh->joined[sh->njoined++] = (int)q->id;
	return vp;
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
	return join_reader_vreg(s, phi);
}

void isel_phi_share_note(struct isel *s, const struct ir_instr *phi)
{
	if (s->share && phi->id < s->nids)
		s->share->plain[phi->id] = true;
}
