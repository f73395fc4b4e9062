/* Lowering to IR: tables (inputs, uniforms, samplers, outputs), structure,
 * and values computed by running the IR in the interpreter.  Expected
 * values are worked out by hand from the GLSL spec's definitions. */
#include "fe_test.h"

#include "ir.h"

/* Runs with input values given by name (missing inputs: 0). */
static void run_named(struct ir_func *f, const char *const *names, const float (*vals)[4], int n,
		      const float (*uniforms)[4], const struct tex_image *tex, int ntex, float out[4])
{
	float in[8][4];
	memset(in, 0, sizeof in);
	for (int i = 0; i < n; i++) {
		int k = ir_func_find_input(f, names[i]);
		if (k >= 0 && k < 8)
			memcpy(in[k], vals[i], sizeof in[k]);
	}
	if (!fe_run(f, (const float (*)[4])in, uniforms, tex, ntex, 0, out))
		fail_msg("interpreter failed or output not written");
}

static void test_constant_color(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "void main() { gl_FragColor = vec4(0.25, 0.5, 0.75, 1.0); }\n");
	assert_int_equal(f->noutputs, 1);
	assert_string_equal(f->outputs[0].name, "gl_FragColor");
	assert_int_equal(f->outputs[0].target, 0);
	assert_int_equal(f->ninputs, 0);
	assert_int_equal(fe_count_op(f, IR_OP_OUTPUT), 1);
	float o[4];
	run_named(f, NULL, NULL, 0, NULL, NULL, 0, o);
	assert_vec4_near(o, 0.25f, 0.5f, 0.75f, 1.0f);
	fe_test_end(&t);
}

static void test_inputs_uniforms(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"uniform vec4 unused;\n"
		"uniform mat4 big;\n"
		"varying vec2 uv;\n"
		"varying vec3 never;\n"
		"void main() { gl_FragColor = vec4(uv * 2.0, u.x + u.y, 1.0); }\n");
	/* unused uniforms and varyings are not in the tables */
	assert_int_equal(f->nuniforms, 1);
	assert_string_equal(f->uniforms[0].name, "u");
	assert_string_equal(f->uniforms[0].type, "vec4");
	assert_int_equal(f->uniforms[0].nvec4, 1);
	assert_int_equal(f->ninputs, 1);
	assert_string_equal(f->inputs[0].name, "uv");
	assert_int_equal(f->inputs[0].ncomp, 2);
	const char *names[] = { "uv" };
	const float vals[][4] = { { 0.25f, 0.5f, 0, 0 } };
	const float uni[][4] = { { 1, 2, 3, 4 } };
	float o[4];
	run_named(f, names, vals, 1, uni, NULL, 0, o);
	assert_vec4_near(o, 0.5f, 1.0f, 3.0f, 1.0f);
	fe_test_end(&t);
}

static void test_matrices(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* m has columns (1,2) and (3,4): m * v = (1+3, 2+4) for v = (1,1);
	 * v * m = (dot(v, col0), dot(v, col1)) = (3, 7) */
	struct ir_func *f = fe_compile_ok(&t,
		"uniform mat2 m;\n"
		"void main() { vec2 v = vec2(1.0); gl_FragColor = vec4(m * v, v * m); }\n");
	assert_int_equal(f->nuniforms, 1);
	assert_string_equal(f->uniforms[0].type, "mat2");
	assert_int_equal(f->uniforms[0].nvec4, 2);
	assert_int_equal(f->uniforms[0].ncomp, 2);
	const float uni[][4] = { { 1, 2, 0, 0 }, { 3, 4, 0, 0 } };
	float o[4];
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	assert_vec4_near(o, 4, 6, 3, 7);
	fe_test_end(&t);

	fe_test_begin(&t);
	/* mat2(2.0) is diagonal; (diag(2) * m)[1] = 2 * (3,4); m[0][1] = 2 */
	f = fe_compile_ok(&t,
		"uniform mat2 m;\n"
		"void main() { mat2 d = mat2(2.0) * m; gl_FragColor = vec4(d[1], m[0][1], d[0].x); }\n");
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	assert_vec4_near(o, 6, 8, 2, 2);
	fe_test_end(&t);
}

static void test_swizzle_writes(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"void main() { vec4 c = vec4(1.0, 2.0, 3.0, 4.0); c.zx = vec2(9.0, 8.0);\n"
		" c.w += 1.0; c.y *= 3.0; gl_FragColor = c; }\n");
	float o[4];
	run_named(f, NULL, NULL, 0, NULL, NULL, 0, o);
	assert_vec4_near(o, 8, 6, 9, 5);
	fe_test_end(&t);
}

static void test_if_phi(void **state)
{
	(void)state;
	const char *src =
		"varying float x;\n"
		"void main() {\n"
		"  vec4 c = vec4(0.0, 0.0, 1.0, 1.0);\n"
		"  if (x > 0.5) c.r = 1.0; else { c.g = 1.0; c.b = 0.5; }\n"
		"  gl_FragColor = c;\n"
		"}\n";
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, src);
	assert_true(fe_count_op(f, IR_OP_PHI) >= 1);
	const char *names[] = { "x" };
	const float hi[][4] = { { 0.7f, 0, 0, 0 } }, lo[][4] = { { 0.2f, 0, 0, 0 } };
	float o[4];
	run_named(f, names, hi, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 1, 0, 1, 1);
	run_named(f, names, lo, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 0, 1, 0.5f, 1);
	fe_test_end(&t);
}

static void test_builtins(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* normalize((3,0,4)) = (0.6, 0, 0.8); pow(2,3) = 8 */
	struct ir_func *f = fe_compile_ok(&t,
		"void main() { vec3 n = normalize(vec3(3.0, 0.0, 4.0));\n"
		" float one = 1.0; n = normalize(n * one);\n"
		" gl_FragColor = vec4(n, pow(2.0, 3.0 * one)); }\n");
	float o[4];
	run_named(f, NULL, NULL, 0, NULL, NULL, 0, o);
	assert_vec4_near(o, 0.6f, 0, 0.8f, 8);
	fe_test_end(&t);

	fe_test_begin(&t);
	/* u = (0.5, -1, 2, 0.25) */
	f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"void main() {\n"
		" vec4 a = mix(vec4(0.0), vec4(1.0, 2.0, 3.0, 4.0), u.x);\n"          /* (.5,1,1.5,2) */
		" vec2 c = clamp(u.yz, 0.0, 1.0);\n"                                    /* (0, 1) */
		" float d = dot(u.xyz, vec3(2.0));\n"                                   /* 3 */
		" float l = length(vec2(u.z * 1.5, 4.0));\n"                            /* 5 */
		" float s = smoothstep(0.0, 1.0, u.w);\n"                               /* 0.15625 */
		" float m = mod(u.z + 3.5, 2.0);\n"                                     /* 1.5 */
		" vec3 x = cross(vec3(1.0, 0.0, 0.0), vec3(0.0, u.z * 0.5, 0.0));\n"   /* (0,0,1) */
		" float fr = fract(u.y * 1.25);\n"                                      /* 0.75 */
		" gl_FragColor = vec4(a.w + c.y, d + l, s + m + x.z, fr + max(u.w, 0.5) + step(0.3, u.w));\n"
		"}\n");
	const float uni[][4] = { { 0.5f, -1, 2, 0.25f } };
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	assert_vec4_near(o, 3, 8, 0.15625f + 1.5f + 1, 0.75f + 0.5f + 0);
	fe_test_end(&t);
}

static void test_builtin_inputs(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"void main() { gl_FragColor = gl_TexCoord[1] + gl_Color * gl_FragCoord.x *\n"
		"  (gl_FrontFacing ? 1.0 : -1.0); }\n");
	assert_int_equal(f->ninputs, 4);
	assert_true(ir_func_find_input(f, "gl_TexCoord[1]") >= 0);
	assert_true(ir_func_find_input(f, "gl_Color") >= 0);
	assert_true(ir_func_find_input(f, "gl_FragCoord") >= 0);
	assert_int_equal(f->inputs[ir_func_find_input(f, "gl_TexCoord[1]")].ncomp, 4);
	const char *names[] = { "gl_TexCoord[1]", "gl_Color", "gl_FragCoord", "gl_FrontFacing" };
	const float vals[][4] = { { 1, 2, 3, 4 }, { 0.5f, 0.25f, 0, 1 }, { 2, 0, 0, 1 }, { 1, 0, 0, 1 } };
	float o[4];
	run_named(f, names, vals, 4, NULL, NULL, 0, o);
	assert_vec4_near(o, 2, 2.5f, 3, 6);
	const float back[][4] = { { 1, 2, 3, 4 }, { 0.5f, 0.25f, 0, 1 }, { 2, 0, 0, 1 }, { 0, 0, 0, 1 } };
	run_named(f, names, back, 4, NULL, NULL, 0, o);
	assert_vec4_near(o, 0, 1.5f, 3, 2);
	fe_test_end(&t);
}

/* f run at uv = (0.5, 0.5) with two 1x1 textures, (0.1, 0.2, 0.3, 0.4)
 * on unit 0 and (0.2, 0.1, 0.0, 0.25) on unit 1. */
static void run_two_texels(struct ir_func *f, float o[4])
{
	static const float texel0[4] = { 0.1f, 0.2f, 0.3f, 0.4f };
	static const float texel1[4] = { 0.2f, 0.1f, 0.0f, 0.25f };
	struct tex_image img[2] = {
		{ .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1, .texels = texel0,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
		{ .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1, .texels = texel1,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
	};
	const char *names[] = { "uv" };
	const float vals[][4] = { { 0.5f, 0.5f, 0, 0 } };
	run_named(f, names, vals, 1, NULL, img, 2, o);
}

static void test_texture(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform sampler2D first;\n"
		"uniform sampler2D second;\n"
		"varying vec2 uv;\n"
		"void main() { gl_FragColor = texture2D(second, uv) * 2.0 + texture2D(first, uv, 1.0); }\n");
	/* units follow declaration order, not order of use */
	assert_int_equal(f->nsamplers, 2);
	assert_string_equal(f->samplers[0].name, "first");
	assert_int_equal(f->samplers[0].unit, 0);
	assert_string_equal(f->samplers[1].name, "second");
	assert_int_equal(f->samplers[1].unit, 1);
	assert_int_equal(f->samplers[1].target, IR_TARGET_2D);
	assert_int_equal(fe_count_op(f, IR_OP_TEX), 2);
	float o[4];
	run_two_texels(f, o);
	assert_vec4_near(o, 0.5f, 0.4f, 0.3f, 0.9f);
	fe_test_end(&t);
}

static void test_functions_and_loops(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"float twice(float x) { return x * 2.0; }\n"
		"void split(in vec2 v, out float a, inout float b) { a = v.x; b += v.y; }\n"
		"void main() {\n"
		"  float sum = 0.0;\n"
		"  for (int i = 0; i < 4; i++) sum += float(i);\n"            /* 6 */
		"  float a; float b = 1.0;\n"
		"  split(vec2(3.0, 4.0), a, b);\n"                              /* a 3, b 5 */
		"  gl_FragColor = vec4(sum, twice(a), b, twice(twice(0.25)));\n"
		"}\n");
	float o[4];
	run_named(f, NULL, NULL, 0, NULL, NULL, 0, o);
	assert_vec4_near(o, 6, 6, 5, 1);
	fe_test_end(&t);
}

static void test_outputs(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "uniform vec4 u; void main() { vec4 x = u; }\n");
	assert_int_equal(f->noutputs, 0);
	assert_int_equal(fe_count_op(f, IR_OP_OUTPUT), 0);
	fe_test_end(&t);

	fe_test_begin(&t);
	f = fe_compile_ok(&t, "varying float x;\n"
			   "void main() { if (x < 0.0) discard; gl_FragColor = vec4(1.0); }\n");
	assert_int_equal(fe_count_op(f, IR_OP_DISCARD), 1);
	assert_int_equal(fe_count_op(f, IR_OP_OUTPUT), 1);
	fe_test_end(&t);
}

/* Instructions carry the location of the expression they come from. */
static struct ir_instr *find_op(struct ir_func *f, enum ir_op op)
{
	for (struct ir_cf *cf = f->body.first; cf; cf = cf->next)
		if (cf->kind == IR_CF_BLOCK)
			for (struct ir_instr *in = cf->block.first; in; in = in->next)
				if (in->op == op)
					return in;
	return NULL;
}

static void test_locations(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "uniform sampler2D s;\nvarying vec2 uv;\nvoid main() {\n"
					   "  gl_FragColor =\n      texture2D(s, uv);\n}\n");
	struct ir_instr *tex = find_op(f, IR_OP_TEX);
	assert_non_null(tex);
	assert_string_equal(tex->loc.file, "t.frag");
	assert_int_equal(tex->loc.line, 5);
	assert_int_equal(tex->loc.col, 7);
	fe_test_end(&t);
}

static void assert_init(const struct ir_func *f, const char *name, int elem, float x, float y,
			float z, float w)
{
	int u = ir_func_find_uniform(f, name);
	if (u < 0 || !f->uniforms[u].init)
		fail_msg("uniform '%s' has no initializer", name);
	assert_true(elem < f->uniforms[u].nvec4);
	const float want[4] = { x, y, z, w };
	assert_memory_equal(f->uniforms[u].init[elem], want, sizeof want);
}

/* GLSL 1.20 4.3.5: a uniform's initializer is its value until the
 * application sets one; the IR table carries it per vec4 element, in the
 * flattened order (matrix columns, array elements, struct members). */
static void test_uniform_initializers(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "#version 120\nuniform float k = 2.0;\n"
				       "uniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);\n"
				       "struct S { vec3 a; bool b[2]; };\n"
				       "uniform S s = S(vec3(0.5), bool[2](true, false));\n"
				       "uniform int n = 3;\n"
				       "uniform vec2 none;\n"
				       "void main() {\n"
				       "  gl_FragColor = vec4(k) + vec4(m[1], none) +\n"
				       "                 vec4(s.a, s.b[1] ? 1.0 : 0.0) + float(n);\n}\n");
	assert_init(f, "k", 0, 2, 0, 0, 0);
	assert_init(f, "m", 0, 1, 2, 0, 0);
	assert_init(f, "m", 1, 3, 4, 0, 0);
	assert_init(f, "s.a", 0, 0.5f, 0.5f, 0.5f, 0);
	assert_init(f, "s.b", 0, 1, 0, 0, 0);
	assert_init(f, "s.b", 1, 0, 0, 0, 0);
	assert_init(f, "n", 0, 3, 0, 0, 0);
	int none = ir_func_find_uniform(f, "none");
	assert_true(none >= 0);
	assert_null(f->uniforms[none].init);
	/* run with the defaults: (2) + (3, 4, 0, 0) + (0.5, 0.5, 0.5, 0) + 3 */
	float vals[16][4];
	assert_true(f->nuniform_vec4 <= 16);
	ir_uniform_defaults(f, vals);
	float out[4];
	assert_true(fe_run(f, NULL, (const float(*)[4])vals, NULL, 0, 0, out));
	assert_vec4_near(out, 8.5f, 9.5f, 5.5f, 5.0f);
	fe_test_end(&t);

	/* an aggregate initializer must be constant too */
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#version 120\nuniform float u;\n"
				   "uniform float a[2] = float[2](u, 1.0);\n"
				   "void main() { gl_FragColor = vec4(a[1]); }\n"));
	assert_diag(&t, "t.frag:3:22: error: the initializer of uniform 'a' is not a constant "
			"expression");
	fe_test_end(&t);
}

static void test_vertex_and_fragdata(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct glsl_options o = { .stage = GLSL_STAGE_VERTEX };
	struct ir_func *f = glsl_to_ir(
		"varying vec2 v_uv;\n"
		"void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
		"  v_uv = gl_MultiTexCoord0.xy; gl_TexCoord[2] = gl_Color; }\n",
		"t.vert", &o, t.arena, &t.diag);
	if (!f)
		fail_msg("%s", diag_render(&t.diag));
	assert_true(ir_validate(f, &t.diag));
	assert_int_equal(f->stage, IR_STAGE_VERTEX);
	assert_int_equal(f->noutputs, 3);
	assert_true(ir_func_find_output(f, "gl_Position") >= 0);
	assert_true(ir_func_find_output(f, "v_uv") >= 0);
	assert_true(ir_func_find_output(f, "gl_TexCoord[2]") >= 0);
	assert_int_equal(f->outputs[ir_func_find_output(f, "v_uv")].ncomp, 2);
	assert_true(ir_func_find_input(f, "gl_Vertex") >= 0);
	assert_true(ir_func_find_uniform(f, "gl_ModelViewProjectionMatrix") >= 0);
	fe_test_end(&t);

	fe_test_begin(&t);
	/* gl_FragData: only the elements written become outputs; an unrolled
	 * loop's counter indexes arrays as a constant */
	f = fe_compile_ok(&t,
		"uniform vec4 c[3];\n"
		"void main() { vec4 s = vec4(0.0);\n"
		"  for (int i = 0; i < 3; i++) s += c[i] * float(i + 1);\n"
		"  gl_FragData[0] = s; gl_FragData[2] = c[1]; }\n");
	assert_int_equal(f->noutputs, 2);
	assert_string_equal(f->outputs[0].name, "gl_FragData[0]");
	assert_string_equal(f->outputs[1].name, "gl_FragData[2]");
	assert_int_equal(f->outputs[1].target, 2);
	assert_int_equal(f->uniforms[0].array_len, 3);
	assert_int_equal(f->uniforms[0].nvec4, 3);
	const float uni[][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 } };
	float out[4];
	run_named(f, NULL, NULL, 0, uni, NULL, 0, out);
	/* 1*c0 + 2*c1 + 3*c2 */
	assert_vec4_near(out, 1, 2, 3, 0);
	fe_test_end(&t);
}

static void test_loops(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* u = (0.3, 5, 0, 0).  while: 0.3 -> 0.6 -> 1.2, two trips.  for (bound
	 * from a uniform, so not unrolled): count += 1 runs for i = 0, 1, 2, 3;
	 * i = 1 continues, i = 3 breaks: sum = 0 + 2.  do-while: 0.25, 0.5. */
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"void main() {\n"
		"  float x = u.x; int n = 0;\n"
		"  while (x < 1.0) { x *= 2.0; n++; }\n"
		"  float sum = 0.0; float count = 0.0;\n"
		"  for (float i = 0.0; i < u.y; i += 1.0) {\n"
		"    count += 1.0;\n"
		"    if (i == 1.0) continue;\n"
		"    if (i == 3.0) break;\n"
		"    sum += i;\n"
		"  }\n"
		"  float d = 0.0;\n"
		"  do { d += 0.25; } while (d < u.x);\n"
		"  gl_FragColor = vec4(x + float(n) * 10.0, sum, count, d);\n"
		"}\n");
	/* jumps as flags, no CONTINUE: one BREAK per loop, the `for` that
	 * jumps two (its test's, then the flags' at the end of the body) */
	assert_int_equal(fe_count_op(f, IR_OP_BREAK), 4);
	assert_int_equal(fe_count_op(f, IR_OP_CONTINUE), 0);
	const float uni[][4] = { { 0.3f, 5, 0, 0 } };
	float o[4];
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	/* x = 1.2, n = 2; sum = 0 + 2 = 2; count = 4 (i = 0,1,2,3); d = 0.5 */
	assert_vec4_near(o, 21.2f, 2, 4, 0.5f);
	fe_test_end(&t);

	fe_test_begin(&t);
	/* nested loops, the inner one unrolled: sum of i*j for i < 3 (dynamic), j < 2 */
	f = fe_compile_ok(&t,
		"uniform float n;\n"
		"void main() { float s = 0.0;\n"
		"  for (float i = 0.0; i < n; i++) for (int j = 0; j < 2; j++) s += i * float(j);\n"
		"  gl_FragColor = vec4(s); }\n");
	const float un[][4] = { { 3, 0, 0, 0 } };
	run_named(f, NULL, NULL, 0, un, NULL, 0, o);
	assert_vec4_near(o, 3, 3, 3, 3);
	fe_test_end(&t);
}

static void test_dynamic_index(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* u.x = 2 (an index only known at run time) */
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"uniform vec4 arr[4];\n"
		"void main() {\n"
		"  int i = int(u.x);\n"
		"  float a[3]; a[0] = 10.0; a[1] = 20.0; a[2] = 30.0;\n"
		"  a[i - 1] = 5.0;\n"                                   /* a = 10, 5, 30 */
		"  vec4 v = vec4(1.0, 2.0, 3.0, 4.0); v[i] = 9.0;\n"    /* 1, 2, 9, 4 */
		"  mat3 m = mat3(1.0); m[i][0] = 7.0;\n"                /* column 2 = (7, 0, 1) */
		"  gl_FragColor = vec4(a[i] + a[1], v[i] + v.z, m[i].x + m[2].z, arr[i].y);\n"
		"}\n");
	const float uni[][4] = { { 2, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 },
				 { 0, 42, 0, 0 }, { 0, 0, 0, 0 } };
	float o[4];
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	assert_vec4_near(o, 35, 18, 8, 42);
	fe_test_end(&t);
}

/* A local array indexed by a non-constant is an IR array: its accesses
 * are LOADs and STOREs (no select chain in the frontend), through
 * declarations, whole-array copies, inlined in/out parameters and ==. */
static void test_dynamic_index_ir_array(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"#version 120\n"
		"uniform vec4 u;\n"
		"void fill(out vec2 r[3], float x) { r[0] = vec2(x); r[1] = vec2(2.0 * x); r[2] = vec2(3.0); }\n"
		"float pick(vec2 q[3], int k) { return q[k].y; }\n"
		"void main() {\n"
		"  int i = int(u.x);\n"
		"  vec2 a[3]; fill(a, u.y);\n"                           /* 5, 10, 3 */
		"  a[i] = vec2(7.0);\n"                                   /* i = 1: 5, 7, 3 */
		"  vec2 b[3] = a;\n"
		"  b[i - 1].x = 1.0;\n"                                   /* b = (1,5), 7, 3 */
		"  gl_FragColor = vec4(pick(a, i), b[0].x + b[0].y, float(a == b), a[i + 1].x);\n"
		"}\n");
	assert_int_equal(f->narrays, 3); /* a, b and pick's q (fill's r: constant indexes) */
	assert_string_equal(f->arrays[0].name, "a");
	assert_int_equal(f->arrays[0].length, 3);
	assert_int_equal(f->arrays[0].ncomp, 2);
	assert_true(fe_count_op(f, IR_OP_LOAD) > 0);
	assert_true(fe_count_op(f, IR_OP_STORE) > 0);
	assert_int_equal(fe_count_op(f, IR_OP_SELECT), 0);
	const float uni[][4] = { { 1, 5, 0, 0 } };
	float o[4];
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	assert_vec4_near(o, 7, 6, 0, 3);
	fe_test_end(&t);
}

/* An element never assigned is undefined in GLSL, zero in the IR: a
 * store at an index first gives the value to every element never
 * assigned (so no select chain is needed for them), except in a loop
 * the array was not declared in (a later iteration would undo the
 * earlier ones' stores). */
static void test_dynamic_store_fills_unassigned(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform vec4 u;\n"
		"void main() {\n"
		"  int i = int(u.x), j = int(u.y);\n"
		"  float a[4]; a[0] = 1.0;\n"
		"  a[i] = u.z;\n"                                 /* a[1..3] = u.z, then a[i] */
		"  float b[4];\n"
		"  for (int k = 0; k < 4; k++) b[k] = float(k);\n" /* one store, no fill */
		"  gl_FragColor = vec4(a[j], a[0], b[j], 0.0);\n"
		"}\n");
	assert_int_equal(f->narrays, 2);
	assert_int_equal(fe_count_op(f, IR_OP_STORE), 1 + 3 + 1 + 1);
	const float uni[][4] = { { 0, 2, 5, 0 } };
	float o[4];
	run_named(f, NULL, NULL, 0, uni, NULL, 0, o);
	assert_vec4_near(o, 5, 5, 2, 0);
	fe_test_end(&t);
}

static void test_structs_arrays(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"#version 120\n"
		"struct Light { vec3 color; float k[2]; };\n"
		"struct Pair { Light a; vec2 w; };\n"
		"uniform Light lights[2];\n"
		"float sum(Pair p) { return p.a.k[0] + p.a.k[1] + p.w.y; }\n"
		"void main() {\n"
		"  Pair p = Pair(lights[1], vec2(0.5, 0.25));\n"
		"  Pair q = p; q.a.k[1] = 100.0;\n"
		"  float arr[3] = float[3](1.0, 2.0, 3.0);\n"
		"  float b[3]; b = arr; b[0] = 7.0;\n"
		"  gl_FragColor = vec4(p.a.color.g, sum(p), q.a.k[1] + arr[0], b[0] + b[2]);\n"
		"  if (p == q || !(p.a == lights[1]) || b == arr) gl_FragColor = vec4(-1.0);\n"
		"}\n");
	/* one uniform entry per basic member path, only those used */
	int color = ir_func_find_uniform(f, "lights[1].color");
	int k = ir_func_find_uniform(f, "lights[1].k");
	assert_true(color >= 0);
	assert_true(k >= 0);
	assert_int_equal(ir_func_find_uniform(f, "lights[0].color"), -1);
	assert_string_equal(f->uniforms[color].type, "vec3");
	assert_int_equal(f->uniforms[k].array_len, 2);
	assert_int_equal(f->uniforms[k].nvec4, 2);
	float uni[8][4];
	memset(uni, 0, sizeof uni);
	int cb = f->uniforms[color].base, kb = f->uniforms[k].base;
	uni[cb][1] = 0.75f;
	uni[kb][0] = 2;
	uni[kb + 1][0] = 3;
	float o[4];
	run_named(f, NULL, NULL, 0, (const float (*)[4])uni, NULL, 0, o);
	/* g = 0.75; sum = 2 + 3 + 0.25; q.a.k[1] + arr[0] = 101; b = 7, 2, 3 */
	assert_vec4_near(o, 0.75f, 5.25f, 101, 10);
	fe_test_end(&t);
}

static void test_early_return(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	/* returns before the end of a function and of main; gl_FragColor
	 * written only inside branches */
	struct ir_func *f = fe_compile_ok(&t,
		"varying float x;\n"
		"float pick(float v) { if (v < 0.0) return -1.0; if (v > 1.0) return 2.0; return v; }\n"
		"void main() {\n"
		"  if (x > 5.0) { gl_FragColor = vec4(9.0); return; }\n"
		"  if (x > 0.5) gl_FragColor = vec4(pick(x), pick(-x), pick(x * 4.0), 1.0);\n"
		"  else gl_FragColor = vec4(0.0);\n"
		"}\n");
	const char *names[] = { "x" };
	const float a[][4] = { { 0.75f, 0, 0, 0 } }, b[][4] = { { 7, 0, 0, 0 } },
		    c[][4] = { { 0.25f, 0, 0, 0 } };
	float o[4];
	run_named(f, names, a, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 0.75f, -1, 2, 1);
	run_named(f, names, b, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 9, 9, 9, 9);
	run_named(f, names, c, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 0, 0, 0, 0);
	fe_test_end(&t);
}

static void test_sampler_params_and_matrix_varyings(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t,
		"uniform sampler2D pair[2];\n"
		"varying mat2 m;\n"
		"vec4 look(sampler2D s, vec2 uv) { return texture2D(s, uv); }\n"
		"void main() { gl_FragColor = look(pair[1], m[1]) + vec4(m[0], 0.0, 0.0); }\n");
	assert_int_equal(f->nsamplers, 2);
	assert_string_equal(f->samplers[0].name, "pair[0]");
	assert_string_equal(f->samplers[1].name, "pair[1]");
	assert_int_equal(f->samplers[1].unit, 1);
	assert_true(ir_func_find_input(f, "m[0]") >= 0);
	assert_true(ir_func_find_input(f, "m[1]") >= 0);
	assert_int_equal(f->inputs[ir_func_find_input(f, "m[1]")].ncomp, 2);
	static const float black[4] = { 0, 0, 0, 1 }, texel[4] = { 0.5f, 0.25f, 0.125f, 1 };
	struct tex_image img[2] = {
		{ .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1, .texels = black,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
		{ .target = IR_TARGET_2D, .width = 1, .height = 1, .depth = 1, .texels = texel,
		  .filter = TEX_FILTER_NEAREST, .wrap = TEX_WRAP_REPEAT },
	};
	const char *names[] = { "m[0]", "m[1]" };
	const float vals[][4] = { { 1, 2, 0, 0 }, { 0.5f, 0.5f, 0, 0 } };
	float o[4];
	run_named(f, names, vals, 2, NULL, img, 2, o);
	assert_vec4_near(o, 1.5f, 2.25f, 0.125f, 1);
	fe_test_end(&t);
}

/* pow with a constant integer exponent |k| <= 4 multiplies, so a negative
 * base gives x^k (real shaders rely on pow(v, 2.0) == v*v); other
 * exponents stay POW (NaN for a negative base, like EX2(LN2(x) * y)). */
static void test_pow_small_integer(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "varying vec4 v;\nvoid main() {\n"
				       "  gl_FragColor = vec4(pow(v.x, 2.0), pow(v.y, 3.0),\n"
				       "                      pow(v.z, -2.0), pow(v.w, 4.0));\n}\n");
	assert_int_equal(fe_count_op(f, IR_OP_POW), 0);
	static const char *const names[] = { "v" };
	static const float vals[][4] = { { -0.5f, -2.0f, -4.0f, -3.0f } };
	float o[4];
	run_named(f, names, vals, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 0.25f, -8.0f, 0.0625f, 81.0f);
	fe_test_end(&t);

	fe_test_begin(&t);
	f = fe_compile_ok(&t, "varying vec4 v;\nvoid main() {\n"
		       "  gl_FragColor = vec4(pow(v.x, 0.0), pow(v.y, 1.0), pow(v.z, 2.5),\n"
		       "                      pow(v.w, 16.0)) + pow(v, vec4(2.0, 3.0, 2.0, 2.0));\n}\n");
	assert_int_equal(fe_count_op(f, IR_OP_POW), 3); /* 2.5, 16.0 and the mixed vector */
	static const float pos[][4] = { { 7.0f, 0.75f, 4.0f, 0.5f } };
	run_named(f, names, pos, 1, NULL, NULL, 0, o);
	assert_vec4_near(o, 1.0f + 49.0f, 0.75f + 0.421875f, 32.0f + 16.0f,
			 1.0f / 65536.0f + 0.25f);
	fe_test_end(&t);
}

/* The frontend unrolls nothing, a loop with a constant trip count
 * neither (ir/opt_loop_unroll.c decides that): the IR has the loop and
 * counts no loop unrolled. */
static void test_loops_stay_loops(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "uniform vec4 u[4];\n"
				       "void main() { vec4 s = vec4(0.0);\n"
				       "  for (int i = 0; i < 4; i++) s += u[i];\n"
				       "  gl_FragColor = s; }\n");
	assert_int_equal(fe_count_loops(&f->body), 1);
	assert_int_equal(f->unrolled_loops, 0);
	fe_test_end(&t);
}

/* A sampler array indexed by a loop counter (a constant-index expression
 * for GLSL, not a constant for the lowering): one lookup per element, the
 * counter's selected, right on every trip of the kept loop. */
static void test_sampler_array_by_counter(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile_ok(&t, "uniform sampler2D s[2];\n"
				       "varying vec2 uv;\n"
				       "void main() { vec4 c = vec4(0.0);\n"
				       "  for (int i = 0; i < 2; i++) c += texture2D(s[i], uv) * float(i + 1);\n"
				       "  gl_FragColor = c; }\n");
	assert_int_equal(fe_count_loops(&f->body), 1);
	assert_int_equal(f->nsamplers, 2);
	assert_int_equal(fe_count_op(f, IR_OP_TEX), 2);
	float o[4];
	run_two_texels(f, o);
	assert_vec4_near(o, 0.5f, 0.4f, 0.3f, 0.9f);
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant_color),
		cmocka_unit_test(test_pow_small_integer),
		cmocka_unit_test(test_inputs_uniforms),
		cmocka_unit_test(test_matrices),
		cmocka_unit_test(test_swizzle_writes),
		cmocka_unit_test(test_if_phi),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_builtin_inputs),
		cmocka_unit_test(test_texture),
		cmocka_unit_test(test_functions_and_loops),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_locations),
		cmocka_unit_test(test_uniform_initializers),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_dynamic_index),
		cmocka_unit_test(test_dynamic_index_ir_array),
		cmocka_unit_test(test_dynamic_store_fills_unassigned),
		cmocka_unit_test(test_structs_arrays),
		cmocka_unit_test(test_early_return),
		cmocka_unit_test(test_sampler_params_and_matrix_varyings),
		cmocka_unit_test(test_vertex_and_fragdata),
		cmocka_unit_test(test_loops_stay_loops),
		cmocka_unit_test(test_sampler_array_by_counter),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
