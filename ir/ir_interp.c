/* The IR interpreter (ir_interp.h): runs a function on one 2x2 quad.
 *
 * Every pixel of the quad runs (helpers too); a pixel's value of an
 * instruction is written only while the pixel is active, so values from
 * a loop iteration or branch a pixel left stay as they were.  An IF runs
 * both branches under per-pixel masks and the PHIs after it pick per
 * pixel; a LOOP repeats while any pixel is still in it.  A discarded pixel
 * keeps running for its neighbours' derivatives (as the R500 does with
 * TEXKILL, ISA §12) and is reported in `discarded`.  Derivatives are
 * coarse, shared by the quad: ddx = p1 - p0, ddy = p2 - p0. */
#include "ir_interp.h"
#include "ir_eval.h"
#include "shadow.h"

#include <math.h>
#include <string.h>

enum { DEFAULT_MAX_ITERATIONS = 65536 };

struct loop_state {
	bool brk[4], cont[4];
	int brk_ord[4], cont_ord[4];
	struct loop_state *outer;
};

/* Which source the PHIs at the start of a block take, per pixel. */
struct phisel {
	bool loop_head;  /* v: -1 entry, -2 end of body, k >= 0 CONTINUE k */
	int v[4];        /* else: the source index */
	int ncont;
};

struct ictx {
	const struct ir_func *f;
	const struct ir_interp_env *env;
	struct ir_interp_result *res;
	struct diag_sink *diag;
	float (*val)[4][4]; /* by id: [pixel][component] */
	int *ord;           /* by id: BREAK/CONTINUE number within its loop */
	uint32_t nids;
	float (*phi_tmp)[4][4]; /* scratch for the PHIs of one block */
	uint32_t max_phis;      /* most PHIs at the start of any block */
	struct loop_state *loop;
	float (**mem)[4][4]; /* by array: [element][pixel][component], from 0 */
	long max_iter;
	bool failed;
};

static void interp_error(struct ictx *x, const struct ir_instr *in, const char *msg)
{
	if (!x->failed && x->diag)
		diag_error(x->diag, in ? in->loc : (struct src_loc){ 0 }, "IR interpreter: %s", msg);
	x->failed = true;
}

/* Active after the BREAKs/CONTINUEs of the innermost loop so far. */
static void effective(const struct ictx *x, const bool mask[4], bool out[4])
{
	for (int p = 0; p < 4; p++)
		out[p] = mask[p] && !(x->loop && (x->loop->brk[p] || x->loop->cont[p]));
}

static bool any_of(const bool m[4])
{
	return m[0] || m[1] || m[2] || m[3];
}

/* Source value at pixel p, in the order the op reads it. */
static void fetch(const struct ictx *x, const struct ir_src *s, int p, float out[4])
{
	const struct ir_instr *d = s->def;
	for (int c = 0; c < 4; c++)
		out[c] = d && d->id < x->nids ? x->val[d->id][p][s->swz[c] & 3] : 0.0f;
}

static void exec_input(struct ictx *x, const struct ir_instr *in, int p, float out[4])
{
	if (!x->env->inputs || in->index < 0 || in->index >= x->f->ninputs ||
	    !x->env->inputs[in->index])
		return;
	for (int c = 0; c < 4; c++)
		out[c] = ir_flush_denorm(x->env->inputs[in->index][p][c]);
}

static void exec_uniform(struct ictx *x, const struct ir_instr *in, int p, float out[4])
{
	if (in->index < 0 || in->index >= x->f->nuniforms)
		return;
	const struct ir_uniform *u = &x->f->uniforms[in->index];
	float idx = (float)in->offset;
	if (in->nsrc > 0) {
		float s[4];
		fetch(x, &in->src[0], p, s);
		idx += s[0];
	}
	/* a runtime index is clamped to the array */
	int lo, hi;
	ir_uniform_index_range(u, in->offset, &lo, &hi);
	float r = floorf(idx + 0.5f);
	int elem = r != r || r < (float)lo ? lo : r > (float)hi ? hi : (int)r;
	if (elem < 0 || u->base + elem >= x->f->nuniform_vec4)
		return;
	/* no values given: the program's own initializer, else 0 */
	const float *v = x->env->uniform_values ? x->env->uniform_values[u->base + elem]
			 : u->init ? u->init[elem] : NULL;
	for (int c = 0; v && c < 4; c++)
		out[c] = ir_flush_denorm(v[c]);
}

/* The element pixel p's LOAD or STORE names (ir_array_element); -1 none. */
static int array_element(const struct ictx *x, const struct ir_instr *in, int p, int index_src)
{
	if (in->index < 0 || in->index >= x->f->narrays || !x->mem[in->index])
		return -1;
	float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	bool dynamic = in->nsrc > index_src;
	if (dynamic)
		fetch(x, &in->src[index_src], p, s);
	return ir_array_element(&x->f->arrays[in->index], in->offset, dynamic, s[0]);
}

/* An element beyond the array reads its last one (ir.h: ir_array). */
static void exec_load(struct ictx *x, const struct ir_instr *in, int p, float out[4])
{
	int e = array_element(x, in, p, 0);
	if (in->index < 0 || in->index >= x->f->narrays || !x->mem[in->index])
		return;
	if (e < 0)
		e = x->f->arrays[in->index].length - 1;
	memcpy(out, x->mem[in->index][e][p], sizeof(float[4]));
}

/* An element beyond the array is not written. */
static void exec_store(struct ictx *x, const struct ir_instr *in, int p)
{
	int e = array_element(x, in, p, 1);
	if (e < 0 || in->nsrc < 1)
		return;
	float s[4];
	fetch(x, &in->src[0], p, s);
	memcpy(x->mem[in->index][e][p], s, sizeof s);
}

/* Where a lookup's level of detail comes from: the quad's coordinates
 * (coarse derivatives, as DDX/DDY), those plus src1 as a bias, src1 as
 * the LOD, or the gradients src1 = dPdx and src2 = dPdy. */
enum tex_lod_from { TEX_LOD_QUAD, TEX_LOD_BIAS, TEX_LOD_EXPLICIT, TEX_LOD_GRAD };

static enum tex_lod_from tex_kind_lod(int kind, bool *proj)
{
	*proj = ir_tex_kind_is_proj(kind);
	switch (kind) {
	case IR_TEX_BIAS:
	case IR_TEX_PROJ_BIAS:
		return TEX_LOD_BIAS;
	case IR_TEX_LOD:
	case IR_TEX_PROJ_LOD:
		return TEX_LOD_EXPLICIT;
	case IR_TEX_GRAD:
	case IR_TEX_PROJ_GRAD:
		return TEX_LOD_GRAD;
	default:
		return TEX_LOD_QUAD;
	}
}

/* The coordinate pixel p's lookup hands util/texture (dims components,
 * the rest 0), after the projective division; c: the source, divided. */
static void tex_coord(const struct ictx *x, const struct ir_instr *in, int dims, bool proj,
		      int p, float c[4], float coord[3])
{
	fetch(x, &in->src[0], p, c);
	if (proj)
		for (int i = 0; i < 3; i++)
			c[i] = c[i] / c[3];
	for (int i = 0; i < 3; i++)
		coord[i] = i < dims ? c[i] : 0.0f;
}

/* Source k's first dims components, the rest 0 (0 if there is none). */
static void tex_extra(const struct ictx *x, const struct ir_instr *in, int k, int dims, int p,
		      float v[3])
{
	float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
	if (k < in->nsrc)
		fetch(x, &in->src[k], p, s);
	for (int i = 0; i < 3; i++)
		v[i] = i < dims ? s[i] : 0.0f;
}

/* GL's lambda (bias included) for pixel p's lookup.  Fragment shaders
 * take the implicit derivatives from the quad as the emulator does
 * (pixel 1 - pixel 0, pixel 2 - pixel 0, whichever pixels are active);
 * other stages have none: lambda 0. */
static float tex_lod(const struct ictx *x, const struct ir_instr *in, const struct tex_image *img,
		     enum tex_lod_from from, int dims, bool proj, int p, const float coord[3])
{
	float dx[3], dy[3], v[3];
	if (from == TEX_LOD_EXPLICIT) {
		tex_extra(x, in, 1, 1, p, v);
		return v[0];
	}
	if (from == TEX_LOD_GRAD) {
		tex_extra(x, in, 1, dims, p, dx);
		tex_extra(x, in, 2, dims, p, dy);
		return tex_lambda(img, coord, dx, dy);
	}
	float lambda = 0.0f;
	if (x->f->stage == IR_STAGE_FRAGMENT) {
		float c[4], q[3][3];
		for (int k = 0; k < 3; k++)
			tex_coord(x, in, dims, proj, k, c, q[k]);
		for (int i = 0; i < 3; i++) {
			dx[i] = q[1][i] - q[0][i];
			dy[i] = q[2][i] - q[0][i];
		}
		lambda = tex_lambda(img, coord, dx, dy);
	}
	if (from == TEX_LOD_BIAS) {
		tex_extra(x, in, 1, 1, p, v);
		lambda += v[0];
	}
	return lambda;
}

/* Sampling by the sampler's unit through util/texture, as the emulator
 * samples.  Shadow samplers compare coord .z (after division) with the
 * texel's red by the unit's compare function and depth mode
 * (util/shadow.h; GL's defaults LEQUAL and LUMINANCE). */
static void exec_tex(struct ictx *x, const struct ir_instr *in, int p, float out[4])
{
	if (in->index < 0 || in->index >= x->f->nsamplers || in->nsrc < 1)
		return;
	const struct ir_sampler *smp = &x->f->samplers[in->index];
	const struct tex_image *img = NULL;
	if (x->env->textures && smp->unit >= 0 && smp->unit < x->env->ntextures)
		img = &x->env->textures[smp->unit];
	bool proj;
	enum tex_lod_from from = tex_kind_lod(in->tex_kind, &proj);
	int dims = ir_tex_coord_ncomp(smp->target, IR_TEX_PLAIN, false);
	float c[4], coord[3];
	tex_coord(x, in, dims, proj, p, c, coord);
	tex_sample_lod(img, coord, tex_lod(x, in, img, from, dims, proj, p, coord), out);
	if (in->tex_shadow || smp->shadow)
		tex_shadow_result(smp->depth_mode, tex_shadow_pass(smp->compare, c[2], out[0]), out);
}

/* dFdx = p1 - p0, dFdy = p2 - p0, the same for all four pixels. */
static void exec_deriv(struct ictx *x, const struct ir_instr *in, float out[4])
{
	float a[4], b[4];
	fetch(x, &in->src[0], 0, a);
	fetch(x, &in->src[0], in->op == IR_OP_DDX ? 1 : 2, b);
	for (int c = 0; c < 4; c++)
		out[c] = ir_flush_denorm(b[c] - a[c]);
}

static void exec_side(struct ictx *x, const struct ir_instr *in, int p)
{
	float s[4];
	switch (in->op) {
	case IR_OP_DISCARD:
		if (in->nsrc > 0)
			fetch(x, &in->src[0], p, s);
		if (in->nsrc == 0 || s[0] != 0.0f)
			x->res->discarded[p] = true;
		break;
	case IR_OP_OUTPUT:
		if (in->index < 0 || in->index >= IR_INTERP_MAX_OUTPUTS || in->index >= x->f->noutputs || in->nsrc < 1)
			break;
		fetch(x, &in->src[0], p, s);
		for (int c = 0; c < ir_src_ncomp(x->f, in, 0); c++)
			x->res->outputs[in->index][p][c] = s[c];
		x->res->written[in->index] = true;
		break;
	case IR_OP_BREAK:
		if (x->loop) {
			x->loop->brk[p] = true;
			x->loop->brk_ord[p] = x->ord[in->id];
		}
		break;
	case IR_OP_CONTINUE:
		if (x->loop) {
			x->loop->cont[p] = true;
			x->loop->cont_ord[p] = x->ord[in->id];
		}
		break;
	case IR_OP_STORE:
		exec_store(x, in, p);
		break;
	default:
		break;
	}
}

static bool all_finite(const float *v, int n)
{
	for (int c = 0; c < n && c < 4; c++)
		if (!isfinite(v[c]))
			return false;
	return true;
}

static bool all_finite_srcs(const float (*s)[4], int n)
{
	for (int i = 0; i < n; i++)
		if (!all_finite(s[i], 4))
			return false;
	return true;
}

static void exec_value(struct ictx *x, const struct ir_instr *in, int p, float out[4])
{
	float s[IR_MAX_SRCS][4];
	int n = in->nsrc < IR_MAX_SRCS ? in->nsrc : IR_MAX_SRCS;
	memset(s, 0, sizeof s);
	for (int i = 0; i < n; i++)
		fetch(x, &in->src[i], p, s[i]);
	int src0_ncomp = n > 0 ? ir_src_ncomp(x->f, in, 0) : 4;
	if (!ir_eval_op(in->op, in->ncomp, src0_ncomp, (const float(*)[4])s, out))
		interp_error(x, in, "malformed instruction");
	if (!x->res->undefined[p] && !all_finite(out, in->ncomp) && all_finite_srcs(s, n))
		x->res->undefined[p] = true;
}

static void exec_instr(struct ictx *x, const struct ir_instr *in, const bool mask[4])
{
	bool act[4];
	effective(x, mask, act);
	if (!any_of(act) || in->id >= x->nids)
		return;
	if (in->ncomp == 0) {
		for (int p = 0; p < 4; p++)
			if (act[p])
				exec_side(x, in, p);
		return;
	}
	float deriv[4];
	if (in->op == IR_OP_DDX || in->op == IR_OP_DDY)
		exec_deriv(x, in, deriv);
	for (int p = 0; p < 4; p++) {
		if (!act[p])
			continue;
		float out[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
		switch (in->op) {
		case IR_OP_CONST:
			for (int c = 0; c < in->ncomp && c < 4; c++)
				out[c] = ir_flush_denorm(in->imm[c]);
			break;
		case IR_OP_INPUT:
			exec_input(x, in, p, out);
			break;
		case IR_OP_UNIFORM:
			exec_uniform(x, in, p, out);
			break;
		case IR_OP_TEX:
			exec_tex(x, in, p, out);
			break;
		case IR_OP_LOAD:
			exec_load(x, in, p, out);
			break;
		case IR_OP_DDX:
		case IR_OP_DDY:
			memcpy(out, deriv, sizeof out);
			break;
		case IR_OP_PHI:
			return; /* done at the start of the block */
		default:
			exec_value(x, in, p, out);
			break;
		}
		memcpy(x->val[in->id][p], out, sizeof out);
	}
}

/* The PHIs at the start of a block, all read before any is written (a
 * loop PHI may read another PHI of the same block). */
static const struct ir_instr *exec_phis(struct ictx *x, const struct ir_instr *in,
					const bool mask[4], const struct phisel *sel)
{
	const struct ir_instr *first = in;
	uint32_t n = 0;
	bool act[4];
	effective(x, mask, act);
	for (; in && in->op == IR_OP_PHI && n < x->max_phis; in = in->next, n++) {
		for (int p = 0; p < 4; p++) {
			int i = sel ? sel->v[p] : 0;
			if (sel && sel->loop_head)
				i = i == -1 ? 0 : i == -2 ? 1 : in->nsrc - sel->ncont + i;
			if (i < 0 || i >= in->nsrc || i >= IR_MAX_SRCS)
				i = 0;
			memset(x->phi_tmp[n][p], 0, sizeof x->phi_tmp[n][p]);
			if (in->nsrc > 0)
				fetch(x, &in->src[i], p, x->phi_tmp[n][p]);
		}
	}
	uint32_t k = 0;
	for (in = first; in && in->op == IR_OP_PHI && k < n; in = in->next, k++)
		for (int p = 0; p < 4; p++)
			if (act[p] && in->id < x->nids)
				memcpy(x->val[in->id][p], x->phi_tmp[k][p], sizeof x->phi_tmp[k][p]);
	return in;
}

static void exec_list(struct ictx *x, const struct ir_cf_list *list, const bool mask[4],
		      const struct phisel *head);

static void exec_if(struct ictx *x, const struct ir_cf *cf, const bool mask[4],
		    struct phisel *after)
{
	bool act[4], then_m[4], else_m[4];
	effective(x, mask, act);
	after->loop_head = false;
	for (int p = 0; p < 4; p++) {
		float c[4];
		fetch(x, &cf->cond, p, c);
		then_m[p] = act[p] && c[0] != 0.0f;
		else_m[p] = act[p] && c[0] == 0.0f;
		after->v[p] = c[0] != 0.0f ? 0 : 1;
	}
	if (any_of(then_m))
		exec_list(x, &cf->then_list, then_m, NULL);
	if (any_of(else_m))
		exec_list(x, &cf->else_list, else_m, NULL);
}

static void exec_loop(struct ictx *x, const struct ir_cf *cf, const bool mask[4],
		      struct phisel *after)
{
	struct loop_state ls = { .outer = x->loop };
	struct phisel head = { .loop_head = true, .v = { -1, -1, -1, -1 },
			       .ncont = ir_cf_list_jumps(&cf->body, IR_JUMP_CONTINUE) };
	bool act[4];
	effective(x, mask, act);
	for (long iter = 0; any_of(act) && !x->failed; iter++) {
		if (iter >= x->max_iter) {
			interp_error(x, cf->body.first && cf->body.first->kind == IR_CF_BLOCK ?
						cf->body.first->block.first : NULL,
				     "loop exceeds the iteration limit");
			break;
		}
		memset(ls.cont, 0, sizeof ls.cont);
		x->loop = &ls;
		exec_list(x, &cf->body, act, &head);
		x->loop = ls.outer;
		for (int p = 0; p < 4; p++) {
			if (!act[p])
				continue;
			if (ls.brk[p])
				act[p] = false;
			else
				head.v[p] = ls.cont[p] ? ls.cont_ord[p] : -2;
		}
	}
	after->loop_head = false;
	memcpy(after->v, ls.brk_ord, sizeof after->v);
}

static void exec_list(struct ictx *x, const struct ir_cf_list *list, const bool mask[4],
		      const struct phisel *head)
{
	struct phisel next;
	const struct phisel *sel = head;
	for (const struct ir_cf *cf = list->first; cf && !x->failed; cf = cf->next) {
		switch (cf->kind) {
		case IR_CF_BLOCK: {
			const struct ir_instr *in = exec_phis(x, cf->block.first, mask, sel);
			for (; in && !x->failed; in = in->next)
				exec_instr(x, in, mask);
			sel = NULL;
			break;
		}
		case IR_CF_IF:
			exec_if(x, cf, mask, &next);
			sel = &next;
			break;
		case IR_CF_LOOP:
			exec_loop(x, cf, mask, &next);
			sel = &next;
			break;
		}
	}
}

/* Numbers each loop's BREAKs and CONTINUEs in program order. */
static void number_jumps(struct ictx *x, const struct ir_cf_list *list, int *nbrk, int *ncont)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_BLOCK) {
			uint32_t nphi = 0;
			for (const struct ir_instr *in = cf->block.first; in && in->op == IR_OP_PHI;
			     in = in->next)
				nphi++;
			if (nphi > x->max_phis)
				x->max_phis = nphi;
			for (const struct ir_instr *in = cf->block.first; in; in = in->next) {
				if (in->id >= x->nids)
					continue;
				if (in->op == IR_OP_BREAK)
					x->ord[in->id] = (*nbrk)++;
				else if (in->op == IR_OP_CONTINUE)
					x->ord[in->id] = (*ncont)++;
			}
		} else if (cf->kind == IR_CF_IF) {
			number_jumps(x, &cf->then_list, nbrk, ncont);
			number_jumps(x, &cf->else_list, nbrk, ncont);
		} else {
			int b = 0, c = 0;
			number_jumps(x, &cf->body, &b, &c);
		}
	}
}

bool ir_interp_quad(const struct ir_func *f, const struct ir_interp_env *env,
		    struct ir_interp_result *res, struct diag_sink *diag)
{
	memset(res, 0, sizeof *res);
	struct arena *tmp = arena_create(&mem_default_allocator);
	if (!tmp)
		return false;
	struct ictx x = { .f = f, .env = env, .res = res, .diag = diag, .nids = f->next_id };
	x.max_iter = env->max_iterations > 0 ? env->max_iterations : DEFAULT_MAX_ITERATIONS;
	x.val = arena_alloc(tmp, sizeof *x.val * ((size_t)x.nids + 1));
	x.ord = arena_alloc(tmp, sizeof *x.ord * ((size_t)x.nids + 1));
	if (x.val && x.ord) {
		int b = 0, c = 0;
		number_jumps(&x, &f->body, &b, &c);
		x.phi_tmp = arena_alloc(tmp, sizeof *x.phi_tmp * ((size_t)x.max_phis + 1));
	}
	x.mem = arena_alloc(tmp, sizeof *x.mem * ((size_t)f->narrays + 1));
	for (int a = 0; x.mem && a < f->narrays; a++) {
		size_t bytes = sizeof **x.mem * (size_t)(f->arrays[a].length > 0 ? f->arrays[a].length : 1);
		if ((x.mem[a] = arena_alloc(tmp, bytes)) != NULL)
			memset(x.mem[a], 0, bytes);
	}
	if (!x.val || !x.ord || !x.phi_tmp || !x.mem || arena_failed(tmp)) {
		interp_error(&x, NULL, "out of memory");
	} else {
		const bool all[4] = { true, true, true, true };
		exec_list(&x, &f->body, all, NULL);
	}
	arena_destroy(tmp);
	return !x.failed;
}
