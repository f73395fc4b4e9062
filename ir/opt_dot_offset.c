/* A constant offset taken out of a dot product with a constant (fp-inexact
 * by a rounding, as GLSL allows, like the algebraic rules):
 *   dot(x + k, c) -> dot(x, c) + dot(k, c)     (x - k, k - x likewise)
 * with k and c constant, where every reader of x + k is such a DOT (so
 * that the sum goes).  The DOTs of one x and c then meet in CSE: a value
 * noise's four corner hashes, rand(b), rand(b + (1, 0)), ..., take one
 * DOT and three scalar ADDs of constants instead of three vector ADDs and
 * four DOTs, and their ADDs line up for slp.
 * Not a rule of ir/algebraic_rules.c: its condition is about every reader
 * of x + k (counted over the whole function and kept up to date as it
 * rewrites), and a DOT is no component-wise op (dot(k, c) is a sum of
 * products, not a constant per component).
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (the DOT
 * becomes the ADD; new ops get fresh ids).  Leaves the sums to DCE. */
#include "ir.h"
#include "ir_eval.h"
#include "ir_pass.h"

#include <stdlib.h>

struct offset {
	struct ir_func *f;
	uint16_t *uses;      /* by id: readers (ir_count_uses) */
	uint16_t *dots;      /* by id: DOT readers with a constant beside it */
	uint32_t n;
	bool failed, progress;
};

/* The sum x + k or difference (k constant, x not) that source i of DOT
 * `in` reads beside a constant; the index of k in it.  NULL otherwise. */
static struct ir_instr *offset_read(const struct offset *s, const struct ir_instr *in, int i,
				    int *ki)
{
	if (!ir_op_dot_width(in->op) || !ir_src_float_const(&in->src[1 - i]) ||
	    ir_src_float_const(&in->src[i]))
		return NULL;
	struct ir_instr *a = in->src[i].def;
	if (!a || a->id >= s->n || a->base != IR_FLOAT || (a->op != IR_OP_ADD && a->op != IR_OP_SUB))
		return NULL;
	for (int k = 0; k < 2; k++)
		if (ir_src_float_const(&a->src[k]) && !ir_src_float_const(&a->src[1 - k])) {
			*ki = k;
			return a;
		}
	return NULL;
}

static void count_dots(struct ir_instr *in, void *ud)
{
	struct offset *s = ud;
	int ki;
	for (int i = 0; i < 2 && i < in->nsrc; i++) {
		struct ir_instr *a = offset_read(s, in, i, &ki);
		if (a && s->dots[a->id] < UINT16_MAX)
			s->dots[a->id]++;
	}
}

static bool take_offset(struct offset *s, struct ir_instr *in)
{
	int ki;
	for (int i = 0; i < 2 && i < in->nsrc; i++) {
		struct ir_instr *a = offset_read(s, in, i, &ki);
		if (!a || s->dots[a->id] != s->uses[a->id])
			continue;
		int w = ir_op_dot_width(in->op);
		struct ir_src k = ir_src_through(&a->src[ki], in->src[i].swz);
		struct ir_src x = ir_src_through(&a->src[1 - ki], in->src[i].swz);
		const struct ir_src *c = &in->src[1 - i];
		float kc = 0.0f;
		for (int e = 0; e < w; e++)
			kc += ir_src_const_comp(&k, e) * ir_src_const_comp(c, e);
		struct ir_instr *kd = ir_build_const_before(s->f, in, 1, IR_FLOAT, (float[4]){ kc });
		struct ir_instr *d = kd ? ir_build_before(s->f, in, in->op, 1, IR_FLOAT, 2,
							   (struct ir_src[]){ x, *c })
					: NULL;
		if (!d) {
			s->failed = true;
			return false;
		}
		/* x + k, x - k: dot(x, c) +- kc; k - x: kc - dot(x, c) */
		bool sub = a->op == IR_OP_SUB;
		struct ir_src dx = ir_src_of(d), dk = ir_src_of(kd);
		in->op = sub ? IR_OP_SUB : IR_OP_ADD;
		in->src[0] = sub && ki == 0 ? dk : dx;
		in->src[1] = sub && ki == 0 ? dx : dk;
		if (x.def && x.def->id < s->n && s->uses[x.def->id] < UINT16_MAX)
			s->uses[x.def->id]++;
		return true;
	}
	return false;
}

static void visit(struct ir_instr *in, void *ud)
{
	struct offset *s = ud;
	if (!s->failed && in->id < s->n && take_offset(s, in))
		s->progress = true;
}

/* Whether `in` is a DOT of a constant and a sum with a constant. */
static bool may_take(const struct ir_instr *in, void *ud)
{
	struct offset probe = { .n = UINT32_MAX };
	int ki;
	(void)ud;
	for (int i = 0; i < 2 && i < in->nsrc; i++)
		if (offset_read(&probe, in, i, &ki))
			return true;
	return false;
}

bool ir_opt_dot_offset(struct ir_func *f)
{
	if (!ir_any_instr(f, may_take, NULL))
		return false;
	struct offset s = { f, ir_count_uses(f), calloc((size_t)f->next_id + 1, sizeof(uint16_t)),
			    f->next_id, false, false };
	if (s.uses && s.dots) {
		ir_foreach_instr(f, count_dots, &s);
		/* the ops made go before the DOT visited: the walk does not
		 * see them */
		ir_foreach_instr(f, visit, &s);
	}
	free(s.uses);
	free(s.dots);
	return s.progress;
}
