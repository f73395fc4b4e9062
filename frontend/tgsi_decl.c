/* Declarations of a TGSI program: the processor and properties, inputs
 * by semantic, outputs, the constant buffer as one uniform array, TEMP,
 * OUT and ADDR registers as variables, samplers, immediates as constants
 * (tgsi_lower.h; the names are docs/tgsi.md's). */
#include "tgsi_lower.h"

#include <stdarg.h>
#include <string.h>

#include "decimal.h"

bool tgsi_refuse(struct tgsi_lower *t, struct src_loc loc, const char *fmt, ...)
{
	t->l.failed = true;
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(t->fe->diag, DIAG_ERROR, loc, fmt, ap);
	va_end(ap);
	return false;
}

#define refuse tgsi_refuse

static bool is(const char *s, const char *w)
{
	return s && !strcmp(s, w);
}

/* "FILE[i]" in the arena: every register, input and sampler is named so. */
static char *indexed_name(struct arena *arena, const char *file, int i)
{
	char digits[DECIMAL_MAX];
	size_t dlen, flen = strlen(file);
	const char *d = decimal_format(digits, i, &dlen);
	char *name = arena_alloc_unzeroed(arena, flen + dlen + 3);
	if (!name)
		return NULL;
	memcpy(name, file, flen);
	name[flen] = '[';
	memcpy(name + flen + 1, d, dlen);
	name[flen + 1 + dlen] = ']';
	name[flen + 2 + dlen] = 0;
	return name;
}

/* --- processor and properties --- */

static bool check_properties(struct tgsi_lower *t)
{
	const struct tgsi_prog *g = t->prog;
	if (g->processor && !is(g->processor, "FRAG"))
		return refuse(t, g->processor_loc, "a %s program: uscc compiles fragment programs (FRAG) "
			      "only", g->processor);
	for (int i = 0; i < g->nprops; i++) {
		const struct tgsi_prop *p = &g->props[i];
		if (is(p->name, "FS_COORD_ORIGIN") && is(p->value, "UPPER_LEFT"))
			return refuse(t, p->loc, "PROPERTY FS_COORD_ORIGIN %s is not supported: the "
				      "window's origin is its lower left corner", p->value);
		if (is(p->name, "FS_COORD_PIXEL_CENTER"))
			t->integer_center = is(p->value, "INTEGER");
		else if (!is(p->name, "FS_COORD_ORIGIN") && !is(p->name, "FS_COLOR0_WRITES_ALL_CBUFS"))
			return refuse(t, p->loc, "PROPERTY %s is not supported", p->name);
	}
	return true;
}

/* --- inputs --- */

/* The IR name of input semantic `sem` index k (docs/tgsi.md); NULL when
 * uscc takes no such input. */
static const char *input_name(struct tgsi_lower *t, const char *sem, int k, int *ncomp)
{
	if (is(sem, "POSITION")) {
		*ncomp = 4;
		return k ? NULL : "gl_FragCoord";
	}
	if (is(sem, "FACE")) {
		*ncomp = 1;
		return k ? NULL : "gl_FrontFacing";
	}
	if (is(sem, "PCOORD") || is(sem, "FOG"))
		return k ? NULL : sem;
	if (is(sem, "COLOR") || is(sem, "GENERIC") || is(sem, "TEXCOORD"))
		return indexed_name(t->l.f->arena, sem, k);
	return NULL;
}

static int mask_width(uint8_t mask)
{
	int n = 0;
	for (int c = 0; c < 4; c++)
		if (mask >> c & 1)
			n = c + 1;
	return n;
}

/* FACE read whole, as nir_to_tgsi copies it (MOV TEMP, IN[k] with only
 * IN[k].x declared): (face, 0, 0, 1), TGSI's fill for the components an
 * input does not have.  The IR input stays one component. */
static struct ir_instr *face_vec4(struct tgsi_lower *t, struct ir_instr *face)
{
	const float zero_one[4] = { 0, 1, 0, 0 };
	struct ir_instr *k = ir_build_const(&t->l.b, 2, IR_FLOAT, zero_one);
	if (!k)
		return NULL;
	struct ir_src c[4] = { ir_src_of(face), ir_src_comp(k, 0), ir_src_comp(k, 0),
			       ir_src_comp(k, 1) };
	return ir_build(&t->l.b, IR_OP_VEC, 4, IR_FLOAT, 4, c);
}

/* gl_FragCoord at integer pixel centers (PROPERTY FS_COORD_PIXEL_CENTER
 * INTEGER): the rasterizer's half-integer x and y less 0.5. */
static struct ir_instr *integer_center(struct tgsi_lower *t, struct ir_instr *pos)
{
	const float half[4] = { 0.5f, 0.5f, 0, 0 };
	struct ir_instr *k = ir_build_const(&t->l.b, 4, IR_FLOAT, half);
	return k ? ir_build_alu2(&t->l.b, IR_OP_SUB, 4, ir_src_of(pos), ir_src_of(k)) : NULL;
}

static bool declare_input(struct tgsi_lower *t, const struct tgsi_decl *d)
{
	if (!d->semantic)
		return refuse(t, d->loc, "an input needs a semantic (%s)", "COLOR, GENERIC, POSITION ...");
	/* FACE is one value per primitive, whatever its interpolation says */
	if (is(d->interp, "CONSTANT") && !is(d->semantic, "FACE"))
		return refuse(t, d->loc, "%s interpolation (flat) is not supported", d->interp);
	if (is(d->location, "SAMPLE"))
		return refuse(t, d->loc, "%s interpolation is not supported", d->location);
	for (int r = d->first; r <= d->last; r++) {
		int ncomp = mask_width(d->mask);
		const char *name = input_name(t, d->semantic, d->sem_index + r - d->first, &ncomp);
		if (!name)
			return refuse(t, d->loc, "input semantic %s is not supported", d->semantic);
		if (t->ins[r].value)
			return refuse(t, d->loc, "IN[%d] is declared twice", r);
		if (ir_func_find_input(t->l.f, name) >= 0)
			return refuse(t, d->loc, "input %s is declared twice", name);
		int idx = ir_func_add_input(t->l.f, name, ncomp);
		struct ir_instr *in = ir_build(&t->l.b, IR_OP_INPUT, ncomp, IR_FLOAT, 0, NULL);
		if (idx < 0 || !in)
			return false;
		in->index = idx;
		t->l.f->inputs[idx].centroid = is(d->location, "CENTROID");
		if (t->integer_center && !strcmp(name, "gl_FragCoord"))
			in = integer_center(t, in);
		if (!strcmp(name, "gl_FrontFacing")) {
			in = face_vec4(t, in);
			ncomp = 4;
		}
		if (!in)
			return false;
		t->ins[r].value = in;
		t->ins[r].ncomp = (uint8_t)ncomp;
	}
	return true;
}

/* --- outputs --- */

static bool declare_output(struct tgsi_lower *t, const struct tgsi_decl *d)
{
	for (int r = d->first; r <= d->last; r++) {
		int k = d->sem_index + r - d->first;
		struct tgsi_output *o = &t->out_info[r];
		if (is(d->semantic, "COLOR") && k < 4) {
			o->target = k;
			o->name = indexed_name(t->l.f->arena, "COLOR", k);
		} else if (is(d->semantic, "POSITION") && k == 0) {
			o->target = -1;
			o->name = "POSITION";
		} else {
			return refuse(t, d->loc, "output semantic %s is not supported (COLOR[0..3] and "
				      "POSITION are)", d->semantic ? d->semantic : "(none)");
		}
	}
	return true;
}

/* --- registers as variables --- */

static bool make_var(struct tgsi_lower *t, struct tgsi_var *v, const char *name,
		     const struct glsl_type *type)
{
	if (v->sym)
		return refuse(t, t->l.b.loc, "%s is declared twice", name);
	v->sym = lower_temp(&t->l, name, type);
	v->var_index = t->l.nvars - 1;
	return v->sym != NULL;
}

static bool declare_regs(struct tgsi_lower *t, const struct tgsi_decl *d, struct tgsi_var *vars,
			 const char *file)
{
	const struct glsl_type *vec4 = glsl_type_vec(GLSL_FLOAT, 4);
	t->l.b.loc = d->loc;
	if (d->array_id && d->file == TGSI_FILE_TEMP) {
		int len = d->last - d->first + 1;
		const struct glsl_type *at = glsl_type_array(t->l.f->arena, vec4, len);
		struct tgsi_var *v = &vars[d->first];
		const char *name = arena_printf(t->l.f->arena, "%s[%d..%d]", file, d->first, d->last);
		if (!at || !make_var(t, v, name, at))
			return false;
		if ((v->ir_array = ir_func_add_array(t->l.f, name, len, 4, IR_FLOAT)) < 0)
			return false;
		for (int r = d->first; r <= d->last; r++) {
			if (r > d->first && vars[r].sym)
				return refuse(t, d->loc, "%s[%d] is declared twice", file, r);
			vars[r] = *v;
			vars[r].elem = r - d->first;
			vars[r].array_first = d->first;
			vars[r].array_len = len;
			vars[r].array_id = d->array_id;
		}
		return true;
	}
	for (int r = d->first; r <= d->last; r++)
		if (!make_var(t, &vars[r], indexed_name(t->l.f->arena, file, r), vec4))
			return false;
	return true;
}

/* --- the constant buffer and samplers --- */

static bool declare_const(struct tgsi_lower *t, const struct tgsi_decl *d)
{
	if (d->has_dim && d->dim != 0)
		return refuse(t, d->loc, "constant buffer %d is not supported (only buffer 0, the "
			      "default uniform block)", d->dim);
	if (d->last + 1 > t->nconsts)
		t->nconsts = d->last + 1;
	return true;
}

static bool declare_sview(struct tgsi_lower *t, const struct tgsi_decl *d)
{
	if (d->return_type && !is(d->return_type, "FLOAT"))
		return refuse(t, d->loc, "sampler views returning %s are not supported", d->return_type);
	for (int r = d->first; r <= d->last; r++)
		t->svt[r] = d->target;
	return true;
}

/* The IR target of a lookup's TGSI target; -1 for those uscc lacks. */
static int ir_target(int target, bool *shadow)
{
	*shadow = target == TGSI_TARGET_SHADOW1D || target == TGSI_TARGET_SHADOW2D ||
		  target == TGSI_TARGET_SHADOWRECT;
	switch (target) {
	case TGSI_TARGET_1D: case TGSI_TARGET_SHADOW1D: return IR_TARGET_1D;
	case TGSI_TARGET_2D: case TGSI_TARGET_SHADOW2D: return IR_TARGET_2D;
	case TGSI_TARGET_3D: return IR_TARGET_3D;
	case TGSI_TARGET_CUBE: return IR_TARGET_CUBE;
	case TGSI_TARGET_RECT: case TGSI_TARGET_SHADOWRECT: return IR_TARGET_RECT;
	default: return -1;
	}
}

/* The SVIEW's target with the shadow compare a lookup asks for: a view
 * declared 2D serves SHADOW2D lookups (the compare is the sampler's
 * state in GL). */
static bool same_texture(int view, int target)
{
	bool vs, ts;
	return ir_target(view, &vs) == ir_target(target, &ts);
}

int tgsi_sampler(struct tgsi_lower *t, const struct tgsi_insn *in, int unit)
{
	const char *tn = tgsi_target_names[in->target];
	bool shadow;
	int target = ir_target(in->target, &shadow);
	if (target < 0) {
		refuse(t, in->loc, "texture target %s is not supported", tn);
		return -1;
	}
	if (unit < 0 || unit >= TGSI_MAX_SAMPLERS || !t->samp[unit]) {
		refuse(t, in->src[in->nsrc - 1].reg.loc, "SAMP[%d] is not declared", unit);
		return -1;
	}
	if (t->svt[unit] >= 0 && !same_texture(t->svt[unit], in->target)) {
		refuse(t, in->loc, "a %s lookup of a sampler view declared otherwise", tn);
		return -1;
	}
	int s = t->sampler[unit];
	if (s >= 0) {
		const struct ir_sampler *smp = &t->l.f->samplers[s];
		if (smp->target != target || smp->shadow != shadow) {
			refuse(t, in->loc, "a %s lookup of a unit an earlier lookup used with another "
			       "target", tn);
			return -1;
		}
		return s;
	}
	s = ir_func_add_sampler(t->l.f, indexed_name(t->l.f->arena, "SAMP", unit), target, shadow);
	if (s < 0) {
		t->l.failed = true;
		return -1;
	}
	t->l.f->samplers[s].unit = unit;
	t->sampler[unit] = s;
	return s;
}

/* --- immediates --- */

static bool declare_imms(struct tgsi_lower *t)
{
	const struct tgsi_prog *g = t->prog;
	t->imms = arena_alloc(t->l.f->arena, sizeof *t->imms * (size_t)(g->nimms ? g->nimms : 1));
	if (!t->imms)
		return false;
	for (int i = 0; i < g->nimms; i++) {
		const struct tgsi_imm *m = &g->imms[i];
		if (!is(m->type, "FLT32"))
			return refuse(t, m->loc, "%s immediates are not supported (uscc takes float "
				      "programs: FLT32)", m->type);
		t->imms[i] = ir_build_const(&t->l.b, 4, IR_FLOAT, m->v);
		if (!t->imms[i])
			return false;
	}
	return true;
}

/* --- all declarations --- */

/* Every register number a declaration names is below the file's bound
 * (so the tables can be indexed by number). */
static bool check_bounds(struct tgsi_lower *t, const struct tgsi_decl *d)
{
	static const int bound[TGSI_FILE_COUNT] = {
		[TGSI_FILE_IN] = TGSI_MAX_INPUTS, [TGSI_FILE_OUT] = TGSI_MAX_OUTPUTS,
		[TGSI_FILE_TEMP] = TGSI_MAX_TEMPS, [TGSI_FILE_CONST] = TGSI_MAX_CONSTS,
		[TGSI_FILE_SAMP] = TGSI_MAX_SAMPLERS, [TGSI_FILE_SVIEW] = TGSI_MAX_SAMPLERS,
		[TGSI_FILE_ADDR] = TGSI_MAX_ADDRS,
	};
	if (!bound[d->file])
		return refuse(t, d->loc, "%s cannot be declared", tgsi_file_names[d->file]);
	if (d->last >= bound[d->file])
		return refuse(t, d->loc, "%s[%d] is beyond uscc's bound of %d %s registers",
			      tgsi_file_names[d->file], d->last, bound[d->file], tgsi_file_names[d->file]);
	return true;
}

static bool declare_one(struct tgsi_lower *t, const struct tgsi_decl *d)
{
	if (!check_bounds(t, d))
		return false;
	switch (d->file) {
	case TGSI_FILE_IN: return declare_input(t, d);
	case TGSI_FILE_OUT:
		return declare_output(t, d) && declare_regs(t, d, t->outs, "OUT");
	case TGSI_FILE_TEMP: return declare_regs(t, d, t->temps, "TEMP");
	case TGSI_FILE_ADDR: return declare_regs(t, d, t->addrs, "ADDR");
	case TGSI_FILE_CONST: return declare_const(t, d);
	case TGSI_FILE_SVIEW: return declare_sview(t, d);
	case TGSI_FILE_SAMP:
		for (int r = d->first; r <= d->last; r++)
			t->samp[r] = true;
		return true;
	default:
		return refuse(t, d->loc, "%s cannot be declared", tgsi_file_names[d->file]);
	}
}

#define ALLOC(p, n) ((p) = arena_alloc(t->l.f->arena, sizeof *(p) * (size_t)(n)))

/* One past the highest TEMP the program declares (within the bound
 * check_bounds enforces): the TEMP table's length.  A table of the bound
 * (1024 registers, 128 KiB zeroed per compile) cost more than the rest of
 * a small shader's compile inside a driver. */
static int temps_declared(const struct tgsi_prog *prog)
{
	int n = 0;
	for (int i = 0; i < prog->ndecls; i++) {
		const struct tgsi_decl *d = &prog->decls[i];
		if (d->file == TGSI_FILE_TEMP && d->last >= n && d->last < TGSI_MAX_TEMPS)
			n = d->last + 1;
	}
	return n;
}

bool tgsi_declare(struct tgsi_lower *t)
{
	t->const_uniform = -1;
	for (int i = 0; i < TGSI_MAX_SAMPLERS; i++)
		t->svt[i] = t->sampler[i] = -1;
	t->ntemps = temps_declared(t->prog);
	/* arena_alloc zeroes: every register starts undeclared */
	if (!ALLOC(t->temps, t->ntemps + 1) || !ALLOC(t->outs, TGSI_MAX_OUTPUTS) ||
	    !ALLOC(t->addrs, TGSI_MAX_ADDRS) || !ALLOC(t->out_info, TGSI_MAX_OUTPUTS) ||
	    !ALLOC(t->ins, TGSI_MAX_INPUTS))
		return false;
	if (!check_properties(t))
		return false;
	for (int i = 0; i < t->prog->ndecls; i++)
		if (!declare_one(t, &t->prog->decls[i]))
			return false;
	if (t->nconsts > 0) {
		t->const_uniform = ir_func_add_uniform(t->l.f, "CONST", "vec4", t->nconsts, t->nconsts, 4);
		if (t->const_uniform < 0)
			return false;
	}
	return declare_imms(t);
}
