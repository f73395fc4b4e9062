/* Spelling tables of the R500 assembly text (see r500_disasm.c). */
#include "r500_disasm_syntax.h"

const char *const r500_asm_sel_names[4] = { "src0", "src1", "src2", "srcp" };
const char r500_asm_swz_chars[9] = "rgba0h1_";
const char *const r500_asm_pred_names[8] = {
	"none", "rgba", "rrrr", "gggg", "bbbb", "aaaa", "sel6", "sel7" };
const char *const r500_asm_omod_names[8] = { "", "*2", "*4", "*8", "/2", "/4", "/8", "_omod7" };
const char *const r500_asm_cmp_names[4] = { "==0", "<0", ">=0", "!=0" };

/* TEX has predication and write masks but no outputs, clamps or ALU
 * result; FC has only its predicate (§4.10). */
static const char *const tex_generic[] = {
	"RGB_OMASK", "ALPHA_OMASK", "RGB_CLAMP", "ALPHA_CLAMP", "ALU_RESULT_SEL",
	"ALU_RESULT_OP", "ALPHA_PRED_SEL", "ALPHA_PRED_INV", NULL };
static const char *const fc_generic[] = {
	"RGB_WMASK", "ALPHA_WMASK", "RGB_OMASK", "ALPHA_OMASK", "RGB_CLAMP",
	"ALPHA_CLAMP", "ALU_RESULT_SEL", "ALU_RESULT_OP", "ALPHA_PRED_SEL",
	"ALPHA_PRED_INV", NULL };
const char *const *const r500_asm_generic[4] = { NULL, NULL, fc_generic, tex_generic };
