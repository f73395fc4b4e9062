/* Common subexpression elimination: a pure instruction identical to one
 * visible at its place (same op, width, type, table fields, constants and
 * sources as read) is replaced by that one and removed.  Visibility follows
 * the structured scoping of ir.h: values of an if branch or loop body are
 * forgotten when it ends.  Commutative two-source ops also match with the
 * sources swapped.  Side effects and PHIs are never merged.
 *
 * Linear in the function: candidates live in a hash table whose entries
 * are popped in LIFO order when a scope ends, and a removed instruction
 * leaves a forwarding mark (ir_forward) that its later readers follow as
 * the walk reaches them, instead of a walk of the whole function per
 * removal.  Loop-header PHIs read values defined later in the body; one
 * final walk forwards what is left.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <string.h>

struct cse_entry {
	struct ir_instr *instr;
	uint32_t hash;
	struct cse_entry *next;   /* bucket chain */
};

struct cse {
	struct ir_func *f;
	struct cse_entry **buckets;
	uint32_t mask;
	struct cse_entry *stack;  /* entries in insertion order */
	uint32_t nstack, cap;
	bool progress;
};

static bool commutative(enum ir_op op)
{
	return ir_op_infos[op].flags & IRF_COMMUTATIVE;
}

/* A LOAD (IRF_MEM) is never merged: a STORE between two may change
 * what the second reads. */
static bool candidate(const struct ir_instr *in)
{
	return in->ncomp > 0 && in->op != IR_OP_PHI &&
	       !(ir_op_infos[in->op].flags & (IRF_SIDE | IRF_MEM));
}

static bool same_src(const struct ir_func *f, const struct ir_instr *a, int ia,
		     const struct ir_instr *b, int ib)
{
	if (a->src[ia].def != b->src[ib].def)
		return false;
	int n = ir_src_ncomp(f, a, ia);
	return n == ir_src_ncomp(f, b, ib) && memcmp(a->src[ia].swz, b->src[ib].swz, (size_t)n) == 0;
}

static bool same_srcs(const struct ir_func *f, const struct ir_instr *a, const struct ir_instr *b,
		      bool swapped)
{
	for (int i = 0; i < a->nsrc && i < IR_MAX_SRCS; i++)
		if (!same_src(f, a, swapped ? 1 - i : i, b, i))
			return false;
	return true;
}

static int const_ncomp(const struct ir_instr *in)
{
	return in->ncomp < 4 ? in->ncomp : 4;
}

static bool same_instr(const struct ir_func *f, const struct ir_instr *a, const struct ir_instr *b)
{
	if (a->op != b->op || a->ncomp != b->ncomp || a->base != b->base || a->nsrc != b->nsrc ||
	    a->index != b->index || a->offset != b->offset || a->tex_kind != b->tex_kind ||
	    a->tex_shadow != b->tex_shadow)
		return false;
	if (a->op == IR_OP_CONST &&
	    memcmp(a->imm, b->imm, sizeof(float) * (size_t)const_ncomp(a)) != 0)
		return false;
	if (same_srcs(f, a, b, false))
		return true;
	return a->nsrc == 2 && commutative(a->op) && same_srcs(f, a, b, true);
}

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v;
	h *= 16777619u;
	return h ^ (h >> 15);
}

/* A hash that same_instr-equal instructions share: the fields it compares,
 * and each source's def id and read swizzle (order-free when commutative). */
static uint32_t instr_hash(const struct ir_func *f, const struct ir_instr *in)
{
	uint32_t h = 2166136261u;
	h = mix(h, (uint32_t)in->op | (uint32_t)in->ncomp << 8 | (uint32_t)in->base << 12 |
			   (uint32_t)in->nsrc << 16 | (uint32_t)in->tex_kind << 20 |
			   (uint32_t)in->tex_shadow << 24);
	h = mix(h, (uint32_t)in->index);
	h = mix(h, (uint32_t)in->offset);
	if (in->op == IR_OP_CONST)
		for (int c = 0; c < const_ncomp(in); c++) {
			uint32_t bits;
			memcpy(&bits, &in->imm[c], sizeof bits);
			h = mix(h, bits);
		}
	bool free_order = in->nsrc == 2 && commutative(in->op);
	uint32_t order_free = 0;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		uint32_t s = mix(2166136261u, in->src[i].def ? in->src[i].def->id : 0xffffffffu);
		int n = ir_src_ncomp(f, in, i);
		for (int c = 0; c < n && c < 4; c++)
			s = mix(s, in->src[i].swz[c]);
		if (free_order)
			order_free += s;
		else
			h = mix(h, s);
	}
	return free_order ? mix(h, order_free) : h;
}

static struct ir_instr *find(const struct cse *c, const struct ir_instr *in, uint32_t hash)
{
	for (const struct cse_entry *e = c->buckets[hash & c->mask]; e; e = e->next)
		if (e->hash == hash && same_instr(c->f, e->instr, in))
			return e->instr;
	return NULL;
}

static void add(struct cse *c, struct ir_instr *in, uint32_t hash)
{
	if (c->nstack == c->cap)
		return; /* sized for every instruction up front; never reached */
	struct cse_entry *e = &c->stack[c->nstack++];
	e->instr = in;
	e->hash = hash;
	e->next = c->buckets[hash & c->mask];
	c->buckets[hash & c->mask] = e;
}

/* Forget the entries added since `mark` (each is the head of its chain). */
static void pop_to(struct cse *c, uint32_t mark)
{
	while (c->nstack > mark) {
		struct cse_entry *e = &c->stack[--c->nstack];
		c->buckets[e->hash & c->mask] = e->next;
	}
}

static void forward_srcs(struct ir_instr *in)
{
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		ir_src_forward(&in->src[i]);
}

static void cse_list(struct cse *c, struct ir_cf_list *list);

static void cse_block(struct cse *c, struct ir_block *bl)
{
	for (struct ir_instr *in = bl->first, *next; in; in = next) {
		next = in->next;
		forward_srcs(in);
		if (!candidate(in))
			continue;
		uint32_t hash = instr_hash(c->f, in);
		struct ir_instr *prev = find(c, in, hash);
		if (prev) {
			ir_forward(in, prev);
			ir_instr_remove(in);
			c->progress = true;
		} else {
			add(c, in, hash);
		}
	}
}

static void cse_list(struct cse *c, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		uint32_t mark = c->nstack;
		switch (cf->kind) {
		case IR_CF_BLOCK:
			cse_block(c, &cf->block);
			break;
		case IR_CF_IF:
			ir_src_forward(&cf->cond);
			cse_list(c, &cf->then_list);
			pop_to(c, mark);
			cse_list(c, &cf->else_list);
			pop_to(c, mark);
			break;
		case IR_CF_LOOP:
			cse_list(c, &cf->body);
			pop_to(c, mark);
			break;
		}
	}
}

static void count_instr(struct ir_instr *in, void *ud)
{
	(void)in;
	(*(uint32_t *)ud)++;
}

bool ir_opt_cse(struct ir_func *f)
{
	uint32_t count = 0;
	ir_foreach_instr(f, count_instr, &count);
	uint32_t nbuckets = 64;
	while (nbuckets < count * 2u && nbuckets < (1u << 30))
		nbuckets *= 2;
	struct cse c = { .f = f, .mask = nbuckets - 1, .cap = count };
	/* not zeroed by the arena: the buckets are cleared below, the
	 * stack's entries set as they are pushed */
	c.buckets = arena_alloc_unzeroed(f->arena, sizeof *c.buckets * nbuckets);
	c.stack = arena_alloc_unzeroed(f->arena, sizeof *c.stack * (count ? count : 1));
	if (!c.buckets || !c.stack)
		return false;
	memset(c.buckets, 0, sizeof *c.buckets * nbuckets);
	cse_list(&c, &f->body);
	if (c.progress) {
		/* readers the walk met before their def was removed: loop PHIs */
		ir_apply_forwards(f);
	}
	return c.progress;
}
