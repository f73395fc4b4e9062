/* The TGSI frontend (frontend/tgsi*.c): every opcode's meaning checked by
 * running the lowered IR in the interpreter against values worked out by
 * hand from tgsi.rst; control flow, indirect addressing, declarations;
 * and the errors, each with its line and column. */
#include "fe_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ir.h"
#include "ir_pass.h"
#include "tgsi.h"

static struct ir_func *tgsi_compile(struct fe_test *t, const char *src, bool radians)
{
	struct glsl_options o = { .stage = GLSL_STAGE_FRAGMENT, .tgsi_trig_radians = radians };
	t->f = tgsi_to_ir(src, "t.tgsi", &o, t->arena, &t->diag);
	t->diags = diag_render(&t->diag);
	return t->f;
}

static struct ir_func *tgsi_ok(struct fe_test *t, const char *src)
{
	struct ir_func *f = tgsi_compile(t, src, false);
	if (!f)
		fail_msg("compile failed:\n%s\n%s", t->diags, src);
	if (!ir_validate(f, &t->diag))
		fail_msg("invalid IR:\n%s\n%s", ir_print(f, t->arena), diag_render(&t->diag));
	return f;
}

/* Runs a quad with input i = in[i] at every pixel (inputs in declaration
 * order) and the CONST vec4s `k`; output `out` of pixel 0.  False when
 * pixel 0 was discarded. */
static bool run(struct ir_func *f, const float (*in)[4], const float (*k)[4], int out, float res[4])
{
	assert_true(f->ninputs <= 8);
	struct ir_interp_result r;
	if (!fe_run_quad(f, in, k, NULL, 0, &r))
		fail_msg("the interpreter failed");
	if (r.discarded[0])
		return false;
	assert_true(out < f->noutputs && r.written[out]);
	memcpy(res, r.outputs[out][0], sizeof(float) * 4);
	return true;
}

static void expect4(const float got[4], const float want[4], const char *what)
{
	for (int c = 0; c < 4; c++)
		if (!(fabsf(got[c] - want[c]) <= 1e-5f * fmaxf(1.0f, fabsf(want[c]))))
			fail_msg("%s: component %d is %g, expected %g (got %g %g %g %g)", what, c,
				 got[c], want[c], got[0], got[1], got[2], got[3]);
}

/* --- every ALU opcode --- */

/* a, b and c, the three sources of each case */
static const float A[4] = { 0.5f, -1.5f, 2.0f, 4.0f };
static const float B[4] = { 2.0f, 3.0f, -0.25f, 4.0f };
static const float C[4] = { 1.0f, -1.0f, 0.5f, 8.0f };

struct alu_case {
	const char *insn;   /* its destination is TEMP[0], its sources IN[0..2] */
	float want[4];
};

static const struct alu_case alu_cases[] = {
	{ "MOV TEMP[0], IN[0]", { 0.5f, -1.5f, 2, 4 } },
	{ "ADD TEMP[0], IN[0], IN[1]", { 2.5f, 1.5f, 1.75f, 8 } },
	{ "MUL TEMP[0], IN[0], IN[1]", { 1, -4.5f, -0.5f, 16 } },
	{ "MAD TEMP[0], IN[0], IN[1], IN[2]", { 2, -5.5f, 0, 24 } },
	{ "FMA TEMP[0], IN[0], IN[1], IN[2]", { 2, -5.5f, 0, 24 } },
	{ "DIV TEMP[0], IN[0], IN[1]", { 0.25f, -0.5f, -8, 1 } },
	{ "MIN TEMP[0], IN[0], IN[1]", { 0.5f, -1.5f, -0.25f, 4 } },
	{ "MAX TEMP[0], IN[0], IN[1]", { 2, 3, 2, 4 } },
	{ "FRC TEMP[0], IN[0]", { 0.5f, 0.5f, 0, 0 } },
	{ "FLR TEMP[0], IN[0]", { 0, -2, 2, 4 } },
	{ "CEIL TEMP[0], IN[0]", { 1, -1, 2, 4 } },
	{ "TRUNC TEMP[0], IN[0]", { 0, -1, 2, 4 } },
	{ "SSG TEMP[0], IN[0]", { 1, -1, 1, 1 } },
	/* round half to even: 0.5 -> 0, -1.5 -> -2 */
	{ "ROUND TEMP[0], IN[0]", { 0, -2, 2, 4 } },
	/* scalar ops read .x and replicate */
	{ "RCP TEMP[0], IN[0]", { 2, 2, 2, 2 } },
	{ "RSQ TEMP[0], IN[1].wwww", { 0.5f, 0.5f, 0.5f, 0.5f } },
	{ "SQRT TEMP[0], IN[0].wwww", { 2, 2, 2, 2 } },
	{ "EX2 TEMP[0], IN[1]", { 4, 4, 4, 4 } },
	{ "LG2 TEMP[0], IN[0].wwww", { 2, 2, 2, 2 } },
	{ "POW TEMP[0], IN[1], IN[2].zzzz", { 1.41421356f, 1.41421356f, 1.41421356f, 1.41421356f } },
	/* r300's revolutions: sin(2 pi * 0.25) = 1, cos(2 pi * 0.5) = -1 */
	{ "SIN TEMP[0], -IN[1].zzzz", { 1, 1, 1, 1 } },
	{ "COS TEMP[0], IN[0]", { -1, -1, -1, -1 } },
	{ "DP2 TEMP[0], IN[0], IN[1]", { -3.5f, -3.5f, -3.5f, -3.5f } },
	{ "DP3 TEMP[0], IN[0], IN[1]", { -4, -4, -4, -4 } },
	{ "DP4 TEMP[0], IN[0], IN[1]", { 12, 12, 12, 12 } },
	/* a * b + (1 - a) * c */
	{ "LRP TEMP[0], IN[0], IN[1], IN[2]", { 1.5f, -7, -1, -8 } },
	/* a < 0 ? b : c */
	{ "CMP TEMP[0], IN[0], IN[1], IN[2]", { 1, 3, 0.5f, 8 } },
	{ "SLT TEMP[0], IN[0], IN[1]", { 1, 1, 0, 0 } },
	{ "SGE TEMP[0], IN[0], IN[1]", { 0, 0, 1, 1 } },
	{ "SEQ TEMP[0], IN[0], IN[1]", { 0, 0, 0, 1 } },
	{ "SNE TEMP[0], IN[0], IN[1]", { 1, 1, 1, 0 } },
	{ "SGT TEMP[0], IN[0], IN[1]", { 0, 0, 1, 0 } },
	{ "SLE TEMP[0], IN[0], IN[1]", { 1, 1, 0, 1 } },
	/* derivatives of inputs equal at every pixel */
	{ "DDX TEMP[0], IN[0]", { 0, 0, 0, 0 } },
	{ "DDY TEMP[0], IN[1]", { 0, 0, 0, 0 } },
	/* modifiers, swizzles, masks, saturation */
	{ "MUL_SAT TEMP[0], IN[0], IN[1]", { 1, 0, 0, 1 } },
	{ "MOV TEMP[0], -|IN[0].wzyx|", { -4, -2, -1.5f, -0.5f } },
	{ "ADD TEMP[0], |IN[0]|, -IN[2].x", { -0.5f, 0.5f, 1, 3 } },
	{ "MOV TEMP[0].yw, IN[0].xxzz", { 9, 0.5f, 9, 2 } },
	{ "DP3_SAT TEMP[0].xz, IN[2], IN[2]", { 1, 9, 1, 9 } },
	{ "MOV TEMP[0].x, CONST[0][1].zzzz", { 7, 9, 9, 9 } },
	{ "ADD TEMP[0], CONST[0][0], IMM[0]", { 1.5f, 2.5f, 3.5f, 4.5f } },
};

static const char alu_head[] =
	"FRAG\n"
	"DCL IN[0], GENERIC[0], PERSPECTIVE\n"
	"DCL IN[1], GENERIC[1], PERSPECTIVE\n"
	"DCL IN[2], GENERIC[2], PERSPECTIVE\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0..1]\n"
	"DCL TEMP[0]\n"
	"IMM[0] FLT32 {    0.5000,     0.5000,     0.5000,     0.5000}\n"
	"IMM[1] FLT32 {    9.0000,     9.0000,     9.0000,     9.0000}\n"
	"  0: MOV TEMP[0], IMM[1]\n";

static void test_alu_opcodes(void **state)
{
	(void)state;
	const float in[3][4] = { { A[0], A[1], A[2], A[3] }, { B[0], B[1], B[2], B[3] },
				 { C[0], C[1], C[2], C[3] } };
	const float k[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } };
	for (size_t i = 0; i < sizeof alu_cases / sizeof *alu_cases; i++) {
		char src[1024];
		snprintf(src, sizeof src, "%s  1: %s\n  2: MOV OUT[0], TEMP[0]\n  3: END\n", alu_head,
			 alu_cases[i].insn);
		struct fe_test t;
		fe_test_begin(&t);
		float got[4];
		assert_true(run(tgsi_ok(&t, src), in, k, 0, got));
		expect4(got, alu_cases[i].want, alu_cases[i].insn);
		fe_test_end(&t);
	}
}

/* tgsi.rst's radians, when asked for */
static void test_trig_radians(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	const char *src = "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n"
			  "  0: SIN OUT[0].xy, IN[0].xxxx\n  1: COS OUT[0].zw, IN[0].xxxx\n  2: END\n";
	struct ir_func *f = tgsi_compile(&t, src, true);
	assert_non_null(f);
	const float in[1][4] = { { 0.5f, 0, 0, 0 } };
	float got[4];
	assert_true(run(f, in, NULL, 0, got));
	const float want[4] = { sinf(0.5f), sinf(0.5f), cosf(0.5f), cosf(0.5f) };
	expect4(got, want, "SIN/COS in radians");
	fe_test_end(&t);
}

/* --- control flow --- */

/* IF/ELSE picks by the sign of the input; a loop counts to a limit with
 * BRK and skips odd trips with CONT; KILL_IF discards. */
static const char flow_src[] =
	"FRAG\n"
	"DCL IN[0].x, GENERIC[0], PERSPECTIVE\n"
	"DCL OUT[0], COLOR\n"
	"DCL TEMP[0..2]\n"
	"IMM[0] FLT32 {    0.0000,     1.0000,     5.0000,     2.0000}\n"
	"  0: MOV TEMP[0], IMM[0].xxxx\n"
	"  1: SLT TEMP[1].x, IN[0].xxxx, IMM[0].xxxx\n"
	"  2: IF TEMP[1].xxxx :0\n"
	"  3:   MOV TEMP[0].x, IMM[0].yyyy\n"
	"  4: ELSE :0\n"
	"  5:   MOV TEMP[0].x, IMM[0].wwww\n"
	"  6: ENDIF\n"
	"  7: BGNLOOP :0\n"
	"  8:   ADD TEMP[0].y, TEMP[0].yyyy, IMM[0].yyyy\n"
	"  9:   SGE TEMP[1].x, TEMP[0].yyyy, IMM[0].zzzz\n"
	" 10:   IF TEMP[1].xxxx :0\n"
	" 11:     BRK\n"
	" 12:   ENDIF\n"
	" 13:   MUL TEMP[2].x, TEMP[0].yyyy, IMM[0].yyyy\n"
	" 14:   FRC TEMP[2].x, TEMP[2].xxxx\n"
	" 15:   MUL TEMP[2].y, TEMP[0].yyyy, IMM[0].wwww\n"
	" 16:   SEQ TEMP[2].z, TEMP[0].yyyy, IMM[0].wwww\n"
	" 17:   UIF TEMP[2].zzzz :0\n"
	" 18:     CONT\n"
	" 19:   ENDIF\n"
	" 20:   ADD TEMP[0].z, TEMP[0].zzzz, TEMP[0].yyyy\n"
	" 21: ENDLOOP :0\n"
	" 22: KILL_IF IN[0].xxxx\n"
	" 23: MOV OUT[0], TEMP[0]\n"
	" 24: END\n";

static void test_flow(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = tgsi_ok(&t, flow_src);
	/* y counts 1..5; z adds the trips other than 2 before the BRK: 1 + 3 + 4 */
	const float pos[1][4] = { { 0.5f, 0, 0, 0 } }, neg[1][4] = { { -0.5f, 0, 0, 0 } };
	float got[4];
	assert_true(run(f, pos, NULL, 0, got));
	expect4(got, (const float[4]){ 2, 5, 8, 0 }, "flow, x >= 0");
	assert_false(run(f, neg, NULL, 0, got)); /* KILL_IF: x < 0 */
	fe_test_end(&t);
}

/* A loop without BRK never ends: refused, as GLSL's are. */
static void test_endless_loop(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(tgsi_compile(&t, "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
				 "IMM[0] FLT32 { 1.0, 1.0, 1.0, 1.0 }\n"
				 "  0: BGNLOOP :0\n  1:   ADD TEMP[0], TEMP[0], IMM[0]\n"
				 "  2: ENDLOOP :0\n  3: MOV OUT[0], TEMP[0]\n  4: END\n", false));
	assert_diag(&t, "t.tgsi:5:6: error: a loop that never ends");
	fe_test_end(&t);
}

/* --- indirect addressing --- */

static const char indirect_src[] =
	"FRAG\n"
	"DCL IN[0].x, GENERIC[0], PERSPECTIVE\n"
	"DCL OUT[0], COLOR\n"
	"DCL CONST[0][0..3]\n"
	"DCL TEMP[0]\n"
	"DCL TEMP[1..3], ARRAY(1)\n"
	"DCL ADDR[0]\n"
	"IMM[0] FLT32 {    0.0000,     1.0000,     2.0000,     3.0000}\n"
	"  0: ARL ADDR[0].x, IN[0].xxxx\n"
	"  1: MOV TEMP[1], IMM[0].xxxx\n"
	"  2: MOV TEMP[2], IMM[0].yyyy\n"
	"  3: MOV TEMP[3], IMM[0].zzzz\n"
	"  4: MOV TEMP[ADDR[0].x+1](1).y, IMM[0].wwww\n"
	"  5: ADD TEMP[0], TEMP[ADDR[0].x+1](1), CONST[0][ADDR[0].x+1]\n"
	"  6: MOV OUT[0], TEMP[0]\n"
	"  7: END\n";

static void test_indirect(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = tgsi_ok(&t, indirect_src);
	const float k[4][4] = { { 10, 10, 10, 10 }, { 20, 20, 20, 20 }, { 30, 31, 32, 33 }, { 40, 40, 40, 40 } };
	/* ARL floors 1.7 to 1: element 1 of the array (TEMP[2]) gets .y = 3, and
	 * CONST[0][2] adds */
	const float in[1][4] = { { 1.7f, 0, 0, 0 } };
	float got[4];
	assert_true(run(f, in, k, 0, got));
	expect4(got, (const float[4]){ 31, 34, 33, 34 }, "TEMP[ADDR+1] + CONST[ADDR+1]");
	const float in0[1][4] = { { 0.2f, 0, 0, 0 } };
	assert_true(run(f, in0, k, 0, got));
	expect4(got, (const float[4]){ 20, 23, 20, 20 }, "index 0");
	/* the IR's shapes: the TEMP array is an IR array, its registers loads
	 * and stores (a masked write loads first); lower_arrays makes selects
	 * that compute the same */
	assert_int_equal(f->narrays, 1);
	assert_int_equal(f->arrays[0].length, 3);
	assert_int_equal(fe_count_op(f, IR_OP_STORE), 4);
	assert_int_equal(fe_count_op(f, IR_OP_LOAD), 2);
	assert_true(ir_lower_arrays(f));
	assert_true(fe_count_op(f, IR_OP_SELECT) > 0);
	assert_int_equal(f->narrays, 0);
	assert_true(run(f, in, k, 0, got));
	expect4(got, (const float[4]){ 31, 34, 33, 34 }, "lowered: TEMP[ADDR+1] + CONST[ADDR+1]");
	assert_true(run(f, in0, k, 0, got));
	expect4(got, (const float[4]){ 20, 23, 20, 20 }, "lowered: index 0");
	fe_test_end(&t);
}

/* CONST[ADDR+k] with k past the declared constants: legal when ADDR is
 * negative; the IR's UNIFORM keeps its element in range and the index
 * carries the rest */
static void test_indirect_base_outside(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = tgsi_ok(&t, "FRAG\n"
					"DCL IN[0].x, GENERIC[0], PERSPECTIVE\n"
					"DCL OUT[0], COLOR\n"
					"DCL CONST[0][0..3]\n"
					"DCL ADDR[0]\n"
					"  0: ARL ADDR[0].x, IN[0].xxxx\n"
					"  1: MOV OUT[0], CONST[0][ADDR[0].x+7]\n"
					"  2: END\n");
	const float k[4][4] = { { 10, 11, 12, 13 }, { 20, 21, 22, 23 }, { 30, 31, 32, 33 }, { 40, 41, 42, 43 } };
	const float in[1][4] = { { -5.5f, 0, 0, 0 } }; /* ARL: -6, so element 1 */
	float got[4];
	assert_true(run(f, in, k, 0, got));
	expect4(got, k[1], "CONST[-6+7]");
	const float in2[1][4] = { { -4.0f, 0, 0, 0 } };
	assert_true(run(f, in2, k, 0, got));
	expect4(got, k[3], "CONST[-4+7]");
	fe_test_end(&t);
}

/* --- declarations: names, outputs, samplers --- */

/* nir_to_tgsi copies FACE whole with only .x declared: (face, 0, 0, 1) */
/* The zero, false and true constants the lowering starts with are gone
 * when nothing reads them, kept when something does. */
static void test_unread_markers_dropped(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = tgsi_ok(&t,
		"FRAG\n"
		"DCL OUT[0], COLOR\n"
		"DCL CONST[0][0]\n"
		"  0: MOV OUT[0], CONST[0][0]\n"
		"  1: END\n");
	const char *text = ir_print(f, t.arena);
	assert_null(strstr(text, "const"));
	f = tgsi_ok(&t,
		"FRAG\n"
		"DCL OUT[0], COLOR\n"
		"DCL CONST[0][0]\n"
		"  0: SLT OUT[0], CONST[0][0], CONST[0][0].yxzw\n"
		"  1: END\n");
	const float k[1][4] = { { 1, 2, 3, 3 } };
	float got[4];
	assert_true(run(f, NULL, k, 0, got));
	expect4(got, (const float[4]){ 1, 0, 0, 0 }, "SLT of the markers it reads");
	fe_test_end(&t);
}

static void test_face_whole(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = tgsi_ok(&t,
		"FRAG\n"
		"DCL IN[0].x, FACE, CONSTANT\n"
		"DCL OUT[0], COLOR\n"
		"DCL TEMP[0]\n"
		"  0: MOV TEMP[0], IN[0]\n"
		"  1: ADD OUT[0], TEMP[0], TEMP[0].wwzx\n"
		"  2: END\n");
	assert_int_equal(f->inputs[0].ncomp, 1);
	const float in[1][4] = { { -1 } };
	float got[4];
	assert_true(run(f, in, NULL, 0, got));
	expect4(got, (const float[4]){ 0, 1, 0, 0 }, "back face read whole");
	fe_test_end(&t);
}

static void test_names(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = tgsi_ok(&t,
		"FRAG\n"
		"PROPERTY FS_COORD_PIXEL_CENTER INTEGER\n"
		"DCL IN[0], POSITION, LINEAR\n"
		"DCL IN[1].x, FACE, CONSTANT\n"
		"DCL IN[2].xy, GENERIC[3], PERSPECTIVE, CENTROID\n"
		"DCL IN[3], COLOR[1], COLOR\n"
		"DCL IN[4..5], TEXCOORD[2], PERSPECTIVE\n"
		"DCL OUT[0], COLOR\n"
		"DCL OUT[1], COLOR[2]\n"
		"DCL OUT[2], POSITION\n"
		"DCL SAMP[3]\n"
		"DCL SVIEW[3], 2D, FLOAT\n"
		"DCL TEMP[0]\n"
		"  0: MOV OUT[0], IN[0]\n"
		"  1: ADD OUT[1], IN[3], IN[5]\n"
		"  2: TEX TEMP[0], IN[2].xyyy, SAMP[3], SHADOW2D\n"
		"  3: ADD OUT[2].z, TEMP[0].xxxx, IN[1].xxxx\n"
		"  4: END\n");
	const char *inputs[] = { "gl_FragCoord", "gl_FrontFacing", "GENERIC[3]", "COLOR[1]",
				 "TEXCOORD[2]", "TEXCOORD[3]" };
	for (int i = 0; i < 6; i++)
		assert_int_equal(ir_func_find_input(f, inputs[i]), i);
	assert_true(f->inputs[2].centroid);
	assert_int_equal(f->inputs[1].ncomp, 1);
	assert_int_equal(f->inputs[2].ncomp, 2);
	assert_int_equal(f->noutputs, 3);
	assert_string_equal(f->outputs[0].name, "COLOR[0]");
	assert_int_equal(f->outputs[1].target, 2);
	assert_int_equal(f->outputs[2].target, -1);
	assert_int_equal(f->nsamplers, 1);
	assert_int_equal(f->samplers[0].unit, 3);
	assert_true(f->samplers[0].shadow);
	/* integer pixel centers: gl_FragCoord.xy less 0.5 */
	const float in[6][4] = { { 3.5f, 4.5f, 0.25f, 1 } };
	float got[4];
	assert_true(run(f, in, NULL, 0, got));
	expect4(got, (const float[4]){ 3, 4, 0.25f, 1 }, "integer centers");
	fe_test_end(&t);
}

/* --- errors: what, and where --- */

struct error_case {
	const char *src;
	const char *diag;
};

#define HEAD "FRAG\nDCL OUT[0], COLOR\nDCL TEMP[0]\n"
static const struct error_case error_cases[] = {
	{ HEAD "  0: FOO TEMP[0], TEMP[0]\n", "t.tgsi:4:6: error: TGSI opcode 'FOO' is not supported" },
	{ HEAD "  0: I2F TEMP[0], TEMP[0]\n", "t.tgsi:4:6: error: TGSI opcode 'I2F' is not supported" },
	{ HEAD "  0: MOV OUT[0], TEMP[1]\n", "t.tgsi:4:18: error: TEMP[1] is not declared" },
	{ HEAD "  0: MOV OUT[0], TEMP[0\n", "t.tgsi:4:24: error: expected ']' after the register index" },
	{ HEAD "  0: MOV OUT[0], TEMP[0].xy\n", "t.tgsi:4:26: error: expected a swizzle" },
	{ HEAD "  0: MOV OUT[0].yx, TEMP[0]\n", "the write mask's components must be in xyzw order" },
	{ HEAD "  0: ENDIF\n", "t.tgsi:4:6: error: ENDIF without a matching IF" },
	{ HEAD "  0: IF TEMP[0].xxxx :0\n", "t.tgsi:4:6: error: IF is never closed" },
	{ HEAD "  0: BRK\n", "t.tgsi:4:6: error: BRK outside a loop" },
	{ HEAD "  0: END\n  1: MOV OUT[0], TEMP[0]\n", "t.tgsi:5:6: error: MOV after END" },
	{ HEAD "IMM[1] FLT32 { 1.0, 2.0, 3.0, 4.0 }\n",
	  "t.tgsi:4:1: error: IMM[1] out of order: the next immediate is IMM[0]" },
	{ HEAD "IMM[0] INT32 { 1, 2, 3, 4 }\n  0: MOV OUT[0], IMM[0]\n",
	  "t.tgsi:4:1: error: INT32 immediates are not supported" },
	{ "VERT\nDCL OUT[0], POSITION\n", "t.tgsi:1:1: error: a VERT program" },
	{ "FRAG\nPROPERTY FS_COORD_ORIGIN UPPER_LEFT\nDCL OUT[0], COLOR\n",
	  "t.tgsi:2:1: error: PROPERTY FS_COORD_ORIGIN UPPER_LEFT is not supported" },
	{ "FRAG\nDCL IN[0].xy, GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\n  0: MOV OUT[0], IN[0]\n",
	  "t.tgsi:4:18: error: IN[0].z is read, but only 2 components are declared" },
	{ "FRAG\nDCL IN[0], GENERIC[0], CONSTANT\nDCL OUT[0], COLOR\n",
	  "t.tgsi:2:1: error: CONSTANT interpolation (flat) is not supported" },
	{ "FRAG\nDCL IN[0], PRIMID, CONSTANT\nDCL OUT[0], COLOR\n", "t.tgsi:2:1: error: " },
	{ HEAD "DCL SAMP[0]\n  0: TEX OUT[0], TEMP[0], SAMP[0], 2D_ARRAY\n",
	  "t.tgsi:5:6: error: texture target 2D_ARRAY is not supported" },
	{ HEAD "  0: TEX OUT[0], TEMP[0], SAMP[0], 2D\n", "t.tgsi:4:27: error: SAMP[0] is not declared" },
	{ HEAD "DCL ADDR[0]\n  0: MOV OUT[0], TEMP[ADDR[0].x+1]\n",
	  "which is not a declared TEMP ARRAY" },
	{ HEAD "DCL TEMP[0]\n", "t.tgsi:4:1: error: TEMP[0] is declared twice" },
	{ HEAD "DCL TEMP[99999]\n", "t.tgsi:4:1: error: TEMP[99999] is beyond uscc's bound" },
	{ HEAD "  0: MOV OUT[0], CONST[1][0]\n", "error: constant buffer 1 is not supported" },
	{ HEAD "  0: MOV TEMP[0], TEMP[0]\n  1: END\n", "error: the program writes no output" },
	{ HEAD "  0: MOV OUT[0], TEMP[0] $\n", "t.tgsi:4:26: error: expected the end of the line, found '$'" },
};

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof error_cases / sizeof *error_cases; i++) {
		struct fe_test t;
		fe_test_begin(&t);
		if (tgsi_compile(&t, error_cases[i].src, false))
			fail_msg("compiled, expected \"%s\":\n%s", error_cases[i].diag, error_cases[i].src);
		assert_diag(&t, error_cases[i].diag);
		fe_test_end(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alu_opcodes), cmocka_unit_test(test_trig_radians),
		cmocka_unit_test(test_flow),        cmocka_unit_test(test_endless_loop),
		cmocka_unit_test(test_indirect),
		cmocka_unit_test(test_indirect_base_outside),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_face_whole),
		cmocka_unit_test(test_unread_markers_dropped),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
