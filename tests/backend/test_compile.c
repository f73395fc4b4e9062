/* r500_compile on small IR functions: the instructions, their fields and
 * the program tables, worked out by hand from ISA.md. */
#include <math.h>

#include "test_compile_helpers.h"

/* gl_FragColor = v * u + 0.3: one OUT MAD (the MUL fuses into the ADD,
 * the result goes straight to the output), t0 * c0 + c1. */
static void test_mad_uniform_const(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *u = tc_uniform(&t, "u", "vec4", 4, 0);
	struct ir_instr *c = tc_const4(&t, 0.3f, 0.3f, 0.3f, 0.3f);
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_of(u));
	struct ir_instr *a = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(m), ir_src_of(c));
	tc_output(&t, "gl_FragColor", 0, 4, a);
	struct r500_program *p = tc_compile(&t);

	assert_int_equal(p->ninst, 1);
	const struct r500_inst *in = &p->code[0];
	assert_int_equal(in->cmn.type, R500_TYPE_OUT);
	assert_int_equal(in->cmn.rgb_omask, 7);
	assert_int_equal(in->cmn.alpha_omask, 1);
	assert_int_equal(in->cmn.rgb_wmask, 0);
	assert_int_equal(in->cmn.alpha_wmask, 0);
	assert_int_equal(in->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(in->alu.alpha_op, R500_AOP_MAD);
	/* src0 = t0, src1 = c0 (the uniform), src2 = c1 (the immediate) */
	assert_int_equal(in->alu.rgb_addr.src[0].addr, 0);
	assert_int_equal(in->alu.rgb_addr.src[0].cnst, 0);
	assert_int_equal(in->alu.rgb_addr.src[1].addr, 0);
	assert_int_equal(in->alu.rgb_addr.src[1].cnst, 1);
	assert_int_equal(in->alu.rgb_addr.src[2].addr, 1);
	assert_int_equal(in->alu.rgb_addr.src[2].cnst, 1);
	/* alpha reads t0.a and c0.a through the alpha address slots; the
	 * immediate holds 0.3 once, in .x, so alpha C reads src2.r through
	 * the RGB address slot and the alpha slot 2 stays inline 0 */
	assert_int_equal(in->alu.alpha_addr.src[0].addr, 0);
	assert_int_equal(in->alu.alpha_addr.src[1].addr, 0);
	assert_int_equal(in->alu.alpha_addr.src[1].cnst, 1);
	assert_int_equal(in->alu.alpha_addr.src[2].addr, 0x80);
	assert_int_equal(in->alu.alpha_addr.src[2].cnst, 0);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(in->alu.rgb_arg[k].sel, k);
		assert_int_equal(in->alu.alpha_arg[k].sel, k);
		assert_int_equal(in->alu.alpha_arg[k].swz[0], k == 2 ? R500_SWZ_R : R500_SWZ_A);
		assert_int_equal(in->alu.rgb_arg[2].swz[k], R500_SWZ_R);
	}
	for (int ch = 0; ch < 3; ch++)
		assert_int_equal(in->alu.rgb_arg[0].swz[ch], ch);
	/* c1 = {0.3, ...} packed once */
	assert_int_equal(p->nconst_slots, 2);
	assert_int_equal(p->const_is_imm[0], 0);
	assert_int_equal(p->const_is_imm[1], 1);
	assert_true(p->consts[1][0] == 0.3f);
	assert_int_equal(p->nuniforms, 1);
	assert_int_equal(p->uniforms[0].slot, 0);
	assert_string_equal(p->uniforms[0].swizzle, "xyzw");
	assert_int_equal(p->ninputs, 1);
	assert_int_equal(p->inputs[0].temp, 0);
	assert_string_equal(p->inputs[0].components, "xyzw");
	assert_int_equal(p->pixsize, 1);
	assert_int_equal(p->stats.temps, 1);
	assert_int_equal(p->stats.out, 1);
	assert_int_equal(p->stats.alu, 0);
	assert_int_equal(p->stats.cycles, 1);
	assert_int_equal(p->stats.lower_bound, 1);
	tc_fini(&t);
}

/* v * 2.0 + 0.5: 2.0 is inline code 0x40 (E=8, M=0) placed in an alpha
 * address slot and read as .aaa; 0.5 is the HALF swizzle; no constants. */
static void test_inline_constants(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *two = tc_const4(&t, 2, 2, 2, 2);
	struct ir_instr *half = tc_const4(&t, 0.5f, 0.5f, 0.5f, 0.5f);
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_of(two));
	struct ir_instr *a = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(m), ir_src_of(half));
	tc_output(&t, "gl_FragColor", 0, 4, a);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 1);
	assert_int_equal(p->nconst_slots, 0);
	const struct r500_inst *in = &p->code[0];
	int sel = in->alu.rgb_arg[1].sel;
	assert_int_equal(in->alu.alpha_addr.src[sel].addr, 0x80 | 0x40);
	assert_int_equal(in->alu.alpha_addr.src[sel].cnst, 0);
	for (int ch = 0; ch < 3; ch++) {
		assert_int_equal(in->alu.rgb_arg[1].swz[ch], R500_SWZ_A);
		assert_int_equal(in->alu.rgb_arg[2].swz[ch], R500_SWZ_HALF);
	}
	assert_int_equal(in->alu.alpha_arg[2].swz[0], R500_SWZ_HALF);
	/* unused RGB address slots hold inline 0 (0x80) */
	int used_rgb = 0;
	for (int k = 0; k < 3; k++)
		used_rgb += in->alu.rgb_addr.src[k].addr != 0x80;
	assert_int_equal(used_rgb, 1);
	tc_fini(&t);
}

/* NaN and -0 constants (piglit's glsl-const-builtin-inversesqrt folds
 * inversesqrt(0) + inversesqrt(-1) to NaN): packed into a slot by their
 * bits, read back through a valid swizzle. */
static void test_nan_constant(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *c = tc_const4(&t, 0.25f, NAN, 3.0f, -0.0f);
	tc_output(&t, "gl_FragColor", 0, 4, c);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 1);
	assert_int_equal(p->nconst_slots, 1);
	assert_true(p->const_is_imm[0]);
	/* the slot holds NaN once, and 0.25 and 3.0 beside it */
	int nans = 0, quarter = 0, three = 0;
	for (int c = 0; c < 4; c++) {
		nans += isnan(p->consts[0][c]);
		quarter += p->consts[0][c] == 0.25f;
		three += p->consts[0][c] == 3.0f;
	}
	assert_int_equal(nans, 1);
	assert_int_equal(quarter, 1);
	assert_int_equal(three, 1);
	char why[256];
	assert_true(r500_program_validate(p->code, p->ninst, why, sizeof why));
	tc_fini(&t);
}

/* normalize(n) with alpha 1.0: DP3 (RGB) | out.a = 1 (alpha, co-issued);
 * RSQ (alpha); out.rgb = n * rsq (RGB).  3 slots = the critical path. */
static void test_normalize(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *n = tc_input(&t, "n", 3);
	struct ir_instr *d = ir_build_alu2(&t.b, IR_OP_DOT3, 1, ir_src_of(n), ir_src_of(n));
	struct ir_instr *r = ir_build_alu1(&t.b, IR_OP_RSQ, 1, ir_src_of(d));
	struct ir_instr *v = ir_build_alu2(&t.b, IR_OP_MUL, 3, ir_src_of(n), ir_src_comp(r, 0));
	struct ir_instr *one = ir_build_constf(&t.b, 1.0f);
	struct ir_src s[4] = { ir_src_comp(v, 0), ir_src_comp(v, 1), ir_src_comp(v, 2),
			       ir_src_comp(one, 0) };
	struct ir_instr *o = tc_vec(&t, 4, s);
	tc_output(&t, "gl_FragColor", 0, 4, o);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 3);
	assert_int_equal(p->stats.pairs, 1);
	assert_int_equal(p->stats.lower_bound, 3);
	assert_int_equal(p->code[0].alu.rgb_op, R500_ROP_DP3);
	assert_int_equal(p->code[0].cmn.alpha_omask, 1); /* out.a = 1 */
	assert_int_equal(p->code[0].alu.alpha_arg[0].swz[0], R500_SWZ_ONE);
	assert_int_equal(p->code[1].alu.alpha_op, R500_AOP_RSQ);
	assert_int_equal(p->code[1].cmn.alpha_wmask, 1);
	/* RSQ reads the dot product where DP3 wrote it (R of its temp) */
	assert_int_equal(p->code[1].alu.alpha_arg[0].swz[0], R500_SWZ_R);
	assert_int_equal(p->code[1].alu.alpha_arg[0].mod, R500_MOD_NONE);
	assert_int_equal(p->code[2].cmn.type, R500_TYPE_OUT);
	assert_int_equal(p->code[2].cmn.rgb_omask, 7);
	assert_int_equal(p->code[2].cmn.alpha_omask, 0);
	/* n * rsq: B reads the RSQ result in A, replicated */
	for (int ch = 0; ch < 3; ch++)
		assert_int_equal(p->code[2].alu.rgb_arg[1].swz[ch], R500_SWZ_A);
	tc_fini(&t);
}

/* texture2D(s, uv) * u: TEX (ACQUIRE + WAIT) then OUT MAD with WAIT;
 * cycles = 2 + 30 - 0. */
static void test_texture(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	int si = ir_func_add_sampler(t.f, "s", IR_TARGET_2D, false);
	t.f->samplers[si].unit = 3;
	struct ir_instr *uv = tc_input(&t, "uv", 2);
	struct ir_src cs = ir_src_of(uv);
	struct ir_instr *tx = ir_build(&t.b, IR_OP_TEX, 4, IR_FLOAT, 1, &cs);
	tx->index = si;
	tx->tex_kind = IR_TEX_PLAIN;
	struct ir_instr *u = tc_uniform(&t, "u", "vec4", 4, 0);
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(tx), ir_src_of(u));
	tc_output(&t, "gl_FragColor", 0, 4, m);
	struct r500_program *p = tc_compile(&t);
	assert_int_equal(p->ninst, 2);
	const struct r500_inst *tex = &p->code[0];
	assert_int_equal(tex->cmn.type, R500_TYPE_TEX);
	assert_int_equal(tex->tex.inst, R500_TEX_LD);
	assert_int_equal(tex->tex.tex_id, 3);
	assert_int_equal(tex->tex.sem_acquire, 1);
	assert_int_equal(tex->cmn.tex_sem_wait, 1);
	assert_int_equal(tex->tex.src_addr, 0);
	assert_int_equal(tex->tex.src_swz[0], 0);
	assert_int_equal(tex->tex.src_swz[1], 1);
	assert_int_equal(tex->cmn.rgb_wmask, 7);
	assert_int_equal(tex->cmn.alpha_wmask, 1);
	assert_int_equal(p->code[1].cmn.tex_sem_wait, 1);
	assert_int_equal(p->code[1].alu.rgb_addr.src[p->code[1].alu.rgb_arg[0].sel].addr,
			 tex->tex.dst_addr);
	assert_int_equal(p->stats.tex, 1);
	assert_int_equal(p->stats.cycles, 30); /* Mesa's figure for this code (TEX, OUT) */
	assert_int_equal(p->nsamplers, 1);
	assert_int_equal(p->samplers[0].unit, 3);
	assert_string_equal(p->inputs[0].components, "xy");
	tc_fini(&t);
}

/* texture2D(s, uv, bias): coords and bias gathered in one temporary
 * (S,T from uv, Q = bias), LODBIAS. */
static void test_texture_bias(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	int si = ir_func_add_sampler(t.f, "s", IR_TARGET_2D, false);
	struct ir_instr *uv = tc_input(&t, "uv", 2);
	struct ir_instr *bias = tc_uniform(&t, "b", "float", 1, 0);
	struct ir_src cs[2] = { ir_src_of(uv), ir_src_comp(bias, 0) };
	struct ir_instr *tx = ir_build(&t.b, IR_OP_TEX, 4, IR_FLOAT, 2, cs);
	tx->index = si;
	tx->tex_kind = IR_TEX_BIAS;
	tc_output(&t, "gl_FragColor", 0, 4, tx);
	struct r500_program *p = tc_compile(&t);
	int ti = -1;
	for (int i = 0; i < p->ninst; i++)
		if (p->code[i].cmn.type == R500_TYPE_TEX)
			ti = i;
	assert_true(ti >= 1);
	assert_int_equal(p->code[ti].tex.inst, R500_TEX_LODBIAS);
	assert_int_equal(p->code[ti].tex.src_swz[3], 3); /* Q = bias in A */
	/* the MOVs before it write the coordinate temp's R,G and A */
	tc_fini(&t);
}

/* pow(x, e) and discard when x < 0.5. */
static void test_pow_discard(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *x = tc_input(&t, "x", 1);
	struct ir_instr *e = tc_uniform(&t, "e", "float", 1, 0);
	struct ir_instr *pw = ir_build_alu2(&t.b, IR_OP_POW, 1, ir_src_of(x), ir_src_of(e));
	struct ir_instr *h = ir_build_constf(&t.b, 0.5f);
	struct ir_instr *lt = ir_build_alu2(&t.b, IR_OP_LT, 1, ir_src_of(x), ir_src_of(h));
	lt->base = IR_BOOL;
	struct ir_src cs = ir_src_of(lt);
	ir_build(&t.b, IR_OP_DISCARD, 0, IR_FLOAT, 1, &cs);
	struct ir_src s4[4] = { ir_src_of(pw), ir_src_of(pw), ir_src_of(pw), ir_src_of(pw) };
	tc_output(&t, "gl_FragColor", 0, 4, tc_vec(&t, 4, s4));
	struct r500_program *p = tc_compile(&t);
	int ln2 = 0, ex2 = 0, kil = 0;
	for (int i = 0; i < p->ninst; i++) {
		const struct r500_inst *in = &p->code[i];
		if (in->cmn.type == R500_TYPE_TEX) {
			kil += in->tex.inst == R500_TEX_KILL;
			assert_int_equal(in->cmn.rgb_wmask | in->cmn.alpha_wmask, 0);
			continue;
		}
		ln2 += in->alu.alpha_op == R500_AOP_LN2;
		ex2 += in->alu.alpha_op == R500_AOP_EX2;
	}
	assert_int_equal(ln2, 1);
	assert_int_equal(ex2, 1);
	assert_int_equal(kil, 1);
	tc_fini(&t);
}

/* gl_FragDepth = v.y: the alpha unit writes depth (W_OMASK), not a target. */
static void test_depth_output(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *y = ir_build_alu1(&t.b, IR_OP_MOV, 1, ir_src_comp(v, 1));
	tc_output(&t, "gl_FragColor", 0, 4, v);
	tc_output(&t, "gl_FragDepth", -1, 1, y);
	struct r500_program *p = tc_compile(&t);
	int wo = 0;
	for (int i = 0; i < p->ninst; i++)
		if (p->code[i].alu.w_omask) {
			wo++;
			assert_int_equal(p->code[i].alu.alpha_arg[0].swz[0], R500_SWZ_G);
			assert_int_equal(p->code[i].cmn.alpha_omask, 0);
		}
	assert_int_equal(wo, 1);
	assert_int_equal(p->noutputs, 2);
	assert_int_equal(p->outputs[1].target, -1);
	tc_fini(&t);
}

/* dFdx: NOP on the instruction before the MDH. */
static void test_derivative_nop(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *w = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_of(v));
	struct ir_instr *dx = ir_build_alu1(&t.b, IR_OP_DDX, 4, ir_src_of(w));
	tc_output(&t, "gl_FragColor", 0, 4, dx);
	struct r500_program *p = tc_compile(&t);
	int mdh = -1;
	for (int i = 0; i < p->ninst; i++)
		if (p->code[i].cmn.type != R500_TYPE_TEX && p->code[i].alu.rgb_op == R500_ROP_MDH)
			mdh = i;
	assert_true(mdh >= 1);
	assert_int_equal(p->code[mdh - 1].cmn.nop, 1);
	assert_int_equal(p->code[mdh].alu.alpha_op, R500_AOP_MDH);
	assert_int_equal(p->code[mdh].alu.rgb_arg[1].mod, R500_MOD_NEG);
	assert_int_equal(p->code[mdh].alu.rgb_arg[1].swz[0], R500_SWZ_ONE);
	assert_int_equal(p->stats.nops, 1);
	tc_fini(&t);
}

/* Flow control nested deeper than the full-FC limit (32, ISA.md §1) is
 * refused with the figures, at the innermost construct. */
static void test_fc_nesting_limit(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_cf *loops[33];
	for (int i = 0; i < 33; i++) {
		t.b.loc = (struct src_loc){ "t.frag", 10 + i, 3 };
		loops[i] = ir_build_loop(&t.b);
		ir_builder_enter(&t.b, &loops[i]->body, loops[i]);
		ir_build(&t.b, IR_OP_BREAK, 0, IR_FLOAT, 0, NULL);
	}
	for (int i = 32; i >= 0; i--)
		ir_builder_after(&t.b, loops[i]);
	tc_output(&t, "gl_FragColor", 0, 4, v);
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	assert_null(r500_compile(t.f, &o, t.arena, &t.diag));
	assert_true(tc_has_error(&t, "flow control nested 33 deep; the R500 allows 32"));
	assert_int_equal(t.diag.first->loc.line, 42);
	tc_fini(&t);
}

static void test_too_many_uniforms(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	/* read at a computed index: every element needs its slot */
	int big = ir_func_add_uniform(t.f, "big", "vec4", 300, 300, 4);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_src idx = { v, { 0, 0, 0, 0 } };
	struct ir_instr *u = ir_build(&t.b, IR_OP_UNIFORM, 4, IR_FLOAT, 1, &idx);
	u->index = big;
	tc_output(&t, "gl_FragColor", 0, 4, u);
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	assert_null(r500_compile(t.f, &o, t.arena, &t.diag));
	assert_true(tc_has_error(&t, "300"));
	assert_true(tc_has_error(&t, "256"));
	tc_fini(&t);
}

/* Only the elements read get slots, and narrow ones share: a[900] of a
 * vec4[1024] takes one slot; four floats one more. */
static void test_uniform_layout(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	int arr = ir_func_add_uniform(t.f, "arg", "vec4", 1024, 1024, 4);
	struct ir_instr *a = ir_build(&t.b, IR_OP_UNIFORM, 4, IR_FLOAT, 0, NULL);
	a->index = arr;
	a->offset = 900;
	struct ir_instr *f[4];
	static const char *const names[4] = { "f0", "f1", "f2", "f3" };
	for (int i = 0; i < 4; i++)
		f[i] = tc_uniform(&t, names[i], "float", 1, 0);
	struct ir_src comps[4];
	for (int i = 0; i < 4; i++)
		comps[i] = (struct ir_src){ f[i], { 0, 0, 0, 0 } };
	struct ir_instr *vf = ir_build(&t.b, IR_OP_VEC, 4, IR_FLOAT, 4, comps);
	struct ir_src sum[2] = { { a, { 0, 1, 2, 3 } }, { vf, { 0, 1, 2, 3 } } };
	struct ir_instr *r = ir_build(&t.b, IR_OP_ADD, 4, IR_FLOAT, 2, sum);
	tc_output(&t, "gl_FragColor", 0, 4, r);
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	struct r500_program *p = r500_compile(t.f, &o, t.arena, &t.diag);
	assert_non_null(p);
	assert_int_equal(p->nconst_slots, 2);
	assert_int_equal(p->nuniforms, 5);
	assert_string_equal(p->uniforms[0].name, "arg");
	assert_int_equal(p->uniforms[0].element, 900);
	assert_int_equal(p->uniforms[0].slot, 0);
	assert_string_equal(p->uniforms[0].swizzle, "xyzw");
	for (int i = 1; i < 5; i++) {
		assert_int_equal(p->uniforms[i].slot, 1);
		assert_int_equal(p->uniforms[i].swizzle[0], "xyzw"[i - 1]);
		assert_int_equal(p->uniforms[i].swizzle[1], 0);
	}
	tc_fini(&t);
}

static void test_too_many_slots(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *acc = v;
	for (int i = 0; i < 600; i++) /* a chain: one slot each */
		acc = ir_build_alu2(&t.b, IR_OP_MAX, 4, ir_src_of(acc), ir_src_of(v));
	tc_output(&t, "gl_FragColor", 0, 4, acc);
	struct r500_compile_options o = { .opt_level = 2, .validate = true };
	assert_null(r500_compile(t.f, &o, t.arena, &t.diag));
	assert_true(tc_has_error(&t, "instruction slots; the R500 has 512"));
	tc_fini(&t);
}

/* for (i = 0; ; i++) if (i >= 3) break;  (a counted loop: known to stop
 * within 255 passes) -> the encodings of ISA.md §6.11's table, in order
 * LOOP, JUMP (IF), BREAKLOOP, JUMP (ENDIF), ENDLOOP, with the IF's
 * condition written to the ALU result by the ALU slot just before (the
 * comparison folded in: i - 3 >= 0), and US_FC_INT_CONST_0 = {255, 0, 0}. */
static void test_loop_encoding(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *zero = ir_build_constf(&t.b, 0.0f);
	struct ir_instr *one = ir_build_constf(&t.b, 1.0f);
	struct ir_instr *three = ir_build_constf(&t.b, 3.0f);
	struct ir_cf *cf = ir_build_loop(&t.b);
	ir_builder_enter(&t.b, &cf->body, cf);
	struct ir_src ps[2] = { ir_src_of(zero), ir_src_of(zero) };
	struct ir_instr *i = ir_build(&t.b, IR_OP_PHI, 1, IR_FLOAT, 2, ps);
	struct ir_instr *c = ir_build_alu2(&t.b, IR_OP_GE, 1, ir_src_of(i), ir_src_of(three));
	struct ir_cf *iff = ir_build_if(&t.b, ir_src_of(c));
	ir_builder_enter(&t.b, &iff->then_list, iff);
	ir_build(&t.b, IR_OP_BREAK, 0, IR_FLOAT, 0, NULL);
	ir_builder_after(&t.b, iff);
	struct ir_instr *n = ir_build_alu2(&t.b, IR_OP_ADD, 1, ir_src_of(i), ir_src_of(one));
	i->src[1] = ir_src_of(n);
	ir_builder_after(&t.b, cf);
	tc_output(&t, "gl_FragColor", 0, 4, v);
	struct r500_program *p = tc_compile(&t);

	int fc[8], nfc = 0;
	for (int k = 0; k < p->ninst && nfc < 8; k++)
		if (p->code[k].cmn.type == R500_TYPE_FC)
			fc[nfc++] = k;
	assert_int_equal(nfc, 5);
	assert_int_equal(p->stats.fc, 5);
	const struct r500_fc *lp = &p->code[fc[0]].fc, *jif = &p->code[fc[1]].fc,
			     *brk = &p->code[fc[2]].fc, *endif = &p->code[fc[3]].fc,
			     *endl = &p->code[fc[4]].fc;
	for (int k = 0; k < 5; k++)
		assert_int_equal(p->code[fc[k]].cmn.alu_wait, 1);
	/* BGNLOOP: LOOP 0x00, jumps to its ENDLOOP */
	assert_int_equal(lp->op, R500_FC_LOOP);
	assert_int_equal(lp->jump_func, 0x00);
	assert_int_equal(lp->ignore_uncovered, 1);
	assert_int_equal(lp->int_addr, 0);
	assert_int_equal(lp->jump_addr, fc[4]);
	/* i = 0, 1, 2, 3 reach the exit IF: 4 passes, for the cost's weights */
	assert_non_null(p->loop_trips);
	assert_int_equal(p->loop_trips[fc[0]], 4);
	/* IF without ELSE: JUMP 0x0F, B_OP0 INCR, to ENDIF + 1 */
	assert_int_equal(jif->op, R500_FC_JUMP);
	assert_int_equal(jif->jump_func, 0x0F);
	assert_int_equal(jif->jump_any, 0);
	assert_int_equal(jif->b_op0, R500_FC_B_INCR);
	assert_int_equal(jif->b_op1, R500_FC_B_NONE);
	assert_int_equal(jif->ignore_uncovered, 1);
	assert_int_equal(jif->jump_addr, fc[3] + 1);
	/* the ALU slot just before writes the ALU result: i - 3 >= 0 */
	const struct r500_inst *cond = &p->code[fc[1] - 1];
	assert_int_equal(cond->cmn.type, R500_TYPE_ALU);
	assert_int_equal(cond->alu.alu_wmask, 1);
	assert_int_equal(cond->cmn.alu_result_op, R500_CMP_GE0);
	assert_int_equal(cond->cmn.alu_result_sel, 0);
	assert_int_equal(cond->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(cond->alu.rgb_arg[2].mod, R500_MOD_NEG);
	/* BRK: BREAKLOOP 0xFF, B_OP1 DECR by the if-depth 1, to ENDLOOP + 1 */
	assert_int_equal(brk->op, R500_FC_BREAKLOOP);
	assert_int_equal(brk->jump_func, 0xFF);
	assert_int_equal(brk->b_op1, R500_FC_B_DECR);
	assert_int_equal(brk->b_pop_cnt, 1);
	assert_int_equal(brk->jump_addr, fc[4] + 1);
	/* ENDIF: JUMP 0x00 any, B_OP0 DECR 1, to itself + 1 */
	assert_int_equal(endif->op, R500_FC_JUMP);
	assert_int_equal(endif->jump_func, 0x00);
	assert_int_equal(endif->jump_any, 1);
	assert_int_equal(endif->b_op0, R500_FC_B_DECR);
	assert_int_equal(endif->b_pop_cnt, 1);
	assert_int_equal(endif->ignore_uncovered, 0);
	assert_int_equal(endif->jump_addr, fc[3] + 1);
	/* ENDLOOP: 0xFF any, back to BGNLOOP + 1 */
	assert_int_equal(endl->op, R500_FC_ENDLOOP);
	assert_int_equal(endl->jump_func, 0xFF);
	assert_int_equal(endl->jump_any, 1);
	assert_int_equal(endl->jump_addr, fc[0] + 1);
	/* the program ends with the OUT after the loop */
	assert_int_equal(p->code[p->ninst - 1].cmn.type, R500_TYPE_OUT);
	assert_true(p->uses_fc);
	assert_int_equal(p->int_const_used, 1);
	assert_int_equal(p->int_consts[0].count, 255);
	assert_int_equal(p->int_consts[0].init, 0);
	assert_int_equal(p->int_consts[0].step, 0);
	tc_fini(&t);
}

/* loop { if (v.x < 0.5) break; } may pass more than 255 times: it runs
 * inside a second loop; its BREAK sets a flag (1.0) first, and after the
 * inner ENDLOOP an IF on the flag breaks the outer loop: LOOP, LOOP, JUMP,
 * BREAKLOOP, JUMP, ENDLOOP, JUMP, BREAKLOOP, JUMP, ENDLOOP. */
static void test_loop_unbounded(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_cf *cf = ir_build_loop(&t.b);
	ir_builder_enter(&t.b, &cf->body, cf);
	struct ir_instr *h = ir_build_constf(&t.b, 0.5f);
	struct ir_instr *c = ir_build_alu2(&t.b, IR_OP_LT, 1, ir_src_comp(v, 0), ir_src_of(h));
	struct ir_cf *iff = ir_build_if(&t.b, ir_src_of(c));
	ir_builder_enter(&t.b, &iff->then_list, iff);
	ir_build(&t.b, IR_OP_BREAK, 0, IR_FLOAT, 0, NULL);
	ir_builder_after(&t.b, iff);
	ir_builder_after(&t.b, cf);
	tc_output(&t, "gl_FragColor", 0, 4, v);
	struct r500_program *p = tc_compile(&t);

	int fc[16], nfc = 0;
	for (int k = 0; k < p->ninst && nfc < 16; k++)
		if (p->code[k].cmn.type == R500_TYPE_FC)
			fc[nfc++] = k;
	assert_int_equal(nfc, 10);
	static const int ops[10] = { R500_FC_LOOP, R500_FC_LOOP, R500_FC_JUMP, R500_FC_BREAKLOOP,
				     R500_FC_JUMP, R500_FC_ENDLOOP, R500_FC_JUMP,
				     R500_FC_BREAKLOOP, R500_FC_JUMP, R500_FC_ENDLOOP };
	for (int k = 0; k < 10; k++)
		assert_int_equal(p->code[fc[k]].fc.op, ops[k]);
	/* outer LOOP -> outer ENDLOOP, inner LOOP -> inner ENDLOOP */
	assert_int_equal(p->code[fc[0]].fc.jump_addr, fc[9]);
	assert_int_equal(p->code[fc[1]].fc.jump_addr, fc[5]);
	/* the inner BREAKLOOP (inside one IF) leaves to the flag test */
	assert_int_equal(p->code[fc[3]].fc.b_pop_cnt, 1);
	assert_int_equal(p->code[fc[3]].fc.jump_addr, fc[5] + 1);
	/* the slot before it sets the flag: MAD(1, 1, 0) into a temporary */
	const struct r500_inst *set = &p->code[fc[3] - 1];
	assert_int_equal(set->cmn.type, R500_TYPE_ALU);
	assert_true(set->cmn.rgb_wmask || set->cmn.alpha_wmask);
	/* inner ENDLOOP back to inner LOOP + 1; the flag IF tests != 0 */
	assert_int_equal(p->code[fc[5]].fc.jump_addr, fc[1] + 1);
	assert_int_equal(p->code[fc[6] - 1].cmn.alu_result_op, R500_CMP_NE0);
	assert_int_equal(p->code[fc[6] - 1].alu.alu_wmask, 1);
	assert_int_equal(p->code[fc[6]].fc.jump_func, 0x0F);
	assert_int_equal(p->code[fc[6]].fc.jump_addr, fc[8] + 1);
	/* the outer BREAKLOOP: inside one IF, to outer ENDLOOP + 1 */
	assert_int_equal(p->code[fc[7]].fc.b_pop_cnt, 1);
	assert_int_equal(p->code[fc[7]].fc.jump_addr, fc[9] + 1);
	assert_int_equal(p->code[fc[9]].fc.jump_addr, fc[0] + 1);
	assert_int_equal(p->code[p->ninst - 1].cmn.type, R500_TYPE_OUT);
	tc_fini(&t);
}

/* if (v.x < 0.5) { a = v * 2 } else { a = v + 1; discard } -> both sides
 * run, the PHI is CND(a_then, a_else, cond), the discard is killed by
 * (1 - cond) through TEXKILL. */
static void test_if_conversion(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *h = ir_build_constf(&t.b, 0.5f);
	struct ir_instr *c = ir_build_alu2(&t.b, IR_OP_LT, 1, ir_src_comp(v, 0), ir_src_of(h));
	c->base = IR_BOOL;
	struct ir_cf *cf = ir_build_if(&t.b, ir_src_of(c));
	ir_builder_enter(&t.b, &cf->then_list, cf);
	struct ir_instr *two = ir_build_constf(&t.b, 2.0f);
	struct ir_instr *a = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(v), ir_src_comp(two, 0));
	ir_builder_enter(&t.b, &cf->else_list, cf);
	struct ir_instr *one = ir_build_constf(&t.b, 1.0f);
	struct ir_instr *b = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(v), ir_src_comp(one, 0));
	ir_build(&t.b, IR_OP_DISCARD, 0, IR_FLOAT, 0, NULL);
	ir_builder_after(&t.b, cf);
	struct ir_src ps[2] = { ir_src_of(a), ir_src_of(b) };
	struct ir_instr *phi = ir_build(&t.b, IR_OP_PHI, 4, IR_FLOAT, 2, ps);
	tc_output(&t, "gl_FragColor", 0, 4, phi);
	struct r500_program *p = tc_compile(&t);
	int cnd = -1, kil = 0;
	for (int i = 0; i < p->ninst; i++) {
		if (p->code[i].cmn.type == R500_TYPE_TEX) {
			kil += p->code[i].tex.inst == R500_TEX_KILL;
			continue;
		}
		if (p->code[i].alu.rgb_op == R500_ROP_CND)
			cnd = i;
	}
	assert_int_equal(kil, 1);
	assert_true(cnd >= 0);
	assert_int_equal(p->code[cnd].alu.alpha_op, R500_AOP_CND);
	assert_int_equal(p->code[cnd].cmn.type, R500_TYPE_OUT);
	tc_fini(&t);
}

/* gl_FragColor = vec4(abs(v.xy), 0.0, 1.0): the abs writes rt0.rg and the
 * constants rt0.ba; both parts need the RGB unit, so they are merged into
 * one OUT: rgb = |t0.rg0| * 1 + 0 (|0| = 0 for blue), alpha = |1| * 1 + 0. */
static void test_output_merge(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *a = ir_build_alu1(&t.b, IR_OP_ABS, 4, ir_src_of(v));
	struct ir_instr *zero = ir_build_constf(&t.b, 0.0f), *one = ir_build_constf(&t.b, 1.0f);
	const uint8_t sx[4] = { 0, 0, 0, 0 }, sy[4] = { 1, 1, 1, 1 };
	struct ir_src parts[4] = { ir_src_swz(a, sx), ir_src_swz(a, sy), ir_src_of(zero),
				   ir_src_of(one) };
	tc_output(&t, "gl_FragColor", 0, 4, tc_vec(&t, 4, parts));
	struct r500_program *p = tc_compile(&t);

	assert_int_equal(p->ninst, 1);
	const struct r500_inst *in = &p->code[0];
	assert_int_equal(in->cmn.type, R500_TYPE_OUT);
	assert_int_equal(in->cmn.rgb_omask, 7);
	assert_int_equal(in->cmn.alpha_omask, 1);
	assert_int_equal(in->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(in->alu.alpha_op, R500_AOP_MAD);
	/* A = |t0| with .rg0, B = 1, C = 0 */
	assert_int_equal(in->alu.rgb_arg[0].mod, R500_MOD_ABS);
	assert_int_equal(in->alu.rgb_arg[0].swz[0], R500_SWZ_R);
	assert_int_equal(in->alu.rgb_arg[0].swz[1], R500_SWZ_G);
	assert_true(in->alu.rgb_arg[0].swz[2] == R500_SWZ_ZERO ||
		    in->alu.rgb_arg[2].swz[2] == R500_SWZ_ZERO);
	for (int ch = 0; ch < 3; ch++) {
		assert_int_equal(in->alu.rgb_arg[1].swz[ch], R500_SWZ_ONE);
		assert_int_equal(in->alu.rgb_arg[2].swz[ch], R500_SWZ_ZERO);
	}
	assert_int_equal(in->alu.alpha_arg[0].swz[0], R500_SWZ_ONE);
	assert_int_equal(in->alu.alpha_arg[1].swz[0], R500_SWZ_ONE);
	assert_int_equal(in->alu.alpha_arg[2].swz[0], R500_SWZ_ZERO);
	assert_int_equal(p->stats.out, 1);
	assert_int_equal(p->stats.alu, 0);
	tc_fini(&t);
}

/* gl_FragColor = vec4(v.xyz * u.xyz, inversesqrt(v.w)): an RGB MAD and an
 * alpha RSQ, co-issued in one OUT slot writing rt0.rgb and rt0.a. */
static void test_output_rgb_alpha_pair(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *u = tc_uniform(&t, "u", "vec4", 4, 0);
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 3, ir_src_of(v), ir_src_of(u));
	const uint8_t sw[4] = { 3, 3, 3, 3 };
	struct ir_instr *r = ir_build_alu1(&t.b, IR_OP_RSQ, 1, ir_src_swz(v, sw));
	const uint8_t s0[4] = { 0, 0, 0, 0 }, s1[4] = { 1, 1, 1, 1 }, s2[4] = { 2, 2, 2, 2 };
	struct ir_src parts[4] = { ir_src_swz(m, s0), ir_src_swz(m, s1), ir_src_swz(m, s2),
				   ir_src_of(r) };
	tc_output(&t, "gl_FragColor", 0, 4, tc_vec(&t, 4, parts));
	struct r500_program *p = tc_compile(&t);

	assert_int_equal(p->ninst, 1);
	const struct r500_inst *in = &p->code[0];
	assert_int_equal(in->cmn.type, R500_TYPE_OUT);
	assert_int_equal(in->cmn.rgb_omask, 7);
	assert_int_equal(in->cmn.alpha_omask, 1);
	assert_int_equal(in->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(in->alu.alpha_op, R500_AOP_RSQ);
	assert_int_equal(in->cmn.rgb_wmask, 0);
	assert_int_equal(in->cmn.alpha_wmask, 0);
	assert_int_equal(p->stats.out, 1);
	tc_fini(&t);
}

/* gl_FragColor = v / 4.0 + 0.25: the division by a constant is a multiply
 * by its reciprocal and fuses into the add: one OUT MAD t0 * 0.25 + 0.25. */
static void test_div_const_fuses(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *four = tc_const4(&t, 4.0f, 4.0f, 4.0f, 4.0f);
	struct ir_instr *q = tc_const4(&t, 0.25f, 0.25f, 0.25f, 0.25f);
	struct ir_instr *d = ir_build_alu2(&t.b, IR_OP_DIV, 4, ir_src_of(v), ir_src_of(four));
	struct ir_instr *a = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(d), ir_src_of(q));
	tc_output(&t, "gl_FragColor", 0, 4, a);
	struct r500_program *p = tc_compile(&t);

	assert_int_equal(p->ninst, 1);
	const struct r500_inst *in = &p->code[0];
	assert_int_equal(in->cmn.type, R500_TYPE_OUT);
	assert_int_equal(in->alu.rgb_op, R500_ROP_MAD);
	assert_int_equal(in->alu.rgb_addr.src[0].addr, 0); /* A = t0 */
	assert_int_equal(in->alu.rgb_addr.src[0].cnst, 0);
	tc_fini(&t);
}

/* gl_FragColor = (v + w) * 0.5: the halving is the OMOD of the add
 * (ISA.md §4.3/§4.4 OMOD = 4, divide by 2), one OUT: (t0 * 1 + t1) / 2.
 * A factor of 3 is no power of two: the multiply stays a MAD. */
static void test_mul_as_omod(void **state)
{
	(void)state;
	struct tc t;
	tc_init(&t);
	struct ir_instr *v = tc_input(&t, "v", 4);
	struct ir_instr *w = tc_input(&t, "w", 4);
	struct ir_instr *h = tc_const4(&t, 0.5f, 0.5f, 0.5f, 0.5f);
	struct ir_instr *a = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(v), ir_src_of(w));
	struct ir_instr *m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(a), ir_src_of(h));
	tc_output(&t, "gl_FragColor", 0, 4, m);
	struct r500_program *p = tc_compile(&t);

	assert_int_equal(p->ninst, 1);
	const struct r500_inst *in = &p->code[0];
	assert_int_equal(in->cmn.type, R500_TYPE_OUT);
	assert_int_equal(in->cmn.rgb_omask, 7);
	assert_int_equal(in->cmn.alpha_omask, 1);
	assert_int_equal(in->alu.rgb_omod, R500_OMOD_DIV2);
	assert_int_equal(in->alu.alpha_omod, R500_OMOD_DIV2);
	assert_int_equal(in->alu.rgb_addr.src[0].addr, 0); /* t0 = v */
	assert_int_equal(in->alu.rgb_addr.src[1].addr, 1); /* t1 = w */
	tc_fini(&t);

	/* x * 3.0: not a power of two, a MAD of its own */
	tc_init(&t);
	v = tc_input(&t, "v", 4);
	w = tc_input(&t, "w", 4);
	h = tc_const4(&t, 3.0f, 3.0f, 3.0f, 3.0f);
	a = ir_build_alu2(&t.b, IR_OP_ADD, 4, ir_src_of(v), ir_src_of(w));
	m = ir_build_alu2(&t.b, IR_OP_MUL, 4, ir_src_of(a), ir_src_of(h));
	tc_output(&t, "gl_FragColor", 0, 4, m);
	p = tc_compile(&t);
	/* one MAD reading the add as a presubtract (srcp = v + w), times 3 */
	assert_int_equal(p->ninst, 1);
	assert_int_equal(p->code[0].alu.rgb_omod, R500_OMOD_MUL1);
	assert_int_equal(p->code[0].alu.rgb_addr.srcp_op, R500_SRCP_ADD);
	tc_fini(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mad_uniform_const),
		cmocka_unit_test(test_output_merge),
		cmocka_unit_test(test_output_rgb_alpha_pair),
		cmocka_unit_test(test_div_const_fuses),
		cmocka_unit_test(test_mul_as_omod),
		cmocka_unit_test(test_inline_constants),
		cmocka_unit_test(test_nan_constant),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_texture),
		cmocka_unit_test(test_texture_bias),
		cmocka_unit_test(test_pow_discard),
		cmocka_unit_test(test_depth_output),
		cmocka_unit_test(test_derivative_nop),
		cmocka_unit_test(test_fc_nesting_limit),
		cmocka_unit_test(test_too_many_uniforms),
		cmocka_unit_test(test_uniform_layout),
		cmocka_unit_test(test_too_many_slots),
		cmocka_unit_test(test_loop_encoding),
		cmocka_unit_test(test_loop_unbounded),
		cmocka_unit_test(test_if_conversion),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
