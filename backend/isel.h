/* Instruction selection's shared state and helpers, for the files of the
 * isel stage: isel.c (operands, per-opcode rules, the walk over the IR),
 * isel_cf.c (real flow control, PHI copies, latched outputs) and
 * isel_math.c (inverse trigonometry, run-time uniform indices). */
#ifndef USCC_ISEL_H
#define USCC_ISEL_H

#include "cg.h"
#include "quad_uniform.h"

struct isel_loop;
struct isel_phi_share;

struct isel {
	struct cg_ctx *cg;
	int *vreg_of;          /* by ir_instr id: vreg holding its value, -1 */
	int *uses;             /* by ir_instr id: instructions reading it */
	bool *after_tex;       /* by ir_instr id: depends on a lookup (program order) */
	uint32_t nids;
	struct src_loc loc;    /* of the instruction being selected */
	/* enclosing IFs (if-conversion): condition, and whether in its else */
	struct ir_src path[16];
	bool path_neg[16];
	int npath;
	const struct ir_cf *prev_if; /* the IF just before the block, for PHIs */
	/* real flow control (isel_cf.c) */
	struct isel_loop *loop;      /* innermost loop being selected */
	int fc_depth;                /* open FC IFs and loops */
	bool has_fc;                 /* the function has FC constructs */
	const struct ir_block **user_block; /* by id: block of the single reader */
	/* output latches: outputs written inside IF or LOOP are kept in
	 * `cur` (an operand) and written once at the end; at each FC op the
	 * value goes to the multi vreg `lvreg` (writes are masked per pixel) */
	bool *latch;
	struct cg_opnd *cur;
	int *lvreg;
	bool *in_lvreg;
	struct isel_phi_share *share; /* isel_phi_share.c, NULL without it */
	struct ir_quad_uniform quad;  /* which IFs all four pixels of a quad take alike */
	struct isel_inactive *inactive; /* isel_inactive.c's verdicts, NULL without IFs */
	/* revolutions made for SIN/COS/TAN in the block being selected, by
	 * argument: sin(x) and cos(x) share x's scale and FRC */
	struct isel_revolutions {
		const struct ir_block *block;
		uint32_t def;
		uint8_t swz[4], n;
		struct cg_opnd opnd;   /* what SIN/COS read */
	} rev[8];
	int nrev, rev_next;            /* entries filled; the one to replace next */
	/* test values of run-time uniform indexes in the block being selected
	 * (isel_sel_uniform_dyn): the members of a uniform array of structs
	 * read at one index share them */
	struct isel_index_tests {
		const struct ir_block *block;
		uint32_t def;          /* the index's definition */
		uint8_t swz;
		float start;           /* the first test value's offset */
		int n;                 /* values made */
		int *t;                /* their vregs: index + start - k */
	} tests[4];
	int ntests, tests_next;
};

struct isel_loop {
	int loop_op;                 /* its LOOP op */
	int if_depth;                /* FC IFs open inside it (BREAK's B_POP_CNT) */
	int nbrk, ncont, ncont_total;
	int flag;                    /* multi vreg set by BREAKs when the loop runs
					inside a second one (isel_select_loop), -1 */
	const struct ir_cf *cf;
	struct isel_loop *outer;
	bool rel;                    /* aL counts the passes (loop_rel.c) */
};

/* The constant swizzles 1, 0, 0.5 as operands. */
static const struct cg_opnd ONE = { CG_FILE_NONE, 0, { 6, 6, 6, 6 }, 0 };
static const struct cg_opnd ZERO = { CG_FILE_NONE, 0, { 4, 4, 4, 4 }, 0 };
static const struct cg_opnd HALF = { CG_FILE_NONE, 0, { 5, 5, 5, 5 }, 0 };

static inline struct cg_opnd opnd_neg(struct cg_opnd o)
{
	static const uint8_t flip[4] = { R500_MOD_NEG, R500_MOD_NONE, R500_MOD_NAB, R500_MOD_ABS };
	o.mod = flip[o.mod & 3];
	return o;
}

static inline struct cg_opnd opnd_abs(struct cg_opnd o)
{
	o.mod = R500_MOD_ABS;
	return o;
}

static inline struct cg_opnd opnd_nab(struct cg_opnd o)
{
	o.mod = R500_MOD_NAB;
	return o;
}

/* Operand restricted to entry e, replicated (for scalar chains). */
static inline struct cg_opnd opnd_entry(struct cg_opnd o, int e)
{
	uint8_t s = o.swz[e];
	for (int i = 0; i < 4; i++)
		o.swz[i] = s;
	return o;
}

static inline uint8_t mask_of(int n)
{
	return (uint8_t)((1u << n) - 1);
}

/* Identity operand of a vreg; a scalar is replicated. */
static inline struct cg_opnd vopnd_of(const struct cg_ctx *cg, int vreg)
{
	static const uint8_t swz_x[4] = { 0, 0, 0, 0 }, swz_id[4] = { 0, 1, 2, 3 };
	bool scalar = vreg >= 0 && vreg < cg->nvregs && cg->vregs[vreg].ncomp == 1;
	return cg_opnd_vreg(vreg, scalar ? swz_x : swz_id, R500_MOD_NONE);
}
#define vopnd(v) vopnd_of(s->cg, (v))

static inline int isel_output_ncomp(const struct ir_output *out)
{
	return out->target < 0 ? 1 : out->ncomp < 1 || out->ncomp > 4 ? 4 : out->ncomp;
}

/* --- isel.c --- */
/* The operand reading `src` for n destination components (entries). */
bool isel_opnd(struct isel *s, const struct ir_src *src, int n, struct cg_opnd *out);
/* When src reads a VEC with some components the constants 0, 0.5 or 1:
 * an operand reading the VEC's vreg with those as swizzle codes, so that
 * nothing need write them (an ALU reader only). */
bool isel_vec_swizzle_opnd(struct isel *s, const struct ir_src *src, int n,
			   struct cg_opnd *out);
struct cg_op *isel_alu(struct isel *s, enum cg_opc opc, int dst, uint8_t wmask,
		       const struct cg_opnd *a, const struct cg_opnd *b, const struct cg_opnd *c);
/* d = MAD(a, b, c) / opc(a, b, c) over n components into a fresh vreg,
 * one transcendental op per component; -1 on failure. */
int isel_mad(struct isel *s, int n, struct cg_opnd a, struct cg_opnd b, struct cg_opnd c);
int isel_op(struct isel *s, enum cg_opc opc, int n, const struct cg_opnd *a,
	    const struct cg_opnd *b, const struct cg_opnd *c);
int isel_trans(struct isel *s, enum cg_opc opc, int n, struct cg_opnd a);
/* The AND of `own` (may be NULL) and the if-converted path conditions, as
 * 0.0 / 1.0; *always when there is none. */
bool isel_path_condition(struct isel *s, const struct cg_opnd *own, struct cg_opnd *out,
			 bool *always);
/* Makes the ops computing `src` (read through o) write newdst / output.
 * sole: o is the reader's only operand from src, so components it does
 * not read are dead (their writers are left to dead-code removal). */
bool isel_retarget(struct isel *s, const struct ir_src *src, const struct cg_opnd *o,
		   uint8_t kmask, int newdst, int out, bool sole);
bool isel_is_virtual(const struct ir_instr *in);
bool isel_instr(struct isel *s, struct ir_instr *in, bool allow_defer);
bool isel_list(struct isel *s, const struct ir_cf_list *list);

/* --- isel_cf.c --- */
bool isel_if_needs_fc(const struct isel *s, const struct ir_cf *cf);
bool isel_select_if_fc(struct isel *s, const struct ir_cf *cf);
/* isel_inactive.c: whether an IF whose quad neighbours may diverge can
 * still jump, the ops making what the neighbours read writing inactive
 * pixels too (*nchain: the IF's instructions making them, which every
 * pixel runs); marks those among the ops from `first` on */
bool isel_inactive_jump_ok(const struct isel *s, const struct ir_cf *cf, int *nchain);
bool isel_inactive_init(struct isel *s);
void isel_mark_inactive_writes(struct isel *s, int first);
bool isel_select_loop(struct isel *s, const struct ir_cf *cf);
int isel_sel_break(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
int isel_sel_output(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
bool isel_write_output(struct isel *s, int idx, const struct ir_src *src, struct cg_opnd a);
void isel_mark_latches(struct isel *s, const struct ir_cf_list *list, bool nested);
/* A copy into a fresh vreg when `o` reads a multi vreg: a late copy
 * must not read one (another late copy of its group may write it). */
bool isel_stable_opnd(struct isel *s, int n, struct cg_opnd *o);
/* dst (a multi vreg) = o as a late copy, o made stable first. */
bool isel_late_copy(struct isel *s, int dst, int n, struct cg_opnd o);

/* --- isel_phi_share.c --- */
/* Positions and reads of every value, for isel_phi_share_vreg; false
 * when memory ran out. */
bool isel_phi_share_init(struct isel *s);
/* The multi vreg of a PHI source of `phi` that phi may live in too, -1
 * none ("phi-share", an optional stage). */
int isel_phi_share_vreg(struct isel *s, const struct ir_instr *phi);
/* phi got a multi vreg of its own making or shared one: later PHIs may
 * share it. */
void isel_phi_share_note(struct isel *s, const struct ir_instr *phi);
/* --- isel_array.c --- */
/* An instruction plan_arrays.c gave a role. */
bool isel_array_access(struct isel *s, struct ir_instr *in, const struct cg_arr_access *x);
/* The placed IR arrays' elements (plan_arrays.c), zero where the plan
 * says, at the top of the program. */
bool isel_arrays_start(struct isel *s);

/* --- isel_math.c --- */
int isel_sel_atan(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
int isel_sel_atan2(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
int isel_sel_asin_acos(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
int isel_sel_uniform_dyn(struct isel *s, struct ir_instr *in, const struct cg_opnd *o);
/* The aL operand (slot + aL) of uniform read d when loop_rel.c chose it
 * and the loop being selected is its loop; false otherwise. */
bool isel_rel_uniform_opnd(const struct isel *s, const struct ir_instr *d, const uint8_t swz[4],
			   uint8_t mod, struct cg_opnd *out);

#endif
