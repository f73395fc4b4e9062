/* The backend on text fixtures: tests/backend/fixtures/<name>.ir is parsed
 * and compiled at -O0 and -O2 (validating the middle form after every
 * stage); the -S listing must equal <name>.O0.s and <name>.O2.s.  A
 * missing expected file fails the test; USCC_UPDATE_FIXTURES=1 writes the
 * listings instead, to be read and committed by hand.
 *
 * Besides: the validator rejects broken forms; -O0 runs no optional stage;
 * a skipped stage does not run; the stage names --skip takes. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cg.h"
#include "ir.h"
#include "r500_compile.h"
#include "../test_util.h"

static const char *const fixture_dir = USCC_SOURCE_DIR "/tests/backend/fixtures";

static struct ir_func *parse_fixture(struct arena *a, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s.ir", fixture_dir, name);
	char *text = test_read_file(path);
	if (!text)
		fail_msg("cannot read %s", path);
	struct diag_sink d;
	diag_init(&d, a);
	struct ir_func *f = ir_parse(text, path, a, &d);
	free(text);
	if (!f || !ir_validate(f, &d))
		fail_msg("%s does not parse or validate:\n%s", path, diag_render(&d));
	return f;
}

/* Stages seen by the dump callback, comma-separated. */
struct seen {
	char names[512];
};

static void note_stage(void *ud, const char *stage, const struct cg_ctx *cg)
{
	(void)cg;
	struct seen *s = ud;
	size_t n = strlen(s->names);
	snprintf(s->names + n, sizeof s->names - n, "%s%s", n ? "," : "", stage);
}

/* The switches named in a comma-separated list (NULL: none) turned off. */
static sw_set switches_off(const char *list)
{
	sw_set off = 0;
	for (const char *p = list; p && *p;) {
		char name[64];
		size_t n = strcspn(p, ",");
		assert_true(n < sizeof name);
		memcpy(name, p, n);
		name[n] = 0;
		enum sw_id sw;
		if (!sw_find(name, &sw))
			fail_msg("no switch named '%s'", name);
		off |= sw_bit(sw);
		p += n + (p[n] == ',');
	}
	return off;
}

static struct r500_program *compile_fixture(struct arena *a, struct ir_func *f, int opt,
					    const char *skip, struct seen *seen)
{
	struct diag_sink d;
	diag_init(&d, a);
	struct r500_compile_options o = { .opt_level = opt, .skip = switches_off(skip),
					  .validate = true,
					  .dump = seen ? note_stage : NULL, .dump_ud = seen };
	struct r500_program *p = r500_compile(f, &o, a, &d);
	if (!p)
		fail_msg("compile failed:\n%s", diag_render(&d));
	return p;
}

/* The fixture compiled once, as the stages choose (no variants). */
static struct r500_program *compile_once(struct arena *a, const char *name)
{
	struct diag_sink d;
	diag_init(&d, a);
	struct r500_compile_options o = { .opt_level = 2, .validate = true, .no_variants = true };
	struct r500_program *p = r500_compile(parse_fixture(a, name), &o, a, &d);
	if (!p)
		fail_msg("compile failed:\n%s", diag_render(&d));
	return p;
}

static void check_listing(const char *name, int opt)
{
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, name), opt, NULL, NULL);
	const char *got = r500_program_listing(p, a);
	char path[512];
	snprintf(path, sizeof path, "%s/%s.O%d.s", fixture_dir, name, opt);
	const char *update = getenv("USCC_UPDATE_FIXTURES");
	if (update && *update == '1') {
		FILE *fp = fopen(path, "w");
		assert_non_null(fp);
		fputs(got, fp);
		fclose(fp);
	}
	char *want = test_read_file(path);
	if (!want)
		fail_msg("no expected listing %s (USCC_UPDATE_FIXTURES=1 writes it)", path);
	if (strcmp(want, got) != 0)
		fail_msg("%s at -O%d differs from %s:\n--- got\n%s--- want\n%s", name, opt, path,
			 got, want);
	free(want);
	arena_destroy(a);
}

static void test_fixtures(void **state)
{
	(void)state;
	DIR *dp = opendir(fixture_dir);
	assert_non_null(dp);
	int count = 0;
	for (struct dirent *e; (e = readdir(dp));) {
		size_t n = strlen(e->d_name);
		if (n < 4 || strcmp(e->d_name + n - 3, ".ir") != 0)
			continue;
		char name[256];
		snprintf(name, sizeof name, "%.*s", (int)(n - 3), e->d_name);
		check_listing(name, 0);
		check_listing(name, 2);
		count++;
	}
	closedir(dp);
	assert_true(count >= 6);
}

/* -O0 runs no optional stage and -O2 runs them all; a skipped one does
 * not run; required stages always do. */
static void test_stage_switches(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct seen o0 = { "" }, o2 = { "" }, skipped = { "" };
	compile_fixture(a, parse_fixture(a, "merge_output"), 0, NULL, &o0);
	compile_fixture(a, parse_fixture(a, "merge_output"), 2, NULL, &o2);
	compile_fixture(a, parse_fixture(a, "merge_output"), 2,
			"coalesce,merge,copy_fold,copy-bypass,retarget-output,presub,sink,self-copies,"
			"alpha-lanes,endif-merge",
			&skipped);
	assert_string_equal(o0.names, "plan-arrays,plan-loop-rel,layout-uniforms,isel,"
			    "sweep-dead,limits-early,schedule,regalloc,check-regs,emit,"
			    "hazards,limits,validate,finalize,const-program");
	assert_string_equal(o2.names, "plan-arrays,plan-loop-rel,layout-uniforms,isel,"
			    "sweep-dead,limits-early,copy-fold,copy-bypass,retarget-output,merge,presub,"
			    "schedule,"
			    "sink,coalesce,alpha-lanes,"
			    "regalloc,check-regs,self-copies,endif-merge,emit,hazards,limits,validate,"
			    "finalize,const-program");
	assert_string_equal(skipped.names, o0.names);
	arena_destroy(a);
}

/* Skipping the isel optimizations by name gives the -O0 code for them. */
static void test_isel_switches(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *fused = compile_fixture(a, parse_fixture(a, "mad_fusion"), 2, NULL, NULL);
	struct r500_program *unfused =
		compile_fixture(a, parse_fixture(a, "mad_fusion"), 2, "mad_fusion,presub", NULL);
	assert_int_equal(fused->ninst, 1);
	assert_int_equal(unfused->ninst, 2);
	/* |v| / dot(v, v) - 0.9: the division's MAD (x * 1/y) takes the - 0.9 */
	struct r500_program *div = compile_fixture(a, parse_fixture(a, "mad_fusion_div"), 2, NULL, NULL);
	struct r500_program *div_unfused =
		compile_fixture(a, parse_fixture(a, "mad_fusion_div"), 2, "mad_fusion", NULL);
	assert_int_equal(div->ninst, 3);
	assert_int_equal(div_unfused->ninst, 4);
	/* the lookup's coordinate op writes the coordinate vector itself */
	struct r500_program *folded = compile_fixture(a, parse_fixture(a, "copy_fold"), 2, NULL, NULL);
	struct r500_program *copied =
		compile_fixture(a, parse_fixture(a, "copy_fold"), 2, "copy-fold", NULL);
	assert_int_equal(folded->ninst, 3);
	assert_int_equal(copied->ninst, 4);
	/* discard if v.x < 0.25: TEXKILL on v.x - 0.25, not on a compare's 0/1 */
	struct r500_program *kill = compile_fixture(a, parse_fixture(a, "kill"), 2, NULL, NULL);
	struct r500_program *kill_cmp =
		compile_fixture(a, parse_fixture(a, "kill"), 2, "kill-compare", NULL);
	assert_int_equal(kill->ninst, 3);
	assert_int_equal(kill_cmp->ninst, 5);
	struct r500_program *omod = compile_fixture(a, parse_fixture(a, "omod"), 2, NULL, NULL);
	struct r500_program *no_omod = compile_fixture(a, parse_fixture(a, "omod"), 2, "omod,presub", NULL);
	assert_int_equal(omod->ninst, 1);
	assert_int_equal(omod->code[0].alu.rgb_omod, R500_OMOD_MUL4);
	assert_int_equal(no_omod->ninst, 2);
	arena_destroy(a);
}

/* sat(x) becomes the clamp of the ops computing x when nothing else reads
 * x (sat_fold: output 0's MAD clamps itself); x read twice keeps a clamped
 * copy (output 1), and skipping omod keeps both copies. */
static void test_sat_fold(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "sat_fold"), 2, NULL, NULL);
	struct r500_program *no = compile_fixture(a, parse_fixture(a, "sat_fold"), 2, "omod", NULL);
	assert_int_equal(p->ninst, 3);
	assert_int_equal(no->ninst, 4);
	int clamped_outputs = 0, clamps = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		clamps += in->cmn.rgb_clamp;
		clamped_outputs += in->cmn.type == R500_TYPE_OUT && in->cmn.rgb_clamp;
	}
	assert_int_equal(clamps, 2);
	assert_int_equal(clamped_outputs, 1);
	arena_destroy(a);
}

/* copy_bypass: the projective lookup reads the varying's xy where isel
 * copied them beside q; the derivative of the swizzled varying keeps its
 * copy (MDH ignores swizzles).  With the stage skipped, the copy of xy
 * stays and takes a slot of its own. */
static void test_copy_bypass(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "copy_bypass"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "copy_bypass"), 2, "copy-bypass", NULL);
	assert_int_equal(p->ninst, kept->ninst - 1);
	int mdh = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		if (in->cmn.type != R500_TYPE_ALU && in->cmn.type != R500_TYPE_OUT)
			continue;
		if (in->alu.rgb_op == R500_ROP_MDH) { /* reads the copy, unswizzled */
			mdh++;
			assert_int_equal(in->alu.rgb_arg[0].swz[0], R500_SWZ_R);
			assert_int_equal(in->alu.rgb_arg[0].swz[1], R500_SWZ_G);
			assert_int_equal(in->alu.rgb_arg[0].swz[2], R500_SWZ_B);
		}
	}
	assert_int_equal(mdh, 1);
	arena_destroy(a);
}

/* retarget_output: gl_FragColor = vec4(texture.rgb, gl_Color.a).  The
 * copy of gl_Color.a into the gathered vector writes the target's alpha
 * itself, beside the OUT of the lookup's rgb in the same instruction:
 * two instructions, three with the stage skipped. */
static void test_retarget_output(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "retarget_output"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "retarget_output"), 2, "retarget-output", NULL);
	assert_int_equal(p->ninst, 2);
	assert_int_equal(kept->ninst, 3);
	const struct r500_inst *out = &p->code[1];
	assert_int_equal(out->cmn.type, R500_TYPE_OUT);
	assert_int_equal(out->cmn.rgb_omask, 0x7);   /* rgb and alpha of rt0 together */
	assert_int_equal(out->cmn.alpha_omask, 1);
	/* the lookup's register and gl_Color's */
	assert_int_not_equal(out->alu.rgb_addr.src[0].addr, out->alu.alpha_addr.src[0].addr);
	arena_destroy(a);
}

/* retarget_output_uniform: vec4(color, texture.a), color a uniform.  The
 * copy of the uniform's rgb writes the target itself, so one OUT reads
 * rgb from the constant and alpha from the lookup: two instructions,
 * three with the stage skipped. */
static void test_retarget_output_uniform(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p =
		compile_fixture(a, parse_fixture(a, "retarget_output_uniform"), 2, NULL, NULL);
	struct r500_program *kept = compile_fixture(a, parse_fixture(a, "retarget_output_uniform"),
						    2, "retarget-output", NULL);
	assert_int_equal(p->ninst, 2);
	assert_int_equal(kept->ninst, 3);
	const struct r500_inst *out = &p->code[1];
	assert_int_equal(out->cmn.type, R500_TYPE_OUT);
	assert_int_equal(out->cmn.rgb_omask, 0x7);
	assert_int_equal(out->cmn.alpha_omask, 1);
	assert_true(out->alu.rgb_addr.src[0].cnst);     /* the uniform */
	assert_false(out->alu.alpha_addr.src[0].cnst);  /* the lookup's register */
	arena_destroy(a);
}

/* merge_copies: vec3(a.zw, b.x) gathers copies from two registers; one
 * MAD (a.zw0 * 1 + b.00x) writes all three channels, so the dot product
 * follows in the next instruction.  Without it: two copies, three
 * instructions. */
static void test_merge_copies(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "merge_copies"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "merge_copies"), 2, "merge-copies", NULL);
	assert_int_equal(p->ninst, 2);
	assert_int_equal(kept->ninst, 3);
	const struct r500_inst *gather = &p->code[0];
	assert_int_equal(gather->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(gather->cmn.rgb_wmask, 0x7);
	/* A and C read the two inputs' registers */
	assert_int_not_equal(gather->alu.rgb_addr.src[0].addr, gather->alu.rgb_addr.src[1].addr);
	arena_destroy(a);
}

/* merge_output_forms: vec4(a.x, b.x, c.x, 1.0) copies from three
 * registers, one OUT when the third copy goes to B (1 * c.x + 0); and
 * vec4(u.x * v.x, -w.x, 0.0, 1.0), a product beside a negated copy, one
 * OUT when the copy goes to C (0 * 0 + -w.x).  Without the other forms
 * (merge-copies skipped) each part is its own OUT: six. */
static void test_merge_output_forms(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p =
		compile_fixture(a, parse_fixture(a, "merge_output_forms"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "merge_output_forms"), 2, "merge-copies", NULL);
	int outs = 0, kept_outs = 0;
	for (int i = 0; i < p->ninst; i++)
		outs += p->code[i].cmn.type == R500_TYPE_OUT;
	for (int i = 0; i < kept->ninst; i++)
		kept_outs += kept->code[i].cmn.type == R500_TYPE_OUT;
	assert_int_equal(outs, 2);
	assert_int_equal(kept_outs, 6); /* each part its own OUT */
	/* the three copies: three registers, one per operand */
	const struct r500_inst *first = &p->code[0];
	assert_int_equal(first->cmn.rgb_omask, 7);
	assert_int_equal(first->cmn.alpha_omask, 1);
	assert_int_not_equal(first->alu.rgb_addr.src[0].addr, first->alu.rgb_addr.src[1].addr);
	assert_int_not_equal(first->alu.rgb_addr.src[1].addr, first->alu.rgb_addr.src[2].addr);
	assert_int_not_equal(first->alu.rgb_addr.src[0].addr, first->alu.rgb_addr.src[2].addr);
	arena_destroy(a);
}

/* How many units of the ALU and OUT instructions of p run rgb_op (-1:
 * none) or alpha_op; *ops (when given): how many units write anything.
 * A unit writing nothing counts when its op is SIN/COS (they write
 * through SOP into the RGB unit's channels). */
static int count_unit_ops(const struct r500_program *p, int rgb_op, int alpha_op, int *ops)
{
	int n = 0, all = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		if (in->cmn.type != R500_TYPE_ALU && in->cmn.type != R500_TYPE_OUT)
			continue;
		bool rgb = in->cmn.rgb_wmask || in->cmn.rgb_omask;
		bool trig = in->alu.alpha_op == R500_AOP_SIN || in->alu.alpha_op == R500_AOP_COS;
		bool alpha = in->cmn.alpha_wmask || in->cmn.alpha_omask || trig;
		n += (rgb && (int)in->alu.rgb_op == rgb_op) + (alpha && (int)in->alu.alpha_op == alpha_op);
		all += rgb + alpha;
	}
	if (ops)
		*ops = all;
	return n;
}

/* sincos_fract_revolutions: r300's TGSI reduces SIN's argument to
 * revolutions itself (FRC of x / 2pi) and the TGSI frontend scales it
 * back by 2pi; SIN and COS read the FRC's value as it is, and the
 * product, which the output reads too, is made for the output alone:
 * one FRC, no second reduction. */
static void test_sincos_fract_revolutions(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p =
		compile_fixture(a, parse_fixture(a, "sincos_fract_revolutions"), 2, NULL, NULL);
	int frc = count_unit_ops(p, R500_ROP_FRC, R500_AOP_FRC, NULL);
	int trig = count_unit_ops(p, -1, R500_AOP_SIN, NULL) + count_unit_ops(p, -1, R500_AOP_COS, NULL);
	assert_int_equal(frc, 1); /* two before: the product scaled and reduced again */
	assert_int_equal(trig, 2);
	arena_destroy(a);
}

/* uniform_struct_shared_tests: l[j].pos * l[j].color, two members of a
 * uniform array of structs (member-major, 4 elements) at a per-pixel
 * index: each read is a chain of 3 CMPs over test values j - 0.5 - k,
 * which the second read takes from the first: 3 test values for the two
 * chains, not 6. */
static void test_uniform_struct_shared_tests(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p =
		compile_fixture(a, parse_fixture(a, "uniform_struct_shared_tests"), 0, NULL, NULL);
	int ops;
	int cmp = count_unit_ops(p, R500_ROP_CMP, R500_AOP_CMP, &ops);
	assert_int_equal(cmp, 12); /* 6 instructions, RGB and alpha */
	/* besides: the index (MAD, FRC, MAD: floor), the product (RGB and
	 * alpha) and 3 test values: 6 when the tests are made twice */
	assert_int_equal(ops - cmp, 3 + 2 + 3);
	arena_destroy(a);
}

/* sink_bias: four dependent lookups, each with a bias in .w.  The
 * scheduler puts the four constant .w writes in the first free alpha
 * units, where each holds a temporary until its lookup; sunk next to
 * their coordinates they hold nothing and share their slots.  Skipped:
 * three more slots, three more temporaries. */
static void test_sink(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "sink_bias"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "sink_bias"), 2, "sink", NULL);
	assert_int_equal(p->ninst, 9);
	assert_int_equal(p->stats.temps, 1);
	assert_int_equal(kept->ninst, 12);
	assert_int_equal(kept->stats.temps, 4);
	arena_destroy(a);
}

/* self_copy: isel copies each derivative's input, and the allocator gives
 * the copy the input's temporary: the copies move nothing and go; with
 * the stage skipped they stay. */
static void test_self_copies(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "self_copy"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "self_copy"), 2, "self-copies", NULL);
	assert_int_equal(p->ninst, 3);
	assert_int_equal(kept->ninst, 5);
	arena_destroy(a);
}

/* endif_merge: the two ENDIFs that close the then-path's nest become
 * one that pops both, and the ELSE that jumped between them pops the one
 * it skipped no more; with the stage skipped both ENDIFs stay. */
static void test_endif_merge(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "endif_merge"), 2, NULL, NULL);
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "endif_merge"), 2, "endif-merge", NULL);
	assert_int_equal(p->ninst + 1, kept->ninst);
	int endif2 = 0, else2 = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_fc *fc = &p->code[i].fc;
		if (p->code[i].cmn.type != R500_TYPE_FC || fc->op != R500_FC_JUMP)
			continue;
		endif2 += fc->jump_any && fc->b_op0 == R500_FC_B_DECR && fc->b_pop_cnt == 2;
		else2 += fc->b_else && fc->b_op1 == R500_FC_B_DECR && fc->b_pop_cnt == 2;
	}
	assert_int_equal(endif2, 1);
	assert_int_equal(else2, 1);
	arena_destroy(a);
}

/* The first instruction after the first that waits on lookups, -1 none. */
static int first_wait(const struct r500_program *p)
{
	for (int i = 1; i < p->ninst; i++)
		if (p->code[i].cmn.tex_sem_wait)
			return i;
	return -1;
}

/* tex_temp_in_flight: the lookup writes t0.rgb; the lighting chain runs
 * while it is in flight and must not take t0.a (a write to the lookup's
 * temporary waits for it), so the first wait is the lookup's first
 * reader, not the chain's second slot. */
static void test_tex_temp_reserved(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p =
		compile_fixture(a, parse_fixture(a, "tex_temp_in_flight"), 2, NULL, NULL);
	assert_int_equal(first_wait(p), 6);
	arena_destroy(a);
}

/* presub_nop: compiled once, a presubtract's reader follows the slot that
 * writes its source and needs a NOP; r500_compile then compiles without
 * presubtracts too and keeps that cheaper program. */
static void test_presub_variant(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *once = compile_once(a, "presub_nop");
	struct r500_program *kept =
		compile_fixture(a, parse_fixture(a, "presub_nop"), 2, NULL, NULL);
	struct r500_program *none =
		compile_fixture(a, parse_fixture(a, "presub_nop"), 2, "presub", NULL);
	assert_true(once->stats.nops > 0);
	assert_int_equal(kept->stats.nops, 0);
	assert_true(kept->stats.cycles < once->stats.cycles);
	assert_int_equal(kept->stats.cycles, none->stats.cycles);
	arena_destroy(a);
}

/* A lookup's reader does not share a slot with work that does not wait
 * (tex_wait_partner: the fog chain runs first and the output of the
 * lookup's alpha pairs with its other reader, the first wait comes only
 * when the chain is done); with hold-waiting skipped, the
 * reader pairs at once and the program costs more.  The backend keeps the
 * cheaper of the two schedules, so holding never costs. */
static void test_hold_waiting(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p =
		compile_fixture(a, parse_fixture(a, "tex_wait_partner"), 2, NULL, NULL);
	struct r500_program *paired =
		compile_fixture(a, parse_fixture(a, "tex_wait_partner"), 2, "hold-waiting", NULL);
	assert_int_equal(first_wait(p), 5);
	assert_int_equal(first_wait(paired), 1);
	assert_true(p->stats.cycles < paired->stats.cycles);
	arena_destroy(a);
}

/* Independent lookups issue as one TEX run, even when the first lookup's
 * result makes ALU work for a dependent lookup ready (that work must not
 * split the run): a, b and d together, then c, which reads a. */
static void test_tex_runs(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "tex_blocks"), 2, NULL, NULL);
	int runs = 0, first_run = 0;
	for (int i = 0; i < p->ninst; i++) {
		bool tex = p->code[i].cmn.type == R500_TYPE_TEX;
		bool starts = tex && (i == 0 || p->code[i - 1].cmn.type != R500_TYPE_TEX);
		runs += starts;
		first_run += tex && runs == 1;
	}
	assert_int_equal(runs, 2);
	assert_int_equal(first_run, 3);
	arena_destroy(a);
}

/* A lookup issued at the end of a loop trip for the next one
 * (tex_carried.fixture, loop_prefetch's shape) stays in flight across
 * ENDLOOP and the loop's BREAK: no flow-control slot waits, and the
 * reader at the top of the trip does, before the lookup of the trip. */
static void test_tex_in_flight_across_loop(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "tex_carried"), 2, NULL, NULL);
	int loop = -1, tex = -1, endloop = -1, fc_waits = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		bool is_fc = in->cmn.type == R500_TYPE_FC;
		fc_waits += is_fc && in->cmn.tex_sem_wait;
		if (is_fc && in->fc.op == R500_FC_LOOP && tex < 0)
			loop = i; /* the innermost loop: the last LOOP before the lookup */
		if (in->cmn.type == R500_TYPE_TEX && loop >= 0 && tex < 0)
			tex = i;
		if (is_fc && in->fc.op == R500_FC_ENDLOOP && tex >= 0 && endloop < 0)
			endloop = i;
	}
	assert_true(loop >= 0 && tex > loop && endloop > tex);
	assert_int_equal(fc_waits, 0);
	/* the TEX writes the loop's carried temporary itself: copy-fold */
	int carried = p->code[tex].tex.dst_addr, reader_waits = 0;
	for (int i = loop + 1; i < tex; i++) {
		const struct r500_inst *in = &p->code[i];
		if (in->cmn.type != R500_TYPE_ALU)
			continue;
		for (int k = 0; k < 3; k++)
			if (!in->alu.rgb_addr.src[k].cnst && in->alu.rgb_addr.src[k].addr == carried)
				reader_waits += in->cmn.tex_sem_wait;
	}
	assert_int_equal(reader_waits, 1);
	arena_destroy(a);
}

/* The next trip's lookup whose coordinates are ready before the reads of
 * this trip's value (tex_carried_late_read.fixture): the lookup waits
 * for those reads and writes the carried temporary itself, so no copy
 * after it reads its result (a copy at the trip's end would wait for the
 * lookup in flight). */
static void test_carried_lookup_after_its_readers(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "tex_carried_late_read"), 2,
						 NULL, NULL);
	int loop = -1, tex = -1, endloop = -1;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		bool is_fc = in->cmn.type == R500_TYPE_FC;
		if (is_fc && in->fc.op == R500_FC_LOOP && tex < 0)
			loop = i;
		if (in->cmn.type == R500_TYPE_TEX && loop >= 0 && tex < 0)
			tex = i;
		if (is_fc && in->fc.op == R500_FC_ENDLOOP && tex >= 0 && endloop < 0)
			endloop = i;
	}
	assert_true(loop >= 0 && tex > loop && endloop > tex);
	int result = p->code[tex].tex.dst_addr, reads_after = 0, reads_before = 0;
	for (int i = loop + 1; i < endloop; i++) {
		const struct r500_inst *in = &p->code[i];
		if (in->cmn.type != R500_TYPE_ALU)
			continue;
		for (int k = 0; k < 3; k++) {
			bool r = (!in->alu.rgb_addr.src[k].cnst && in->alu.rgb_addr.src[k].addr == result) ||
				 (!in->alu.alpha_addr.src[k].cnst &&
				  in->alu.alpha_addr.src[k].addr == result);
			reads_after += r && i > tex;
			reads_before += r && i < tex;
		}
	}
	assert_int_equal(reads_after, 0);
	assert_true(reads_before > 0);
	arena_destroy(a);
}

/* The first flow-control instruction with op `op`, -1 when there is none. */
static int first_fc(const struct r500_program *p, int op)
{
	for (int i = 0; i < p->ninst; i++)
		if (p->code[i].cmn.type == R500_TYPE_FC && p->code[i].fc.op == op)
			return i;
	return -1;
}

/* A loop's scalar counter and sum (loop_scalar_lanes.fixture, piglit's
 * glsl-fs-loop-300): each update is computed in the lane its loop PHI
 * has, so coalesce makes it write the PHI: the trip ends without a copy,
 * one ALU slot after the BREAK's flow control. */
static void test_loop_updates_in_their_phi_lanes(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "loop_scalar_lanes"), 2, NULL,
						 NULL);
	int brk = first_fc(p, R500_FC_BREAKLOOP), endloop = first_fc(p, R500_FC_ENDLOOP);
	assert_true(brk >= 0 && endloop > brk);
	int alu = 0;
	for (int i = brk + 1; i < endloop; i++)
		alu += p->code[i].cmn.type == R500_TYPE_ALU;
	assert_int_equal(alu, 1);
	arena_destroy(a);
}

/* An update whose loop PHI's lane is taken in the slot it could first go
 * to waits for a slot where it is free (loop_lane_wait.fixture, run-gen
 * seed 728): it writes the PHI itself, and no ALU copy sits between the
 * inner loop's last BREAK and its ENDLOOP. */
static void test_loop_update_waits_for_its_lane(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "loop_lane_wait"), 2, NULL,
						 NULL);
	int endloop = first_fc(p, R500_FC_ENDLOOP);
	assert_true(endloop > 0);
	int alu = 0;
	for (int i = endloop - 1; i >= 0 && p->code[i].cmn.type != R500_TYPE_FC; i--)
		alu += p->code[i].cmn.type == R500_TYPE_ALU;
	assert_int_equal(alu, 0);
	arena_destroy(a);
}

/* Hand-made slots for the cost tests: FC op with its jump target; ALU,
 * TEX (its run's last: acquire) and OUT, waiting on the semaphore or not. */
static struct r500_inst fc_slot(int op, int to)
{
	struct r500_inst in;
	memset(&in, 0, sizeof in);
	in.cmn.type = R500_TYPE_FC;
	in.fc.op = (uint16_t)op;
	in.fc.jump_addr = (uint16_t)to;
	return in;
}

static struct r500_inst plain_slot(int type, bool wait)
{
	struct r500_inst in;
	memset(&in, 0, sizeof in);
	in.cmn.type = (uint16_t)type;
	in.cmn.tex_sem_wait = wait;
	in.tex.sem_acquire = type == R500_TYPE_TEX;
	return in;
}

/* The cost that chooses between compiles follows a loop's back edge: a
 * lookup issued at the end of a trip is waited for at the top of the
 * next, 1 slot later here, so its stall (30 - 3) counts, weighed as the
 * loop's slots are (8 passes guessed, or the passes the compiler knew);
 * the program's end, past the loop, would hide it.
 * Slots: LOOP (1), a reader that waits (8), the lookup (8), ENDLOOP (1),
 * OUT (1). */
static void test_weighted_cost_across_back_edge(void **state)
{
	(void)state;
	struct r500_inst code[5] = {
		fc_slot(R500_FC_LOOP, 3), plain_slot(R500_TYPE_ALU, true),
		plain_slot(R500_TYPE_TEX, true), fc_slot(R500_FC_ENDLOOP, 1),
		plain_slot(R500_TYPE_OUT, true),
	};
	struct r500_program p = { .code = code, .ninst = 5 };
	long in_loops, cost = r500_program_weighted_cost(&p, &in_loops);
	assert_int_equal(cost, 1 + 8 + 8 + 1 + 1 + 27 * 8);
	assert_int_equal(in_loops, 16);
	/* no reader waits: the next trip's lookup does, 2 slots on */
	code[1].cmn.tex_sem_wait = 0;
	assert_int_equal(r500_program_weighted_cost(&p, &in_loops), 1 + 8 + 8 + 1 + 1 + 26 * 8);

	/* with the loop's exit test (a JUMP over a BREAKLOOP) at the top, a
	 * trip that goes on takes the jump: the reader is 2 slots on, not 3 */
	struct r500_inst t[7] = {
		fc_slot(R500_FC_LOOP, 5), fc_slot(R500_FC_JUMP, 3), fc_slot(R500_FC_BREAKLOOP, 6),
		plain_slot(R500_TYPE_ALU, true), plain_slot(R500_TYPE_TEX, true),
		fc_slot(R500_FC_ENDLOOP, 1), plain_slot(R500_TYPE_OUT, true),
	};
	struct r500_program q = { .code = t, .ninst = 7 };
	assert_int_equal(r500_program_weighted_cost(&q, &in_loops),
			 1 + 8 + 8 + 8 + 8 + 1 + 1 + 26 * 8);
	/* a loop whose passes the compiler knew (3) is weighed by them */
	const uint8_t trips[7] = { 3 };
	q.loop_trips = trips;
	assert_int_equal(r500_program_weighted_cost(&q, &in_loops),
			 1 + 3 + 3 + 3 + 3 + 1 + 1 + 26 * 3);
	assert_int_equal(in_loops, 4 * 3);
}

/* Adds, subtracts and 1-x become presubtract operands of their readers
 * (presub.fixture: 1-a, a-b read twice, b.w+c.w read by two ops); the
 * channel-crossing a.w-b.x stays an op; skipping the stage restores the
 * ops. */
static void test_presub(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct r500_program *p = compile_fixture(a, parse_fixture(a, "presub"), 2, NULL, NULL);
	struct r500_program *no = compile_fixture(a, parse_fixture(a, "presub"), 2, "presub", NULL);
	int srcp_reads = 0, crossing = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_alu *alu = &p->code[i].alu;
		if (p->code[i].cmn.type != R500_TYPE_ALU && p->code[i].cmn.type != R500_TYPE_OUT)
			continue;
		for (int k = 0; k < 3; k++)
			srcp_reads += (alu->rgb_arg[k].sel == R500_SEL_SRCP) +
				      (alu->alpha_arg[k].sel == R500_SEL_SRCP);
		/* the kept subtract: alpha MAD of a.w, 1, -b.x */
		crossing += alu->alpha_op == R500_AOP_MAD && alu->alpha_arg[2].mod == R500_MOD_NEG;
	}
	assert_int_equal(p->ninst, 3);
	assert_int_equal(srcp_reads, 5);
	assert_int_equal(crossing, 1);
	assert_int_equal(p->code[0].alu.rgb_addr.srcp_op, R500_SRCP_SUB);
	assert_int_equal(p->code[0].alu.alpha_addr.srcp_op, R500_SRCP_ADD);
	assert_true(no->ninst > p->ninst);
	arena_destroy(a);
}

static void test_stage_names(void **state)
{
	(void)state;
	/* the backend's switches by either spelling; required stages have none */
	static const char *const optional[] = { "merge", "coalesce", "mad-fusion", "mad_fusion",
						 "omod", "copy_bypass", "retarget_output", "merge-copies",
						 "loop-rel", "loop-array",
						 "phi-share", "hold-waiting", "pressure", "alpha-lanes", "endif-merge" };
	enum sw_id sw;
	for (size_t i = 0; i < sizeof optional / sizeof *optional; i++) {
		assert_true(sw_find(optional[i], &sw));
		assert_int_equal(sw_layer(sw), SW_LAYER_BACKEND);
	}
	static const char *const none[] = { "regalloc", "check_regs", "isel", "merg", "",
					     "merge,coalesce" };
	for (size_t i = 0; i < sizeof none / sizeof *none; i++)
		assert_false(sw_find(none[i], &sw));
	int n = 0;
	while (r500_stage_name(n))
		n++;
	assert_int_equal(n, 25);
	assert_null(r500_stage_name(-1));
}

/* The validator, given a form that a stage broke, names the problem. */
struct breaker {
	const char *fixture;
	const char *stage;
	enum cg_phase phase;
	void (*corrupt)(struct cg_ctx *cg);
	const char *expect;    /* a part of the message */
	bool checked;
};

static struct breaker *current;

static void break_writer(struct cg_ctx *cg)
{
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead && cg->ops[i].dst >= 0 && !cg->vregs[cg->ops[i].dst].multi) {
			cg->vregs[cg->ops[i].dst].writer[0] = -1;
			return;
		}
}

static void break_slot(struct cg_ctx *cg)
{
	for (int s = 0; s < cg->nslots; s++)
		if (!cg->slots[s].tex && !cg->slots[s].fc && cg->slots[s].rgb >= 0) {
			cg->slots[s].rgb = -1;
			return;
		}
}

static void break_address(struct cg_ctx *cg)
{
	for (int s = 0; s < cg->nslots; s++)
		for (int k = 0; k < 3; k++)
			if (cg->slots[s].rgb_addr[k].file == CG_FILE_VREG) {
				cg->slots[s].rgb_addr[k].index += 1000;
				return;
			}
}

static void break_operand(struct cg_ctx *cg)
{
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead && cg->ops[i].src[0].file == CG_FILE_VREG) {
			cg->ops[i].src[0].swz[0] = 3; /* past a scalar's one component */
			cg->ops[i].src[0].index = cg->nvregs + 5;
			return;
		}
}

static void break_temp(struct cg_ctx *cg)
{
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead && cg->ops[i].dst >= 0) {
			cg->vregs[cg->ops[i].dst].temp = R500_NUM_TEMPS;
			return;
		}
}

/* Local arrays (plan_arrays.c): an element out of its run, an aL operand on
 * a vreg of no array, an aL write that is not late. */
static void break_array_run(struct cg_ctx *cg)
{
	if (cg->narrays > 0 && cg->arrays[0].n > 1)
		cg->vregs[cg->arrays[0].vreg[1]].temp += 1;
}

static void break_rel_operand(struct cg_ctx *cg)
{
	for (int i = 0; i < cg->nops; i++)
		for (int k = 0; k < CG_NSRC; k++)
			if (!cg->ops[i].dead && cg->ops[i].src[k].file == CG_FILE_TEMP_REL) {
				for (int v = 0; v < cg->nvregs; v++)
					if (cg->vregs[v].array < 0) {
						cg->ops[i].src[k].index = v;
						return;
					}
			}
}

static void break_rel_write(struct cg_ctx *cg)
{
	for (int i = 0; i < cg->nops; i++)
		if (!cg->ops[i].dead && cg->ops[i].dst_rel) {
			cg->ops[i].late = false;
			return;
		}
}

/* A copy of the form whose vregs, ops and slots are its own, in arena a:
 * corrupting it leaves the compile unharmed. */
static struct cg_ctx copy_form(const struct cg_ctx *ccg, struct arena *a)
{
	struct cg_ctx cg = *ccg;
	cg.vregs = arena_alloc(a, sizeof *cg.vregs * (size_t)(cg.nvregs + 1));
	cg.ops = arena_alloc(a, sizeof *cg.ops * (size_t)(cg.nops + 1));
	cg.slots = arena_alloc(a, sizeof *cg.slots * (size_t)(cg.nslots + 1));
	memcpy(cg.vregs, ccg->vregs, sizeof *cg.vregs * (size_t)cg.nvregs);
	memcpy(cg.ops, ccg->ops, sizeof *cg.ops * (size_t)cg.nops);
	if (cg.nslots)
		memcpy(cg.slots, ccg->slots, sizeof *cg.slots * (size_t)cg.nslots);
	return cg;
}

static void check_broken(void *ud, const char *stage, const struct cg_ctx *ccg)
{
	(void)ud;
	if (strcmp(stage, current->stage) != 0)
		return;
	/* a copy of the form, corrupted: the compile itself goes on unharmed */
	struct arena *a = arena_create(&mem_default_allocator);
	struct cg_ctx cg = copy_form(ccg, a);
	char why[256];
	assert_true(cg_validate(&cg, current->phase, why, sizeof why));
	current->corrupt(&cg);
	assert_false(cg_validate(&cg, current->phase, why, sizeof why));
	if (!strstr(why, current->expect))
		fail_msg("after %s: '%s' does not say '%s'", stage, why, current->expect);
	current->checked = true;
	arena_destroy(a);
}

static void test_validator(void **state)
{
	(void)state;
	struct breaker cases[] = {
		{ "coissue", "isel", CG_PHASE_OPS, break_writer, "writer", false },
		{ "coissue", "isel", CG_PHASE_OPS, break_operand, "vreg", false },
		{ "coissue", "schedule", CG_PHASE_SLOTS, break_slot, "slot", false },
		{ "coissue", "schedule", CG_PHASE_SLOTS, break_address, "address", false },
		{ "coissue", "regalloc", CG_PHASE_REGS, break_temp, "temporary 128", false },
		{ "array_loop_rel", "regalloc", CG_PHASE_REGS, break_array_run, "element 1", false },
		{ "array_loop_rel", "isel", CG_PHASE_OPS, break_rel_operand, "no array element",
		  false },
		{ "array_loop_rel", "isel", CG_PHASE_OPS, break_rel_write, "not late", false },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		current = &cases[i];
		struct arena *a = arena_create(&mem_default_allocator);
		struct diag_sink d;
		diag_init(&d, a);
		struct r500_compile_options o = { .opt_level = 2, .validate = true,
						  .dump = check_broken };
		assert_non_null(r500_compile(parse_fixture(a, cases[i].fixture), &o, a, &d));
		assert_true(cases[i].checked);
		arena_destroy(a);
	}
}

/* The allocation checker sees an aL read as a read of every element: a
 * value put in an element's temporary just before the read is caught. */
static bool array_checked;

static void clobber_array(void *ud, const char *stage, const struct cg_ctx *ccg)
{
	(void)ud;
	if (strcmp(stage, "regalloc") != 0)
		return;
	struct arena *a = arena_create(&mem_default_allocator);
	struct cg_ctx cg = copy_form(ccg, a);
	char why[256];
	assert_true(cg_regalloc_check(&cg, why, sizeof why));
	int read_slot = -1, victim = -1;
	for (int i = 0; i < cg.nops && read_slot < 0; i++)
		for (int k = 0; k < CG_NSRC; k++)
			if (!cg.ops[i].dead && cg.ops[i].src[k].file == CG_FILE_TEMP_REL)
				read_slot = cg.ops[i].slot;
	for (int i = 0; i < cg.nops; i++) { /* the last plain write before it */
		const struct cg_op *op = &cg.ops[i];
		if (op->dead || op->dst < 0 || op->slot >= read_slot || cg.vregs[op->dst].multi ||
		    (victim >= 0 && op->slot <= cg.ops[victim].slot))
			continue;
		victim = i;
	}
	assert_true(read_slot >= 0 && victim >= 0 && cg.narrays > 0);
	struct cg_vreg *v = &cg.vregs[cg.ops[victim].dst];
	v->temp = cg.vregs[cg.arrays[0].vreg[0]].temp;
	for (int c = 0; c < v->ncomp; c++)
		v->lane[c] = (uint8_t)c;
	assert_false(cg_regalloc_check(&cg, why, sizeof why));
	if (!strstr(why, "aL read"))
		fail_msg("'%s' does not name the aL read", why);
	array_checked = true;
	arena_destroy(a);
}

static void test_array_checker(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct diag_sink d;
	diag_init(&d, a);
	struct r500_compile_options o = { .opt_level = 2, .validate = true, .no_variants = true,
					  .dump = clobber_array };
	assert_non_null(r500_compile(parse_fixture(a, "array_uniform_bound"), &o, a, &d));
	assert_true(array_checked);
	arena_destroy(a);
}

/* cg_print shows each stage's progress: slots after schedule, temporaries
 * after regalloc, code after emit. */
static void print_form(void *ud, const char *stage, const struct cg_ctx *cg)
{
	struct arena *a = ud;
	char *text = cg_print(cg, a);
	assert_non_null(text);
	/* the planning stages before isel have no ops yet */
	bool planning = !strcmp(stage, "plan-arrays") || !strcmp(stage, "plan-loop-rel") ||
			!strcmp(stage, "layout-uniforms");
	assert_true(planning == !strstr(text, "op0: "));
	bool scheduled = strstr(text, "\ns0: ") != NULL;
	bool allocated = strstr(text, " -> t") != NULL;
	bool code = strstr(text, "\ncode 0: ") != NULL;
	bool after_sched = !planning && strcmp(stage, "isel") && strcmp(stage, "sweep-dead") &&
			   strcmp(stage, "limits-early") &&
			   strcmp(stage, "copy-fold") && strcmp(stage, "copy-bypass") &&
			   strcmp(stage, "retarget-output") && strcmp(stage, "merge") &&
			   strcmp(stage, "presub");
	bool after_ra = after_sched && strcmp(stage, "schedule") && strcmp(stage, "sink") &&
			strcmp(stage, "coalesce") && strcmp(stage, "alpha-lanes");
	assert_int_equal(scheduled, after_sched);
	assert_true(allocated || !after_ra);
	assert_int_equal(code, after_ra && strcmp(stage, "regalloc") && strcmp(stage, "check-regs") &&
				       strcmp(stage, "self-copies") && strcmp(stage, "endif-merge"));
}

static void test_print(void **state)
{
	(void)state;
	struct arena *a = arena_create(&mem_default_allocator);
	struct diag_sink d;
	diag_init(&d, a);
	struct r500_compile_options o = { .opt_level = 2, .validate = true, .dump = print_form,
					  .dump_ud = a };
	assert_non_null(r500_compile(parse_fixture(a, "tex_latency"), &o, a, &d));
	arena_destroy(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_presub),
		cmocka_unit_test(test_stage_switches),
		cmocka_unit_test(test_isel_switches),
		cmocka_unit_test(test_tex_runs),
		cmocka_unit_test(test_tex_in_flight_across_loop),
		cmocka_unit_test(test_carried_lookup_after_its_readers),
		cmocka_unit_test(test_loop_updates_in_their_phi_lanes),
		cmocka_unit_test(test_loop_update_waits_for_its_lane),
		cmocka_unit_test(test_weighted_cost_across_back_edge),
		cmocka_unit_test(test_sat_fold),
		cmocka_unit_test(test_hold_waiting),
		cmocka_unit_test(test_presub_variant),
		cmocka_unit_test(test_copy_bypass),
		cmocka_unit_test(test_retarget_output),
		cmocka_unit_test(test_retarget_output_uniform),
		cmocka_unit_test(test_merge_copies),
		cmocka_unit_test(test_merge_output_forms),
		cmocka_unit_test(test_sincos_fract_revolutions),
		cmocka_unit_test(test_uniform_struct_shared_tests),
		cmocka_unit_test(test_sink),
		cmocka_unit_test(test_self_copies),
		cmocka_unit_test(test_endif_merge),
		cmocka_unit_test(test_tex_temp_reserved),
		cmocka_unit_test(test_stage_names),
		cmocka_unit_test(test_validator),
		cmocka_unit_test(test_array_checker),
		cmocka_unit_test(test_print),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
