/* The IR validator: structure, SSA scoping and types, run after every pass
 * in debug builds and tests.  Scoping follows the structured control flow
 * of ir.h: a value is visible after its definition in its own cf list and
 * in lists nested there; it leaves scope when its IF branch or LOOP body
 * ends, and reaches further only through a PHI:
 *   - after an IF: (value at the end of then, value at the end of else);
 *   - at the start of a loop body: (value before the loop, then one value
 *     per back edge: the end of the body when it is reached, and each
 *     CONTINUE in program order) - values from inside the loop body;
 *   - after a loop: one value per BREAK of that loop, from before or
 *     inside the loop. */
#include "ir.h"
#include "ir_eval.h"

#include <string.h>

enum { NOT_YET, VISIBLE, GONE };

/* A loop being validated: its BREAKs and CONTINUEs seen so far, and how
 * many CONTINUEs it has (they are the header PHIs' last sources). */
struct loop_jumps {
	const struct ir_cf *cf;
	int nbreaks, nconts, conts_total;
};

struct vstate {
	const struct ir_func *f;
	struct diag_sink *diag;
	struct arena *tmp;
	uint8_t *state;           /* by id: NOT_YET, VISIBLE, GONE */
	uint32_t *seq;            /* by id: order of definition (1-based) */
	uint32_t *loop_of;        /* by id: the innermost loop defining it (0 none) */
	uint32_t cur_loop, nloops;
	uint32_t nids, next_seq;
	const struct ir_instr **defs; /* defined values, innermost scope last */
	uint32_t ndefs;
	int loop_depth;
	struct loop_jumps jumps;  /* of the innermost loop */
	bool ok;
};

static void fail(struct vstate *v, const struct ir_instr *in, const char *fmt, const char *what)
{
	v->ok = false;
	struct src_loc loc = in ? in->loc : (struct src_loc){ 0 };
	if (in)
		diag_error(v->diag, loc, "IR validation: %%%u (%s): %s%s", in->id,
			   (unsigned)in->op < IR_OP_COUNT ? ir_op_infos[in->op].name : "?", fmt,
			   what ? what : "");
	else
		diag_error(v->diag, loc, "IR validation: %s%s", fmt, what ? what : "");
}

static bool id_ok(const struct vstate *v, const struct ir_instr *d)
{
	return d && d->id < v->nids;
}

/* --- typing --- */

static char base_char(int base)
{
	return base == IR_BOOL ? 'b' : 'f';
}

/* The base of the array a LOAD or STORE names (float when the index is
 * bad: check_tables reports that). */
static char array_base_char(const struct ir_func *f, const struct ir_instr *in)
{
	bool ok = in->index >= 0 && in->index < f->narrays;
	return base_char(ok ? f->arrays[in->index].base : IR_FLOAT);
}

static void check_types(struct vstate *v, const struct ir_instr *in)
{
	if (in->op == IR_OP_LOAD && base_char(in->base) != array_base_char(v->f, in))
		fail(v, in, "result has the wrong type (bool vs float)", NULL);
	const struct ir_op_info *t = &ir_op_infos[in->op];
	if (in->ncomp > 0 && t->res_type != 'r' && base_char(in->base) != t->res_type)
		fail(v, in, "result has the wrong type (bool vs float)", NULL);
	for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++) {
		const struct ir_instr *d = in->src[i].def;
		if (!d)
			continue;
		char want = t->src_type;
		if (in->op == IR_OP_SELECT && i == 0)
			want = 'b';
		if (in->op == IR_OP_STORE)
			want = i > 0 ? 'f' : array_base_char(v->f, in);
		if (want == 'r')
			want = base_char(in->base);
		if (want == 'e')
			want = in->src[0].def ? base_char(in->src[0].def->base) : 'f';
		if (base_char(d->base) != want)
			fail(v, in, "source has the wrong type (bool vs float)", NULL);
	}
}

/* --- shape: counts, widths, table indices --- */

static int expected_nsrc(const struct ir_instr *in, int *max)
{
	int n = ir_op_infos[in->op].nsrc;
	*max = n;
	switch (in->op) {
	case IR_OP_UNIFORM:
	case IR_OP_DISCARD:
	case IR_OP_LOAD:
		*max = 1;
		return 0;
	case IR_OP_STORE:
		*max = 2;
		return 1;
	case IR_OP_VEC:
		*max = in->ncomp;
		return in->ncomp;
	case IR_OP_PHI:
		*max = IR_MAX_SRCS;
		return 1;
	case IR_OP_TEX: {
		*max = 1 + ir_tex_kind_nextra(in->tex_kind);
		return *max;
	}
	default:
		return n;
	}
}

static bool has_value(enum ir_op op)
{
	return op != IR_OP_OUTPUT && op != IR_OP_DISCARD && op != IR_OP_BREAK &&
	       op != IR_OP_CONTINUE && op != IR_OP_STORE;
}

/* A constant element must be in the array; with an index source any
 * offset is allowed (ir.h: ir_array says what an access out of range
 * does).  A LOAD gives the array's width. */
static void check_array_access(struct vstate *v, const struct ir_instr *in)
{
	const struct ir_func *f = v->f;
	if (in->index < 0 || in->index >= f->narrays) {
		fail(v, in, "array index out of range", NULL);
		return;
	}
	const struct ir_array *a = &f->arrays[in->index];
	bool dynamic = in->nsrc > (in->op == IR_OP_STORE ? 1 : 0);
	if (!dynamic && (in->offset < 0 || in->offset >= a->length))
		fail(v, in, "array element out of range", NULL);
	if (in->op == IR_OP_LOAD && in->ncomp != a->ncomp)
		fail(v, in, "a load gives the array's components", NULL);
}

static void check_tables(struct vstate *v, const struct ir_instr *in)
{
	const struct ir_func *f = v->f;
	switch (in->op) {
	case IR_OP_INPUT:
		if (in->index < 0 || in->index >= f->ninputs)
			fail(v, in, "input index out of range", NULL);
		break;
	case IR_OP_UNIFORM:
		if (in->index < 0 || in->index >= f->nuniforms)
			fail(v, in, "uniform index out of range", NULL);
		else if (in->offset < 0 || in->offset >= f->uniforms[in->index].nvec4)
			fail(v, in, "uniform element out of range", NULL);
		break;
	case IR_OP_TEX:
		if (in->index < 0 || in->index >= f->nsamplers)
			fail(v, in, "sampler index out of range", NULL);
		if (in->tex_kind >= IR_TEX_KIND_COUNT)
			fail(v, in, "bad texture kind", NULL);
		if (in->ncomp != 4 || in->base != IR_FLOAT)
			fail(v, in, "texture result must be f4", NULL);
		break;
	case IR_OP_OUTPUT:
		if (in->index < 0 || in->index >= f->noutputs)
			fail(v, in, "output index out of range", NULL);
		break;
	case IR_OP_LOAD:
	case IR_OP_STORE:
		check_array_access(v, in);
		break;
	default:
		break;
	}
}

static void check_shape(struct vstate *v, const struct ir_instr *in)
{
	if (has_value(in->op)) {
		if (in->ncomp < 1 || in->ncomp > 4)
			fail(v, in, "a value must have 1 to 4 components", NULL);
	} else if (in->ncomp != 0) {
		fail(v, in, "an instruction without a value has components", NULL);
	}
	int max, min = expected_nsrc(in, &max);
	if (in->nsrc < min || in->nsrc > max || in->nsrc > IR_MAX_SRCS)
		fail(v, in, "wrong number of sources", NULL);
	bool scalar = in->op >= IR_OP_DOT2 && in->op <= IR_OP_DOT4;
	scalar |= in->op == IR_OP_ANY || in->op == IR_OP_ALL;
	if (scalar && in->ncomp != 1)
		fail(v, in, "result must be a scalar", NULL);
	check_tables(v, in);
	check_types(v, in);
}

/* Every source: defined, a value, swizzle within the def's width. */
static void check_src_shape(struct vstate *v, const struct ir_instr *in, const struct ir_src *s,
			    int n)
{
	const struct ir_instr *d = s->def;
	if (!d) {
		fail(v, in, "source without a definition", NULL);
		return;
	}
	if (!id_ok(v, d)) {
		fail(v, in, "source id beyond the function's ids", NULL);
		return;
	}
	if (d->ncomp < 1 || d->ncomp > 4) {
		fail(v, in, "source names an instruction without a value", NULL);
		return;
	}
	for (int c = 0; c < n; c++)
		if (s->swz[c] >= d->ncomp) {
			fail(v, in, "swizzle reads past the source's components", NULL);
			return;
		}
}

static void check_visible(struct vstate *v, const struct ir_instr *in, const struct ir_src *s)
{
	if (!id_ok(v, s->def))
		return;
	uint8_t st = v->state[s->def->id];
	if (st == NOT_YET)
		fail(v, in, "source used before its definition", NULL);
	else if (st == GONE)
		fail(v, in, "source does not dominate its use (defined in a closed if/loop)", NULL);
}

/* --- scopes --- */

static void define(struct vstate *v, const struct ir_instr *in)
{
	if (!has_value(in->op) || !id_ok(v, in))
		return;
	if (v->state[in->id] != NOT_YET) {
		fail(v, in, "id defined twice", NULL);
		return;
	}
	v->state[in->id] = VISIBLE;
	v->seq[in->id] = ++v->next_seq;
	v->loop_of[in->id] = v->cur_loop;
	v->defs[v->ndefs++] = in;
}

static void close_scope(struct vstate *v, uint32_t mark)
{
	while (v->ndefs > mark)
		v->state[v->defs[--v->ndefs]->id] = GONE;
}

static const struct ir_cf *block_after(const struct ir_cf *cf)
{
	return cf->next && cf->next->kind == IR_CF_BLOCK ? cf->next : NULL;
}

/* Checks source `i` of the PHIs at the start of `bl` as visible here. */
static void check_phi_srcs_here(struct vstate *v, const struct ir_cf *bl, int i)
{
	if (!bl)
		return;
	for (const struct ir_instr *in = bl->block.first; in && in->op == IR_OP_PHI; in = in->next)
		if (i < in->nsrc)
			check_visible(v, in, &in->src[i]);
}

/* A loop PHI source: before the loop, or inside it but not inside a loop
 * nested in it (a value leaves an inner loop only through that loop's own
 * PHIs after it). */
static void check_loop_src(struct vstate *v, const struct ir_instr *phi, const struct ir_src *s,
			   uint32_t loop_seq, uint32_t loop)
{
	if (!id_ok(v, s->def))
		return;
	uint8_t st = v->state[s->def->id];
	bool inside = st != NOT_YET && v->seq[s->def->id] > loop_seq &&
		      v->loop_of[s->def->id] == loop;
	if (!(st == VISIBLE || inside))
		fail(v, phi, "loop phi source neither before nor inside the loop", NULL);
}

static void validate_list(struct vstate *v, const struct ir_cf_list *list,
			  const struct ir_cf *parent);

/* At the k-th BREAK of the innermost loop, source k of each PHI after the
 * loop must be visible; at its k-th CONTINUE, the header PHIs' source for
 * that back edge (the CONTINUE sources are the last ones). */
static void check_jump_srcs(struct vstate *v, bool is_break)
{
	struct loop_jumps *lj = &v->jumps;
	const struct ir_cf *cf = lj->cf;
	if (!cf)
		return;
	const struct ir_cf *bl = is_break ? block_after(cf)
			       : cf->body.first && cf->body.first->kind == IR_CF_BLOCK
			       ? cf->body.first : NULL;
	int k = is_break ? lj->nbreaks++ : lj->nconts++;
	for (const struct ir_instr *in = bl ? bl->block.first : NULL; in && in->op == IR_OP_PHI;
	     in = in->next) {
		int i = is_break ? k : in->nsrc - lj->conts_total + k;
		if (i >= 0 && i < in->nsrc && i < IR_MAX_SRCS)
			check_visible(v, in, &in->src[i]);
	}
}

static void validate_block(struct vstate *v, const struct ir_cf *cf, const struct ir_cf *parent)
{
	const struct ir_cf *prev = cf->prev;
	bool after_if = prev && prev->kind == IR_CF_IF;
	bool after_loop = prev && prev->kind == IR_CF_LOOP;
	bool loop_head = !prev && parent && parent->kind == IR_CF_LOOP;
	bool phis_ok = true;
	for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
		if ((unsigned)in->op >= IR_OP_COUNT) {
			fail(v, in, "unknown opcode", NULL);
			continue;
		}
		if (in->block != &cf->block)
			fail(v, in, "instruction's block link is wrong", NULL);
		check_shape(v, in);
		for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
			check_src_shape(v, in, &in->src[i], ir_src_ncomp(v->f, in, i));
		if (in->op != IR_OP_PHI) {
			phis_ok = false;
			for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
				check_visible(v, in, &in->src[i]);
		} else if (!phis_ok || !(after_if || after_loop || loop_head)) {
			fail(v, in, "phi not at the start of a block after an if or loop, or of a loop body",
			     NULL);
		} else if (after_if && in->nsrc != 2) {
			fail(v, in, "phi after an if needs 2 sources", NULL);
		} else if (after_loop && in->nsrc != ir_cf_list_jumps(&prev->body, IR_JUMP_BREAK)) {
			fail(v, in, "phi after a loop needs one source per break", NULL);
		} else if (loop_head) {
			int ncont = ir_cf_list_jumps(&parent->body, IR_JUMP_CONTINUE);
			if (in->nsrc != 1 + ncont && in->nsrc != 2 + ncont)
				fail(v, in, "loop phi needs the entry value and one per back edge",
				     NULL);
		}
		if ((in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE) && v->loop_depth == 0)
			fail(v, in, "break/continue outside a loop", NULL);
		else if (in->op == IR_OP_BREAK || in->op == IR_OP_CONTINUE)
			check_jump_srcs(v, in->op == IR_OP_BREAK);
		define(v, in);
	}
}

static void validate_if(struct vstate *v, const struct ir_cf *cf)
{
	const struct ir_src *c = &cf->cond;
	if (!c->def || !id_ok(v, c->def)) {
		fail(v, NULL, "if without a valid condition", NULL);
	} else {
		check_src_shape(v, c->def, c, 1);
		check_visible(v, c->def, c);
		if (c->def->base != IR_BOOL)
			fail(v, c->def, "used as an if condition but is not bool", NULL);
	}
	uint32_t mark = v->ndefs;
	validate_list(v, &cf->then_list, cf);
	check_phi_srcs_here(v, block_after(cf), 0);
	close_scope(v, mark);
	validate_list(v, &cf->else_list, cf);
	check_phi_srcs_here(v, block_after(cf), 1);
	close_scope(v, mark);
}

static void validate_loop(struct vstate *v, const struct ir_cf *cf)
{
	uint32_t mark = v->ndefs, loop_seq = v->next_seq;
	const struct ir_cf *head = cf->body.first && cf->body.first->kind == IR_CF_BLOCK ?
					   cf->body.first : NULL;
	check_phi_srcs_here(v, head, 0);
	uint32_t outer = v->cur_loop, loop = ++v->nloops;
	struct loop_jumps outer_jumps = v->jumps;
	int conts = ir_cf_list_jumps(&cf->body, IR_JUMP_CONTINUE);
	v->cur_loop = loop;
	v->jumps = (struct loop_jumps){ cf, 0, 0, conts };
	v->loop_depth++;
	validate_list(v, &cf->body, cf);
	v->loop_depth--;
	v->cur_loop = outer;
	v->jumps = outer_jumps;
	/* the back edge at the end of the body (when the PHIs have one source
	 * for it) takes values visible there, not in a branch; the CONTINUE
	 * sources were checked at their CONTINUEs */
	for (const struct ir_instr *in = head ? head->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		for (int i = 1; i < in->nsrc && i < IR_MAX_SRCS; i++) {
			const struct ir_src *src = &in->src[i];
			if (i == 1 && in->nsrc == 2 + conts && id_ok(v, src->def) &&
			    v->state[src->def->id] == GONE && v->loop_of[src->def->id] == loop)
				fail(v, in, "loop phi source not visible at the end of the body", NULL);
			else
				check_loop_src(v, in, src, loop_seq, loop);
		}
	const struct ir_cf *after = block_after(cf);
	for (const struct ir_instr *in = after ? after->block.first : NULL;
	     in && in->op == IR_OP_PHI; in = in->next)
		for (int i = 0; i < in->nsrc && i < IR_MAX_SRCS; i++)
			check_loop_src(v, in, &in->src[i], loop_seq, loop);
	close_scope(v, mark);
}

static void validate_list(struct vstate *v, const struct ir_cf_list *list,
			  const struct ir_cf *parent)
{
	const struct ir_cf *prev = NULL;
	for (const struct ir_cf *cf = list->first; cf; prev = cf, cf = cf->next) {
		if (cf->prev != prev || cf->parent != parent)
			fail(v, NULL, "control-flow links are broken", NULL);
		if (cf->kind == IR_CF_BLOCK)
			validate_block(v, cf, parent);
		else if (cf->kind == IR_CF_IF)
			validate_if(v, cf);
		else if (cf->kind == IR_CF_LOOP)
			validate_loop(v, cf);
		else
			fail(v, NULL, "unknown control-flow node", NULL);
	}
}

/* A member-major uniform: a name with one "[]" and whole structs. */
static void check_uniform(struct vstate *v, const struct ir_uniform *u)
{
	if (!u->member_major)
		return;
	const char *hole = u->name ? strstr(u->name, "[]") : NULL;
	if (!hole || strstr(hole + 2, "[]"))
		fail(v, NULL, "a member-major uniform's name has one \"[]\": ", u->name);
	else if (u->array_len < 1 || u->nvec4 % u->array_len != 0)
		fail(v, NULL, "a member-major uniform holds whole structs: ", u->name);
}

static void count_instrs(struct ir_instr *in, void *ud)
{
	(void)in;
	(*(uint32_t *)ud)++;
}

bool ir_validate(const struct ir_func *f, struct diag_sink *diag)
{
	struct vstate v = { .f = f, .diag = diag, .ok = true, .nids = f->next_id };
	uint32_t ninstrs = 0;
	ir_foreach_instr((struct ir_func *)f, count_instrs, &ninstrs);
	v.tmp = arena_create(&mem_default_allocator);
	if (!v.tmp)
		return false;
	v.state = arena_alloc(v.tmp, v.nids + 1);
	v.seq = arena_alloc(v.tmp, sizeof *v.seq * (v.nids + 1));
	v.loop_of = arena_alloc(v.tmp, sizeof *v.loop_of * (v.nids + 1));
	v.defs = arena_alloc(v.tmp, sizeof *v.defs * (ninstrs + 1));
	for (int i = 0; i < f->narrays; i++)
		if (f->arrays[i].length < 1 || f->arrays[i].ncomp < 1 || f->arrays[i].ncomp > 4 ||
		    f->arrays[i].base > IR_BOOL)
			fail(&v, NULL, "an array needs length >= 1 and 1 to 4 components", NULL);
	for (int i = 0; i < f->nuniforms; i++)
		check_uniform(&v, &f->uniforms[i]);
	if (v.state && v.seq && v.loop_of && v.defs)
		validate_list(&v, &f->body, NULL);
	else
		v.ok = false;
	arena_destroy(v.tmp);
	return v.ok;
}
