/* The textual form of the IR (what `uscc --dump-ir` shows and what
 * ir_parse reads back).  Header lines describe the tables, then one line
 * per instruction, with structured `if`/`loop` blocks:
 *
 *   stage fragment
 *   input #0 "gl_TexCoord[0]" f4
 *   uniform #0 "u" "vec4" f4 nvec4=1 array=0 base=0
 *   uniform #1 "k" "vec2" f2 nvec4=2 array=2 base=1 init=[1 2 0 0] [3 4 0 0]
 *   sampler #0 "tex" 2d unit=0
 *   output #0 "gl_FragColor" f4 target=0
 *   array #0 "a" f4 length=3
 *   %1 = input.f4 #0
 *   %2 = tex.f4 #0 plain %1.xy
 *   store #0[1] + %3.x, %2.xyzw
 *   %6 = load.f4 #0[0] + %3.y
 *   if %5.x {
 *     discard
 *   }
 *   output #0 %2.xyzw
 *
 * Floats print with %.9g so that they parse back to the same bits. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_text.h"
#include "shadow.h"
#include "arena_strbuf.h"

#include <stdio.h>
#include <string.h>

const char *const ir_text_targets[5] = { "1d", "2d", "3d", "cube", "rect" };
const char *const ir_text_tex_kinds[IR_TEX_KIND_COUNT] = { "plain", "bias", "lod", "proj", "projbias",
					   "projlod", "grad", "projgrad" };
const char ir_text_swz[4] = { 'x', 'y', 'z', 'w' };

static void print_string(struct strbuf *sb, const char *s)
{
	strbuf_printf(sb, " \"");
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_printf(sb, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			strbuf_printf(sb, "\\x%02x", (unsigned char)*s);
		else
			strbuf_printf(sb, "%c", *s);
	}
	strbuf_printf(sb, "\"");
}

/* A uniform's initializer: one [x y z w] per vec4 element, all four
 * components so that the text round-trips exactly. */
static void print_uniform_init(struct strbuf *sb, const struct ir_uniform *u)
{
	if (!u->init)
		return;
	strbuf_printf(sb, " init=");
	for (int e = 0; e < u->nvec4; e++)
		strbuf_printf(sb, "%s[%.9g %.9g %.9g %.9g]", e ? " " : "", (double)u->init[e][0],
			  (double)u->init[e][1], (double)u->init[e][2], (double)u->init[e][3]);
}

static void print_tables(struct strbuf *sb, const struct ir_func *f)
{
	strbuf_printf(sb, "stage %s\n", f->stage == IR_STAGE_VERTEX ? "vertex" : "fragment");
	for (int i = 0; i < f->ninputs; i++) {
		strbuf_printf(sb, "input #%d", i);
		print_string(sb, f->inputs[i].name);
		strbuf_printf(sb, " f%d%s\n", f->inputs[i].ncomp,
			  f->inputs[i].centroid ? " centroid" : "");
	}
	for (int i = 0; i < f->nuniforms; i++) {
		const struct ir_uniform *u = &f->uniforms[i];
		strbuf_printf(sb, "uniform #%d", i);
		print_string(sb, u->name);
		print_string(sb, u->type);
		strbuf_printf(sb, " f%d nvec4=%d array=%d base=%d", u->ncomp, u->nvec4,
			  u->array_len, u->base);
		if (u->member_major)
			strbuf_printf(sb, " member_major");
		print_uniform_init(sb, u);
		strbuf_printf(sb, "\n");
	}
	for (int i = 0; i < f->nsamplers; i++) {
		const struct ir_sampler *s = &f->samplers[i];
		strbuf_printf(sb, "sampler #%d", i);
		print_string(sb, s->name);
		strbuf_printf(sb, " %s unit=%d%s",
			  s->target <= IR_TARGET_RECT ? ir_text_targets[s->target] : "?",
			  s->unit, s->shadow ? " shadow" : "");
		/* the unit's compare state, when it is not GL's default */
		if (s->compare != TEX_COMPARE_LEQUAL && tex_compare_name(s->compare))
			strbuf_printf(sb, " compare=%s", tex_compare_name(s->compare));
		if (s->depth_mode != TEX_DEPTH_LUMINANCE && tex_depth_mode_name(s->depth_mode))
			strbuf_printf(sb, " depth=%s", tex_depth_mode_name(s->depth_mode));
		strbuf_printf(sb, "\n");
	}
	for (int i = 0; i < f->noutputs; i++) {
		const struct ir_output *o = &f->outputs[i];
		strbuf_printf(sb, "output #%d", i);
		print_string(sb, o->name);
		if (o->target < 0)
			strbuf_printf(sb, " f%d target=depth\n", o->ncomp);
		else
			strbuf_printf(sb, " f%d target=%d\n", o->ncomp, o->target);
	}
	for (int i = 0; i < f->narrays; i++) {
		const struct ir_array *a = &f->arrays[i];
		strbuf_printf(sb, "array #%d", i);
		print_string(sb, a->name);
		strbuf_printf(sb, " %c%d length=%d\n", a->base == IR_BOOL ? 'b' : 'f', a->ncomp,
			  a->length);
	}
}

static void print_src(struct strbuf *sb, const struct ir_src *s, int n)
{
	strbuf_printf(sb, "%%%u.", s->def ? s->def->id : 0u);
	for (int c = 0; c < n; c++)
		strbuf_printf(sb, "%c", s->swz[c] < 4 ? ir_text_swz[s->swz[c]] : '?');
}

static void print_srcs(struct strbuf *sb, const struct ir_func *f, const struct ir_instr *in,
		       int first)
{
	for (int i = first; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		strbuf_printf(sb, i > first ? ", " : " ");
		print_src(sb, &in->src[i], ir_src_ncomp(f, in, i));
	}
}

static void print_operands(struct strbuf *sb, const struct ir_func *f, const struct ir_instr *in)
{
	switch (in->op) {
	case IR_OP_CONST:
		for (int c = 0; c < in->ncomp && c < 4; c++)
			strbuf_printf(sb, " %.9g", (double)in->imm[c]);
		break;
	case IR_OP_INPUT:
		strbuf_printf(sb, " #%d", in->index);
		break;
	case IR_OP_UNIFORM:
		strbuf_printf(sb, " #%d[%d]", in->index, in->offset);
		if (in->nsrc > 0) {
			strbuf_printf(sb, " + ");
			print_src(sb, &in->src[0], 1);
		}
		break;
	case IR_OP_LOAD:
	case IR_OP_STORE: {
		/* the index source: LOAD's src0, STORE's src1 (after its value) */
		int ix = in->op == IR_OP_LOAD ? 0 : 1;
		strbuf_printf(sb, " #%d[%d]", in->index, in->offset);
		if (in->nsrc > ix) {
			strbuf_printf(sb, " + ");
			print_src(sb, &in->src[ix], 1);
		}
		if (in->op == IR_OP_STORE && in->nsrc > 0) {
			strbuf_printf(sb, ", ");
			print_src(sb, &in->src[0], ir_src_ncomp(f, in, 0));
		}
		break;
	}
	case IR_OP_TEX:
		strbuf_printf(sb, " #%d %s%s", in->index,
			  in->tex_kind < IR_TEX_KIND_COUNT ? ir_text_tex_kinds[in->tex_kind] : "?",
			  in->tex_shadow ? " shadow" : "");
		print_srcs(sb, f, in, 0);
		break;
	case IR_OP_OUTPUT:
		strbuf_printf(sb, " #%d", in->index);
		print_srcs(sb, f, in, 0);
		break;
	default:
		print_srcs(sb, f, in, 0);
		break;
	}
}

static void indent(struct strbuf *sb, int depth)
{
	for (int i = 0; i < depth; i++)
		strbuf_printf(sb, "  ");
}

static void print_instr(struct strbuf *sb, const struct ir_func *f, const struct ir_instr *in,
			int depth)
{
	indent(sb, depth);
	const char *name = (unsigned)in->op < IR_OP_COUNT ? ir_op_infos[in->op].name : "?";
	if (in->ncomp > 0)
		strbuf_printf(sb, "%%%u = %s.%c%d", in->id, name, in->base == IR_BOOL ? 'b' : 'f',
			  in->ncomp);
	else
		strbuf_printf(sb, "%s", name);
	print_operands(sb, f, in);
	strbuf_printf(sb, "\n");
}

static void print_list(struct strbuf *sb, const struct ir_func *f, const struct ir_cf_list *list,
		       int depth)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				print_instr(sb, f, in, depth);
			break;
		case IR_CF_IF:
			indent(sb, depth);
			strbuf_printf(sb, "if ");
			print_src(sb, &cf->cond, 1);
			strbuf_printf(sb, " {\n");
			print_list(sb, f, &cf->then_list, depth + 1);
			if (!ir_cf_list_is_empty(&cf->else_list)) { /* empty blocks parse back as none */
				indent(sb, depth);
				strbuf_printf(sb, "} else {\n");
				print_list(sb, f, &cf->else_list, depth + 1);
			}
			indent(sb, depth);
			strbuf_printf(sb, "}\n");
			break;
		case IR_CF_LOOP:
			indent(sb, depth);
			strbuf_printf(sb, "loop {\n");
			print_list(sb, f, &cf->body, depth + 1);
			indent(sb, depth);
			strbuf_printf(sb, "}\n");
			break;
		}
	}
}

char *ir_print(const struct ir_func *f, struct arena *arena)
{
	struct strbuf sb;
	strbuf_init(&sb, arena);
	print_tables(&sb, f);
	print_list(&sb, f, &f->body, 0);
	return strbuf_text(&sb);
}
