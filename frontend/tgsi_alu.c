/* One TGSI instruction that is not control flow, as IR ops (their meaning
 * is docs/gallium/tgsi.rst's).  A component-wise op computes only the
 * channels its write mask keeps; a scalar op (RCP, EX2, SIN ...) and a
 * dot product compute one value and replicate it. */
#include "tgsi_lower.h"

#include "ir_eval.h"

static const uint8_t xyzw[4] = { 0, 1, 2, 3 };

static struct ir_instr *op(struct tgsi_lower *t, enum ir_op o, int n, int nsrc, const struct ir_src *s)
{
	return lv_build(&t->l, o, n, nsrc, s);
}

static struct ir_src constf(struct tgsi_lower *t, float x)
{
	struct ir_instr *k = ir_build_constf(&t->l.b, x);
	return k ? ir_src_comp(k, 0) : ir_src_comp(t->l.zero, 0);
}

static struct ir_src src_of(struct tgsi_lower *t, struct ir_instr *in)
{
	return in ? ir_src_of(in) : ir_src_of(t->l.zero);
}

static void write(struct tgsi_lower *t, const struct tgsi_insn *in, struct ir_instr *r, int n,
		  bool replicated)
{
	if (r)
		tgsi_write(t, in, ir_src_of(r), n, replicated);
}

/* round half to even (ROUND, ARR): floor(x + 0.5), less one where x was
 * a tie and that floor is odd */
static struct ir_instr *round_even(struct tgsi_lower *t, struct ir_src x, int n)
{
	struct ir_src half = constf(t, 0.5f);
	struct ir_src s[2] = { x, half };
	struct ir_src f = src_of(t, op(t, IR_OP_FLOOR, n, 1, (struct ir_src[]){ src_of(t, op(t, IR_OP_ADD, n, 2, s)) }));
	struct ir_src d = src_of(t, op(t, IR_OP_SUB, n, 2, (struct ir_src[]){ f, x }));
	struct ir_src tie = src_of(t, op(t, IR_OP_EQ, n, 2, (struct ir_src[]){ d, half }));
	struct ir_src h = src_of(t, op(t, IR_OP_MUL, n, 2, (struct ir_src[]){ f, half }));
	struct ir_src fr = src_of(t, op(t, IR_OP_FRACT, n, 1, &h));
	struct ir_src odd = src_of(t, op(t, IR_OP_NE, n, 2, (struct ir_src[]){ fr, ir_src_of(t->l.zero) }));
	struct ir_src both = src_of(t, op(t, IR_OP_AND, n, 2, (struct ir_src[]){ tie, odd }));
	struct ir_src one = src_of(t, op(t, IR_OP_B2F, n, 1, &both));
	return op(t, IR_OP_SUB, n, 2, (struct ir_src[]){ f, one });
}

/* LRP, CMP, the set-on-compare ops, ROUND, ARL and ARR. */
static void special(struct tgsi_lower *t, const struct tgsi_insn *in, const uint8_t *chans, int n)
{
	struct ir_src s[3];
	for (int i = 0; i < in->nsrc; i++)
		s[i] = tgsi_read(t, &in->src[i], chans, n);
	enum ir_op o = (enum ir_op)tgsi_op_infos[in->op].ir;
	switch (in->op) {
	case TGSI_OP_LRP: /* src0 * src1 + (1 - src0) * src2 */
		write(t, in, op(t, IR_OP_MIX, n, 3, (struct ir_src[]){ s[2], s[1], s[0] }), n, false);
		return;
	case TGSI_OP_CMP: { /* src0 < 0 ? src1 : src2 */
		struct ir_src lt = src_of(t, op(t, IR_OP_LT, n, 2, (struct ir_src[]){ s[0], ir_src_of(t->l.zero) }));
		write(t, in, op(t, IR_OP_SELECT, n, 3, (struct ir_src[]){ lt, s[1], s[2] }), n, false);
		return;
	}
	case TGSI_OP_SLT: case TGSI_OP_SGE: case TGSI_OP_SEQ: case TGSI_OP_SNE:
	case TGSI_OP_SGT: case TGSI_OP_SLE: {
		bool swap = in->op == TGSI_OP_SGT || in->op == TGSI_OP_SLE;
		struct ir_src ab[2] = { s[swap], s[!swap] };
		struct ir_src c = src_of(t, op(t, o, n, 2, ab));
		write(t, in, op(t, IR_OP_B2F, n, 1, &c), n, false);
		return;
	}
	case TGSI_OP_ROUND:
	case TGSI_OP_ARR:
		write(t, in, round_even(t, s[0], n), n, false);
		return;
	default: /* ARL */
		write(t, in, op(t, IR_OP_FLOOR, n, 1, s), n, false);
		return;
	}
}

/* --- texture lookups --- */

static enum ir_tex_kind tex_kind(int opcode)
{
	switch (opcode) {
	case TGSI_OP_TXB: return IR_TEX_BIAS;
	case TGSI_OP_TXL: return IR_TEX_LOD;
	case TGSI_OP_TXP: return IR_TEX_PROJ;
	case TGSI_OP_TXD: return IR_TEX_GRAD;
	default: return IR_TEX_PLAIN;
	}
}

/* The channels of src0 a lookup reads for its coordinates: the
 * target's, the shadow reference (.z), the projective divisor (.w, kept
 * in place); channels it does not read repeat .x. */
static int coord_chans(const struct ir_sampler *smp, enum ir_tex_kind kind, uint8_t chans[4])
{
	int n = ir_tex_coord_ncomp(smp->target, kind, smp->shadow);
	int dims = ir_tex_grad_ncomp(smp->target);
	for (int k = 0; k < n && k < 4; k++) /* n <= 4: said for GCC's -O3 */
		chans[k] = (uint8_t)(k < dims || (smp->shadow && k == 2) || k == 3 ? k : 0);
	return n;
}

static void tex(struct tgsi_lower *t, const struct tgsi_insn *in, const uint8_t *chans, int n)
{
	const struct tgsi_reg *sr = &in->src[in->nsrc - 1].reg;
	if (sr->file != TGSI_FILE_SAMP || sr->indirect || sr->has_dim) {
		tgsi_refuse(t, sr->loc, "expected SAMP[n] as the last source of %s",
			    tgsi_op_infos[in->op].name);
		return;
	}
	int s = tgsi_sampler(t, in, sr->index);
	if (s < 0)
		return;
	const struct ir_sampler *smp = &t->l.f->samplers[s];
	enum ir_tex_kind kind = tex_kind(in->op);
	uint8_t cc[4];
	int nc = coord_chans(smp, kind, cc);
	struct ir_src srcs[3] = { tgsi_read(t, &in->src[0], cc, nc) };
	int nsrc = 1;
	if (kind == IR_TEX_BIAS || kind == IR_TEX_LOD) /* in src0.w */
		srcs[nsrc++] = tgsi_read(t, &in->src[0], &xyzw[3], 1);
	for (int g = 1; kind == IR_TEX_GRAD && g <= 2; g++)
		srcs[nsrc++] = tgsi_read(t, &in->src[g], xyzw, ir_tex_grad_ncomp(smp->target));
	struct ir_instr *r = op(t, IR_OP_TEX, 4, nsrc, srcs);
	if (!r)
		return;
	r->index = s;
	r->tex_kind = (uint8_t)kind;
	r->tex_shadow = smp->shadow;
	tgsi_write(t, in, ir_src_swz(r, chans), n, false);
}

/* --- discards --- */

/* KILL_IF: discard where any channel of the source is below zero (each
 * distinct swizzle channel compared once). */
static void kill_if(struct tgsi_lower *t, const struct tgsi_insn *in)
{
	uint8_t chans[4] = { 0 };
	int n = 0;
	unsigned seen = 0;
	for (int c = 0; c < 4; c++) {
		unsigned bit = 1u << in->src[0].swz[c];
		if (!(seen & bit))
			chans[n++] = (uint8_t)c;
		seen |= bit;
	}
	struct ir_src s[2] = { tgsi_read(t, &in->src[0], chans, n), ir_src_of(t->l.zero) };
	struct ir_src c = src_of(t, op(t, IR_OP_LT, n, 2, s));
	if (n > 1)
		c = src_of(t, op(t, IR_OP_ANY, 1, 1, &c));
	op(t, IR_OP_DISCARD, 0, 1, &c);
}

void tgsi_lower_insn(struct tgsi_lower *t, const struct tgsi_insn *in)
{
	const struct tgsi_op_info *info = &tgsi_op_infos[in->op];
	uint8_t chans[4] = { 0 };
	int n = tgsi_mask_chans(in->dst.mask, chans);
	struct ir_src s[3];
	enum ir_op o = (enum ir_op)info->ir;
	switch (info->kind) {
	case TGSI_K_COMP:
		for (int i = 0; i < info->nsrc; i++)
			s[i] = tgsi_read(t, &in->src[i], chans, n);
		if (o == IR_OP_MOV)
			tgsi_write(t, in, s[0], n, false);
		else
			write(t, in, op(t, o, n, info->nsrc, s), n, false);
		return;
	case TGSI_K_SCALAR:
		for (int i = 0; i < info->nsrc; i++)
			s[i] = tgsi_read(t, &in->src[i], xyzw, 1);
		if ((o == IR_OP_SIN || o == IR_OP_COS) && t->trig_revolutions) {
			/* r300's revolutions into the IR's radians */
			struct ir_src k[2] = { s[0], constf(t, 6.28318530717958647692f) };
			s[0] = src_of(t, op(t, IR_OP_MUL, 1, 2, k));
		}
		write(t, in, op(t, o, 1, info->nsrc, s), 1, true);
		return;
	case TGSI_K_DOT: {
		int w = o == IR_OP_DOT2 ? 2 : o == IR_OP_DOT3 ? 3 : 4;
		for (int i = 0; i < 2; i++)
			s[i] = tgsi_read(t, &in->src[i], xyzw, w);
		write(t, in, op(t, o, 1, 2, s), 1, true);
		return;
	}
	case TGSI_K_SPECIAL:
		special(t, in, chans, n);
		return;
	case TGSI_K_TEX:
		tex(t, in, chans, n);
		return;
	default:
		if (in->op == TGSI_OP_KILL)
			op(t, IR_OP_DISCARD, 0, 0, NULL);
		else if (in->op == TGSI_OP_KILL_IF)
			kill_if(t, in);
		return;
	}
}
