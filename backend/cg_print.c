/* The backend's middle form as text (--dump-backend): what exists so far
 * of vregs, ops, slots and machine code.
 *
 *   v3: vec2 lanes xy -> t1               a vreg: components, lanes, temporary
 *   op5: mad v3.xy, v0.xy, c2.ww, 0 *2 sat @s4.rgb
 *        dst (or out0 / depth) and operands: v = vreg, c = constant slot,
 *        i = inline constant; swizzle letters are the source's components
 *        and 0 h 1 the constant swizzles; -x |x| -|x| modifiers; then the
 *        output modifier, the clamp, flags, and the slot and unit once
 *        scheduled
 *   s4: rgb op5 | alpha op6   rgb[v3 c2 -] alpha[- - -]
 *   code 4: <the instruction as -S prints it> */
#include "cg.h"
#include "r500_codec.h"
#include "arena_strbuf.h"

#include <stdio.h>
#include <string.h>

static const char *const type_names[] = { "?", "float", "vec2", "vec3", "vec4" };
static const char lane_letters[] = "rgba";

static char swz_letter(int s)
{
	switch (s) {
	case CG_SWZ_ZERO: return '0';
	case CG_SWZ_HALF: return 'h';
	case CG_SWZ_ONE: return '1';
	default: return s >= 0 && s < 4 ? "xyzw"[s] : '?';
	}
}

static void print_vreg(struct strbuf *o, const struct cg_ctx *cg, int r)
{
	const struct cg_vreg *v = &cg->vregs[r];
	strbuf_printf(o, "v%d: %s lanes ", r, type_names[v->ncomp <= 4 ? v->ncomp : 0]);
	for (int c = 0; c < v->ncomp && c < 4; c++)
		strbuf_printf(o, "%c", v->lane[c] < 4 ? lane_letters[v->lane[c]] : '?');
	if (v->input >= 0 && v->input < cg->func->ninputs)
		strbuf_printf(o, " input %s", cg->func->inputs[v->input].name);
	if (v->multi)
		strbuf_printf(o, " multi");
	if (v->temp >= 0)
		strbuf_printf(o, " -> t%d", v->temp);
	strbuf_printf(o, "\n");
}

/* An operand: v3.xy, c2.ww, |v0.x|; inline constants and the constant
 * swizzles print as values per entry, {0.25,1}. */
static void print_opnd(struct strbuf *o, const struct cg_opnd *s, unsigned entries)
{
	static const char *const pre[] = { "", "-", "|", "-|" };
	static const char *const post[] = { "", "", "|", "|" };
	int mod = s->mod & 3;
	bool values = s->file == CG_FILE_NONE || s->file == CG_FILE_INLINE;
	strbuf_printf(o, "%s", pre[mod]);
	if (s->file == CG_FILE_VREG)
		strbuf_printf(o, "v%d.", s->index);
	else if (s->file == CG_FILE_TEMP_REL)
		strbuf_printf(o, "v%d[aL].", s->index);
	else if (s->file == CG_FILE_CONST)
		strbuf_printf(o, "c%d.", s->index);
	else if (s->file == CG_FILE_CONST_REL)
		strbuf_printf(o, "c[aL+%d].", s->index);
	else
		strbuf_printf(o, "{");
	bool first = true;
	for (int j = 0; j < 4; j++) {
		if (!(entries & (1u << j)))
			continue;
		int sw = s->swz[j];
		if (!values)
			strbuf_printf(o, "%c", swz_letter(sw));
		else if (sw >= CG_SWZ_ZERO)
			strbuf_printf(o, "%s%s", first ? "" : ",", sw == CG_SWZ_ZERO ? "0" : sw == CG_SWZ_HALF
							   ? "0.5" : "1");
		else
			strbuf_printf(o, "%s%g", first ? "" : ",", r500_inline_value((unsigned)s->index));
		first = false;
	}
	strbuf_printf(o, "%s%s", values ? "}" : "", post[mod]);
}

/* Operand k reading the presubtract: -(1-v0.y), (v2.xyz-c1.xyz). */
static void print_presub(struct strbuf *o, const struct cg_op *op, int k)
{
	static const char *const pre[] = { "(", "-(", "|(", "-|(" };
	static const char *const post[] = { ")", ")", ")|", ")|" };
	unsigned ent = cg_op_entries(op, k);
	int mod = op->src[k].mod & 3, kind = op->presub - 1;
	strbuf_printf(o, "%s", pre[mod]);
	if (kind == R500_SRCP_INV || kind == R500_SRCP_BIAS) {
		strbuf_printf(o, kind == R500_SRCP_INV ? "1-" : "1-2*");
		print_opnd(o, &op->src[CG_PSRC0], ent);
	} else {
		print_opnd(o, &op->src[CG_PSRC1], ent);
		strbuf_printf(o, kind == R500_SRCP_SUB ? "-" : "+");
		print_opnd(o, &op->src[CG_PSRC0], ent);
	}
	strbuf_printf(o, "%s", post[mod]);
}

static void print_dst(struct strbuf *o, const struct cg_op *op)
{
	if (op->dst >= 0) {
		strbuf_printf(o, op->dst_rel ? "v%d[aL]." : "v%d.", op->dst);
		for (int c = 0; c < 4; c++)
			if (op->wmask & (1u << c))
				strbuf_printf(o, "%c", "xyzw"[c]);
	}
	if (op->out == CG_OUT_DEPTH)
		strbuf_printf(o, "%sdepth", op->dst >= 0 ? "+" : "");
	else if (op->out != CG_OUT_NONE)
		strbuf_printf(o, "%sout%d", op->dst >= 0 ? "+" : "", op->out);
	if (op->dst < 0 && op->out != CG_OUT_NONE) {
		strbuf_printf(o, ".");
		for (int c = 0; c < 4; c++)
			if (op->wmask & (1u << c))
				strbuf_printf(o, "%c", "xyzw"[c]);
	}
	if (op->dst < 0 && op->out == CG_OUT_NONE)
		strbuf_printf(o, "_");
}

static void print_op(struct strbuf *o, const struct cg_ctx *cg, int i)
{
	static const char *const omods[] = { "", " *2", " *4", " *8", " /2", " /4", " /8", " omod?" };
	static const char *const units[] = { "", "rgb", "alpha", "both" };
	const struct cg_op *op = &cg->ops[i];
	const struct cg_opc_info *info = &cg_opc_infos[op->opc < CG_OPC_COUNT ? op->opc : 0];
	strbuf_printf(o, "op%d: %s ", i, info->name);
	if (op->opc == CG_FC) {
		strbuf_printf(o, "op%d%+d", op->fc_target, op->fc_delta);
	} else {
		print_dst(o, op);
		for (int k = 0; k < info->nsrc; k++) {
			strbuf_printf(o, ", ");
			if (op->src[k].file == CG_FILE_PRESUB)
				print_presub(o, op, k);
			else
				print_opnd(o, &op->src[k], cg_op_entries(op, k));
		}
	}
	if (info->tex)
		strbuf_printf(o, " unit %d", op->tex_unit);
	strbuf_printf(o, "%s%s%s%s%s", omods[op->omod & 7], op->clamp ? " sat" : "",
		      op->late ? " late" : "",
		      op->pred_write ? " pred-write" : op->alu_result ? " alu-result" : "",
		      op->predicated ? " if-pred" : "");
	if (op->write_inactive)
		strbuf_printf(o, " write-inactive");
	if (op->slot >= 0)
		strbuf_printf(o, " @s%d.%s", op->slot, info->tex ? "tex" : op->opc == CG_FC ? "fc"
					   : units[op->unit & 3]);
	strbuf_printf(o, "\n");
}

static void print_addr(struct strbuf *o, const char *unit, const struct cg_addr *a)
{
	static const char files[] = "-vci";
	strbuf_printf(o, " %s[", unit);
	for (int k = 0; k < 3; k++) {
		if (a[k].file == CG_FILE_NONE)
			strbuf_printf(o, "%s-", k ? " " : "");
		else if (a[k].file == CG_FILE_CONST_REL)
			strbuf_printf(o, "%sc[aL+%d]", k ? " " : "", a[k].index);
		else if (a[k].file == CG_FILE_TEMP_REL)
			strbuf_printf(o, "%sv%d[aL]", k ? " " : "", a[k].index);
		else
			strbuf_printf(o, "%s%c%d", k ? " " : "", files[a[k].file & 3], a[k].index);
	}
	strbuf_printf(o, "]");
}

static void print_slot(struct strbuf *o, const struct cg_ctx *cg, int sl)
{
	const struct cg_slot *s = &cg->slots[sl];
	if (s->tex || s->fc) {
		strbuf_printf(o, "s%d: %s op%d\n", sl, s->tex ? "tex" : "fc", s->tex_op);
		return;
	}
	char rgb[16] = "-", alpha[16] = "-";
	if (s->rgb >= 0)
		snprintf(rgb, sizeof rgb, "op%d", s->rgb);
	if (s->alpha >= 0)
		snprintf(alpha, sizeof alpha, "op%d", s->alpha);
	strbuf_printf(o, "s%d: rgb %s | alpha %s ", sl, rgb, alpha);
	print_addr(o, "rgb", s->rgb_addr);
	print_addr(o, "alpha", s->alpha_addr);
	if (s->rgb_srcp || s->alpha_srcp)
		strbuf_printf(o, " srcp %d,%d", s->rgb_srcp - 1, s->alpha_srcp - 1);
	strbuf_printf(o, "\n");
}

char *cg_print(const struct cg_ctx *cg, struct arena *arena)
{
	struct strbuf o;
	strbuf_init(&o, arena);
	int live = 0;
	for (int i = 0; i < cg->nops; i++)
		live += !cg->ops[i].dead;
	strbuf_printf(&o, "# %d vregs, %d ops (%d live), %d slots, %d instructions\n", cg->nvregs, cg->nops,
	    live, cg->nslots, cg->ninst);
	for (int r = 0; r < cg->nvregs; r++)
		print_vreg(&o, cg, r);
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead)
			print_op(&o, cg, i);
	for (int sl = 0; sl < cg->nslots; sl++)
		print_slot(&o, cg, sl);
	for (int i = 0; i < cg->ninst; i++) {
		strbuf_printf(&o, "code %d: ", i);
		r500_disasm_inst(&o, &cg->code[i]);
		strbuf_puts(&o, "\n");
	}
	return strbuf_text(&o);
}
