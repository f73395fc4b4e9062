/* Control flow of a TGSI program, and the program: IF/UIF ... ENDIF
 * through lower_branch (the registers joined with PHIs), BGNLOOP ...
 * ENDLOOP through lower_flagged_loop (the registers the body writes
 * carried), BRK and CONT as the loop's flags (lower_jump.c): the
 * instructions after an IF that may jump run under `if (alive)`, in runs
 * as lower_list makes them. */
#include "tgsi_lower.h"

#include <string.h>

/* Instructions first .. last-1 of the program. */
struct range {
	int first, last;
};

static void lower_range(struct tgsi_lower *t, int first, int last);

static void range_arm(struct lower *l, void *ud)
{
	const struct range *r = ud;
	lower_range((struct tgsi_lower *)l, r->first, r->last);
}

/* The index after the statement at i: past ENDIF or ENDLOOP for IF and
 * BGNLOOP. */
static int stmt_end(const struct tgsi_lower *t, int i)
{
	const struct tgsi_insn *in = &t->prog->insns[i];
	if (in->op == TGSI_OP_IF || in->op == TGSI_OP_UIF) {
		int m = in->match;
		if (t->prog->insns[m].op == TGSI_OP_ELSE)
			m = t->prog->insns[m].match;
		return m + 1;
	}
	if (in->op == TGSI_OP_BGNLOOP)
		return in->match + 1;
	return i + 1;
}

static bool is_jump(const struct tgsi_insn *in)
{
	return in->op == TGSI_OP_BRK || in->op == TGSI_OP_CONT;
}

/* IF/UIF: the condition src0.x != 0 (UIF's integer test, on the float
 * programs uscc takes, is the same test). */
static void lower_if(struct tgsi_lower *t, int i)
{
	const struct tgsi_insn *in = &t->prog->insns[i];
	static const uint8_t x[1] = { 0 };
	struct ir_src c = tgsi_read(t, &in->src[0], x, 1);
	struct ir_instr *b = ir_build_alu1(&t->l.b, IR_OP_F2B, 1, c);
	if (!b || t->l.failed) {
		t->l.failed = true;
		return;
	}
	int m = in->match;
	struct range then_r = { i + 1, m }, else_r = { m + 1, stmt_end(t, i) - 1 };
	bool has_else = t->prog->insns[m].op == TGSI_OP_ELSE;
	lower_branch(&t->l, ir_src_of(b), range_arm, &then_r, has_else ? range_arm : NULL, &else_r);
}

/* BGNLOOP: the variables of registers written inside are carried (TEMP
 * arrays are IR arrays: lower_arrays carries their elements). */
static void lower_bgnloop(struct tgsi_lower *t, int i)
{
	const struct tgsi_insn *in = &t->prog->insns[i];
	bool *carried = arena_alloc(t->l.f->arena, sizeof *carried * (size_t)(t->l.nvars + 1));
	if (!carried) {
		t->l.failed = true;
		return;
	}
	memset(carried, 0, sizeof *carried * (size_t)(t->l.nvars + 1));
	for (int k = i + 1; k < in->match; k++) {
		const struct tgsi_insn *w = &t->prog->insns[k];
		if (!w->ndst)
			continue;
		const struct tgsi_reg *r = &w->dst.reg;
		const struct tgsi_var *v = NULL;
		if (r->file == TGSI_FILE_TEMP)
			v = r->index >= 0 && r->index < t->ntemps ? &t->temps[r->index] : NULL;
		else if (r->file == TGSI_FILE_OUT)
			v = r->index >= 0 && r->index < TGSI_MAX_OUTPUTS ? &t->outs[r->index] : NULL;
		else if (r->file == TGSI_FILE_ADDR)
			v = r->index >= 0 && r->index < TGSI_MAX_ADDRS ? &t->addrs[r->index] : NULL;
		/* a TEMP array lives in an IR array: its STOREs keep it */
		if (v && v->sym && !v->array_len)
			carried[v->var_index] = true;
	}
	struct range body = { i + 1, in->match };
	lower_flagged_loop(&t->l, carried, range_arm, &body, in->loc);
}

/* The statement at instruction i (an IF or a loop with all it holds). */
static void lower_stmt_at(struct tgsi_lower *t, int i)
{
	const struct tgsi_insn *in = &t->prog->insns[i];
	const struct limits *lim = &t->fe->limits;
	if (t->l.f->next_id > lim->v[LIMIT_IR_INSTRUCTIONS]) {
		limit_error(t->fe->diag, in->loc, lim, LIMIT_IR_INSTRUCTIONS, t->l.f->next_id);
		t->l.failed = true;
		return;
	}
	t->l.b.loc = in->loc;
	switch (in->op) {
	case TGSI_OP_IF:
	case TGSI_OP_UIF:
		lower_if(t, i);
		return;
	case TGSI_OP_BGNLOOP:
		lower_bgnloop(t, i);
		return;
	case TGSI_OP_BRK:
		lower_set_flag(&t->l, t->l.jc->exit, true);
		/* fall through */
	case TGSI_OP_CONT:
		lower_set_flag(&t->l, t->l.jc->alive, false);
		return;
	case TGSI_OP_END:
	case TGSI_OP_NOP:
		return;
	default:
		tgsi_lower_insn(t, in);
		return;
	}
}

/* Statements first .. last-1; after one that may jump, the rest runs
 * under `if (alive)` in runs, each up to the next that may jump. */
static void lower_range(struct tgsi_lower *t, int first, int last)
{
	int i = first;
	bool guarded = false; /* what follows runs only while alive */
	while (i < last && !t->l.failed) {
		if (!guarded) {
			lower_stmt_at(t, i);
			if (is_jump(&t->prog->insns[i]))
				return; /* what follows a jump never runs */
			guarded = t->l.jc && t->may_jump[i];
			i = stmt_end(t, i);
			continue;
		}
		bool alive;
		if (lower_flag_known(t->l.jc->alive, &alive)) {
			if (!alive)
				return;
			guarded = false;
			continue;
		}
		struct range run = { i, i };
		while (run.last < last) {
			int s = run.last;
			run.last = stmt_end(t, s);
			if (t->may_jump[s])
				break;
		}
		lower_branch(&t->l, lv_comp(lower_flag_value(t->l.jc->alive), 0, 0), range_arm, &run,
			     NULL, NULL);
		if (is_jump(&t->prog->insns[run.last - 1]))
			return;
		i = run.last;
	}
}

/* may_jump[i]: instruction i is BRK or CONT, or an IF holding one that
 * belongs to the loop around the IF. */
static bool mark_jumps(struct tgsi_lower *t)
{
	const struct tgsi_prog *g = t->prog;
	t->may_jump = arena_alloc(t->l.f->arena, sizeof *t->may_jump * (size_t)(g->ninsns + 1));
	int *open = arena_alloc(t->l.f->arena, sizeof *open * (size_t)(g->ninsns + 1));
	if (!t->may_jump || !open)
		return false;
	memset(t->may_jump, 0, sizeof *t->may_jump * (size_t)(g->ninsns + 1));
	int depth = 0;
	for (int i = 0; i < g->ninsns; i++) {
		switch (g->insns[i].op) {
		case TGSI_OP_IF: case TGSI_OP_UIF: case TGSI_OP_BGNLOOP:
			open[depth++] = i;
			break;
		case TGSI_OP_ENDIF: case TGSI_OP_ENDLOOP:
			depth--;
			break;
		case TGSI_OP_BRK: case TGSI_OP_CONT:
			t->may_jump[i] = true;
			for (int d = depth - 1; d >= 0 && g->insns[open[d]].op != TGSI_OP_BGNLOOP; d--)
				t->may_jump[open[d]] = true;
			break;
		default:
			break;
		}
	}
	return true;
}

/* The written OUT registers as the IR's outputs: COLOR[n] whole,
 * POSITION's .z as the depth. */
static void emit_outputs(struct tgsi_lower *t)
{
	for (int r = 0; r < TGSI_MAX_OUTPUTS && !t->l.failed; r++) {
		const struct tgsi_var *v = &t->outs[r];
		struct lvar *var = v->sym ? v->sym->lower_data : NULL;
		if (!var || !var->written)
			continue;
		const struct tgsi_output *o = &t->out_info[r];
		bool depth = o->target < 0;
		int idx = ir_func_add_output(t->l.f, o->name, o->target, depth ? 1 : 4);
		struct ir_src s = depth ? lv_comp(&var->elems[0], 0, 2) : var->elems[0].col[0];
		struct ir_instr *out = ir_build(&t->l.b, IR_OP_OUTPUT, 0, IR_FLOAT, 1, &s);
		if (!out || idx < 0) {
			t->l.failed = true;
			return;
		}
		out->index = idx;
	}
}

/* The zero, false and true constants lower_begin makes for the lowering
 * go when nothing reads them.  Left to DCE, their removal was all a small
 * program's first round of IR passes changed, and the rounds then ran a
 * second time to find nothing more. */
struct markers {
	const struct ir_instr *mark[3];
	unsigned read; /* bit i: mark[i] has a reader */
};

static void note_read(struct markers *m, const struct ir_instr *def)
{
	for (int i = 0; i < 3; i++)
		if (def && def == m->mark[i])
			m->read |= 1u << i;
}

/* Notes the markers `in` reads; true (the walk stops) once all are read. */
static bool reads_marker(const struct ir_instr *in, void *ud)
{
	struct markers *m = ud;
	for (int k = 0; k < in->nsrc && k < IR_MAX_SRCS; k++)
		note_read(m, in->src[k].def);
	return m->read == 7;
}

static void cond_reads_marker(struct ir_src *cond, void *ud)
{
	note_read(ud, cond->def);
}

static void drop_unread_markers(struct tgsi_lower *t)
{
	struct ir_func *f = t->l.f;
	struct ir_instr *const mark[3] = { t->l.zero, t->l.falsev, t->l.truev };
	struct markers m = { { mark[0], mark[1], mark[2] }, 0 };
	if (ir_any_instr(f, reads_marker, &m))
		return;
	ir_foreach_cond(f, cond_reads_marker, &m);
	for (int i = 0; i < 3; i++)
		if (mark[i] && !(m.read >> i & 1))
			ir_instr_remove(mark[i]);
}

struct ir_func *tgsi_lower_program(struct fe_ctx *fe, const struct tgsi_prog *prog,
				   bool trig_revolutions)
{
	struct tgsi_lower t;
	memset(&t, 0, sizeof t);
	t.fe = fe;
	t.prog = prog;
	t.trig_revolutions = trig_revolutions;
	if (!lower_begin(&t.l, fe, IR_STAGE_FRAGMENT, fe_loc(fe, 1, 1)))
		return NULL;
	if (tgsi_declare(&t) && mark_jumps(&t)) {
		lower_range(&t, 0, prog->ninsns);
		if (!t.l.failed) {
			t.l.b.loc = prog->ninsns ? prog->insns[prog->ninsns - 1].loc : prog->end_loc;
			emit_outputs(&t);
		}
		if (!t.l.failed)
			drop_unread_markers(&t);
	} else {
		t.l.failed = true;
	}
	if (!t.l.failed && !t.l.f->noutputs)
		tgsi_refuse(&t, prog->end_loc, "the program writes no output");
	if (t.l.failed || arena_failed(fe->arena)) {
		if (!fe->diag->errors)
			diag_error(fe->diag, fe_loc(fe, 0, 0), "out of memory");
		return NULL;
	}
	return t.l.f;
}
