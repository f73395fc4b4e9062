/* Spelling of the R500 assembly text, shared by the disassembler and the
 * assembler so that they read and write the same words. */
#ifndef USCC_R500_DISASM_SYNTAX_H
#define USCC_R500_DISASM_SYNTAX_H

#include "r500_field_access.h"

extern const char *const r500_asm_sel_names[4];   /* src0 src1 src2 srcp */
extern const char r500_asm_swz_chars[9];          /* "rgba0h1_" */
extern const char *const r500_asm_pred_names[8];  /* none rgba rrrr ... */
extern const char *const r500_asm_omod_names[8];  /* "" *2 *4 *8 /2 /4 /8 _omod7 */
extern const char *const r500_asm_cmp_names[4];   /* ==0 <0 >=0 !=0 */
/* per type: CMN fields printed as NAME=value (the type ignores them) */
extern const char *const *const r500_asm_generic[4];

#endif
