/* Common subexpression elimination: a pure instruction identical to one
 * visible at its place (same op, width, type, table fields, constants and
 * sources as read) is replaced by that one and removed.  Visibility follows
 * the structured scoping of ir.h: values of an if branch or loop body are
 * forgotten when it ends.  Commutative two-source ops also match with the
 * sources swapped.  Side effects and PHIs are never merged.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <string.h>

struct cse {
	struct ir_func *f;
	struct ir_instr **avail;  /* visible candidates, innermost scope last */
	uint32_t navail, cap;
	bool progress;
};

static bool commutative(enum ir_op op)
{
	static const bool table[IR_OP_COUNT] = {
		[IR_OP_ADD] = true, [IR_OP_MUL] = true, [IR_OP_MIN] = true, [IR_OP_MAX] = true,
		[IR_OP_EQ] = true,  [IR_OP_NE] = true,  [IR_OP_AND] = true, [IR_OP_OR] = true,
		[IR_OP_XOR] = true, [IR_OP_DOT2] = true, [IR_OP_DOT3] = true, [IR_OP_DOT4] = true,
	};
	return table[op];
}

static bool candidate(const struct ir_instr *in)
{
	return in->ncomp > 0 && in->op != IR_OP_PHI && !(ir_op_infos[in->op].flags & IRF_SIDE);
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

static bool same_instr(const struct ir_func *f, const struct ir_instr *a, const struct ir_instr *b)
{
	if (a->op != b->op || a->ncomp != b->ncomp || a->base != b->base || a->nsrc != b->nsrc ||
	    a->index != b->index || a->offset != b->offset || a->tex_kind != b->tex_kind ||
	    a->tex_shadow != b->tex_shadow)
		return false;
	if (a->op == IR_OP_CONST &&
	    memcmp(a->imm, b->imm, sizeof(float) * (size_t)(a->ncomp < 4 ? a->ncomp : 4)) != 0)
		return false;
	if (same_srcs(f, a, b, false))
		return true;
	return a->nsrc == 2 && commutative(a->op) && same_srcs(f, a, b, true);
}

static struct ir_instr *find(const struct cse *c, const struct ir_instr *in)
{
	for (uint32_t i = c->navail; i-- > 0;)
		if (same_instr(c->f, c->avail[i], in))
			return c->avail[i];
	return NULL;
}

static void add(struct cse *c, struct ir_instr *in)
{
	if (c->navail == c->cap) {
		uint32_t ncap = c->cap ? c->cap * 2 : 64;
		struct ir_instr **n = arena_realloc(c->f->arena, c->avail,
						    sizeof *n * c->cap, sizeof *n * ncap);
		if (!n)
			return;
		c->avail = n;
		c->cap = ncap;
	}
	c->avail[c->navail++] = in;
}

static void cse_list(struct cse *c, struct ir_cf_list *list);

static void cse_block(struct cse *c, struct ir_block *bl)
{
	for (struct ir_instr *in = bl->first, *next; in; in = next) {
		next = in->next;
		if (!candidate(in))
			continue;
		struct ir_instr *prev = find(c, in);
		if (prev) {
			ir_replace_uses(c->f, in, prev);
			ir_instr_remove(in);
			c->progress = true;
		} else {
			add(c, in);
		}
	}
}

static void cse_list(struct cse *c, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		uint32_t mark = c->navail;
		switch (cf->kind) {
		case IR_CF_BLOCK:
			cse_block(c, &cf->block);
			break;
		case IR_CF_IF:
			cse_list(c, &cf->then_list);
			c->navail = mark;
			cse_list(c, &cf->else_list);
			c->navail = mark;
			break;
		case IR_CF_LOOP:
			cse_list(c, &cf->body);
			c->navail = mark;
			break;
		}
	}
}

bool ir_opt_cse(struct ir_func *f)
{
	struct cse c = { .f = f };
	cse_list(&c, &f->body);
	return c.progress;
}
