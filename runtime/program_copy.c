/* A deep copy of a compiled program into another arena: what a result
 * keeps of its compile (uscc_result_container) once the compile's arena
 * is gone. */
#include "program_copy.h"

#include <string.h>

/* n elements of `size` bytes copied into the arena (NULL stays NULL; an
 * empty array gets one zeroed element, as container_read gives it). */
static void *dup_array(struct arena *a, const void *src, size_t n, size_t size)
{
	if (!src || !n)
		return arena_alloc(a, (n ? n : 1) * size);
	void *d = arena_alloc_unzeroed(a, n * size); /* every byte copied */
	if (d)
		memcpy(d, src, n * size);
	return d;
}

static const char *dup_str(struct arena *a, const char *s)
{
	return arena_strdup(a, s ? s : "");
}

static void copy_names(struct arena *a, struct r500_program *d)
{
	for (int i = 0; i < d->nuniforms; i++) {
		struct r500_uniform *u = &d->uniforms[i];
		u->name = dup_str(a, u->name);
		u->type = dup_str(a, u->type);
		if (u->init)
			u->init = dup_array(a, u->init, 4, sizeof *u->init);
	}
	for (int i = 0; i < d->nsamplers; i++)
		d->samplers[i].name = dup_str(a, d->samplers[i].name);
	for (int i = 0; i < d->ninputs; i++)
		d->inputs[i].name = dup_str(a, d->inputs[i].name);
	for (int i = 0; i < d->noutputs; i++)
		d->outputs[i].name = dup_str(a, d->outputs[i].name);
}

bool r500_program_copy(struct arena *a, const struct r500_program *s, struct r500_program *d)
{
	*d = *s;
	d->loop_trips = NULL; /* the compile's cost weights: would dangle, as a decoded program has none */
	size_t nslots = (size_t)s->nconst_slots;
	d->code = dup_array(a, s->code, (size_t)s->ninst, sizeof *s->code);
	d->consts = dup_array(a, s->consts, nslots, sizeof *s->consts);
	d->const_is_imm = dup_array(a, s->const_is_imm, nslots, 1);
	d->uniforms = dup_array(a, s->uniforms, (size_t)s->nuniforms, sizeof *s->uniforms);
	d->samplers = dup_array(a, s->samplers, (size_t)s->nsamplers, sizeof *s->samplers);
	d->inputs = dup_array(a, s->inputs, (size_t)s->ninputs, sizeof *s->inputs);
	d->outputs = dup_array(a, s->outputs, (size_t)s->noutputs, sizeof *s->outputs);
	d->cp.code = dup_array(a, s->cp.code, (size_t)s->cp.ninst, sizeof *s->cp.code);
	d->cp.imm = dup_array(a, s->cp.imm, (size_t)s->cp.nimm, sizeof *s->cp.imm);
	d->cp.outs = dup_array(a, s->cp.outs, (size_t)s->cp.nouts, sizeof *s->cp.outs);
	if (arena_failed(a))
		return false;
	copy_names(a, d);
	return !arena_failed(a);
}
