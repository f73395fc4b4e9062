/* Semantic analysis: scopes, declarations, statements and functions.
 * Expressions are in sema_expr.c.  Errors are reported once: an expression
 * already diagnosed has the error type, which every check accepts quietly. */
#include "sema_int.h"

#include <stdarg.h>
#include <string.h>

void sema_err(struct sema *s, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(s->fe->diag, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

const char *sema_tname(struct sema *s, const struct glsl_type *t)
{
	return glsl_type_name(s->a, t);
}

struct sema_entry *sema_lookup(struct sema *s, const char *name)
{
	for (struct sema_scope *sc = s->scope; sc; sc = sc->up) {
		struct sema_entry *e = name_map_get(&sc->names, name);
		if (e)
			return e;
	}
	return NULL;
}

void sema_scope_add(struct sema *s, struct sema_entry *e)
{
	e->next = s->scope->first;
	s->scope->first = e;
	name_map_put(&s->scope->names, s->a, e->name, e);
}

static struct sema_entry *lookup_here(struct sema *s, const char *name)
{
	return name_map_get(&s->scope->names, name);
}

void sema_push(struct sema *s)
{
	struct sema_scope *sc = arena_alloc(s->a, sizeof *sc);
	if (!sc)
		return;
	sc->up = s->scope;
	sc->float_precision = s->float_precision;
	sc->float_prec = s->float_prec;
	sc->int_prec = s->int_prec;
	s->scope = sc;
}

/* A precision statement ends with its scope (ES 1.00 4.5.3). */
void sema_pop(struct sema *s)
{
	if (s->scope->up) {
		s->float_precision = s->scope->float_precision;
		s->float_prec = s->scope->float_prec;
		s->int_prec = s->scope->int_prec;
		s->scope = s->scope->up;
	}
}

static struct sema_entry *add_entry(struct sema *s, const char *name)
{
	struct sema_entry *e = arena_alloc(s->a, sizeof *e);
	if (!e)
		return NULL;
	e->name = name;
	sema_scope_add(s, e);
	return e;
}

static void add_global(struct sema *s, struct sema_symbol *v)
{
	struct sema_program *p = s->prog;
	if (p->nglobals == p->capglobals) {
		int ncap = p->capglobals ? p->capglobals * 2 : 16;
		struct sema_symbol **t = arena_realloc(s->a, p->globals, sizeof *t * (size_t)p->capglobals,
						       sizeof *t * (size_t)ncap);
		if (!t)
			return;
		p->globals = t;
		p->capglobals = ncap;
	}
	p->globals[p->nglobals++] = v;
}

static void declare_builtin(void *ud, struct sema_symbol *v)
{
	struct sema *s = ud;
	struct sema_entry *e = add_entry(s, v->name);
	if (e)
		e->var = v;
	add_global(s, v);
}

static void declare_builtin_type(void *ud, const struct glsl_type *t)
{
	struct sema *s = ud;
	struct sema_entry *e = add_entry(s, t->name);
	if (e)
		e->type = t;
}

/* --- types --- */

/* The struct's name becomes a type in the current scope (an error type
 * stands in for a struct that failed, so its uses say nothing more). */
static void declare_struct_name(struct sema *s, struct ast_struct *st)
{
	if (!st->name)
		return;
	struct sema_entry *old = lookup_here(s, st->name);
	if (old) {
		sema_err(s, st->loc, "'%s' redeclared", st->name);
	} else {
		struct sema_entry *e = add_entry(s, st->name);
		if (e)
			e->type = st->type;
	}
}

static const struct glsl_type *resolve_struct(struct sema *s, struct ast_struct *st)
{
	if (st->type)
		return st->type;
	int n = 0;
	for (struct ast_node *m = st->members; m; m = m->next)
		for (struct ast_node *d = m->kid[0]; d; d = d->next)
			n++;
	const struct limits *lim = &s->fe->limits;
	if (n > lim->v[LIMIT_STRUCT_FIELDS]) {
		limit_error(s->fe->diag, st->loc, lim, LIMIT_STRUCT_FIELDS, n);
		st->type = &glsl_type_error;
		declare_struct_name(s, st);
		return st->type;
	}
	struct glsl_field *f = arena_alloc(s->a, sizeof *f * (size_t)(n ? n : 1));
	struct glsl_type *t = arena_alloc(s->a, sizeof *t);
	if (!f || !t)
		return &glsl_type_error;
	int k = 0, depth = 1;
	bool bad = false;
	if (st->name && strncmp(st->name, "gl_", 3) == 0)
		sema_err(s, st->loc, "names beginning with 'gl_' are reserved: '%s'", st->name);
	for (struct ast_node *m = st->members; m; m = m->next) {
		if (m->type && m->type->struct_def) {
			sema_err(s, m->loc, "a struct cannot be defined inside another struct");
			bad = true;
		}
		const struct glsl_type *mt = sema_resolve_type(s, m->type);
		if (m->type && (m->type->storage || m->type->invariant || m->type->centroid)) {
			sema_err(s, m->loc, "struct members cannot have storage qualifiers");
			bad = true;
		}
		for (struct ast_node *d = m->kid[0]; d; d = d->next) {
			const struct glsl_type *dt = mt;
			if (d->is_array && mt->base == GLSL_ARRAY) {
				sema_err(s, d->loc, "arrays of arrays are not allowed");
				bad = true;
			} else if (d->is_array) {
				int len = d->kid[0] ? sema_const_int(s, d->kid[0]) : -1;
				if (len < 0 && !d->kid[0])
					sema_err(s, d->loc, "struct member arrays need a size");
				dt = len > 0 ? glsl_type_array(s->a, mt, len) : &glsl_type_error;
			}
			/* samplers may be members: such a struct is only a uniform
			 * or an `in` parameter (checked where it is used) */
			if (mt->base == GLSL_VOID) {
				sema_err(s, d->loc, "struct member '%s' cannot be %s", d->name,
					 sema_tname(s, mt));
				bad = true;
			}
			for (int j = 0; j < k; j++)
				if (strcmp(f[j].name, d->name) == 0) {
					sema_err(s, d->loc, "duplicate struct member '%s'", d->name);
					bad = true;
				}
			f[k].name = d->name;
			f[k].type = dt;
			k++;
			const struct glsl_type *ft = dt->base == GLSL_ARRAY ? dt->elem : dt;
			if (ft->base == GLSL_STRUCT && ft->struct_depth + 1 > depth)
				depth = ft->struct_depth + 1;
		}
	}
	if (depth > lim->v[LIMIT_STRUCT_DEPTH]) {
		limit_error(s->fe->diag, st->loc, lim, LIMIT_STRUCT_DEPTH, depth);
		bad = true;
	}
	t->base = GLSL_STRUCT;
	t->cols = t->rows = 1;
	t->name = st->name ? st->name : "<anonymous struct>";
	t->fields = f;
	t->nfields = k;
	t->struct_depth = depth;
	st->type = bad ? &glsl_type_error : t;
	declare_struct_name(s, st);
	return st->type;
}

const struct glsl_type *sema_resolve_type(struct sema *s, struct ast_type *t)
{
	if (!t)
		return &glsl_type_error;
	const struct glsl_type *r;
	if (t->builtin) {
		r = t->builtin;
	} else if (t->struct_def) {
		if (t->precision)
			sema_err(s, t->loc, "a precision qualifier cannot apply to a struct");
		r = resolve_struct(s, t->struct_def);
	} else {
		struct sema_entry *e = sema_lookup(s, t->type_name);
		if (!e || !e->type) {
			if (!s->fe->after_syntax_errors)
				sema_err(s, t->loc, "'%s' is not a type", t->type_name);
			return &glsl_type_error;
		}
		r = e->type;
	}
	if (s->fe->es && !t->precision && !s->float_precision && r->base == GLSL_FLOAT &&
	    s->fe->stage == GLSL_STAGE_FRAGMENT && !s->constructing) {
		/* ES: fragment shaders have no default float precision */
		sema_err(s, t->loc, "no precision given for '%s' and no default float precision",
			 r->name);
		s->float_precision = true; /* say it once */
	}
	if (t->precision && r->base != GLSL_FLOAT && r->base != GLSL_INT && r->base != GLSL_SAMPLER &&
	    r->base != GLSL_ERROR && !t->struct_def) {
		sema_err(s, t->loc, "a precision qualifier cannot apply to '%s'", r->name);
		return &glsl_type_error;
	}
	if (t->is_array && r->base != GLSL_ERROR) {
		/* ES 1.00's grammar has `type [size]` too (not unsized) */
		if (s->fe->version < 120 && !(s->fe->es && t->array_size)) {
			sema_err(s, t->loc, "array types need GLSL 1.20");
			return &glsl_type_error;
		}
		int len = 0;
		if (t->array_size) {
			len = sema_const_int(s, t->array_size);
			if (len < 0)
				return &glsl_type_error;
		}
		r = glsl_type_array(s->a, r, len);
	}
	return r;
}

/* --- declarations --- */

static bool storage_allowed(struct sema *s, struct ast_node *decl, const struct glsl_type *t,
			    bool global)
{
	struct ast_type *q = decl->type;
	const char *what = NULL;
	if (q->storage_twice)
		what = "more than one storage qualifier";
	else if (q->storage == AST_STORAGE_IN || q->storage == AST_STORAGE_OUT ||
		 q->storage == AST_STORAGE_INOUT)
		what = "'in'/'out' outside a parameter list (GLSL 1.30)";
	else if (!global && (q->storage == AST_STORAGE_UNIFORM || q->storage == AST_STORAGE_VARYING ||
			     q->storage == AST_STORAGE_ATTRIBUTE))
		what = "uniform, varying or attribute inside a function";
	else if (q->storage == AST_STORAGE_ATTRIBUTE && s->fe->stage == GLSL_STAGE_FRAGMENT)
		what = "an attribute in a fragment shader";
	else if ((q->storage == AST_STORAGE_VARYING || q->storage == AST_STORAGE_ATTRIBUTE) &&
		 t->base != GLSL_ERROR &&
		 ((t->base == GLSL_ARRAY ? t->elem : t)->base != GLSL_FLOAT ||
		  (q->storage == AST_STORAGE_ATTRIBUTE && t->base == GLSL_ARRAY)))
		what = "a varying or attribute that is not float, vector or matrix";
	else if (t->base == GLSL_SAMPLER && q->storage != AST_STORAGE_UNIFORM)
		what = "a sampler that is not a uniform";
	else if (t->base == GLSL_ARRAY && t->elem->base == GLSL_SAMPLER &&
		 q->storage != AST_STORAGE_UNIFORM)
		what = "a sampler that is not a uniform";
	else if (glsl_has_sampler(t) && q->storage != AST_STORAGE_UNIFORM && decl->kid[0])
		what = "a struct holding a sampler that is not a uniform";
	else if (q->centroid && q->storage != AST_STORAGE_VARYING)
		what = "'centroid' on something that is not a varying";
	else if (q->invariant && (q->storage != AST_STORAGE_VARYING || !global))
		what = "'invariant' on something that is not a varying";
	else if (t->base == GLSL_VOID)
		what = "a variable of type void";
	if (what) {
		sema_err(s, decl->loc, "%s is not allowed", what);
		return false;
	}
	return true;
}

static void declare_var(struct sema *s, struct ast_node *decl, struct ast_node *d,
			const struct glsl_type *base_t, bool global)
{
	const struct glsl_type *t = base_t;
	if (d->is_array && t->base != GLSL_ERROR) {
		int len = 0;
		if (t->base == GLSL_ARRAY) {
			sema_err(s, d->loc, "arrays of arrays are not allowed");
			t = &glsl_type_error;
		} else if (d->kid[0]) {
			len = sema_const_int(s, d->kid[0]);
			if (len < 0)
				t = &glsl_type_error;
		}
		if (t->base != GLSL_ERROR)
			t = glsl_type_array(s->a, t, len);
	}
	struct ast_node *init = d->kid[1];
	const struct glsl_type *it = init ? sema_expr(s, init) : NULL;
	enum ast_storage st = decl->type->storage;
	if (init && it->base != GLSL_ERROR && t->base != GLSL_ERROR) {
		if (t->base == GLSL_ARRAY && t->length == 0 && it->base == GLSL_ARRAY &&
		    glsl_type_equal(t->elem, it->elem))
			t = it; /* sized by its initializer (1.20) */
		if ((st == AST_STORAGE_UNIFORM && (s->fe->version < 120 || s->fe->es)) ||
		    st == AST_STORAGE_VARYING || st == AST_STORAGE_ATTRIBUTE) {
			sema_err(s, init->loc, "%s variables cannot have initializers",
				 st == AST_STORAGE_UNIFORM ? "uniform" : st == AST_STORAGE_VARYING
				 ? "varying" : "attribute");
		} else if (!sema_converts(s, it, t)) {
			sema_err(s, init->loc, "cannot initialize %s '%s' with %s", sema_tname(s, t),
				 d->name, sema_tname(s, it));
		} else if ((st == AST_STORAGE_CONST || st == AST_STORAGE_UNIFORM) && !init->cval &&
			   t->base != GLSL_ARRAY && t->base != GLSL_STRUCT) {
			sema_err(s, init->loc, "initializer of %s '%s' is not a constant expression",
				 st == AST_STORAGE_CONST ? "const" : "uniform", d->name);
		}
	}
	if (st == AST_STORAGE_CONST && !init)
		sema_err(s, d->loc, "const '%s' needs an initializer", d->name);
	if (global && s->fe->es && init && !init->cval && it && it->base != GLSL_ERROR &&
	    st == AST_STORAGE_NONE)
		sema_err(s, init->loc, "global initializers must be constant expressions in GLSL ES");
	bool unsized = t->base == GLSL_ARRAY && t->length == 0;
	if (unsized && (s->fe->es || st == AST_STORAGE_CONST)) {
		sema_err(s, d->loc, "array '%s' needs a size", d->name);
		t = &glsl_type_error;
		unsized = false;
	}
	if (strncmp(d->name, "gl_", 3) == 0) {
		struct sema_entry *bi = sema_lookup(s, d->name);
		/* gl_TexCoord may be redeclared with an explicit size (GLSL 1.10 7.6) */
		if (strcmp(d->name, "gl_TexCoord") == 0 && bi && bi->var && global &&
		    t->base == GLSL_ARRAY && t->length > 0 && t->length <= 8 &&
		    glsl_type_equal(t->elem, glsl_type_vec(GLSL_FLOAT, 4)) &&
		    st == AST_STORAGE_VARYING && !init) {
			bi->var->type = t;
			d->sym = bi->var;
			return;
		}
		sema_err(s, d->loc, "names beginning with 'gl_' are reserved: '%s'", d->name);
		return;
	}
	struct sema_entry *old = lookup_here(s, d->name);
	if (old && old->var && old->var->type->base == GLSL_ARRAY && old->var->type->length == 0 &&
	    t->base == GLSL_ARRAY && t->length > 0 && glsl_type_equal(old->var->type->elem, t->elem) &&
	    old->var->storage == st) {
		/* GLSL 1.20: an unsized array redeclared with its size */
		if (old->var->max_index >= t->length)
			sema_err(s, d->loc, "array '%s' is smaller than an index already used (%d)",
				 d->name, old->var->max_index);
		/* in place: the expressions checked so far share the type */
		((struct glsl_type *)old->var->type)->length = t->length;
		d->sym = old->var;
		d->ty = old->var->type;
		return;
	}
	if (old && !(old->var && old->var->type->base == GLSL_ERROR && !old->var->loc.file)) {
		sema_err(s, d->loc, "'%s' redeclared in the same scope", d->name);
		return;
	}
	struct sema_symbol *v = arena_alloc(s->a, sizeof *v);
	struct sema_entry *e = add_entry(s, d->name);
	if (!v || !e)
		return;
	v->name = d->name;
	/* an unsized array gets a type of its own, sized in place later (its
	 * redeclaration, or its largest index), so that every expression
	 * checked meanwhile sees the final size */
	if (unsized)
		t = glsl_type_array(s->a, t->elem, 0);
	v->type = t;
	v->storage = st;
	v->loc = d->loc;
	v->invariant = decl->type->invariant;
	v->centroid = decl->type->centroid;
	if (st == AST_STORAGE_CONST && init && init->cval)
		v->cval = init->cval;
	if (st == AST_STORAGE_UNIFORM)
		v->init = init;
	e->var = v;
	d->sym = v;
	d->ty = t;
	v->max_index = -1;
	if (global)
		add_global(s, v);
	if (unsized) {
		/* grown only when full: each unsized array doubling it took
		 * 2^n slots for n of them */
		if (s->nunsized == s->capunsized) {
			struct sema_symbol **nu =
				arena_realloc(s->a, s->unsized, sizeof *nu * (size_t)s->capunsized,
					      sizeof *nu * (size_t)(s->capunsized * 2 + 4));
			if (!nu)
				return;
			s->unsized = nu;
			s->capunsized = s->capunsized * 2 + 4;
		}
		s->unsized[s->nunsized++] = v;
	}
}

static void check_decl(struct sema *s, struct ast_node *decl, bool global)
{
	const struct glsl_type *t = sema_resolve_type(s, decl->type);
	if (!storage_allowed(s, decl, t, global))
		t = &glsl_type_error;
	for (struct ast_node *d = decl->kid[0]; d; d = d->next)
		declare_var(s, decl, d, t, global);
}

static void check_precision(struct sema *s, struct ast_node *n)
{
	const struct glsl_type *t = n->type ? n->type->builtin : NULL;
	if (!t || !(t == &glsl_type_float || t == &glsl_type_int ||
		    (t->base == GLSL_SAMPLER && (t->target == 1 || t->target == 3)))) {
		sema_err(s, n->loc, "precision statements apply to float, int and sampler types only");
		return;
	}
	if (t == &glsl_type_float) {
		s->float_precision = true;
		s->float_prec = n->type->precision;
	} else if (t == &glsl_type_int) {
		s->int_prec = n->type->precision;
	}
}

/* --- statements --- */

static void check_stmt(struct sema *s, struct ast_node *n);

static void check_cond(struct sema *s, struct ast_node *c, const char *what)
{
	if (!c)
		return;
	if (c->kind == AST_DECL) {
		check_decl(s, c, false);
		if (c->kid[0] && c->kid[0]->sym && c->kid[0]->sym->type != &glsl_type_bool &&
		    c->kid[0]->sym->type->base != GLSL_ERROR)
			sema_err(s, c->loc, "the condition of %s must be a bool", what);
		return;
	}
	const struct glsl_type *t = sema_expr(s, c);
	if (t->base != GLSL_ERROR && t != &glsl_type_bool)
		sema_err(s, c->loc, "the condition of %s must be a bool, not %s", what,
			 sema_tname(s, t));
}

static void check_block(struct sema *s, struct ast_node *first, bool new_scope)
{
	if (new_scope)
		sema_push(s);
	for (struct ast_node *n = first; n; n = n->next)
		check_stmt(s, n);
	if (new_scope)
		sema_pop(s);
}

/* A statement that is its own scope (bodies of if/loops). */
static void check_sub(struct sema *s, struct ast_node *n)
{
	if (!n)
		return;
	sema_push(s);
	if (n->kind == AST_BLOCK)
		check_block(s, n->kid[0], false);
	else
		check_stmt(s, n);
	sema_pop(s);
}

static void check_stmt_kind(struct sema *s, struct ast_node *n);

/* Statement nesting is bounded (LIMIT_BLOCK_DEPTH): every later stage
 * recurses over it too. */
static void check_stmt(struct sema *s, struct ast_node *n)
{
	if (!n)
		return;
	const struct limits *lim = &s->fe->limits;
	if (s->stmt_depth >= lim->v[LIMIT_BLOCK_DEPTH]) {
		if (!s->over_limit)
			limit_error(s->fe->diag, n->loc, lim, LIMIT_BLOCK_DEPTH, s->stmt_depth + 1);
		s->over_limit = true;
		return;
	}
	s->stmt_depth++;
	check_stmt_kind(s, n);
	s->stmt_depth--;
}

static void check_stmt_kind(struct sema *s, struct ast_node *n)
{
	switch (n->kind) {
	case AST_BLOCK:
		check_block(s, n->kid[0], true);
		break;
	case AST_DECL:
		check_decl(s, n, false);
		break;
	case AST_EXPR_STMT:
		if (n->kid[0])
			sema_expr(s, n->kid[0]);
		break;
	case AST_IF:
		check_cond(s, n->kid[0], "'if'");
		check_sub(s, n->kid[1]);
		check_sub(s, n->kid[2]);
		break;
	case AST_FOR:
		sema_push(s);
		if (n->kid[0] && n->kid[0]->kind != AST_DECL && n->kid[0]->kind != AST_EXPR_STMT)
			sema_err(s, n->kid[0]->loc, "a for loop starts with a declaration or expression");
		else
			check_stmt(s, n->kid[0]);
		check_cond(s, n->kid[1], "'for'");
		if (n->kid[2])
			sema_expr(s, n->kid[2]);
		s->loops++;
		check_sub(s, n->kid[3]);
		s->loops--;
		sema_pop(s);
		break;
	case AST_WHILE:
		sema_push(s);
		check_cond(s, n->kid[0], "'while'");
		s->loops++;
		check_sub(s, n->kid[1]);
		s->loops--;
		sema_pop(s);
		break;
	case AST_DO:
		s->loops++;
		check_sub(s, n->kid[0]);
		s->loops--;
		check_cond(s, n->kid[1], "'do-while'");
		break;
	case AST_BREAK:
	case AST_CONTINUE:
		if (!s->loops)
			sema_err(s, n->loc, "'%s' outside a loop",
				 n->kind == AST_BREAK ? "break" : "continue");
		break;
	case AST_RETURN: {
		const struct glsl_type *want = s->cur_fn ? s->cur_fn->ret : &glsl_type_void;
		if (n->kid[0]) {
			const struct glsl_type *t = sema_expr(s, n->kid[0]);
			if (t->base == GLSL_VOID)
				sema_err(s, n->loc, "cannot return a void value");
			else if (t->base != GLSL_ERROR && want->base != GLSL_ERROR && !sema_converts(s, t, want))
				sema_err(s, n->loc, "returning %s from a function returning %s",
					 sema_tname(s, t), sema_tname(s, want));
		} else if (want->base != GLSL_VOID && want->base != GLSL_ERROR) {
			sema_err(s, n->loc, "a function returning %s must return a value",
				 sema_tname(s, want));
		}
		break;
	}
	case AST_DISCARD:
		if (s->fe->stage != GLSL_STAGE_FRAGMENT)
			sema_err(s, n->loc, "'discard' is only allowed in fragment shaders");
		break;
	case AST_PRECISION:
		check_precision(s, n);
		break;
	case AST_FUNCTION:
		sema_err(s, n->loc, "functions cannot be declared inside functions");
		break;
	default:
		sema_err(s, n->loc, "invariant declarations are only allowed at global scope");
		break;
	}
}

/* --- functions --- */

static struct sema_function *make_function(struct sema *s, struct ast_node *n)
{
	struct sema_function *f = arena_alloc(s->a, sizeof *f);
	if (!f)
		return NULL;
	f->name = n->name;
	f->loc = n->loc;
	f->ret = sema_resolve_type(s, n->type);
	if (n->type && n->type->storage)
		sema_err(s, n->loc, "a function's return type cannot have a storage qualifier");
	f->ret_prec = n->type ? n->type->precision : AST_PREC_NONE;
	if (!f->ret_prec) {
		const struct glsl_type *b = f->ret->base == GLSL_ARRAY ? f->ret->elem : f->ret;
		f->ret_prec = b->base == GLSL_FLOAT ? s->float_prec : b->base == GLSL_INT ? s->int_prec : 0;
	}
	if (f->ret->base == GLSL_SAMPLER)
		sema_err(s, n->loc, "a function cannot return a sampler");
	else if (glsl_has_sampler(f->ret))
		sema_err(s, n->loc, "a function cannot return a struct holding a sampler");
	if (f->ret->base == GLSL_ARRAY && f->ret->length == 0)
		sema_err(s, n->loc, "a function cannot return an array of unknown size");
	int np = 0;
	for (struct ast_node *p = n->kid[0]; p; p = p->next)
		np++;
	/* f(void) has no parameters */
	if (np == 1 && !n->kid[0]->name && n->kid[0]->type && n->kid[0]->type->builtin == &glsl_type_void)
		np = 0;
	f->params = arena_alloc(s->a, sizeof *f->params * (size_t)(np ? np : 1));
	if (!f->params)
		return NULL;
	f->nparams = np;
	int k = 0;
	for (struct ast_node *p = n->kid[0]; p && k < np; p = p->next, k++) {
		struct sema_param *sp = &f->params[k];
		struct ast_type *q = p->type;
		const struct glsl_type *t = sema_resolve_type(s, q);
		if (t->base == GLSL_VOID) {
			sema_err(s, p->loc, "a parameter cannot be void");
			t = &glsl_type_error;
		}
		if (p->is_array && t->base == GLSL_ARRAY) {
			sema_err(s, p->loc, "arrays of arrays are not allowed");
			t = &glsl_type_error;
		} else if (p->is_array && t->base != GLSL_ERROR) {
			int len = sema_const_int(s, p->kid[0]);
			t = len > 0 ? glsl_type_array(s->a, t, len) : &glsl_type_error;
		}
		sp->name = p->name;
		sp->type = t;
		sp->qual = AST_STORAGE_IN;
		if (q) {
			if (q->storage == AST_STORAGE_CONST)
				sp->is_const = true;
			else if (q->storage == AST_STORAGE_OUT || q->storage == AST_STORAGE_INOUT ||
				 q->storage == AST_STORAGE_IN)
				sp->qual = q->storage;
			else if (q->storage)
				sema_err(s, p->loc, "invalid qualifier on a parameter");
			if (q->storage_twice && q->storage == AST_STORAGE_IN)
				sp->is_const = true; /* const in */
		}
		if (glsl_has_sampler(t) && sp->qual != AST_STORAGE_IN)
			sema_err(s, p->loc, "sampler parameters must be 'in'");
		if (q && q->storage_twice && (q->storage == AST_STORAGE_OUT || q->storage == AST_STORAGE_INOUT))
			sema_err(s, p->loc, "'const' cannot be combined with 'out' or 'inout'");
		if (p->is_array && sp->qual != AST_STORAGE_IN && !s->fe->es && s->fe->version < 120)
			sema_err(s, p->loc, "array parameters cannot be 'out' or 'inout' in GLSL 1.10");
	}
	return f;
}

static bool same_params(const struct sema_function *a, const struct sema_function *b)
{
	if (a->nparams != b->nparams)
		return false;
	for (int i = 0; i < a->nparams; i++)
		if (!glsl_type_equal(a->params[i].type, b->params[i].type))
			return false;
	return true;
}

static void check_function(struct sema *s, struct ast_node *n)
{
	struct sema_function *f = make_function(s, n);
	if (!f)
		return;
	if (strncmp(n->name, "gl_", 3) == 0)
		sema_err(s, n->loc, "names beginning with 'gl_' are reserved: '%s'", n->name);
	if (s->fe->es && sema_bi_exists(s->fe, n->name))
		sema_err(s, n->loc, "built-in function '%s' cannot be redeclared in GLSL ES", n->name);
	struct sema_entry *e = lookup_here(s, n->name);
	if (e && !e->fn) {
		sema_err(s, n->loc, "'%s' redeclared as a function", n->name);
		return;
	}
	struct sema_function *prev = NULL;
	for (struct sema_function *o = e ? e->fn : NULL; o; o = o->next_overload)
		if (same_params(o, f))
			prev = o;
	if (prev) {
		if (!glsl_type_equal(prev->ret, f->ret) && prev->ret->base != GLSL_ERROR)
			sema_err(s, n->loc, "'%s' redeclared with a different return type", n->name);
		else if (s->fe->es && prev->ret_prec != f->ret_prec)
			sema_err(s, n->loc, "'%s' redeclared with a different return precision", n->name);
		/* ES 1.00 4.2.7: a prototype is declared once in a scope */
		if (s->fe->es && !prev->def && !n->kid[1])
			sema_err(s, n->loc, "function '%s' is already declared", n->name);
		if (prev->def && n->kid[1]) {
			sema_err(s, n->loc, "function '%s' redefined", n->name);
			return;
		}
		for (int i = 0; i < f->nparams; i++)
			if (prev->params[i].qual != f->params[i].qual)
				sema_err(s, n->loc, "'%s' redeclared with different parameter qualifiers",
					 n->name);
		f = prev;
		if (n->kid[1]) {
			/* the definition's parameter names are the ones the body uses */
			struct sema_function *nf = make_function(s, n);
			if (nf)
				for (int i = 0; i < f->nparams; i++)
					f->params[i].name = nf->params[i].name;
		}
	} else {
		if (!e)
			e = add_entry(s, n->name);
		if (!e)
			return;
		f->next_overload = e->fn;
		e->fn = f;
	}
	if (strcmp(n->name, "main") == 0) {
		if (f->nparams || f->ret != &glsl_type_void)
			sema_err(s, n->loc, "'main' must be 'void main()'");
		else if (n->kid[1])
			s->prog->main = f;
	}
	if (!n->kid[1])
		return;
	f->def = n;
	n->fn = f;
	s->cur_fn = f;
	sema_push(s);
	for (int i = 0; i < f->nparams; i++) {
		struct sema_param *p = &f->params[i];
		if (!p->name)
			continue;
		struct sema_symbol *v = arena_alloc(s->a, sizeof *v);
		struct sema_entry *pe = lookup_here(s, p->name) ? NULL : add_entry(s, p->name);
		if (!v)
			continue;
		if (!pe)
			sema_err(s, n->loc, "parameter '%s' declared twice", p->name);
		v->name = p->name;
		v->type = p->type;
		v->is_param = true;
		v->storage = p->is_const ? AST_STORAGE_CONST : AST_STORAGE_NONE;
		v->loc = n->loc;
		p->sym = v;
		if (pe)
			pe->var = v;
	}
	/* the body shares the parameters' scope (GLSL 1.20 section 6.1) */
	check_block(s, n->kid[1]->kid[0], false);
	sema_pop(s);
	s->cur_fn = NULL;
}

/* Recursion, even through other functions, is an error (GLSL 6.1). */
static bool find_recursion(struct sema *s, struct sema_function *f)
{
	if (f->checked)
		return false; /* explored before: the call graph below is acyclic */
	if (f->visiting) {
		if (!f->recursive)
			sema_err(s, f->loc, "function '%s' is recursive", f->name);
		f->recursive = true;
		return true;
	}
	f->visiting = true;
	bool r = false;
	for (int i = 0; i < f->ncalls && !r; i++)
		r = find_recursion(s, f->calls[i]);
	f->visiting = false;
	f->recursive |= r; /* one report per cycle */
	f->checked = !r;
	return r;
}

bool sema_check(struct fe_ctx *fe, struct ast_node *unit, struct sema_program *prog)
{
	struct sema s;
	memset(&s, 0, sizeof s);
	memset(prog, 0, sizeof *prog);
	s.fe = fe;
	s.a = fe->arena;
	s.prog = prog;
	prog->unit = unit;
	int errors0 = fe->diag->errors;
	sema_push(&s);
	if (s.scope) /* the built-ins' table sized once: growing it was a tenth of a small compile */
		name_map_reserve(&s.scope->names, s.a, sema_builtins_max());
	sema_declare_builtins(fe, declare_builtin, declare_builtin_type, &s);
	sema_push(&s); /* user globals may hide built-ins */
	s.globals = s.scope;
	if (!fe->es || fe->stage == GLSL_STAGE_VERTEX)
		s.float_precision = true;
	/* ES 1.00 4.5.3: the predeclared default precisions */
	s.float_prec = fe->stage == GLSL_STAGE_VERTEX ? AST_PREC_HIGH : AST_PREC_NONE;
	s.int_prec = fe->stage == GLSL_STAGE_VERTEX ? AST_PREC_HIGH : AST_PREC_MEDIUM;
	for (struct ast_node *n = unit; n; n = n->next) {
		switch (n->kind) {
		case AST_FUNCTION:
			check_function(&s, n);
			break;
		case AST_DECL:
			check_decl(&s, n, true);
			break;
		case AST_PRECISION:
			check_precision(&s, n);
			break;
		case AST_INVARIANT:
			for (struct ast_node *i = n->kid[0]; i; i = i->next) {
				struct sema_entry *e = sema_lookup(&s, i->name);
				if (!e || !e->var)
					sema_err(&s, i->loc, "'%s' undeclared", i->name);
				else
					e->var->invariant = true;
			}
			break;
		default:
			sema_err(&s, n->loc, "statement outside a function");
			break;
		}
	}
	/* arrays never given a size take it from their largest index */
	for (int i = 0; i < s.nunsized; i++) {
		struct sema_symbol *v = s.unsized[i];
		if (v->type->base == GLSL_ARRAY && v->type->length == 0 && v->max_index >= 0)
			((struct glsl_type *)v->type)->length = v->max_index + 1;
		else if (v->type->base == GLSL_ARRAY && v->type->length == 0)
			v->type = &glsl_type_error;
	}
	for (struct sema_entry *e = s.globals->first; e; e = e->next)
		for (struct sema_function *f = e->fn; f; f = f->next_overload)
			if (!f->recursive)
				find_recursion(&s, f);
	return fe->diag->errors == errors0 && !arena_failed(fe->arena);
}
