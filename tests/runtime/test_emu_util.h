/* Helpers for the emulator tests: hand-built programs as struct
 * r500_inst arrays (no encoder, no container). */
#ifndef TEST_EMU_UTIL_H
#define TEST_EMU_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "emu.h"
#include "ir.h"

enum { TP_MAX = 64 };

struct tp {
	struct r500_inst code[TP_MAX]; int n;
	float consts[256][4];
	uint8_t imm[256];
	struct r500_input inputs[4]; int ninputs;
	struct r500_uniform unis[8]; int nunis;
	struct r500_program p;
	struct emu_config cfg;
	struct emu_image img;
	char why[256];
};

/* A program with input "v" (default (u, v, 0, 1)) in t0.xyzw, 2x2 pixels. */
static inline void tp_init(struct tp *t)
{
	memset(t, 0, sizeof *t);
	t->inputs[0] = (struct r500_input){ .name = "v", .temp = 0, .components = "xyzw" };
	t->ninputs = 1;
	t->cfg.width = t->cfg.height = 2;
}

/* Appends an ALU/OUT slot: every source slot reads inline 0.0, inputs A,
 * B, C select src0, src1, src2 with identity swizzles, no writes. */
static inline struct r500_inst *tp_alu(struct tp *t, int type)
{
	struct r500_inst *in = &t->code[t->n++];
	memset(in, 0, sizeof *in);
	in->cmn.type = (uint16_t)type;
	for (int k = 0; k < 3; k++) {
		in->alu.rgb_addr.src[k].addr = R500_INLINE_BIT;
		in->alu.alpha_addr.src[k].addr = R500_INLINE_BIT;
		in->alu.rgb_arg[k].sel = (uint16_t)k;
		in->alu.alpha_arg[k].sel = (uint16_t)k;
		for (int c = 0; c < 3; c++)
			in->alu.rgb_arg[k].swz[c] = (uint16_t)c;
		in->alu.alpha_arg[k].swz[0] = R500_SWZ_A;
	}
	return in;
}

/* An OUT slot sending .rgba of its result to render target 0. */
static inline struct r500_inst *tp_out(struct tp *t)
{
	struct r500_inst *in = tp_alu(t, R500_TYPE_OUT);
	in->cmn.rgb_omask = 7;
	in->cmn.alpha_omask = 1;
	return in;
}

/* Source slot k of both units reads temporary n. */
/* A TEX slot: lookup `op` of temp src into dst, every channel, waiting
 * for and acquiring the semaphore. */
static inline struct r500_inst *tp_tex(struct tp *t, int op, int src, int dst)
{
	struct r500_inst *in = &t->code[t->n++];
	memset(in, 0, sizeof *in);
	in->cmn.type = R500_TYPE_TEX;
	in->cmn.rgb_wmask = 7;
	in->cmn.alpha_wmask = 1;
	in->cmn.tex_sem_wait = 1;
	in->tex.inst = (uint16_t)op;
	in->tex.sem_acquire = 1;
	in->tex.src_addr = (uint16_t)src;
	in->tex.dst_addr = (uint16_t)dst;
	for (int c = 0; c < 4; c++) {
		in->tex.src_swz[c] = (uint16_t)c;
		in->tex.dst_swz[c] = (uint16_t)c;
	}
	return in;
}

static inline void tp_src_temp(struct r500_inst *in, int k, int n)
{
	in->alu.rgb_addr.src[k] = (struct r500_addr){ .addr = (uint16_t)n };
	in->alu.alpha_addr.src[k] = (struct r500_addr){ .addr = (uint16_t)n };
}

static inline void tp_src_const(struct r500_inst *in, int k, int n)
{
	in->alu.rgb_addr.src[k] = (struct r500_addr){ .addr = (uint16_t)n, .cnst = 1 };
	in->alu.alpha_addr.src[k] = (struct r500_addr){ .addr = (uint16_t)n, .cnst = 1 };
}

static inline void tp_const(struct tp *t, int slot, float x, float y, float z, float w)
{
	t->consts[slot][0] = x; t->consts[slot][1] = y;
	t->consts[slot][2] = z; t->consts[slot][3] = w;
	t->imm[slot] = 1;
}

static inline void tp_rgb_swz(struct r500_inst *in, int arg, int r, int g, int b)
{
	in->alu.rgb_arg[arg].swz[0] = (uint16_t)r;
	in->alu.rgb_arg[arg].swz[1] = (uint16_t)g;
	in->alu.rgb_arg[arg].swz[2] = (uint16_t)b;
}

static inline struct r500_program *tp_prog(struct tp *t)
{
	struct r500_program *p = &t->p;
	p->code = t->code;
	p->ninst = t->n;
	p->consts = t->consts;
	p->const_is_imm = t->imm;
	p->nconst_slots = 256;
	p->inputs = t->inputs;
	p->ninputs = t->ninputs;
	p->uniforms = t->unis;
	p->nuniforms = t->nunis;
	return p;
}

/* Runs; asserts success. */
static inline void tp_run(struct tp *t)
{
	bool ok = emu_run(tp_prog(t), &t->cfg, &t->img, t->why, sizeof t->why);
	if (!ok)
		print_error("emu_run failed: %s\n", t->why);
	assert_true(ok);
}

static inline const float *tp_px(struct tp *t, int target, int x, int y)
{
	return &t->img.rt[target][((size_t)y * (size_t)t->img.width + (size_t)x) * 4];
}

static inline void tp_expect(struct tp *t, int target, int x, int y, float r, float g,
			     float b, float a)
{
	const float *v = tp_px(t, target, x, y);
	const float e[4] = { r, g, b, a };
	for (int c = 0; c < 4; c++) {
		bool same = (isnan(e[c]) && isnan(v[c])) ||
			    (fabsf(v[c] - e[c]) <= 1e-6f * fmaxf(1.0f, fabsf(e[c])));
		if (!same)
			print_error("pixel (%d,%d) rt%d channel %d: got %.9g, expected %.9g\n",
				    x, y, target, c, v[c], e[c]);
		assert_true(same);
	}
}

static inline void tp_done(struct tp *t)
{
	emu_image_free(&t->img);
}

#endif
