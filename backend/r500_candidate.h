/* Alternatives of one compile.  Some choices cannot be judged before the
 * program exists (whether unrolling fits the R500, whether moving work to
 * the constant program pays, the scheduler's and presubtract's guesses,
 * local arrays in temporaries or as selects): a candidate is one setting
 * of all of them, r500_compile_candidate compiles one, and
 * r500_compile_best tries the ones worth trying and keeps the cheapest by
 * the one cost interface (r500_cost.h).  None of them is steered through
 * the user's switches: a choice the user switched off is never tried. */
#ifndef USCC_R500_CANDIDATE_H
#define USCC_R500_CANDIDATE_H

#include <stdbool.h>
#include "r500_compile.h"

struct r500_candidate {
	bool keep_loops;     /* the IR with every loop kept as a loop (nothing unrolled) */
	bool const_program;  /* uniform-only work split off into a constant program */
	bool hold_waiting;   /* the scheduler keeps a lookup's readers out of slots that
				do not wait (schedule.c): a guess, since allocation may add
				the wait anyway */
	bool presub;         /* presubtracts, which may cost their readers a NOP */
	bool arrays;         /* local arrays in consecutive temporaries (plan_arrays.c),
				else as selects */
	bool legalize;       /* the -O0 program did not fit the R500: compiled as -O2
				compiles it (a legalization, never a choice) */
	int pressure_limit;  /* live lanes at which the scheduler places first the ops
				that free lanes (schedule.c); 0: no limit */
};

/* The IR a candidate compiles: loops unrolled (0) or kept (1), optimized
 * at the job's level, or (2, 3) the same at -O2 for the legalized -O0
 * compile. */
enum { R500_IR_VARIANTS = 4 };
int r500_candidate_ir_variant(const struct r500_candidate *c);
/* The optimization level candidate c compiles at, the job's being
 * `level`: -O2's where c is legalized. */
int r500_candidate_opt_level(const struct r500_candidate *c, int level);

/* What one compile found out about the choices it made blind. */
struct r500_compile_report {
	bool too_long;       /* over the R500's slots with some loop unrolled */
	bool arrays_over;    /* failed for want of slots or temporaries with arrays planned */
	bool held_partner;   /* hold_waiting held some reader back */
	bool presub_nops;    /* presubtracts on and NOPs inserted */
	bool used_arrays;    /* some local array went to temporaries */
	bool over_limit;     /* failed for want of slots or temporaries */
	int peak_lanes;      /* the most lanes the schedule held live */
};

/* Where a candidate's IR comes from: the frontend and the IR passes, in
 * the variant the candidate asks for (r500_candidate_ir_variant).  ir_for
 * gives the same optimized function for the same variant every time (it
 * is only read), or NULL: with diagnostics on failure, without when the
 * source has no such variant. */
struct r500_ir_source {
	struct ir_func *(*ir_for)(void *ud, const struct r500_candidate *c);
	void *ud;
	/* kept by the compiles (zero them first): each variant's function
	 * split into pixel program and constant program, once */
	struct ir_func *pixel[R500_IR_VARIANTS], *cp[R500_IR_VARIANTS];
};

/* The candidate a compile with `opts` starts from: everything the options
 * allow on, loops unrolled. */
struct r500_candidate r500_candidate_first(const struct r500_compile_options *opts);

/* Compiles candidate c (NULL with diagnostics); *rep (may be NULL) says
 * what the compile found out. */
struct r500_program *r500_compile_candidate(struct r500_ir_source *src,
					    const struct r500_candidate *c,
					    const struct r500_compile_options *opts,
					    struct arena *arena, struct diag_sink *diag,
					    struct r500_compile_report *rep);

/* The first candidate, falling back (loops kept where the unrolled program
 * is too long, selects where arrays do not fit, at -O0 the legalized
 * compile where the program needs more slots or temporaries than the R500
 * has: with a warning saying so), then each alternative the
 * compiles showed worth trying, one setting changed from the best so far;
 * the cheapest program is kept (its candidate in *kept, may be NULL).
 * Only the first fit's diagnostics stand; with opts->dump, the stages of
 * the kept program are dumped (it is compiled once more).  NULL with
 * diagnostics. */
struct r500_program *r500_compile_best(struct r500_ir_source *src,
				       const struct r500_compile_options *opts, struct arena *arena,
				       struct diag_sink *diag, struct r500_candidate *kept);

#endif
