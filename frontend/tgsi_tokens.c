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

/* Mesa's opcode numbers (enum tgsi_opcode) of the opcodes uscc takes. */
static const struct { uint8_t mesa; uint8_t op; } opcode_numbers[] = {
	{ 1, TGSI_OP_MOV }, { 8, TGSI_OP_ADD }, { 7, TGSI_OP_MUL }, { 16, TGSI_OP_MAD },
	{ 19, TGSI_OP_FMA }, { 70, TGSI_OP_DIV }, { 12, TGSI_OP_MIN }, { 13, TGSI_OP_MAX },
	{ 24, TGSI_OP_FRC }, { 26, TGSI_OP_FLR }, { 83, TGSI_OP_CEIL }, { 86, TGSI_OP_TRUNC },
	{ 65, TGSI_OP_SSG }, { 37, TGSI_OP_DDX }, { 38, TGSI_OP_DDY }, { 79, TGSI_OP_DDX_FINE },
	{ 80, TGSI_OP_DDY_FINE }, { 3, TGSI_OP_RCP }, { 4, TGSI_OP_RSQ }, { 20, TGSI_OP_SQRT },
	{ 28, TGSI_OP_EX2 }, { 29, TGSI_OP_LG2 }, { 30, TGSI_OP_POW }, { 48, TGSI_OP_SIN },
	{ 36, TGSI_OP_COS }, { 71, TGSI_OP_DP2 }, { 9, TGSI_OP_DP3 }, { 10, TGSI_OP_DP4 },
	{ 18, TGSI_OP_LRP }, { 66, TGSI_OP_CMP }, { 14, TGSI_OP_SLT }, { 15, TGSI_OP_SGE },
	{ 45, TGSI_OP_SEQ }, { 50, TGSI_OP_SNE }, { 47, TGSI_OP_SGT }, { 49, TGSI_OP_SLE },
	{ 27, TGSI_OP_ROUND }, { 0, TGSI_OP_ARL }, { 61, TGSI_OP_ARR }, { 52, TGSI_OP_TEX },
	{ 68, TGSI_OP_TXB }, { 72, TGSI_OP_TXL }, { 54, TGSI_OP_TXP }, { 53, TGSI_OP_TXD },
	{ 39, TGSI_OP_KILL }, { 116, TGSI_OP_KILL_IF }, { 74, TGSI_OP_IF }, { 75, TGSI_OP_UIF },
	{ 77, TGSI_OP_ELSE }, { 78, TGSI_OP_ENDIF }, { 99, TGSI_OP_BGNLOOP },
	{ 101, TGSI_OP_ENDLOOP }, { 73, TGSI_OP_BRK }, { 96, TGSI_OP_CONT }, { 107, TGSI_OP_NOP },
	{ 117, TGSI_OP_END },
};

static int opcode_of(unsigned mesa)
{
	for (unsigned i = 0; i < COUNT(opcode_numbers); i++)
		if (opcode_numbers[i].mesa == mesa)
			return opcode_numbers[i].op;
	return -1;
}

int tgsi_tok_opcode_number(int op)
{
	for (unsigned i = 0; i < COUNT(opcode_numbers); i++)
		if (opcode_numbers[i].op == op)
			return opcode_numbers[i].mesa;
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
	struct tgsi_insn in;
	memset(&in, 0, sizeof in);
	in.loc = word_loc(r, at);
	in.target = -1;
	in.match = -1;
	unsigned mesa = bits(head, 12, 8);
	int op = opcode_of(mesa);
	if (op < 0)
		return fail(r, at, "opcode %u is not one uscc takes", mesa);
	const struct tgsi_op_info *info = &tgsi_op_infos[op];
	in.op = (uint8_t)op;
	in.sat = bits(head, 20, 1);
	in.ndst = (int)bits(head, 21, 2);
	in.nsrc = (int)bits(head, 23, 4);
	if (in.ndst != info->ndst || in.nsrc != info->nsrc)
		return fail(r, at, "%s with %d destinations and %d sources: it takes %d and %d",
			    info->name, in.ndst, in.nsrc, info->ndst, info->nsrc);
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
		in.target = (int)bits(w, 0, 8);
	}
	if ((info->kind == TGSI_K_TEX) != (in.target >= 0))
		return fail(r, at, "%s %s a texture target", info->name,
			    in.target >= 0 ? "with" : "without");
	if (in.ndst && !read_dst(r, end, &in.dst))
		return false;
	for (int i = 0; i < in.nsrc; i++)
		if (!read_src(r, end, &in.src[i]))
			return false;
	return APPEND(r, r->prog->insns, r->prog->ninsns, in);
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
