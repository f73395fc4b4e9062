/* The constant program: its operation list, checks and evaluation
 * (r500_cp.h).  Evaluation is ir_eval's, so a value computed here equals
 * the one the IR interpreter computes per pixel for the same uniforms. */
#include "r500_cp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arena_strbuf.h"
#include "ir_eval.h"

/* The container's operation codes: index in this list.  Append only. */
static const enum ir_op cp_ops[] = {
	IR_OP_MOV,   IR_OP_VEC,   IR_OP_ADD,   IR_OP_SUB,   IR_OP_MUL,   IR_OP_DIV,
	IR_OP_MAD,   IR_OP_NEG,   IR_OP_ABS,   IR_OP_SIGN,  IR_OP_FLOOR, IR_OP_CEIL,
	IR_OP_FRACT, IR_OP_TRUNC, IR_OP_MIN,   IR_OP_MAX,   IR_OP_CLAMP, IR_OP_SAT,
	IR_OP_MIX,   IR_OP_STEP,  IR_OP_RCP,   IR_OP_RSQ,   IR_OP_SQRT,  IR_OP_EXP2,
	IR_OP_LOG2,  IR_OP_POW,   IR_OP_SIN,   IR_OP_COS,   IR_OP_TAN,   IR_OP_ASIN,
	IR_OP_ACOS,  IR_OP_ATAN,  IR_OP_ATAN2, IR_OP_DOT2,  IR_OP_DOT3,  IR_OP_DOT4,
	IR_OP_LT,    IR_OP_GE,    IR_OP_EQ,    IR_OP_NE,    IR_OP_AND,   IR_OP_OR,
	IR_OP_XOR,   IR_OP_NOT,   IR_OP_ANY,   IR_OP_ALL,   IR_OP_B2F,   IR_OP_F2B,
	IR_OP_SELECT,
};
enum { NCP_OPS = sizeof cp_ops / sizeof cp_ops[0] };

int r500_cp_op_code(enum ir_op op)
{
	for (int i = 0; i < NCP_OPS; i++)
		if (cp_ops[i] == op)
			return i;
	return -1;
}

const char *r500_cp_op_name(int code)
{
	return code >= 0 && code < NCP_OPS ? ir_op_infos[cp_ops[code]].name : NULL;
}

static bool failf(char *why, size_t len, const char *fmt, ...)
{
	if (len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* A source read by instruction `at` (the outputs: at = ninst). */
static bool check_src(const struct r500_const_prog *cp, const struct r500_cp_src *s, int at,
		      int nslots, char *why, size_t len)
{
	for (int c = 0; c < 4; c++)
		if (s->swz[c] > 3)
			return failf(why, len, "instruction %d: swizzle %u", at, s->swz[c]);
	switch (s->file) {
	case R500_CP_TEMP:
		if (s->index >= at)
			return failf(why, len, "instruction %d reads temporary %u before it is "
				     "written", at, s->index);
		return true;
	case R500_CP_SLOT:
		if (s->index >= nslots)
			return failf(why, len, "instruction %d reads slot %u of %d", at, s->index,
				     nslots);
		return true;
	case R500_CP_IMM:
		if (s->index >= cp->nimm)
			return failf(why, len, "instruction %d reads immediate %u of %d", at,
				     s->index, cp->nimm);
		return true;
	default:
		return failf(why, len, "instruction %d: source file %u", at, s->file);
	}
}

bool r500_cp_check(const struct r500_const_prog *cp, int nslots, char *why, size_t len)
{
	if (nslots > 256)
		nslots = 256;
	if (cp->ninst < 0 || cp->ninst > R500_CP_MAX_INST || cp->nimm < 0 ||
	    cp->nimm > R500_CP_MAX_IMM || cp->nouts < 0 || cp->nouts > R500_CP_MAX_OUT ||
	    (cp->ninst && !cp->code) || (cp->nimm && !cp->imm) || (cp->nouts && !cp->outs))
		return failf(why, len, "%d instructions, %d immediates, %d outputs (at most %d, "
			     "%d, %d)", cp->ninst, cp->nimm, cp->nouts, R500_CP_MAX_INST,
			     R500_CP_MAX_IMM, R500_CP_MAX_OUT);
	for (int i = 0; i < cp->ninst; i++) {
		const struct r500_cp_inst *in = &cp->code[i];
		if (in->op >= NCP_OPS)
			return failf(why, len, "instruction %d: operation %u", i, in->op);
		const struct ir_op_info *info = &ir_op_infos[cp_ops[in->op]];
		bool nsrc_ok = info->nsrc < 0 ? in->nsrc >= 1 && in->nsrc <= R500_CP_MAX_SRC
					      : in->nsrc == info->nsrc;
		if (!nsrc_ok || in->ncomp < 1 || in->ncomp > 4 || in->src0_ncomp < 1 ||
		    in->src0_ncomp > 4)
			return failf(why, len, "instruction %d: %s with %u sources, %u components",
				     i, info->name, in->nsrc, in->ncomp);
		for (int k = 0; k < in->nsrc; k++)
			if (!check_src(cp, &in->src[k], i, nslots, why, len))
				return false;
	}
	for (int o = 0; o < cp->nouts; o++) {
		const struct r500_cp_output *out = &cp->outs[o];
		if (!check_src(cp, &out->src, cp->ninst, nslots, why, len))
			return false;
		if (out->slot >= nslots || out->ncomp < 1 || out->shift + out->ncomp > 4)
			return failf(why, len, "output %d: slot %u of %d, components %u..%u", o,
				     out->slot, nslots, out->shift, out->shift + out->ncomp);
	}
	return true;
}

int r500_cp_slots(const struct r500_const_prog *cp)
{
	int n = 0;
	for (int i = 0; i < cp->ninst; i++)
		for (int k = 0; k < cp->code[i].nsrc && k < R500_CP_MAX_SRC; k++)
			if (cp->code[i].src[k].file == R500_CP_SLOT && cp->code[i].src[k].index >= n)
				n = cp->code[i].src[k].index + 1;
	for (int o = 0; o < cp->nouts; o++) {
		if (cp->outs[o].slot >= n)
			n = cp->outs[o].slot + 1;
		if (cp->outs[o].src.file == R500_CP_SLOT && cp->outs[o].src.index >= n)
			n = cp->outs[o].src.index + 1;
	}
	return n;
}

static void fetch(const struct r500_const_prog *cp, const float (*t)[4], const float (*consts)[4],
		  const struct r500_cp_src *s, float out[4])
{
	const float *v = s->file == R500_CP_TEMP ? t[s->index]
			 : s->file == R500_CP_SLOT ? consts[s->index] : cp->imm[s->index];
	for (int c = 0; c < 4; c++)
		out[c] = s->file == R500_CP_TEMP ? v[s->swz[c]] : ir_flush_denorm(v[s->swz[c]]);
}

bool r500_cp_run(const struct r500_const_prog *cp, float (*consts)[4], int nslots)
{
	if (!cp || !consts || !r500_cp_check(cp, nslots, NULL, 0))
		return false;
	return r500_cp_exec(cp, consts);
}

bool r500_cp_exec(const struct r500_const_prog *cp, float (*consts)[4])
{
	float t[R500_CP_MAX_INST][4];
	for (int i = 0; i < cp->ninst; i++) {
		const struct r500_cp_inst *in = &cp->code[i];
		float s[R500_CP_MAX_SRC][4];
		memset(s, 0, sizeof s);
		for (int k = 0; k < in->nsrc; k++)
			fetch(cp, (const float(*)[4])t, (const float(*)[4])consts, &in->src[k], s[k]);
		memset(t[i], 0, sizeof t[i]);
		if (!ir_eval_op(cp_ops[in->op], in->ncomp, in->src0_ncomp, (const float(*)[4])s, t[i]))
			return false; /* not reached: every listed op evaluates */
		for (int c = in->ncomp; c < 4; c++)
			t[i][c] = 0.0f;
	}
	/* all values first, then the writes: an output's slot may be read */
	float v[R500_CP_MAX_OUT][4];
	for (int o = 0; o < cp->nouts; o++)
		fetch(cp, (const float(*)[4])t, (const float(*)[4])consts, &cp->outs[o].src, v[o]);
	for (int o = 0; o < cp->nouts; o++)
		for (int c = 0; c < cp->outs[o].ncomp; c++)
			consts[cp->outs[o].slot][cp->outs[o].shift + c] = v[o][c];
	return true;
}

static void format_src(struct strbuf *text, const struct r500_cp_src *s, int n)
{
	static const char files[] = "tci";
	strbuf_printf(text, "%c%u.", files[s->file < 3 ? s->file : 0], s->index);
	for (int c = 0; c < n && c < 4; c++)
		strbuf_add(text, &"xyzw"[s->swz[c] & 3], 1);
}

bool r500_cp_format(struct strbuf *text, const struct r500_const_prog *cp, int i)
{
	if (i >= 0 && i < cp->ninst) {
		const struct r500_cp_inst *in = &cp->code[i];
		const char *name = r500_cp_op_name(in->op);
		strbuf_printf(text, "t%d = %s", i, name ? name : "?");
		for (int k = 0; k < in->nsrc && k < R500_CP_MAX_SRC; k++) {
			strbuf_puts(text, k ? ", " : " ");
			format_src(text, &in->src[k], 4);
		}
		strbuf_printf(text, " (%u)", in->ncomp);
		return true;
	}
	int o = i - cp->ninst;
	if (o < 0 || o >= cp->nouts)
		return false;
	const struct r500_cp_output *out = &cp->outs[o];
	strbuf_printf(text, "c%u.", out->slot);
	for (int c = 0; c < out->ncomp && c < 4; c++)
		strbuf_add(text, &"xyzw"[(out->shift + c) & 3], 1);
	strbuf_puts(text, " = ");
	format_src(text, &out->src, out->ncomp);
	return true;
}

void r500_cp_list(struct strbuf *text, const struct r500_const_prog *cp, const char *prefix)
{
	for (int i = 0; i < cp->ninst + cp->nouts; i++) {
		strbuf_puts(text, prefix);
		r500_cp_format(text, cp, i);
		strbuf_puts(text, "\n");
	}
}
