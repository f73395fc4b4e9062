/* The reader of Mesa's binary TGSI (struct tgsi_token words, in the
 * host's byte order, as a Gallium driver holds them): the same program
 * (tgsi_prog.h) the text parser fills, so that everything after it is
 * shared.  Bit layouts are p_shader_tokens.h's (Mesa 22.3).  A
 * diagnostic's line is the 1-based number of the word it is about. */
#include "tgsi_tokens.h"

#include <stdarg.h>
#include <string.h>

#include "decimal.h"

struct reader {
	const uint32_t *w;
	size_t n;            /* words of the program (header + body) */
	size_t pos;
	struct arena *arena;
	struct diag_sink *diag;
	const char *file;
	struct tgsi_prog *prog;
};

static struct src_loc word_loc(const struct reader *r, size_t at)
{
	return (struct src_loc){ r->file, (int)(at + 1), 1 };
}

static bool fail(struct reader *r, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail(struct reader *r, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vreport(r->diag, DIAG_ERROR, word_loc(r, at), fmt, ap);
	va_end(ap);
	return false;
}

static unsigned bits(uint32_t w, int lo, int n)
{
	return (unsigned)(w >> lo) & ((1u << n) - 1u);
}

static int sbits16(uint32_t w, int lo)
{
	return (int)(int16_t)(uint16_t)bits(w, lo, 16);
}

/* The next word of a token that ends before word `end`. */
static bool take(struct reader *r, size_t end, uint32_t *w, const char *what)
{
	*w = 0;
	if (r->pos >= end)
		return fail(r, r->pos, "the token ends before its %s", what);
	*w = r->w[r->pos++];
	return true;
}

#define APPEND(r, arr, n, item) \
	(((arr) = arena_grow((r)->arena, (arr), (size_t)(n), sizeof *(arr))) != NULL && \
	 ((arr)[(n)++] = (item), true))

/* A new zeroed element at the end of arr, read into where it stays (an
 * instruction is ~360 bytes: zeroed on the stack and copied, it cost
 * three times over); NULL when out of memory. */
#define NEW_SLOT(r, arr, n) \
	(((arr) = arena_grow((r)->arena, (arr), (size_t)(n), sizeof *(arr))) != NULL ? \
	 &(arr)[(n)++] : NULL)

/* --- names, in tgsi_dump's spelling --- */

const char *const tgsi_tok_processor_names[TGSI_TOK_NPROCESSORS] = { "VERT", "TESS_CTRL", "TESS_EVAL", "GEOM", "FRAG", "COMP" };
const char *const tgsi_tok_semantic_names[TGSI_TOK_NSEMANTICS] = {
	"POSITION", "COLOR", "BCOLOR", "FOG", "PSIZE", "GENERIC", "NORMAL", "FACE", "EDGEFLAG",
	"PRIMID", "INSTANCEID", "VERTEXID", "STENCIL", "CLIPDIST", "CLIPVERTEX", "GRID_SIZE",
	"BLOCK_ID", "BLOCK_SIZE", "THREAD_ID", "TEXCOORD", "PCOORD"
};
const char *const tgsi_tok_interp_names[TGSI_TOK_NINTERPS] = { "CONSTANT", "LINEAR", "PERSPECTIVE", "COLOR" };
const char *const tgsi_tok_location_names[TGSI_TOK_NLOCATIONS] = { NULL, "CENTROID", "SAMPLE" };
const char *const tgsi_tok_imm_type_names[TGSI_TOK_NIMM_TYPES] = { "FLT32", "UINT32", "INT32", "FLT64", "UINT64", "INT64" };
const char *const tgsi_tok_return_type_names[TGSI_TOK_NRETURN_TYPES] = { "UNORM", "SNORM", "SINT", "UINT", "FLOAT", "UNKNOWN" };
#define COUNT(a) ((unsigned)(sizeof(a) / sizeof *(a)))

/* Mesa's file numbers to uscc's; TGSI_FILE_NONE for files uscc does not
 * take (NULL, SYSTEM_VALUE, IMAGE, BUFFER ...). */
const uint8_t tgsi_tok_file_of[TGSI_TOK_NFILES] = {
	TGSI_FILE_NONE, TGSI_FILE_CONST, TGSI_FILE_IN, TGSI_FILE_OUT, TGSI_FILE_TEMP,
	TGSI_FILE_SAMP, TGSI_FILE_ADDR, TGSI_FILE_IMM, TGSI_FILE_NONE, TGSI_FILE_NONE,
	TGSI_FILE_SVIEW
};

static bool file(struct reader *r, size_t at, unsigned mesa, uint8_t *out)
{
	if (mesa >= COUNT(tgsi_tok_file_of) || tgsi_tok_file_of[mesa] == TGSI_FILE_NONE)
		return fail(r, at, "register file %u is not one uscc takes", mesa);
	*out = tgsi_tok_file_of[mesa];
	return true;
}

/* Mesa's opcode numbers (enum tgsi_opcode) of the opcodes uscc takes,
 * once for both directions. */
#define TGSI_TOK_OPCODES(X) \
	X(1, MOV) X(8, ADD) X(7, MUL) X(16, MAD) X(19, FMA) X(70, DIV) X(12, MIN) X(13, MAX) \
	X(24, FRC) X(26, FLR) X(83, CEIL) X(86, TRUNC) X(65, SSG) X(37, DDX) X(38, DDY) \
	X(79, DDX_FINE) X(80, DDY_FINE) X(3, RCP) X(4, RSQ) X(20, SQRT) X(28, EX2) X(29, LG2) \
	X(30, POW) X(48, SIN) X(36, COS) X(71, DP2) X(9, DP3) X(10, DP4) X(18, LRP) X(66, CMP) \
	X(14, SLT) X(15, SGE) X(45, SEQ) X(50, SNE) X(47, SGT) X(49, SLE) X(27, ROUND) X(0, ARL) \
	X(61, ARR) X(52, TEX) X(68, TXB) X(72, TXL) X(54, TXP) X(53, TXD) X(39, KILL) \
	X(116, KILL_IF) X(74, IF) X(75, UIF) X(77, ELSE) X(78, ENDIF) X(99, BGNLOOP) \
	X(101, ENDLOOP) X(73, BRK) X(96, CONT) X(107, NOP) X(117, END)

enum { MESA_OPCODES = 118 };
_Static_assert(TGSI_OP_COUNT < 255, "opcode_by_mesa holds an opcode + 1 in a byte"); /* one past the highest number above */

/* By Mesa's number: uscc's opcode + 1, 0 for one uscc does not take (a
 * table, not a search of the list: END, in every program, was last). */
static const uint8_t opcode_by_mesa[MESA_OPCODES] = {
#define BY_MESA(mesa, op) [mesa] = TGSI_OP_##op + 1,
	TGSI_TOK_OPCODES(BY_MESA)
#undef BY_MESA
};

static int opcode_of(unsigned mesa)
{
	return mesa < MESA_OPCODES ? opcode_by_mesa[mesa] - 1 : -1;
}

int tgsi_tok_opcode_number(int op)
{
#define NUMBER_OF(mesa, name) if (op == TGSI_OP_##name) return mesa;
	TGSI_TOK_OPCODES(NUMBER_OF)
#undef NUMBER_OF
	return -1;
}

/* --- declarations --- */

static bool read_declaration(struct reader *r, size_t at, size_t end, uint32_t head)
{
	struct tgsi_decl d;
	memset(&d, 0, sizeof d);
	d.loc = word_loc(r, at);
	d.target = -1;
	if (!file(r, at, bits(head, 12, 4), &d.file))
		return false;
	d.mask = (uint8_t)bits(head, 16, 4);
	uint32_t w;
	if (!take(r, end, &w, "range"))
		return false;
	d.first = (int)bits(w, 0, 16);
	d.last = (int)bits(w, 16, 16);
	if (d.last < d.first)
		return fail(r, r->pos - 1, "a declaration's range ends (%d) before it starts (%d)",
			    d.last, d.first);
	if (bits(head, 20, 1)) {
		if (!take(r, end, &w, "dimension"))
			return false;
		d.has_dim = true;
		d.dim = (int)bits(w, 0, 16);
	}
	if (bits(head, 22, 1)) {
		if (!take(r, end, &w, "interpolation"))
			return false;
		unsigned mode = bits(w, 0, 4), loc = bits(w, 4, 2);
		if (mode >= COUNT(tgsi_tok_interp_names) || loc >= COUNT(tgsi_tok_location_names))
			return fail(r, r->pos - 1, "interpolation %u at location %u is not one TGSI has",
				    mode, loc);
		d.interp = tgsi_tok_interp_names[mode];
		d.location = tgsi_tok_location_names[loc];
	}
	if (bits(head, 21, 1)) {
		if (!take(r, end, &w, "semantic"))
			return false;
		unsigned name = bits(w, 0, 8);
		if (name >= COUNT(tgsi_tok_semantic_names))
			return fail(r, r->pos - 1, "semantic %u is not one uscc takes", name);
		d.semantic = tgsi_tok_semantic_names[name];
		d.sem_index = (int)bits(w, 8, 16);
	}
	if (d.file == TGSI_FILE_SVIEW) {
		if (!take(r, end, &w, "sampler view"))
			return false;
		unsigned target = bits(w, 0, 8), ret = bits(w, 8, 6);
		if (target >= TGSI_TARGET_COUNT || ret >= COUNT(tgsi_tok_return_type_names))
			return fail(r, r->pos - 1, "a sampler view of target %u returning type %u",
				    target, ret);
		d.target = (int)target;
		d.return_type = tgsi_tok_return_type_names[ret];
	}
	if (bits(head, 25, 1)) {
		if (!take(r, end, &w, "array id"))
			return false;
		d.array_id = (int)bits(w, 0, 10);
	}
	return APPEND(r, r->prog->decls, r->prog->ndecls, d);
}

/* --- immediates and properties --- */

static bool read_immediate(struct reader *r, size_t at, size_t end, uint32_t head)
{
	struct tgsi_imm m;
	memset(&m, 0, sizeof m);
	m.loc = word_loc(r, at);
	unsigned type = bits(head, 18, 4);
	if (type >= COUNT(tgsi_tok_imm_type_names))
		return fail(r, at, "immediate data type %u is not one TGSI has", type);
	m.type = tgsi_tok_imm_type_names[type];
	if (end - r->pos > 4)
		return fail(r, at, "an immediate of %zu words: at most 4", end - r->pos);
	while (r->pos < end) {
		uint32_t w = r->w[r->pos++];
		memcpy(&m.v[m.n++], &w, sizeof w);
	}
	if (!m.n)
		return fail(r, at, "an immediate without values");
	return APPEND(r, r->prog->imms, r->prog->nimms, m);
}

static bool read_property(struct reader *r, size_t at, size_t end, uint32_t head)
{
	static const char *const origin[] = { "UPPER_LEFT", "LOWER_LEFT" };
	static const char *const center[] = { "HALF_INTEGER", "INTEGER" };
	struct tgsi_prop p = { NULL, NULL, word_loc(r, at) };
	unsigned name = bits(head, 12, 8);
	uint32_t v;
	if (!take(r, end, &v, "value"))
		return false;
	if (name == 3 && v < 2) {
		p.name = "FS_COORD_ORIGIN";
		p.value = origin[v];
	} else if (name == 4 && v < 2) {
		p.name = "FS_COORD_PIXEL_CENTER";
		p.value = center[v];
	} else if (name == 5) { /* in every shader st makes: no printf */
		char digits[DECIMAL_MAX];
		size_t len;
		const char *d = decimal_format(digits, v, &len);
		p.name = "FS_COLOR0_WRITES_ALL_CBUFS";
		p.value = arena_strndup(r->arena, d, len);
	} else {
		return fail(r, at, "property %u with value %u is not supported", name, v);
	}
	r->pos = end; /* further values: none of these properties has them */
	return p.value && APPEND(r, r->prog->props, r->prog->nprops, p);
}

/* --- instructions --- */

/* The index register after an indirect operand (tgsi_ind_register). */
static bool read_indirect(struct reader *r, size_t end, struct tgsi_reg *reg)
{
	uint32_t w;
	if (!take(r, end, &w, "index register"))
		return false;
	reg->indirect = true;
	if (!file(r, r->pos - 1, bits(w, 0, 4), &reg->ind_file))
		return false;
	reg->ind_index = sbits16(w, 4);
	reg->ind_comp = (uint8_t)bits(w, 20, 2);
	reg->array_id = (int)bits(w, 22, 10);
	return true;
}

/* What follows a register word: the index register, the dimension. */
static bool read_reg_tail(struct reader *r, size_t end, bool indirect, bool dimension,
			  struct tgsi_reg *reg)
{
	if (indirect && !read_indirect(r, end, reg))
		return false;
	if (dimension) {
		uint32_t w;
		if (!take(r, end, &w, "dimension"))
			return false;
		if (bits(w, 0, 1) || bits(w, 1, 1))
			return fail(r, r->pos - 1, "indirect or nested dimensions are not supported");
		reg->has_dim = true;
		reg->dim = sbits16(w, 16);
	}
	return true;
}

static bool read_dst(struct reader *r, size_t end, struct tgsi_dst *dst)
{
	uint32_t w;
	if (!take(r, end, &w, "destination"))
		return false;
	dst->reg.loc = word_loc(r, r->pos - 1);
	if (!file(r, r->pos - 1, bits(w, 0, 4), &dst->reg.file))
		return false;
	dst->mask = (uint8_t)bits(w, 4, 4);
	if (!dst->mask) /* the text cannot say it: tgsi_dump prints no mask as .xyzw */
		return fail(r, r->pos - 1, "a destination that writes no component");
	dst->reg.index = sbits16(w, 10);
	return read_reg_tail(r, end, bits(w, 8, 1), bits(w, 9, 1), &dst->reg);
}

static bool read_src(struct reader *r, size_t end, struct tgsi_src *src)
{
	uint32_t w;
	if (!take(r, end, &w, "source"))
		return false;
	src->reg.loc = word_loc(r, r->pos - 1);
	if (!file(r, r->pos - 1, bits(w, 0, 4), &src->reg.file))
		return false;
	src->reg.index = sbits16(w, 6);
	for (int c = 0; c < 4; c++)
		src->swz[c] = (uint8_t)bits(w, 22 + 2 * c, 2);
	src->abs = bits(w, 30, 1);
	src->neg = bits(w, 31, 1);
	return read_reg_tail(r, end, bits(w, 4, 1), bits(w, 5, 1), &src->reg);
}

static bool read_instruction(struct reader *r, size_t at, size_t end, uint32_t head)
{
	struct tgsi_insn *in = NEW_SLOT(r, r->prog->insns, r->prog->ninsns);
	if (!in)
		return false;
	in->loc = word_loc(r, at);
	in->target = -1;
	in->match = -1;
	unsigned mesa = bits(head, 12, 8);
	int op = opcode_of(mesa);
	if (op < 0)
		return fail(r, at, "opcode %u is not one uscc takes", mesa);
	const struct tgsi_op_info *info = &tgsi_op_infos[op];
	in->op = (uint8_t)op;
	in->sat = bits(head, 20, 1);
	in->ndst = (int)bits(head, 21, 2);
	in->nsrc = (int)bits(head, 23, 4);
	if (in->ndst != info->ndst || in->nsrc != info->nsrc)
		return fail(r, at, "%s with %d destinations and %d sources: it takes %d and %d",
			    info->name, in->ndst, in->nsrc, info->ndst, info->nsrc);
	if (bits(head, 29, 1))
		return fail(r, at, "%s: memory qualifiers are not supported", info->name);
	uint32_t w;
	if (bits(head, 27, 1) && !take(r, end, &w, "label")) /* IF's, ELSE's: unused */
		return false;
	if (bits(head, 28, 1)) {
		if (!take(r, end, &w, "texture"))
			return false;
		if (bits(w, 0, 8) >= TGSI_TARGET_COUNT || bits(w, 8, 4))
			return fail(r, r->pos - 1, "texture target %u with %u offsets is not supported",
				    bits(w, 0, 8), bits(w, 8, 4));
		in->target = (int)bits(w, 0, 8);
	}
	if ((info->kind == TGSI_K_TEX) != (in->target >= 0))
		return fail(r, at, "%s %s a texture target", info->name,
			    in->target >= 0 ? "with" : "without");
	if (in->ndst && !read_dst(r, end, &in->dst))
		return false;
	for (int i = 0; i < in->nsrc; i++)
		if (!read_src(r, end, &in->src[i]))
			return false;
	return true;
}

/* --- the stream --- */

static bool read_token(struct reader *r)
{
	size_t at = r->pos;
	uint32_t head = r->w[r->pos++];
	unsigned type = bits(head, 0, 4);
	/* an immediate counts its words in 14 bits, every other token in 8;
	 * an instruction's count leaves out its first word (ureg's
	 * ureg_fixup_insn_size), the others' include it */
	size_t ntok = type == 1 ? bits(head, 4, 14) : bits(head, 4, 8) + (type == 2);
	if (ntok < 1 || ntok > r->n - at)
		return fail(r, at, "a token of %zu words where %zu remain", ntok, r->n - at);
	size_t end = at + ntok;
	bool ok;
	switch (type) {
	case 0: ok = read_declaration(r, at, end, head); break;
	case 1: ok = read_immediate(r, at, end, head); break;
	case 2: ok = read_instruction(r, at, end, head); break;
	case 3: ok = read_property(r, at, end, head); break;
	default: return fail(r, at, "token type %u is not one TGSI has", type);
	}
	if (ok && r->pos != end)
		return fail(r, at, "a token of %zu words holds %zu", ntok, r->pos - at);
	return ok;
}

bool tgsi_read_tokens(const uint32_t *words, size_t nwords, const char *file,
		      struct arena *arena, struct diag_sink *diag, struct tgsi_prog *prog)
{
	memset(prog, 0, sizeof *prog);
	struct reader r = { words, nwords, 0, arena, diag, file, prog };
	if (nwords < 2)
		return fail(&r, 0, "%zu words: a TGSI program has a header and a processor", nwords);
	size_t header = bits(words[0], 0, 8), body = bits(words[0], 8, 24);
	if (header < 2 || header + body != nwords)
		return fail(&r, 0, "the header says %zu + %zu words; the program has %zu", header, body,
			    nwords);
	unsigned proc = bits(words[1], 0, 4);
	if (proc >= COUNT(tgsi_tok_processor_names))
		return fail(&r, 1, "processor %u is not one TGSI has", proc);
	prog->processor = tgsi_tok_processor_names[proc];
	prog->processor_loc = word_loc(&r, 1);
	r.pos = header;
	while (r.pos < r.n)
		if (!read_token(&r))
			return false;
	prog->end_loc = word_loc(&r, r.n);
	return !arena_failed(arena) || fail(&r, 0, "out of memory");
}
