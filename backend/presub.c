/* Presubtract: an add, a subtract or `1 - x` whose every reader can take
 * it as a presubtract operand (ISA.md §4.2: srcp = 1-src0, src1-src0 or
 * src1+src0, computed from the raw registers in address slots 0 and 1 of
 * the reading instruction's unit) costs no instruction of its own.
 *
 *   v = x - y;  r = v * z + w   ->   r = (x - y) * z + w   (srcp, SUB)
 *
 * The op computing v goes; each reader gets the presubtract's sources as
 * its operands CG_PSRC0/CG_PSRC1 and reads CG_FILE_PRESUB where it read v.
 * Conditions: the sources are plain registers (no modifier) holding SSA
 * values, so they are the same wherever v is read; SUB and ADD combine
 * the two sources channel by channel, so their lanes must be known and
 * equal; one presubtract per reader; and the reader's registers fit one
 * instruction with the presubtract's in addresses 0 and 1, so the
 * scheduler can always place it (in an empty slot at worst).
 *
 * Needs: isel, copy-fold and merge (their ops final).  Gives: fewer ops;
 * the scheduler places sources and SRCP_OP, hazards.c the NOP that must
 * follow a writer of a presubtract source. */
#include "cg.h"

#include <string.h>

/* Readers of each vreg, built once: readers of v are
 * list[start[v] .. start[v + 1]) (an op once per vreg it reads). */
struct reader_index {
	int *start;
	int *list;
};

/* Whether operand k is the op's first operand reading its vreg (so an op
 * is listed once per vreg it reads). */
static bool first_read(const struct cg_op *op, int k)
{
	const struct cg_opnd *o = &op->src[k];
	if (op->dead || o->file != CG_FILE_VREG || !cg_op_entries(op, k))
		return false;
	for (int e = 0; e < k; e++)
		if (op->src[e].file == CG_FILE_VREG && op->src[e].index == o->index &&
		    cg_op_entries(op, e))
			return false;
	return true;
}

static bool build_readers(struct cg_ctx *cg, struct reader_index *ri)
{
	int nv = cg->nvregs, total = 0;
	ri->start = arena_alloc(cg->arena, sizeof(int) * (size_t)(nv + 2));
	if (!ri->start)
		return false;
	memset(ri->start, 0, sizeof(int) * (size_t)(nv + 2));
	for (int i = 0; i < cg->nops; i++)
		for (int k = 0; k < CG_NSRC; k++)
			if (first_read(&cg->ops[i], k))
				ri->start[cg->ops[i].src[k].index + 2]++;
	for (int v = 0; v < nv; v++) {
		total += ri->start[v + 2];
		ri->start[v + 2] = total;
	}
	ri->list = arena_alloc(cg->arena, sizeof(int) * (size_t)(total + 1));
	if (!ri->list)
		return false;
	for (int i = 0; i < cg->nops; i++) /* start[v + 1] runs as v's fill pointer */
		for (int k = 0; k < CG_NSRC; k++)
			if (first_read(&cg->ops[i], k))
				ri->list[ri->start[cg->ops[i].src[k].index + 1]++] = i;
	return true;
}

/* What an add-shaped op computes, as a presubtract: kind and sources
 * (s0 = src0, s1 = src1 of the hardware formula). */
struct presub_form {
	int kind;
	const struct cg_opnd *s0, *s1;
};

/* A register operand a presubtract can read: a constant slot or an SSA
 * vreg, every written component a real one (no constant swizzle). */
static bool plain_source(const struct cg_ctx *cg, const struct cg_opnd *o, unsigned mask)
{
	if (o->file == CG_FILE_VREG) {
		const struct cg_vreg *v = &cg->vregs[o->index];
		if (v->multi)
			return false;
	} else if (o->file != CG_FILE_CONST) {
		return false;
	}
	for (int c = 0; c < 4; c++)
		if ((mask & (1u << c)) && o->swz[c] >= CG_SWZ_ZERO)
			return false;
	return o->mod == R500_MOD_NONE || o->mod == R500_MOD_NEG;
}

/* MAD(x, 1, y) or MAD(1, x, y) as 1-x, x-y or x+y. */
static bool match_form(const struct cg_ctx *cg, const struct cg_op *op, struct presub_form *f)
{
	if (op->dead || op->opc != CG_MAD || op->dst < 0 || op->out != CG_OUT_NONE ||
	    op->clamp || op->omod || op->late || op->alu_result || op->presub)
		return false;
	const struct cg_vreg *d = &cg->vregs[op->dst];
	if (d->multi || d->input >= 0)
		return false;
	unsigned m = op->wmask;
	const struct cg_opnd *x, *y = &op->src[2];
	if (cg_opnd_const_swizzles(&op->src[1], m, CG_SWZ_ONE))
		x = &op->src[0];
	else if (cg_opnd_const_swizzles(&op->src[0], m, CG_SWZ_ONE))
		x = &op->src[1];
	else
		return false;
	if (cg_opnd_const_swizzles(x, m, CG_SWZ_ONE) && y->mod == R500_MOD_NEG &&
	    plain_source(cg, y, m)) {
		*f = (struct presub_form){ R500_SRCP_INV, y, NULL }; /* 1 - y */
		return true;
	}
	if (cg_opnd_const_swizzles(y, m, CG_SWZ_ONE) && x->mod == R500_MOD_NEG &&
	    plain_source(cg, x, m)) {
		*f = (struct presub_form){ R500_SRCP_INV, x, NULL }; /* -x + 1 */
		return true;
	}
	if (!plain_source(cg, x, m) || !plain_source(cg, y, m))
		return false;
	if (x->mod == R500_MOD_NEG && y->mod == R500_MOD_NEG)
		return false;
	if (x->mod == R500_MOD_NEG)
		*f = (struct presub_form){ R500_SRCP_SUB, x, y };  /* y - x */
	else if (y->mod == R500_MOD_NEG)
		*f = (struct presub_form){ R500_SRCP_SUB, y, x };  /* x - y */
	else
		*f = (struct presub_form){ R500_SRCP_ADD, x, y };
	/* the two sources meet channel by channel: lanes known and equal */
	for (int c = 0; c < 4; c++) {
		if (!(m & (1u << c)))
			continue;
		int a = cg_opnd_channel(cg, f->s0, c), b = cg_opnd_channel(cg, f->s1, c);
		if (a == CG_LANE_ANY || a != b)
			return false;
	}
	return true;
}

static bool same_reg(const struct cg_opnd *a, const struct cg_opnd *b)
{
	return a->file == b->file && a->index == b->index;
}

/* Whether reader r can read v through a presubtract of form f. */
static bool reader_ok(const struct cg_op *r, int v, unsigned vmask,
		      const struct presub_form *f)
{
	const struct cg_opc_info *info = &cg_opc_infos[r->opc];
	if (r->dead || r->presub || info->tex || r->opc == CG_FC || r->opc == CG_KIL ||
	    r->opc == CG_MDH || r->opc == CG_MDV)
		return false;
	const struct cg_opnd *first = NULL;
	const struct cg_opnd *others[CG_NSRC];
	int nothers = 0;
	for (int k = 0; k < info->nsrc; k++) {
		const struct cg_opnd *o = &r->src[k];
		unsigned ent = cg_op_entries(r, k);
		bool reads = false;
		for (int j = 0; j < 4; j++)
			reads |= (ent & (1u << j)) && o->swz[j] < CG_SWZ_ZERO;
		if (o->file == CG_FILE_VREG && o->index == v) {
			for (int j = 0; j < 4; j++)
				if ((ent & (1u << j)) &&
				    (o->swz[j] >= CG_SWZ_ZERO || !(vmask & (1u << o->swz[j]))))
					return false; /* real entries, all from this op */
			if (first && memcmp(first->swz, o->swz, sizeof o->swz))
				return false;     /* one swizzle serves every srcp reader */
			first = o;
		} else if (reads && o->file != CG_FILE_NONE) {
			others[nothers++] = o;
		}
	}
	if (!first)
		return false;
	/* addresses: the presubtract's sources, then every other register */
	const struct cg_opnd *regs[3] = { f->s0, f->s1, NULL };
	int nregs = f->s1 ? 2 : 1;
	for (int i = 0; i < nothers; i++) {
		bool seen = false;
		for (int j = 0; j < nregs; j++)
			seen |= same_reg(regs[j], others[i]);
		if (seen)
			continue;
		if (nregs == 3)
			return false;
		regs[nregs++] = others[i];
	}
	return true;
}

/* The presubtract source `s` as read through reader operand `o`. */
static struct cg_opnd compose(const struct cg_opnd *s, const struct cg_opnd *o, unsigned ent)
{
	struct cg_opnd p = { s->file, R500_MOD_NONE, { 0, 0, 0, 0 }, s->index };
	for (int j = 0; j < 4; j++)
		if (ent & (1u << j))
			p.swz[j] = s->swz[o->swz[j]];
	return p;
}

static void rewrite(struct cg_op *r, int v, const struct presub_form *f)
{
	const struct cg_opc_info *info = &cg_opc_infos[r->opc];
	unsigned ent = 0;
	const struct cg_opnd *first = NULL;
	for (int k = 0; k < info->nsrc; k++)
		if (r->src[k].file == CG_FILE_VREG && r->src[k].index == v) {
			ent |= cg_op_entries(r, k);
			first = &r->src[k];
		}
	struct cg_opnd via = *first;
	r->src[CG_PSRC0] = compose(f->s0, &via, ent);
	if (f->s1)
		r->src[CG_PSRC1] = compose(f->s1, &via, ent);
	r->presub = (uint8_t)(f->kind + 1);
	for (int k = 0; k < info->nsrc; k++)
		if (r->src[k].file == CG_FILE_VREG && r->src[k].index == v) {
			r->src[k].file = CG_FILE_PRESUB;
			r->src[k].index = -1;
			memset(r->src[k].swz, 0, sizeof r->src[k].swz);
		}
}

bool cg_presub(struct cg_ctx *cg)
{
	struct reader_index ri;
	if (!build_readers(cg, &ri))
		return cg->failed = true, false;
	for (int i = 0; i < cg->nops; i++) {
		struct cg_op *p = &cg->ops[i];
		struct presub_form f;
		if (!match_form(cg, p, &f))
			continue;
		int v = p->dst, n = 0;
		bool ok = true;
		for (int q = ri.start[v]; q < ri.start[v + 1] && ok; q++, n++)
			ok = reader_ok(&cg->ops[ri.list[q]], v, p->wmask, &f);
		if (!ok || !n)
			continue;
		for (int q = ri.start[v]; q < ri.start[v + 1]; q++)
			rewrite(&cg->ops[ri.list[q]], v, &f);
		p->dead = true;
	}
	return true;
}
