/* Parser and type-checker diagnostics: exact file:line:col and message,
 * every error of a run reported, no cascades. */
#include <stdio.h>

#include "fe_test.h"
#include "types.h"

static void check(const char *src, const char *const *expect, int nexpect, int nerrors)
{
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_compile(&t, src));
	for (int i = 0; i < nexpect; i++)
		assert_diag(&t, expect[i]);
	if (nerrors >= 0 && t.diag.errors != nerrors)
		fail_msg("expected %d errors, got %d:\n%s", nerrors, t.diag.errors, t.diags);
	fe_test_end(&t);
}

#define CHECK(src, n, ...)                                                    \
	do {                                                                  \
		const char *const e_[] = { __VA_ARGS__ };                     \
		check((src), e_, (int)(sizeof e_ / sizeof e_[0]), (n));       \
	} while (0)

static void test_undeclared_and_assign(void **state)
{
	(void)state;
	CHECK("uniform vec4 u;\n"
	      "varying vec3 n;\n"
	      "void main()\n"
	      "{\n"
	      "\tu = vec4(1.0);\n"
	      "\tfloat x = foo;\n"
	      "\tfloat y = foo + 1.0;\n"
	      "\tn.x = 2.0;\n"
	      "\tgl_FragCoord = vec4(0.0);\n"
	      "}\n",
	      4,
	      "t.frag:5:2: error: cannot assign to a uniform ('u')",
	      "t.frag:6:12: error: 'foo' undeclared",
	      "t.frag:8:2: error: cannot assign to a varying in a fragment shader ('n')",
	      "t.frag:9:2: error: cannot assign to a read-only variable ('gl_FragCoord')");
	/* 'foo' on line 7 is not reported again */
}

static void test_overloads(void **state)
{
	(void)state;
	CHECK("varying vec3 n;\n"
	      "void main() {\n"
	      "  vec3 a = mix(n, 1.0, true);\n"
	      "  float d = dot(n, vec2(1.0));\n"
	      "  vec4 t = texture3D(n, n);\n"
	      "  float q = nosuch(1.0);\n"
	      "}\n",
	      4,
	      "t.frag:3:12: error: no matching overload for 'mix(vec3, float, bool)'",
	      "t.frag:4:13: error: no matching overload for 'dot(vec3, vec2)'",
	      "t.frag:5:12: error: no matching overload for 'texture3D(vec3, vec3)'",
	      "t.frag:6:13: error: function 'nosuch' undeclared");
}

static void test_types(void **state)
{
	(void)state;
	CHECK("void main() {\n"
	      "  int i = 1.0;\n"
	      "  vec3 v = vec3(1.0, 2.0);\n"
	      "  mat2 m = mat2(1.0, 2.0, 3.0, 4.0, 5.0);\n"
	      "  vec2 q = v.xw;\n"
	      "  v.xx = vec2(1.0);\n"
	      "  vec3 w = v + vec2(1.0);\n"
	      "  bool b = 1.0;\n"
	      "  if (v.x) {}\n"
	      "  float f = 1 + 2.0;\n"
	      "}\n",
	      9,
	      "t.frag:2:11: error: cannot initialize int 'i' with float",
	      "t.frag:3:12: error: not enough components for constructor 'vec3' (2 of 3)",
	      "t.frag:4:37: error: too many arguments to constructor 'mat2'",
	      "t.frag:5:14: error: swizzle 'xw' reads past the end of a vec3",
	      "t.frag:6:5: error: swizzle 'xx' repeats a component: cannot assign to it",
	      "t.frag:7:14: error: invalid operands to '+' (vec3 and vec2)",
	      "t.frag:8:12: error: cannot initialize bool 'b' with float",
	      "t.frag:9:9: error: the condition of 'if' must be a bool, not float",
	      "t.frag:10:15: error: invalid operands to '+' (int and float)");
}

static void test_syntax_recovery(void **state)
{
	(void)state;
	/* two syntax errors in separate statements are both reported */
	CHECK("void main() {\n"
	      "  float a = 1.0 +;\n"
	      "  float b = 2.0;\n"
	      "  b = b * * 2.0;\n"
	      "  gl_FragColor = vec4(b);\n"
	      "}\n",
	      2,
	      "t.frag:2:18: error: syntax error, unexpected ';'",
	      "t.frag:4:11: error: syntax error, unexpected '*'");
}

static void test_declarations(void **state)
{
	(void)state;
	CHECK("uniform float u = 1.0;\n"
	      "attribute vec4 a;\n"
	      "const float c;\n"
	      "float x;\n"
	      "float x;\n"
	      "varying int vi;\n"
	      "float gl_Foo;\n"
	      "void f(float a) {}\n"
	      "void main() { const float k = x; }\n",
	      7,
	      "t.frag:1:19: error: uniform variables cannot have initializers",
	      "t.frag:2:1: error: an attribute in a fragment shader is not allowed",
	      "t.frag:3:13: error: const 'c' needs an initializer",
	      "t.frag:5:7: error: 'x' redeclared in the same scope",
	      "t.frag:6:1: error: a varying or attribute that is not float, vector or matrix is not allowed",
	      "t.frag:7:7: error: names beginning with 'gl_' are reserved: 'gl_Foo'",
	      "t.frag:9:31: error: initializer of const 'k' is not a constant expression");
}

static void test_functions(void **state)
{
	(void)state;
	CHECK("float f(float x) { return g(x); }\n"
	      "float g(float x) { return f(x); }\n"
	      "float h(float x) { return; }\n"
	      "void main() { break; }\n",
	      -1,
	      "t.frag:1:27: error: function 'g' undeclared",
	      "t.frag:3:20: error: a function returning float must return a value",
	      "t.frag:4:15: error: 'break' outside a loop");
	CHECK("float f(float x);\n"
	      "float g(float x) { return f(x); }\n"
	      "float f(float x) { return g(x); }\n"
	      "void main() { gl_FragColor = vec4(f(1.0)); }\n",
	      1, "error: function 'f' is recursive");
	CHECK("void foo() {}\n", 1, "t.frag: error: no definition of 'void main()'");
}

static void test_versions(void **state)
{
	(void)state;
	/* arrays constructors and 1.20-only features */
	CHECK("void main() { float a[2] = float[2](1.0, 2.0); }\n", -1,
	      "t.frag:1:28: error: array types need GLSL 1.20");
	CHECK("#version 100\nvoid main() { float a = 1.0; }\n", 1,
	      "t.frag:2:15: error: no precision given for 'float' and no default float precision");
	CHECK("void main() { int a = 5 % 2; }\n", 1,
	      "t.frag:1:25: error: operator '%' is reserved in this GLSL version");
	CHECK("void main() { float double = 1.0; }\n", -1, "t.frag:1:21: error: 'double' is a reserved word");
}

static void test_accepts(void **state)
{
	(void)state;
	const char *ok[] = {
		"#version 120\nvoid main() { float a[2] = float[](1.0, 2.0); int n = a.length(); "
		"float f = 1 + 2.0; mat3 m = mat3(mat2(1.0)); gl_FragColor = vec4(a[1], f, m[2][2], float(n)); }\n",
		"#version 100\nprecision mediump float;\nuniform lowp sampler2D s;\nvarying vec2 uv;\n"
		"void main() { gl_FragColor = texture2D(s, uv); }\n",
		"struct L { vec3 dir; float k; };\nuniform L light;\nvoid main() { }\n",
		"void f(out float x, inout vec2 y) { x = 1.0; y += vec2(x); }\n"
		"void main() { float a; vec2 b = vec2(0.0); f(a, b); gl_FragColor = vec4(a, b, 1.0); }\n",
		"void main() { for (int i = 0; i < 4; i++) { if (i == 2) continue; } "
		"while (false) {} do { } while (false); }\n",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct fe_test t;
		fe_test_begin(&t);
		struct glsl_options o = { .stage = GLSL_STAGE_FRAGMENT };
		if (!glsl_check(ok[i], "t.frag", &o, t.arena, &t.diag))
			fail_msg("shader %zu rejected:\n%s", i, diag_render(&t.diag));
		fe_test_end(&t);
	}
}

/* Diagnostics come out in source order whatever stage found them. */
static void test_source_order(void **state)
{
	(void)state;
	struct fe_test t;
	fe_test_begin(&t);
	assert_null(fe_compile(&t, "uniform float u;\n"
				   "void main() {\n"
				   "  u = 1.0;\n"
				   "  float x = 1.0 +;\n"
				   "}\n"));
	const char *a = strstr(t.diags, "t.frag:3:3: error: cannot assign to a uniform ('u')");
	const char *b = strstr(t.diags, "t.frag:4:18: error: syntax error");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);
	fe_test_end(&t);
}

/* Every reserved word is an error where a name would stand (the scanner
 * picks them out; a word missing from its rule would pass silently). */
static void test_reserved_words(void **state)
{
	(void)state;
	static const char *const words[] = {
		"asm", "class", "union", "enum", "typedef", "template", "this", "packed",
		"goto", "switch", "default", "inline", "noinline", "volatile", "public",
		"static", "extern", "external", "interface", "long", "short", "double",
		"half", "fixed", "unsigned", "input", "output", "hvec2", "hvec3", "hvec4",
		"dvec2", "dvec3", "dvec4", "fvec2", "fvec3", "fvec4", "sampler3DRect",
		"sizeof", "cast", "namespace", "using", "superp", "flat", "smooth",
		"noperspective", "case", "sampler1DArray", "sampler2DArray", "uint",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		char src[128], want[128];
		snprintf(src, sizeof src, "void main() { float %s = 1.0; }\n", words[i]);
		snprintf(want, sizeof want, "t.frag:1:21: error: '%s' is a reserved word", words[i]);
		CHECK(src, -1, want);
	}
	/* a longer name that starts with one is a plain name */
	struct fe_test t;
	fe_test_begin(&t);
	assert_non_null(fe_compile(&t, "void main() { float asmx = 1.0, doubles = 2.0, "
				       "vec2x = 3.0, int_ = 4.0, structs = 5.0; "
				       "gl_FragColor = vec4(asmx + doubles + vec2x + int_ + structs); }\n"));
	fe_test_end(&t);
}

/* Keywords of later dialects are names in earlier ones. */
static void test_dialect_keywords(void **state)
{
	(void)state;
	static const char *const later[] = { "invariant", "centroid", "precision", "lowp",
					     "mediump", "highp" };
	for (size_t i = 0; i < sizeof later / sizeof later[0]; i++) {
		char src[160];
		snprintf(src, sizeof src, "#version 110\nvoid main() { float %s = 0.5; "
			 "gl_FragColor = vec4(%s); }\n", later[i], later[i]);
		struct fe_test t;
		fe_test_begin(&t);
		if (!fe_compile(&t, src))
			fail_msg("'%s' as a GLSL 1.10 name: %s", later[i], t.diags);
		fe_test_end(&t);
		snprintf(src, sizeof src, "#version 120\nvoid main() { float %s = 0.5; }\n",
			 later[i]);
		fe_test_begin(&t);
		assert_null(fe_compile(&t, src));
		fe_test_end(&t);
	}
}

/* glsl_type_by_name reads the name's shape: every built-in name, the
 * matNxN spellings, and near misses. */
static void test_type_names(void **state)
{
	(void)state;
	static const char *const names[] = {
		"void", "bool", "int", "float", "vec2", "vec3", "vec4", "bvec2", "bvec3",
		"bvec4", "ivec2", "ivec3", "ivec4", "mat2", "mat3", "mat4", "mat2x3", "mat2x4",
		"mat3x2", "mat3x4", "mat4x2", "mat4x3", "sampler1D", "sampler2D", "sampler3D",
		"samplerCube", "sampler1DShadow", "sampler2DShadow", "sampler2DRect",
		"sampler2DRectShadow",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct glsl_type *t = glsl_type_by_name(names[i]);
		assert_non_null(t);
		assert_string_equal(t->name, names[i]);
	}
	assert_ptr_equal(glsl_type_by_name("mat2x2"), glsl_type_mat(2, 2));
	assert_ptr_equal(glsl_type_by_name("mat3x3"), glsl_type_mat(3, 3));
	assert_ptr_equal(glsl_type_by_name("mat4x4"), glsl_type_mat(4, 4));
	assert_ptr_equal(glsl_type_by_name("ivec3"), glsl_type_vec(GLSL_INT, 3));
	assert_ptr_equal(glsl_type_by_name("bvec2"), glsl_type_vec(GLSL_BOOL, 2));
	static const char *const misses[] = {
		"", "v", "vec", "vec1", "vec5", "vec22", "bvec", "ivec", "ivec1", "fvec2",
		"uvec2", "bvec2x", "mat", "mat1", "mat5", "mat2x", "mat2x1", "mat2x5", "mat2x3x",
		"mat22", "matx2", "floats", "float2", "voids", "boolean", "integer", "in",
		"sampler", "sampler2", "sampler4D", "sampler2DArray", "samplerCubeShadow", "x",
	};
	for (size_t i = 0; i < sizeof misses / sizeof misses[0]; i++)
		if (glsl_type_by_name(misses[i]))
			fail_msg("'%s' taken for a type", misses[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_undeclared_and_assign),
		cmocka_unit_test(test_overloads),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_syntax_recovery),
		cmocka_unit_test(test_declarations),
		cmocka_unit_test(test_functions),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_source_order),
		cmocka_unit_test(test_reserved_words),
		cmocka_unit_test(test_dialect_keywords),
		cmocka_unit_test(test_type_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
