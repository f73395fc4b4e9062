/* IR construction and editing: functions, tables, builder, instruction lists. */
#include "ir.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct ir_op_info ir_op_infos[IR_OP_COUNT] = {
#define OP(e, name, nsrc, flags, src_type, res_type) \
	[IR_OP_##e] = { name, nsrc, flags, src_type, res_type },
#include "ir_ops.def"
#undef OP
};

struct ir_func *ir_func_create(struct arena *arena, enum ir_stage stage)
{
	struct ir_func *f = arena_alloc(arena, sizeof *f);
	if (!f)
		return NULL;
	f->arena = arena;
	f->stage = stage;
	f->next_id = 1;
	return f;
}

/* Grows a table by one zeroed element (arena_grow: O(1) amortized). */
static void *table_grow(struct arena *arena, void *table, int *n, size_t elem)
{
	table = arena_grow(arena, table, (size_t)*n, elem);
	if (table)
		(*n)++;
	return table;
}

/* Entry idx of a table is found by its name from now on (the first entry
 * of a name wins, as a scan would find it). */
static void index_name(struct ir_func *f, struct name_map *m, const char *name, int idx)
{
	if (name && !name_map_get(m, name))
		name_map_put(m, f->arena, name, (void *)(intptr_t)(idx + 1));
}

static int find_name(const struct name_map *m, const char *name)
{
	void *v = name_map_get(m, name);
	return v ? (int)(intptr_t)v - 1 : -1;
}

int ir_func_add_input(struct ir_func *f, const char *name, int ncomp)
{
	struct ir_input *t = table_grow(f->arena, f->inputs, &f->ninputs, sizeof *t);
	if (!t)
		return -1;
	f->inputs = t;
	t[f->ninputs - 1].name = arena_strdup(f->arena, name);
	t[f->ninputs - 1].ncomp = (uint8_t)ncomp;
	index_name(f, &f->input_names, t[f->ninputs - 1].name, f->ninputs - 1);
	return f->ninputs - 1;
}

int ir_func_add_uniform(struct ir_func *f, const char *name, const char *type, int array_len,
			int nvec4, int ncomp)
{
	struct ir_uniform *t = table_grow(f->arena, f->uniforms, &f->nuniforms, sizeof *t);
	if (!t)
		return -1;
	f->uniforms = t;
	struct ir_uniform *u = &t[f->nuniforms - 1];
	u->name = arena_strdup(f->arena, name);
	u->type = arena_strdup(f->arena, type);
	u->array_len = array_len;
	u->nvec4 = nvec4;
	u->ncomp = (uint8_t)ncomp;
	u->base = f->nuniform_vec4;
	f->nuniform_vec4 += nvec4;
	index_name(f, &f->uniform_names, u->name, f->nuniforms - 1);
	return f->nuniforms - 1;
}

bool ir_func_set_uniform_init(struct ir_func *f, int u, const float (*init)[4])
{
	if (u < 0 || u >= f->nuniforms || !init || f->uniforms[u].nvec4 <= 0)
		return false;
	size_t n = (size_t)f->uniforms[u].nvec4;
	float (*copy)[4] = arena_alloc(f->arena, n * sizeof *copy);
	if (!copy)
		return false;
	memcpy(copy, init, n * sizeof *copy);
	f->uniforms[u].init = (const float(*)[4])copy;
	return true;
}

void ir_uniform_defaults(const struct ir_func *f, float (*vals)[4])
{
	if (f->nuniform_vec4 > 0)
		memset(vals, 0, (size_t)f->nuniform_vec4 * sizeof *vals);
	for (int i = 0; i < f->nuniforms; i++) {
		const struct ir_uniform *u = &f->uniforms[i];
		if (!u->init || u->base < 0 || u->nvec4 <= 0 || u->nvec4 > f->nuniform_vec4 - u->base)
			continue;
		memcpy(vals[u->base], u->init, (size_t)u->nvec4 * sizeof *vals);
	}
}

bool ir_uniform_member_name(const struct ir_uniform *u, int k, char *buf, size_t size)
{
	const char *hole = u->member_major ? strstr(u->name, "[]") : NULL;
	if (!hole || k < 0 || k >= u->array_len)
		return false;
	int n = snprintf(buf, size, "%.*s[%d]%s", (int)(hole - u->name), u->name, k, hole + 2);
	return n >= 0 && (size_t)n < size;
}

int ir_type_columns(const char *type)
{
	if (!type || strncmp(type, "mat", 3) != 0 || type[3] < '2' || type[3] > '4')
		return 1;
	return type[3] - '0';
}

int ir_uniform_member_len(const struct ir_uniform *u)
{
	if (!u->member_major || u->array_len < 1 || !u->type)
		return 0;
	int len = u->nvec4 / u->array_len / ir_type_columns(u->type);
	return len > 1 ? len : 0;
}

bool ir_uniform_is_matrix_array(const struct ir_uniform *u)
{
	const char *hole = u->member_major && u->name ? strstr(u->name, "[]") : NULL;
	return hole && hole[2] == 0;
}

int ir_uniform_element(const struct ir_uniform *u, int k, int col)
{
	if (u->member_major)
		return col * u->array_len + k;
	return k * (u->array_len > 0 ? u->nvec4 / u->array_len : u->nvec4) + col;
}

void ir_uniform_index_range(const struct ir_uniform *u, int offset, int *first, int *last)
{
	*first = 0;
	*last = u->nvec4 - 1;
	if (!u->member_major || u->array_len < 1 || offset < 0 || offset >= u->nvec4)
		return;
	*first = offset - offset % u->array_len;
	*last = *first + u->array_len - 1;
}

int ir_func_add_sampler(struct ir_func *f, const char *name, int target, bool shadow)
{
	struct ir_sampler *t = table_grow(f->arena, f->samplers, &f->nsamplers, sizeof *t);
	if (!t)
		return -1;
	f->samplers = t;
	struct ir_sampler *s = &t[f->nsamplers - 1];
	s->name = arena_strdup(f->arena, name);
	s->target = (uint8_t)target;
	s->shadow = shadow;
	s->unit = f->nsamplers - 1;
	index_name(f, &f->sampler_names, s->name, f->nsamplers - 1);
	return f->nsamplers - 1;
}

int ir_func_add_output(struct ir_func *f, const char *name, int target, int ncomp)
{
	struct ir_output *t = table_grow(f->arena, f->outputs, &f->noutputs, sizeof *t);
	if (!t)
		return -1;
	f->outputs = t;
	t[f->noutputs - 1].name = arena_strdup(f->arena, name);
	t[f->noutputs - 1].target = target;
	t[f->noutputs - 1].ncomp = (uint8_t)ncomp;
	index_name(f, &f->output_names, t[f->noutputs - 1].name, f->noutputs - 1);
	return f->noutputs - 1;
}

int ir_func_add_array(struct ir_func *f, const char *name, int length, int ncomp,
		      enum ir_base base)
{
	struct ir_array *t = table_grow(f->arena, f->arrays, &f->narrays, sizeof *t);
	if (!t)
		return -1;
	f->arrays = t;
	struct ir_array *a = &t[f->narrays - 1];
	a->name = arena_strdup(f->arena, name);
	a->length = length;
	a->ncomp = (uint8_t)ncomp;
	a->base = (uint8_t)base;
	return f->narrays - 1;
}

int ir_func_find_input(const struct ir_func *f, const char *name)
{
	return find_name(&f->input_names, name);
}

int ir_func_find_uniform(const struct ir_func *f, const char *name)
{
	return find_name(&f->uniform_names, name);
}

int ir_func_find_sampler(const struct ir_func *f, const char *name)
{
	return find_name(&f->sampler_names, name);
}

int ir_func_find_output(const struct ir_func *f, const char *name)
{
	return find_name(&f->output_names, name);
}

/* --- control-flow lists --- */

struct ir_cf *ir_cf_create(struct ir_func *f, enum ir_cf_kind kind, struct ir_cf *parent)
{
	struct ir_cf *cf = arena_alloc(f->arena, sizeof *cf);
	if (cf) {
		cf->kind = kind;
		cf->parent = parent;
	}
	return cf;
}

void ir_cf_list_append(struct ir_cf_list *list, struct ir_cf *cf)
{
	cf->prev = list->last;
	cf->next = NULL;
	if (list->last)
		list->last->next = cf;
	else
		list->first = cf;
	list->last = cf;
}

void ir_cf_list_insert_before(struct ir_cf_list *list, struct ir_cf *before, struct ir_cf *cf)
{
	cf->prev = before->prev;
	cf->next = before;
	if (before->prev)
		before->prev->next = cf;
	else
		list->first = cf;
	before->prev = cf;
}

/* Makes sure the builder points at a block at the end of its list. */
static bool builder_block(struct ir_builder *b)
{
	if (b->block)
		return true;
	struct ir_cf *cf = ir_cf_create(b->func, IR_CF_BLOCK, b->parent);
	if (!cf)
		return false;
	ir_cf_list_append(b->list, cf);
	b->block = &cf->block;
	return true;
}

void ir_builder_init(struct ir_builder *b, struct ir_func *f)
{
	memset(b, 0, sizeof *b);
	b->func = f;
	b->list = &f->body;
	if (f->body.last && f->body.last->kind == IR_CF_BLOCK)
		b->block = &f->body.last->block;
}

void ir_builder_enter(struct ir_builder *b, struct ir_cf_list *list, struct ir_cf *parent)
{
	b->list = list;
	b->parent = parent;
	b->block = list->last && list->last->kind == IR_CF_BLOCK ? &list->last->block : NULL;
}

/* Lists are owned by their parent cf node; find the list holding `node`. */
static struct ir_cf_list *list_of(struct ir_func *f, struct ir_cf *node)
{
	struct ir_cf *p = node->parent;
	if (!p)
		return &f->body;
	if (p->kind == IR_CF_LOOP)
		return &p->body;
	for (struct ir_cf *c = p->then_list.first; c; c = c->next)
		if (c == node)
			return &p->then_list;
	return &p->else_list;
}

void ir_builder_after(struct ir_builder *b, struct ir_cf *node)
{
	b->list = list_of(b->func, node);
	b->parent = node->parent;
	b->block = NULL; /* a new block follows the node */
}

struct ir_cf *ir_build_if(struct ir_builder *b, struct ir_src cond)
{
	struct ir_cf *cf = ir_cf_create(b->func, IR_CF_IF, b->parent);
	if (!cf)
		return NULL;
	cf->cond = cond;
	ir_cf_list_append(b->list, cf);
	b->block = NULL;
	return cf;
}

struct ir_cf *ir_build_loop(struct ir_builder *b)
{
	struct ir_cf *cf = ir_cf_create(b->func, IR_CF_LOOP, b->parent);
	if (!cf)
		return NULL;
	ir_cf_list_append(b->list, cf);
	b->block = NULL;
	return cf;
}

/* --- sources and instructions --- */

struct ir_src ir_src_of(struct ir_instr *def)
{
	struct ir_src s = { def, { 0, 1, 2, 3 } };
	if (def && def->ncomp > 0)
		for (int c = def->ncomp; c < 4; c++)
			s.swz[c] = (uint8_t)(def->ncomp - 1);
	return s;
}

struct ir_src ir_src_comp(struct ir_instr *def, int comp)
{
	struct ir_src s = { def, { (uint8_t)comp, (uint8_t)comp, (uint8_t)comp, (uint8_t)comp } };
	return s;
}

struct ir_src ir_src_swz(struct ir_instr *def, const uint8_t swz[4])
{
	struct ir_src s = { def, { swz[0], swz[1], swz[2], swz[3] } };
	return s;
}

struct ir_src ir_src_through(const struct ir_src *s, const uint8_t through[4])
{
	struct ir_src r = *s;
	for (int c = 0; c < 4; c++)
		r.swz[c] = s->swz[through[c] & 3];
	return r;
}

void ir_block_append(struct ir_block *bl, struct ir_instr *in)
{
	in->block = bl;
	in->prev = bl->last;
	in->next = NULL;
	if (bl->last)
		bl->last->next = in;
	else
		bl->first = in;
	bl->last = in;
}

struct ir_block *ir_loop_preheader(struct ir_func *f, struct ir_cf_list *list, struct ir_cf *loop)
{
	if (loop->prev && loop->prev->kind == IR_CF_BLOCK)
		return &loop->prev->block;
	struct ir_cf *b = ir_cf_create(f, IR_CF_BLOCK, loop->parent);
	if (!b)
		return NULL;
	ir_cf_list_insert_before(list, loop, b);
	return &b->block;
}

struct ir_instr *ir_build(struct ir_builder *b, enum ir_op op, int ncomp, enum ir_base base,
			  int nsrc, const struct ir_src *srcs)
{
	if (!builder_block(b))
		return NULL;
	struct ir_instr *in = arena_alloc(b->func->arena, sizeof *in);
	if (!in)
		return NULL;
	in->op = op;
	in->id = b->func->next_id++;
	in->ncomp = (uint8_t)ncomp;
	in->base = (uint8_t)base;
	in->nsrc = (uint8_t)nsrc;
	for (int i = 0; i < nsrc && i < IR_MAX_SRCS; i++)
		in->src[i] = srcs[i];
	in->loc = b->loc;
	ir_block_append(b->block, in);
	return in;
}

struct ir_instr *ir_build_const(struct ir_builder *b, int ncomp, enum ir_base base,
				const float v[4])
{
	struct ir_instr *in = ir_build(b, IR_OP_CONST, ncomp, base, 0, NULL);
	if (in)
		for (int c = 0; c < ncomp; c++)
			in->imm[c] = v[c];
	return in;
}

struct ir_instr *ir_build_constf(struct ir_builder *b, float x)
{
	const float v[4] = { x, x, x, x };
	return ir_build_const(b, 1, IR_FLOAT, v);
}

static enum ir_base result_base(enum ir_op op, const struct ir_src *srcs, int nsrc)
{
	if (ir_op_infos[op].flags & IRF_BOOL)
		return IR_BOOL;
	if (op == IR_OP_MOV && nsrc >= 1 && srcs[0].def)
		return (enum ir_base)srcs[0].def->base;
	if (op == IR_OP_SELECT && nsrc >= 2 && srcs[1].def)
		return (enum ir_base)srcs[1].def->base;
	return IR_FLOAT;
}

struct ir_instr *ir_build_alu1(struct ir_builder *b, enum ir_op op, int ncomp, struct ir_src a)
{
	return ir_build(b, op, ncomp, result_base(op, &a, 1), 1, &a);
}

struct ir_instr *ir_build_alu2(struct ir_builder *b, enum ir_op op, int ncomp, struct ir_src a,
			       struct ir_src c)
{
	struct ir_src s[2] = { a, c };
	return ir_build(b, op, ncomp, result_base(op, s, 2), 2, s);
}

struct ir_instr *ir_build_alu3(struct ir_builder *b, enum ir_op op, int ncomp, struct ir_src a,
			       struct ir_src c, struct ir_src d)
{
	struct ir_src s[3] = { a, c, d };
	return ir_build(b, op, ncomp, result_base(op, s, 3), 3, s);
}

/* Moves the instructions of block b into block a (a directly before b)
 * and unlinks b. */
static void merge_into(struct ir_cf_list *list, struct ir_cf *a, struct ir_cf *b)
{
	for (struct ir_instr *in = b->block.first; in; in = in->next)
		in->block = &a->block;
	if (b->block.first) {
		if (a->block.last)
			a->block.last->next = b->block.first;
		else
			a->block.first = b->block.first;
		b->block.first->prev = a->block.last;
		a->block.last = b->block.last;
	}
	a->next = b->next;
	if (b->next)
		b->next->prev = a;
	else
		list->last = a;
}

void ir_cf_list_splice(struct ir_cf_list *list, struct ir_cf *node, struct ir_cf_list *taken)
{
	for (struct ir_cf *c = taken->first; c; c = c->next)
		c->parent = node->parent;
	struct ir_cf *first = taken->first ? taken->first : node->next;
	struct ir_cf *last = taken->last ? taken->last : node->prev;
	if (taken->first) {
		taken->first->prev = node->prev;
		taken->last->next = node->next;
	}
	if (node->prev)
		node->prev->next = first;
	else
		list->first = first;
	if (node->next)
		node->next->prev = last;
	else
		list->last = last;
	taken->first = taken->last = NULL;
}

void ir_cf_list_remove(struct ir_cf_list *list, struct ir_cf *node)
{
	struct ir_cf_list none = { NULL, NULL };
	ir_cf_list_splice(list, node, &none);
	node->prev = node->next = NULL;
}

bool ir_cf_list_is_empty(const struct ir_cf_list *list)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next)
		if (cf->kind != IR_CF_BLOCK || cf->block.first)
			return false;
	return true;
}

bool ir_cf_is_break_if(const struct ir_cf *cf)
{
	return cf && cf->kind == IR_CF_IF && !cf->else_list.first &&
	       ir_cf_list_is_break(&cf->then_list);
}

void ir_cf_list_merge_blocks(struct ir_cf_list *list)
{
	for (struct ir_cf *cf = list->first; cf && cf->next;) {
		struct ir_cf *n = cf->next;
		bool phis = n->kind == IR_CF_BLOCK && n->block.first &&
			    n->block.first->op == IR_OP_PHI;
		if (cf->kind == IR_CF_BLOCK && n->kind == IR_CF_BLOCK && !phis)
			merge_into(list, cf, n);
		else
			cf = n;
	}
}

void ir_instr_remove(struct ir_instr *in)
{
	struct ir_block *bl = in->block;
	if (!bl)
		return;
	if (in->prev)
		in->prev->next = in->next;
	else
		bl->first = in->next;
	if (in->next)
		in->next->prev = in->prev;
	else
		bl->last = in->prev;
	in->prev = in->next = NULL;
	in->block = NULL;
}

void ir_instr_insert_before(struct ir_instr *before, struct ir_instr *in)
{
	struct ir_block *bl = before->block;
	in->block = bl;
	in->next = before;
	in->prev = before->prev;
	if (before->prev)
		before->prev->next = in;
	else
		bl->first = in;
	before->prev = in;
}

static void clear_pass_data(struct ir_instr *in, void *ud)
{
	(void)ud;
	in->pass_data = NULL;
}

void ir_clear_pass_data(struct ir_func *f)
{
	ir_foreach_instr(f, clear_pass_data, NULL);
}

bool ir_swz_same(const struct ir_src *a, const struct ir_src *b, int n)
{
	for (int c = 0; c < n; c++)
		if ((a->swz[c] & 3) != (b->swz[c] & 3))
			return false;
	return true;
}

bool ir_src_same(const struct ir_src *a, const struct ir_src *b, int n)
{
	return a->def == b->def && ir_swz_same(a, b, n);
}

bool ir_src_float_const(const struct ir_src *s)
{
	return s->def && s->def->op == IR_OP_CONST && s->def->base == IR_FLOAT;
}

float ir_src_const_comp(const struct ir_src *s, int c)
{
	return s->def->imm[s->swz[c] & 3];
}

bool ir_swz_identity(const struct ir_src *s, int n)
{
	for (int c = 0; c < n; c++)
		if ((s->swz[c] & 3) != c)
			return false;
	return true;
}

const struct ir_cf *ir_instr_cf(const struct ir_instr *d)
{
	if (!d->block)
		return NULL;
	return (const struct ir_cf *)((const char *)d->block - offsetof(struct ir_cf, block));
}

const struct ir_cf *ir_cf_loop_around(const struct ir_cf *c)
{
	for (c = c ? c->parent : NULL; c; c = c->parent)
		if (c->kind == IR_CF_LOOP)
			return c;
	return NULL;
}

bool ir_instr_inside(const struct ir_instr *d, const struct ir_cf *node)
{
	for (const struct ir_cf *cf = ir_instr_cf(d); cf; cf = cf->parent)
		if (cf == node)
			return true;
	return false;
}

int ir_cf_jumps(const struct ir_cf *cf, unsigned which)
{
	int n = 0;
	switch (cf->kind) {
	case IR_CF_BLOCK:
		for (const struct ir_instr *in = cf->block.first; in; in = in->next)
			n += (in->op == IR_OP_BREAK && (which & IR_JUMP_BREAK)) ||
			     (in->op == IR_OP_CONTINUE && (which & IR_JUMP_CONTINUE));
		return n;
	case IR_CF_IF:
		return ir_cf_list_jumps(&cf->then_list, which) +
		       ir_cf_list_jumps(&cf->else_list, which);
	default:
		return 0;
	}
}

int ir_cf_list_jumps(const struct ir_cf_list *list, unsigned which)
{
	int n = 0;
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next)
		n += ir_cf_jumps(cf, which);
	return n;
}

bool ir_cf_list_is_break(const struct ir_cf_list *list)
{
	const struct ir_cf *b = list->first;
	return b && b == list->last && b->kind == IR_CF_BLOCK && b->block.first &&
	       b->block.first == b->block.last && b->block.first->op == IR_OP_BREAK;
}

struct ir_instr *ir_build_before(struct ir_func *f, struct ir_instr *before, enum ir_op op,
				 int ncomp, enum ir_base base, int nsrc, const struct ir_src *srcs)
{
	struct ir_instr *in = arena_alloc(f->arena, sizeof *in);
	if (!in)
		return NULL;
	in->op = op;
	in->id = f->next_id++;
	in->ncomp = (uint8_t)ncomp;
	in->base = (uint8_t)base;
	in->nsrc = (uint8_t)nsrc;
	for (int i = 0; i < nsrc && i < IR_MAX_SRCS; i++)
		in->src[i] = srcs[i];
	in->loc = before->loc;
	ir_instr_insert_before(before, in);
	return in;
}

struct ir_instr *ir_instr_copy(struct ir_func *f, const struct ir_instr *in)
{
	struct ir_instr *c = arena_alloc(f->arena, sizeof *c);
	if (!c)
		return NULL;
	*c = *in;
	c->id = f->next_id++;
	c->block = NULL;
	c->prev = c->next = NULL;
	c->pass_data = NULL;
	c->forward = NULL;
	return c;
}

struct ir_instr *ir_build_const_before(struct ir_func *f, struct ir_instr *before, int ncomp,
				      enum ir_base base, const float v[4])
{
	struct ir_instr *k = ir_build_before(f, before, IR_OP_CONST, ncomp, base, 0, NULL);
	if (k)
		memcpy(k->imm, v, sizeof k->imm);
	return k;
}

static void foreach_list(struct ir_cf_list *list, ir_instr_fn fn, void *ud)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (struct ir_instr *in = cf->block.first, *next; in; in = next) {
				next = in->next;
				fn(in, ud);
			}
			break;
		case IR_CF_IF:
			foreach_list(&cf->then_list, fn, ud);
			foreach_list(&cf->else_list, fn, ud);
			break;
		case IR_CF_LOOP:
			foreach_list(&cf->body, fn, ud);
			break;
		}
	}
}

void ir_foreach_instr(struct ir_func *f, ir_instr_fn fn, void *ud)
{
	foreach_list(&f->body, fn, ud);
}

static void foreach_cond_in(struct ir_cf_list *list, ir_cond_fn fn, void *ud)
{
	for (struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF) {
			fn(&cf->cond, ud);
			foreach_cond_in(&cf->then_list, fn, ud);
			foreach_cond_in(&cf->else_list, fn, ud);
		} else if (cf->kind == IR_CF_LOOP) {
			foreach_cond_in(&cf->body, fn, ud);
		}
	}
}

void ir_foreach_cond(struct ir_func *f, ir_cond_fn fn, void *ud)
{
	foreach_cond_in(&f->body, fn, ud);
}

struct use_count {
	uint16_t *uses;
	uint32_t n;
};

static void count_src(struct use_count *u, const struct ir_instr *d)
{
	if (d && d->id < u->n && u->uses[d->id] < UINT16_MAX)
		u->uses[d->id]++;
}

static void count_instr_uses(struct ir_instr *in, void *ud)
{
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		count_src(ud, in->src[i].def);
}

static void count_cond_use(struct ir_src *cond, void *ud)
{
	count_src(ud, cond->def);
}

uint16_t *ir_count_uses(struct ir_func *f)
{
	struct use_count u = { calloc((size_t)f->next_id + 1, sizeof(uint16_t)), f->next_id };
	if (!u.uses)
		return NULL;
	ir_foreach_instr(f, count_instr_uses, &u);
	ir_foreach_cond(f, count_cond_use, &u);
	return u.uses;
}

static bool any_in_list(const struct ir_cf_list *list, ir_instr_pred pred, void *ud)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK:
			for (const struct ir_instr *in = cf->block.first; in; in = in->next)
				if (pred(in, ud))
					return true;
			break;
		case IR_CF_IF:
			if (any_in_list(&cf->then_list, pred, ud) ||
			    any_in_list(&cf->else_list, pred, ud))
				return true;
			break;
		case IR_CF_LOOP:
			if (any_in_list(&cf->body, pred, ud))
				return true;
			break;
		}
	}
	return false;
}

bool ir_any_instr(const struct ir_func *f, ir_instr_pred pred, void *ud)
{
	return any_in_list(&f->body, pred, ud);
}

bool ir_func_has_flow(const struct ir_func *f)
{
	for (const struct ir_cf *cf = f->body.first; cf; cf = cf->next)
		if (cf->kind != IR_CF_BLOCK)
			return true;
	return false;
}

struct rewrite_walk {
	struct ir_func *f;
	ir_rewrite_fn fn;
	bool progress;
};

static void rewrite_one(struct ir_instr *in, void *ud)
{
	struct rewrite_walk *w = ud;
	w->progress |= w->fn(w->f, in);
}

bool ir_rewrite_each(struct ir_func *f, ir_rewrite_fn fn)
{
	struct rewrite_walk w = { f, fn, false };
	foreach_list(&f->body, rewrite_one, &w);
	return w.progress;
}

void ir_forward(struct ir_instr *old, struct ir_instr *rep)
{
	old->forward = rep;
}

void ir_src_forward(struct ir_src *s)
{
	while (s->def && s->def->forward)
		s->def = s->def->forward;
}

static void forward_instr(struct ir_instr *in, void *ud)
{
	(void)ud;
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
		ir_src_forward(&in->src[i]);
}

static void forward_cond(struct ir_src *cond, void *ud)
{
	(void)ud;
	ir_src_forward(cond);
}

static void clear_forward(struct ir_instr *in, void *ud)
{
	(void)ud;
	in->forward = NULL;
}

void ir_apply_forwards(struct ir_func *f)
{
	ir_foreach_instr(f, forward_instr, NULL);
	ir_foreach_cond(f, forward_cond, NULL);
	ir_foreach_instr(f, clear_forward, NULL);
}

void ir_note_reader(struct ir_instr *in, struct ir_instr **reader, uint32_t n)
{
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		const struct ir_instr *d = in->src[i].def;
		if (d && d->id < n)
			reader[d->id] = in;
	}
}
