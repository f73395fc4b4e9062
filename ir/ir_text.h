/* Spellings shared by the IR printer and parser. */
#ifndef USCC_IR_TEXT_H
#define USCC_IR_TEXT_H

#include "ir.h"

extern const char *const ir_text_targets[5];   /* by enum ir_tex_target */
extern const char *const ir_text_tex_kinds[IR_TEX_KIND_COUNT]; /* by enum ir_tex_kind */
extern const char ir_text_swz[4];              /* x y z w */

#endif
