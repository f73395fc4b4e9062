/* Language corners: samplers in uniform structs, stores through
 * non-constant indexes into arrays of structs, the built-in state
 * uniforms (structs included), vertex shaders run in the interpreter,
 * `#extension ... : warn` warnings and -Werror, ES precision scoping and
 * redeclarations.  Values are worked out by hand (comments). */
#include "fe_test.h"

#include "ir.h"

static struct ir_func *compile_stage(struct fe_test *t, const char *src, enum glsl_stage stage)
{
	struct glsl_options o = { .stage = stage };
	t->f = glsl_to_ir(src, stage == GLSL_STAGE_VERTEX ? "t.vert" : "t.frag", &o, t->arena,
			  &t->diag);
	t->diags = diag_render(&t->diag);
	if (!t->f)
		fail_msg("compile failed:\n%s", t->diags);
	if (!ir_validate(t->f, &t->diag))
		fail_msg("invalid IR:\n%s\n%s", ir_print(t->f, t->arena), diag_render(&t->diag));
	return t->f;
}

/* Runs a quad with every input 0 but the named ones; returns output
 * `out` (by name) of pixel 0. */
static void run(struct ir_func *f, const char *const *names, const float (*vals)[4], int n,
		const float (*uni)[4], const struct tex_image *tex, int ntex, const char *out,
		float res[4])
{
	static const float zeros[64][4];
	float store[16][4][4];
	const float (*in_ptr[16])[4];
	memset(store, 0, sizeof store);
	assert_true(f->ninputs <= 16);
	for (int i = 0; i < f->ninputs; i++)
		in_ptr[i] = store[i];
	for (int i = 0; i < n; i++) {
		int k = ir_func_find_input(f, names[i]);
		assert_true(k >= 0);
		for (int p = 0; p < 4; p++)
			memcpy(store[k][p], vals[i], sizeof store[k][p]);
	}
	struct ir_interp_env env;
	memset(&env, 0, sizeof env);
	env.inputs = in_ptr;
	env.uniform_values = uni ? uni : zeros;
	env.textures = tex;
	env.ntextures = ntex;
	for (int p = 0; p < 4; p++)
		env.covered[p] = true;
	struct ir_interp_result r;
	memset(&r, 0, sizeof r);
	struct arena *a = arena_create(&mem_default_allocator);
	struct diag_sink d;
	diag_init(&d, a);
	bool ok = ir_interp_quad(f, &env, &r, &d);
	if (!ok)
		fail_msg("interpreter failed: %s", diag_render(&d));
	arena_destroy(a);
	int o = ir_func_find_output(f, out);
	assert_true(o >= 0 && o < 8 && r.written[o]);
	memcpy(res, r.outputs[o][0], sizeof(float) * 4);
}

static struct ir_instr *first_tex;
static void find_tex(struct ir_instr *in, void *ud)
{
	(void)ud;
	if (in->op == IR_OP_TEX && !first_tex)
		first_tex = in;
}

static void test_sampler_in_struct(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* piglit's samplers/uniform-structs and in-parameter-nested-struct */
	struct ir_func *f = compile_stage(&t,
		"struct S1 { float f; sampler2D tex; };\n"
		"struct S2 { float f; S1 s; };\n"
		"uniform S2 s;\n"
		"uniform struct { vec4 mix; sampler2D smp[2]; } u;\n"
		"vec4 foo(in S2 p) { return texture2D(p.s.tex, vec2(0.5)) * p.s.f * p.f; }\n"
		"void main() { gl_FragColor = foo(s) + texture2D(u.smp[1], vec2(0.5)) * u.mix; }\n",
		GLSL_STAGE_FRAGMENT);
	/* one unit per sampler leaf, in declaration order, named by path */
	assert_int_equal(f->nsamplers, 3);
	assert_string_equal(f->samplers[0].name, "s.s.tex");
	assert_string_equal(f->samplers[1].name, "u.smp[0]");
	assert_string_equal(f->samplers[2].name, "u.smp[1]");
	assert_true(ir_func_find_uniform(f, "s.f") >= 0);
	assert_true(ir_func_find_uniform(f, "s.s.f") >= 0);
	assert_true(ir_func_find_uniform(f, "u.mix") >= 0);
	first_tex = NULL;
	ir_foreach_instr(f, find_tex, NULL);
	assert_non_null(first_tex);
	assert_int_equal(first_tex->index, 0);
	/* texture 0 is (1, 2, 3, 4), texture 2 is (10, 20, 30, 40): s.f = 2,
	 * s.s.f = 0.5, u.mix = (1, 0, 1, 0): (1,2,3,4) + (10,0,30,0) */
	const float texel0[4] = { 1, 2, 3, 4 }, texel2[4] = { 10, 20, 30, 40 };
	struct tex_image img[3] = {
		{ .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1, .texels = texel0,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
		{ .target = IR_TARGET_2D, .width = 0, .height = 0, .depth = 0, .texels = NULL,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
		{ .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1, .texels = texel2,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
	};
	float uni[8][4];
	memset(uni, 0, sizeof uni);
	uni[f->uniforms[ir_func_find_uniform(f, "s.f")].base][0] = 2;
	uni[f->uniforms[ir_func_find_uniform(f, "s.s.f")].base][0] = 0.5f;
	memcpy(uni[f->uniforms[ir_func_find_uniform(f, "u.mix")].base], (float[4]){ 1, 0, 1, 0 },
	       sizeof uni[0]);
	float o[4];
	run(f, NULL, NULL, 0, (const float (*)[4])uni, img, 3, "gl_FragColor", o);
	assert_vec4_near(o, 11, 2, 33, 4);
	fe_test_end(&t);
}

static void test_sampler_struct_errors(void **state)
{
	(void)state;
	static const struct {
		const char *src, *diag;
	} cases[] = {
		{ "struct S { float x; sampler2D t; } g;\nvoid main() {}\n",
		  "t.frag:1:1: error: a struct holding a sampler that is not a uniform is not allowed" },
		{ "struct S { float x; sampler2D t; };\nuniform S u;\nS f() { return u; }\n"
		  "void main() {}\n",
		  "t.frag:3:3: error: a function cannot return a struct holding a sampler" },
		{ "struct S { float x; sampler2D t; };\nvoid f(inout S p) {}\nvoid main() {}\n",
		  "t.frag:2:16: error: sampler parameters must be 'in'" },
		{ "struct S { float x; sampler2D t; };\nuniform S u;\n"
		  "void main() { S(1.0, u.t); }\n",
		  "t.frag:3:15: error: samplers cannot be constructed ('S')" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fe_test t;
		fe_test_begin(&t);
		assert_null(fe_compile(&t, cases[i].src));
		assert_diag(&t, cases[i].diag);
		fe_test_end(&t);
	}
}

static void test_dynamic_struct_stores(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = compile_stage(&t,
		"#version 120\n"
		"struct S { float f; vec2 v; };\n"
		"struct T { S s[2]; };\n"
		"varying vec2 k;\n"
		"void main() {\n"
		"  int i = int(k.x), j = int(k.y);\n"
		"  S a[3];\n"
		"  for (int n = 0; n < 3; n++) a[n] = S(float(n), vec2(0.0));\n"
		"  a[i].f = 10.0;\n"
		"  a[j].v[i - 1] = 7.0;\n"
		"  T t = T(S[2](a[0], a[1]));\n"
		"  t.s[j].v.y += 1.0;\n"
		"  gl_FragColor = vec4(a[0].f + a[1].f + a[2].f, a[2].v.x, t.s[0].v.y, t.s[1].v.y);\n"
		"}\n",
		GLSL_STAGE_FRAGMENT);
	/* k = (2, 1): a.f = (0, 1, 10): sum 11; a[1].v.y = 7; a[2].v = 0;
	 * t.s = (a[0], a[1]); t.s[1].v.y = 7 + 1 */
	const char *names[] = { "k" };
	const float v1[][4] = { { 2, 1, 0, 0 } };
	float o[4];
	run(f, names, v1, 1, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 11, 0, 0, 8);
	/* k = (1, 2): a.f = (0, 10, 2): 12; a[2].v.x = 7; t.s[j = 2] is out of
	 * range: the write is dropped */
	const float v2[][4] = { { 1, 2, 0, 0 } };
	run(f, names, v2, 1, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 12, 7, 0, 0);
	/* k = (2, 0): a.f = (0, 1, 10); a[0].v.y = 7; t.s[0].v.y = 8 */
	const float v3[][4] = { { 2, 0, 0, 0 } };
	run(f, names, v3, 1, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 11, 0, 8, 0);
	fe_test_end(&t);
}

static void test_state_uniforms(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = compile_stage(&t,
		"void main() {\n"
		"  gl_LightSourceParameters l = gl_LightSource[1];\n"
		"  gl_FragColor = l.diffuse * gl_FrontMaterial.diffuse + gl_Fog.color * gl_DepthRange.diff\n"
		"               + vec4(gl_EyePlaneQ[2].w, gl_TextureMatrixInverse[1][3].x,\n"
		"                      gl_Point.size, float(gl_MaxLights));\n"
		"}\n",
		GLSL_STAGE_FRAGMENT);
	static const char *const names[] = {
		"gl_LightSource[1].diffuse", "gl_FrontMaterial.diffuse", "gl_Fog.color",
		"gl_DepthRange.diff", "gl_EyePlaneQ", "gl_TextureMatrixInverse", "gl_Point.size",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (ir_func_find_uniform(f, names[i]) < 0)
			fail_msg("no uniform %s", names[i]);
	int eq = ir_func_find_uniform(f, "gl_EyePlaneQ");
	assert_int_equal(f->uniforms[eq].array_len, 8); /* gl_MaxTextureCoords */
	float uni[64][4];
	memset(uni, 0, sizeof uni);
#define U(name) uni[f->uniforms[ir_func_find_uniform(f, name)].base]
	memcpy(U("gl_LightSource[1].diffuse"), (float[4]){ 1, 2, 3, 4 }, sizeof uni[0]);
	memcpy(U("gl_FrontMaterial.diffuse"), (float[4]){ 2, 2, 2, 2 }, sizeof uni[0]);
	memcpy(U("gl_Fog.color"), (float[4]){ 1, 1, 1, 1 }, sizeof uni[0]);
	U("gl_DepthRange.diff")[0] = 0.5f;
	U("gl_Point.size")[0] = 3;
	uni[f->uniforms[eq].base + 2][3] = 5;
	/* gl_TextureMatrixInverse[1] column 3: vec4 slot base + 4 + 3 */
	uni[f->uniforms[ir_func_find_uniform(f, "gl_TextureMatrixInverse")].base + 7][0] = 6;
#undef U
	float o[4];
	run(f, NULL, NULL, 0, (const float (*)[4])uni, NULL, 0, "gl_FragColor", o);
	/* (2,4,6,8) + 0.5 + (5, 6, 3, 8) */
	assert_vec4_near(o, 7.5f, 10.5f, 9.5f, 16.5f);
	fe_test_end(&t);
}

static void test_vertex_shader(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = compile_stage(&t,
		"varying float fog;\n"
		"void main() {\n"
		"  gl_Position = ftransform();\n"
		"  gl_PointSize = gl_Point.size * 2.0;\n"
		"  gl_ClipVertex = gl_ModelViewMatrix * gl_Vertex;\n"
		"  gl_FrontColor = gl_Color + vec4(gl_NormalMatrix * gl_Normal, 0.0);\n"
		"  gl_BackColor = gl_SecondaryColor * gl_MultiTexCoord7.x;\n"
		"  gl_TexCoord[3] = gl_TextureMatrix[3] * gl_MultiTexCoord3;\n"
		"  gl_FogFragCoord = gl_FogCoord * 2.0;\n"
		"  fog = gl_FogCoord + 1.0;\n"
		"}\n",
		GLSL_STAGE_VERTEX);
	assert_int_equal(f->stage, IR_STAGE_VERTEX);
	assert_int_equal(f->noutputs, 8);
	float uni[64][4];
	memset(uni, 0, sizeof uni);
	/* MVP: scale by 2 with a translation of (1, 0, 0); ModelView: identity;
	 * NormalMatrix: identity; TextureMatrix[3]: swap x and y */
	int mvp = f->uniforms[ir_func_find_uniform(f, "gl_ModelViewProjectionMatrix")].base;
	int mv = f->uniforms[ir_func_find_uniform(f, "gl_ModelViewMatrix")].base;
	int nm = f->uniforms[ir_func_find_uniform(f, "gl_NormalMatrix")].base;
	int tm = f->uniforms[ir_func_find_uniform(f, "gl_TextureMatrix")].base + 3 * 4;
	for (int c = 0; c < 4; c++) {
		uni[mvp + c][c] = c < 3 ? 2 : 1;
		uni[mv + c][c] = 1;
		if (c < 3)
			uni[nm + c][c] = 1;
	}
	uni[mvp + 3][0] = 1;
	uni[tm + 0][1] = 1;
	uni[tm + 1][0] = 1;
	uni[tm + 2][2] = 1;
	uni[tm + 3][3] = 1;
	uni[f->uniforms[ir_func_find_uniform(f, "gl_Point.size")].base][0] = 1.5f;
	const char *names[] = { "gl_Vertex", "gl_Color", "gl_Normal", "gl_SecondaryColor",
				"gl_MultiTexCoord7", "gl_MultiTexCoord3", "gl_FogCoord" };
	const float vals[][4] = { { 1, 2, 3, 1 }, { 0.5f, 0.5f, 0.5f, 1 }, { 0, 0, 1, 0 },
				  { 1, 2, 3, 4 }, { 3, 0, 0, 0 }, { 5, 6, 7, 8 }, { 0.25f, 0, 0, 0 } };
	float o[4];
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_Position", o);
	assert_vec4_near(o, 3, 4, 6, 1);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_PointSize", o);
	assert_true(o[0] > 2.999f && o[0] < 3.001f);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_ClipVertex", o);
	assert_vec4_near(o, 1, 2, 3, 1);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_FrontColor", o);
	assert_vec4_near(o, 0.5f, 0.5f, 1.5f, 1);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_BackColor", o);
	assert_vec4_near(o, 3, 6, 9, 12);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_TexCoord[3]", o);
	assert_vec4_near(o, 6, 5, 7, 8);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "gl_FogFragCoord", o);
	assert_true(o[0] > 0.499f && o[0] < 0.501f);
	run(f, names, vals, 7, (const float (*)[4])uni, NULL, 0, "fog", o);
	assert_true(o[0] > 1.249f && o[0] < 1.251f);
	fe_test_end(&t);
}

static void test_extension_warnings(void **state)
{
	(void)state;
	const char *src = "#extension all : warn\n"
			  "#extension GL_foo : enable\n"
			  "uniform sampler2DRect r;\n"
			  "void main() { gl_FragColor = texture2DRect(r, vec2(1.0)); }\n";
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, src));
	assert_int_equal(t.diag.warnings, 2);
	assert_diag(&t, "t.frag:2:12: warning: extension 'GL_foo' is not supported");
	assert_diag(&t, "t.frag:3:9: warning: 'sampler2DRect' uses extension "
			"GL_ARB_texture_rectangle, which is set to warn");
	assert_false(diag_failed(&t.diag));
	fe_test_end(&t);

	/* -Werror: the same warnings fail the compile */
	fe_test_begin(&t);
	t.diag.werror = true;
	fe_compile(&t, src);
	assert_true(diag_failed(&t.diag));
	fe_test_end(&t);

	/* enable: no warning; all : disable goes back to the core language */
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, "#extension GL_ARB_texture_rectangle : warn\n"
				       "#extension GL_ARB_texture_rectangle : enable\n"
				       "uniform sampler2DRect r;\n"
				       "void main() { gl_FragColor = texture2DRect(r, vec2(1.0)); }\n"));
	assert_int_equal(t.diag.warnings, 0);
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#extension GL_ARB_texture_rectangle : enable\n"
				   "#extension all : disable\n"
				   "uniform sampler2DRect r;\n"
				   "void main() {}\n"));
	assert_diag(&t, "t.frag:3:9: error: 'sampler2DRect' needs '#extension "
			"GL_ARB_texture_rectangle : enable'");
	fe_test_end(&t);
}

static void test_es_scoping_and_redeclaration(void **state)
{
	(void)state;
	static const struct {
		const char *src, *diag;
	} cases[] = {
		/* a precision statement ends with its block (ES 1.00 4.5.3) */
		{ "#version 100\nuniform bool b;\nvoid f() {\n  if (b) { precision mediump float; }\n"
		  "  float x;\n}\n",
		  "t.frag:5:3: error: no precision given for 'float' and no default float precision" },
		{ "#version 100\nprecision mediump float;\nint f(int a);\nint f(int a);\n"
		  "void main() {}\n",
		  "t.frag:4:5: error: function 'f' is already declared" },
		{ "#version 100\nprecision mediump float;\nfloat g();\nhighp float g() { return 3.0; }\n"
		  "void main() {}\n",
		  "t.frag:4:13: error: 'g' redeclared with a different return precision" },
		{ "#version 120\nvoid foo(vec4[2] x[2]);\nvoid main() {}\n",
		  "t.frag:2:18: error: arrays of arrays are not allowed" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fe_test t;
		fe_test_begin(&t);
		assert_null(fe_compile(&t, cases[i].src));
		assert_diag(&t, cases[i].diag);
		fe_test_end(&t);
	}
	/* ES 1.00's grammar has sized `type[N]` declarations */
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, "#version 100\nprecision mediump float;\n"
				       "void f(inout float x[2]) { x[1] = 2.0; }\n"
				       "void main() { float[2] x; x[0] = 1.0; f(x);\n"
				       "  gl_FragColor = vec4(x[0], x[1], 0.0, 1.0); }\n"));
	fe_test_end(&t);
}

static void test_effects_run_once(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* ?: runs only the chosen side, && and || only the deciding right side;
	 * a void ?: is a branch */
	struct ir_func *f = compile_stage(&t,
		"varying vec4 v;\n"
		"float n = 0.0;\n"
		"bool bump() { n += 1.0; return true; }\n"
		"void good() { gl_FragColor = vec4(1.0); }\n"
		"void bad() { gl_FragColor = vec4(2.0); }\n"
		"void main() {\n"
		"  float a = 0.0, b = 0.0;\n"
		"  float x = v.x > 0.5 ? a++ : b += 10.0;\n"
		"  bool p = v.y > 0.5 && bump();\n"
		"  bool q = v.y > 0.5 || bump();\n"
		"  v.z > 0.5 ? good() : bad();\n"
		"  gl_FragColor += vec4(a + b * 10.0, n, x, float(p) + float(q) * 2.0);\n"
		"}\n",
		GLSL_STAGE_FRAGMENT);
	const char *names[] = { "v" };
	/* v = (1, 1, 1): a++ gives 0, a = 1; && calls bump (n = 1, p), || does
	 * not (q); good(): 1 + (1, 1, 0, 3) */
	const float v1[][4] = { { 1, 1, 1, 0 } };
	float o[4];
	run(f, names, v1, 1, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 2, 2, 1, 4);
	/* v = 0: b += 10 gives 10, b = 10; || calls bump (n = 1, q), && does
	 * not; bad(): 2 + (100, 1, 10, 2) */
	const float v0[][4] = { { 0, 0, 0, 0 } };
	run(f, names, v0, 1, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 102, 3, 12, 4);
	fe_test_end(&t);

	/* calls of functions that change nothing outside stay a SELECT: no
	 * branch, so no PHI */
	fe_test_begin(&t);
	f = compile_stage(&t,
		"varying vec4 v;\n"
		"float sq(float x) { float y = x; y *= x; return y; }\n"
		"void main() { gl_FragColor = vec4(v.x > 0.5 ? sq(v.y) : sq(v.z)); }\n",
		GLSL_STAGE_FRAGMENT);
	assert_int_equal(fe_count_op(f, IR_OP_PHI), 0);
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 1);
	const float v2[][4] = { { 1, 3, 5, 0 } };
	run(f, names, v2, 1, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 9, 9, 9, 9);
	fe_test_end(&t);
}

static void test_unroll_budget_and_constants(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* 8 nested loops of 16 trips: 16^8 copies are far too many, so the
	 * outer loops stay loops and only the inner nest is unrolled */
	struct ir_func *f = compile_stage(&t,
		"uniform float u;\n"
		"void main() { float s = 0.0;\n"
		"  for (int a = 0; a < 16; a++) for (int b = 0; b < 16; b++)\n"
		"  for (int c = 0; c < 16; c++) for (int d = 0; d < 16; d++)\n"
		"  for (int e = 0; e < 16; e++) for (int g = 0; g < 16; g++)\n"
		"  for (int h = 0; h < 2; h++) for (int i = 0; i < 2; i++) s += u;\n"
		"  gl_FragColor = vec4(s); }\n",
		GLSL_STAGE_FRAGMENT);
	assert_true(fe_count_op(f, IR_OP_BREAK) >= 1);
	assert_true(f->next_id < 20000);
	fe_test_end(&t);

	/* FLT_MAX as written in piglit is a float; 1e39 is not; the
	 * derivatives of a constant are constant (0) in GLSL 1.20; `lowp` is
	 * a plain name in GLSL 1.10 */
	fe_test_begin(&t);
	f = compile_stage(&t,
		"#version 120\n"
		"const float big = 3.40282347E+38;\n"
		"const float d = dFdx(2.0) + fwidth(1.0);\n"
		"void main() { gl_FragColor = vec4(big / 3.40282347E+38, d, 0.0, 1.0); }\n",
		GLSL_STAGE_FRAGMENT);
	float o[4];
	run(f, NULL, NULL, 0, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 1, 0, 0, 1);
	fe_test_end(&t);

	/* the f suffix: a warning in GLSL 1.10 (drivers take it), an error in ES */
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, "void main() { gl_FragColor = vec4(2.5f); }\n"));
	assert_diag(&t, "t.frag:1:35: warning: floating-point suffix in '2.5f' needs GLSL 1.20");
	fe_test_end(&t);
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#version 100\nprecision mediump float;\n"
				   "void main() { gl_FragColor = vec4(2.5f); }\n"));
	assert_diag(&t, "t.frag:3:35: error: floating-point suffix in '2.5f' needs GLSL 1.20");
	fe_test_end(&t);

	fe_test_begin(&t);
	assert_null(fe_compile(&t, "void main() { float x = 1e39; }\n"));
	assert_diag(&t, "t.frag:1:25: error: floating-point constant '1e39' is too large");
	fe_test_end(&t);

	fe_test_begin(&t);
	f = compile_stage(&t, "#version 110\nvoid main() { float lowp = 0.5; float highp = lowp;\n"
			      "  gl_FragColor = vec4(highp); }\n", GLSL_STAGE_FRAGMENT);
	run(f, NULL, NULL, 0, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 0.5f, 0.5f, 0.5f, 0.5f);
	fe_test_end(&t);
}

static void test_implicit_sizes_and_dead_branches(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* arrays sized by their largest index (or a later redeclaration) are
	 * read and written at that size; a branch a constant condition never
	 * takes is not lowered, so its call of a function never defined is
	 * no error (piglit glsl-vec-array, glsl-const-folding-01) */
	struct ir_func *f = compile_stage(&t,
		"#version 120\n"
		"vec2 a1[];\n"
		"float b[];\n"
		"void undefined_fn();\n"
		"void main() {\n"
		"  a1[3].y = 1.0;\n"
		"  float c[]; c[1] = 4.0;\n"
		"  b[2] = 3.0;\n"
		"  if (sqrt(4.0) != 2.0) undefined_fn();\n"
		"  b[5] = 6.0;\n"
		"  gl_FragColor = vec4(abs(a1[3]).y, c[1], b[2], b[5]);\n"
		"}\n"
		"float b[6];\n",
		GLSL_STAGE_FRAGMENT);
	float o[4];
	run(f, NULL, NULL, 0, NULL, NULL, 0, "gl_FragColor", o);
	assert_vec4_near(o, 1, 4, 3, 6);
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sampler_in_struct),
		cmocka_unit_test(test_sampler_struct_errors),
		cmocka_unit_test(test_dynamic_struct_stores),
		cmocka_unit_test(test_state_uniforms),
		cmocka_unit_test(test_vertex_shader),
		cmocka_unit_test(test_extension_warnings),
		cmocka_unit_test(test_es_scoping_and_redeclaration),
		cmocka_unit_test(test_effects_run_once),
		cmocka_unit_test(test_unroll_budget_and_constants),
		cmocka_unit_test(test_implicit_sizes_and_dead_branches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
