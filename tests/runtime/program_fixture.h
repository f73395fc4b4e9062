/* A small valid program built by hand (TEX LD, MAD, OUT) with every table
 * filled, shared by the container, API and cache tests. */
#ifndef TEST_PROGRAM_FIXTURE_H
#define TEST_PROGRAM_FIXTURE_H

#include <string.h>

#include "ir.h"
#include "r500_program.h"

/* A small program built by hand: TEX LD, MAD, OUT. */
struct fixture {
	struct r500_inst code[3];
	float consts[4][4];
	uint8_t is_imm[4];
	struct r500_uniform uniforms[2];
	struct r500_sampler samplers[1];
	struct r500_input inputs[1];
	struct r500_output outputs[2];
	struct r500_cp_inst cp_code[2];
	float cp_imm[1][4];
	struct r500_cp_output cp_outs[1];
	struct r500_program p;
};

static inline void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	struct r500_inst *t = &f->code[0];
	t->cmn.type = R500_TYPE_TEX;
	t->cmn.rgb_wmask = 7;
	t->cmn.alpha_wmask = 1;
	t->tex.inst = R500_TEX_LD;
	t->tex.tex_id = 0;
	t->tex.dst_addr = 1;
	for (int c = 0; c < 4; c++)
		t->tex.src_swz[c] = t->tex.dst_swz[c] = (uint16_t)c;
	struct r500_inst *a = &f->code[1];
	a->cmn.type = R500_TYPE_ALU;
	a->cmn.rgb_wmask = 7;
	a->cmn.alpha_wmask = 1;
	a->cmn.tex_sem_wait = 1;
	a->alu.rgb_addr.src[0].addr = 1;
	a->alu.rgb_addr.src[1].addr = 1;
	a->alu.rgb_addr.src[1].cnst = 1;
	a->alu.rgb_addrd = 2;
	a->alu.alpha_addrd = 2;
	a->alu.rgb_arg[1].sel = R500_SEL_SRC1;
	struct r500_inst *o = &f->code[2];
	o->cmn.type = R500_TYPE_OUT;
	o->cmn.last = 1;
	o->cmn.tex_sem_wait = 1;
	o->cmn.rgb_omask = 7;
	o->cmn.alpha_omask = 1;
	o->alu.rgb_addr.src[0].addr = 2;
	o->alu.alpha_addr.src[0].addr = 2;

	f->consts[1][0] = 1.0f;
	f->consts[1][1] = 0.5f;
	f->consts[1][2] = -2.0f;
	f->consts[3][3] = 0.25f;
	f->is_imm[1] = f->is_imm[3] = 1;
	f->uniforms[0] = (struct r500_uniform){ "u", "vec4", 0, 0, 0, "xyzw", NULL };
	f->uniforms[1] = (struct r500_uniform){ "m\"x\n", "mat2", 3, 1, 2, "xy", NULL };
	f->samplers[0] = (struct r500_sampler){ "tex", 3, IR_TARGET_2D, 0 };
	f->inputs[0] = (struct r500_input){ "gl_TexCoord[0]", 0, "xyzw" };
	f->outputs[0] = (struct r500_output){ "gl_FragColor", 0 };
	f->outputs[1] = (struct r500_output){ "gl_FragDepth", -1 };

	struct r500_program *p = &f->p;
	p->code = f->code;
	p->ninst = 3;
	p->consts = f->consts;
	p->const_is_imm = f->is_imm;
	p->nconst_slots = 4;
	p->uniforms = f->uniforms;
	p->nuniforms = 2;
	p->samplers = f->samplers;
	p->nsamplers = 1;
	p->inputs = f->inputs;
	p->ninputs = 1;
	p->outputs = f->outputs;
	p->noutputs = 2;
	p->uses_fc = 1;
	p->int_const_used = 1u | 1u << 5;
	p->int_consts[0] = (struct r500_loop_const){ 255, 0, 1 };
	p->int_consts[5] = (struct r500_loop_const){ 10, 2, -3 };
	p->bool_const = 5;
	p->pixsize = 2;
	p->stats = (struct r500_stats){ .instructions = 3, .alu = 1, .tex = 1, .fc = 0, .out = 1,
					.nops = 0, .pairs = 1, .temps = 3, .constants = 2,
					.lower_bound = 1, .cycles = 33, .compile_us = 1234 };
	/* constant program: c2.xy = sin(u * 2).xy, u in c0 */
	f->cp_imm[0][0] = 2.0f;
	f->cp_code[0] = (struct r500_cp_inst){ 4 /* mul */, 4, 2, 4,
		{ { R500_CP_SLOT, { 0, 1, 2, 3 }, 0 }, { R500_CP_IMM, { 0, 0, 0, 0 }, 0 } } };
	f->cp_code[1] = (struct r500_cp_inst){ 26 /* sin */, 4, 1, 4,
		{ { R500_CP_TEMP, { 0, 1, 2, 3 }, 0 } } };
	f->cp_outs[0] = (struct r500_cp_output){ { R500_CP_TEMP, { 0, 1, 2, 3 }, 1 }, 2, 0, 2 };
	p->cp = (struct r500_const_prog){ f->cp_code, 2, f->cp_imm, 1, f->cp_outs, 1 };
}

#endif
