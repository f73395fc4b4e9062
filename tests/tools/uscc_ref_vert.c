/* uscc-ref's vertex mode: runs a vertex shader's IR on given attribute
 * values, four vertices at a time (the interpreter's quad; a vertex shader
 * takes no derivatives, so the vertices do not see each other), and prints
 * each output the shader writes, one line per vertex and output:
 *   VERTEX NAME x [y z w]
 * The interpreter keeps 8 outputs per run, so a shader with more runs once
 * per group of 8 with the other OUTPUT instructions switched off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir_interp.h"
#include "uscc_ref.h"

enum { OUTS_PER_RUN = 8 };

struct out_instrs {
	struct ir_instr **instr;
	int *index;       /* each one's own output index */
	int n, cap;
};

static void note_output(struct ir_instr *in, void *ud)
{
	struct out_instrs *o = ud;
	if (in->op != IR_OP_OUTPUT)
		return;
	if (o->n == o->cap) {
		int cap = o->cap ? o->cap * 2 : 16;
		struct ir_instr **ni = realloc(o->instr, sizeof *ni * (size_t)cap);
		if (ni)
			o->instr = ni;
		int *nx = realloc(o->index, sizeof *nx * (size_t)cap);
		if (nx)
			o->index = nx;
		if (!ni || !nx)
			return; /* caught by the count check below */
		o->cap = cap;
	}
	o->instr[o->n] = in;
	o->index[o->n++] = in->index;
}

/* Points the OUTPUT instructions of group g at slots 0..7, others off. */
static void select_group(struct out_instrs *o, int g)
{
	for (int k = 0; k < o->n; k++) {
		int rel = o->index[k] - g * OUTS_PER_RUN;
		o->instr[k]->index = rel >= 0 && rel < OUTS_PER_RUN ? rel : -1;
	}
}

static const struct ref_attrib *find_attrib(const struct ref_opts *o, const char *name)
{
	for (int i = 0; i < o->nattribs; i++)
		if (!strcmp(o->attribs[i].name, name))
			return &o->attribs[i];
	return NULL;
}

static void attrib_value(const struct ref_opts *o, const char *name, int vertex, float v[4])
{
	const struct ref_attrib *a = find_attrib(o, name);
	static const float dflt[4] = { 0, 0, 0, 1 };
	if (!a)
		memcpy(v, dflt, sizeof dflt);
	else
		memcpy(v, a->values[a->nvalues == 1 ? 0 : vertex], sizeof(float[4]));
}

/* The vertex count: --vertex-count, else the longest attribute list. */
static bool vertex_count(const struct ref_opts *o, const struct ir_func *f, int *n)
{
	*n = o->nvertices;
	for (int i = 0; !o->nvertices && i < o->nattribs; i++)
		if (o->attribs[i].nvalues > *n)
			*n = o->attribs[i].nvalues;
	if (*n < 1)
		*n = 1;
	for (int i = 0; i < o->nattribs; i++) {
		const struct ref_attrib *a = &o->attribs[i];
		if (a->nvalues != 1 && a->nvalues != *n) {
			fprintf(stderr, "uscc-ref: attribute '%s' has %d values for %d vertices\n",
				a->name, a->nvalues, *n);
			return false;
		}
		if (ir_func_find_input(f, a->name) < 0)
			fprintf(stderr, "uscc-ref: warning: the shader does not read attribute '%s'\n",
				a->name);
	}
	return true;
}

struct vresults {
	float (*val)[4];   /* [vertex * noutputs + output] */
	bool *written;     /* same index */
};

static bool run_group(const struct ref_opts *o, const struct ir_func *f,
		      const struct run_textures *tex, const float (*uni)[4], int nvert,
		      int group, struct vresults *r)
{
	size_t nin = f->ninputs > 0 ? (size_t)f->ninputs : 1;
	float (*ins)[4][4] = calloc(nin, sizeof *ins);
	const float (**in_ptrs)[4] = calloc(nin, sizeof *in_ptrs);
	struct arena *arena = arena_create(&mem_default_allocator);
	bool ok = ins && in_ptrs && arena;
	if (!ok)
		fprintf(stderr, "uscc-ref: out of memory\n");
	for (int i = 0; ok && i < f->ninputs; i++)
		in_ptrs[i] = (const float (*)[4])ins[i];
	for (int v0 = 0; ok && v0 < nvert; v0 += 4) {
		struct ir_interp_env env = { .inputs = in_ptrs, .uniform_values = uni,
					     .textures = tex->img, .ntextures = RUN_UNITS };
		for (int p = 0; p < 4; p++) {
			env.covered[p] = v0 + p < nvert;
			for (int i = 0; i < f->ninputs; i++)
				attrib_value(o, f->inputs[i].name, env.covered[p] ? v0 + p : 0,
					     ins[i][p]);
		}
		struct diag_sink diag;
		struct ir_interp_result res;
		diag_init(&diag, arena);
		if (!ir_interp_quad(f, &env, &res, &diag)) {
			fprintf(stderr, "%s: error: interpreting vertices %d.. failed\n%s", o->run.file,
				v0, diag_render(&diag));
			ok = false;
			break;
		}
		for (int p = 0; p < 4 && v0 + p < nvert; p++)
			for (int k = 0; k < OUTS_PER_RUN; k++) {
				int out = group * OUTS_PER_RUN + k;
				if (out >= f->noutputs || !res.written[k])
					continue;
				size_t at = (size_t)(v0 + p) * (size_t)f->noutputs + (size_t)out;
				memcpy(r->val[at], res.outputs[k][p], sizeof r->val[at]);
				r->written[at] = true;
			}
	}
	arena_destroy(arena);
	free(ins);
	free(in_ptrs);
	return ok;
}

static void print_results(const struct ir_func *f, int nvert, const struct vresults *r)
{
	for (int v = 0; v < nvert; v++)
		for (int k = 0; k < f->noutputs; k++) {
			size_t at = (size_t)v * (size_t)f->noutputs + (size_t)k;
			if (!r->written[at])
				continue;
			printf("%d %s", v, f->outputs[k].name);
			for (int c = 0; c < f->outputs[k].ncomp && c < 4; c++)
				printf(" %g", r->val[at][c]);
			putchar('\n');
		}
}

int ref_run_vertex(const struct ref_opts *o, const struct ir_func *f)
{
	int nvert;
	if (!vertex_count(o, f, &nvert))
		return 2;
	struct run_textures tex;
	if (!ref_textures_load(&tex, o, f))
		return 2;
	float (*uni)[4] = ref_uniform_values(o, f);
	size_t cells = (size_t)nvert * (size_t)(f->noutputs > 0 ? f->noutputs : 1);
	struct vresults r = { calloc(cells, sizeof *r.val), calloc(cells, sizeof *r.written) };
	struct out_instrs outs = { 0 };
	ir_foreach_instr((struct ir_func *)f, note_output, &outs);
	int status = 1;
	if (!uni || !r.val || !r.written) {
		fprintf(stderr, "uscc-ref: out of memory\n");
		status = 2;
	} else {
		int groups = (f->noutputs + OUTS_PER_RUN - 1) / OUTS_PER_RUN;
		bool ok = true;
		for (int g = 0; ok && g < groups; g++) {
			select_group(&outs, g);
			ok = run_group(o, f, &tex, (const float (*)[4])uni, nvert, g, &r);
		}
		select_group(&outs, 0);
		for (int k = 0; k < outs.n; k++)
			outs.instr[k]->index = outs.index[k];
		if (ok) {
			print_results(f, nvert, &r);
			status = 0;
		}
	}
	free(outs.instr);
	free(outs.index);
	free(r.val);
	free(r.written);
	free(uni);
	run_textures_free(&tex);
	return status;
}
