/* Mesa's binary TGSI tokens (what a Gallium driver receives) as the
 * program the text parser makes (tgsi_prog.h). */
#ifndef USCC_FE_TGSI_TOKENS_H
#define USCC_FE_TGSI_TOKENS_H

#include <stddef.h>
#include "tgsi_prog.h"

/* Reads nwords tokens (header and body, tgsi_num_tokens of them); false
 * after reporting the first malformed or unsupported token, at the
 * 1-based number of its word as the line. */
bool tgsi_read_tokens(const uint32_t *words, size_t nwords, const char *file,
		      struct arena *arena, struct diag_sink *diag, struct tgsi_prog *prog);

/* Mesa's numbering, for the reader and for tests that write tokens: the
 * name of number i in tgsi_dump's spelling (location 0, the center, is
 * NULL), uscc's file of Mesa's file i (TGSI_FILE_NONE: not taken), and
 * Mesa's number of uscc's opcode (-1 none). */
enum { TGSI_TOK_NPROCESSORS = 6, TGSI_TOK_NSEMANTICS = 21, TGSI_TOK_NINTERPS = 4,
       TGSI_TOK_NLOCATIONS = 3, TGSI_TOK_NIMM_TYPES = 6, TGSI_TOK_NRETURN_TYPES = 6,
       TGSI_TOK_NFILES = 11 };
extern const char *const tgsi_tok_processor_names[TGSI_TOK_NPROCESSORS];
extern const char *const tgsi_tok_semantic_names[TGSI_TOK_NSEMANTICS];
extern const char *const tgsi_tok_interp_names[TGSI_TOK_NINTERPS];
extern const char *const tgsi_tok_location_names[TGSI_TOK_NLOCATIONS];
extern const char *const tgsi_tok_imm_type_names[TGSI_TOK_NIMM_TYPES];
extern const char *const tgsi_tok_return_type_names[TGSI_TOK_NRETURN_TYPES];
extern const uint8_t tgsi_tok_file_of[TGSI_TOK_NFILES];
int tgsi_tok_opcode_number(int op);

#endif
