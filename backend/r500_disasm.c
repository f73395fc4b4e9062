/* Disassembler: struct r500_inst -> one line of assembly text that shows
 * every field, in the syntax r500_asm.c parses back (docs/r500-asm.md).
 *
 *   out sem_wait src0=t1,t1 src1=t2,t2 src2=c0,c0 : t0.rgb = MAD src0.rgb, src1.rgb, src2.rgb -> rt0.rgb : t0.a = MAD src0.a, src1.a, src2.a -> rt0.a
 *   tex sem_wait LD t2.rgba = tex3(t0.rgba).rgba acquire
 *   fc alu_wait (!p.rrrr) JUMP func=0x0F b_op0=incr addr=12
 */
#include "r500_disasm_syntax.h"

#include "arena_strbuf.h"

static const char *value_name(const char *field, unsigned type, unsigned v)
{
	const struct r500_field *f = r500_field_find(field, type);
	return f && f->value_names && v < (1u << f->width) ? f->value_names[v] : "?";
}

static void put_flags(struct strbuf *s, const struct r500_inst *in)
{
	const struct r500_cmn *c = &in->cmn;
	if (c->nop) strbuf_printf(s, " nop");
	if (c->alu_wait) strbuf_printf(s, " alu_wait");
	if (c->tex_sem_wait) strbuf_printf(s, " sem_wait");
	if (c->last) strbuf_printf(s, " last");
	if (c->write_inactive) strbuf_printf(s, " write_inactive");
	if (c->stat_we) strbuf_printf(s, " stat_we=0x%X", c->stat_we);
	/* CMN fields this type's syntax has no place for, by table name */
	for (const char *const *g = r500_asm_generic[c->type & 3]; g && *g; g++) {
		const struct r500_field *f = r500_field_find(*g, c->type & 3);
		if (f && r500_field_get(in, f))
			strbuf_printf(s, " %s=%u", f->name, r500_field_get(in, f));
	}
}

static void put_pred(struct strbuf *s, unsigned sel, unsigned inv)
{
	if (!sel && !inv)
		return;
	strbuf_printf(s, " (%sp.%s)", inv ? "!" : "", r500_asm_pred_names[sel & 7]);
}

/* temporary N, constant N, with REL as [aL+N] */
static void put_reg(struct strbuf *s, char file, unsigned addr, unsigned rel)
{
	if (rel)
		strbuf_printf(s, "%c[aL+%u]", file, addr);
	else
		strbuf_printf(s, "%c%u", file, addr);
}

static void put_slot(struct strbuf *s, const struct r500_addr *a)
{
	if (a->cnst)
		put_reg(s, 'c', a->addr, a->rel);
	else if (a->addr & R500_INLINE_BIT)
		strbuf_printf(s, "%.10g%s", (double)r500_inline_value(a->addr & 127), a->rel ? "[aL]" : "");
	else
		put_reg(s, 't', a->addr, a->rel);
}

static void put_arg(struct strbuf *s, const struct r500_arg *a, int nswz, const char *sep)
{
	bool neg = a->mod == R500_MOD_NEG || a->mod == R500_MOD_NAB;
	bool abs = a->mod == R500_MOD_ABS || a->mod == R500_MOD_NAB;
	strbuf_printf(s, " %s%s%s.", neg ? "-" : "", abs ? "|" : "", r500_asm_sel_names[a->sel & 3]);
	for (int i = 0; i < nswz; i++)
		strbuf_printf(s, "%c", r500_asm_swz_chars[a->swz[i] & 7]);
	strbuf_printf(s, "%s%s", abs ? "|" : "", sep);
}

static void put_mask(struct strbuf *s, unsigned mask, const char *letters)
{
	if (!mask)
		strbuf_printf(s, "-");
	for (int i = 0; letters[i]; i++)
		if ((mask >> i) & 1)
			strbuf_printf(s, "%c", letters[i]);
}

static void put_unit(struct strbuf *s, const struct r500_inst *in, bool rgb)
{
	const struct r500_cmn *c = &in->cmn;
	const struct r500_alu *a = &in->alu;
	bool out = c->type == R500_TYPE_OUT;
	unsigned op = rgb ? a->rgb_op : a->alpha_op, omod = rgb ? a->rgb_omod : a->alpha_omod;
	unsigned omask = rgb ? c->rgb_omask : c->alpha_omask;
	unsigned target = rgb ? a->rgb_target : a->alpha_target;
	const char *letters = rgb ? "rgb" : "a";

	strbuf_printf(s, " :");
	put_pred(s, rgb ? c->rgb_pred_sel : c->alpha_pred_sel, rgb ? c->rgb_pred_inv : c->alpha_pred_inv);
	strbuf_printf(s, " ");
	put_reg(s, 't', rgb ? a->rgb_addrd : a->alpha_addrd, rgb ? a->rgb_addrd_rel : a->alpha_addrd_rel);
	strbuf_printf(s, ".");
	put_mask(s, rgb ? c->rgb_wmask : c->alpha_wmask, letters);
	strbuf_printf(s, " = %s%s%s", value_name(rgb ? "RGB_OP" : "ALPHA_OP", c->type, op),
	    (rgb ? c->rgb_clamp : c->alpha_clamp) ? "_sat" : "", r500_asm_omod_names[omod & 7]);
	for (int k = 0; k < 3; k++)
		put_arg(s, rgb ? &a->rgb_arg[k] : &a->alpha_arg[k], rgb ? 3 : 1, k < 2 ? "," : "");
	bool w = !rgb && a->w_omask;
	if (omask || target || w)
		strbuf_printf(s, " ->");
	if (omask || target) {
		if (out)
			strbuf_printf(s, " rt%u.", target);
		else
			strbuf_printf(s, " p.");
		put_mask(s, omask, letters);
		if (!out)
			strbuf_printf(s, "%s", r500_asm_cmp_names[target & 3]);
	}
	if (w)
		strbuf_printf(s, " depth");
}

static void put_alu(struct strbuf *s, const struct r500_inst *in)
{
	const struct r500_alu *a = &in->alu;
	for (int k = 0; k < 3; k++) {
		strbuf_printf(s, " src%d=", k);
		put_slot(s, &a->rgb_addr.src[k]);
		strbuf_printf(s, ",");
		put_slot(s, &a->alpha_addr.src[k]);
	}
	bool srcp = a->rgb_addr.srcp_op || a->alpha_addr.srcp_op;
	for (int k = 0; k < 3; k++)
		srcp |= a->rgb_arg[k].sel == R500_SEL_SRCP || a->alpha_arg[k].sel == R500_SEL_SRCP;
	if (srcp)
		strbuf_printf(s, " srcp=%s,%s", value_name("RGB_SRCP_OP", in->cmn.type, a->rgb_addr.srcp_op),
		    value_name("ALPHA_SRCP_OP", in->cmn.type, a->alpha_addr.srcp_op));
	put_unit(s, in, true);
	put_unit(s, in, false);
	if (a->alu_wmask || in->cmn.alu_result_sel || in->cmn.alu_result_op)
		strbuf_printf(s, " : %s=%c%s", a->alu_wmask ? "result" : "noresult",
		    in->cmn.alu_result_sel ? 'a' : 'r', r500_asm_cmp_names[in->cmn.alu_result_op & 3]);
}

static void put_tex_swz(struct strbuf *s, const uint16_t swz[4])
{
	for (int i = 0; i < 4; i++)
		strbuf_printf(s, "%c", "rgba"[swz[i] & 3]);
}

static void put_tex(struct strbuf *s, const struct r500_inst *in)
{
	const struct r500_tex *t = &in->tex;
	put_pred(s, in->cmn.rgb_pred_sel, in->cmn.rgb_pred_inv);
	strbuf_printf(s, " %s ", value_name("INST", R500_TYPE_TEX, t->inst));
	put_reg(s, 't', t->dst_addr, t->dst_addr_rel);
	strbuf_printf(s, ".");
	put_mask(s, in->cmn.rgb_wmask | in->cmn.alpha_wmask << 3, "rgba");
	strbuf_printf(s, " = tex%u(", t->tex_id);
	put_reg(s, 't', t->src_addr, t->src_addr_rel);
	strbuf_printf(s, ".");
	put_tex_swz(s, t->src_swz);
	strbuf_printf(s, ").");
	put_tex_swz(s, t->dst_swz);
	if (t->sem_acquire) strbuf_printf(s, " acquire");
	if (t->ignore_uncovered) strbuf_printf(s, " ignore_uncovered");
	if (t->unscaled) strbuf_printf(s, " unscaled");
	bool dxdy = t->inst == R500_TEX_DXDY || t->dx_addr || t->dx_addr_rel || t->dy_addr ||
		    t->dy_addr_rel;
	for (int i = 0; i < 4; i++)
		dxdy |= t->dx_swz[i] || t->dy_swz[i];
	if (dxdy) {
		strbuf_printf(s, " dx=");
		put_reg(s, 't', t->dx_addr, t->dx_addr_rel);
		strbuf_printf(s, ".");
		put_tex_swz(s, t->dx_swz);
		strbuf_printf(s, " dy=");
		put_reg(s, 't', t->dy_addr, t->dy_addr_rel);
		strbuf_printf(s, ".");
		put_tex_swz(s, t->dy_swz);
	}
}

static void put_fc(struct strbuf *s, const struct r500_inst *in)
{
	const struct r500_fc *f = &in->fc;
	put_pred(s, in->cmn.rgb_pred_sel, in->cmn.rgb_pred_inv);
	strbuf_printf(s, " %s func=0x%02X", value_name("OP", R500_TYPE_FC, f->op), f->jump_func);
	if (f->jump_any) strbuf_printf(s, " any");
	if (f->b_else) strbuf_printf(s, " else");
	if (f->a_op) strbuf_printf(s, " a_op=%s", value_name("A_OP", R500_TYPE_FC, f->a_op));
	if (f->b_op0) strbuf_printf(s, " b_op0=%s", value_name("B_OP0", R500_TYPE_FC, f->b_op0));
	if (f->b_op1) strbuf_printf(s, " b_op1=%s", value_name("B_OP1", R500_TYPE_FC, f->b_op1));
	if (f->b_pop_cnt) strbuf_printf(s, " pop_cnt=%u", f->b_pop_cnt);
	if (f->ignore_uncovered) strbuf_printf(s, " ignore_uncovered");
	if (f->bool_addr) strbuf_printf(s, " bool=%u", f->bool_addr);
	if (f->int_addr) strbuf_printf(s, " int=%u", f->int_addr);
	strbuf_printf(s, " addr=%u", f->jump_addr);
	if (f->jump_global) strbuf_printf(s, " global");
}

void r500_disasm_inst(struct strbuf *s, const struct r500_inst *in)
{
	unsigned type = in->cmn.type & 3;
	strbuf_puts(s, r500_fields[0].value_names[type]);
	put_flags(s, in);
	if (type == R500_TYPE_TEX)
		put_tex(s, in);
	else if (type == R500_TYPE_FC)
		put_fc(s, in);
	else
		put_alu(s, in);
}

void r500_disasm_program(struct strbuf *out, const uint32_t *words, int ninst)
{
	for (int i = 0; words && i < ninst; i++) {
		const uint32_t *w = words + (size_t)i * R500_WORDS;
		struct r500_inst in;
		char why[160];
		if (r500_decode(w, &in, why, sizeof why)) {
			strbuf_printf(out, "%03d: ", i);
			r500_disasm_inst(out, &in);
			strbuf_puts(out, "\n");
		} else {
			strbuf_printf(out,
				      "%03d: .words 0x%08X 0x%08X 0x%08X 0x%08X 0x%08X 0x%08X ; invalid: %s\n",
				      i, (unsigned)w[0], (unsigned)w[1], (unsigned)w[2], (unsigned)w[3],
				      (unsigned)w[4], (unsigned)w[5], why);
		}
	}
}
