/* The assembly listing of a compiled program (the -S output): a header of
 * comments naming every input, uniform, immediate constant, sampler,
 * output and constant-program line, then one line per instruction.  It is
 * built with the string builder, so a program of any size is listed whole. */
#include "r500_compile.h"

#include "arena_strbuf.h"
#include "r500_codec.h"
#include "r500_cp.h"
#include "texture.h"

static void list_interface(struct strbuf *o, const struct r500_program *p)
{
	for (int i = 0; i < p->ninputs; i++)
		strbuf_printf(o, "# input  t%d.%s = %s\n", p->inputs[i].temp, p->inputs[i].components,
			      p->inputs[i].name);
	for (int i = 0; i < p->nuniforms; i++)
		strbuf_printf(o, "# uniform c%d.%s = %s[%d]\n", p->uniforms[i].slot,
			      p->uniforms[i].swizzle, p->uniforms[i].name, p->uniforms[i].element);
	for (int s = 0; s < p->nconst_slots; s++)
		if (p->const_is_imm && p->const_is_imm[s])
			strbuf_printf(o, "# const  c%d = {%g, %g, %g, %g}\n", s, p->consts[s][0],
				      p->consts[s][1], p->consts[s][2], p->consts[s][3]);
	for (int i = 0; i < p->nsamplers; i++)
		strbuf_printf(o, "# sampler %d = %s (%s)\n", p->samplers[i].unit, p->samplers[i].name,
			      tex_target_name(p->samplers[i].target));
	for (int i = 0; i < p->noutputs; i++) {
		if (p->outputs[i].target < 0)
			strbuf_printf(o, "# output depth = %s\n", p->outputs[i].name);
		else
			strbuf_printf(o, "# output target %d = %s\n", p->outputs[i].target,
				      p->outputs[i].name);
	}
}

static void list_const_program(struct strbuf *o, const struct r500_const_prog *cp)
{
	if (!cp->nouts)
		return;
	strbuf_printf(o, "# constant program: %d instructions, %d outputs (run before the draw)\n",
		      cp->ninst, cp->nouts);
	r500_cp_list(o, cp, "#   ");
}

char *r500_program_listing(const struct r500_program *p, struct arena *arena)
{
	struct strbuf o;
	strbuf_init(&o, arena);
	if (!p)
		return strbuf_text(&o);
	strbuf_printf(&o, "# %d instructions, %d temps (pixsize %d), %d constant slots\n", p->ninst,
		      p->stats.temps, p->pixsize, p->nconst_slots);
	list_interface(&o, p);
	list_const_program(&o, &p->cp);
	for (int i = 0; i < p->ninst; i++) {
		strbuf_printf(&o, "%3d: ", i);
		r500_disasm_inst(&o, &p->code[i]);
		strbuf_puts(&o, "\n");
	}
	return strbuf_text(&o);
}
