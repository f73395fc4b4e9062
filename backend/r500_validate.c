/* Rules of one instruction and of a whole program (r500/ISA.md §3-§6,
 * §10).  Field widths and reserved values come from r500_fields; the
 * rules that couple fields are spelled out here. */
#include <pthread.h>
#include <string.h>

#include "r500_field_access.h"

static bool alpha_is_transcendental(unsigned op)
{
	return op >= R500_AOP_EX2 && op <= R500_AOP_COS;
}

/* OMOD 7 (disabled) is legal only with MIN, MAX, CMP, CND (§3, §6.5) */
static bool rgb_takes_omod7(unsigned op)
{
	return op == R500_ROP_MIN || op == R500_ROP_MAX || op == R500_ROP_CMP || op == R500_ROP_CND;
}

static bool alpha_takes_omod7(unsigned op)
{
	return op == R500_AOP_MIN || op == R500_AOP_MAX || op == R500_AOP_CMP || op == R500_AOP_CND;
}

/* The quick check every compile makes, from tables listed once per
 * process (the walk over the whole field table cost ~1.7k instructions
 * an instruction): by type, the bits of each 16-bit word of the struct
 * no field of the type may set (past a field's width; all of a field the
 * type does not have), checked four words at a time, and the fields
 * with reserved values.  A failure walks the table below for the
 * message. */
enum { INST_QUADS = (sizeof(struct r500_inst) + 7) / 8 };

/* An instruction's 16-bit words, or a mask of them, read 64 bits at a time */
union inst_words {
	uint64_t q[INST_QUADS];
	uint16_t h[INST_QUADS * 4];
};

struct legal_rule {
	uint16_t offset;
	uint32_t legal;
};

static struct {
	pthread_once_t once;
	union inst_words bad[4];
	struct legal_rule legal[4][R500_MAX_FIELDS];
	size_t nlegal[4];
} rules = { .once = PTHREAD_ONCE_INIT };

static void list_rules(void)
{
	for (unsigned type = 0; type < 4; type++)
		for (size_t i = 0; i < r500_nfields; i++) {
			const struct r500_field *f = &r500_fields[i];
			bool has = r500_field_applies(f, type);
			rules.bad[type].h[f->offset / 2] |= has ? (uint16_t)~((1u << f->width) - 1) : 0xffff;
			if (has && f->legal)
				rules.legal[type][rules.nlegal[type]++] =
					(struct legal_rule){ f->offset, f->legal };
		}
}

/* Whether every field passes (fields_validate's first loop). */
static bool fields_quick_ok(const struct r500_inst *in, unsigned type)
{
	pthread_once(&rules.once, list_rules);
	union inst_words w;
	w.q[INST_QUADS - 1] = 0; /* the bytes past the struct, if any */
	memcpy(w.h, in, sizeof *in);
	const union inst_words *bad = &rules.bad[type];
	uint64_t any = 0;
	for (size_t i = 0; i < INST_QUADS; i++)
		any |= w.q[i] & bad->q[i];
	if (any)
		return false;
	const struct legal_rule *r = rules.legal[type];
	for (size_t i = 0; i < rules.nlegal[type]; i++)
		if (w.h[r[i].offset / 2] >= 32 || !((r[i].legal >> w.h[r[i].offset / 2]) & 1))
			return false;
	return true;
}

/* Widths, reserved values, and members of bodies the type does not have. */
static bool fields_validate(const struct r500_inst *in, char *why, size_t len)
{
	unsigned type = in->cmn.type;
	if (type > 3)
		return r500_why(why, len, "TYPE %u out of range", type);
	size_t from = fields_quick_ok(in, type) ? r500_nfields : 0; /* all pass: no walk */
	for (size_t i = from; i < r500_nfields; i++) {
		const struct r500_field *f = &r500_fields[i];
		unsigned v = r500_field_get(in, f);
		if (!r500_field_applies(f, type)) {
			if (v)
				return r500_why(why, len, "%s set but a %s instruction has no such field",
						f->name, r500_fields[0].value_names[type]);
			continue;
		}
		if (v >> f->width)
			return r500_why(why, len, "%s value %u does not fit %u bits",
					f->name, v, f->width);
		if (f->legal && !((f->legal >> v) & 1))
			return r500_why(why, len, "%s value %u is reserved", f->name, v);
	}
	for (int k = 0; k < 3; k++)
		if (in->alu.alpha_arg[k].swz[1] || in->alu.alpha_arg[k].swz[2])
			return r500_why(why, len, "alpha input %c has only one swizzle", 'A' + k);
	return true;
}

static bool addr_word_validate(const struct r500_addr_word *w, const char *unit,
			       char *why, size_t len)
{
	for (int k = 0; k < 3; k++) {
		const struct r500_addr *a = &w->src[k];
		if (!a->cnst && (a->addr & R500_INLINE_BIT) && a->rel)
			return r500_why(why, len, "%s source %d: inline constant with REL=1", unit, k);
	}
	return true;
}

static bool alu_validate(const struct r500_inst *in, char *why, size_t len)
{
	const struct r500_alu *a = &in->alu;
	if (!addr_word_validate(&a->rgb_addr, "RGB", why, len) ||
	    !addr_word_validate(&a->alpha_addr, "alpha", why, len))
		return false;
	if (a->rgb_op == R500_ROP_SOP && !alpha_is_transcendental(a->alpha_op))
		return r500_why(why, len, "RGB SOP needs alpha EX2/LN2/RCP/RSQ/SIN/COS");
	if (a->alpha_op == R500_AOP_DP && !(a->rgb_op == R500_ROP_DP3 ||
					     a->rgb_op == R500_ROP_DP4 || a->rgb_op == R500_ROP_D2A))
		return r500_why(why, len, "alpha DP needs RGB DP3/DP4/D2A");
	if (a->rgb_omod == R500_OMOD_DISABLE && !rgb_takes_omod7(a->rgb_op))
		return r500_why(why, len, "RGB OMOD 7 only with MIN/MAX/CMP/CND");
	if (a->alpha_omod == R500_OMOD_DISABLE && !alpha_takes_omod7(a->alpha_op))
		return r500_why(why, len, "alpha OMOD 7 only with MIN/MAX/CMP/CND");
	if (in->cmn.type == R500_TYPE_OUT && a->alu_wmask)
		return r500_why(why, len, "OUT instruction cannot write the ALU result");
	if (in->cmn.type == R500_TYPE_ALU && a->w_omask)
		return r500_why(why, len, "W_OMASK (depth output) only on OUT instructions");
	return true;
}

bool r500_inst_validate(const struct r500_inst *in, char *why, size_t len)
{
	if (!fields_validate(in, why, len))
		return false;
	switch (in->cmn.type) {
	case R500_TYPE_ALU:
	case R500_TYPE_OUT:
		return alu_validate(in, why, len);
	case R500_TYPE_TEX:
		if (in->tex.sem_acquire && !in->cmn.tex_sem_wait)
			return r500_why(why, len, "TEX_SEM_ACQUIRE without TEX_SEM_WAIT");
		return true;
	default: /* FC: the predicate must be a replicate mode (§4.1) */
		if (in->cmn.rgb_pred_sel == R500_PRED_RGBA)
			return r500_why(why, len, "FC predicate select must be 0 or a replicate mode 2..5");
		return true;
	}
}

/* ---- hazards (§6.10) ---- */

static bool is_alu(const struct r500_inst *in)
{
	return in->cmn.type == R500_TYPE_ALU || in->cmn.type == R500_TYPE_OUT;
}

/* Does `w` (an ALU/OUT writer) possibly write the temporary read by `src`? */
static bool writes_temp(const struct r500_inst *w, const struct r500_addr *src)
{
	if (src->cnst || (!src->rel && (src->addr & R500_INLINE_BIT)))
		return false;
	const struct { uint16_t mask, addr, rel; } d[2] = {
		{ w->cmn.rgb_wmask, w->alu.rgb_addrd, w->alu.rgb_addrd_rel },
		{ w->cmn.alpha_wmask, w->alu.alpha_addrd, w->alu.alpha_addrd_rel },
	};
	for (int i = 0; i < 2; i++) {
		if (!d[i].mask)
			continue;
		/* relative addresses may alias anything */
		if (d[i].rel || src->rel || d[i].addr == (src->addr & 127))
			return true;
	}
	return false;
}

/* Does `w` write a presubtract operand of address word `aw`? */
static bool writes_presub_operand(const struct r500_inst *w, const struct r500_addr_word *aw)
{
	bool two = aw->srcp_op == R500_SRCP_SUB || aw->srcp_op == R500_SRCP_ADD;
	return writes_temp(w, &aw->src[0]) || (two && writes_temp(w, &aw->src[1]));
}

bool r500_hazard_needs_nop(const struct r500_inst *prev, const struct r500_inst *next)
{
	if (!prev || !next || !is_alu(next) || prev->cmn.type == R500_TYPE_TEX)
		return false;
	/* MDH/MDV: Mesa's rule, NOP on every non-TEX predecessor */
	if (next->alu.rgb_op == R500_ROP_MDH || next->alu.rgb_op == R500_ROP_MDV ||
	    next->alu.alpha_op == R500_AOP_MDH || next->alu.alpha_op == R500_AOP_MDV)
		return true;
	if (!is_alu(prev))
		return false;
	/* Presubtract: srcp.rgb comes from the RGB word, srcp.a from the alpha
	 * word; a swizzle picks which one an input actually reads. */
	bool rgb_p = false, alpha_p = false;
	for (int k = 0; k < 3; k++) {
		const struct r500_arg *r = &next->alu.rgb_arg[k], *a = &next->alu.alpha_arg[k];
		if (r->sel == R500_SEL_SRCP)
			for (int c = 0; c < 3; c++) {
				rgb_p |= r->swz[c] <= R500_SWZ_B || r->swz[c] == R500_SWZ_UNUSED;
				alpha_p |= r->swz[c] == R500_SWZ_A || r->swz[c] == R500_SWZ_UNUSED;
			}
		if (a->sel == R500_SEL_SRCP) {
			rgb_p |= a->swz[0] <= R500_SWZ_B || a->swz[0] == R500_SWZ_UNUSED;
			alpha_p |= a->swz[0] == R500_SWZ_A || a->swz[0] == R500_SWZ_UNUSED;
		}
	}
	return (rgb_p && writes_presub_operand(prev, &next->alu.rgb_addr)) ||
	       (alpha_p && writes_presub_operand(prev, &next->alu.alpha_addr));
}

/* ---- program-level rules ---- */

static bool flow_validate(const struct r500_inst *code, int n, char *why, size_t len)
{
	char stack[R500_MAX_SLOTS];
	int depth = 0;
	bool kill_pending = false;
	for (int i = 0; i < n; i++) {
		const struct r500_inst *in = &code[i];
		if (in->cmn.type == R500_TYPE_TEX && in->tex.inst == R500_TEX_KILL)
			kill_pending = true;
		if (in->cmn.type != R500_TYPE_FC)
			continue;
		const struct r500_fc *fc = &in->fc;
		if (!in->cmn.alu_wait)
			return r500_why(why, len, "slot %d: FC instruction without ALU_WAIT", i);
		if (kill_pending && !in->cmn.tex_sem_wait)
			return r500_why(why, len, "slot %d: first FC after TEXKILL needs TEX_SEM_WAIT", i);
		kill_pending = false;
		if (fc->a_op != R500_FC_A_POP && fc->jump_addr >= n)
			return r500_why(why, len, "slot %d: jump target %u out of range (%d slots)",
					i, fc->jump_addr, n);
		switch (fc->op) {
		case R500_FC_LOOP: stack[depth++] = 'L'; break;
		case R500_FC_REP: stack[depth++] = 'R'; break;
		case R500_FC_ENDLOOP:
		case R500_FC_ENDREP: {
			char want = fc->op == R500_FC_ENDLOOP ? 'L' : 'R';
			if (!depth || stack[depth - 1] != want)
				return r500_why(why, len, "slot %d: %s without matching %s", i,
						want == 'L' ? "ENDLOOP" : "ENDREP",
						want == 'L' ? "LOOP" : "REP");
			depth--;
			break;
		}
		case R500_FC_BREAKLOOP:
		case R500_FC_BREAKREP: {
			char want = fc->op == R500_FC_BREAKLOOP ? 'L' : 'R';
			if (!depth || stack[depth - 1] != want)
				return r500_why(why, len, "slot %d: %s outside a %s", i,
						want == 'L' ? "BREAKLOOP" : "BREAKREP",
						want == 'L' ? "LOOP" : "REP");
			break;
		}
		case R500_FC_CONTINUE:
			if (!depth)
				return r500_why(why, len, "slot %d: CONTINUE outside a loop", i);
			break;
		default:
			break;
		}
	}
	if (depth)
		return r500_why(why, len, "slot %d: %s not closed", n - 1,
				stack[depth - 1] == 'L' ? "LOOP" : "REP");
	return true;
}

bool r500_program_validate(const struct r500_inst *code, int n, char *why, size_t len)
{
	if (!code || n < 1 || n > R500_MAX_SLOTS)
		return r500_why(why, len, "program size %d not in 1..%d", n, R500_MAX_SLOTS);
	for (int i = 0; i < n; i++) {
		char sub[160];
		if (!r500_inst_validate(&code[i], sub, sizeof sub))
			return r500_why(why, len, "slot %d: %s", i, sub);
	}
	for (int i = 0; i + 1 < n; i++) {
		if (code[i].cmn.nop || !r500_hazard_needs_nop(&code[i], &code[i + 1]))
			continue;
		bool mdx = code[i + 1].alu.rgb_op == R500_ROP_MDH || code[i + 1].alu.rgb_op == R500_ROP_MDV ||
			   code[i + 1].alu.alpha_op == R500_AOP_MDH || code[i + 1].alu.alpha_op == R500_AOP_MDV;
		return r500_why(why, len, "slot %d: needs NOP before %s in slot %d", i,
				mdx ? "MDH/MDV" : "presubtract reader", i + 1);
	}
	const struct r500_inst *last = &code[n - 1];
	if (last->cmn.type != R500_TYPE_OUT || !last->cmn.tex_sem_wait)
		return r500_why(why, len, "slot %d: last instruction must be OUT with TEX_SEM_WAIT", n - 1);
	return flow_validate(code, n, why, len);
}
