/* The backend's entry: IR function -> R500 program. */
#ifndef USCC_R500_COMPILE_H
#define USCC_R500_COMPILE_H

#include <stdbool.h>
#include "ir.h"
#include "r500_program.h"
#include "switches.h"

struct cg_ctx;

/* Called after each backend stage that ran, with the stage's name and the
 * backend's middle form (cg_print prints it). */
typedef void (*r500_dump_fn)(void *ud, const char *stage, const struct cg_ctx *cg);

struct r500_compile_options {
	int opt_level;       /* 0: no optimizing stage runs; 2: all of them */
	sw_set skip;         /* the optimizing stages switched off (switches.h) */
	bool validate;       /* cg_validate after every stage and the machine words of
				every candidate (debug builds, tests); off, the words of
				the kept program only */
	r500_dump_fn dump;   /* NULL: no dumps */
	void *dump_ud;
	/* the constant program split from the function (ir/const_program.h),
	 * or NULL: it shares the function's uniform table */
	const struct ir_func *const_prog;
	/* candidates may split a constant program off (-O1 and above, and the
	 * driver can run one); r500_candidate.h */
	bool const_program;
	/* compile the first candidate only, without comparing the
	 * alternatives r500_compile_best otherwise tries (for tests) */
	bool no_variants;
	/* r300's conventions (uscc_options_set_r300_conventions): every
	 * input in its own temporary, input i in temporary i, and uniform
	 * element k in constant slot k */
	bool r300;
	/* uscc_options_set_divergent_jumps: an IF with lookups whose quad's
	 * pixels may differ jumps by the ordinary cost rule where its lookups'
	 * coordinates can be made for inactive pixels too (isel_inactive.c) */
	bool divergent_jumps;
};

/* Selects, schedules, allocates and finalizes f (the candidates of
 * r500_candidate.h with f's loops as they are and opts->const_prog).  Returns NULL with
 * diagnostics (file:line:col where the IR carries it) when the shader
 * does not fit the hardware (a clear error naming the limit and the
 * figure reached) or uses something not supported yet.  Everything is
 * allocated in `arena`.  stats.compile_us is left for the caller. */
struct r500_program *r500_compile(struct ir_func *f, const struct r500_compile_options *opts,
				  struct arena *arena, struct diag_sink *diag);

/* The names of the backend's stages in order, i = 0, 1, ...; NULL past the
 * last (the optional ones are switches too: switches.def). */
const char *r500_stage_name(int i);

/* The backend's middle form as text (an arena string): vregs, live ops,
 * slots and code, as far as the stages have come (cg_print.c). */
char *cg_print(const struct cg_ctx *cg, struct arena *arena);

/* The static cost of a straight program (INTERFACES.md §4, Mesa's cost
 * model): +1 per instruction and per NOP, +30 per run of TEX lookups minus
 * min(30, distance to the first instruction that waits on it), the
 * distance counted as Mesa does: 1 (its BEGIN_TEX marker) + the run's
 * lookups + the instructions between. */
int r500_program_cycles(const struct r500_inst *code, int n);

/* A program's cost with its loops weighed, for choosing between two
 * compiles of one shader: static cycles, each instruction and lookup
 * stall inside loops counted once a pass of each loop around it (the
 * passes p->loop_trips knows, else 8 guessed); a lookup run inside a
 * loop with no wait before the loop's end counts its distance on from the
 * top of the loop body (a lookup for the next trip).  *in_loops gets the
 * instructions inside loops, weighed alike. */
long r500_program_weighted_cost(const struct r500_program *p, long *in_loops);

/* Assembly listing of a compiled program (the -S output, r500_listing.c):
 * the whole text in the arena, or NULL when the arena runs out. */
char *r500_program_listing(const struct r500_program *p, struct arena *arena);

#endif
