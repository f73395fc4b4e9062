/* Superword-level parallelism: three or four like chains of scalar ops
 * become one chain of vector ops.  A value noise hashes its corners one
 * by one, fract(sin(n + k_i) * 43758.5) for k_i = 0, 1, 57, 58: four
 * ADDs, four SINs (each reduced to revolutions first), four MULs, four
 * FRACTs.  As vectors they take one ADD of (0, 1, 57, 58), one range
 * reduction, one MUL and one FRACT; only the SINs stay one per lane.
 *
 * Seeds: scalar ops of one block with the same op whose sources agree:
 * at each source, a constant in every lane, or one value x plus a
 * constant that may differ by lane (x + k_i, x - k_i, x alone as x + 0;
 * the lanes then read x + (k_0, k_1, ...)), first on one component of x,
 * then on any (the lanes read x swizzled: mixes of two vectors' lanes).
 * They are taken in program order, four at a time (three for the last if
 * three are left; six and eight alternate, as a value noise's hashes pair
 * up in its mixes).  A group grows while each lane's op has one reader,
 * these readers have one op, read the lane at the same sources and agree
 * elsewhere as seeds do (x + 0 is x but for a zero's sign).  The last
 * ops' readers take the lanes of the last vector op.  A chain is
 * made vector only when it saves: two levels or more, one of them an op
 * the R500 does on a vector at once (not a transcendental, which stays
 * one alpha op per lane), or one such op of four lanes whose sources
 * need no ADD of their own.
 * Needs: valid IR.  Keeps: control flow, ids of the survivors (new ops get
 * fresh ids; the old chains are left to DCE, the lane MOVs to copy_prop).
 * Exact: every lane computes what its scalar op did. */
#include "ir.h"
#include "ir_cost.h"
#include "ir_pass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LANES = 4, MAX_LEVELS = 16, MAX_GROUPS = 256 };

/* What one source of a scalar op reads: a constant, or base + offset. */
struct lane_src {
	bool is_const;
	float value;               /* the constant, or the offset */
	const struct ir_instr *base;
	uint8_t comp;
	struct ir_src src;         /* the source as it is */
};

/* A candidate seed with its sort key: what each source reads (a constant,
 * or a base value and its component), worked out once. */
struct cand {
	struct ir_instr *in;
	uint32_t pos;              /* program order */
	uint32_t block_pos;        /* program order of its block's first instruction */
	const struct ir_instr *base[IR_MAX_SRCS]; /* NULL: a constant */
	uint32_t base_key[IR_MAX_SRCS]; /* base's id + 1; 0: a constant */
	uint8_t comp[IR_MAX_SRCS];
};

struct slp {
	struct ir_func *f;
	uint16_t *uses;
	struct ir_instr **reader;  /* by id: the one instruction reading it */
	uint32_t *pos;             /* by id: program order */
	bool *taken;               /* by id: in a group already */
	struct cand *cand;
	struct cand **order;       /* group_runs' sort */
	uint32_t ncand, n, next_pos;
	int groups;                /* tried, at most MAX_GROUPS */
	bool failed, progress;
};

/* SIN and COS: one alpha op per lane, but their range reduction is vector. */
static bool reduced_op(enum ir_op op)
{
	return op == IR_OP_SIN || op == IR_OP_COS;
}

/* Scalar float ops of float sources, lane by lane, with no neighbours. */
static bool lane_op(const struct ir_instr *in)
{
	const struct ir_op_info *oi = &ir_op_infos[in->op];
	return in->ncomp == 1 && in->base == IR_FLOAT && in->op != IR_OP_MOV &&
	       (oi->flags & IRF_COMPWISE) && !(oi->flags & (IRF_QUAD | IRF_BOOL | IRF_SIDE)) &&
	       oi->src_type == 'f' && oi->res_type == 'f' && in->nsrc >= 1 &&
	       in->nsrc <= IR_MAX_SRCS;
}

static struct lane_src describe(const struct ir_src *s)
{
	struct lane_src d = { .src = *s };
	if (ir_src_float_const(s)) {
		d.is_const = true;
		d.value = ir_src_const_comp(s, 0);
		return d;
	}
	d.base = s->def;
	d.comp = s->swz[0] & 3;
	const struct ir_instr *a = s->def;
	if (a && a->base == IR_FLOAT && (a->op == IR_OP_ADD || a->op == IR_OP_SUB))
		for (int k = 0; k < 2; k++) {
			const struct ir_src *ks = &a->src[k], *xs = &a->src[1 - k];
			if (!ir_src_float_const(ks) || ir_src_float_const(xs) ||
			    (a->op == IR_OP_SUB && k == 0))
				continue;
			uint8_t one[4] = { s->swz[0], s->swz[0], s->swz[0], s->swz[0] };
			struct ir_src kk = ir_src_through(ks, one), xx = ir_src_through(xs, one);
			float v = ir_src_const_comp(&kk, 0);
			d.value = a->op == IR_OP_SUB ? -v : v;
			d.base = xx.def;
			d.comp = xx.swz[0] & 3;
			break;
		}
	return d;
}

/* Whether sources a and b can share a lane source: both constant, or one
 * base (its components may differ: the lanes then read it swizzled). */
static bool agree(const struct lane_src *a, const struct lane_src *b)
{
	if (a->is_const || b->is_const)
		return a->is_const && b->is_const;
	return a->base == b->base;
}

static int cmp_u(uintptr_t a, uintptr_t b)
{
	return a < b ? -1 : a > b;
}

/* Candidates in the order that makes those that may be seeds together
 * adjacent, in program order: by block, op and each source's kind and
 * base, and with_comp the base's component too.  By positions and ids,
 * not addresses, so that the groups tried (at most MAX_GROUPS) do not
 * depend on where the allocator put things. */
static int key_cmp(const struct cand *ca, const struct cand *cb, bool with_comp)
{
	const struct ir_instr *a = ca->in, *b = cb->in;
	int c = cmp_u(ca->block_pos, cb->block_pos);
	if (!c)
		c = cmp_u((uintptr_t)a->op, (uintptr_t)b->op);
	for (int i = 0; !c && i < a->nsrc; i++) {
		c = cmp_u(ca->base_key[i], cb->base_key[i]);
		if (!c && ca->base[i] && with_comp)
			c = cmp_u(ca->comp[i], cb->comp[i]);
	}
	return c;
}

/* qsort over pointers to candidates (a candidate is large to move). */
static int by_key_comp(const void *pa, const void *pb)
{
	const struct cand *a = *(const struct cand *const *)pa, *b = *(const struct cand *const *)pb;
	int c = key_cmp(a, b, true);
	return c ? c : cmp_u(a->pos, b->pos);
}

static int by_key_base(const void *pa, const void *pb)
{
	const struct cand *a = *(const struct cand *const *)pa, *b = *(const struct cand *const *)pb;
	int c = key_cmp(a, b, false);
	return c ? c : cmp_u(a->pos, b->pos);
}

static void scan(struct ir_instr *in, void *ud)
{
	struct slp *s = ud;
	if (in->id >= s->n)
		return;
	s->pos[in->id] = s->next_pos++;
	ir_note_reader(in, s->reader, s->n);
	/* x + k is no seed: its readers take it as a lane of x + (k_0, ...) */
	struct ir_src self = ir_src_of(in);
	if (lane_op(in) && describe(&self).base == in) {
		struct cand *c = &s->cand[s->ncand++];
		const struct ir_instr *first = in->block ? in->block->first : in;
		*c = (struct cand){ .in = in, .pos = s->pos[in->id],
				    .block_pos = first->id < s->n ? s->pos[first->id] : s->pos[in->id] };
		for (int i = 0; i < in->nsrc; i++) {
			struct lane_src d = describe(&in->src[i]);
			c->base[i] = d.is_const ? NULL : d.base;
			c->base_key[i] = c->base[i] ? c->base[i]->id + 1 : 0;
			c->comp[i] = d.comp;
		}
	}
}

/* The readers of lanes m[0..k-1] as the next level, in r; false when they
 * do not make one. */
static bool next_level(struct slp *s, struct ir_instr *const *m, int k, struct ir_instr **r)
{
	for (int i = 0; i < k; i++) {
		const struct ir_instr *x = m[i];
		if (s->uses[x->id] != 1 || !(r[i] = s->reader[x->id]) || r[i]->id >= s->n ||
		    s->taken[r[i]->id] || !lane_op(r[i]) || r[i]->block != m[0]->block)
			return false;
		for (int j = 0; j < i; j++)
			if (r[j] == r[i])
				return false;
		if (r[i]->op != r[0]->op || r[i]->nsrc != r[0]->nsrc)
			return false;
	}
	for (int p = 0; p < r[0]->nsrc; p++) {
		bool chain0 = r[0]->src[p].def == m[0];
		for (int i = 0; i < k; i++) {
			if ((r[i]->src[p].def == m[i]) != chain0)
				return false;
			if (chain0)
				continue;
			struct lane_src a = describe(&r[0]->src[p]), b = describe(&r[i]->src[p]);
			if (!agree(&a, &b) || (!a.is_const && (a.base == m[0] || b.base == m[i])))
				return false;
		}
	}
	return true;
}

static struct ir_instr *build(struct slp *s, struct ir_instr *before, enum ir_op op, int k,
			      int nsrc, const struct ir_src *src)
{
	struct ir_instr *r = ir_build_before(s->f, before, op, k, IR_FLOAT, nsrc, src);
	s->failed |= !r;
	return r;
}

/* What lanes m[0..k-1] read at source p: each lane's source, whether
 * all read one value (same) and whether some offset is not 0. */
struct lane_column {
	struct lane_src d[MAX_LANES];
	bool same, offsets;
};

static void read_column(struct ir_instr *const *m, int k, int p, struct lane_column *col)
{
	col->same = true;
	col->offsets = false;
	for (int i = 0; i < k; i++) {
		col->d[i] = describe(&m[i]->src[p]);
		const struct lane_src *d = &col->d[i];
		col->same &= d->src.def == col->d[0].src.def &&
			     d->src.swz[0] == col->d[0].src.swz[0];
		col->offsets |= d->value != 0.0f;
	}
}

/* Whether position p of lanes m[0..k-1] takes an ADD of its own as a
 * vector (lanes reading one base at offsets not all 0). */
static bool takes_add(struct ir_instr *const *m, int k, int p)
{
	struct lane_column col;
	read_column(m, k, p, &col);
	return !col.d[0].is_const && !col.same && col.offsets;
}

/* The vector source of position p of lanes m[0..k-1] (not the chain). */
static bool lane_vector(struct slp *s, struct ir_instr *const *m, int k, int p,
			struct ir_instr *before, struct ir_src *out)
{
	struct lane_column col;
	if (k < 1 || k > MAX_LANES)
		return false;
	read_column(m, k, p, &col);
	const struct lane_src *d = col.d;
	if (col.same && !d[0].is_const) {
		uint8_t c = d[0].src.swz[0];
		*out = (struct ir_src){ d[0].src.def, { c, c, c, c } };
		return true;
	}
	float v[4] = { 0, 0, 0, 0 };
	bool one = true; /* one value in every lane: a scalar constant */
	for (int i = 0; i < k; i++) {
		v[i] = d[i].value;
		one &= v[i] == v[0] && signbit(v[i]) == signbit(v[0]);
	}
	struct ir_instr *kv = ir_build_const_before(s->f, before, one ? 1 : k, IR_FLOAT, v);
	s->failed |= !kv;
	if (!kv)
		return false;
	if (d[0].is_const) {
		*out = ir_src_of(kv);
		return true;
	}
	struct ir_src x = { (struct ir_instr *)d[0].base, { 0 } };
	for (int i = 0; i < 4; i++)
		x.swz[i] = d[i < k ? i : k - 1].comp;
	if (!col.offsets) { /* one base, offset 0 in every lane */
		*out = x;
		return true;
	}
	struct ir_instr *sum = build(s, before, IR_OP_ADD, k, 2, (struct ir_src[]){ x, ir_src_of(kv) });
	if (!sum)
		return false;
	*out = ir_src_of(sum);
	return true;
}

static struct ir_instr *first_of(const struct slp *s, struct ir_instr *const *m, int k)
{
	struct ir_instr *f = m[0];
	for (int i = 1; i < k; i++)
		if (s->pos[m[i]->id] < s->pos[f->id])
			f = m[i];
	return f;
}

/* The chain lv[0..nlv-1] as vector ops; the last level's readers get
 * its lanes. */
static void vectorize(struct slp *s, struct ir_instr *lv[][MAX_LANES], int nlv, int k)
{
	struct ir_instr *prev = NULL;
	for (int l = 0; l < nlv && !s->failed; l++) {
		struct ir_instr **m = lv[l], *before = first_of(s, m, k);
		struct ir_src src[IR_MAX_SRCS];
		for (int p = 0; p < m[0]->nsrc; p++) {
			if (l > 0 && m[0]->src[p].def == lv[l - 1][0])
				src[p] = ir_src_of(prev);
			else if (!lane_vector(s, m, k, p, before, &src[p]))
				return;
		}
		if (!(prev = build(s, before, m[0]->op, k, m[0]->nsrc, src)))
			return;
	}
	struct ir_instr **top = lv[nlv - 1], *before = first_of(s, top, k);
	for (int i = 0; i < k; i++) {
		struct ir_instr *lane = build(s, before, IR_OP_MOV, 1, 1,
					      (struct ir_src[]){ ir_src_comp(prev, i) });
		if (!lane)
			return;
		ir_forward(top[i], lane);
	}
	s->progress = true;
}

/* Grows the group of seeds m[0..k-1] and makes it vector when it pays. */
static void try_group(struct slp *s, struct ir_instr *const *seeds, int k)
{
	struct ir_instr *lv[MAX_LEVELS][MAX_LANES];
	for (int i = 0; i < k; i++)
		if (s->taken[seeds[i]->id])
			return;
	memcpy(lv[0], seeds, (size_t)k * sizeof *seeds);
	int nlv = 1;
	while (nlv < MAX_LEVELS && next_level(s, lv[nlv - 1], k, lv[nlv]))
		nlv++;
	/* a lane op the R500 does one lane at a time writes its lanes to
	 * one register through the RGB unit (SOP): that pays only when a
	 * vector op reads them after; NEG and ABS are free modifiers */
	bool (*vector_op)(enum ir_op) = ir_cost(s->f)->vector_op;
	int vec = 0, reduced = 0, lanes = 0, after = 0;
	for (int l = 0; l < nlv; l++) {
		enum ir_op op = lv[l][0]->op;
		bool free_mod = op == IR_OP_NEG || op == IR_OP_ABS;
		vec += vector_op(op) && !free_mod;
		reduced += reduced_op(op);
		lanes += !vector_op(op);
		after = vector_op(op) ? after + !free_mod : 0;
	}
	/* one level of four: one vector op for four scalar ones (two
	 * slots), when its sources cost nothing more as vectors */
	bool one_four = nlv == 1 && k == MAX_LANES && vec == 1;
	for (int p = 0; one_four && p < lv[0][0]->nsrc; p++)
		one_four = !takes_add(lv[0], k, p);
	if (!one_four && (vec < 1 || vec + reduced < 2 || (lanes > 0 && after < 1)))
		return;
	for (int l = 0; l < nlv; l++)
		for (int i = 0; i < k; i++)
			s->taken[lv[l][i]->id] = true;
	vectorize(s, lv, nlv, k);
}

/* The candidates not yet in a group, sorted (with_comp: by_key_comp),
 * taken run by run: fours, then a last three; six or eight alternate (a
 * value noise's hashes pair up in mixes, n + 0 with n + 1, n + 57 with
 * n + 58, and so the mixes read two vectors lane by lane). */
static void group_runs(struct slp *s, bool with_comp)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < s->ncand; i++)
		if (!s->taken[s->cand[i].in->id])
			s->order[n++] = &s->cand[i];
	qsort(s->order, n, sizeof *s->order, with_comp ? by_key_comp : by_key_base);
	for (uint32_t i = 0; i < n && s->groups < MAX_GROUPS && !s->failed;) {
		uint32_t j = i + 1;
		while (j < n && key_cmp(s->order[i], s->order[j], with_comp) == 0)
			j++;
		uint32_t run = j - i, stride = run == 6 || run == 8 ? 2 : 1;
		for (uint32_t g = 0, at = 0; run - at >= 3 && s->groups < MAX_GROUPS; g++) {
			int k = stride == 2 ? (int)run / 2 : run - at >= MAX_LANES ? MAX_LANES : 3;
			struct ir_instr *seeds[MAX_LANES];
			for (int l = 0; l < k; l++)
				seeds[l] = s->order[i + (stride == 2 ? g + 2 * (uint32_t)l : at + (uint32_t)l)]->in;
			try_group(s, seeds, k);
			s->groups++;
			at += (uint32_t)k;
		}
		i = j;
	}
}

/* Counts lane ops by op; true once three share one (a group may be). */
static bool three_alike(const struct ir_instr *in, void *ud)
{
	uint8_t *count = ud;
	return lane_op(in) && ++count[in->op] >= 3;
}

bool ir_opt_slp(struct ir_func *f)
{
	uint8_t count[IR_OP_COUNT] = { 0 };
	if (!ir_any_instr(f, three_alike, count))
		return false;
	size_t n = (size_t)f->next_id + 1;
	struct slp s = { .f = f, .n = f->next_id };
	s.uses = ir_count_uses(f);
	s.reader = calloc(n, sizeof *s.reader);
	s.pos = calloc(n, sizeof *s.pos);
	s.taken = calloc(n, sizeof *s.taken);
	/* entries set as they are added: not zeroed (a pass without a
	 * group spent a fifth of its time zeroing the largest) */
	s.cand = malloc(n * sizeof *s.cand);
	s.order = malloc(n * sizeof *s.order);
	if (s.uses && s.reader && s.pos && s.taken && s.cand && s.order) {
		ir_foreach_instr(f, scan, &s);
		/* seeds on one component of a base first (a hash's n + k_i),
		 * then gathers of a base's components (mixes of their lanes) */
		group_runs(&s, true);
		group_runs(&s, false);
		if (s.progress)
			ir_apply_forwards(f);
	}
	free(s.uses);
	free(s.reader);
	free(s.pos);
	free(s.taken);
	free(s.cand);
	free(s.order);
	return s.progress;
}
