/* The parser of TGSI text (tgsi_prog.h): one declaration, immediate,
 * property or instruction per line, as tgsi_dump prints them.  A syntax
 * error is reported at its token and the parse goes on at the next line. */
#include "tgsi_prog.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const struct tgsi_tok *t;
	int pos;
	struct arena *arena;
	struct diag_sink *diag;
	const char *file;
	struct tgsi_prog *prog;
	bool failed;
};

static const struct tgsi_tok *peek(const struct parser *p)
{
	return &p->t[p->pos];
}

static const struct tgsi_tok *next(struct parser *p)
{
	const struct tgsi_tok *t = &p->t[p->pos];
	if (t->kind != TGSI_TOK_EOF)
		p->pos++;
	return t;
}

static struct src_loc tok_loc(const struct parser *p, const struct tgsi_tok *t)
{
	return (struct src_loc){ p->file, t->line, t->col };
}

/* Reports at token t; always false, for `return error(...)`. */
static bool error(struct parser *p, const struct tgsi_tok *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool error(struct parser *p, const struct tgsi_tok *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(p->diag, DIAG_ERROR, tok_loc(p, t), fmt, ap);
	va_end(ap);
	p->failed = true;
	return false;
}

/* How a token reads in a message: its text, or what it is. */
static const char *describe(struct parser *p, const struct tgsi_tok *t)
{
	if (t->kind == TGSI_TOK_EOF)
		return "the end of the file";
	if (t->kind == TGSI_TOK_NEWLINE)
		return "the end of the line";
	return arena_printf(p->arena, "'%.*s'", t->len > 40 ? 40 : t->len, t->text);
}

static bool is_punct(const struct tgsi_tok *t, char c)
{
	return t->kind == TGSI_TOK_PUNCT && t->punct == c;
}

static bool accept(struct parser *p, char c)
{
	if (!is_punct(peek(p), c))
		return false;
	next(p);
	return true;
}

static bool expect(struct parser *p, char c, const char *where)
{
	if (accept(p, c))
		return true;
	return error(p, peek(p), "expected '%c' %s, found %s", c, where, describe(p, peek(p)));
}

static bool is_word(const struct tgsi_tok *t, const char *w)
{
	return t->kind == TGSI_TOK_IDENT && (int)strlen(w) == t->len && !memcmp(t->text, w, (size_t)t->len);
}

static const char *tok_str(struct parser *p, const struct tgsi_tok *t)
{
	const char *s = arena_strndup(p->arena, t->text, (size_t)t->len);
	return s ? s : "";
}

/* A non-negative integer below 2^24 (indexes, ids). */
static bool expect_int(struct parser *p, int *v, const char *what)
{
	const struct tgsi_tok *t = peek(p);
	if (t->kind != TGSI_TOK_INT)
		return error(p, t, "expected %s, found %s", what, describe(p, t));
	if (t->len > 8)
		return error(p, t, "%s %.*s is too large", what, t->len, t->text);
	next(p);
	*v = atoi(tok_str(p, t));
	if (*v >= 1 << 24)
		return error(p, t, "%s %d is too large", what, *v);
	return true;
}

static bool at_line_end(const struct parser *p)
{
	return peek(p)->kind == TGSI_TOK_NEWLINE || peek(p)->kind == TGSI_TOK_EOF;
}

static bool expect_line_end(struct parser *p)
{
	if (at_line_end(p))
		return true;
	return error(p, peek(p), "expected the end of the line, found %s", describe(p, peek(p)));
}

static void skip_line(struct parser *p)
{
	while (!at_line_end(p))
		next(p);
}

/* Appends `item` to the program's array `arr` of `n` elements; false
 * when memory runs out. */
#define APPEND(p, arr, n, item) \
	(((arr) = arena_grow((p)->arena, (arr), (size_t)(n), sizeof *(arr))) != NULL && \
	 ((arr)[(n)++] = (item), true))

/* --- registers --- */

static bool parse_file(struct parser *p, uint8_t *file)
{
	const struct tgsi_tok *t = peek(p);
	int f = t->kind == TGSI_TOK_IDENT ? tgsi_name_find(tgsi_file_names, TGSI_FILE_COUNT, t->text, t->len)
					  : -1;
	if (f <= TGSI_FILE_NONE)
		return error(p, t, "expected a register file (IN, OUT, TEMP, CONST, IMM, SAMP, SVIEW, "
			     "ADDR), found %s", describe(p, t));
	next(p);
	*file = (uint8_t)f;
	return true;
}

/* The letters of a swizzle or write mask into comps[]; their count. */
static int comp_letters(const struct tgsi_tok *t, uint8_t comps[4])
{
	if (t->kind != TGSI_TOK_IDENT || t->len > 4)
		return 0;
	for (int i = 0; i < t->len; i++) {
		const char *c = strchr("xyzw", t->text[i]);
		if (!c || !t->text[i])
			return 0;
		comps[i] = (uint8_t)(c - "xyzw");
	}
	return t->len;
}

/* The inside of an index's brackets: INT, or ADDR[i].c with an optional
 * +INT / -INT. */
static bool parse_index(struct parser *p, struct tgsi_reg *r, bool *indirect, int *index)
{
	if (peek(p)->kind == TGSI_TOK_INT)
		return expect_int(p, index, "a register index");
	uint8_t comps[4];
	if (!parse_file(p, &r->ind_file) || !expect(p, '[', "after the index register's file") ||
	    !expect_int(p, &r->ind_index, "an index register number") ||
	    !expect(p, ']', "after the index register's number") ||
	    !expect(p, '.', "before the index register's component"))
		return false;
	if (comp_letters(peek(p), comps) != 1)
		return error(p, peek(p), "expected one component (x, y, z or w) of the index register, "
			     "found %s", describe(p, peek(p)));
	next(p);
	r->ind_comp = comps[0];
	*indirect = true;
	*index = 0;
	if (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
		bool neg = next(p)->punct == '-';
		if (!expect_int(p, index, "an index offset"))
			return false;
		if (neg)
			*index = -*index;
	}
	return true;
}

/* FILE[index], FILE[dim][index], with indirect indexes and (array). */
static bool parse_reg(struct parser *p, struct tgsi_reg *r)
{
	memset(r, 0, sizeof *r);
	r->loc = tok_loc(p, peek(p));
	if (!parse_file(p, &r->file) || !expect(p, '[', "after the register file"))
		return false;
	bool ind = false;
	int idx;
	if (!parse_index(p, r, &ind, &idx) || !expect(p, ']', "after the register index"))
		return false;
	if (accept(p, '[')) {
		if (ind)
			return error(p, peek(p), "an indirect first dimension is not supported");
		r->has_dim = true;
		r->dim = idx;
		if (!parse_index(p, r, &ind, &idx) || !expect(p, ']', "after the register index"))
			return false;
	}
	r->indirect = ind;
	r->index = idx;
	if (ind && accept(p, '(')) {
		if (!expect_int(p, &r->array_id, "an array id") || !expect(p, ')', "after the array id"))
			return false;
	}
	return true;
}

static bool parse_dst(struct parser *p, struct tgsi_dst *d)
{
	if (!parse_reg(p, &d->reg))
		return false;
	d->mask = 0xf;
	if (!accept(p, '.'))
		return true;
	uint8_t comps[4];
	int n = comp_letters(peek(p), comps);
	if (!n)
		return error(p, peek(p), "expected a write mask (components of xyzw in order), found %s",
			     describe(p, peek(p)));
	d->mask = 0;
	for (int i = 0; i < n; i++) {
		if (i && comps[i] <= comps[i - 1])
			return error(p, peek(p), "the write mask's components must be in xyzw order");
		d->mask |= (uint8_t)(1u << comps[i]);
	}
	next(p);
	return true;
}

static bool parse_src(struct parser *p, struct tgsi_src *s)
{
	memset(s, 0, sizeof *s);
	s->neg = accept(p, '-');
	s->abs = accept(p, '|');
	if (!parse_reg(p, &s->reg))
		return false;
	for (int i = 0; i < 4; i++)
		s->swz[i] = (uint8_t)i;
	if (accept(p, '.')) {
		uint8_t comps[4];
		int n = comp_letters(peek(p), comps);
		if (n != 1 && n != 4)
			return error(p, peek(p), "expected a swizzle (one or four of x, y, z, w), found %s",
				     describe(p, peek(p)));
		for (int i = 0; i < 4; i++)
			s->swz[i] = comps[n == 1 ? 0 : i];
		next(p);
	}
	if (s->abs && !expect(p, '|', "to close the absolute value"))
		return false;
	return true;
}

/* --- lines --- */

static bool parse_number(struct parser *p, const char *type, float *v)
{
	bool neg = accept(p, '-');
	const struct tgsi_tok *t = next(p);
	const char *s = tok_str(p, t);
	if (t->kind == TGSI_TOK_HEX && !strcmp(type, "FLT32")) {
		unsigned long bits = strtoul(s, NULL, 16);
		uint32_t b = (uint32_t)bits;
		if (t->len > 10)
			return error(p, t, "%s has more than 32 bits", s);
		memcpy(v, &b, sizeof *v);
	} else if (t->kind == TGSI_TOK_INT || t->kind == TGSI_TOK_FLOAT ||
		   (t->kind == TGSI_TOK_IDENT && (!strcmp(s, "inf") || !strcmp(s, "nan")))) {
		*v = strtof(s, NULL);
	} else {
		return error(p, t, "expected a number, found %s", describe(p, t));
	}
	if (neg)
		*v = -*v;
	return true;
}

/* IMM[n] TYPE { v, ... } */
static bool parse_imm(struct parser *p, const struct tgsi_tok *start)
{
	struct tgsi_prog *g = p->prog;
	int n;
	if (!expect(p, '[', "after IMM") || !expect_int(p, &n, "an immediate number") ||
	    !expect(p, ']', "after the immediate number"))
		return false;
	if (n != g->nimms)
		return error(p, start, "IMM[%d] out of order: the next immediate is IMM[%d]", n, g->nimms);
	const struct tgsi_tok *tt = peek(p);
	if (tt->kind != TGSI_TOK_IDENT)
		return error(p, tt, "expected the immediate's type (FLT32), found %s", describe(p, tt));
	next(p);
	struct tgsi_imm imm = { .type = tok_str(p, tt), .loc = tok_loc(p, start) };
	if (!expect(p, '{', "before the immediate's values"))
		return false;
	do {
		if (imm.n == 4)
			return error(p, peek(p), "an immediate has at most 4 values");
		if (!parse_number(p, imm.type, &imm.v[imm.n++]))
			return false;
	} while (accept(p, ','));
	if (!expect(p, '}', "after the immediate's values"))
		return false;
	return APPEND(p, g->imms, g->nimms, imm);
}

/* PROPERTY NAME value[, value ...] */
static bool parse_property(struct parser *p, const struct tgsi_tok *start)
{
	struct tgsi_prog *g = p->prog;
	const struct tgsi_tok *nt = peek(p);
	if (nt->kind != TGSI_TOK_IDENT)
		return error(p, nt, "expected a property name, found %s", describe(p, nt));
	next(p);
	struct tgsi_prop prop = { tok_str(p, nt), "", tok_loc(p, start) };
	if (!at_line_end(p))
		prop.value = tok_str(p, peek(p));
	skip_line(p);
	return APPEND(p, g->props, g->nprops, prop);
}

/* first[..last] of a declaration's brackets */
static bool parse_range(struct parser *p, int *first, int *last)
{
	if (!expect_int(p, first, "a register number"))
		return false;
	*last = *first;
	if (accept(p, '.')) {
		if (!expect(p, '.', "in the range 'first..last'") ||
		    !expect_int(p, last, "the range's last register"))
			return false;
		if (*last < *first)
			return error(p, peek(p), "the range %d..%d is empty", *first, *last);
	}
	return expect(p, ']', "after the register range");
}

static bool is_interp(const struct tgsi_tok *t)
{
	return is_word(t, "CONSTANT") || is_word(t, "LINEAR") || is_word(t, "PERSPECTIVE") ||
	       is_word(t, "COLOR");
}

/* One ", ITEM" of a declaration. */
static bool parse_decl_item(struct parser *p, struct tgsi_decl *d, bool *had_semantic)
{
	const struct tgsi_tok *t = peek(p);
	if (t->kind != TGSI_TOK_IDENT)
		return error(p, t, "expected a declaration attribute, found %s", describe(p, t));
	next(p);
	if (is_word(t, "ARRAY"))
		return expect(p, '(', "after ARRAY") && expect_int(p, &d->array_id, "an array id") &&
		       expect(p, ')', "after the array id");
	if (is_word(t, "LOCAL") || is_word(t, "INVARIANT"))
		return true;
	if (d->file == TGSI_FILE_SVIEW && d->target < 0) {
		d->target = tgsi_name_find(tgsi_target_names, TGSI_TARGET_COUNT, t->text, t->len);
		if (d->target < 0)
			return error(p, t, "unknown texture target %s", describe(p, t));
		return true;
	}
	if (d->file == TGSI_FILE_SVIEW) {
		if (!d->return_type)
			d->return_type = tok_str(p, t);
		return true;
	}
	if (is_word(t, "CENTER") || is_word(t, "CENTROID") || is_word(t, "SAMPLE")) {
		d->location = is_word(t, "CENTER") ? NULL : tok_str(p, t);
		return true;
	}
	/* COLOR is a semantic first, an interpolation after one */
	if (*had_semantic && is_interp(t)) {
		d->interp = tok_str(p, t);
		return true;
	}
	if (*had_semantic)
		return error(p, t, "unexpected %s in a declaration", describe(p, t));
	*had_semantic = true;
	d->semantic = tok_str(p, t);
	if (accept(p, '['))
		return expect_int(p, &d->sem_index, "a semantic index") &&
		       expect(p, ']', "after the semantic index");
	return true;
}

/* DCL FILE[range][.mask][, ...] */
static bool parse_decl(struct parser *p, const struct tgsi_tok *start)
{
	struct tgsi_prog *g = p->prog;
	struct tgsi_decl d = { .mask = 0xf, .target = -1, .loc = tok_loc(p, start) };
	if (!parse_file(p, &d.file) || !expect(p, '[', "after the register file") ||
	    !parse_range(p, &d.first, &d.last))
		return false;
	if (accept(p, '[')) {
		if (d.first != d.last)
			return error(p, start, "a declaration's first dimension is one number");
		d.has_dim = true;
		d.dim = d.first;
		if (!parse_range(p, &d.first, &d.last))
			return false;
	}
	if (accept(p, '.')) {
		uint8_t comps[4];
		int n = comp_letters(peek(p), comps);
		if (!n)
			return error(p, peek(p), "expected a usage mask, found %s", describe(p, peek(p)));
		d.mask = 0;
		for (int i = 0; i < n; i++)
			d.mask |= (uint8_t)(1u << comps[i]);
		next(p);
	}
	bool had_semantic = false;
	while (accept(p, ','))
		if (!parse_decl_item(p, &d, &had_semantic))
			return false;
	return APPEND(p, g->decls, g->ndecls, d);
}

/* The opcode's name with its _SAT and _PRECISE suffixes. */
static bool parse_opcode(struct parser *p, struct tgsi_insn *in)
{
	const struct tgsi_tok *t = next(p);
	int len = t->len;
	bool sat = false;
	for (;;) {
		if (len > 4 && !memcmp(t->text + len - 4, "_SAT", 4)) {
			sat = true;
			len -= 4;
		} else if (len > 8 && !memcmp(t->text + len - 8, "_PRECISE", 8)) {
			len -= 8;
		} else {
			break;
		}
	}
	int op = tgsi_opcode_find(t->text, len);
	if (op < 0)
		return error(p, t, "TGSI opcode '%.*s' is not supported", len > 40 ? 40 : len, t->text);
	in->op = (uint8_t)op;
	in->sat = sat;
	return true;
}

/* [N:] OPCODE dst, src, ...[, TARGET][ :label] */
static bool parse_insn(struct parser *p)
{
	struct tgsi_prog *g = p->prog;
	struct tgsi_insn in = { .target = -1, .match = -1 };
	if (peek(p)->kind == TGSI_TOK_INT) {
		next(p);
		if (!expect(p, ':', "after the instruction number"))
			return false;
	}
	in.loc = tok_loc(p, peek(p));
	if (peek(p)->kind != TGSI_TOK_IDENT)
		return error(p, peek(p), "expected an opcode, found %s", describe(p, peek(p)));
	if (!parse_opcode(p, &in))
		return false;
	const struct tgsi_op_info *info = &tgsi_op_infos[in.op];
	in.ndst = info->ndst;
	in.nsrc = info->nsrc;
	for (int i = 0; i < in.ndst + in.nsrc; i++) {
		if (i && !expect(p, ',', "between operands"))
			return false;
		if (i < in.ndst ? !parse_dst(p, &in.dst) : !parse_src(p, &in.src[i - in.ndst]))
			return false;
	}
	if (info->kind == TGSI_K_TEX) {
		if (!expect(p, ',', "before the texture target"))
			return false;
		const struct tgsi_tok *t = peek(p);
		in.target = t->kind == TGSI_TOK_IDENT
			? tgsi_name_find(tgsi_target_names, TGSI_TARGET_COUNT, t->text, t->len) : -1;
		if (in.target < 0)
			return error(p, t, "expected a texture target (1D, 2D, 3D, CUBE, RECT, SHADOW2D ...), "
				     "found %s", describe(p, t));
		next(p);
		if (is_punct(peek(p), ','))
			return error(p, peek(p), "texture offsets are not supported");
	}
	if (accept(p, ':')) {
		int label;
		if (!expect_int(p, &label, "a label"))
			return false;
	}
	return APPEND(p, g->insns, g->ninsns, in);
}

static bool parse_line(struct parser *p)
{
	const struct tgsi_tok *t = peek(p);
	if (t->kind == TGSI_TOK_BAD)
		return error(p, t, "unexpected character %s", describe(p, t));
	if (t->kind == TGSI_TOK_IDENT && !p->prog->processor && !p->prog->ndecls &&
	    !p->prog->ninsns && (is_word(t, "FRAG") || is_word(t, "VERT") || is_word(t, "GEOM") ||
				  is_word(t, "COMP") || is_word(t, "TESS_CTRL") ||
				  is_word(t, "TESS_EVAL"))) {
		next(p);
		p->prog->processor = tok_str(p, t);
		p->prog->processor_loc = tok_loc(p, t);
		return true;
	}
	if (is_word(t, "DCL")) {
		next(p);
		return parse_decl(p, t);
	}
	if (is_word(t, "IMM")) {
		next(p);
		return parse_imm(p, t);
	}
	if (is_word(t, "PROPERTY")) {
		next(p);
		return parse_property(p, t);
	}
	return parse_insn(p);
}

bool tgsi_parse(const char *source, const char *file, struct arena *arena,
		struct diag_sink *diag, struct tgsi_prog *prog)
{
	memset(prog, 0, sizeof *prog);
	struct tgsi_tok *toks;
	int ntoks;
	if (!tgsi_lex(source, arena, &toks, &ntoks))
		return false;
	struct parser p = { toks, 0, arena, diag, file, prog, false };
	while (peek(&p)->kind != TGSI_TOK_EOF) {
		if (peek(&p)->kind == TGSI_TOK_NEWLINE) {
			next(&p);
			continue;
		}
		if (!parse_line(&p) || !expect_line_end(&p))
			skip_line(&p);
		if (arena_failed(arena))
			return false;
	}
	prog->end_loc = tok_loc(&p, peek(&p));
	return !p.failed;
}
