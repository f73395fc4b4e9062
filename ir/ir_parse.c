/* Parser of the textual IR that ir_print writes (grammar in ir_print.c).
 * Keeps the printed ids.  Sources may name a later instruction (loop PHIs),
 * so references are resolved once the whole text is read.  Structural
 * rules (source counts, types, scopes) are the validator's job; the parser
 * checks only the syntax and that every referenced id exists once. */
#include "ir.h"
#include "ir_text.h"
#include "shadow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64, MAX_ID = 1 << 20 };

struct pending {
	struct ir_src *slot;
	uint32_t id;
	struct src_loc loc;
	struct pending *next;
};

struct frame {
	struct ir_cf *cf;
	bool in_else;
	int line;   /* of the opening '{' */
};

struct parser {
	struct ir_func *f;
	struct ir_builder b;
	struct diag_sink *diag;
	const char *file;
	const char *line;     /* start of the current line */
	const char *p;        /* cursor */
	int lineno;
	bool error;           /* error on the current line */
	int nerrors;
	struct frame stack[MAX_DEPTH];
	int depth;
	struct pending *pending;
	struct ir_instr **instrs; /* every parsed instruction */
	int ninstrs, cap;
	uint32_t max_id;
	bool seen_instr;
};

static struct src_loc here(const struct parser *ps)
{
	struct src_loc l = { ps->file, ps->lineno, (int)(ps->p - ps->line) + 1 };
	return l;
}

static void error_at(struct parser *ps, const char *what)
{
	if (ps->error)
		return; /* one error per line */
	ps->error = true;
	ps->nerrors++;
	diag_error(ps->diag, here(ps), "%s", what);
}

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r')
		ps->p++;
}

static bool at_end(struct parser *ps)
{
	skip_ws(ps);
	return *ps->p == '\n' || *ps->p == '\0' || *ps->p == ';';
}

static bool accept(struct parser *ps, char c)
{
	skip_ws(ps);
	if (*ps->p != c)
		return false;
	ps->p++;
	return true;
}

static void expect(struct parser *ps, char c, const char *what)
{
	if (!accept(ps, c))
		error_at(ps, what);
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A bare word (letters, digits, '_'); returns its length, 0 if none. */
static size_t word(struct parser *ps, const char **start)
{
	skip_ws(ps);
	*start = ps->p;
	while (is_word_char(*ps->p))
		ps->p++;
	return (size_t)(ps->p - *start);
}

static bool word_is(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* Accepts the keyword `kw` if it is next. */
static bool accept_word(struct parser *ps, const char *kw)
{
	const char *save = ps->p, *s;
	size_t n = word(ps, &s);
	if (word_is(s, n, kw))
		return true;
	ps->p = save;
	return false;
}

static long number(struct parser *ps, long lo, long hi, const char *what)
{
	skip_ws(ps);
	char *end;
	errno = 0;
	long v = strtol(ps->p, &end, 10);
	if (end == ps->p || errno || v < lo || v > hi || (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))) {
		error_at(ps, what);
		return lo;
	}
	ps->p = end;
	return v;
}

/* `#N` */
static int table_index(struct parser *ps)
{
	expect(ps, '#', "expected '#index'");
	if (ps->error)
		return 0;
	if (*ps->p < '0' || *ps->p > '9') {
		error_at(ps, "expected an index after '#'");
		return 0;
	}
	return (int)number(ps, 0, 1 << 20, "index out of range");
}

/* `key=N` */
static long keyed_number(struct parser *ps, const char *key, long lo, long hi)
{
	if (!accept_word(ps, key) || !accept(ps, '=')) {
		error_at(ps, "expected key=value");
		return lo;
	}
	return number(ps, lo, hi, "bad number");
}

/* An optional `key=`: true (and past the '=') when it is next. */
static bool accept_key(struct parser *ps, const char *key)
{
	const char *save = ps->p;
	if (accept_word(ps, key) && accept(ps, '='))
		return true;
	ps->p = save;
	return false;
}

/* `"..."` with \" \\ \xNN escapes */
static const char *string(struct parser *ps)
{
	skip_ws(ps);
	if (*ps->p != '"') {
		error_at(ps, "expected a quoted string");
		return "";
	}
	ps->p++;
	size_t cap = 16, n = 0;
	char *out = arena_alloc(ps->f->arena, cap);
	while (out && *ps->p != '"') {
		char c = *ps->p;
		if (c == '\0' || c == '\n') {
			error_at(ps, "unterminated string");
			return "";
		}
		if (c == '\\') {
			ps->p++;
			if (*ps->p == 'x' && ps->p[1] && ps->p[2]) {
				char hex[3] = { ps->p[1], ps->p[2], 0 };
				c = (char)strtol(hex, NULL, 16);
				ps->p += 2;
			} else if (*ps->p == '"' || *ps->p == '\\') {
				c = *ps->p;
			} else {
				error_at(ps, "bad escape in string");
				return "";
			}
		}
		ps->p++;
		if (n + 2 > cap) {
			out = arena_realloc(ps->f->arena, out, cap, cap * 2);
			cap *= 2;
			if (!out)
				break;
		}
		out[n++] = c;
		out[n] = '\0';
	}
	if (!out)
		return "";
	ps->p++; /* closing quote */
	return out;
}

/* `fN` or `bN`: base and width */
static int type_suffix(struct parser *ps, enum ir_base *base)
{
	skip_ws(ps);
	char c = *ps->p;
	if ((c != 'f' && c != 'b') || ps->p[1] < '1' || ps->p[1] > '4' || is_word_char(ps->p[2])) {
		error_at(ps, "expected a type such as f4 or b1");
		return 1;
	}
	if (base)
		*base = c == 'b' ? IR_BOOL : IR_FLOAT;
	else if (c != 'f')
		error_at(ps, "expected a float type");
	int n = ps->p[1] - '0';
	ps->p += 2;
	return n;
}

static bool is_decl(struct parser *ps)
{
	const char *save = ps->p;
	table_index(ps);
	skip_ws(ps);
	bool decl = *ps->p == '"';
	ps->p = save;
	return decl;
}

static void parse_input_decl(struct parser *ps)
{
	table_index(ps);
	const char *name = string(ps);
	int n = type_suffix(ps, NULL);
	if (ps->error)
		return;
	int i = ir_func_add_input(ps->f, name, n);
	if (i >= 0 && accept_word(ps, "centroid"))
		ps->f->inputs[i].centroid = true;
}

/* Up to `n` floats (fewer when a ']' comes first); the count read. */
static int float_list(struct parser *ps, float *out, int n)
{
	int i = 0;
	for (; i < n; i++) {
		skip_ws(ps);
		if (*ps->p == ']')
			break;
		char *end;
		float v = strtof(ps->p, &end);
		if (end == ps->p) {
			error_at(ps, "expected a number");
			return i;
		}
		ps->p = end;
		out[i] = v;
	}
	return i;
}

/* `init=[x y z w] ...`: exactly nvec4 elements of four floats. */
static float (*uniform_init(struct parser *ps, long nvec4))[4]
{
	expect(ps, '=', "expected 'init='");
	if (!ps->error && nvec4 <= 0)
		error_at(ps, "an initializer needs nvec4 >= 1");
	if (ps->error)
		return NULL;
	float (*init)[4] = arena_alloc(ps->f->arena, (size_t)nvec4 * sizeof *init);
	if (!init) {
		error_at(ps, "out of memory");
		return NULL;
	}
	for (long e = 0; e < nvec4 && !ps->error; e++) {
		expect(ps, '[', "expected '[' (one [x y z w] per element)");
		if (!ps->error && float_list(ps, init[e], 4) != 4 && !ps->error)
			error_at(ps, "an initializer element has four components");
		expect(ps, ']', "expected ']'");
	}
	return ps->error ? NULL : init;
}

static void parse_uniform_decl(struct parser *ps)
{
	table_index(ps);
	const char *name = string(ps);
	const char *type = string(ps);
	int n = type_suffix(ps, NULL);
	long nvec4 = keyed_number(ps, "nvec4", 0, 1 << 16);
	long array = keyed_number(ps, "array", 0, 1 << 16);
	long base = -1;
	float (*init)[4] = NULL;
	if (!at_end(ps)) {
		const char *save = ps->p;
		bool word_next = accept_word(ps, "init") || accept_word(ps, "member_major");
		ps->p = save;
		if (!word_next)
			base = keyed_number(ps, "base", 0, 1 << 20);
	}
	bool member_major = !ps->error && accept_word(ps, "member_major");
	if (!ps->error && accept_word(ps, "init"))
		init = uniform_init(ps, nvec4);
	if (ps->error)
		return;
	int u = ir_func_add_uniform(ps->f, name, type, (int)array, (int)nvec4, n);
	if (u >= 0)
		ps->f->uniforms[u].member_major = member_major;
	if (u >= 0 && base >= 0) {
		ps->f->uniforms[u].base = (int)base;
		if (base + nvec4 > ps->f->nuniform_vec4)
			ps->f->nuniform_vec4 = (int)(base + nvec4);
	}
	if (u >= 0 && init)
		ps->f->uniforms[u].init = (const float(*)[4])init;
}

static void parse_sampler_decl(struct parser *ps)
{
	table_index(ps);
	const char *name = string(ps);
	const char *s;
	size_t n = word(ps, &s);
	int target = -1;
	for (int t = 0; t < 5; t++)
		if (word_is(s, n, ir_text_targets[t]))
			target = t;
	if (target < 0)
		error_at(ps, "unknown sampler target");
	long unit = keyed_number(ps, "unit", 0, 1 << 16);
	bool shadow = accept_word(ps, "shadow");
	int compare = TEX_COMPARE_LEQUAL, depth = TEX_DEPTH_LUMINANCE;
	if (accept_key(ps, "compare")) {
		n = word(ps, &s);
		if ((compare = tex_compare_by_name(s, n)) < 0)
			error_at(ps, "unknown compare function");
	}
	if (accept_key(ps, "depth")) {
		n = word(ps, &s);
		if ((depth = tex_depth_mode_by_name(s, n)) < 0)
			error_at(ps, "unknown depth mode");
	}
	if (ps->error)
		return;
	int i = ir_func_add_sampler(ps->f, name, target, shadow);
	if (i >= 0) {
		ps->f->samplers[i].unit = (int)unit;
		ps->f->samplers[i].compare = (uint8_t)compare;
		ps->f->samplers[i].depth_mode = (uint8_t)depth;
	}
}

static void parse_output_decl(struct parser *ps)
{
	table_index(ps);
	const char *name = string(ps);
	int n = type_suffix(ps, NULL);
	long target = -1;
	if (!accept_word(ps, "target") || !accept(ps, '='))
		error_at(ps, "expected target=");
	else if (!accept_word(ps, "depth"))
		target = number(ps, 0, 1 << 16, "bad render target");
	if (!ps->error)
		ir_func_add_output(ps->f, name, (int)target, n);
}

static void parse_array_decl(struct parser *ps)
{
	table_index(ps);
	const char *name = string(ps);
	enum ir_base base;
	int n = type_suffix(ps, &base);
	long length = keyed_number(ps, "length", 1, 1 << 16);
	if (!ps->error)
		ir_func_add_array(ps->f, name, (int)length, n, base);
}

/* `%N` with an optional `.swizzle`; the reference is resolved later. */
static void source(struct parser *ps, struct ir_src *slot)
{
	skip_ws(ps);
	struct src_loc loc = here(ps);
	if (!accept(ps, '%') || *ps->p < '0' || *ps->p > '9') {
		error_at(ps, "expected a value such as %3.xy");
		return;
	}
	uint32_t id = (uint32_t)number(ps, 0, MAX_ID, "value id out of range");
	for (int c = 0; c < 4; c++)
		slot->swz[c] = (uint8_t)c;
	if (*ps->p == '.') {
		ps->p++;
		int n = 0;
		const char *sw = "xyzw", *rgba = "rgba";
		while (is_word_char(*ps->p)) {
			const char *hit = strchr(sw, *ps->p);
			if (!hit)
				hit = strchr(rgba, *ps->p) ? sw + (strchr(rgba, *ps->p) - rgba) : NULL;
			if (!hit || n >= 4) {
				error_at(ps, "bad swizzle");
				return;
			}
			slot->swz[n++] = (uint8_t)(hit - sw);
			ps->p++;
		}
		if (n == 0) {
			error_at(ps, "empty swizzle");
			return;
		}
		for (int c = n; c < 4; c++)
			slot->swz[c] = slot->swz[n - 1];
	}
	struct pending *pd = arena_alloc(ps->f->arena, sizeof *pd);
	if (!pd)
		return;
	pd->slot = slot;
	pd->id = id;
	pd->loc = loc;
	pd->next = ps->pending;
	ps->pending = pd;
}

/* Sources separated by commas, up to the end of the line. */
static void source_list(struct parser *ps, struct ir_instr *in, int first)
{
	in->nsrc = (uint8_t)first;
	if (at_end(ps))
		return;
	do {
		if (in->nsrc >= IR_MAX_SRCS) {
			skip_ws(ps);
			error_at(ps, "too many sources");
			return;
		}
		source(ps, &in->src[in->nsrc]);
		in->nsrc++;
	} while (!ps->error && accept(ps, ','));
}

static enum ir_op op_by_name(const char *s, size_t n)
{
	for (int op = 0; op < IR_OP_COUNT; op++)
		if (word_is(s, n, ir_op_infos[op].name))
			return (enum ir_op)op;
	return IR_OP_COUNT;
}

static void remember(struct parser *ps, struct ir_instr *in)
{
	if (ps->ninstrs == ps->cap) {
		int ncap = ps->cap ? ps->cap * 2 : 64;
		struct ir_instr **n = arena_realloc(ps->f->arena, ps->instrs,
						    sizeof *n * (size_t)ps->cap,
						    sizeof *n * (size_t)ncap);
		if (!n)
			return;
		ps->instrs = n;
		ps->cap = ncap;
	}
	ps->instrs[ps->ninstrs++] = in;
}

static struct ir_instr *new_instr(struct parser *ps, enum ir_op op, int ncomp, enum ir_base base,
				  uint32_t id)
{
	ps->b.loc = here(ps);
	ps->b.loc.col = 1;
	struct ir_instr *in = ir_build(&ps->b, op, ncomp, base, 0, NULL);
	if (!in)
		return NULL;
	in->id = id;
	if (id > ps->max_id)
		ps->max_id = id;
	remember(ps, in);
	return in;
}

/* `#N[element]` with an optional `+ %index`, the index going to source
 * `slot` (UNIFORM and LOAD: 0; STORE: 1, after its value). */
static void element_ref(struct parser *ps, struct ir_instr *in, int slot)
{
	in->index = table_index(ps);
	expect(ps, '[', "expected '[element]'");
	in->offset = (int)number(ps, 0, 1 << 20, "bad element");
	expect(ps, ']', "expected ']'");
	if (!ps->error && accept(ps, '+')) {
		source(ps, &in->src[slot]);
		in->nsrc = (uint8_t)(slot + 1);
	}
}

/* `store #N[element] (+ %index), %value` */
static void parse_store_operands(struct parser *ps, struct ir_instr *in)
{
	element_ref(ps, in, 1);
	expect(ps, ',', "expected ', value'");
	if (ps->error)
		return;
	source(ps, &in->src[0]);
	if (in->nsrc == 0)
		in->nsrc = 1;
}

static void parse_tex_operands(struct parser *ps, struct ir_instr *in)
{
	in->index = table_index(ps);
	const char *s;
	size_t n = word(ps, &s);
	int kind = -1;
	for (int k = 0; k < IR_TEX_KIND_COUNT; k++)
		if (word_is(s, n, ir_text_tex_kinds[k]))
			kind = k;
	if (kind < 0) {
		error_at(ps, "unknown texture kind");
		return;
	}
	in->tex_kind = (uint8_t)kind;
	in->tex_shadow = accept_word(ps, "shadow");
	source_list(ps, in, 0);
}

static void parse_const_operands(struct parser *ps, struct ir_instr *in)
{
	for (int c = 0; c < in->ncomp; c++) {
		skip_ws(ps);
		char *end;
		float v = strtof(ps->p, &end);
		if (end == ps->p) {
			error_at(ps, "expected a number");
			return;
		}
		ps->p = end;
		in->imm[c] = v;
	}
}

/* `%N = op.tK operands` */
static void parse_value_instr(struct parser *ps)
{
	accept(ps, '%');
	uint32_t id = (uint32_t)number(ps, 0, MAX_ID, "value id out of range");
	expect(ps, '=', "expected '='");
	const char *s;
	size_t n = word(ps, &s);
	enum ir_op op = op_by_name(s, n);
	if (ps->error)
		return;
	if (op == IR_OP_COUNT) {
		ps->p = s;
		error_at(ps, "unknown opcode");
		return;
	}
	expect(ps, '.', "expected '.type' after the opcode");
	enum ir_base base;
	int ncomp = type_suffix(ps, &base);
	if (ps->error)
		return;
	struct ir_instr *in = new_instr(ps, op, ncomp, base, id);
	if (!in)
		return;
	switch (op) {
	case IR_OP_CONST:
		parse_const_operands(ps, in);
		break;
	case IR_OP_INPUT:
		in->index = table_index(ps);
		break;
	case IR_OP_UNIFORM:
	case IR_OP_LOAD:
		element_ref(ps, in, 0);
		break;
	case IR_OP_TEX:
		parse_tex_operands(ps, in);
		break;
	default:
		source_list(ps, in, 0);
		break;
	}
}

/* Instructions without a value: output, discard, break, continue, store. */
static void parse_effect_instr(struct parser *ps, enum ir_op op)
{
	struct ir_instr *in = new_instr(ps, op, 0, IR_FLOAT, ps->f->next_id);
	if (!in)
		return;
	if (op == IR_OP_OUTPUT)
		in->index = table_index(ps);
	if (op == IR_OP_OUTPUT || op == IR_OP_DISCARD)
		source_list(ps, in, 0);
	if (op == IR_OP_STORE)
		parse_store_operands(ps, in);
}

static void push(struct parser *ps, struct ir_cf *cf, struct ir_cf_list *list)
{
	if (ps->depth >= MAX_DEPTH) {
		error_at(ps, "control flow nested too deeply");
		return;
	}
	ps->stack[ps->depth].cf = cf;
	ps->stack[ps->depth].in_else = false;
	ps->stack[ps->depth].line = ps->lineno;
	ps->depth++;
	ir_builder_enter(&ps->b, list, cf);
}

/* `}` or `} else {` */
static void parse_close(struct parser *ps)
{
	if (ps->depth == 0) {
		error_at(ps, "'}' without an open block");
		return;
	}
	struct frame *fr = &ps->stack[ps->depth - 1];
	if (accept_word(ps, "else")) {
		if (fr->cf->kind != IR_CF_IF || fr->in_else) {
			error_at(ps, "'else' without 'if'");
			return;
		}
		expect(ps, '{', "expected '{'");
		fr->in_else = true;
		ir_builder_enter(&ps->b, &fr->cf->else_list, fr->cf);
		return;
	}
	ps->depth--;
	ir_builder_after(&ps->b, fr->cf);
}

static void parse_line(struct parser *ps)
{
	if (at_end(ps))
		return;
	if (*ps->p == '%') {
		parse_value_instr(ps);
		ps->seen_instr = true;
	} else if (accept(ps, '}')) {
		parse_close(ps);
	} else {
		const char *s;
		size_t n = word(ps, &s);
		if (word_is(s, n, "stage")) {
			if (accept_word(ps, "vertex"))
				ps->f->stage = IR_STAGE_VERTEX;
			else if (accept_word(ps, "fragment"))
				ps->f->stage = IR_STAGE_FRAGMENT;
			else
				error_at(ps, "expected 'fragment' or 'vertex'");
		} else if (word_is(s, n, "input")) {
			parse_input_decl(ps);
		} else if (word_is(s, n, "uniform")) {
			parse_uniform_decl(ps);
		} else if (word_is(s, n, "sampler")) {
			parse_sampler_decl(ps);
		} else if (word_is(s, n, "output") && is_decl(ps)) {
			parse_output_decl(ps);
		} else if (word_is(s, n, "output")) {
			parse_effect_instr(ps, IR_OP_OUTPUT);
		} else if (word_is(s, n, "array")) {
			parse_array_decl(ps);
		} else if (word_is(s, n, "store")) {
			parse_effect_instr(ps, IR_OP_STORE);
		} else if (word_is(s, n, "discard")) {
			parse_effect_instr(ps, IR_OP_DISCARD);
		} else if (word_is(s, n, "break")) {
			parse_effect_instr(ps, IR_OP_BREAK);
		} else if (word_is(s, n, "continue")) {
			parse_effect_instr(ps, IR_OP_CONTINUE);
		} else if (word_is(s, n, "if")) {
			struct ir_src cond = { 0 };
			struct ir_cf *cf = ir_build_if(&ps->b, cond);
			if (cf) {
				source(ps, &cf->cond);
				expect(ps, '{', "expected '{'");
				push(ps, cf, &cf->then_list);
			}
		} else if (word_is(s, n, "loop")) {
			expect(ps, '{', "expected '{'");
			struct ir_cf *cf = ir_build_loop(&ps->b);
			if (cf)
				push(ps, cf, &cf->body);
		} else {
			ps->p = s;
			error_at(ps, "expected a declaration, an instruction, 'if', 'loop' or '}'");
		}
	}
	if (!ps->error && !at_end(ps))
		error_at(ps, "unexpected text at the end of the line");
}

/* Gives every effect instruction a fresh id and resolves references. */
static void resolve(struct parser *ps)
{
	uint32_t next = ps->max_id + 1;
	for (int i = 0; i < ps->ninstrs; i++)
		if (ps->instrs[i]->ncomp == 0)
			ps->instrs[i]->id = next++;
	ps->f->next_id = next;
	struct ir_instr **by_id = arena_alloc(ps->f->arena, sizeof *by_id * ((size_t)ps->max_id + 1));
	if (!by_id)
		return;
	for (int i = 0; i < ps->ninstrs; i++) {
		struct ir_instr *in = ps->instrs[i];
		if (in->ncomp == 0)
			continue;
		if (by_id[in->id]) {
			ps->nerrors++;
			diag_error(ps->diag, in->loc, "value %%%u defined twice", in->id);
		}
		by_id[in->id] = in;
	}
	for (struct pending *pd = ps->pending; pd; pd = pd->next) {
		struct ir_instr *def = pd->id <= ps->max_id ? by_id[pd->id] : NULL;
		if (!def) {
			ps->nerrors++;
			diag_error(ps->diag, pd->loc, "value %%%u is never defined", pd->id);
		}
		pd->slot->def = def;
	}
}

struct ir_func *ir_parse(const char *text, const char *filename, struct arena *arena,
			 struct diag_sink *diag)
{
	struct parser ps = { .diag = diag, .file = filename, .p = text };
	ps.f = ir_func_create(arena, IR_STAGE_FRAGMENT);
	if (!ps.f)
		return NULL;
	ir_builder_init(&ps.b, ps.f);
	while (*ps.p) {
		ps.line = ps.p;
		ps.lineno++;
		ps.error = false;
		parse_line(&ps);
		while (*ps.p && *ps.p != '\n')
			ps.p++;
		if (*ps.p == '\n')
			ps.p++;
	}
	if (ps.depth > 0) {
		struct src_loc loc = { filename, ps.stack[ps.depth - 1].line, 1 };
		ps.nerrors++;
		diag_error(diag, loc, "'{' is never closed (missing '}')");
	}
	resolve(&ps);
	if (ps.nerrors || arena_failed(arena))
		return NULL;
	return ps.f;
}
