/* Reads: variables (their current SSA values, or LOADs of IR arrays:
 * lower_var; paths into them: lower_mem_path), inputs, uniforms (with
 * their initializers) and samplers, and index values.  A non-constant
 * index of what is neither a uniform nor an IR array becomes a
 * compare/select chain over the candidates. */
#include "lower_int.h"

#include <string.h>

static const struct glsl_type *elem_type(const struct glsl_type *t)
{
	return t->base == GLSL_ARRAY ? t->elem : t;
}

/* vec4 slots a uniform takes: one per matrix column per element */
static int var_nvec4(const struct glsl_type *t)
{
	const struct glsl_type *et = elem_type(t);
	return et->cols * (t->base == GLSL_ARRAY ? t->length : 1);
}

static struct lv load_input(struct lower *l, const char *name, const struct glsl_type *t)
{
	int idx = ir_func_find_input(l->f, name);
	if (idx < 0)
		idx = ir_func_add_input(l->f, name, t->rows);
	struct ir_instr *in = ir_build(&l->b, IR_OP_INPUT, t->rows, IR_FLOAT, 0, NULL);
	if (!in || idx < 0) {
		l->failed = true;
		return lower_zero(l, t);
	}
	in->index = idx;
	return lv_of(in);
}

/* GLSL 1.20 4.3.5: an initializer is the value a uniform holds until the
 * application sets one (glLinkProgram uploads it).  The table entry `idx`
 * holding leaves first, first + stride, ... of `sym` (one per element of
 * the entry; inner_len in a row from each for a member-major member
 * array) gets it in ir_uniform.init, at ir_uniform_element's place for
 * column e * cols + c of element k, rows past the type's 0. */
static void uniform_init(struct lower *l, const struct sema_symbol *sym, int first,
			 const struct uniform_entry *entry, int idx)
{
	int nleaves = lower_leaf_count(sym->type);
	const struct glsl_type *et = elem_type(entry->type);
	int count = entry->type->base == GLSL_ARRAY ? entry->type->length : 1;
	int inner = entry->inner_len > 0 ? entry->inner_len : 1;
	float (*leaves)[4][4] = arena_alloc(l->f->arena, sizeof *leaves * (size_t)nleaves);
	float (*init)[4] = arena_alloc(l->f->arena,
				       sizeof *init * (size_t)(count * inner * et->cols));
	if (!leaves || !init) {
		l->failed = true;
		return;
	}
	if (first < 0 || first + (count - 1) * entry->stride + inner - 1 >= nleaves ||
	    !lower_fold_const_leaves(l->fe, sym->init, leaves, nleaves)) {
		lower_refuse(l, sym->init->loc, "the initializer of uniform '%s' is not a constant "
			     "expression", sym->name);
		return;
	}
	for (int k = 0; k < count; k++)
		for (int e = 0; e < inner; e++)
			for (int c = 0; c < et->cols; c++)
				memcpy(init[ir_uniform_element(&l->f->uniforms[idx], k,
							       e * et->cols + c)],
				       leaves[first + k * entry->stride + e][c], sizeof init[0]);
	if (!ir_func_set_uniform_init(l->f, idx, (const float (*)[4])init))
		l->failed = true;
}

/* The table entry of `entry`, added on its first use. */
static int uniform_index(struct lower *l, const struct sema_symbol *sym, int leaf,
			 const struct uniform_entry *entry)
{
	int idx = ir_func_find_uniform(l->f, entry->name);
	if (idx >= 0)
		return idx;
	const struct glsl_type *t = entry->type, *et = elem_type(t);
	int inner = entry->inner_len > 0 ? entry->inner_len : 1;
	idx = ir_func_add_uniform(l->f, entry->name, et->name, t->base == GLSL_ARRAY ? t->length : 0,
				  var_nvec4(t) * inner, et->rows);
	if (idx < 0)
		return idx;
	l->f->uniforms[idx].member_major = entry->member_major;
	if (sym->init)
		uniform_init(l, sym, leaf - entry->elem * entry->stride - entry->inner, entry, idx);
	return idx;
}

/* Leaf `leaf` of uniform `sym`; with dyn (a non-constant index of the
 * uniform's array), that leaf of element dyn instead of element 0. */
static struct lv load_uniform(struct lower *l, struct sema_symbol *sym, int leaf,
			      const struct lv *dyn)
{
	struct uniform_entry entry;
	lower_uniform_leaf(l, sym, leaf, &entry);
	const struct glsl_type *et = elem_type(entry.type);
	int idx = uniform_index(l, sym, leaf, &entry), elem = entry.elem;
	struct lv v;
	memset(&v, 0, sizeof v);
	v.ncols = et->cols;
	v.rows = et->rows;
	v.base = IR_FLOAT;
	for (int c = 0; c < et->cols; c++) {
		struct ir_src s[1];
		int nsrc = 0;
		if (dyn) {
			struct ir_src i = lv_comp(dyn, 0, 0);
			if (et->cols > 1 && !entry.member_major) {
				/* element index scaled to vec4 slots */
				struct ir_instr *k = ir_build_constf(&l->b, (float)et->cols);
				struct ir_src ks = ir_src_of(k);
				struct ir_src m[2] = { i, ks };
				i = ir_src_of(lv_build(l, IR_OP_MUL, 1, 2, m));
			}
			s[nsrc++] = i;
		}
		struct ir_instr *in = ir_build(&l->b, IR_OP_UNIFORM, et->rows, IR_FLOAT, nsrc, s);
		if (!in || idx < 0) {
			l->failed = true;
			return lower_zero(l, et);
		}
		in->index = idx;
		in->offset = ir_uniform_element(&l->f->uniforms[idx], elem, entry.inner * et->cols + c);
		v.col[c] = ir_src_of(in);
	}
	if (et->base == GLSL_BOOL) {
		/* bool uniforms hold 0.0 or 1.0 */
		struct ir_instr *b = ir_build_alu1(&l->b, IR_OP_F2B, et->rows, v.col[0]);
		v = lv_of(b);
	}
	return v;
}

static const char *builtin_input_name(const struct sema_symbol *s)
{
	switch (s->builtin) {
	case SEMA_VAR_FRAGCOORD: return "gl_FragCoord";
	case SEMA_VAR_POINTCOORD: return "gl_PointCoord";
	default: return s->name;
	}
}

/* Sampler leaf `leaf` of a uniform, as a sampler value (below). */
static struct lv uniform_sampler(struct lower *l, const struct sema_symbol *sym, int leaf)
{
	struct lv s;
	memset(&s, 0, sizeof s);
	s.rows = 0xff;
	int idx = ir_func_find_sampler(l->f, lower_sampler_name(l, sym, leaf));
	if (idx >= 0 && idx < 0xff)
		s.rows = (uint8_t)idx;
	return s;
}

/* Element `dyn` of an array variable that is not a uniform. */
static struct lv load_dynamic(struct lower *l, struct ast_node *e, struct sema_symbol *sym,
			      const struct lv *dyn)
{
	int n = sym->type->length;
	struct lv *cands = arena_alloc(l->f->arena, sizeof *cands * (size_t)(n > 0 ? n : 1));
	struct lv r = lower_load_var(l, e, sym, 0, NULL);
	if (!cands) {
		l->failed = true;
		return r;
	}
	cands[0] = r;
	for (int k = 1; k < n && !l->failed; k++)
		cands[k] = lower_load_var(l, e, sym, k, NULL);
	lower_select_dynamic(l, dyn, cands, n, 1, &r);
	return r;
}

static bool is_memory_index(const struct ast_node *e)
{
	return e->kind == AST_INDEX && e->kid[0]->kind == AST_IDENT && e->kid[0]->sym &&
	       lower_is_memory_array(e->kid[0]->sym);
}

/* The index on a variable held in IR arrays (an element) that `e`,
 * members and indexes of it, starts from, or NULL; *leaf (from 0) gains
 * the leaves the members and constant indexes move, *inner_dyn (from
 * false) says whether an index inside is not constant or names nothing.
 * Nothing is lowered. */
static struct ast_node *mem_root(struct ast_node *e, int *leaf, bool *inner_dyn)
{
	if (is_memory_index(e))
		return e;
	if (e->kind == AST_FIELD && !e->nswz) {
		struct ast_node *r = mem_root(e->kid[0], leaf, inner_dyn);
		const struct glsl_type *st = e->kid[0]->ty;
		for (int i = 0; r && i < e->field && i < st->nfields; i++)
			*leaf += lower_leaf_count(st->fields[i].type);
		return r;
	}
	if (e->kind != AST_INDEX || e->kid[0]->ty->base != GLSL_ARRAY)
		return NULL;
	struct ast_node *r = mem_root(e->kid[0], leaf, inner_dyn);
	int k = e->kid[1]->cval ? lower_index_int(e->kid[1]->cval->v[0]) : -1;
	if (k < 0 || k >= e->kid[0]->ty->length)
		*inner_dyn = true;
	else if (r)
		*leaf += k * lower_leaf_count(e->kid[0]->ty->elem);
	return r;
}

/* The element a root names: its variable, first leaf, and a non-constant
 * index in *dyn (*has_dyn; a constant naming no element is one too: the
 * IR reads the last element and drops the write); the index is lowered. */
static bool mem_element(struct lower *l, struct ast_node *root, struct lvar **v, int *leaf,
			struct lv *dyn, bool *has_dyn)
{
	*v = lower_var(l, root->kid[0]->sym);
	if (!*v) {
		l->failed = true;
		return false;
	}
	int k;
	*leaf = 0;
	*has_dyn = false;
	if (lower_index_value(l, root->kid[1], &k, dyn)) {
		if (k >= 0 && k < root->kid[0]->ty->length) {
			*leaf = k * (*v)->per;
			return true;
		}
		if (root->kid[1]->cval) /* names no element: the IR's rule for it */
			*dyn = lower_const(l, &glsl_type_float, root->kid[1]->cval->v);
	}
	*has_dyn = true;
	return true;
}

bool lower_mem_path(struct lower *l, struct ast_node *e, struct lvar **v, int *leaf, struct lv *dyn,
		    bool *has_dyn)
{
	int inner = 0;
	bool inner_dyn = false;
	struct ast_node *root = mem_root(e, &inner, &inner_dyn);
	if (!root || inner_dyn || !mem_element(l, root, v, leaf, dyn, has_dyn))
		return false;
	*leaf += inner;
	return true;
}

/* The index on a uniform array of structs that `e`, members of an
 * element, starts from, or NULL; *leaf (from 0) gains the leaves the
 * members move.  Nothing is lowered. */
static struct ast_node *uniform_struct_root(struct ast_node *e, int *leaf)
{
	if (e->kind == AST_INDEX && e->kid[1]->cval && e->kid[0]->kind == AST_FIELD) {
		/* a member array's element at a constant: "lights[i].w[1]" */
		const struct glsl_type *at = e->kid[0]->ty;
		int k = lower_index_int(e->kid[1]->cval->v[0]);
		if (!at || at->base != GLSL_ARRAY || k < 0 || k >= at->length)
			return NULL;
		struct ast_node *r = uniform_struct_root(e->kid[0], leaf);
		*leaf += k * lower_leaf_count(at->elem);
		return r;
	}
	if (e->kind == AST_FIELD && !e->nswz) {
		struct ast_node *r = uniform_struct_root(e->kid[0], leaf);
		const struct glsl_type *st = e->kid[0]->ty;
		for (int i = 0; r && i < e->field && i < st->nfields; i++)
			*leaf += lower_leaf_count(st->fields[i].type);
		return r;
	}
	if (e->kind != AST_INDEX || e->kid[0]->kind != AST_IDENT || e->kid[1]->cval)
		return NULL;
	const struct sema_symbol *sym = e->kid[0]->sym;
	bool ok = sym && sym->storage == AST_STORAGE_UNIFORM && sym->type->base == GLSL_ARRAY &&
		  sym->type->elem->base == GLSL_STRUCT;
	return ok ? e : NULL;
}

bool lower_uniform_path(struct lower *l, struct ast_node *e, struct sema_symbol **sym, int *leaf,
			struct lv *dyn, bool *has_dyn)
{
	int inner = 0;
	struct ast_node *root = uniform_struct_root(e, &inner);
	if (!root)
		return false;
	*sym = root->kid[0]->sym;
	int n = lower_is_agg(e->ty) ? lower_leaf_count(e->ty) : 1;
	for (int j = 0; j < n; j++) {
		struct uniform_entry u;
		lower_uniform_leaf(l, *sym, inner + j, &u);
		if (!u.member_major)
			return false;
	}
	int k;
	*leaf = inner;
	*has_dyn = true;
	if (lower_index_value(l, root->kid[1], &k, dyn) && k >= 0 && k < (*sym)->type->length) {
		*leaf += k * lower_leaf_count((*sym)->type->elem);
		*has_dyn = false;
	}
	return true;
}

/* Value of element `elem` of variable `sym` (dyn: non-constant index). */
struct lv lower_load_var(struct lower *l, struct ast_node *e, struct sema_symbol *sym, int elem,
			  const struct lv *dyn)
{
	const struct glsl_type *et = lower_leaf_type(sym->type, elem);
	if (sym->storage == AST_STORAGE_UNIFORM && et->base == GLSL_SAMPLER && !dyn)
		return uniform_sampler(l, sym, elem); /* a struct's sampler passed along */
	if (sym->storage == AST_STORAGE_UNIFORM)
		return load_uniform(l, sym, elem, dyn);
	if (lower_is_memory_array(sym)) {
		struct lvar *v = lower_var(l, sym);
		struct lv r = lower_zero(l, et);
		if (!v || elem < 0 || elem >= v->nelems)
			l->failed = true;
		else
			lower_var_get(l, v, elem, 1, dyn, &r);
		return r;
	}
	if (dyn)
		return load_dynamic(l, e, sym, dyn);
	if (sym->builtin == SEMA_VAR_FRONTFACING) {
		/* the rasterizer delivers 1.0 for front faces, 0.0 for back */
		struct lv f = load_input(l, "gl_FrontFacing", &glsl_type_float);
		return lv_of(ir_build_alu1(&l->b, IR_OP_F2B, 1, lv_comp(&f, 0, 0)));
	}
	bool input = l->fe->stage == GLSL_STAGE_FRAGMENT
			     ? sym->storage == AST_STORAGE_VARYING || sym->builtin == SEMA_VAR_FRAGCOORD ||
				       sym->builtin == SEMA_VAR_POINTCOORD ||
				       sym->builtin == SEMA_VAR_VARYING_IN
			     : sym->storage == AST_STORAGE_ATTRIBUTE ||
				       (sym->builtin == SEMA_VAR_VERTEX && sym->read_only);
	if (input) {
		const char *name = builtin_input_name(sym);
		if (sym->type->base == GLSL_ARRAY)
			name = arena_printf(l->f->arena, "%s[%d]", sym->name, elem);
		if (!glsl_is_matrix(et))
			return load_input(l, name, et);
		/* a matrix varying is one input per column, "m[0]", "m[1]" ... */
		struct lv m;
		memset(&m, 0, sizeof m);
		m.ncols = et->cols;
		m.rows = et->rows;
		m.base = IR_FLOAT;
		const struct glsl_type *col_t = glsl_type_vec(GLSL_FLOAT, et->rows);
		for (int c = 0; c < et->cols; c++)
			m.col[c] = load_input(l, arena_printf(l->f->arena, "%s[%d]", name, c), col_t).col[0];
		return m;
	}
	if (sym->builtin == SEMA_VAR_CONST && sym->cval)
		return lower_const(l, et, sym->cval->v);
	struct lvar *v = lower_var(l, sym);
	if (!v || elem >= v->nelems) {
		l->failed = true;
		return lower_zero(l, et);
	}
	return v->elems[elem];
}

/* An index: constant when sema folded it or when it lowers to a constant
 * (a local variable holding one); otherwise its value in `dyn`. */
bool lower_index_value(struct lower *l, struct ast_node *idx, int *k, struct lv *dyn)
{
	if (idx->cval) {
		*k = lower_index_int(idx->cval->v[0]);
		return true;
	}
	*dyn = lower_expr(l, idx);
	struct ir_instr *d = dyn->col[0].def;
	if (d && d->op == IR_OP_CONST) {
		*k = lower_index_int(d->imm[dyn->col[0].swz[0]]);
		return true;
	}
	return false;
}

/* Like lower_path, with indexes that lower to constants accepted too: the
 * spec wants sampler indexes constant, and these are (a loop counter is
 * not: lower_expr.c's call_each_sampler takes that case). */
static bool sampler_path(struct lower *l, struct ast_node *e, struct sema_symbol **sym, int *leaf)
{
	if (e->kind == AST_IDENT) {
		*sym = e->sym;
		*leaf = 0;
		return e->sym != NULL;
	}
	if (e->kind == AST_FIELD && !e->nswz) {
		if (!sampler_path(l, e->kid[0], sym, leaf))
			return false;
		const struct glsl_type *st = e->kid[0]->ty;
		for (int i = 0; i < e->field && i < st->nfields; i++)
			*leaf += lower_leaf_count(st->fields[i].type);
		return true;
	}
	if (e->kind == AST_INDEX && e->kid[0]->ty->base == GLSL_ARRAY) {
		int k;
		struct lv dyn;
		if (!lower_index_value(l, e->kid[1], &k, &dyn) || k < 0 ||
		    k >= e->kid[0]->ty->length || !sampler_path(l, e->kid[0], sym, leaf))
			return false;
		*leaf += k * lower_leaf_count(e->kid[0]->ty->elem);
		return true;
	}
	return false;
}

/* A sampler argument: ncols 0 and the sampler table index in rows (0xff:
 * not a sampler this lowering can name).  Samplers are uniforms, elements
 * of uniform sampler arrays with a constant index, or parameters bound to
 * one of those when the function was inlined. */
struct lv lower_sampler(struct lower *l, struct ast_node *a)
{
	struct lv s;
	memset(&s, 0, sizeof s);
	s.rows = 0xff;
	struct sema_symbol *sym;
	int leaf;
	if (!sampler_path(l, a, &sym, &leaf))
		return s;
	if (sym->is_param) {
		struct lvar *v = sym->lower_data;
		return v && leaf < v->nelems ? v->elems[leaf] : s;
	}
	return sym->storage == AST_STORAGE_UNIFORM ? uniform_sampler(l, sym, leaf) : s;
}
