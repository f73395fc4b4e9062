/* The pass runner: every optimization is `bool ir_opt_<name>(struct ir_func *)`
 * returning whether it changed anything; IR_PASS runs one with the checks
 * and dumps the context asks for:
 *   - validate after each pass that made progress (debug builds, tests);
 *   - dump the IR after every pass, headed by the pass name (--dump-ir=all);
 *   - skip passes by name (bisecting a miscompile). */
#ifndef USCC_IR_PASS_H
#define USCC_IR_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include "ir.h"
#include "arena_strbuf.h"
#include "switches.h"

typedef bool (*ir_pass_fn)(struct ir_func *f);
/* Called after each pass that ran with the pass name and the function
 * (the callback prints what it keeps). */
typedef void (*ir_dump_fn)(void *ud, const char *pass, const struct ir_func *f);

struct ir_pass_ctx {
	bool validate;            /* ir_validate after each pass that made progress */
	ir_dump_fn dump;          /* NULL: no dumps */
	void *dump_ud;
	sw_set skip;              /* the passes switched off (switches.h) */
	struct diag_sink *diag;   /* validation failures go here (may be NULL) */
	bool failed;              /* a pass left invalid IR; later passes do not run */
};

/* validate on in debug builds (no NDEBUG), no dump, nothing skipped. */
void ir_pass_ctx_init(struct ir_pass_ctx *ctx, struct diag_sink *diag);

/* Runs pass `sw` (its name from switches.def) unless ctx->skip has it;
 * returns whether it made progress.  ctx may be NULL. */
bool ir_pass_run(struct ir_pass_ctx *ctx, struct ir_func *f, enum sw_id sw, ir_pass_fn pass);
/* The same for a pass no switch names (tests' own passes): always runs. */
bool ir_pass_run_named(struct ir_pass_ctx *ctx, struct ir_func *f, const char *name,
		       ir_pass_fn pass);

/* The constant-program split's clean-up steps, named by pipeline.def's
 * PIPE_SPLIT lines (one spelling of each name). */
enum ir_split_step {
#define PIPE_SPLIT(id, name, what) IR_SPLIT_##id,
#include "pipeline_steps.h"
	IR_SPLIT_COUNT
};
/* Runs `pass` as split step `step`: validated and dumped under its name. */
bool ir_pass_run_split(struct ir_pass_ctx *ctx, struct ir_func *f, enum ir_split_step step,
		       ir_pass_fn pass);

/* A dump callback that collects every dump into one arena string:
 *   "; --- <pass> ---\n<ir text>" ...  Set dump_ud to a struct ir_dump_text. */
struct ir_dump_text {
	struct strbuf buf;        /* strbuf_init it; strbuf_text gives the dumps */
	bool full;                /* IR_DUMP_MAX reached: later dumps are dropped */
};
/* Bytes --dump-ir=all collects at most (a pass's dump of a huge shader
 * times every pass would not fit memory); later passes are not printed. */
enum { IR_DUMP_MAX = 16 << 20 };
void ir_dump_text_append(void *ud, const char *pass, const struct ir_func *f);
/* Appends "; --- heading ---" and body, unless that would pass
 * IR_DUMP_MAX (then a line saying so, and later dumps are dropped). */
void ir_dump_text_add(struct ir_dump_text *d, const char *heading, const char *body);

/* The optimization pipeline: at -O0 only the lowerings every compile
 * needs (lower_arrays); at -O1 and above the passes
 * below to a fixed point (bounded); loop_unroll only from -O2, first in
 * every round, so that an inner loop whose bound becomes constant once its
 * outer loop is unrolled is unrolled in a later round.  Returns false if a
 * validation failed (a compiler bug, reported through ctx->diag).  ctx may
 * be NULL. */
bool ir_optimize(struct ir_func *f, int opt_level, struct ir_pass_ctx *ctx);

/* The passes (ir/opt_<name>.c). */
bool ir_opt_dce(struct ir_func *f);
bool ir_opt_constant_fold(struct ir_func *f);
bool ir_opt_lane_const(struct ir_func *f);
bool ir_opt_copy_prop(struct ir_func *f);
bool ir_opt_cse(struct ir_func *f);
bool ir_opt_algebraic(struct ir_func *f);
bool ir_opt_scalar_factor(struct ir_func *f);
bool ir_opt_scale_fold(struct ir_func *f);
bool ir_opt_dot_offset(struct ir_func *f);
bool ir_opt_slp(struct ir_func *f);
/* Two like vec2 chains as one vec4 chain (opt_pair_vec2.c). */
bool ir_opt_pair_vec2(struct ir_func *f);
/* An op both sides of an IF end with, after the PHI (opt_phi_sink.c). */
bool ir_opt_phi_sink(struct ir_func *f);
bool ir_opt_vec_affine(struct ir_func *f);
bool ir_opt_known_cond(struct ir_func *f);
bool ir_opt_dead_branch(struct ir_func *f);
bool ir_opt_break_hoist(struct ir_func *f);
bool ir_opt_loop_unroll(struct ir_func *f);
bool ir_opt_licm(struct ir_func *f);
/* Local arrays to SSA values and selects (ir/lower_arrays.c): every
 * compile needs it before the backend, so it has no switch.  It keeps
 * the arrays a backend can address through aL (array_rel.h); the
 * backend lowers those it does not place with ir_lower_arrays_except,
 * keep[a] (narrays entries) naming the arrays it places. */
bool ir_lower_arrays(struct ir_func *f);
bool ir_lower_arrays_except(struct ir_func *f, const bool *keep);
bool ir_opt_loop_prefetch(struct ir_func *f);

#endif
