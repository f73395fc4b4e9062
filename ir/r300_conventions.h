/* r300's conventions (uscc_options_set_r300_conventions): the function's
 * inputs and driver state as Mesa's r300 driver sets them up, so that the
 * driver binds the program as one of its own.  Run on the frontend's
 * function, before the passes.
 *
 * - Inputs in r300's register order (its allocate_hardware_inputs):
 *   COLOR0, COLOR1, FACE, GENERIC by index, FOG, WPOS.  GLSL's names map
 *   as Mesa's state tracker maps them on r300: gl_TexCoord[i] is GENERIC
 *   i, gl_PointCoord GENERIC 8, varyings GENERIC 9, 10, ... in the order
 *   of the input table; TGSI's by their semantic.  Inputs no name maps
 *   keep their place after these.
 * - WPOS: r300 interpolates the clip-space position (the input becomes
 *   "gl_r300Position") and the program makes the window position
 *   (xyz / w * viewport scale + viewport offset, 1 / w), as r300's
 *   rc_transform_fragment_wpos does, with two uniforms the driver fills
 *   from its state: "gl_r300ViewportScale", "gl_r300ViewportOffset".
 * - FACE: r300 delivers 1.0 for a back face (the input becomes
 *   "gl_r300BackFace"); the program reads 1 - that (rc_transform_fragment_face).
 * - Texture units r300 emulates a wrap mode for (NPOT textures: r300's
 *   variant key) get their coordinates wrapped in code before the lookup,
 *   as radeonTransformTEX does: a projective lookup divides first;
 *   REPEAT takes fract, MIRRORED_REPEAT 1 - |2 fract(c / 2) - 1|,
 *   MIRRORED_CLAMP |c|; then clamp_and_scale saturates and multiplies by
 *   the uniform "gl_r300TexScale[unit]" (RC_STATE_R300_TEXSCALE_FACTOR).
 *   Only the coordinates the target has are wrapped (not a shadow
 *   lookup's reference).
 */
#ifndef USCC_R300_CONVENTIONS_H
#define USCC_R300_CONVENTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include "ir.h"

#define R300_POSITION_INPUT "gl_r300Position"
#define R300_BACKFACE_INPUT "gl_r300BackFace"
#define R300_VIEWPORT_SCALE "gl_r300ViewportScale"
#define R300_VIEWPORT_OFFSET "gl_r300ViewportOffset"
#define R300_TEXSCALE "gl_r300TexScale"   /* + "[unit]" */

enum ir_r300_wrap { IR_R300_WRAP_NONE, IR_R300_WRAP_REPEAT, IR_R300_WRAP_MIRRORED_REPEAT,
		    IR_R300_WRAP_MIRRORED_CLAMP, IR_R300_WRAP_COUNT };
enum { IR_R300_UNITS = 16 };
struct ir_r300_unit {
	uint8_t wrap;            /* enum ir_r300_wrap */
	bool clamp_and_scale;
};

/* units: IR_R300_UNITS entries (NULL: no emulation).  False, with an
 * error in diag, when memory runs out or a lookup needs what r300 does
 * and uscc does not: wrap emulation on a RECT sampler (r300 normalizes
 * its coordinates with a state constant first). */
bool ir_r300_conventions(struct ir_func *f, const struct ir_r300_unit *units,
			 struct diag_sink *diag);

/* The state constant a uniform of the conventions stands for, by name:
 * 0 viewport scale, 1 viewport offset, 2 the texture scale of *unit;
 * -1 for any other name (uscc.h's enum uscc_state_constant). */
int ir_r300_state_uniform(const char *name, int *unit);

/* r300's register order of an input name: a key that sorts as
 * allocate_hardware_inputs allocates (ties keep the table's order). */
int ir_r300_input_rank(const char *name);

#endif
