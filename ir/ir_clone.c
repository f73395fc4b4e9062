/* A whole function copied (ir.h: ir_func_clone), for a compile that tries
 * two ways from one optimized function instead of running the frontend
 * and the passes twice.  Instructions keep their ids, so a map by id
 * carries the sources over. */
#include "ir.h"

#include <string.h>

struct clone {
	struct ir_func *to;
	struct ir_instr **map; /* by id: the copy */
	bool failed;
};

/* A copy of n elements of `elem` bytes in the arena (NULL for none), with
 * the room ir_func_add_* grows the table into (arena_grow). */
static void *copy_table(struct arena *arena, const void *t, int n, size_t elem)
{
	if (!t || n <= 0)
		return NULL;
	void *c = arena_alloc(arena, elem * arena_grow_room((size_t)n));
	if (c)
		memcpy(c, t, elem * (size_t)n);
	return c;
}

static void copy_list(struct clone *c, const struct ir_cf_list *from, struct ir_cf_list *to,
		      struct ir_cf *parent)
{
	for (const struct ir_cf *cf = from->first; cf && !c->failed; cf = cf->next) {
		struct ir_cf *n = ir_cf_create(c->to, cf->kind, parent);
		if (!n) {
			c->failed = true;
			return;
		}
		ir_cf_list_append(to, n);
		n->cond = cf->cond;
		n->doubled = cf->doubled;
		if (cf->kind == IR_CF_IF) {
			copy_list(c, &cf->then_list, &n->then_list, n);
			copy_list(c, &cf->else_list, &n->else_list, n);
		} else if (cf->kind == IR_CF_LOOP) {
			copy_list(c, &cf->body, &n->body, n);
		}
		for (const struct ir_instr *in = cf->block.first; in && cf->kind == IR_CF_BLOCK;
		     in = in->next) {
			struct ir_instr *d = arena_alloc(c->to->arena, sizeof *d);
			if (!d || in->id >= c->to->next_id) {
				c->failed = true;
				return;
			}
			*d = *in;
			d->pass_data = NULL;
			d->forward = NULL;
			ir_block_append(&n->block, d);
			c->map[in->id] = d;
		}
	}
}

/* Sources and IF conditions name the copies. */
static void relink(struct clone *c, struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			if (cf->cond.def)
				cf->cond.def = c->map[cf->cond.def->id];
			relink(c, &cf->then_list);
			relink(c, &cf->else_list);
		} else if (cf->kind == IR_CF_LOOP) {
			relink(c, &cf->body);
		}
		for (struct ir_instr *in = cf->block.first; in && cf->kind == IR_CF_BLOCK;
		     in = in->next)
			for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++)
				if (in->src[k].def)
					in->src[k].def = c->map[in->src[k].def->id];
	}
}

/* As ir.c indexes a table: the first entry of a name wins.  Out of
 * memory shows in arena_failed. */
static void index_table(struct ir_func *f, struct name_map *m, const char *name, int idx)
{
	if (name && !name_map_get(m, name))
		name_map_put(m, f->arena, name, (void *)(intptr_t)(idx + 1));
}

struct ir_func *ir_func_clone(const struct ir_func *f)
{
	struct arena *a = f->arena;
	struct ir_func *g = arena_alloc(a, sizeof *g);
	if (!g)
		return NULL;
	*g = *f;
	memset(&g->body, 0, sizeof g->body);
	memset(&g->input_names, 0, sizeof g->input_names);
	memset(&g->uniform_names, 0, sizeof g->uniform_names);
	memset(&g->sampler_names, 0, sizeof g->sampler_names);
	memset(&g->output_names, 0, sizeof g->output_names);
	g->inputs = copy_table(a, f->inputs, f->ninputs, sizeof *f->inputs);
	g->uniforms = copy_table(a, f->uniforms, f->nuniforms, sizeof *f->uniforms);
	g->samplers = copy_table(a, f->samplers, f->nsamplers, sizeof *f->samplers);
	g->outputs = copy_table(a, f->outputs, f->noutputs, sizeof *f->outputs);
	g->arrays = copy_table(a, f->arrays, f->narrays, sizeof *f->arrays);
	for (int i = 0; i < g->ninputs && g->inputs; i++)
		index_table(g, &g->input_names, g->inputs[i].name, i);
	for (int i = 0; i < g->nuniforms && g->uniforms; i++)
		index_table(g, &g->uniform_names, g->uniforms[i].name, i);
	for (int i = 0; i < g->nsamplers && g->samplers; i++)
		index_table(g, &g->sampler_names, g->samplers[i].name, i);
	for (int i = 0; i < g->noutputs && g->outputs; i++)
		index_table(g, &g->output_names, g->outputs[i].name, i);
	struct clone c = { g, arena_alloc(a, sizeof *c.map * ((size_t)f->next_id + 1)), false };
	if (!c.map)
		return NULL;
	memset(c.map, 0, sizeof *c.map * ((size_t)f->next_id + 1));
	copy_list(&c, &f->body, &g->body, NULL);
	if (c.failed || arena_failed(a))
		return NULL;
	relink(&c, &g->body);
	return g;
}
