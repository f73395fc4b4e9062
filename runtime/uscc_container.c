/* uscc_container: a container's tables behind the public API, from
 * container bytes (uscc_container_open: validated, the code words
 * re-encoded from the decoded instructions, identical for every valid
 * container) or from the program a compile just made
 * (uscc_result_container: copied, nothing validated again).  One arena
 * holds everything; the JSON and the listing are made when first asked
 * for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container.h"
#include "program_copy.h"
#include "r500_cp.h"
#include "r500_codec.h"
#include "arena_strbuf.h"
#include "uscc_internal.h"

struct uscc_container {
	struct arena *arena;
	struct r500_program p;
	uint32_t *words;
	char *json;
	char *disasm;
};

static void set_err(char *err, size_t err_len, const char *why)
{
	if (err && err_len)
		snprintf(err, err_len, "%s", why);
}

enum uscc_status uscc_container_open(const struct uscc_allocator *alloc, const void *data,
				     size_t size, struct uscc_container **out, char *err,
				     size_t err_len)
{
	*out = NULL;
	struct mem_allocator a = uscc_allocator_of(alloc);
	struct arena *arena = arena_create(&a);
	if (!arena) {
		set_err(err, err_len, "out of memory");
		return USCC_OUT_OF_MEMORY;
	}
	struct uscc_container *c = arena_alloc(arena, sizeof *c);
	char why[256] = "";
	if (!c || !container_read(data, size, arena, &c->p, why, sizeof why)) {
		bool oom = arena_failed(arena);
		set_err(err, err_len, oom ? "out of memory" : why);
		arena_destroy(arena);
		return oom ? USCC_OUT_OF_MEMORY : USCC_CORRUPT_CONTAINER;
	}
	c->arena = arena;
	c->words = arena_alloc(arena, (size_t)c->p.ninst * R500_WORDS * sizeof *c->words);
	if (!c->words) {
		set_err(err, err_len, "out of memory");
		arena_destroy(arena);
		return USCC_OUT_OF_MEMORY;
	}
	for (int i = 0; i < c->p.ninst; i++)
		r500_encode(&c->p.code[i], c->words + i * R500_WORDS);
	*out = c;
	return USCC_OK;
}

struct uscc_container *uscc_container_of_program(const struct mem_allocator *a,
						 const struct r500_program *p,
						 const void *data, size_t size)
{
	/* a small first chunk: the view of a small program is ~1 KiB, and a
	 * chunk of the usual 64 KiB took pages that the compiles after it,
	 * given that chunk from the cache, touched for the first time (a
	 * larger program's view goes on in usual chunks) */
	size_t words = (size_t)p->ninst * R500_WORDS * sizeof(uint32_t);
	struct arena *arena = arena_create_sized(a, ARENA_SMALL);
	if (!arena)
		return NULL;
	struct uscc_container *c = arena_alloc(arena, sizeof *c);
	if (c) {
		c->arena = arena;
		c->words = arena_alloc_unzeroed(arena, words); /* container_code_words fills it */
	}
	if (!c || !c->words || !r500_program_copy(arena, p, &c->p) ||
	    !container_code_words(data, size, p->ninst, c->words)) {
		arena_destroy(arena);
		return NULL;
	}
	return c;
}

void uscc_container_destroy(struct uscc_container *c)
{
	if (c)
		arena_destroy(c->arena);
}

const uint32_t *uscc_container_code(const struct uscc_container *c, int *ninst)
{
	*ninst = c->p.ninst;
	return c->words;
}

int uscc_container_num_const_slots(const struct uscc_container *c)
{
	return c->p.nconst_slots;
}

bool uscc_container_constant(const struct uscc_container *c, int slot, float v[4])
{
	if (slot < 0 || slot >= c->p.nconst_slots || !c->p.const_is_imm[slot])
		return false;
	memcpy(v, c->p.consts[slot], 4 * sizeof *v);
	return true;
}

_Static_assert((int)USCC_STATE_R300_TEXSCALE_FACTOR == 2,
	       "uscc.h's enum uscc_state_constant follows ir_r300_state_uniform");

bool uscc_container_constant_info(const struct uscc_container *c, int slot,
				  struct uscc_constant_info *out)
{
	if (slot < 0 || slot >= c->p.nconst_slots)
		return false;
	memset(out, 0, sizeof *out);
	if (c->p.const_is_imm[slot]) {
		out->kind = USCC_CONSTANT_IMMEDIATE;
		memcpy(out->value, c->p.consts[slot], sizeof out->value);
		return true;
	}
	for (int i = 0; i < c->p.nuniforms; i++) {
		if (c->p.uniforms[i].slot != slot)
			continue;
		int state = ir_r300_state_uniform(c->p.uniforms[i].name, &out->unit);
		out->kind = state >= 0 ? USCC_CONSTANT_STATE : USCC_CONSTANT_UNIFORM;
		out->state = state >= 0 ? (enum uscc_state_constant)state : 0;
		out->uniform = i;
		return true;
	}
	for (int i = 0; i < c->p.cp.nouts; i++)
		if (c->p.cp.outs[i].slot == slot)
			out->kind = USCC_CONSTANT_COMPUTED;
	return true;
}

int uscc_container_num_uniforms(const struct uscc_container *c)
{
	return c->p.nuniforms;
}

bool uscc_container_uniform(const struct uscc_container *c, int i, struct uscc_uniform_info *out)
{
	if (i < 0 || i >= c->p.nuniforms)
		return false;
	const struct r500_uniform *u = &c->p.uniforms[i];
	*out = (struct uscc_uniform_info){ u->name, u->type, u->array_len, u->element, u->slot,
					   u->swizzle, u->init };
	return true;
}

int uscc_container_num_samplers(const struct uscc_container *c)
{
	return c->p.nsamplers;
}

bool uscc_container_sampler(const struct uscc_container *c, int i, struct uscc_sampler_info *out)
{
	if (i < 0 || i >= c->p.nsamplers)
		return false;
	const struct r500_sampler *s = &c->p.samplers[i];
	/* the reader has range-checked the target */
	*out = (struct uscc_sampler_info){ s->name, s->unit, tex_target_name(s->target), s->shadow };
	return true;
}

int uscc_container_num_inputs(const struct uscc_container *c)
{
	return c->p.ninputs;
}

bool uscc_container_input(const struct uscc_container *c, int i, struct uscc_input_info *out)
{
	if (i < 0 || i >= c->p.ninputs)
		return false;
	const struct r500_input *in = &c->p.inputs[i];
	*out = (struct uscc_input_info){ in->name, in->temp, in->components };
	return true;
}

int uscc_container_num_outputs(const struct uscc_container *c)
{
	return c->p.noutputs;
}

bool uscc_container_output(const struct uscc_container *c, int i, struct uscc_output_info *out)
{
	if (i < 0 || i >= c->p.noutputs)
		return false;
	*out = (struct uscc_output_info){ c->p.outputs[i].name, c->p.outputs[i].target };
	return true;
}

void uscc_container_flow(const struct uscc_container *c, struct uscc_flow_info *out)
{
	memset(out, 0, sizeof *out);
	out->uses_fc = c->p.uses_fc;
	out->bool_const = c->p.bool_const;
	out->int_const_used = c->p.int_const_used;
	out->pixsize = c->p.pixsize;
	for (int i = 0; i < 32; i++) {
		const struct r500_loop_const *l = &c->p.int_consts[i];
		out->int_const[i] = (uint32_t)l->count | (uint32_t)l->init << 8 |
				    (uint32_t)(uint8_t)l->step << 16;
	}
}

void uscc_container_program_info(const struct uscc_container *c, struct uscc_program_info *out)
{
	memset(out, 0, sizeof *out);
	for (int i = 0; i < c->p.ninst; i++) {
		const struct r500_inst *in = &c->p.code[i];
		if (in->cmn.type == R500_TYPE_TEX && in->tex.inst == R500_TEX_KILL)
			out->uses_kill = true;
	}
	for (int i = 0; i < c->p.noutputs; i++)
		if (c->p.outputs[i].target < 0)
			out->writes_depth = true;
}

void uscc_container_constant_program(const struct uscc_container *c, int *ninst, int *noutputs)
{
	*ninst = c->p.cp.nouts ? c->p.cp.ninst : 0;
	*noutputs = c->p.cp.nouts;
}

enum uscc_status uscc_container_run_constant_program(const struct uscc_container *c,
						     float (*consts)[4], int nslots)
{
	if (!c || !consts || nslots < c->p.nconst_slots)
		return USCC_USAGE_ERROR;
	if (!c->p.cp.nouts)
		return USCC_OK;
	/* the container was checked against its slots when opened */
	return r500_cp_exec(&c->p.cp, consts) ? USCC_OK : USCC_CORRUPT_CONTAINER;
}

void uscc_container_stats(const struct uscc_container *c, struct uscc_stats *out)
{
	uscc_stats_from(out, &c->p.stats);
}

const char *uscc_container_json(const struct uscc_container *c)
{
	/* made on the first call: the container is the caller's, as for
	 * uscc_container_disasm (calls on one object are not concurrent) */
	struct uscc_container *m = (struct uscc_container *)c;
	if (!m->json)
		m->json = container_to_json(&m->p, m->arena);
	return m->json;
}

const char *uscc_container_disasm(const struct uscc_container *cc)
{
	struct uscc_container *c = (struct uscc_container *)cc; /* as for the JSON */
	if (c->disasm)
		return c->disasm;
	struct strbuf b;
	strbuf_init(&b, c->arena);
	r500_disasm_program(&b, c->words, c->p.ninst);
	/* then the constant program, as comments the assembler skips */
	const struct r500_const_prog *cp = &c->p.cp;
	if (cp->nouts) {
		strbuf_printf(&b, "# constant program: %d instructions, %d outputs\n", cp->ninst,
			      cp->nouts);
		r500_cp_list(&b, cp, "#   ");
	}
	c->disasm = strbuf_text(&b);
	return c->disasm;
}
