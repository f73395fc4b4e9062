/* The lowering of a parsed TGSI program (tgsi_prog.h) to the SSA IR, on
 * the GLSL lowering's machinery (lower_int.h): every TEMP, OUT and ADDR
 * register is a vec4 variable (a TEMP array one array variable), so an
 * IF joins their values with PHIs and a loop carries them exactly as it
 * does a GLSL local's; BRK and CONT are the loop flags of lower_jump.c.
 *
 *   tgsi_decl.c     declarations: the IR's tables, registers as variables
 *   tgsi_operand.c  reading sources, writing destinations
 *   tgsi_alu.c      one instruction that is not control flow
 *   tgsi_flow.c     IF, loops, BRK and CONT; the program
 * The naming of inputs, constants, samplers and outputs is docs/tgsi.md's. */
#ifndef USCC_FE_TGSI_LOWER_H
#define USCC_FE_TGSI_LOWER_H

#include "lower_int.h"
#include "tgsi_prog.h"

/* Registers a program may use in each file, beyond which it is refused
 * (uscc's own bounds, far above what the R500 runs: each IF copies the
 * values of every register, so that TEMPs times nesting stay bounded). */
enum { TGSI_MAX_TEMPS = 1024, TGSI_MAX_INPUTS = 64, TGSI_MAX_OUTPUTS = 16,
       TGSI_MAX_CONSTS = 4096, TGSI_MAX_SAMPLERS = 16, TGSI_MAX_ADDRS = 4 };

/* A TEMP, OUT or ADDR register: element `elem` of variable `sym`. */
struct tgsi_var {
	struct sema_symbol *sym;
	int elem;
	int var_index;           /* of sym in lower.vars: the loop's carried[] */
	int array_first;         /* TEMP arrays: the array's first register and */
	int array_len;           /* length; 0 for a register of its own */
	int array_id;
	int ir_array;            /* TEMP arrays: the IR array (ir_func.arrays) that holds
				    them, read and written by LOAD and STORE */
};

struct tgsi_input {
	struct ir_instr *value;  /* the INPUT (gl_FragCoord: adjusted) */
	uint8_t ncomp;
};

struct tgsi_output {
	int target;              /* render target, -1 depth */
	const char *name;
};

struct tgsi_lower {
	struct lower l;
	struct fe_ctx *fe;
	const struct tgsi_prog *prog;
	struct tgsi_var *temps, *outs, *addrs;  /* by register number; sym NULL: undeclared */
	int ntemps;              /* temps[0 .. ntemps): up to the highest TEMP declared */
	struct tgsi_output *out_info;
	struct tgsi_input *ins;
	struct ir_instr **imms;
	int nconsts;             /* CONST[0][0 .. nconsts) declared */
	int const_uniform;       /* its uniform table index, -1 none */
	int svt[TGSI_MAX_SAMPLERS];  /* SVIEW[n]'s target, -1 undeclared */
	bool samp[TGSI_MAX_SAMPLERS];/* SAMP[n] declared */
	int sampler[TGSI_MAX_SAMPLERS]; /* IR sampler of unit n, -1 none yet */
	bool integer_center;     /* FS_COORD_PIXEL_CENTER INTEGER */
	bool trig_revolutions;   /* SIN, COS: sin(2 pi x) (tgsi_lower_program) */
	bool *may_jump;          /* [ninsns]: the instruction is BRK/CONT or an IF holding one
				    (of its innermost loop) */
};

/* --- declarations (tgsi_decl.c) --- */

/* Reports an error at `loc` and marks the lowering failed; false. */
bool tgsi_refuse(struct tgsi_lower *t, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The processor, properties, declarations and immediates: the IR's input,
 * uniform and output tables, a variable per register, the immediates as
 * constants; false after reporting. */
bool tgsi_declare(struct tgsi_lower *t);
/* The IR sampler of SAMP[unit] looked up with `target`: added at its
 * first lookup; -1 after reporting. */
int tgsi_sampler(struct tgsi_lower *t, const struct tgsi_insn *in, int unit);

/* --- operands (tgsi_operand.c) --- */

/* Source `s` for the channels chans[0..n): component k of the result is
 * the source's channel chans[k] (through its swizzle), with |abs| and
 * negation applied. */
struct ir_src tgsi_read(struct tgsi_lower *t, const struct tgsi_src *s, const uint8_t *chans, int n);
/* The written channels of a mask into chans; their count. */
int tgsi_mask_chans(uint8_t mask, uint8_t chans[4]);
/* Writes `v` to the destination: written channel k gets component k of
 * v, or component 0 when `replicated` (a scalar result); _SAT clamps. */
void tgsi_write(struct tgsi_lower *t, const struct tgsi_insn *in, struct ir_src v, int ncomp,
		bool replicated);
/* The variable register `r` (TEMP, OUT, ADDR) names, NULL after
 * reporting. */
const struct tgsi_var *tgsi_reg_var(struct tgsi_lower *t, const struct tgsi_reg *r);

/* --- instructions (tgsi_alu.c) --- */

void tgsi_lower_insn(struct tgsi_lower *t, const struct tgsi_insn *in);

/* --- control flow and the program (tgsi_flow.c) --- */

/* trig_revolutions: SIN and COS take revolutions (r300's R500 programs,
 * docs/tgsi.md), else radians. */
struct ir_func *tgsi_lower_program(struct fe_ctx *fe, const struct tgsi_prog *prog,
				   bool trig_revolutions);

#endif
