/* The emulator's private state, shared by its files: emu.c (driver, quads,
 * inputs, outputs), emu_bind.c (constants and uniforms), emu_alu.c
 * (ALU/OUT slots), emu_tex.c (TEX slots), emu_fc.c (flow control) and
 * emu_num.c (fp32 arithmetic per ISA.md §6.5, §12). */
#ifndef USCC_EMU_INTERNAL_H
#define USCC_EMU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "emu.h"

enum { EMU_QUAD = 4, EMU_STACK = 32, EMU_DEFAULT_STEPS = 2000000 };

/* Flow state of one pixel (ISA.md §6.11 emulator model). */
enum emu_flow { EMU_ACTIVE, EMU_INACTIVE, EMU_LOOP_OFF, EMU_CONT_OFF };

struct emu_pixel {
	float t[R500_NUM_TEMPS][4];
	uint8_t written[R500_NUM_TEMPS]; /* components ever written (poison check) */
	uint8_t pred;                    /* predicate bits R,G,B,A = bits 0..3 */
	bool alu_result;
	uint8_t flow;                    /* enum emu_flow */
	int counter;                     /* INACTIVE: branch counter */
	int level;                       /* LOOP_OFF/CONT_OFF: loop depth it left */
	bool killed, covered;
	int x, y;
	float rt[R500_NUM_TARGETS][4];
	float depth;
};

struct emu_loop {
	int count, al, step;
	uint8_t mask;                    /* pixels active when the loop began */
};

/* One 2x2 quad: pixel 0 = (x,y), 1 = (x+1,y), 2 = (x,y+1), 3 = (x+1,y+1),
 * y the GL row.  All four share the program counter and the stacks. */
struct emu_quad {
	struct emu_pixel px[EMU_QUAD];
	int pc;
	bool alu_valid;                   /* ALU result written since the last FC */
	struct emu_loop loops[EMU_STACK]; int nloops;
	int addr_stack[EMU_STACK];        int naddr;
	int skip_endloop;                 /* ENDLOOP reached by a skipping LOOP, or -1 */
	uint8_t tex_pending[R500_NUM_TEMPS]; /* TEX results not covered by ACQUIRE */
	uint8_t tex_acquired[R500_NUM_TEMPS];/* covered by ACQUIRE, awaiting WAIT */
};

struct emu_ctx {
	const struct r500_program *p;
	const struct emu_config *cfg;
	float c[R500_NUM_CONSTS][4];
	float poison[R500_NUM_TEMPS][4];   /* NaN: what unwritten temps hold */
	struct r500_loop_const ic[32];
	uint32_t bool_const;
	char *warn; size_t warn_len, warn_cap;
	uint8_t warned[R500_MAX_SLOTS][3]; /* one report per slot and kind */
	char *why; size_t why_len;
	bool fault;
};

/* emu_num.c: fp32 helpers (§6.5, §12) */
float emu_flush(float x);
float emu_round(double x);
float emu_mul0(float a, float b);              /* 0*x = 0 product, exact sign */
float emu_mad(float a, float b, float c);
float emu_dot(const float *a, const float *b, int n, float add);
float emu_transcendental(int aop, float a);    /* EX2..COS, raw */
float emu_omod_clamp(float x, int omod, bool clamp);
bool emu_compare(float x, int code);
float emu_presub(int op, float s0, float s1);

/* emu.c; warning kinds: 0 unwritten read, 1 stale TEX read, 2 other */
void emu_warn(struct emu_ctx *ctx, int pc, int kind, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool emu_fail(struct emu_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int emu_al(const struct emu_quad *q);
bool emu_pixel_writes(const struct emu_pixel *px, const struct r500_cmn *cmn);
bool emu_pred_rgb(const struct emu_pixel *px, const struct r500_cmn *cmn, int c);
bool emu_pred_alpha(const struct emu_pixel *px, const struct r500_cmn *cmn);
void emu_check_read(struct emu_ctx *ctx, struct emu_quad *q, int pc, int temp,
		    unsigned mask);
void emu_note_write(struct emu_quad *q, struct emu_pixel *px, int temp, int c);

/* emu_bind.c: constants from immediates and uniforms */
void emu_bind_constants(struct emu_ctx *ctx);

/* one slot of each type; false on a runtime fault */
bool emu_exec_alu(struct emu_ctx *ctx, struct emu_quad *q, const struct r500_inst *in);
bool emu_exec_tex(struct emu_ctx *ctx, struct emu_quad *q, const struct r500_inst *in);
bool emu_exec_fc(struct emu_ctx *ctx, struct emu_quad *q, const struct r500_inst *in);

#endif
