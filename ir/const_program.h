/* The constant program (a "preshader", as Direct3D 9's effect compiler
 * called it): work that depends only on uniforms and constants, done once
 * per draw on the CPU instead of once per pixel on the R500.
 *
 * ir_split_constant_program finds the values of a function that are
 * computed from uniforms and constants alone and are worth moving (they
 * cost the pixel program instructions), moves each such value and what it
 * needs into a new function, and leaves in their place a read of a new
 * uniform, one per value: "$cp0", "$cp1", ...  The new function is
 * straight-line code in one block: the same uniform table (same indices
 * and elements) for its inputs, one OUTPUT per new uniform (output k
 * writes "$cpk"), and only ops ir_eval computes.  A bool value travels as
 * 0.0 / 1.0 and is turned back into a bool by F2B in the pixel program.
 *
 * A driver runs it whenever the uniforms change, then uploads the results
 * into the constant slots the new uniforms got (backend/const_program.c). */
#ifndef USCC_CONST_PROGRAM_H
#define USCC_CONST_PROGRAM_H

#include <stdbool.h>
#include "ir.h"

struct ir_pass_ctx;

/* Bounds on what moves: new uniforms (each takes a slot or part of one)
 * and instructions of the constant program. */
enum { IR_CP_MAX_OUTPUTS = 64, IR_CP_MAX_INSTRS = 256 };

/* Splits f as above.  First, so that more can move, f is rewritten
 * (cp_prepare.h: x / u becomes x * rcp(u) and the like; the last bits
 * may differ, as GLSL allows).  Returns the constant program,
 * or NULL when nothing is worth moving (f keeps only those rewrites) or
 * memory ran out or a clean-up left f invalid (*failed set; f is then to
 * be dropped).  The clean-ups of f (dead code, emptied branches) run
 * through ctx as the steps "constant_program.*": validated and dumped as
 * ctx says (ctx may be NULL: neither). */
struct ir_func *ir_split_constant_program(struct ir_func *f, struct ir_pass_ctx *ctx,
					  bool *failed);

/* Whether uniform u is one the constant program fills ("$cp<k>"): not
 * one the application sets. */
bool ir_uniform_is_cp_output(const struct ir_uniform *u);

#endif
