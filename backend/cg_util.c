/* Small helpers shared by the code generator's stages: the opcode table,
 * vreg and op creation, operand channels, unit needs. */
#include "cg.h"

#include <stdarg.h>
#include <string.h>

#define T true
#define F false
const struct cg_opc_info cg_opc_infos[CG_OPC_COUNT] = {
	/*            name   nsrc  trans dot tex  rgb_op            alpha_op */
	[CG_MAD] = { "mad", 3, F, F, F, R500_ROP_MAD, R500_AOP_MAD },
	[CG_DP3] = { "dp3", 2, F, T, F, R500_ROP_DP3, R500_AOP_DP },
	[CG_DP4] = { "dp4", 2, F, T, F, R500_ROP_DP4, R500_AOP_DP },
	[CG_MIN] = { "min", 2, F, F, F, R500_ROP_MIN, R500_AOP_MIN },
	[CG_MAX] = { "max", 2, F, F, F, R500_ROP_MAX, R500_AOP_MAX },
	[CG_CND] = { "cnd", 3, F, F, F, R500_ROP_CND, R500_AOP_CND },
	[CG_CMP] = { "cmp", 3, F, F, F, R500_ROP_CMP, R500_AOP_CMP },
	[CG_FRC] = { "frc", 1, F, F, F, R500_ROP_FRC, R500_AOP_FRC },
	[CG_EX2] = { "ex2", 1, T, F, F, R500_ROP_SOP, R500_AOP_EX2 },
	[CG_LN2] = { "ln2", 1, T, F, F, R500_ROP_SOP, R500_AOP_LN2 },
	[CG_RCP] = { "rcp", 1, T, F, F, R500_ROP_SOP, R500_AOP_RCP },
	[CG_RSQ] = { "rsq", 1, T, F, F, R500_ROP_SOP, R500_AOP_RSQ },
	[CG_SIN] = { "sin", 1, T, F, F, R500_ROP_SOP, R500_AOP_SIN },
	[CG_COS] = { "cos", 1, T, F, F, R500_ROP_SOP, R500_AOP_COS },
	[CG_MDH] = { "mdh", 3, F, F, F, R500_ROP_MDH, R500_AOP_MDH },
	[CG_MDV] = { "mdv", 3, F, F, F, R500_ROP_MDV, R500_AOP_MDV },
	[CG_TEX] = { "tex", 1, F, F, T, -1, -1 },
	[CG_TXD] = { "txd", 3, F, F, T, -1, -1 },
	[CG_KIL] = { "kil", 1, F, F, T, -1, -1 },
	[CG_FC] = { "fc", 0, F, F, F, -1, -1 },
};
#undef T
#undef F

void *cg_room(struct cg_ctx *cg, void *p, int *cap, int need, size_t elem, bool zeroed)
{
	if (need <= *cap)
		return p;
	int ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	size_t osize = elem * (size_t)*cap, nsize = elem * (size_t)ncap;
	void *np = zeroed ? arena_realloc(cg->arena, p, osize, nsize)
			  : arena_resize(cg->arena, p, osize, nsize);
	if (!np)
		return NULL;
	*cap = ncap;
	return np;
}

int cg_new_vreg(struct cg_ctx *cg, int ncomp)
{
	struct cg_vreg *v = cg_room(cg, cg->vregs, &cg->cap_vregs, cg->nvregs + 1, sizeof *v, false);
	if (!v) {
		cg->failed = true;
		return -1;
	}
	cg->vregs = v;
	struct cg_vreg *r = &v[cg->nvregs];
	memset(r, 0, sizeof *r);
	r->ncomp = (uint8_t)ncomp;
	for (int c = 0; c < 4; c++) {
		r->lane[c] = ncomp == 1 ? CG_LANE_ANY : (uint8_t)c;
		r->writer[c] = -1;
	}
	r->temp = -1;
	r->array = -1;
	r->input = -1;
	return cg->nvregs++;
}

struct cg_op *cg_new_op(struct cg_ctx *cg, enum cg_opc opc, int dst, uint8_t wmask)
{
	struct cg_op *o = cg_room(cg, cg->ops, &cg->cap_ops, cg->nops + 1, sizeof *o, false);
	if (!o) {
		cg->failed = true;
		return NULL;
	}
	cg->ops = o;
	struct cg_op *op = &o[cg->nops];
	memset(op, 0, sizeof *op);
	op->opc = (uint8_t)opc;
	op->dst = dst;
	op->wmask = wmask;
	op->out = CG_OUT_NONE;
	op->slot = -1;
	op->fc_target = -1;
	if (dst >= 0 && !cg->vregs[dst].multi)
		for (int c = 0; c < 4; c++)
			if (wmask & (1u << c))
				cg->vregs[dst].writer[c] = cg->nops;
	cg->nops++;
	return op;
}

bool cg_error(struct cg_ctx *cg, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (cg->diag)
		diag_vreport(cg->diag, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
	cg->failed = true;
	return false;
}

struct cg_opnd cg_opnd_vreg(int vreg, const uint8_t swz[4], int mod)
{
	struct cg_opnd o = { CG_FILE_VREG, (uint8_t)mod, { swz[0], swz[1], swz[2], swz[3] },
			     vreg };
	return o;
}

int cg_opnd_channel(const struct cg_ctx *cg, const struct cg_opnd *o, int entry)
{
	int s = o->swz[entry];
	if (s >= CG_SWZ_ZERO)
		return s;
	switch (o->file) {
	case CG_FILE_VREG:
	case CG_FILE_TEMP_REL:
		return cg->vregs[o->index].lane[s];
	case CG_FILE_CONST:
	case CG_FILE_CONST_REL:
		return s;
	case CG_FILE_INLINE:
		return R500_SWZ_A; /* inline constants live in alpha address slots */
	default:
		return CG_SWZ_ZERO;
	}
}

unsigned cg_op_units(const struct cg_ctx *cg, const struct cg_op *op)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	if (info->tex || op->opc == CG_FC)
		return 0;
	if (op->opc == CG_DP4)
		return CG_UNIT_BOTH;
	/* cg_op_lane's cases, each at once: the written components' lanes */
	unsigned u = 0, m = op->wmask & 0xfu;
	if (op->dst >= 0) {
		const uint8_t *lane = cg->vregs[op->dst].lane;
		for (; m; m &= m - 1) {
			int l = lane[__builtin_ctz(m)];
			if (l == CG_LANE_ANY)
				return 0; /* open: the scheduler chooses */
			u |= l == 3 ? CG_UNIT_ALPHA : CG_UNIT_RGB;
		}
	} else if (op->out == CG_OUT_DEPTH) {
		u = m ? CG_UNIT_ALPHA : 0;
	} else {
		u = (m & 7u ? CG_UNIT_RGB : 0) | (m & 8u ? CG_UNIT_ALPHA : 0);
	}
	if (info->transcendental)
		u |= CG_UNIT_ALPHA; /* SOP still needs the alpha unit */
	if (info->dot && (u & CG_UNIT_ALPHA))
		u = CG_UNIT_BOTH; /* alpha DP needs the RGB dot product */
	if (!u)
		u = CG_UNIT_RGB; /* nothing written (e.g. output only) */
	return u;
}

unsigned cg_op_presub_entries(const struct cg_op *op, int k)
{
	/* what srcp's readers read */
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	if (!op->presub || (k == CG_PSRC1 && !cg_presub_two(op->presub - 1)))
		return 0;
	unsigned ent = 0;
	for (int r = 0; r < info->nsrc; r++)
		if (op->src[r].file == CG_FILE_PRESUB)
			ent |= cg_op_entries(op, r);
	return ent;
}

unsigned cg_op_vreg_comps(const struct cg_op *op, int k)
{
	const struct cg_opnd *o = &op->src[k];
	if (o->file != CG_FILE_VREG)
		return 0;
	unsigned ent = cg_op_entries(op, k), comps = 0;
	for (int j = 0; j < 4; j++)
		if ((ent & (1u << j)) && o->swz[j] < 4)
			comps |= 1u << o->swz[j];
	return comps;
}

bool cg_opnd_const_swizzles(const struct cg_opnd *o, unsigned ent, int code)
{
	if (o->file != CG_FILE_NONE || o->mod != R500_MOD_NONE)
		return false;
	for (int c = 0; c < 4; c++)
		if ((ent & (1u << c)) && o->swz[c] != code)
			return false;
	return true;
}

const struct cg_opnd *cg_op_plain_copy(const struct cg_op *op)
{
	const struct cg_opnd *s = &op->src[0];
	if (op->dead || op->opc != CG_MAD || op->dst < 0 || op->clamp || op->omod || op->late ||
	    op->alu_result || op->out != CG_OUT_NONE || op->presub || s->mod != R500_MOD_NONE ||
	    !cg_opnd_const_swizzles(&op->src[1], op->wmask, CG_SWZ_ONE) ||
	    !cg_opnd_const_swizzles(&op->src[2], op->wmask, CG_SWZ_ZERO))
		return NULL;
	return s;
}

int cg_op_copy_source(const struct cg_op *op)
{
	const struct cg_opnd *s = cg_op_plain_copy(op);
	return s && s->file == CG_FILE_VREG && s->index != op->dst ? s->index : -1;
}

int cg_op_channel(const struct cg_ctx *cg, const struct cg_op *op, int k, int entry)
{
	const struct cg_opnd *o = &op->src[k];
	if (o->file == CG_FILE_PRESUB && o->swz[entry] < CG_SWZ_ZERO)
		return cg_opnd_channel(cg, &op->src[CG_PSRC0], entry);
	return cg_opnd_channel(cg, o, entry);
}

void cg_op_operand_units(const struct cg_ctx *cg, const struct cg_op *op, int k, bool *rgb,
			 bool *alpha)
{
	*rgb = *alpha = false;
	/* cg_op_channel of each read entry, its cases taken apart here: the
	 * scheduler asks this of every operand of every op it tries in a
	 * slot, and a call per entry was most of the cost */
	const struct cg_opnd *o = &op->src[k];
	for (unsigned m = cg_op_entries(op, k); m; m &= m - 1) {
		int j = __builtin_ctz(m);
		const struct cg_opnd *q = o;
		if (o->file == CG_FILE_PRESUB) {
			if (o->swz[j] >= CG_SWZ_ZERO)
				continue; /* a constant swizzle: no channel */
			q = &op->src[CG_PSRC0];
		}
		int s = q->swz[j], ch;
		if (s >= CG_SWZ_ZERO)
			continue;
		switch (q->file) {
		case CG_FILE_VREG:
		case CG_FILE_TEMP_REL:
			ch = cg->vregs[q->index].lane[s];
			break;
		case CG_FILE_CONST:
		case CG_FILE_CONST_REL:
			ch = s;
			break;
		case CG_FILE_INLINE:
			ch = R500_SWZ_A;
			break;
		default:
			continue;
		}
		*rgb |= ch < 3;
		*alpha |= ch == 3;
	}
	if ((op->opc == CG_MDH || op->opc == CG_MDV) && k == 0) {
		*rgb = *rgb || (op->unit & CG_UNIT_RGB);
		*alpha = *alpha || (op->unit & CG_UNIT_ALPHA);
	}
}

bool cg_op_reads_vreg(const struct cg_op *op, int v)
{
	for (int k = 0; k < cg_op_nopnd(op); k++)
		if (op->src[k].file == CG_FILE_VREG && op->src[k].index == v &&
		    cg_op_entries(op, k))
			return true;
	return false;
}

int cg_int_const(struct cg_ctx *cg, struct r500_loop_const v)
{
	if (!cg->int_const_used) {
		cg->int_consts[0] = (struct r500_loop_const){ .count = 255, .init = 0, .step = 0 };
		cg->int_const_used = 1;
	}
	for (int i = 0; i < 32; i++) {
		const struct r500_loop_const *c = &cg->int_consts[i];
		if (!(cg->int_const_used >> i & 1)) {
			cg->int_consts[i] = v;
			cg->int_const_used |= 1u << i;
			return i;
		}
		if (c->count == v.count && c->init == v.init && c->step == v.step)
			return i;
	}
	return -1;
}

void cg_compact_slots(struct cg_ctx *cg)
{
	int *map = arena_alloc(cg->arena, sizeof(int) * (size_t)(cg->nslots + 1));
	if (!map) {
		cg->failed = true;
		return;
	}
	int n = 0;
	for (int k = 0; k < cg->nslots; k++) {
		const struct cg_slot *sl = &cg->slots[k];
		bool empty = !sl->tex && !sl->fc && sl->rgb < 0 && sl->alpha < 0;
		map[k] = empty ? -1 : n;
		if (!empty)
			cg->slots[n++] = *sl;
	}
	cg->nslots = n;
	for (int i = 0; i < cg->nops; i++)
		if (cg->ops[i].slot >= 0)
			cg->ops[i].slot = map[cg->ops[i].slot];
	cg->pairs = 0;
	for (int k = 0; k < cg->nslots; k++) {
		const struct cg_slot *sl = &cg->slots[k];
		if (!sl->tex && !sl->fc && sl->rgb >= 0 && sl->alpha >= 0 && sl->rgb != sl->alpha)
			cg->pairs++;
	}
}

void cg_rename_in_tables(struct cg_ctx *cg, int from, int to)
{
	for (int k = 0; k < cg->nslots; k++) {
		struct cg_addr *tables[2] = { cg->slots[k].rgb_addr, cg->slots[k].alpha_addr };
		for (int t = 0; t < 2; t++)
			for (int j = 0; j < 3; j++)
				if (tables[t][j].file == CG_FILE_VREG && tables[t][j].index == from)
					tables[t][j].index = to;
	}
}

void cg_slot_remove(struct cg_ctx *cg, int slot, int i)
{
	struct cg_slot *sl = &cg->slots[slot];
	if (sl->rgb == i)
		sl->rgb = -1;
	if (sl->alpha == i)
		sl->alpha = -1;
}

void cg_unplace_dead(struct cg_ctx *cg, int i)
{
	struct cg_op *op = &cg->ops[i];
	cg_slot_remove(cg, op->slot, i);
	op->dead = true;
	op->slot = -1;
}
