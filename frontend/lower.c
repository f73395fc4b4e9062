/* Lowering of the program: statements (their dispatch, declarations and
 * if; loops, jumps and calls have files of their own), then the program's
 * samplers, global initializers and outputs around main's body.
 * Variables are not memory: each holds its current SSA value (struct lv),
 * and an if joins the two sides' values with PHIs. */
#include "lower_int.h"

#include <stdio.h>
#include <string.h>

/* --- statements --- */

static void lower_decl(struct lower *l, struct ast_node *decl)
{
	for (struct ast_node *d = decl->kid[0]; d && !l->failed; d = d->next) {
		if (!d->sym)
			continue;
		const struct glsl_type *t = d->sym->type;
		struct lvar *v = d->sym->lower_data;
		if (v && v->hoisted) {
			v->hoisted = false; /* made before an `if (alive)` (lower_list) */
		} else {
			d->sym->lower_data = NULL; /* a fresh variable each time it is declared */
			v = lower_var(l, d->sym);
		}
		if (!v)
			return;
		v->declared = true;
		v->loop = lower_current_loop(l);
		if (d->kid[1] && v->array >= 0) {
			struct lv *init = arena_alloc(l->f->arena, sizeof *init * (size_t)v->nelems);
			if (!init) {
				l->failed = true;
				return;
			}
			lower_agg(l, d->kid[1], init);
			lower_var_set(l, v, 0, v->nelems, NULL, init);
		} else if (d->kid[1] && lower_is_agg(t))
			lower_agg(l, d->kid[1], v->elems);
		else if (d->kid[1])
			v->elems[0] = lower_expr(l, d->kid[1]);
	}
}

static void lower_if(struct lower *l, struct ast_node *n)
{
	struct lv c = lower_expr(l, n->kid[0]);
	if (l->failed)
		return;
	lower_branch(l, lv_comp(&c, 0, 0), lower_stmt_arm, n->kid[1], n->kid[2] ? lower_stmt_arm : NULL,
		     n->kid[2]);
}

void lower_stmt(struct lower *l, struct ast_node *n)
{
	if (!n || l->failed)
		return;
	if (++l->depth > 500) {
		lower_refuse(l, n->loc, "statements nested too deeply");
		return;
	}
	/* Inlining and unrolling multiply code: past this many IR instructions a
	 * shader cannot fit the hardware anyway, and stopping keeps hostile input
	 * (a chain of functions each calling the next twice) from running away. */
	const struct limits *lim = &l->fe->limits;
	if (l->f->next_id > lim->v[LIMIT_IR_INSTRUCTIONS]) {
		if (!l->quiet)
			limit_error(l->fe->diag, n->loc, lim, LIMIT_IR_INSTRUCTIONS, l->f->next_id);
		l->failed = true;
		return;
	}
	l->b.loc = n->loc;
	switch (n->kind) {
	case AST_BLOCK: {
		int nv = l->nvars;
		lower_list(l, n->kid[0]);
		/* the block's own variables are gone: no PHI may join them later */
		l->nvars = nv;
		break;
	}
	case AST_DECL:
		lower_decl(l, n);
		break;
	case AST_EXPR_STMT:
		if (n->kid[0])
			lower_effect(l, n->kid[0]);
		break;
	case AST_IF:
		lower_if(l, n);
		break;
	case AST_FOR:
	case AST_WHILE:
	case AST_DO:
		lower_loop(l, n);
		break;
	case AST_BREAK:
	case AST_CONTINUE:
		lower_jump(l, n);
		break;
	case AST_RETURN:
		lower_return(l, n);
		break;
	case AST_DISCARD:
		if (!ir_build(&l->b, IR_OP_DISCARD, 0, IR_FLOAT, 0, NULL))
			l->failed = true;
		break;
	default:
		break;
	}
	l->depth--;
}

/* --- the program --- */

/* Samplers take texture units in declaration order: each sampler leaf of
 * a uniform (a sampler, a sampler array's elements "s[0]" "s[1]" ..., the
 * samplers in a uniform struct "light.shadow") is one unit. */
static void add_samplers(struct lower *l, const struct sema_program *prog)
{
	for (int i = 0; i < prog->nglobals; i++) {
		struct sema_symbol *s = prog->globals[i];
		if (s->uses <= 0 || s->storage != AST_STORAGE_UNIFORM || !glsl_has_sampler(s->type))
			continue;
		int n = lower_leaf_count(s->type);
		for (int k = 0; k < n; k++) {
			const struct glsl_type *t = lower_leaf_type(s->type, k);
			if (t->base == GLSL_SAMPLER)
				ir_func_add_sampler(l->f, lower_sampler_name(l, s, k), t->target, t->shadow);
		}
	}
}

static void init_globals(struct lower *l, const struct sema_program *prog)
{
	/* global initializers run at the start of main, in order */
	for (struct ast_node *n = prog->unit; n && !l->failed; n = n->next) {
		if (n->kind != AST_DECL || !n->type)
			continue;
		enum ast_storage st = n->type->storage;
		if (st == AST_STORAGE_NONE || st == AST_STORAGE_CONST)
			lower_decl(l, n);
	}
}

static void emit_output(struct lower *l, struct sema_symbol *sym, const char *name, int target,
			int elem, int col, int ncomp)
{
	struct lvar *v = sym->lower_data;
	if (!v || !v->written || elem >= v->nelems || (elem < 64 && !(v->written_elems >> elem & 1)))
		return;
	int idx = ir_func_add_output(l->f, name, target, ncomp);
	struct ir_src s = v->elems[elem].col[col];
	struct ir_instr *out = ir_build(&l->b, IR_OP_OUTPUT, 0, IR_FLOAT, 1, &s);
	if (!out || idx < 0) {
		l->failed = true;
		return;
	}
	out->index = idx;
}

static void emit_outputs(struct lower *l, const struct sema_program *prog)
{
	struct sema_symbol *color = NULL, *data = NULL;
	for (int i = 0; i < prog->nglobals; i++) {
		struct sema_symbol *s = prog->globals[i];
		struct lvar *v = s->lower_data;
		if (!v || !v->written)
			continue;
		if (s->builtin == SEMA_VAR_FRAGCOLOR)
			color = s;
		else if (s->builtin == SEMA_VAR_FRAGDATA)
			data = s;
	}
	l->b.loc = fe_loc(l->fe, prog->main->def->loc.line, prog->main->def->loc.col);
	if (color && data) {
		lower_refuse(l, prog->main->loc, "a shader cannot write both gl_FragColor and gl_FragData");
		return;
	}
	if (color)
		emit_output(l, color, "gl_FragColor", 0, 0, 0, 4);
	if (data) {
		struct lvar *v = data->lower_data;
		for (int e = 0; e < v->nelems; e++) {
			char name[32];
			snprintf(name, sizeof name, "gl_FragData[%d]", e);
			emit_output(l, data, name, e, e, 0, 4);
		}
	}
	for (int i = 0; i < prog->nglobals; i++)
		if (prog->globals[i]->builtin == SEMA_VAR_FRAGDEPTH)
			emit_output(l, prog->globals[i], "gl_FragDepth", -1, 0, 0, 1);
}

/* Vertex shaders (lowered for the interpreter): every written varying
 * and output built-in is an output, named as in GLSL. */
static void emit_vertex_outputs(struct lower *l, const struct sema_program *prog)
{
	int target = 0;
	for (int i = 0; i < prog->nglobals && !l->failed; i++) {
		struct sema_symbol *s = prog->globals[i];
		if (s->storage != AST_STORAGE_VARYING &&
		    !(s->builtin == SEMA_VAR_VERTEX && !s->read_only))
			continue;
		const struct glsl_type *et = s->type->base == GLSL_ARRAY ? s->type->elem : s->type;
		int n = s->type->base == GLSL_ARRAY ? s->type->length : 1;
		for (int e = 0; e < n; e++) {
			const char *name = s->type->base == GLSL_ARRAY
						   ? arena_printf(l->f->arena, "%s[%d]", s->name, e)
						   : s->name;
			if (!glsl_is_matrix(et)) {
				emit_output(l, s, name, target++, e, 0, et->rows);
				continue;
			}
			/* a matrix varying: one output per column, as the fragment side reads */
			for (int c = 0; c < et->cols; c++)
				emit_output(l, s, arena_printf(l->f->arena, "%s[%d]", name, c), target++, e, c,
					    et->rows);
		}
	}
}

struct ir_func *lower_program(struct fe_ctx *fe, const struct sema_program *prog)
{
	struct lower l;
	if (!prog->main || !prog->main->def) {
		/* a compile-only check (glsl_check) accepts this; a program needs it */
		diag_error(fe->diag, fe_loc(fe, 0, 0), "no definition of 'void main()'");
		return NULL;
	}
	for (int i = 0; i < prog->nglobals; i++)
		prog->globals[i]->lower_data = NULL;
	if (!lower_begin(&l, fe, fe->stage == GLSL_STAGE_VERTEX ? IR_STAGE_VERTEX : IR_STAGE_FRAGMENT,
			 prog->main->def->loc))
		return NULL;
	add_samplers(&l, prog);
	init_globals(&l, prog);
	/* outputs exist from the start, so that an if or a loop that writes
	 * them joins their values like any variable's */
	for (int i = 0; i < prog->nglobals; i++) {
		struct sema_symbol *s = prog->globals[i];
		enum sema_builtin_var k = s->builtin;
		if (k == SEMA_VAR_FRAGCOLOR || k == SEMA_VAR_FRAGDATA || k == SEMA_VAR_FRAGDEPTH ||
		    (k == SEMA_VAR_VERTEX && !s->read_only) ||
		    (fe->stage == GLSL_STAGE_VERTEX && s->storage == AST_STORAGE_VARYING))
			lower_var(&l, s);
	}
	struct lv unused = lower_zero(&l, &glsl_type_float);
	lower_function_body(&l, prog->main->def->kid[1], &glsl_type_void, &unused);
	if (!l.failed && fe->stage == GLSL_STAGE_FRAGMENT)
		emit_outputs(&l, prog);
	else if (!l.failed)
		emit_vertex_outputs(&l, prog);
	if (l.failed || arena_failed(fe->arena)) {
		if (!fe->diag->errors)
			diag_error(fe->diag, fe_loc(fe, 0, 0), "out of memory");
		return NULL;
	}
	return l.f;
}
