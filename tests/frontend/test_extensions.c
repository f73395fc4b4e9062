/* The extensions of an R500 driver (frontend/extensions.def): each one's
 * macro in its dialect only, what it declares only while it is on (with
 * the error saying which #extension is missing), and the IR it lowers to:
 * LOD lookups in fragment shaders, explicit gradients (grad kinds),
 * gl_FragDepthEXT, gl_FragData beyond [0], sampler3D and
 * samplerExternalOES in ES. */
#include "fe_test.h"

#include <stdio.h>

#include "ir.h"
#include "ir_eval.h"

/* A TEX instruction of the function (the first one). */
static void first_tex(struct ir_instr *in, void *ud)
{
	struct ir_instr **t = ud;
	if (in->op == IR_OP_TEX && !*t)
		*t = in;
}

static struct ir_instr *tex_of(struct ir_func *f)
{
	struct ir_instr *t = NULL;
	ir_foreach_instr(f, first_tex, &t);
	assert_non_null(t);
	return t;
}

static void test_macros_by_dialect(void **state)
{
	(void)state;
	static const char desk[] =
		"#if GL_ARB_shader_texture_lod != 1 || GL_ARB_texture_rectangle != 1\n#error desk\n#endif\n"
		"#if defined GL_OES_standard_derivatives || defined GL_EXT_frag_depth || "
		"defined GL_OES_EGL_image_external\n#error es\n#endif\n";
	static const char es[] =
		"#version 100\n"
		"#if !GL_EXT_shader_texture_lod || !GL_OES_standard_derivatives || !GL_EXT_frag_depth\n"
		"#error es1\n#endif\n"
		"#if !GL_EXT_draw_buffers || !GL_OES_texture_3D || !GL_OES_EGL_image_external\n"
		"#error es2\n#endif\n"
		"#if defined GL_ARB_shader_texture_lod || defined GL_ARB_texture_rectangle\n#error desk\n#endif\n";
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(fe_pp(&t, desk, NULL, 0));
	fe_test_end(&t);
	fe_test_begin(&t);
	assert_non_null(fe_pp(&t, es, NULL, 0));
	fe_test_end(&t);
	/* the macros are built in: no #undef */
	fe_test_begin(&t);
	assert_null(fe_pp(&t, "#undef GL_ARB_shader_texture_lod\n", NULL, 0));
	fe_test_end(&t);
	/* an extension of the other dialect is not supported */
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "#extension GL_OES_standard_derivatives : require\nvoid main() {}\n"));
	assert_diag(&t, "t.frag:1:12: error: extension 'GL_OES_standard_derivatives' is not supported");
	fe_test_end(&t);
}

/* Each source compiles with its #extension line and fails without it,
 * with the error naming the extension. */
static void test_declared_only_when_on(void **state)
{
	(void)state;
	static const struct {
		const char *ext, *body, *diag;
	} cases[] = {
		{ "#extension GL_ARB_shader_texture_lod : enable\n",
		  "uniform sampler2D s;\nvoid main() { gl_FragColor = texture2DGradARB(s, vec2(0.5), "
		  "vec2(0.1), vec2(0.2)); }\n",
		  "function 'texture2DGradARB' undeclared: it needs '#extension GL_ARB_shader_texture_lod" },
		{ "#version 100\n#extension GL_EXT_shader_texture_lod : enable\n",
		  "uniform sampler2D s;\nvoid main() { gl_FragColor = texture2DLodEXT(s, vec2(0.5), 1.0); }\n",
		  "function 'texture2DLodEXT' undeclared: it needs '#extension GL_EXT_shader_texture_lod" },
		{ "#version 100\n#extension GL_OES_standard_derivatives : enable\n",
		  "precision mediump float;\nvarying vec2 v;\n"
		  "void main() { gl_FragColor = vec4(dFdx(v.x), dFdy(v.y), fwidth(v)); }\n",
		  "function 'dFdx' undeclared: it needs '#extension GL_OES_standard_derivatives" },
		{ "#version 100\n#extension GL_EXT_frag_depth : enable\n",
		  "void main() { gl_FragColor = vec4(1.0); gl_FragDepthEXT = 0.5; }\n",
		  "'gl_FragDepthEXT' undeclared: it needs '#extension GL_EXT_frag_depth" },
		{ "#version 100\n#extension GL_EXT_draw_buffers : enable\n",
		  "void main() { gl_FragData[0] = vec4(1.0); gl_FragData[3] = vec4(0.5); }\n",
		  "writing gl_FragData other than [0] needs '#extension GL_EXT_draw_buffers : enable'" },
		{ "#version 100\n#extension GL_OES_texture_3D : enable\n",
		  "precision mediump float;\nuniform sampler3D s;\n"
		  "void main() { gl_FragColor = texture3D(s, vec3(0.5)); }\n",
		  "'sampler3D' needs '#extension GL_OES_texture_3D : enable'" },
		{ "#version 100\n#extension GL_OES_EGL_image_external : require\n",
		  "precision mediump float;\nuniform samplerExternalOES s;\n"
		  "void main() { gl_FragColor = texture2D(s, vec2(0.5)); }\n",
		  "syntax error" /* without it, samplerExternalOES is a name */ },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char on[1024], off[1024];
		snprintf(on, sizeof on, "%s%s", cases[i].ext, cases[i].body);
		/* without the #extension line, keeping a #version line */
		const char *v = strncmp(cases[i].ext, "#version 100\n", 13) == 0 ? "#version 100\n" : "";
		snprintf(off, sizeof off, "%s%s", v, cases[i].body);
		struct fe_test t;
		fe_test_begin(&t);
		if (!fe_compile(&t, on))
			fail_msg("case %zu with its extension:\n%s", i, t.diags);
		fe_test_end(&t);
		fe_test_begin(&t);
		if (fe_compile(&t, off))
			fail_msg("case %zu compiled without its extension", i);
		assert_diag(&t, cases[i].diag);
		fe_test_end(&t);
	}
}

/* Lookups lower to the TEX kinds, gradients as whole vectors. */
static void test_lookup_kinds(void **state)
{
	(void)state;
	static const struct {
		const char *src;
		enum ir_tex_kind kind;
		int nsrc, grad_ncomp;
	} cases[] = {
		{ "#extension GL_ARB_shader_texture_lod : enable\nuniform sampler2D s;\nuniform float l;\n"
		  "void main() { gl_FragColor = texture2DLod(s, vec2(0.5), l); }\n", IR_TEX_LOD, 2, 1 },
		{ "#extension GL_ARB_shader_texture_lod : enable\nuniform sampler2D s;\nuniform float l;\n"
		  "void main() { gl_FragColor = texture2DProjLod(s, vec3(0.5, 0.5, 2.0), l); }\n",
		  IR_TEX_PROJ_LOD, 2, 1 },
		{ "#extension GL_ARB_shader_texture_lod : enable\nuniform samplerCube s;\nuniform vec3 g;\n"
		  "void main() { gl_FragColor = textureCubeGradARB(s, vec3(0.5), g, -g); }\n", IR_TEX_GRAD,
		  3, 3 },
		{ "#extension GL_ARB_shader_texture_lod : enable\nuniform sampler1D s;\nuniform float g;\n"
		  "void main() { gl_FragColor = texture1DProjGradARB(s, vec2(0.5, 2.0), g, g); }\n",
		  IR_TEX_PROJ_GRAD, 3, 1 },
		{ "#extension GL_ARB_shader_texture_lod : enable\nuniform sampler2DShadow s;\nuniform vec2 g;\n"
		  "void main() { gl_FragColor = shadow2DGradARB(s, vec3(0.5), g, g); }\n", IR_TEX_GRAD, 3, 2 },
		{ "#version 100\n#extension GL_EXT_shader_texture_lod : enable\nprecision mediump float;\n"
		  "uniform sampler2D s;\nuniform vec2 g;\n"
		  "void main() { gl_FragColor = texture2DProjGradEXT(s, vec4(0.5), g, g); }\n",
		  IR_TEX_PROJ_GRAD, 3, 2 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fe_test t;
		fe_test_begin(&t);
		struct ir_func *f = fe_compile(&t, cases[i].src);
		if (!f)
			fail_msg("case %zu:\n%s", i, t.diags);
		struct ir_instr *tx = tex_of(f);
		assert_int_equal(tx->tex_kind, cases[i].kind);
		assert_int_equal(tx->nsrc, cases[i].nsrc);
		assert_int_equal(ir_src_ncomp(f, tx, 1), cases[i].grad_ncomp);
		fe_test_end(&t);
	}
}

/* gl_FragDepthEXT is the depth output; gl_FragData[1..3] are targets;
 * samplerExternalOES is a 2D sampler. */
static void test_outputs_and_samplers(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	struct ir_func *f = fe_compile(&t, "#version 100\n#extension GL_EXT_frag_depth : enable\n"
					   "#extension GL_EXT_draw_buffers : enable\n"
					   "#extension GL_OES_EGL_image_external : enable\n"
					   "precision mediump float;\nuniform samplerExternalOES v;\n"
					   "void main() { gl_FragData[0] = texture2D(v, vec2(0.5));\n"
					   "  gl_FragData[3] = vec4(0.25); gl_FragDepthEXT = 0.5; }\n");
	if (!f)
		fail_msg("%s", t.diags);
	assert_true(ir_func_find_output(f, "gl_FragDepth") >= 0);
	assert_true(ir_func_find_output(f, "gl_FragData[3]") >= 0);
	assert_int_equal(f->nsamplers, 1);
	assert_int_equal(f->samplers[0].target, IR_TARGET_2D);
	fe_test_end(&t);
}

/* `warn` warns at each use of what the extension adds. */
static void test_warn_on_use(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, "#version 100\n#extension GL_OES_standard_derivatives : warn\n"
				       "precision mediump float;\nvarying float v;\n"
				       "void main() { gl_FragColor = vec4(dFdx(v)); }\n"));
	assert_int_equal(t.diag.warnings, 1);
	assert_diag(&t, "t.frag:5:35: warning: 'dFdx' uses extension GL_OES_standard_derivatives, "
			"which is set to warn");
	fe_test_end(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_macros_by_dialect),
		cmocka_unit_test(test_declared_only_when_on),
		cmocka_unit_test(test_lookup_kinds),
		cmocka_unit_test(test_outputs_and_samplers),
		cmocka_unit_test(test_warn_on_use),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
