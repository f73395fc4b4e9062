/* A compiled R500 program: the code plus every table a driver needs to
 * bind it.  The backend fills it; runtime/ serializes it as the container
 * (docs/container.md) and the emulator runs it. */
#ifndef USCC_R500_PROGRAM_H
#define USCC_R500_PROGRAM_H

#include <stdint.h>
#include "r500.h"

/* One vec4 element of a uniform: where the driver uploads it. */
struct r500_uniform {
	const char *name;     /* GLSL name */
	const char *type;     /* GLSL type of one element, e.g. "mat4" */
	int array_len;        /* 0 when not an array */
	int element;          /* vec4 element index within the uniform */
	int slot;             /* constant slot 0..255 */
	char swizzle[5];      /* components of the slot holding it, e.g. "xyzw", "z" */
	/* The GLSL initializer of this element, which glLinkProgram uploads:
	 * 4 floats, component j of the element in init[j] (it goes to slot
	 * component swizzle[j]; j >= strlen(swizzle) is 0); NULL when the
	 * uniform has none (the driver's default is then 0). */
	const float *init;
};

struct r500_sampler {
	const char *name;
	int unit;             /* 0..15 */
	int target;           /* enum ir_tex_target */
	int shadow;
};

struct r500_input {
	const char *name;     /* "gl_TexCoord[0]", "gl_FragCoord", varying name */
	int temp;             /* temporary it is interpolated into */
	char components[5];   /* e.g. "xyzw", "xy" */
};

struct r500_output {
	const char *name;
	int target;           /* 0..3 render target; -1 depth */
};

struct r500_loop_const {
	uint8_t count, init;
	int8_t step;
};

/* The figures of a compiled program (r500_stats.def says what each is). */
struct r500_stats {
#define R500_STAT(name, type, meaning) type name;
#include "r500_stats.def"
#undef R500_STAT
};

/* The constant program (ir/const_program.h; docs/container.md "CPRG"):
 * straight-line code a driver runs on the CPU when the uniforms change,
 * before the draw.  It reads the constant slots the uniform table names
 * and writes the slots of the values it computes.  Instruction i puts
 * its result in temporary i; a source reads a temporary written before,
 * a constant slot or an immediate, through a swizzle. */
enum r500_cp_file { R500_CP_TEMP, R500_CP_SLOT, R500_CP_IMM, R500_CP_NFILES };
enum { R500_CP_MAX_INST = 256, R500_CP_MAX_IMM = 256, R500_CP_MAX_OUT = 64,
       R500_CP_MAX_SRC = 4 };
struct r500_cp_src {
	uint8_t file;         /* enum r500_cp_file */
	uint8_t swz[4];       /* component c of the source is component swz[c] */
	uint16_t index;
};
struct r500_cp_inst {
	uint8_t op;           /* r500_cp_op_name(op): ir_ops.def's name */
	uint8_t ncomp;        /* result components 1..4 (the rest are 0) */
	uint8_t nsrc;
	uint8_t src0_ncomp;   /* components ANY / ALL reduce over */
	struct r500_cp_src src[R500_CP_MAX_SRC];
};
struct r500_cp_output {
	struct r500_cp_src src;
	uint16_t slot;        /* components shift .. shift + ncomp - 1 of it */
	uint8_t shift, ncomp;
};
struct r500_const_prog {
	struct r500_cp_inst *code;  int ninst;
	float (*imm)[4];            int nimm;
	struct r500_cp_output *outs; int nouts;
};

struct r500_program {
	struct r500_inst *code;   int ninst;
	float (*consts)[4];       /* immediates, indexed by slot */
	uint8_t *const_is_imm;    /* per slot: 1 = compiler immediate */
	int nconst_slots;         /* highest slot used + 1 (immediates and uniforms) */
	struct r500_uniform *uniforms; int nuniforms;
	struct r500_sampler *samplers; int nsamplers;
	struct r500_input *inputs;     int ninputs;
	struct r500_output *outputs;   int noutputs;
	uint32_t int_const_used;      /* bit n: US_FC_INT_CONST_n is set */
	struct r500_loop_const int_consts[32];
	uint32_t bool_const;
	int uses_fc;
	int pixsize;                  /* US_PIXSIZE value */
	struct r500_const_prog cp;    /* ninst == 0: none */
	struct r500_stats stats;
	/* by instruction: a LOOP's passes as the compiler knew them (the
	 * cost's weights), 0 when not known; NULL for none (a decoded
	 * program: the words do not say) */
	const uint8_t *loop_trips;
};

#endif
