/* tgsi-tokens IN.tgsi OUT.tgsib: TGSI text as Mesa's binary tokens (the
 * words ureg would make, in the host's byte order), for tests of the
 * token reader (frontend/tgsi_tokens.h) without Mesa: the text and its
 * tokens must compile to the same container. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_args.h"
#include "tgsi_tokens.h"

struct writer {
	uint32_t *w;
	size_t n, cap;
	const char *why;     /* set when the program has no token form */
};

static void put(struct writer *wr, uint32_t v)
{
	if (wr->n == wr->cap) {
		wr->cap = wr->cap ? 2 * wr->cap : 256;
		wr->w = realloc(wr->w, wr->cap * sizeof *wr->w);
		if (!wr->w) {
			fputs("tgsi-tokens: out of memory\n", stderr);
			exit(1);
		}
	}
	wr->w[wr->n++] = v;
}

/* The index of `name` in names[0..n), -1 when absent (NULL matches NULL). */
static int find(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (names[i] == name || (names[i] && name && !strcmp(names[i], name)))
			return i;
	return -1;
}

static unsigned mesa_file(struct writer *wr, uint8_t file)
{
	for (unsigned i = 0; i < TGSI_TOK_NFILES; i++)
		if (tgsi_tok_file_of[i] == file && file != TGSI_FILE_NONE)
			return i;
	wr->why = "a register file tokens cannot name";
	return 0;
}

/* The token's first word, its word count filled in by finish(). */
static size_t start(struct writer *wr, uint32_t head)
{
	put(wr, head);
	return wr->n - 1;
}

/* `first`: whether the count includes the token's first word (not for
 * instructions: Mesa's ureg leaves it out). */
static void finish(struct writer *wr, size_t at, int count_bits, bool first)
{
	size_t words = wr->n - at - !first;
	if (words >= (1u << count_bits))
		wr->why = "a token too long";
	wr->w[at] |= (uint32_t)words << 4;
}

static void write_prop(struct writer *wr, const struct tgsi_prop *p)
{
	static const char *const names[] = { "", "", "", "FS_COORD_ORIGIN", "FS_COORD_PIXEL_CENTER",
					     "FS_COLOR0_WRITES_ALL_CBUFS" };
	static const char *const values[] = { "UPPER_LEFT", "LOWER_LEFT", "HALF_INTEGER", "INTEGER" };
	int name = find(names, 6, p->name), value = find(values, 4, p->value);
	if (name < 3) {
		wr->why = "a property tokens cannot name";
		return;
	}
	size_t at = start(wr, 3u | (uint32_t)name << 12);
	put(wr, name == 5 ? (uint32_t)atoi(p->value) : (uint32_t)(value < 0 ? 0 : value % 2));
	finish(wr, at, 8, true);
}

static void write_decl(struct writer *wr, const struct tgsi_decl *d)
{
	int sem = d->semantic ? find(tgsi_tok_semantic_names, TGSI_TOK_NSEMANTICS, d->semantic) : 0;
	int interp = d->interp ? find(tgsi_tok_interp_names, TGSI_TOK_NINTERPS, d->interp) : 0;
	int loc = find(tgsi_tok_location_names, TGSI_TOK_NLOCATIONS, d->location);
	int ret = d->return_type ? find(tgsi_tok_return_type_names, TGSI_TOK_NRETURN_TYPES,
					d->return_type) : 4;
	if (sem < 0 || interp < 0 || loc < 0 || ret < 0 || (loc && !d->interp)) {
		wr->why = "a declaration tokens cannot say";
		return;
	}
	size_t at = start(wr, 0u | mesa_file(wr, d->file) << 12 | (uint32_t)(d->mask & 0xf) << 16 |
				      (uint32_t)d->has_dim << 20 | (uint32_t)(d->semantic != NULL) << 21 |
				      (uint32_t)(d->interp != NULL) << 22 |
				      (uint32_t)(d->array_id != 0) << 25);
	put(wr, (uint32_t)d->first | (uint32_t)d->last << 16);
	if (d->has_dim)
		put(wr, (uint32_t)d->dim);
	if (d->interp)
		put(wr, (uint32_t)interp | (uint32_t)loc << 4);
	if (d->semantic)
		put(wr, (uint32_t)sem | (uint32_t)d->sem_index << 8);
	if (d->file == TGSI_FILE_SVIEW) {
		uint32_t r = (uint32_t)ret;
		put(wr, (uint32_t)(d->target < 0 ? TGSI_TARGET_2D : d->target) | r << 8 | r << 14 |
				r << 20 | r << 26);
	}
	if (d->array_id)
		put(wr, (uint32_t)d->array_id);
	finish(wr, at, 8, true);
}

static void write_imm(struct writer *wr, const struct tgsi_imm *m)
{
	int type = find(tgsi_tok_imm_type_names, TGSI_TOK_NIMM_TYPES, m->type);
	if (type < 0) {
		wr->why = "an immediate type tokens cannot name";
		return;
	}
	size_t at = start(wr, 1u | (uint32_t)type << 18);
	for (int i = 0; i < m->n; i++) {
		uint32_t v;
		memcpy(&v, &m->v[i], sizeof v);
		put(wr, v);
	}
	finish(wr, at, 14, true);
}

static uint32_t index16(int i)
{
	return (uint32_t)(uint16_t)(int16_t)i;
}

/* The words after a register word: the index register, the dimension. */
static void write_reg_tail(struct writer *wr, const struct tgsi_reg *r)
{
	if (r->indirect)
		put(wr, mesa_file(wr, r->ind_file) | index16(r->ind_index) << 4 |
				(uint32_t)r->ind_comp << 20 | (uint32_t)r->array_id << 22);
	if (r->has_dim)
		put(wr, index16(r->dim) << 16);
}

static void write_insn(struct writer *wr, const struct tgsi_insn *in)
{
	int mesa = tgsi_tok_opcode_number(in->op);
	if (mesa < 0) {
		wr->why = "an opcode tokens cannot name";
		return;
	}
	/* Mesa labels its branches (tgsi_info's is_branch); the reader skips
	 * the label */
	bool label = in->op == TGSI_OP_IF || in->op == TGSI_OP_UIF || in->op == TGSI_OP_ELSE ||
		     in->op == TGSI_OP_BGNLOOP || in->op == TGSI_OP_ENDLOOP;
	size_t at = start(wr, 2u | (uint32_t)mesa << 12 | (uint32_t)in->sat << 20 |
				      (uint32_t)in->ndst << 21 | (uint32_t)in->nsrc << 23 |
				      (uint32_t)label << 27 | (uint32_t)(in->target >= 0) << 28);
	if (label)
		put(wr, 0);
	if (in->target >= 0)
		put(wr, (uint32_t)in->target | 5u << 12); /* return type UNKNOWN, as Mesa's */
	if (in->ndst) {
		const struct tgsi_reg *r = &in->dst.reg;
		put(wr, mesa_file(wr, r->file) | (uint32_t)in->dst.mask << 4 |
				(uint32_t)r->indirect << 8 | (uint32_t)r->has_dim << 9 |
				index16(r->index) << 10);
		write_reg_tail(wr, r);
	}
	for (int i = 0; i < in->nsrc; i++) {
		const struct tgsi_src *s = &in->src[i];
		const struct tgsi_reg *r = &s->reg;
		uint32_t w = mesa_file(wr, r->file) | (uint32_t)r->indirect << 4 |
			     (uint32_t)r->has_dim << 5 | index16(r->index) << 6 |
			     (uint32_t)s->abs << 30 | (uint32_t)s->neg << 31;
		for (int c = 0; c < 4; c++)
			w |= (uint32_t)s->swz[c] << (22 + 2 * c);
		put(wr, w);
		write_reg_tail(wr, r);
	}
	finish(wr, at, 8, false);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: tgsi-tokens IN.tgsi OUT.tgsib\n", stderr);
		return 2;
	}
	char *src = run_read_file(argv[1], NULL);
	if (!src)
		return 1;
	struct arena *arena = arena_create(&mem_default_allocator);
	struct diag_sink diag;
	diag_init(&diag, arena);
	diag_add_source(&diag, argv[1], src);
	struct tgsi_prog prog;
	if (!tgsi_parse(src, argv[1], arena, &diag, &prog)) {
		fputs(diag_render(&diag), stderr);
		return 1;
	}
	struct writer wr = { NULL, 0, 0, NULL };
	put(&wr, 2); /* header: 2 words, the body's size filled in below */
	int frag = find(tgsi_tok_processor_names, TGSI_TOK_NPROCESSORS, "FRAG");
	int proc = prog.processor ? find(tgsi_tok_processor_names, TGSI_TOK_NPROCESSORS,
					 prog.processor) : frag;
	put(&wr, (uint32_t)(proc < 0 ? frag : proc));
	for (int i = 0; i < prog.nprops; i++)
		write_prop(&wr, &prog.props[i]);
	for (int i = 0; i < prog.ndecls; i++)
		write_decl(&wr, &prog.decls[i]);
	for (int i = 0; i < prog.nimms; i++)
		write_imm(&wr, &prog.imms[i]);
	for (int i = 0; i < prog.ninsns; i++)
		write_insn(&wr, &prog.insns[i]);
	wr.w[0] |= (uint32_t)(wr.n - 2) << 8;
	if (wr.why) {
		fprintf(stderr, "tgsi-tokens: %s: %s\n", argv[1], wr.why);
		return 1;
	}
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(wr.w, sizeof *wr.w, wr.n, f) != wr.n || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	free(wr.w);
	free(src);
	arena_destroy(arena);
	return 0;
}
