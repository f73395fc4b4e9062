/* The structure of a TGSI program's instructions: IF/UIF ... [ELSE ...]
 * ENDIF and BGNLOOP ... ENDLOOP nest, BRK and CONT sit in loops, END
 * ends the program (tgsi_prog.h). */
#include "tgsi_prog.h"

/* Deeper nesting is refused: the lowering recurses once per level, and
 * each level copies every register's value. */
enum { TGSI_MAX_NESTING = 64 };

static bool fail(struct diag_sink *diag, struct src_loc loc, const char *fmt, const char *what)
{
	diag_error(diag, loc, fmt, what);
	return false;
}

bool tgsi_structure(struct tgsi_prog *prog, struct diag_sink *diag)
{
	int open[TGSI_MAX_NESTING];
	int depth = 0, loops = 0;
	for (int i = 0; i < prog->ninsns; i++) {
		struct tgsi_insn *in = &prog->insns[i];
		const char *name = tgsi_op_infos[in->op].name;
		switch (in->op) {
		case TGSI_OP_IF:
		case TGSI_OP_UIF:
		case TGSI_OP_BGNLOOP:
			if (depth == TGSI_MAX_NESTING)
				return fail(diag, in->loc, "%s nested deeper than 64 levels", name);
			loops += in->op == TGSI_OP_BGNLOOP;
			open[depth++] = i;
			break;
		case TGSI_OP_ELSE:
		case TGSI_OP_ENDIF: {
			struct tgsi_insn *top = depth ? &prog->insns[open[depth - 1]] : NULL;
			if (!top || top->op == TGSI_OP_BGNLOOP || (top->op == TGSI_OP_ELSE && in->op == TGSI_OP_ELSE))
				return fail(diag, in->loc, "%s without a matching IF", name);
			top->match = i;
			if (in->op == TGSI_OP_ELSE)
				open[depth - 1] = i;
			else
				depth--;
			break;
		}
		case TGSI_OP_ENDLOOP:
			if (!depth || prog->insns[open[depth - 1]].op != TGSI_OP_BGNLOOP)
				return fail(diag, in->loc, "%s without a matching BGNLOOP", name);
			prog->insns[open[--depth]].match = i;
			loops--;
			break;
		case TGSI_OP_BRK:
		case TGSI_OP_CONT:
			if (!loops)
				return fail(diag, in->loc, "%s outside a loop", name);
			break;
		case TGSI_OP_END:
			if (depth)
				return fail(diag, in->loc, "%s inside IF or BGNLOOP (an early return) is not "
					    "supported", name);
			if (i + 1 < prog->ninsns)
				return fail(diag, prog->insns[i + 1].loc, "%s after END", tgsi_op_infos[prog->insns[i + 1].op].name);
			break;
		default:
			break;
		}
	}
	if (depth) {
		const struct tgsi_insn *in = &prog->insns[open[depth - 1]];
		return fail(diag, in->loc, "%s is never closed", tgsi_op_infos[in->op].name);
	}
	return true;
}
