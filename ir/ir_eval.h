/* Arithmetic of the IR opcodes, one component at a time, shared by the
 * interpreter and constant folding so that both compute exactly alike.
 * Numbers follow GLSL in fp32 with the choices of r500/ISA.md §12 where
 * GLSL leaves a corner open: 0*x = 0 in MUL, MAD and dot products,
 * denormal results flushed to a signed zero, bools are 0.0 / 1.0. */
#ifndef USCC_IR_EVAL_H
#define USCC_IR_EVAL_H

#include <stdbool.h>
#include "ir.h"

/* Components of source `i` that instruction `in` reads (1..4): the
 * printer prints that many swizzle letters and the validator checks them. */
int ir_src_ncomp(const struct ir_func *f, const struct ir_instr *in, int i);

/* Components of the texture coordinate a TEX with this sampler target and
 * kind reads (the projective divisor is always component 3). */
int ir_tex_coord_ncomp(int target, int kind, bool shadow);

/* The facts of a texture kind: projective (coordinate divided by .w);
 * whether its level of detail comes from the quad's coordinates (no
 * explicit LOD or gradients: inside a branch, some of the quad could be
 * inactive with stale coordinates); how many sources follow the
 * coordinate (0, 1 bias/LOD, 2 gradients). */
bool ir_tex_kind_is_proj(int kind);
bool ir_tex_kind_uses_quad(int kind);
int ir_tex_kind_nextra(int kind);

/* Components of a gradient (dPdx, dPdy) for a sampler target. */
int ir_tex_grad_ncomp(int target);

/* The width of a dot product op (DOT2 2, DOT3 3, DOT4 4); 0 for the rest. */
int ir_op_dot_width(enum ir_op op);

/* True when `op` is computed by ir_eval_op (a pure function of its
 * sources: no inputs, uniforms, textures, quad neighbours or control). */
bool ir_op_is_evaluable(enum ir_op op);

/* Evaluates op on source values s[i][c], already swizzled (component c
 * of the source as the op reads it).  `ncomp` is the result width;
 * `src0_ncomp` the width ANY/ALL reduce over.  Returns false for ops that
 * are not evaluable. */
bool ir_eval_op(enum ir_op op, int ncomp, int src0_ncomp, const float s[][4], float out[4]);

/* The element of array `a` an access names (ir.h: ir_array): offset plus
 * the index source's value when it has one (has_src); -1 when that equals
 * no element. */
int ir_array_element(const struct ir_array *a, int offset, bool has_src, float src);

/* Flushes a denormal to a zero of the same sign. */
float ir_flush_denorm(float x);

#endif
