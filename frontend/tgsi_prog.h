/* A TGSI fragment program in the text form Mesa's tgsi_dump prints, as
 * read by the lexer (tgsi_lexer.l) and the parser (tgsi_parse.c): tokens,
 * then declarations, immediates, properties and instructions with their
 * source locations.  Only the syntax is checked here; what the program
 * means is the lowering's (tgsi_lower.h). */
#ifndef USCC_FE_TGSI_PROG_H
#define USCC_FE_TGSI_PROG_H

#include <stdbool.h>
#include <stdint.h>
#include "arena.h"
#include "diag.h"

/* --- tokens --- */

enum tgsi_tok_kind {
	TGSI_TOK_EOF, TGSI_TOK_NEWLINE, TGSI_TOK_IDENT, TGSI_TOK_INT, TGSI_TOK_FLOAT,
	TGSI_TOK_HEX, TGSI_TOK_PUNCT, TGSI_TOK_BAD
};

struct tgsi_tok {
	uint8_t kind;        /* enum tgsi_tok_kind */
	char punct;          /* TGSI_TOK_PUNCT: the character */
	const char *text;    /* into the source; len bytes */
	int len;
	int line, col;
};

/* The tokens of `source` into *toks (arena), ending with TGSI_TOK_EOF;
 * false when memory runs out. */
bool tgsi_lex(const char *source, struct arena *arena, struct tgsi_tok **toks, int *ntoks);

/* --- names (tgsi_names.c) --- */

enum tgsi_opcode {
#define TGSI_OP(name, ndst, nsrc, kind, ir) TGSI_OP_##name,
#include "tgsi_opcodes.def"
#undef TGSI_OP
	TGSI_OP_COUNT
};

/* How the lowering treats an opcode (tgsi_opcodes.def). */
enum tgsi_op_kind {
	TGSI_K_COMP,         /* component-wise over its sources: the IR op given */
	TGSI_K_SCALAR,       /* of the sources' .x, the result replicated */
	TGSI_K_DOT,          /* a dot product, replicated */
	TGSI_K_SPECIAL,      /* its own code in tgsi_alu.c */
	TGSI_K_TEX,          /* a texture lookup */
	TGSI_K_FLOW          /* control flow, END, KILL */
};

struct tgsi_op_info {
	const char *name;
	int ndst, nsrc;
	uint8_t kind;        /* enum tgsi_op_kind */
	int ir;              /* enum ir_op for COMP, SCALAR and DOT */
};
extern const struct tgsi_op_info tgsi_op_infos[TGSI_OP_COUNT];

/* Register files, in tgsi_strings.c's spelling. */
enum tgsi_file { TGSI_FILE_NONE, TGSI_FILE_IN, TGSI_FILE_OUT, TGSI_FILE_TEMP, TGSI_FILE_CONST,
		 TGSI_FILE_IMM, TGSI_FILE_SAMP, TGSI_FILE_SVIEW, TGSI_FILE_ADDR, TGSI_FILE_COUNT };
extern const char *const tgsi_file_names[TGSI_FILE_COUNT];

/* Texture targets (tgsi_texture_names). */
enum tgsi_target {
	TGSI_TARGET_BUFFER, TGSI_TARGET_1D, TGSI_TARGET_2D, TGSI_TARGET_3D, TGSI_TARGET_CUBE,
	TGSI_TARGET_RECT, TGSI_TARGET_SHADOW1D, TGSI_TARGET_SHADOW2D, TGSI_TARGET_SHADOWRECT,
	TGSI_TARGET_1D_ARRAY, TGSI_TARGET_2D_ARRAY, TGSI_TARGET_SHADOW1D_ARRAY,
	TGSI_TARGET_SHADOW2D_ARRAY, TGSI_TARGET_SHADOWCUBE, TGSI_TARGET_2D_MSAA,
	TGSI_TARGET_2D_ARRAY_MSAA, TGSI_TARGET_CUBE_ARRAY, TGSI_TARGET_SHADOWCUBE_ARRAY,
	TGSI_TARGET_UNKNOWN, TGSI_TARGET_COUNT
};
extern const char *const tgsi_target_names[TGSI_TARGET_COUNT];

/* The index of `name` (len bytes) in names[0..n), -1 when absent. */
int tgsi_name_find(const char *const *names, int n, const char *name, int len);
int tgsi_opcode_find(const char *name, int len);

/* --- the program --- */

/* FILE[dim][index], or FILE[dim][ADDR[i].c + index](array) with an
 * indirect index. */
struct tgsi_reg {
	uint8_t file;             /* enum tgsi_file */
	bool has_dim;             /* two indexes: CONST[0][5] */
	int dim;
	int index;
	bool indirect;
	uint8_t ind_file;         /* the index register's file (ADDR) */
	int ind_index;
	uint8_t ind_comp;         /* its component */
	int array_id;             /* (n) after an indirect index; 0 none */
	struct src_loc loc;
};

struct tgsi_src {
	struct tgsi_reg reg;
	uint8_t swz[4];
	bool neg, abs;
};

struct tgsi_dst {
	struct tgsi_reg reg;
	uint8_t mask;             /* bit c: component c written */
};

struct tgsi_insn {
	uint8_t op;               /* enum tgsi_opcode */
	bool sat;
	int ndst, nsrc;
	struct tgsi_dst dst;
	struct tgsi_src src[4];
	int target;               /* texture lookups: enum tgsi_target; else -1 */
	struct src_loc loc;       /* of the opcode */
	/* set by tgsi_structure: IF -> its ELSE or ENDIF, ELSE -> its ENDIF,
	 * BGNLOOP -> its ENDLOOP; -1 otherwise */
	int match;
};

/* DCL FILE[first..last][.mask][, ARRAY(n)][, SEMANTIC[i]][, interpolation]... */
struct tgsi_decl {
	uint8_t file;
	bool has_dim;
	int dim;
	int first, last;
	uint8_t mask;             /* usage mask; 0xf when not given */
	int array_id;
	const char *semantic;     /* NULL when none */
	int sem_index;
	const char *interp;       /* CONSTANT, LINEAR, PERSPECTIVE, COLOR; NULL none */
	const char *location;     /* CENTROID, SAMPLE; NULL center */
	int target;               /* SVIEW: enum tgsi_target */
	const char *return_type;  /* SVIEW: FLOAT, ... */
	struct src_loc loc;
};

struct tgsi_imm {
	const char *type;         /* FLT32, INT32, UINT32 ... */
	float v[4];
	int n;                    /* values given */
	struct src_loc loc;
};

struct tgsi_prop {
	const char *name;
	const char *value;        /* the first value's text */
	struct src_loc loc;
};

struct tgsi_prog {
	const char *processor;    /* FRAG, VERT, ... */
	struct src_loc processor_loc;
	struct tgsi_decl *decls;  int ndecls;
	struct tgsi_imm *imms;    int nimms;
	struct tgsi_prop *props;  int nprops;
	struct tgsi_insn *insns;  int ninsns;
	struct src_loc end_loc;   /* the end of the text */
};

/* Parses TGSI text; false after reporting every syntax error found
 * (the parse goes on at the next line). */
bool tgsi_parse(const char *source, const char *file, struct arena *arena,
		struct diag_sink *diag, struct tgsi_prog *prog);

/* Matches IF/UIF, ELSE and ENDIF, BGNLOOP and ENDLOOP (sets
 * tgsi_insn.match), and checks that BRK and CONT sit in loops and that
 * nothing follows END; false after reporting. */
bool tgsi_structure(struct tgsi_prog *prog, struct diag_sink *diag);

#endif
