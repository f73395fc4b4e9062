/* The base of the lowering: building blocks every lower*.c file uses and
 * that use none of them (lower_base.h). */
#include "lower_base.h"

#include <stdarg.h>
#include <string.h>

/* --- the start --- */

bool lower_begin(struct lower *l, struct fe_ctx *fe, enum ir_stage stage, struct src_loc loc)
{
	memset(l, 0, sizeof *l);
	l->fe = fe;
	l->f = ir_func_create(fe->arena, stage);
	if (!l->f)
		return false;
	l->f->id_budget = (uint32_t)fe->limits.v[LIMIT_IR_INSTRUCTIONS];
	ir_builder_init(&l->b, l->f);
	l->b.loc = loc;
	const float zero[4] = { 0, 0, 0, 0 };
	l->zero = ir_build_const(&l->b, 4, IR_FLOAT, zero);
	l->falsev = ir_build_const(&l->b, 4, IR_BOOL, zero);
	const float one[4] = { 1, 1, 1, 1 };
	l->truev = ir_build_const(&l->b, 4, IR_BOOL, one);
	return true;
}

/* --- errors --- */

void lower_refuse(struct lower *l, struct src_loc loc, const char *fmt, ...)
{
	l->failed = true;
	if (l->quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(l->fe->diag, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
}

struct lv lower_refuse_lv(struct lower *l, struct ast_node *e, const char *what)
{
	lower_refuse(l, e->loc, "%s is not supported yet", what);
	return lower_zero(l, glsl_is_basic(e->ty) ? e->ty : &glsl_type_float);
}

/* --- values --- */

struct lv lv_of(struct ir_instr *def)
{
	struct lv v;
	memset(&v, 0, sizeof v);
	if (!def)
		return v;
	v.col[0] = ir_src_of(def);
	v.ncols = 1;
	v.rows = def->ncomp;
	v.base = def->base;
	return v;
}

struct lv lv_scalar(struct ir_instr *def, int comp)
{
	struct lv v = lv_of(def);
	if (def)
		v.col[0] = ir_src_comp(def, comp);
	v.rows = 1;
	return v;
}

struct ir_src lv_comp(const struct lv *v, int col, int comp)
{
	struct ir_src s = v->col[col];
	uint8_t c = s.swz[comp];
	for (int i = 0; i < 4; i++)
		s.swz[i] = c;
	return s;
}

struct ir_src lv_bcast(const struct lv *v, int n)
{
	(void)n;
	if (v->rows == 1)
		return lv_comp(v, 0, 0);
	return v->col[0];
}

struct ir_instr *lv_build(struct lower *l, enum ir_op op, int n, int nsrc, const struct ir_src *s)
{
	enum ir_base base = IR_FLOAT;
	if (ir_op_infos[op].flags & IRF_BOOL)
		base = IR_BOOL;
	else if ((op == IR_OP_MOV || op == IR_OP_VEC || op == IR_OP_PHI) && s[0].def)
		base = (enum ir_base)s[0].def->base;
	else if (op == IR_OP_SELECT && s[1].def)
		base = (enum ir_base)s[1].def->base;
	struct ir_instr *in = ir_build(&l->b, op, n, base, nsrc, s);
	if (!in)
		l->failed = true;
	return in;
}

struct lv lv_vec(struct lower *l, struct ir_src *comps, int n)
{
	if (n == 1) {
		struct lv v;
		memset(&v, 0, sizeof v);
		v.col[0] = comps[0];
		v.ncols = v.rows = 1;
		v.base = comps[0].def ? comps[0].def->base : IR_FLOAT;
		return v;
	}
	struct ir_instr *in = lv_build(l, IR_OP_VEC, n, n, comps);
	return lv_of(in);
}

static enum ir_base base_of(const struct glsl_type *t)
{
	return t->base == GLSL_BOOL ? IR_BOOL : IR_FLOAT;
}

struct lv lower_const(struct lower *l, const struct glsl_type *t, const float *vals)
{
	struct lv v;
	memset(&v, 0, sizeof v);
	v.ncols = t->cols ? t->cols : 1;
	v.rows = t->rows ? t->rows : 1;
	v.base = (uint8_t)base_of(t);
	for (int c = 0; c < v.ncols && c < 4; c++) {
		float x[4] = { 0, 0, 0, 0 };
		for (int r = 0; r < v.rows && r < 4; r++)
			x[r] = vals ? vals[c * v.rows + r] : 0;
		struct ir_instr *in = ir_build_const(&l->b, v.rows, (enum ir_base)v.base, x);
		if (!in) {
			l->failed = true;
			return v;
		}
		v.col[c] = ir_src_of(in);
	}
	return v;
}

/* The value of a variable never assigned: zero (GLSL leaves it undefined). */
struct lv lower_zero(struct lower *l, const struct glsl_type *t)
{
	struct lv v;
	memset(&v, 0, sizeof v);
	v.ncols = t->cols ? t->cols : 1;
	v.rows = t->rows ? t->rows : 1;
	v.base = (uint8_t)base_of(t);
	struct ir_instr *z = v.base == IR_BOOL ? l->falsev : l->zero;
	for (int c = 0; c < v.ncols && c < 4; c++) {
		v.col[c] = ir_src_of(z);
		for (int i = 0; i < 4; i++)
			v.col[c].swz[i] = (uint8_t)(i < v.rows ? i : 0);
	}
	return v;
}

/* The marker constants sit at the top of the function, beside the zeros,
 * so that they dominate every use; made the first time an array needs
 * them, so that programs without local arrays keep their IR. */
static struct ir_instr *undef_const(struct lower *l, int base)
{
	if (!l->undef[base] && l->falsev) {
		const float zero[4] = { 0, 0, 0, 0 };
		struct ir_instr *c = ir_build_const(&l->b, 4, base == IR_BOOL ? IR_BOOL : IR_FLOAT, zero);
		if (c) {
			ir_instr_remove(c);
			ir_instr_insert_before(l->falsev, c);
		}
		l->undef[base] = c;
	}
	return l->undef[base];
}

struct lv lower_undef(struct lower *l, const struct glsl_type *t)
{
	struct lv v = lower_zero(l, t);
	struct ir_instr *u = undef_const(l, v.base == IR_BOOL);
	for (int c = 0; u && c < v.ncols && c < 4; c++)
		v.col[c].def = u;
	return v;
}

bool lower_is_undef(const struct lower *l, const struct lv *v)
{
	const struct ir_instr *u = l->undef[v->base == IR_BOOL];
	if (!u)
		return false;
	for (int c = 0; c < v->ncols; c++)
		if (v->col[c].def != u)
			return false;
	return true;
}

bool lv_same(const struct lv *a, const struct lv *b)
{
	if (a->ncols != b->ncols || a->rows != b->rows || a->base != b->base)
		return false;
	for (int c = 0; c < a->ncols; c++)
		if (a->col[c].def != b->col[c].def ||
		    memcmp(a->col[c].swz, b->col[c].swz, sizeof a->col[c].swz) != 0)
			return false;
	return true;
}

void lower_select_dynamic(struct lower *l, const struct lv *dyn, const struct lv *cands, int n,
			  int width, struct lv *out)
{
	if (n < 1)
		return;
	memcpy(out, cands + (size_t)(n - 1) * (size_t)width, sizeof *out * (size_t)width);
	for (int k = n - 2; k >= 0 && !l->failed; k--) {
		const struct lv *c = cands + (size_t)k * (size_t)width;
		bool same = true;
		for (int i = 0; i < width && same; i++)
			same = lv_same(&c[i], &out[i]);
		if (same)
			continue;
		struct ir_src is = lower_index_is(l, dyn, k);
		for (int i = 0; i < width; i++)
			out[i] = lower_select_lv(l, is, &c[i], &out[i]);
	}
}

struct lv lower_bool(struct lower *l, bool b)
{
	if (b && !l->truev) {
		float one[4] = { 1, 1, 1, 1 };
		return lower_const(l, &glsl_type_bool, one);
	}
	return lv_scalar(b ? l->truev : l->falsev, 0);
}

bool lower_lv_known(const struct lv *v, bool *val)
{
	const struct ir_instr *d = v->col[0].def;
	if (!d || d->op != IR_OP_CONST)
		return false;
	*val = d->imm[v->col[0].swz[0] & 3] != 0;
	return true;
}

struct ir_instr *lower_not(struct lower *l, const struct lv *c)
{
	struct ir_src cs = lv_comp(c, 0, 0);
	return lv_build(l, IR_OP_NOT, 1, 1, &cs);
}

int lower_index_int(float v)
{
	return v >= -2147483648.0f && v < 2147483648.0f ? (int)v : -1;
}

/* Non-constant indexes of what is not a uniform: a compare/select chain
 * over the candidates (the R500 has no relative addressing of temps
 * outside loops). */
struct ir_src lower_index_is(struct lower *l, const struct lv *dyn, int k)
{
	struct ir_src s[2] = { lv_comp(dyn, 0, 0), ir_src_comp(ir_build_constf(&l->b, (float)k), 0) };
	struct ir_instr *eq = lv_build(l, IR_OP_EQ, 1, 2, s);
	return eq ? ir_src_comp(eq, 0) : s[0];
}

struct lv lower_select_lv(struct lower *l, struct ir_src cond, const struct lv *a,
			   const struct lv *b)
{
	struct lv r = *a;
	for (int c = 0; c < a->ncols; c++) {
		struct ir_src s[3] = { cond, a->col[c], b->col[c] };
		struct ir_instr *in = lv_build(l, IR_OP_SELECT, a->rows, 3, s);
		if (in)
			r.col[c] = ir_src_of(in);
	}
	return r;
}

/* --- leaves ---
 *
 * Aggregates (structs and arrays) are flattened into leaves: the scalars,
 * vectors and matrices they hold, in declaration order, array elements
 * in order.  A variable's value is one lv per leaf; a uniform struct is one
 * uniform table entry per basic member (or array of basic members), named
 * by its path ("light.color", "lights[1].dir"), as ir.h asks; a uniform
 * array of structs indexed by a non-constant is one entry per member
 * path of its structs ("lights[].dir", member-major), when no other array
 * is on the path (else one per member of each struct, as above). */

bool lower_is_agg(const struct glsl_type *t)
{
	return t->base == GLSL_ARRAY || t->base == GLSL_STRUCT;
}

int lower_leaf_count(const struct glsl_type *t)
{
	if (t->base == GLSL_ARRAY)
		return t->length * lower_leaf_count(t->elem);
	if (t->base == GLSL_STRUCT) {
		int n = 0;
		for (int i = 0; i < t->nfields; i++)
			n += lower_leaf_count(t->fields[i].type);
		return n;
	}
	return 1;
}

const struct glsl_type *lower_leaf_type(const struct glsl_type *t, int leaf)
{
	while (lower_is_agg(t)) {
		if (t->base == GLSL_ARRAY) {
			int per = lower_leaf_count(t->elem);
			leaf = per ? leaf % per : 0;
			t = t->elem;
			continue;
		}
		int i = 0;
		for (; i < t->nfields; i++) {
			int n = lower_leaf_count(t->fields[i].type);
			if (leaf < n)
				break;
			leaf -= n;
		}
		if (i == t->nfields)
			return &glsl_type_float;
		t = t->fields[i].type;
	}
	return t;
}

/* A uniform array of structs indexed by a non-constant: its members are
 * laid out member-major (ir_uniform.member_major). */
static bool is_struct_array_indexed(const struct sema_symbol *sym)
{
	const struct glsl_type *t = sym->type;
	return sym->dyn_indexed && t->base == GLSL_ARRAY && t->length > 0 &&
	       t->elem->base == GLSL_STRUCT && lower_leaf_count(t->elem) > 0;
}

/* A uniform array of matrices indexed by a non-constant: column-major
 * (ir_uniform.member_major with no member path, "m[]"), so that every
 * column is read at the index itself, as a member of a struct array is. */
static bool is_matrix_array_indexed(const struct sema_symbol *sym)
{
	const struct glsl_type *t = sym->type;
	return sym->dyn_indexed && t->base == GLSL_ARRAY && t->length > 0 &&
	       glsl_is_basic(t->elem) && t->elem->cols > 1;
}

void lower_uniform_leaf(struct lower *l, const struct sema_symbol *sym, int leaf,
			struct uniform_entry *out)
{
	const struct glsl_type *t = sym->type;
	const char *path = sym->name;
	int k0 = 0, per0 = 1, arrays = 0;
	size_t member_at = 0; /* where the path goes on after the first index */
	for (;;) {
		if (t->base == GLSL_ARRAY && !lower_is_agg(t->elem))
			break; /* an array of basic members is one entry */
		if (t->base == GLSL_ARRAY) {
			int per = lower_leaf_count(t->elem);
			int k = per ? leaf / per : 0;
			if (!arrays++) {
				k0 = k;
				per0 = per;
			}
			path = arena_printf(l->f->arena, "%s[%d]", path, k);
			if (arrays == 1 && path)
				member_at = strlen(path);
			leaf -= k * per;
			t = t->elem;
		} else if (t->base == GLSL_STRUCT) {
			int i = 0;
			for (; i + 1 < t->nfields; i++) {
				int n = lower_leaf_count(t->fields[i].type);
				if (leaf < n)
					break;
				leaf -= n;
			}
			path = arena_printf(l->f->arena, "%s.%s", path, t->fields[i].name);
			t = t->fields[i].type;
		} else {
			break;
		}
	}
	*out = (struct uniform_entry){ path, t, t->base == GLSL_ARRAY ? leaf : 0, 1, false, 0, 0 };
	/* one array on the way, the symbol's own, and a basic member (or an
	 * array of them) at the end: member-major, "lights[].pos" holding
	 * every lights[k].pos, "lights[].w" every lights[k].w[e] */
	bool inner = arrays == 1 && t->base == GLSL_ARRAY && t->length > 0 && glsl_is_basic(t->elem);
	if (arrays == 1 && (glsl_is_basic(t) || inner) && is_struct_array_indexed(sym) && path) {
		out->name = arena_printf(l->f->arena, "%s[]%s", sym->name, path + member_at);
		out->type = glsl_type_array(l->f->arena, inner ? t->elem : t, sym->type->length);
		out->elem = k0;
		out->stride = per0;
		out->member_major = true;
		out->inner_len = inner ? t->length : 0;
		out->inner = inner ? leaf : 0;
	} else if (arrays == 0 && t == sym->type && is_matrix_array_indexed(sym) && path) {
		out->name = arena_printf(l->f->arena, "%s[]", sym->name);
		out->member_major = out->name != NULL;
		if (!out->name)
			out->name = path;
	}
}

const char *lower_sampler_name(struct lower *l, const struct sema_symbol *sym, int leaf)
{
	struct uniform_entry u;
	lower_uniform_leaf(l, sym, leaf, &u);
	if (u.type->base == GLSL_ARRAY)
		return arena_printf(l->f->arena, "%s[%d]", u.name, u.elem);
	return u.name;
}

/* The variable and first leaf an expression names, when it is a path of
 * members and constant indexes from a variable. */
bool lower_path(const struct ast_node *e, struct sema_symbol **sym, int *leaf)
{
	if (e->kind == AST_IDENT) {
		*sym = e->sym;
		*leaf = 0;
		return e->sym != NULL;
	}
	if (e->kind == AST_FIELD && !e->nswz) {
		if (!lower_path(e->kid[0], sym, leaf))
			return false;
		const struct glsl_type *st = e->kid[0]->ty;
		for (int i = 0; i < e->field && i < st->nfields; i++)
			*leaf += lower_leaf_count(st->fields[i].type);
		return true;
	}
	if (e->kind == AST_INDEX && e->kid[0]->ty->base == GLSL_ARRAY && e->kid[1]->cval) {
		int k = lower_index_int(e->kid[1]->cval->v[0]);
		if (k < 0 || k >= e->kid[0]->ty->length || !lower_path(e->kid[0], sym, leaf))
			return false;
		*leaf += k * lower_leaf_count(e->kid[0]->ty->elem);
		return true;
	}
	return false;
}

/* --- variables --- */

/* A local array indexed by a non-constant: IR arrays hold its elements
 * when every leaf of an element is a scalar, a vector or a matrix (no
 * sampler: a parameter bound to a uniform's). */
bool lower_is_memory_array(const struct sema_symbol *sym)
{
	const struct glsl_type *t = sym->type;
	if (!sym->dyn_indexed || t->base != GLSL_ARRAY || t->length <= 0 || sym->builtin != SEMA_VAR_USER ||
	    sym->cval || (sym->storage != AST_STORAGE_NONE && !sym->is_param))
		return false;
	int per = lower_leaf_count(t->elem);
	for (int j = 0; j < per; j++)
		if (!glsl_is_basic(lower_leaf_type(t->elem, j)))
			return false;
	return per > 0;
}

static int ncols_of(const struct glsl_type *t)
{
	return t->cols ? t->cols : 1;
}

/* The first IR array, counted from lvar.array, of leaf j of an element. */
static int leaf_slot(const struct glsl_type *elem, int j)
{
	int slot = 0;
	for (int i = 0; i < j; i++)
		slot += ncols_of(lower_leaf_type(elem, i));
	return slot;
}

/* The dump name of the IR array of column col of leaf j of var's
 * elements: "a" for an array of scalars or vectors, else the path from
 * an element, "s[].p", "s[].c[1]", "m[][2]". */
static const char *slot_name(struct lower *l, const char *var, const struct glsl_type *t, int j,
			     int col)
{
	if (glsl_is_scalar(t) || glsl_is_vector(t))
		return var;
	const char *path = arena_printf(l->f->arena, "%s[]", var);
	while (path && lower_is_agg(t)) {
		int i = 0, per = t->base == GLSL_ARRAY ? lower_leaf_count(t->elem) : 0;
		if (t->base == GLSL_ARRAY) {
			i = per ? j / per : 0;
			j -= i * per;
			path = arena_printf(l->f->arena, "%s[%d]", path, i);
			t = t->elem;
			continue;
		}
		for (; i + 1 < t->nfields && j >= lower_leaf_count(t->fields[i].type); i++)
			j -= lower_leaf_count(t->fields[i].type);
		path = arena_printf(l->f->arena, "%s.%s", path, t->fields[i].name);
		t = t->fields[i].type;
	}
	if (path && glsl_is_matrix(t))
		path = arena_printf(l->f->arena, "%s[%d]", path, col);
	return path;
}

/* The IR arrays of a variable lower_is_memory_array accepts: the first. */
static int add_arrays(struct lower *l, struct lvar *v)
{
	const struct glsl_type *t = v->sym->type;
	int first = -1;
	for (int j = 0; j < v->per; j++) {
		const struct glsl_type *lt = lower_leaf_type(t->elem, j);
		struct lv z = lower_zero(l, lt);
		for (int c = 0; c < ncols_of(lt); c++) {
			const char *name = slot_name(l, v->sym->name, t->elem, j, c);
			int a = name ? ir_func_add_array(l->f, name, t->length, z.rows, (enum ir_base)z.base) : -1;
			if (a < 0)
				return -1;
			if (first < 0)
				first = a;
		}
	}
	return first;
}

struct lvar *lower_var(struct lower *l, struct sema_symbol *sym)
{
	if (sym->lower_data)
		return sym->lower_data;
	const struct glsl_type *t = sym->type;
	struct lvar *v = arena_alloc(l->f->arena, sizeof *v);
	int n = lower_leaf_count(t);
	if (!v || n <= 0)
		return NULL;
	v->sym = sym;
	v->nelems = n;
	v->elems = arena_alloc(l->f->arena, sizeof *v->elems * (size_t)n);
	if (!v->elems)
		return NULL;
	for (int i = 0; i < n; i++)
		v->elems[i] = t->base == GLSL_ARRAY ? lower_undef(l, lower_leaf_type(t, i))
						    : lower_zero(l, lower_leaf_type(t, i));
	v->array = -1;
	if (lower_is_memory_array(sym)) {
		v->per = lower_leaf_count(t->elem);
		v->array = add_arrays(l, v);
		if (v->array < 0)
			return NULL;
	}
	if (l->nvars == l->capvars) {
		int ncap = l->capvars ? l->capvars * 2 : 32;
		struct lvar **nv = arena_realloc(l->f->arena, l->vars, sizeof *nv * (size_t)l->capvars,
						 sizeof *nv * (size_t)ncap);
		if (!nv)
			return NULL;
		l->vars = nv;
		l->capvars = ncap;
	}
	l->vars[l->nvars++] = v;
	sym->lower_data = v;
	return v;
}

/* A variable of the lowering's own (no GLSL name can reach it). */
struct sema_symbol *lower_temp(struct lower *l, const char *name, const struct glsl_type *t)
{
	struct sema_symbol *s = arena_alloc(l->f->arena, sizeof *s);
	if (!s) {
		l->failed = true;
		return NULL;
	}
	memset(s, 0, sizeof *s);
	s->name = name;
	s->type = t;
	if (!lower_var(l, s)) {
		l->failed = true;
		return NULL;
	}
	return s;
}

const struct ir_cf *lower_current_loop(const struct lower *l)
{
	const struct ir_cf *cf = l->b.parent;
	while (cf && cf->kind != IR_CF_LOOP)
		cf = cf->parent;
	return cf;
}

/* A LOAD (value NULL) or STORE of element `elem` (+ dyn) of IR array
 * `array`. */
static struct ir_instr *array_access(struct lower *l, int array, int elem, const struct lv *dyn,
				     const struct ir_src *value)
{
	const struct ir_array *a = &l->f->arrays[array];
	struct ir_src s[2];
	int n = 0;
	if (value)
		s[n++] = *value;
	if (dyn)
		s[n++] = lv_comp(dyn, 0, 0);
	struct ir_instr *in = ir_build(&l->b, value ? IR_OP_STORE : IR_OP_LOAD, value ? 0 : a->ncomp,
				       (enum ir_base)a->base, n, s);
	if (!in) {
		l->failed = true;
		return NULL;
	}
	in->index = array;
	in->offset = elem;
	return in;
}

/* Is `s` what a LOAD of element `elem` (+ dyn) of `array` gave, with no
 * STORE into that array since (in this block)?  Storing it back changes
 * nothing (a column of a matrix written alone, a member of a struct). */
static bool just_loaded(const struct lower *l, const struct ir_src *s, int array, int elem,
			const struct lv *dyn, int ncomp)
{
	const struct ir_instr *ld = s->def;
	if (!ld || ld->op != IR_OP_LOAD || ld->index != array || ld->offset != elem ||
	    ld->block != l->b.block || ld->nsrc != (dyn ? 1 : 0) || !ir_swz_identity(s, ncomp))
		return false;
	struct ir_src ix = dyn ? lv_comp(dyn, 0, 0) : *s;
	if (dyn && !ir_src_same(&ld->src[0], &ix, 1))
		return false;
	for (const struct ir_instr *in = ld->next; in; in = in->next)
		if (in->op == IR_OP_STORE && in->index == array)
			return false;
	return true;
}

/* Stores leaf `leaf` (element leaf / per, + dyn) of IR-array variable v:
 * one STORE per column, but none of a column that holds what it held. */
static void store_leaf(struct lower *l, const struct lvar *v, int leaf, const struct lv *dyn,
		       const struct lv *val)
{
	int slot = v->array + leaf_slot(v->sym->type->elem, leaf % v->per), elem = leaf / v->per;
	for (int c = 0; c < val->ncols && !l->failed; c++) {
		struct ir_src s = val->rows == 1 ? lv_comp(val, 0, 0) : val->col[c];
		if (!just_loaded(l, &s, slot + c, elem, dyn, val->rows))
			array_access(l, slot + c, elem, dyn, &s);
	}
}

void lower_var_get(struct lower *l, struct lvar *v, int first, int n, const struct lv *dyn,
		   struct lv *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = v->elems[first + i]; /* the leaf's shape */
		if (v->array < 0)
			continue;
		int leaf = first + i;
		int slot = v->array + leaf_slot(v->sym->type->elem, leaf % v->per);
		for (int c = 0; c < out[i].ncols; c++) {
			struct ir_instr *ld = array_access(l, slot + c, leaf / v->per, dyn, NULL);
			if (ld)
				out[i].col[c] = ir_src_of(ld);
		}
	}
}

static void mark_assigned(struct lower *l, struct lvar *v, int leaf)
{
	if (v->array >= 0)
		v->elems[leaf] = lower_zero(l, lower_leaf_type(v->sym->type, leaf));
	if (leaf < 64)
		v->written_elems |= 1ull << leaf;
}

void lower_var_set(struct lower *l, struct lvar *v, int first, int n, const struct lv *dyn,
		   const struct lv *vals)
{
	v->written = true;
	bool fill = dyn && v->declared && v->loop == lower_current_loop(l);
	for (int i = 0; i < n; i++) {
		int leaf = first + i;
		if (v->array < 0) {
			v->elems[leaf] = vals[i];
			mark_assigned(l, v, leaf);
			continue;
		}
		if (!dyn) {
			store_leaf(l, v, leaf, NULL, &vals[i]);
			mark_assigned(l, v, leaf);
			continue;
		}
		/* the same leaf of every element the index may name */
		bool needs_dyn = !fill;
		for (int k = leaf % v->per; k < v->nelems; k += v->per) {
			if (fill && lower_is_undef(l, &v->elems[k]))
				store_leaf(l, v, k, NULL, &vals[i]);
			else
				needs_dyn = true;
			mark_assigned(l, v, k);
		}
		if (needs_dyn)
			store_leaf(l, v, leaf, dyn, &vals[i]);
	}
}
