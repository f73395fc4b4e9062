/* The IR interpreter: the reference the emulator is checked against.
 * Runs a function on one 2x2 quad at a time (derivatives look across it).
 * Quad pixel order: 0 = (x, y), 1 = (x+1, y), 2 = (x, y+1), 3 = (x+1, y+1)
 * with y the GL window row (row 0 at the bottom), as the emulator uses. */
#ifndef USCC_IR_INTERP_H
#define USCC_IR_INTERP_H

#include <stdbool.h>
#include "ir.h"
#include "texture.h"

struct ir_interp_env {
	/* inputs[i][p][c]: input i (ir_func.inputs) at quad pixel p */
	const float (*const *inputs)[4];
	/* uniform_values[u->base + element][c]; NULL: every uniform has its
	 * initializer (ir_uniform.init), else 0.  A caller that gives only
	 * some values starts the array from ir_uniform_defaults(). */
	const float (*uniform_values)[4];
	/* textures by sampler *unit* (ir_sampler.unit) */
	const struct tex_image *textures;
	int ntextures;
	/* pixels outside the primitive (helpers): computed, never kept */
	bool covered[4];
	/* loop iterations allowed before ir_interp_quad fails; 0 = 65536 */
	int max_iterations;
};

/* A vertex shader may write many varyings; fragment shaders at most 5. */
enum { IR_INTERP_MAX_OUTPUTS = 32 };

struct ir_interp_result {
	float outputs[IR_INTERP_MAX_OUTPUTS][4][4]; /* [output index][pixel][comp] */
	bool written[IR_INTERP_MAX_OUTPUTS];        /* output written at all */
	bool discarded[4];
	/* A value of the pixel was not finite while its operands were (a
	 * division by 0, a log of 0, an overflow): GLSL leaves what the pixel
	 * computes undefined, so a rewrite may change it. */
	bool undefined[4];
};

/* Returns false (and a diagnostic) if the function cannot be run, e.g.
 * a loop that exceeds `max_iterations` (0 = default 65536). */
bool ir_interp_quad(const struct ir_func *f, const struct ir_interp_env *env,
		    struct ir_interp_result *res, struct diag_sink *diag);

#endif
