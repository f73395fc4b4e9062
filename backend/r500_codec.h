/* Encoder, decoder, validator and disassembler of R500 instructions, all
 * driven by the one field table (r500_fields.c). */
#ifndef USCC_R500_CODEC_H
#define USCC_R500_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "r500.h"

struct strbuf;

/* One field of one word: which instruction types have it, where it lives,
 * which member of struct r500_inst holds it, and its legal values. */
struct r500_field {
	const char *name;       /* ISA.md name, e.g. "RGB_WMASK" */
	uint8_t types;          /* bit (1 << enum r500_type) for each type that has it */
	uint8_t dword;          /* 0..5 */
	uint8_t lo, width;      /* bits lo .. lo+width-1 */
	uint16_t offset;        /* offsetof(struct r500_inst, member) (uint16_t member) */
	uint32_t legal;         /* bit v set = value v legal (fields <= 5 bits); 0 = all */
	const char *const *value_names; /* optional names for values, NULL-terminated */
};
extern const struct r500_field r500_fields[];
extern const size_t r500_nfields;

/* Pack `in` into six dwords.  Bits of fields the type does not have are 0. */
void r500_encode(const struct r500_inst *in, uint32_t words[6]);

/* Unpack six dwords.  Always fills `out` (never reads past words[5]);
 * returns true when the words are a valid instruction.  When invalid and
 * `why` is non-NULL, a description of the first broken rule is written
 * to it (at most why_len bytes). */
bool r500_decode(const uint32_t words[6], struct r500_inst *out, char *why, size_t why_len);

/* Checks one instruction against the rules of ISA.md (reserved values,
 * SOP/DP coupling, OMOD 7 only with MIN/MAX/CMP/CND, output and ALU
 * result not together, FC predicate a replicate mode, ACQUIRE implies
 * WAIT, bits that must be 0...).  Returns true when valid. */
bool r500_inst_validate(const struct r500_inst *in, char *why, size_t why_len);

/* Program-level rules: last instruction OUT with TEX_SEM_WAIT, NOP
 * hazards of §6.10, jump targets in range, FC nesting balanced.
 * Returns true when valid; `why` names the first broken rule with its slot. */
bool r500_program_validate(const struct r500_inst *code, int n, char *why, size_t why_len);

/* The NOP hazards of ISA.md §6.10 between two consecutive slots: true when
 * `prev` must carry CMN.NOP because `next` reads a presubtract operand it
 * writes, or `next` is MDH/MDV and `prev` is not TEX.  The one model the
 * scheduler and r500_program_validate share. */
bool r500_hazard_needs_nop(const struct r500_inst *prev, const struct r500_inst *next);

/* Appends the assembly text of one instruction (no trailing newline). */
void r500_disasm_inst(struct strbuf *out, const struct r500_inst *in);

/* Appends the whole program, one instruction per line prefixed by its slot
 * number; invalid instructions are printed as raw words with the reason. */
void r500_disasm_program(struct strbuf *out, const uint32_t *words, int ninst);

/* Assembler for tests: parses the text r500_disasm_inst prints.
 * Returns true on success; on failure `why` says where. */
bool r500_asm_inst(const char *text, struct r500_inst *out, char *why, size_t why_len);

#endif
