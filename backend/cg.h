/* The code generator's internal form, shared by the backend stages
 * (isel -> copy-fold -> merge -> presub -> schedule -> coalesce -> alpha-lanes ->
 * regalloc -> emit -> hazards -> limits -> finalize).
 *
 * Isel turns IR values into virtual registers (vregs) and one cg_op per
 * hardware operation.  A vreg holds 1..4 components, all in one temporary,
 * component c in physical lane lane[c] (0..2 = R,G,B, 3 = A).  Each
 * component of a vreg is written by exactly one op (SSA per component), so
 * the scheduler needs only true dependences.  Vectors have fixed lanes
 * 0..n-1; a scalar may leave its lane open (CG_LANE_ANY) and the scheduler
 * fixes it when it picks the unit (R for the RGB unit, A for alpha).
 *
 * Operands name a vreg, a constant slot or an inline constant, with one
 * swizzle entry per destination component (or per dot-product term):
 * 0..3 = component of the source, CG_SWZ_ZERO/HALF/ONE = the constant
 * swizzles.  Physical channels are resolved only at emit time. */
#ifndef USCC_CG_H
#define USCC_CG_H

#include <stdbool.h>
#include <stdint.h>
#include "ir.h"
#include "r500.h"
#include "r500_compile.h"
#include "r500_program.h"

enum { CG_LANE_ANY = 0xff, CG_SWZ_ZERO = R500_SWZ_ZERO, CG_SWZ_HALF = R500_SWZ_HALF,
       CG_SWZ_ONE = R500_SWZ_ONE };

enum cg_file { CG_FILE_NONE, CG_FILE_VREG, CG_FILE_CONST, CG_FILE_INLINE,
	       CG_FILE_PRESUB, /* the op's presubtract result (cg_op.presub) */
	       CG_FILE_CONST_REL, /* constant slot `index` plus the loop's aL (loop_rel.c) */
	       CG_FILE_TEMP_REL /* the temporary of vreg `index` plus aL: an element of
				 * the local array `index` belongs to (plan_arrays.c) */ };

/* Operands of an op: the three hardware sources, then the presubtract's
 * src0 and src1 (ISA.md §4.2: srcp = f(src0, src1), read in address
 * slots 0 and 1 of the unit).  The presubtract's operands carry one
 * swizzle entry per entry of the operands that read srcp. */
enum { CG_NSRC = 3, CG_PSRC0 = 3, CG_PSRC1 = 4, CG_NOPND = 5 };

enum cg_opc {
	CG_MAD, CG_DP3, CG_DP4, CG_MIN, CG_MAX, CG_CND, CG_CMP, CG_FRC,
	CG_EX2, CG_LN2, CG_RCP, CG_RSQ, CG_SIN, CG_COS, CG_MDH, CG_MDV,
	CG_TEX, CG_TXD,       /* a lookup; TXD: with gradients dPdx, dPdy (src1, src2) */
	CG_KIL,
	CG_FC,                /* a flow-control instruction (fc fields below) */
	CG_OPC_COUNT
};

/* What each cg opcode is, for every stage (a table, not switches). */
struct cg_opc_info {
	const char *name;
	uint8_t nsrc;
	bool transcendental;  /* alpha unit only; SOP to reach R,G,B */
	bool dot;             /* swizzles index terms, result is a scalar */
	bool tex;             /* a TEX slot of its own */
	int8_t rgb_op;        /* enum r500_rgb_op, -1 none */
	int8_t alpha_op;      /* enum r500_alpha_op, -1 none */
};
extern const struct cg_opc_info cg_opc_infos[CG_OPC_COUNT];

struct cg_opnd {
	uint8_t file;         /* enum cg_file */
	uint8_t mod;          /* enum r500_mod */
	uint8_t swz[4];
	int index;            /* vreg, constant slot or inline code */
};

struct cg_vreg {
	uint8_t ncomp;
	uint8_t lane[4];
	uint8_t used;         /* components some live op reads (after DCE) */
	int temp;             /* -1 until regalloc; inputs pre-coloured */
	int input;            /* ir_func input index, -1 otherwise */
	int writer[4];        /* op writing each component, -1 none */
	bool multi;           /* written by several copies (PHI, output latch):
				 not SSA; writer[] stays -1 (see cg_op.late) */
	int array;            /* local array (cg_ctx.arrays) it is element `elem`
				 of, -1 none: a multi vreg whose temporary is
				 the array's first plus elem */
	int elem;
};

enum cg_unit { CG_UNIT_RGB = 1, CG_UNIT_ALPHA = 2, CG_UNIT_BOTH = 3 };

/* Output targets of an op (besides its temporary). */
enum { CG_OUT_NONE = -1, CG_OUT_DEPTH = 4 };

struct cg_op {
	uint8_t opc;          /* enum cg_opc */
	uint8_t wmask;        /* components of dst written */
	uint8_t clamp;
	uint8_t omod;         /* enum r500_omod: result scaled by 2^k (0 = none) */
	bool dead;
	int dst;              /* vreg, -1 none */
	bool dst_rel;         /* writes dst's temporary plus aL: an element of the
				 local array dst belongs to (a late op) */
	struct cg_opnd src[CG_NOPND];
	uint8_t presub;       /* enum r500_srcp + 1 when some operand is
				 CG_FILE_PRESUB, else 0 */
	int out;              /* CG_OUT_NONE, render target 0..3 or CG_OUT_DEPTH */
	uint8_t out_ncomp;    /* components sent (lane c = component c) */
	/* TEX / KIL */
	uint8_t tex_inst;     /* enum r500_tex_op */
	uint8_t tex_unit;
	uint8_t tex_mask;     /* coordinate entries (S,T,R,Q) the lookup reads */
	uint8_t tex_grad_mask; /* TXD: gradient entries read (S,T,R) */
	uint8_t tex_unscaled;
	/* flow control: a copy into a multi vreg is `late`: it goes after
	 * every other op of its region (the ops between two barriers), so
	 * reads of the old value in the region come first.  A barrier (an
	 * FC op, or the op writing the ALU result an IF tests) takes a slot
	 * of its own, in program order, and nothing moves across it. */
	bool late;
	bool alu_result;      /* writes only the ALU result: compare R with 0 */
	uint8_t alu_cmp;      /* enum r500_cmp of that compare */
	bool pred_write;      /* with alu_result: writes the R predicate bit
				 instead (a barrier all the same) */
	bool predicated;      /* writes only where the R predicate bit is set */
	bool write_inactive;  /* also writes pixels flow control left inactive
				 (WRITE_INACTIVE, ISA.md §4.1): a value a quad
				 neighbour's lookup or derivative reads under a
				 divergent jumped IF (isel_inactive.c); only on
				 ops cg_op_inactive_safe allows */
	struct r500_fc fc;    /* CG_FC: the encoding, jump_addr from fc_target */
	int fc_target;        /* op whose slot + fc_delta is the jump target */
	int8_t fc_delta;
	uint8_t trips;        /* LOOP: the passes the IR's counter says it makes,
				 for the cost's weights; 0 when not known */
	struct src_loc loc;
	/* set by the scheduler */
	int slot;
	uint8_t unit;         /* enum cg_unit */
	uint8_t sel[3];       /* address index each operand reads (3 = srcp) */
	bool prefer_alpha;    /* scheduler scratch: an open scalar goes to alpha */
};

/* One address table entry of a slot. */
struct cg_addr {
	uint8_t file;         /* CG_FILE_NONE = free */
	int index;
};

struct cg_slot {
	bool tex;
	bool fc;              /* an FC slot: tex_op names its CG_FC op */
	int rgb, alpha;       /* op in each unit, -1 free (same op for BOTH) */
	int tex_op;
	struct cg_addr rgb_addr[3], alpha_addr[3];
	uint8_t rgb_srcp, alpha_srcp; /* each unit's presubtract: cg_op.presub, 0 none */
};

/* A local array the plan placed in consecutive temporaries
 * (plan_arrays.c), the whole program long.  Its elements are multi vregs. */
struct cg_array {
	int n, ncomp;
	int *vreg;                     /* by element, set by isel */
	const bool *zero;              /* by element: set to zero at the top */
};

/* What an IR instruction is to a local array (plan_arrays.c), by id. */
enum cg_arr_role { CG_ARR_NONE,
		   CG_ARR_LOAD,    /* an IR LOAD of a placed array */
		   CG_ARR_STORE }; /* an IR STORE of a placed array */

struct cg_arr_access {
	uint8_t role;                  /* enum cg_arr_role */
	int array;
	int pos;                       /* the element, -1 none; through aL the one
					  addressed when aL = 0 */
	bool rel;                      /* through aL */
	bool direct;                   /* LOAD: no STORE can follow it, so its
					  value is the element's vreg itself */
	const struct ir_instr *fwd;    /* LOAD: the STORE of its block before it
					  that wrote its element: its value */
	bool forwarded;                /* STORE: some LOAD reads its value */
	bool guard;                    /* whether the index may leave the elements:
					  then the access takes effect only while
					  index <= limit */
	float limit;
	const struct ir_src *idx;      /* the index: the counter, or counter + c */
};

/* A uniform read through aL (loop_rel.c). */
struct cg_rel_read {
	const struct ir_cf *loop;
	int uniform;
	int step;             /* the loop counter's, aL's per-pass increment */
};

/* A constant slot as the compile fills it (cg_consts.c). */
struct cg_const_slot {
	float v[4];
	uint8_t ncomp;        /* immediate components filled */
	bool imm;             /* holds immediates (else a uniform's or unused) */
};

struct cg_ctx {
	struct arena *arena;
	struct diag_sink *diag;
	struct ir_func *func;
	const struct r500_compile_options *opts;
	bool failed;
	bool over_limit;      /* failed for want of slots or temporaries */
	bool too_long;        /* over the R500's instruction slots */
	sw_set off;           /* the optimizations this compile leaves out: the
				 user's switches and the candidate's choices */

	struct cg_vreg *vregs; int nvregs, cap_vregs;
	struct cg_op *ops;     int nops, cap_ops;

	/* constant slots: uniforms first, then packed immediates; cslots
	 * holds the slots up to the last immediate's (cg_consts.c), a slot
	 * past it holds none */
	struct cg_const_slot *cslots; int cap_cslots;
	int nconst_slots;
	int nuniform_slots;
	int *unif_slot;       /* by uniform element: constant slot, -1 unread (uniform_layout.c) */
	uint8_t *unif_shift;  /* by uniform element: its first component in the slot */

	/* input vregs by ir input index (-1 unused) */
	int *input_vreg;
	int ninput_temps;

	struct cg_slot *slots; int nslots, cap_slots;
	int pairs, lower_bound;
	/* schedule.c: keep a partner that waits on a lookup out of a slot whose
	 * first op does not (set by r500_compile); whether that happened */
	bool hold_waiting_partners, held_waiting_partner;
	/* schedule.c: live lanes at which ops that free lanes go first (0: no
	 * limit; set by r500_compile from the candidate); the most lanes the
	 * schedule held live */
	int pressure_limit, peak_lanes;

	struct r500_inst *code; int ninst, cap_inst;
	int nops_inserted;
	int temps_used;       /* highest temp index + 1 */

	/* aL addressing (loop_rel.c): uniform arrays read at a loop's counter */
	int *rel_first;       /* by IR id: element of its uniform read in pass 0, -1 */
	const struct ir_cf **rel_loop; /* by IR id: the loop giving that read aL */
	struct cg_rel_read *rel_reads; int nrel_reads, cap_rel_reads;
	bool *unif_rel;       /* by uniform: one element per slot, in order */
	/* local arrays in temporaries (plan_arrays.c) */
	struct cg_array *arrays; int narrays, cap_arrays;
	struct cg_rel_read *arr_loops; int narr_loops; /* loops whose aL
					  addresses a placed array (uniform -1) */
	struct cg_arr_access **arr_access; /* by IR id, NULL none */
	/* US_FC_INT_CONST_n the loops name (isel_cf.c; finalize.c) */
	struct r500_loop_const int_consts[32];
	uint32_t int_const_used;

	/* by vreg: its only reader when that is a late copy of it into a
	 * multi vreg (schedule.c: lanes and lookups for coalesce), -1 none;
	 * NULL before scheduling */
	int *copy_of;

	/* flow control: loops as (LOOP op, ENDLOOP op) for liveness */
	int (*loops)[2]; int nloops, cap_loops;
	bool uses_fc;

	/* the live ranges cg_live_ranges made (regalloc.c's struct ra), for
	 * the next stage only: they depend on slots, writes and reads, not on
	 * lanes, so regalloc takes those alpha_lanes made (cg_run_stages drops
	 * them after any other stage); NULL none */
	struct ra *live;

	struct r500_program *prog;
};

/* --- helpers (cg_util.c) --- */
int cg_new_vreg(struct cg_ctx *cg, int ncomp);
struct cg_op *cg_new_op(struct cg_ctx *cg, enum cg_opc opc, int dst, uint8_t wmask);
bool cg_error(struct cg_ctx *cg, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct cg_opnd cg_opnd_vreg(int vreg, const uint8_t swz[4], int mod);
/* Physical channel (0..3) or constant swizzle code an operand entry reads. */
int cg_opnd_channel(const struct cg_ctx *cg, const struct cg_opnd *o, int entry);

/* The US_FC_INT_CONST_n holding v (index 0 is {255, 0, 0}, every loop
 * without aL names it); -1 when all 32 hold other values. */
int cg_int_const(struct cg_ctx *cg, struct r500_loop_const v);

/* --- constants (cg_consts.c) --- */
/* Operand giving values v[0..n-1] (one per destination component), using
 * the 0/0.5/1 swizzles, an inline constant, or a packed immediate slot.
 * Returns false (with a diagnostic) when the constant file is full. */
bool cg_const_opnd(struct cg_ctx *cg, const float *v, int n, struct src_loc loc,
		   struct cg_opnd *out);

/* --- stages, each one file; false on failure (diagnostics reported) --- */
bool cg_plan_arrays(struct cg_ctx *cg);    /* plan_arrays.c: first of all */
bool cg_plan_loop_rel(struct cg_ctx *cg);  /* loop_rel.c: before the layout */
/* Whether the loop reads some uniform or local array through aL, and
 * aL's step (the same counter's: loop_counter_find's when it has one). */
bool cg_rel_loop_step(const struct cg_ctx *cg, const struct ir_cf *loop, int *step);
bool cg_layout_uniforms(struct cg_ctx *cg); /* uniform_layout.c */
/* The layout as a stage: the constant slots the uniforms take, refused
 * past the R500's (uniform_layout.c). */
bool cg_stage_layout_uniforms(struct cg_ctx *cg);
/* After isel: ops whose results nobody reads dropped, write masks
 * trimmed (isel.c). */
bool cg_sweep_dead(struct cg_ctx *cg);
/* The constant operand of uniform element `element` (u->base + offset)
 * read through swz; false when the layout gave it no slot. */
bool cg_uniform_opnd(const struct cg_ctx *cg, int element, const uint8_t swz[4], uint8_t mod,
		     struct cg_opnd *out);
bool cg_isel(struct cg_ctx *cg);          /* isel.c */
bool cg_copy_fold(struct cg_ctx *cg);     /* copy_fold.c */
bool cg_copy_bypass(struct cg_ctx *cg);   /* copy_bypass.c */
bool cg_retarget_output(struct cg_ctx *cg); /* out_retarget.c */
bool cg_merge(struct cg_ctx *cg);         /* merge.c */
bool cg_presub(struct cg_ctx *cg);        /* presub.c */
bool cg_schedule(struct cg_ctx *cg);      /* schedule.c */
bool cg_sink_constants(struct cg_ctx *cg); /* sink.c */
bool cg_coalesce(struct cg_ctx *cg);      /* coalesce.c */
bool cg_alpha_lanes(struct cg_ctx *cg);   /* alpha_lanes.c */
bool cg_regalloc(struct cg_ctx *cg);      /* regalloc.c */
bool cg_regalloc_check(const struct cg_ctx *cg, char *why, size_t len); /* regalloc.c */

/* A vreg component's live range: the open interval (a, b) in half-slot
 * time (written at 2 * slot, read at 2 * slot), empty when a > b. */
struct cg_range {
	int a, b;
};

/* The live ranges regalloc works from, by vreg and component, and per
 * vreg whether a presubtract or a derivative reads it (its lanes are then
 * fixed); arena-allocated (regalloc.c). */
bool cg_live_ranges(struct cg_ctx *cg, struct cg_range (**rng)[4], const bool **lane_fixed);
bool cg_self_copies(struct cg_ctx *cg);   /* self_copy.c */
bool cg_endif_merge(struct cg_ctx *cg);   /* endif_merge.c */
bool cg_emit(struct cg_ctx *cg);          /* emit.c */
bool cg_hazards(struct cg_ctx *cg);       /* hazards.c */
bool cg_limits(struct cg_ctx *cg);        /* limits.c */
bool cg_limits_early(struct cg_ctx *cg);  /* limits.c: slot floor after isel */
bool cg_finalize(struct cg_ctx *cg);      /* finalize.c */
bool cg_const_program(struct cg_ctx *cg); /* const_program.c */

/* --- the middle form made visible (cg_print.c, cg_validate.c) --- */
/* How far the form has come: ops and vregs (isel), ops placed in slots
 * (schedule), vregs in temporaries (regalloc), machine code (emit). */
enum cg_phase { CG_PHASE_OPS, CG_PHASE_SLOTS, CG_PHASE_REGS, CG_PHASE_CODE };
/* Checks the form as it must be once `phase` is reached: one writer per
 * vreg component, operands in range, slots and units that agree, legal
 * address tables, temporaries assigned.  False with the first problem. */
bool cg_validate(const struct cg_ctx *cg, enum cg_phase phase, char *why, size_t len);
/* Whether an optional stage or isel optimization runs (-O1 and above,
 * not skipped): r500_compile.c. */
bool cg_opt_enabled(const struct cg_ctx *cg, enum sw_id sw);

struct r500_candidate;
struct r500_compile_report;
/* What the stages before presub made for one candidate, kept for the
 * next (r500_candidate.c): no stage before presub reads the presubtract
 * or scheduler choices, so a candidate that differs only in those starts
 * from a copy of it instead of redoing isel .. merge (a third to half of
 * each such compile).  Zero it first; ctx NULL: none kept yet. */
struct cg_early {
	struct cg_ctx *ctx;   /* never run on: each compile runs on a copy */
	struct r500_compile_options opts; /* the options it was made with */
};
/* The backend's stages in order on a new context for one candidate
 * (r500_compile.c); NULL with diagnostics; *rep what the compile found.
 * early (may be NULL): where it matches f and opts, the compile starts
 * from it; else this compile's state before presub is kept there. */
struct cg_ctx *cg_run_stages(struct ir_func *f, const struct r500_compile_options *opts,
			     const struct r500_candidate *c, struct arena *arena,
			     struct diag_sink *diag, struct r500_compile_report *rep,
			     struct cg_early *early);
/* The validate stage's checks of every machine word and of the program,
 * on a finished program: a compile whose stages did not validate
 * (opts->validate off) checks the one program it keeps (r500_candidate.c).
 * False with an internal-error diagnostic. */
bool cg_program_words_valid(const struct r500_program *p, struct diag_sink *diag);

/* A barrier op (see cg_op.late): FC or ALU-result writer. */
static inline bool cg_op_barrier(const struct cg_op *op)
{
	return op->opc == CG_FC || op->alu_result;
}

/* Whether op may write pixels flow control left inactive without
 * clobbering anything theirs: an ALU op writing only a plain SSA vreg
 * (no output, multi vreg, array element, condition or predicate).  Such a
 * vreg's live range is one interval in slot order from its writer on,
 * and slot order is valid for every pixel at once: what an inactive pixel
 * still needs is live, in slot order, at the write (regalloc.c), so
 * its temporary never holds it. */
static inline bool cg_op_inactive_safe(const struct cg_ctx *cg, const struct cg_op *op)
{
	return op->opc != CG_FC && !cg_opc_infos[op->opc].tex && !op->late &&
	       !op->alu_result && !op->predicated && !op->dst_rel && op->out == CG_OUT_NONE &&
	       op->dst >= 0 && op->dst < cg->nvregs && !cg->vregs[op->dst].multi &&
	       cg->vregs[op->dst].array < 0 && cg->vregs[op->dst].input < 0;
}

/* Room for elements 0..need-1 of an arena array of `*cap` elements,
 * doubling; the new room zeroed or not (an array whose elements are each
 * set when added).  Returns the array, maybe moved; NULL when out of
 * memory (*cap unchanged). */
void *cg_room(struct cg_ctx *cg, void *p, int *cap, int need, size_t elem, bool zeroed);

/* Physical channel (or constant swizzle code) entry `entry` of operand k
 * reads; a presubtract operand reads the lanes of its src0. */
int cg_op_channel(const struct cg_ctx *cg, const struct cg_op *op, int k, int entry);

/* Whether operand o is only the constant swizzle `code` (CG_SWZ_ZERO,
 * _HALF or _ONE, no register, no modifier) in the entries of `ent`. */
bool cg_opnd_const_swizzles(const struct cg_opnd *o, unsigned ent, int code);

/* The operand a plain copy reads: op is a live MAD d <- s * 1 + 0 into a
 * vreg, with no modifier, clamp, OMOD, presubtract or side work (output,
 * late copy, condition), s of any file.  NULL for any other op. */
const struct cg_opnd *cg_op_plain_copy(const struct cg_op *op);
/* The vreg a plain copy reads when s is another vreg; -1 otherwise. */
int cg_op_copy_source(const struct cg_op *op);

/* Which units' address tables serve operand k of op (a channel below 3
 * comes from the RGB table, channel 3 from the alpha table; MDH/MDV read
 * src0 in every unit they run in). */
void cg_op_operand_units(const struct cg_ctx *cg, const struct cg_op *op, int k, bool *rgb,
			 bool *alpha);

/* Operand slots worth visiting: the three sources, plus the presubtract's
 * two when the op has one. */
static inline int cg_op_nopnd(const struct cg_op *op)
{
	return op->presub ? CG_NOPND : CG_NSRC;
}

/* Whether the presubtract kind (enum r500_srcp) reads src1 too. */
static inline bool cg_presub_two(int kind)
{
	return kind == R500_SRCP_SUB || kind == R500_SRCP_ADD;
}

/* Entries of a presubtract operand (k >= CG_NSRC) that op reads. */
unsigned cg_op_presub_entries(const struct cg_op *op, int k);

/* Entries of operand k that op reads (swizzle indices).  Inline: every
 * stage asks it of every operand, and the call was most of its cost. */
static inline unsigned cg_op_entries(const struct cg_op *op, int k)
{
	const struct cg_opc_info *info = &cg_opc_infos[op->opc];
	if (k >= CG_NSRC)
		return cg_op_presub_entries(op, k);
	if (k >= info->nsrc)
		return 0;
	if (info->tex)
		return k == 0 ? op->tex_mask : op->tex_grad_mask;
	if (op->opc == CG_DP3)
		return 0x7;
	if (op->opc == CG_DP4)
		return 0xf;
	if (op->dst < 0 && op->out == CG_OUT_NONE && !op->alu_result)
		return 0;
	return op->wmask;
}

/* Components of operand k's vreg that op reads (bit c = component c); 0
 * when the operand is not a vreg. */
unsigned cg_op_vreg_comps(const struct cg_op *op, int k);

/* Whether op reads any component of vreg v. */
bool cg_op_reads_vreg(const struct cg_op *op, int v);

/* Physical lane of component c of what the op writes (dst or output);
 * inline for cg_op_units, which asks it of every written component. */
static inline int cg_op_lane(const struct cg_ctx *cg, const struct cg_op *op, int c)
{
	if (op->dst >= 0)
		return cg->vregs[op->dst].lane[c];
	if (op->out == CG_OUT_DEPTH)
		return 3;
	return c;
}

/* Drops the ALU slots a stage left empty, renumbers the ops' slots and
 * counts the pairs again (coalesce.c, self_copy.c). */
void cg_compact_slots(struct cg_ctx *cg);

/* Places op i in ALU slot pos when a unit it needs is free there and
 * its operands fit the slot's address tables (schedule.c); false leaves
 * the slot as it was. */
bool cg_slot_try_place(struct cg_ctx *cg, int pos, int opi);

/* Places the ops of ALU slot pos again from empty address tables (their
 * lanes changed, so the tables their operands need did); false leaves
 * the slot's units and tables as they were, but not the ops' sel
 * (schedule.c). */
bool cg_slot_refit(struct cg_ctx *cg, int pos);

/* Op i leaves the units it holds in ALU slot `slot` (its address table
 * entries stay; a stage that moves or drops ops after scheduling). */
void cg_slot_remove(struct cg_ctx *cg, int slot, int i);

/* Op i, placed in a slot, leaves it and is dead (a stage that found it
 * needless after scheduling; cg_compact_slots drops emptied slots). */
void cg_unplace_dead(struct cg_ctx *cg, int i);

/* Slots' address tables name vreg `to` where they named `from` (a stage
 * that merged two vregs after scheduling). */
void cg_rename_in_tables(struct cg_ctx *cg, int from, int to);

/* Units an op needs when its destination lanes are known. */
unsigned cg_op_units(const struct cg_ctx *cg, const struct cg_op *op);

#endif
