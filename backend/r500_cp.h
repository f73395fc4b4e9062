/* The constant program's operations, checks and evaluation (the form is
 * in r500_program.h; the container section in docs/container.md).  The
 * operation codes are the container's: a fixed list of ir_ops.def names,
 * so that adding an IR opcode does not renumber them. */
#ifndef USCC_R500_CP_H
#define USCC_R500_CP_H

#include <stdbool.h>
#include <stddef.h>
#include "ir.h"
#include "r500_program.h"

struct strbuf;

/* Code of an IR op in the container's list; -1 when the list lacks it. */
int r500_cp_op_code(enum ir_op op);
/* Name of code `code`, NULL past the list. */
const char *r500_cp_op_name(int code);

/* Whether the program is well formed: codes in the list with their
 * source counts, temporaries read only after they are written, slots
 * below nslots (at most 256), immediates and outputs in range.  On
 * failure `why` says what (when why_len > 0). */
bool r500_cp_check(const struct r500_const_prog *cp, int nslots, char *why, size_t why_len);

/* Runs a checked program over consts[0 .. nslots): reads the slots its
 * sources name, writes its outputs' slot components.  Pure and bounded
 * (R500_CP_MAX_INST instructions), no allocation; false (consts
 * untouched) when the program is not well formed for nslots. */
bool r500_cp_run(const struct r500_const_prog *cp, float (*consts)[4], int nslots);

/* Appends one line of the program as text (no newline): instruction
 * i < ninst ("t2 = mul t0.xyzw, c3.wwww"), or output i - ninst
 * ("c4.xy = t2.xy"); false (nothing appended) past the end. */
bool r500_cp_format(struct strbuf *text, const struct r500_const_prog *cp, int i);
/* Appends every line, each after `prefix` and ending in a newline. */
void r500_cp_list(struct strbuf *text, const struct r500_const_prog *cp, const char *prefix);

/* r500_cp_run without the check, for a program r500_cp_check accepted for
 * at most the slots consts has (a container's, checked when it was read). */
bool r500_cp_exec(const struct r500_const_prog *cp, float (*consts)[4]);

/* Highest slot the program reads or writes + 1 (0 when none). */
int r500_cp_slots(const struct r500_const_prog *cp);

#endif
