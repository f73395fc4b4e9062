/* Operands of TGSI instructions: a source's value through its register,
 * swizzle, |abs| and negation; a destination written through its mask
 * (and _SAT) into the register's variable.  An indirect CONST index is
 * the UNIFORM's own non-constant index.  A TEMP array is an IR array
 * (tgsi_var.ir_array): its registers are LOADs and STOREs at their element
 * or at the indirect index, which ir/lower_arrays.c lowers. */
#include "tgsi_lower.h"

#include <string.h>

int tgsi_mask_chans(uint8_t mask, uint8_t chans[4])
{
	int n = 0;
	for (int c = 0; c < 4; c++)
		if (mask >> c & 1)
			chans[n++] = (uint8_t)c;
	return n;
}

static const char *reg_name(struct tgsi_lower *t, const struct tgsi_reg *r)
{
	if (r->has_dim)
		return arena_printf(t->l.f->arena, "%s[%d][%d]", tgsi_file_names[r->file], r->dim, r->index);
	return arena_printf(t->l.f->arena, "%s[%d]", tgsi_file_names[r->file], r->index);
}

static struct tgsi_var *file_vars(struct tgsi_lower *t, int file, int *bound)
{
	switch (file) {
	case TGSI_FILE_TEMP: *bound = t->ntemps; return t->temps;
	case TGSI_FILE_OUT: *bound = TGSI_MAX_OUTPUTS; return t->outs;
	case TGSI_FILE_ADDR: *bound = TGSI_MAX_ADDRS; return t->addrs;
	default: *bound = 0; return NULL;
	}
}

/* The variable of register number `index` of a file, NULL when it is
 * not declared. */
static const struct tgsi_var *declared(struct tgsi_lower *t, int file, int index)
{
	int bound;
	struct tgsi_var *vars = file_vars(t, file, &bound);
	return vars && index >= 0 && index < bound && vars[index].sym ? &vars[index] : NULL;
}

const struct tgsi_var *tgsi_reg_var(struct tgsi_lower *t, const struct tgsi_reg *r)
{
	const struct tgsi_var *v = declared(t, r->file, r->index);
	if (!v)
		tgsi_refuse(t, r->loc, "%s is not declared", reg_name(t, r));
	return v;
}

static struct lv *var_value(const struct tgsi_var *v)
{
	return &((struct lvar *)v->sym->lower_data)->elems[v->elem];
}

/* ADDR[i].c + offset, a float scalar. */
static struct ir_src indirect_index(struct tgsi_lower *t, const struct tgsi_reg *r, int offset)
{
	struct ir_src zero = ir_src_comp(t->l.zero, 0);
	const struct tgsi_var *a = declared(t, r->ind_file, r->ind_index);
	if (r->ind_file != TGSI_FILE_ADDR || !a) {
		tgsi_refuse(t, r->loc, "the index register %s[%d] is not a declared ADDR",
			    tgsi_file_names[r->ind_file], r->ind_index);
		return zero;
	}
	struct ir_src i = lv_comp(var_value(a), 0, r->ind_comp);
	if (!offset)
		return i;
	struct ir_instr *sum = ir_build_alu2(&t->l.b, IR_OP_ADD, 1, i,
					     ir_src_of(ir_build_constf(&t->l.b, (float)offset)));
	return sum ? ir_src_of(sum) : zero;
}

/* The TEMP array an indirect register indexes: its (array) id's, else
 * the one holding its base register; NULL after reporting. */
static const struct tgsi_var *indexed_array(struct tgsi_lower *t, const struct tgsi_reg *r)
{
	const struct tgsi_var *v = NULL;
	if (r->file == TGSI_FILE_TEMP && r->array_id) {
		for (int i = 0; i < t->ntemps && !v; i++)
			if (t->temps[i].sym && t->temps[i].array_id == r->array_id)
				v = &t->temps[i];
	} else if (r->file == TGSI_FILE_TEMP) {
		v = declared(t, r->file, r->index);
		if (v && !v->array_len)
			v = NULL;
	}
	if (!v)
		tgsi_refuse(t, r->loc, "an indirect index into %s, which is not a declared TEMP ARRAY",
			    reg_name(t, r));
	return v;
}

/* A LOAD of register r of TEMP array `a` (value NULL), or a STORE of
 * value there: at the register's element, or at ADDR[i].c plus its
 * offset from the array's first register. */
static struct ir_instr *array_access(struct tgsi_lower *t, const struct tgsi_reg *r,
				     const struct tgsi_var *a, enum ir_op op, const struct ir_src *value)
{
	struct ir_src s[2];
	int n = 0;
	if (value)
		s[n++] = *value;
	if (r->indirect)
		s[n++] = indirect_index(t, r, 0);
	struct ir_instr *in = ir_build(&t->l.b, op, value ? 0 : 4, IR_FLOAT, n, s);
	if (!in)
		return NULL;
	in->index = a->ir_array;
	in->offset = r->indirect ? r->index - a->array_first : a->elem;
	return in;
}

/* CONST[0][k] or CONST[0][ADDR[i].c + k]: one UNIFORM of the CONST array. */
static bool const_value(struct tgsi_lower *t, const struct tgsi_reg *r, struct ir_src *out)
{
	if (r->has_dim && r->dim != 0)
		return tgsi_refuse(t, r->loc, "constant buffer %d is not supported", r->dim);
	if (t->const_uniform < 0 || (!r->indirect && (r->index < 0 || r->index >= t->nconsts)))
		return tgsi_refuse(t, r->loc, "%s is not declared", reg_name(t, r));
	/* an indirect base outside the declared range (ADDR may be negative)
	 * starts at the nearest element, the rest goes into the index: the IR
	 * keeps a UNIFORM's element inside its uniform */
	int base = r->index < 0 ? 0 : r->index >= t->nconsts ? t->nconsts - 1 : r->index;
	struct ir_src idx = ir_src_of(t->l.zero);
	if (r->indirect)
		idx = indirect_index(t, r, r->index - base);
	struct ir_instr *u = ir_build(&t->l.b, IR_OP_UNIFORM, 4, IR_FLOAT, r->indirect, &idx);
	if (!u)
		return false;
	u->index = t->const_uniform;
	u->offset = base;
	*out = ir_src_of(u);
	return true;
}

/* What register `r` holds: a source and its number of components. */
static bool reg_value(struct tgsi_lower *t, const struct tgsi_reg *r, struct ir_src *out, int *ncomp)
{
	*ncomp = 4;
	if (r->indirect && r->file != TGSI_FILE_CONST && r->file != TGSI_FILE_TEMP)
		return tgsi_refuse(t, r->loc, "an indirect index into %s is not supported",
				   tgsi_file_names[r->file]);
	if (r->has_dim && r->file != TGSI_FILE_CONST)
		return tgsi_refuse(t, r->loc, "%s has one dimension", tgsi_file_names[r->file]);
	switch (r->file) {
	case TGSI_FILE_IN:
		if (r->index < 0 || r->index >= TGSI_MAX_INPUTS || !t->ins[r->index].value)
			return tgsi_refuse(t, r->loc, "%s is not declared", reg_name(t, r));
		*out = ir_src_of(t->ins[r->index].value);
		*ncomp = t->ins[r->index].ncomp;
		return true;
	case TGSI_FILE_IMM:
		if (r->index < 0 || r->index >= t->prog->nimms)
			return tgsi_refuse(t, r->loc, "%s is not declared", reg_name(t, r));
		*out = ir_src_of(t->imms[r->index]);
		*ncomp = t->prog->imms[r->index].n;
		return true;
	case TGSI_FILE_CONST:
		return const_value(t, r, out);
	case TGSI_FILE_TEMP:
	case TGSI_FILE_OUT:
	case TGSI_FILE_ADDR: {
		const struct tgsi_var *v = r->indirect ? indexed_array(t, r) : tgsi_reg_var(t, r);
		if (!v)
			return false;
		if (v->array_len) {
			struct ir_instr *ld = array_access(t, r, v, IR_OP_LOAD, NULL);
			if (!ld)
				return false;
			*out = ir_src_of(ld);
			return true;
		}
		*out = var_value(v)->col[0];
		return true;
	}
	default:
		return tgsi_refuse(t, r->loc, "%s cannot be read here", tgsi_file_names[r->file]);
	}
}

struct ir_src tgsi_read(struct tgsi_lower *t, const struct tgsi_src *s, const uint8_t *chans, int n)
{
	struct ir_src r = ir_src_of(t->l.zero), base = r;
	int nc;
	if (!reg_value(t, &s->reg, &base, &nc))
		return r;
	r.def = base.def;
	for (int k = 0; k < 4; k++) {
		int c = s->swz[chans[k < n ? k : 0]];
		if (c >= nc) {
			tgsi_refuse(t, s->reg.loc, "%s.%c is read, but only %d component%s declared",
				    reg_name(t, &s->reg), "xyzw"[c], nc, nc == 1 ? " is" : "s are");
			return ir_src_of(t->l.zero);
		}
		r.swz[k] = base.swz[c];
	}
	struct ir_instr *m = NULL;
	if (s->abs && (m = ir_build_alu1(&t->l.b, IR_OP_ABS, n, r)))
		r = ir_src_of(m);
	if (s->neg && (m = ir_build_alu1(&t->l.b, IR_OP_NEG, n, r)))
		r = ir_src_of(m);
	return r;
}

/* `old` with the masked channels from v (channel k of the mask from
 * component k, or 0 when replicated); one source when a single value
 * gives every channel, else a VEC. */
static struct lv merge(struct tgsi_lower *t, const struct lv *old, uint8_t mask, struct ir_src v,
		       bool replicated)
{
	struct ir_src comps[4];
	int k = 0;
	bool one_def = true;
	for (int c = 0; c < 4; c++) {
		comps[c] = (mask >> c & 1) ? ir_src_comp(v.def, v.swz[replicated ? 0 : k++])
					   : lv_comp(old, 0, c);
		one_def = one_def && comps[c].def == comps[0].def;
	}
	struct lv r = *old;
	if (one_def) {
		for (int c = 0; c < 4; c++)
			r.col[0].swz[c] = comps[c].swz[0];
		r.col[0].def = comps[0].def;
		return r;
	}
	return lv_vec(&t->l, comps, 4);
}

void tgsi_write(struct tgsi_lower *t, const struct tgsi_insn *in, struct ir_src v, int ncomp,
		bool replicated)
{
	const struct tgsi_reg *r = &in->dst.reg;
	if (in->sat) {
		struct ir_instr *s = ir_build_alu1(&t->l.b, IR_OP_SAT, ncomp, v);
		if (s)
			v = ir_src_of(s);
	}
	if (r->file != TGSI_FILE_TEMP && r->file != TGSI_FILE_OUT && r->file != TGSI_FILE_ADDR) {
		tgsi_refuse(t, r->loc, "%s cannot be written", tgsi_file_names[r->file]);
		return;
	}
	if (r->has_dim) {
		tgsi_refuse(t, r->loc, "%s has one dimension", tgsi_file_names[r->file]);
		return;
	}
	const struct tgsi_var *a = r->indirect ? indexed_array(t, r) : tgsi_reg_var(t, r);
	if (!a || t->l.failed)
		return;
	struct lvar *var = a->sym->lower_data;
	var->written = true;
	if (!a->array_len) {
		var->elems[a->elem] = merge(t, &var->elems[a->elem], in->dst.mask, v, replicated);
		return;
	}
	/* an array register: the channels the mask keeps from what it held */
	struct ir_instr *old = in->dst.mask == 0xf ? NULL : array_access(t, r, a, IR_OP_LOAD, NULL);
	struct lv was = old ? lv_of(old) : lower_zero(&t->l, glsl_type_vec(GLSL_FLOAT, 4));
	struct lv nv = merge(t, &was, in->dst.mask, v, replicated);
	struct ir_src value = nv.col[0];
	if (!array_access(t, r, a, IR_OP_STORE, &value))
		t->l.failed = true;
}
