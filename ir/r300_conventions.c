/* r300's conventions: see r300_conventions.h. */
#include "r300_conventions.h"
#include "ir_eval.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	RANK_COLOR = 0,     /* + index 0..1 */
	RANK_FACE = 2,
	RANK_GENERIC = 10,  /* + index 0..31 */
	RANK_VARYING = RANK_GENERIC + 9,
	RANK_FOG = 100,
	RANK_WPOS = 101,
	RANK_UNKNOWN = 200,
};

/* "NAME" or "NAME[i]" with i a number: i (0 for "NAME"); -1 otherwise. */
static int indexed(const char *s, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(s, name, n) != 0)
		return -1;
	if (!s[n])
		return 0;
	if (s[n] != '[')
		return -1;
	char *end;
	long i = strtol(s + n + 1, &end, 10);
	return end != s + n + 1 && end[0] == ']' && !end[1] && i >= 0 && i < 1000 ? (int)i : -1;
}

int ir_r300_input_rank(const char *name)
{
	int i;
	if (!name)
		return RANK_UNKNOWN;
	if (!strcmp(name, "gl_Color") || !strcmp(name, "COLOR[0]") || !strcmp(name, "COLOR"))
		return RANK_COLOR;
	if (!strcmp(name, "gl_SecondaryColor") || !strcmp(name, "COLOR[1]"))
		return RANK_COLOR + 1;
	if (!strcmp(name, "gl_FrontFacing") || !strcmp(name, "FACE") || !strcmp(name, R300_BACKFACE_INPUT))
		return RANK_FACE;
	if ((i = indexed(name, "gl_TexCoord")) >= 0 && i < 8)
		return RANK_GENERIC + i;
	if (!strcmp(name, "gl_PointCoord"))
		return RANK_GENERIC + 8;
	if ((i = indexed(name, "GENERIC")) >= 0 && i < 32)
		return RANK_GENERIC + i;
	if (!strcmp(name, "gl_FogFragCoord") || !strcmp(name, "FOG"))
		return RANK_FOG;
	if (!strcmp(name, "gl_FragCoord") || !strcmp(name, "POSITION") ||
	    !strcmp(name, R300_POSITION_INPUT))
		return RANK_WPOS;
	if (strncmp(name, "gl_", 3) != 0 && !strchr(name, '[') && !strchr(name, '.'))
		return RANK_VARYING; /* a GLSL varying */
	if (strncmp(name, "gl_", 3) != 0 && strchr(name, '[') && indexed(name, "COLOR") < 0)
		return RANK_VARYING; /* a GLSL varying array's element or matrix column */
	return RANK_UNKNOWN;
}

int ir_r300_state_uniform(const char *name, int *unit)
{
	*unit = 0;
	if (!name)
		return -1;
	if (!strcmp(name, R300_VIEWPORT_SCALE))
		return 0;
	if (!strcmp(name, R300_VIEWPORT_OFFSET))
		return 1;
	int u = indexed(name, R300_TEXSCALE);
	if (u < 0 || u >= IR_R300_UNITS || !strcmp(name, R300_TEXSCALE))
		return -1;
	*unit = u;
	return 2;
}

struct ranked {
	int rank, old;
};

static int by_rank(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	return a->rank != b->rank ? (a->rank > b->rank) - (a->rank < b->rank)
				  : (a->old > b->old) - (a->old < b->old);
}

struct renumber {
	const int *new_of_old;
	int n;
};

static void renumber_input(struct ir_instr *in, void *ud)
{
	const struct renumber *r = ud;
	if (in->op == IR_OP_INPUT && in->index >= 0 && in->index < r->n)
		in->index = r->new_of_old[in->index];
}

/* The input table in r300's register order; every INPUT renumbered. */
static bool sort_inputs(struct ir_func *f)
{
	int n = f->ninputs;
	if (n < 2)
		return true;
	struct ranked *order = arena_alloc(f->arena, sizeof *order * (size_t)n);
	int *new_of_old = arena_alloc(f->arena, sizeof *new_of_old * (size_t)n);
	struct ir_input *sorted = arena_alloc(f->arena, sizeof *sorted * (size_t)n);
	if (!order || !new_of_old || !sorted)
		return false;
	for (int i = 0; i < n; i++)
		order[i] = (struct ranked){ ir_r300_input_rank(f->inputs[i].name), i };
	qsort(order, (size_t)n, sizeof *order, by_rank);
	for (int i = 0; i < n; i++) {
		sorted[i] = f->inputs[order[i].old];
		new_of_old[order[i].old] = i;
	}
	memcpy(f->inputs, sorted, sizeof *sorted * (size_t)n);
	for (int i = 0; i < n; i++) {
		name_map_remove(&f->input_names, f->inputs[i].name);
		if (!name_map_put(&f->input_names, f->arena, f->inputs[i].name, (void *)(intptr_t)(i + 1)))
			return false;
	}
	struct renumber r = { new_of_old, n };
	ir_foreach_instr(f, renumber_input, &r);
	return true;
}

/* Renames input i (its name map entry too). */
static bool rename_input(struct ir_func *f, int i, const char *name)
{
	name_map_remove(&f->input_names, f->inputs[i].name);
	f->inputs[i].name = arena_strdup(f->arena, name);
	return f->inputs[i].name &&
	       name_map_put(&f->input_names, f->arena, f->inputs[i].name, (void *)(intptr_t)(i + 1));
}

/* The instructions `match` picks, in program order. */
struct found {
	bool (*match)(const struct ir_func *f, const struct ir_instr *in, const void *ud);
	const void *ud;
	const struct ir_func *f;
	struct ir_instr **list;
	int n, cap;
	bool failed;
};

static void collect(struct ir_instr *in, void *ud)
{
	struct found *r = ud;
	if (r->failed || !r->match(r->f, in, r->ud))
		return;
	if (r->n == r->cap) {
		int cap = r->cap ? 2 * r->cap : 8;
		struct ir_instr **l = arena_alloc(r->f->arena, sizeof *l * (size_t)cap);
		if (!l) {
			r->failed = true;
			return;
		}
		if (r->n)
			memcpy(l, r->list, sizeof *l * (size_t)r->n);
		r->list = l;
		r->cap = cap;
	}
	r->list[r->n++] = in;
}

static bool find_all(struct ir_func *f, struct found *r)
{
	r->f = f;
	ir_foreach_instr(f, collect, r);
	return !r->failed;
}

static bool reads_input(const struct ir_func *f, const struct ir_instr *in, const void *ud)
{
	(void)f;
	return in->op == IR_OP_INPUT && in->index == *(const int *)ud;
}

static const uint8_t XYZ[4] = { 0, 1, 2, 2 }, WWWW[4] = { 3, 3, 3, 3 };

/* The window position from the clip-space one, before `at`, which it
 * replaces (rc_transform_fragment_wpos with the viewport transform). */
static struct ir_instr *window_position(struct ir_func *f, struct ir_instr *at, int scale,
					int offset)
{
	struct ir_instr *p = ir_build_before(f, at, IR_OP_INPUT, 4, IR_FLOAT, 0, NULL);
	struct ir_instr *s = ir_build_before(f, at, IR_OP_UNIFORM, 3, IR_FLOAT, 0, NULL);
	struct ir_instr *o = ir_build_before(f, at, IR_OP_UNIFORM, 3, IR_FLOAT, 0, NULL);
	if (!p || !s || !o)
		return NULL;
	p->index = at->index;
	s->index = scale;
	o->index = offset;
	struct ir_src w = ir_src_swz(p, WWWW);
	struct ir_instr *rw = ir_build_before(f, at, IR_OP_RCP, 1, IR_FLOAT, 1, &w);
	if (!rw)
		return NULL;
	struct ir_src ndc_src[2] = { ir_src_swz(p, XYZ), ir_src_comp(rw, 0) };
	struct ir_instr *ndc = ir_build_before(f, at, IR_OP_MUL, 3, IR_FLOAT, 2, ndc_src);
	if (!ndc)
		return NULL;
	struct ir_src win_src[3] = { ir_src_of(ndc), ir_src_of(s), ir_src_of(o) };
	struct ir_instr *win = ir_build_before(f, at, IR_OP_MAD, 3, IR_FLOAT, 3, win_src);
	if (!win)
		return NULL;
	struct ir_src vec[4] = { ir_src_comp(win, 0), ir_src_comp(win, 1), ir_src_comp(win, 2),
				 ir_src_comp(rw, 0) };
	return ir_build_before(f, at, IR_OP_VEC, 4, IR_FLOAT, 4, vec);
}

/* 1 - the back-face flag, before `at`, which it replaces. */
static struct ir_instr *front_facing(struct ir_func *f, struct ir_instr *at)
{
	struct ir_instr *back = ir_build_before(f, at, IR_OP_INPUT, 1, IR_FLOAT, 0, NULL);
	struct ir_instr *one = ir_build_const_before(f, at, 1, IR_FLOAT, (const float[4]){ 1, 1, 1, 1 });
	if (!back || !one)
		return NULL;
	back->index = at->index;
	struct ir_src s[2] = { ir_src_comp(one, 0), ir_src_comp(back, 0) };
	struct ir_instr *front = ir_build_before(f, at, IR_OP_SUB, 1, IR_FLOAT, 2, s);
	if (!front || at->ncomp == 1)
		return front;
	struct ir_src vec[4] = { ir_src_comp(front, 0), ir_src_comp(front, 0), ir_src_comp(front, 0),
				 ir_src_comp(front, 0) };
	return ir_build_before(f, at, IR_OP_VEC, at->ncomp, IR_FLOAT, at->ncomp, vec);
}

/* Every read of input i replaced: by the window position (scale and
 * offset: the viewport's uniforms) or, with scale -1, by the front-face
 * flag. */
static bool rewrite_reads(struct ir_func *f, int i, int scale, int offset)
{
	struct found r = { .match = reads_input, .ud = &i };
	if (!find_all(f, &r))
		return false;
	for (int k = 0; k < r.n; k++) {
		struct ir_instr *at = r.list[k];
		struct ir_instr *rep = scale >= 0 ? window_position(f, at, scale, offset)
						  : front_facing(f, at);
		if (!rep)
			return false;
		if (rep->ncomp != at->ncomp) { /* a read of fewer components */
			struct ir_src s = ir_src_of(rep);
			rep = ir_build_before(f, at, IR_OP_MOV, at->ncomp, IR_FLOAT, 1, &s);
			if (!rep)
				return false;
		}
		ir_forward(at, rep);
		ir_instr_remove(at);
	}
	ir_apply_forwards(f);
	return true;
}

/* The non-projective kind of a projective one. */
static uint8_t unprojected(uint8_t kind)
{
	switch (kind) {
	case IR_TEX_PROJ: return IR_TEX_PLAIN;
	case IR_TEX_PROJ_BIAS: return IR_TEX_BIAS;
	case IR_TEX_PROJ_LOD: return IR_TEX_LOD;
	case IR_TEX_PROJ_GRAD: return IR_TEX_GRAD;
	default: return kind;
	}
}

static int target_dims(int target)
{
	return target == IR_TARGET_1D ? 1 : target == IR_TARGET_3D || target == IR_TARGET_CUBE ? 3 : 2;
}

/* c's wrapped value (4 components) by `wrap`, before `at`. */
static struct ir_instr *wrapped(struct ir_func *f, struct ir_instr *at, struct ir_src c, int wrap)
{
	struct ir_instr *v = NULL;
	if (wrap == IR_R300_WRAP_REPEAT) {
		v = ir_build_before(f, at, IR_OP_FRACT, 4, IR_FLOAT, 1, &c);
	} else if (wrap == IR_R300_WRAP_MIRRORED_CLAMP) {
		v = ir_build_before(f, at, IR_OP_ABS, 4, IR_FLOAT, 1, &c);
	} else if (wrap == IR_R300_WRAP_MIRRORED_REPEAT) {
		struct ir_instr *half = ir_build_const_before(f, at, 1, IR_FLOAT, (const float[4]){ 0.5f });
		struct ir_instr *two = ir_build_const_before(f, at, 1, IR_FLOAT, (const float[4]){ 2 });
		struct ir_instr *one = ir_build_const_before(f, at, 1, IR_FLOAT, (const float[4]){ 1 });
		if (!half || !two || !one)
			return NULL;
		struct ir_src m[2] = { c, ir_src_comp(half, 0) };
		struct ir_instr *h = ir_build_before(f, at, IR_OP_MUL, 4, IR_FLOAT, 2, m);
		struct ir_src hs = h ? ir_src_of(h) : c;
		struct ir_instr *fr = h ? ir_build_before(f, at, IR_OP_FRACT, 4, IR_FLOAT, 1, &hs) : NULL;
		if (!fr)
			return NULL;
		struct ir_src mad[3] = { ir_src_of(fr), ir_src_comp(two, 0), ir_src_comp(one, 0) };
		struct ir_instr *t = ir_build_before(f, at, IR_OP_MAD, 4, IR_FLOAT, 3, mad);
		struct ir_src ts = t ? ir_src_of(t) : c;
		struct ir_instr *sub1 = t ? ir_build_before(f, at, IR_OP_SUB, 4, IR_FLOAT, 2,
							    (struct ir_src[2]){ ts, ir_src_comp(one, 0) })
					  : NULL;
		/* 2 fract(c / 2) - 1, then 1 - |that| */
		struct ir_src s1 = sub1 ? ir_src_of(sub1) : c;
		struct ir_instr *a = sub1 ? ir_build_before(f, at, IR_OP_ABS, 4, IR_FLOAT, 1, &s1) : NULL;
		if (!a)
			return NULL;
		struct ir_src r[2] = { ir_src_comp(one, 0), ir_src_of(a) };
		v = ir_build_before(f, at, IR_OP_SUB, 4, IR_FLOAT, 2, r);
	}
	return v;
}

/* The lookup `at` with its unit's wrap emulation (see the header). */
static bool emulate_wrap(struct ir_func *f, struct ir_instr *at, const struct ir_r300_unit *u,
			 int unit)
{
	struct ir_src c = at->src[0];
	int dims = target_dims(f->samplers[at->index].target);
	for (int k = 0; k < 4; k++) /* the wrap ops read all four entries */
		if (c.def && c.swz[k] >= c.def->ncomp)
			c.swz[k] = (uint8_t)(c.def->ncomp - 1);
	if (ir_tex_kind_is_proj(at->tex_kind)) {
		struct ir_src q = c;
		for (int k = 0; k < 4; k++)
			q.swz[k] = c.swz[3];
		struct ir_instr *rq = ir_build_before(f, at, IR_OP_RCP, 1, IR_FLOAT, 1, &q);
		struct ir_instr *d = rq ? ir_build_before(f, at, IR_OP_MUL, 4, IR_FLOAT, 2,
							  (struct ir_src[2]){ c, ir_src_comp(rq, 0) })
					: NULL;
		if (!d)
			return false;
		struct ir_src keep_w[4] = { ir_src_comp(d, 0), ir_src_comp(d, 1), ir_src_comp(d, 2), q };
		struct ir_instr *v = ir_build_before(f, at, IR_OP_VEC, 4, IR_FLOAT, 4, keep_w);
		if (!v)
			return false;
		c = ir_src_of(v);
		at->tex_kind = unprojected(at->tex_kind);
	}
	struct ir_instr *w = u->wrap != IR_R300_WRAP_NONE ? wrapped(f, at, c, u->wrap) : NULL;
	if (u->wrap != IR_R300_WRAP_NONE && !w)
		return false;
	struct ir_src ws = w ? ir_src_of(w) : c;
	if (u->clamp_and_scale) {
		char name[32];
		snprintf(name, sizeof name, "%s[%d]", R300_TEXSCALE, unit);
		int k = ir_func_find_uniform(f, name);
		if (k < 0)
			k = ir_func_add_uniform(f, name, "vec3", 0, 1, 3);
		struct ir_instr *sat = k >= 0 ? ir_build_before(f, at, IR_OP_SAT, 4, IR_FLOAT, 1, &ws) : NULL;
		struct ir_instr *scale = sat ? ir_build_before(f, at, IR_OP_UNIFORM, 3, IR_FLOAT, 0, NULL) : NULL;
		if (!scale)
			return false;
		scale->index = k;
		const uint8_t xyzz[4] = { 0, 1, 2, 2 };
		struct ir_src m[2] = { ir_src_of(sat), ir_src_swz(scale, xyzz) };
		struct ir_instr *sc = ir_build_before(f, at, IR_OP_MUL, 4, IR_FLOAT, 2, m);
		if (!sc)
			return false;
		ws = ir_src_of(sc);
	}
	struct ir_src comps[4];
	for (int k = 0; k < 4; k++) {
		comps[k] = k < dims ? ws : c;
		for (int j = 0; j < 4; j++)
			comps[k].swz[j] = (k < dims ? ws : c).swz[k];
	}
	struct ir_instr *coord = ir_build_before(f, at, IR_OP_VEC, 4, IR_FLOAT, 4, comps);
	if (!coord)
		return false;
	at->src[0] = ir_src_of(coord);
	return true;
}

/* A lookup on a unit with an emulation. */
static bool emulated_lookup(const struct ir_func *f, const struct ir_instr *in, const void *ud)
{
	const struct ir_r300_unit *units = ud;
	if (in->op != IR_OP_TEX || in->index < 0 || in->index >= f->nsamplers)
		return false;
	int unit = f->samplers[in->index].unit;
	return unit >= 0 && unit < IR_R300_UNITS &&
	       (units[unit].wrap != IR_R300_WRAP_NONE || units[unit].clamp_and_scale);
}

static bool emulate_wraps(struct ir_func *f, const struct ir_r300_unit *units,
			  struct diag_sink *diag)
{
	struct found l = { .match = emulated_lookup, .ud = units };
	if (!find_all(f, &l))
		return false;
	for (int k = 0; k < l.n; k++) {
		struct ir_instr *at = l.list[k];
		const struct ir_sampler *s = &f->samplers[at->index];
		if (s->target == IR_TARGET_RECT) {
			diag_error(diag, at->loc, "r300's wrap emulation on unit %d, a RECT sampler "
				   "('%s'), is not supported", s->unit, s->name);
			return false;
		}
		if (!emulate_wrap(f, at, &units[s->unit], s->unit))
			return false;
	}
	return true;
}

static bool out_of_memory(struct diag_sink *diag)
{
	diag_error(diag, (struct src_loc){ 0 }, "out of memory applying r300's conventions");
	return false;
}

bool ir_r300_conventions(struct ir_func *f, const struct ir_r300_unit *units,
			 struct diag_sink *diag)
{
	if (!sort_inputs(f))
		return out_of_memory(diag);
	if (units && !emulate_wraps(f, units, diag))
		return diag_failed(diag) ? false : out_of_memory(diag);
	for (int i = 0; i < f->ninputs; i++) {
		int rank = ir_r300_input_rank(f->inputs[i].name);
		if (rank == RANK_WPOS && strcmp(f->inputs[i].name, R300_POSITION_INPUT) != 0) {
			int scale = ir_func_add_uniform(f, R300_VIEWPORT_SCALE, "vec3", 0, 1, 3);
			int offset = ir_func_add_uniform(f, R300_VIEWPORT_OFFSET, "vec3", 0, 1, 3);
			f->inputs[i].ncomp = 4;
			if (scale < 0 || offset < 0 || !rename_input(f, i, R300_POSITION_INPUT) ||
			    !rewrite_reads(f, i, scale, offset))
				return out_of_memory(diag);
		} else if (rank == RANK_FACE && strcmp(f->inputs[i].name, R300_BACKFACE_INPUT) != 0) {
			if (!rename_input(f, i, R300_BACKFACE_INPUT) || !rewrite_reads(f, i, -1, -1))
				return out_of_memory(diag);
		}
	}
	return true;
}
