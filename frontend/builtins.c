/* The built-in functions (signatures) and variables of GLSL 1.10, 1.20 and
 * ES 1.00 (chapters 7 and 8 of each spec).
 *
 * Signature codes, return type first:
 *   v void  f float  b bool  2 3 4 vec2..vec4
 *   g genType (float or vecN; one N per call)  V vecN (N >= 2)
 *   B bvecN  I ivecN (same N)  m any matrix (one type per call)
 *   c vecC  r vecR  M matCxR (outerProduct)  T transpose of m
 *   p sampler1D q sampler2D Q sampler3D u samplerCube h sampler1DShadow
 *   H sampler2DShadow e sampler2DRect E sampler2DRectShadow X samplerExternalOES
 * A row with an extension (FX) exists only while that extension is on. */
#include "sema.h"

#include <string.h>

#define D110 1u
#define D120 2u
#define DES 4u
#define DALL 7u
#define DDESK 3u
#define FRAG 1u
#define VERT 2u
#define SALL 3u

#define F(name, sig, op) { name, sig, SEMA_BI_##op, DALL, SALL, 0 }
#define FD(name, sig, op, d) { name, sig, SEMA_BI_##op, d, SALL, 0 }
#define FS(name, sig, op, d, s) { name, sig, SEMA_BI_##op, d, s, 0 }
#define FX(name, sig, op, d, s, e) { name, sig, SEMA_BI_##op, d, s, FE_EXT_##e + 1 }

const struct sema_bi_sig sema_bi_table[] = {
	F("radians", "gg", RADIANS), F("degrees", "gg", DEGREES), F("sin", "gg", SIN),
	F("cos", "gg", COS), F("tan", "gg", TAN), F("asin", "gg", ASIN), F("acos", "gg", ACOS),
	F("atan", "ggg", ATAN2), F("atan", "gg", ATAN),
	F("pow", "ggg", POW), F("exp", "gg", EXP), F("log", "gg", LOG), F("exp2", "gg", EXP2),
	F("log2", "gg", LOG2), F("sqrt", "gg", SQRT), F("inversesqrt", "gg", INVERSESQRT),
	F("abs", "gg", ABS), F("sign", "gg", SIGN), F("floor", "gg", FLOOR), F("ceil", "gg", CEIL),
	F("fract", "gg", FRACT), F("mod", "ggg", MOD), F("mod", "ggf", MOD),
	F("min", "ggg", MIN), F("min", "ggf", MIN), F("max", "ggg", MAX), F("max", "ggf", MAX),
	F("clamp", "gggg", CLAMP), F("clamp", "ggff", CLAMP),
	F("mix", "gggg", MIX), F("mix", "gggf", MIX),
	F("step", "ggg", STEP), F("step", "gfg", STEP),
	F("smoothstep", "gggg", SMOOTHSTEP), F("smoothstep", "gffg", SMOOTHSTEP),
	F("length", "fg", LENGTH), F("distance", "fgg", DISTANCE), F("dot", "fgg", DOT),
	F("cross", "333", CROSS), F("normalize", "gg", NORMALIZE),
	F("faceforward", "gggg", FACEFORWARD), F("reflect", "ggg", REFLECT),
	F("refract", "gggf", REFRACT),
	F("matrixCompMult", "mmm", MATRIXCOMPMULT),
	FD("outerProduct", "Mcr", OUTERPRODUCT, D120), FD("transpose", "Tm", TRANSPOSE, D120),
	F("lessThan", "BVV", LESSTHAN), F("lessThan", "BII", LESSTHAN),
	F("lessThanEqual", "BVV", LESSTHANEQUAL), F("lessThanEqual", "BII", LESSTHANEQUAL),
	F("greaterThan", "BVV", GREATERTHAN), F("greaterThan", "BII", GREATERTHAN),
	F("greaterThanEqual", "BVV", GREATERTHANEQUAL), F("greaterThanEqual", "BII", GREATERTHANEQUAL),
	F("equal", "BVV", EQUAL), F("equal", "BII", EQUAL), F("equal", "BBB", EQUAL),
	F("notEqual", "BVV", NOTEQUAL), F("notEqual", "BII", NOTEQUAL), F("notEqual", "BBB", NOTEQUAL),
	F("any", "bB", ANY), F("all", "bB", ALL), F("not", "BB", NOT),
	/* texture lookups: bias forms only in fragment shaders, Lod forms only in vertex */
	FD("texture1D", "4pf", TEX, DDESK), FS("texture1D", "4pff", TEXBIAS, DDESK, FRAG),
	FD("texture1DProj", "4p2", TEXPROJ, DDESK), FD("texture1DProj", "4p4", TEXPROJ, DDESK),
	FS("texture1DProj", "4p2f", TEXPROJBIAS, DDESK, FRAG),
	FS("texture1DProj", "4p4f", TEXPROJBIAS, DDESK, FRAG),
	FS("texture1DLod", "4pff", TEXLOD, DDESK, VERT),
	FS("texture1DProjLod", "4p2f", TEXPROJLOD, DDESK, VERT),
	FS("texture1DProjLod", "4p4f", TEXPROJLOD, DDESK, VERT),
	F("texture2D", "4q2", TEX), FS("texture2D", "4q2f", TEXBIAS, DALL, FRAG),
	F("texture2DProj", "4q3", TEXPROJ), F("texture2DProj", "4q4", TEXPROJ),
	FS("texture2DProj", "4q3f", TEXPROJBIAS, DALL, FRAG),
	FS("texture2DProj", "4q4f", TEXPROJBIAS, DALL, FRAG),
	FS("texture2DLod", "4q2f", TEXLOD, DALL, VERT),
	FS("texture2DProjLod", "4q3f", TEXPROJLOD, DALL, VERT),
	FS("texture2DProjLod", "4q4f", TEXPROJLOD, DALL, VERT),
	FD("texture3D", "4Q3", TEX, DDESK), FS("texture3D", "4Q3f", TEXBIAS, DDESK, FRAG),
	FD("texture3DProj", "4Q4", TEXPROJ, DDESK),
	FS("texture3DProj", "4Q4f", TEXPROJBIAS, DDESK, FRAG),
	FS("texture3DLod", "4Q3f", TEXLOD, DDESK, VERT),
	FS("texture3DProjLod", "4Q4f", TEXPROJLOD, DDESK, VERT),
	F("textureCube", "4u3", TEX), FS("textureCube", "4u3f", TEXBIAS, DALL, FRAG),
	FS("textureCubeLod", "4u3f", TEXLOD, DALL, VERT),
	FD("shadow1D", "4h3", TEX, DDESK), FS("shadow1D", "4h3f", TEXBIAS, DDESK, FRAG),
	FD("shadow2D", "4H3", TEX, DDESK), FS("shadow2D", "4H3f", TEXBIAS, DDESK, FRAG),
	FD("shadow1DProj", "4h4", TEXPROJ, DDESK),
	FS("shadow1DProj", "4h4f", TEXPROJBIAS, DDESK, FRAG),
	FD("shadow2DProj", "4H4", TEXPROJ, DDESK),
	FS("shadow2DProj", "4H4f", TEXPROJBIAS, DDESK, FRAG),
	FS("shadow1DLod", "4h3f", TEXLOD, DDESK, VERT), FS("shadow2DLod", "4H3f", TEXLOD, DDESK, VERT),
	FS("shadow1DProjLod", "4h4f", TEXPROJLOD, DDESK, VERT),
	FS("shadow2DProjLod", "4H4f", TEXPROJLOD, DDESK, VERT),
	FD("texture2DRect", "4e2", TEX, DDESK), FD("texture2DRectProj", "4e3", TEXPROJ, DDESK),
	FD("texture2DRectProj", "4e4", TEXPROJ, DDESK), FD("shadow2DRect", "4E3", TEX, DDESK),
	FD("shadow2DRectProj", "4E4", TEXPROJ, DDESK),
	FS("dFdx", "gg", DFDX, DDESK, FRAG), FS("dFdy", "gg", DFDY, DDESK, FRAG),
	FS("fwidth", "gg", FWIDTH, DDESK, FRAG),
	FS("ftransform", "4", FTRANSFORM, DDESK, VERT),
	FD("noise1", "fg", NOISE, DDESK), FD("noise2", "2g", NOISE, DDESK),
	FD("noise3", "3g", NOISE, DDESK), FD("noise4", "4g", NOISE, DDESK),
	/* GL_ARB_shader_texture_lod: the Lod lookups in fragment shaders too,
	 * and explicit gradients in both stages */
	FX("texture1DLod", "4pff", TEXLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture1DProjLod", "4p2f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture1DProjLod", "4p4f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture2DLod", "4q2f", TEXLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture2DProjLod", "4q3f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture2DProjLod", "4q4f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture3DLod", "4Q3f", TEXLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture3DProjLod", "4Q4f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("textureCubeLod", "4u3f", TEXLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("shadow1DLod", "4h3f", TEXLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("shadow2DLod", "4H3f", TEXLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("shadow1DProjLod", "4h4f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("shadow2DProjLod", "4H4f", TEXPROJLOD, DDESK, FRAG, ARB_TEXTURE_LOD),
	FX("texture1DGradARB", "4pfff", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture1DProjGradARB", "4p2ff", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture1DProjGradARB", "4p4ff", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture2DGradARB", "4q222", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture2DProjGradARB", "4q322", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture2DProjGradARB", "4q422", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture3DGradARB", "4Q333", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture3DProjGradARB", "4Q433", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("textureCubeGradARB", "4u333", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("shadow1DGradARB", "4h3ff", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("shadow1DProjGradARB", "4h4ff", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("shadow2DGradARB", "4H322", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("shadow2DProjGradARB", "4H422", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture2DRectGradARB", "4e222", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture2DRectProjGradARB", "4e322", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("texture2DRectProjGradARB", "4e422", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("shadow2DRectGradARB", "4E322", TEXGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	FX("shadow2DRectProjGradARB", "4E422", TEXPROJGRAD, DDESK, SALL, ARB_TEXTURE_LOD),
	/* GL_EXT_shader_texture_lod (ES, fragment shaders) */
	FX("texture2DLodEXT", "4q2f", TEXLOD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("texture2DProjLodEXT", "4q3f", TEXPROJLOD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("texture2DProjLodEXT", "4q4f", TEXPROJLOD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("textureCubeLodEXT", "4u3f", TEXLOD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("texture2DGradEXT", "4q222", TEXGRAD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("texture2DProjGradEXT", "4q322", TEXPROJGRAD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("texture2DProjGradEXT", "4q422", TEXPROJGRAD, DES, FRAG, EXT_TEXTURE_LOD),
	FX("textureCubeGradEXT", "4u333", TEXGRAD, DES, FRAG, EXT_TEXTURE_LOD),
	/* GL_OES_standard_derivatives (ES) */
	FX("dFdx", "gg", DFDX, DES, FRAG, DERIVATIVES), FX("dFdy", "gg", DFDY, DES, FRAG, DERIVATIVES),
	FX("fwidth", "gg", FWIDTH, DES, FRAG, DERIVATIVES),
	/* GL_OES_texture_3D (ES) */
	FX("texture3D", "4Q3", TEX, DES, SALL, TEXTURE_3D),
	FX("texture3D", "4Q3f", TEXBIAS, DES, FRAG, TEXTURE_3D),
	FX("texture3DProj", "4Q4", TEXPROJ, DES, SALL, TEXTURE_3D),
	FX("texture3DProj", "4Q4f", TEXPROJBIAS, DES, FRAG, TEXTURE_3D),
	FX("texture3DLod", "4Q3f", TEXLOD, DES, VERT, TEXTURE_3D),
	FX("texture3DProjLod", "4Q4f", TEXPROJLOD, DES, VERT, TEXTURE_3D),
	/* GL_OES_EGL_image_external: sampled as 2D */
	FX("texture2D", "4X2", TEX, DES, SALL, EGL_IMAGE_EXTERNAL),
	FX("texture2DProj", "4X3", TEXPROJ, DES, SALL, EGL_IMAGE_EXTERNAL),
	FX("texture2DProj", "4X4", TEXPROJ, DES, SALL, EGL_IMAGE_EXTERNAL),
};
const int sema_bi_count = sizeof sema_bi_table / sizeof sema_bi_table[0];

bool sema_bi_in_dialect(const struct fe_ctx *fe, const struct sema_bi_sig *b)
{
	unsigned d = fe->es ? DES : fe->version >= 120 ? D120 : D110;
	return (b->dialects & d) && (!b->ext || fe_ext_on(fe, (enum fe_ext)(b->ext - 1)));
}

bool sema_bi_exists(const struct fe_ctx *fe, const char *name)
{
	for (int i = 0; i < sema_bi_count; i++)
		if (strcmp(sema_bi_table[i].name, name) == 0 && sema_bi_in_dialect(fe, &sema_bi_table[i]))
			return true;
	return false;
}

/* --- built-in variables --- */

struct bi_var {
	const char *name;
	const char *type;          /* a built-in type name */
	int array_len;             /* 0: not an array */
	enum sema_builtin_var kind;
	bool read_only;
	unsigned dialects;
	unsigned stages;
	int value;                 /* SEMA_VAR_CONST */
};

static const struct bi_var bi_vars[] = {
	{ "gl_FragCoord", "vec4", 0, SEMA_VAR_FRAGCOORD, true, DALL, FRAG, 0 },
	{ "gl_FrontFacing", "bool", 0, SEMA_VAR_FRONTFACING, true, DALL, FRAG, 0 },
	{ "gl_PointCoord", "vec2", 0, SEMA_VAR_POINTCOORD, true, D120 | DES, FRAG, 0 },
	{ "gl_FragColor", "vec4", 0, SEMA_VAR_FRAGCOLOR, false, DALL, FRAG, 0 },
	{ "gl_FragData", "vec4", -1, SEMA_VAR_FRAGDATA, false, DALL, FRAG, 0 },
	{ "gl_FragDepth", "float", 0, SEMA_VAR_FRAGDEPTH, false, DDESK, FRAG, 0 },
	{ "gl_Color", "vec4", 0, SEMA_VAR_VARYING_IN, true, DDESK, FRAG, 0 },
	{ "gl_SecondaryColor", "vec4", 0, SEMA_VAR_VARYING_IN, true, DDESK, FRAG, 0 },
	{ "gl_TexCoord", "vec4", -2, SEMA_VAR_VARYING_IN, true, DDESK, FRAG, 0 },
	{ "gl_FogFragCoord", "float", 0, SEMA_VAR_VARYING_IN, true, DDESK, FRAG, 0 },
	/* vertex stage */
	{ "gl_Position", "vec4", 0, SEMA_VAR_VERTEX, false, DALL, VERT, 0 },
	{ "gl_PointSize", "float", 0, SEMA_VAR_VERTEX, false, DALL, VERT, 0 },
	{ "gl_ClipVertex", "vec4", 0, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	{ "gl_Vertex", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_Normal", "vec3", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_Color", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_SecondaryColor", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_FogCoord", "float", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord0", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord1", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord2", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord3", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord4", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord5", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord6", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_MultiTexCoord7", "vec4", 0, SEMA_VAR_VERTEX, true, DDESK, VERT, 0 },
	{ "gl_FrontColor", "vec4", 0, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	{ "gl_BackColor", "vec4", 0, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	{ "gl_FrontSecondaryColor", "vec4", 0, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	{ "gl_BackSecondaryColor", "vec4", 0, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	{ "gl_TexCoord", "vec4", -2, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	{ "gl_FogFragCoord", "float", 0, SEMA_VAR_VERTEX, false, DDESK, VERT, 0 },
	/* uniform state (compatibility); both stages */
	{ "gl_ModelViewMatrix", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ProjectionMatrix", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewProjectionMatrix", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewMatrixInverse", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ProjectionMatrixInverse", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewProjectionMatrixInverse", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewMatrixTranspose", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ProjectionMatrixTranspose", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewProjectionMatrixTranspose", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewMatrixInverseTranspose", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ProjectionMatrixInverseTranspose", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ModelViewProjectionMatrixInverseTranspose", "mat4", 0, SEMA_VAR_UNIFORM, true, DDESK,
	  SALL, 0 },
	{ "gl_NormalMatrix", "mat3", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_TextureMatrix", "mat4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_TextureMatrixInverse", "mat4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_TextureMatrixTranspose", "mat4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_TextureMatrixInverseTranspose", "mat4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_NormalScale", "float", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_TextureEnvColor", "vec4", 8, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ClipPlane", "vec4", 6, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_EyePlaneS", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_EyePlaneT", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_EyePlaneR", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_EyePlaneQ", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ObjectPlaneS", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ObjectPlaneT", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ObjectPlaneR", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_ObjectPlaneQ", "vec4", -2, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	/* struct state (types below) */
	{ "gl_DepthRange", "gl_DepthRangeParameters", 0, SEMA_VAR_UNIFORM, true, DALL, SALL, 0 },
	{ "gl_Point", "gl_PointParameters", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_FrontMaterial", "gl_MaterialParameters", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_BackMaterial", "gl_MaterialParameters", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_LightSource", "gl_LightSourceParameters", -3, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_LightModel", "gl_LightModelParameters", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_FrontLightModelProduct", "gl_LightModelProducts", 0, SEMA_VAR_UNIFORM, true, DDESK,
	  SALL, 0 },
	{ "gl_BackLightModelProduct", "gl_LightModelProducts", 0, SEMA_VAR_UNIFORM, true, DDESK,
	  SALL, 0 },
	{ "gl_FrontLightProduct", "gl_LightProducts", -3, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_BackLightProduct", "gl_LightProducts", -3, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	{ "gl_Fog", "gl_FogParameters", 0, SEMA_VAR_UNIFORM, true, DDESK, SALL, 0 },
	/* implementation constants, R500 values */
	{ "gl_MaxLights", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 8 },
	{ "gl_MaxClipPlanes", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 6 },
	{ "gl_MaxTextureUnits", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 8 },
	{ "gl_MaxTextureCoords", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 8 },
	{ "gl_MaxVertexAttribs", "int", 0, SEMA_VAR_CONST, true, DALL, SALL, 16 },
	{ "gl_MaxVertexUniformComponents", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 1024 },
	{ "gl_MaxVaryingFloats", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 40 },
	{ "gl_MaxVertexTextureImageUnits", "int", 0, SEMA_VAR_CONST, true, DALL, SALL, 0 },
	{ "gl_MaxCombinedTextureImageUnits", "int", 0, SEMA_VAR_CONST, true, DALL, SALL, 16 },
	{ "gl_MaxTextureImageUnits", "int", 0, SEMA_VAR_CONST, true, DALL, SALL, 16 },
	{ "gl_MaxFragmentUniformComponents", "int", 0, SEMA_VAR_CONST, true, DDESK, SALL, 1024 },
	{ "gl_MaxDrawBuffers", "int", 0, SEMA_VAR_CONST, true, DALL, SALL, 4 },
	{ "gl_MaxVertexUniformVectors", "int", 0, SEMA_VAR_CONST, true, DES, SALL, 256 },
	{ "gl_MaxVaryingVectors", "int", 0, SEMA_VAR_CONST, true, DES, SALL, 10 },
	{ "gl_MaxFragmentUniformVectors", "int", 0, SEMA_VAR_CONST, true, DES, SALL, 256 },
};

static int bi_array_len(int code)
{
	return code == -1 ? 4 /* gl_MaxDrawBuffers */ : code == -2 ? 8 /* gl_MaxTextureCoords */
	       : code == -3 ? 8 /* gl_MaxLights */ : code;
}

/* The built-in struct types of the state uniforms (7.5 of the specs). */
struct bi_struct {
	const char *name;
	unsigned dialects;
	const char *fields; /* "type name;" ... */
};

static const struct bi_struct bi_structs[] = {
	{ "gl_DepthRangeParameters", DALL, "float near; float far; float diff;" },
	{ "gl_PointParameters", DDESK,
	  "float size; float sizeMin; float sizeMax; float fadeThresholdSize; "
	  "float distanceConstantAttenuation; float distanceLinearAttenuation; "
	  "float distanceQuadraticAttenuation;" },
	{ "gl_MaterialParameters", DDESK,
	  "vec4 emission; vec4 ambient; vec4 diffuse; vec4 specular; float shininess;" },
	{ "gl_LightSourceParameters", DDESK,
	  "vec4 ambient; vec4 diffuse; vec4 specular; vec4 position; vec4 halfVector; "
	  "vec3 spotDirection; float spotExponent; float spotCutoff; float spotCosCutoff; "
	  "float constantAttenuation; float linearAttenuation; float quadraticAttenuation;" },
	{ "gl_LightModelParameters", DDESK, "vec4 ambient;" },
	{ "gl_LightModelProducts", DDESK, "vec4 sceneColor;" },
	{ "gl_LightProducts", DDESK, "vec4 ambient; vec4 diffuse; vec4 specular;" },
	{ "gl_FogParameters", DDESK,
	  "vec4 color; float density; float start; float end; float scale;" },
};

enum { BI_NSTRUCTS = sizeof bi_structs / sizeof bi_structs[0], BI_MAX_FIELDS = 16 };

/* Builds the struct type from its "type name;" list. */
static const struct glsl_type *bi_struct_type(struct arena *a, const struct bi_struct *bs)
{
	struct glsl_field *f = arena_alloc(a, sizeof *f * BI_MAX_FIELDS);
	struct glsl_type *t = arena_alloc(a, sizeof *t);
	if (!f || !t)
		return NULL;
	memset(t, 0, sizeof *t);
	int n = 0;
	for (const char *p = bs->fields; *p && n < BI_MAX_FIELDS;) {
		while (*p == ' ')
			p++;
		const char *sp = strchr(p, ' '), *semi = sp ? strchr(sp, ';') : NULL;
		if (!sp || !semi)
			break;
		char tn[16];
		size_t tl = (size_t)(sp - p) < sizeof tn ? (size_t)(sp - p) : sizeof tn - 1;
		memcpy(tn, p, tl);
		tn[tl] = 0;
		f[n].type = glsl_type_by_name(tn);
		f[n].name = arena_strndup(a, sp + 1, (size_t)(semi - sp - 1));
		if (!f[n].type || !f[n].name)
			return NULL;
		n++;
		p = semi + 1;
	}
	t->base = GLSL_STRUCT;
	t->cols = t->rows = 1;
	t->name = bs->name;
	t->fields = f;
	t->nfields = n;
	return t;
}

bool sema_bi_struct_name(const struct fe_ctx *fe, int i, const char **name)
{
	unsigned d = fe->es ? DES : fe->version >= 120 ? D120 : D110;
	if (i < 0 || i >= (int)BI_NSTRUCTS)
		return false;
	*name = bi_structs[i].dialects & d ? bi_structs[i].name : NULL;
	return true;
}

/* Variables an extension adds, while it is on. */
static const struct {
	enum fe_ext ext;
	struct bi_var var;
} bi_ext_vars[] = {
	{ FE_EXT_FRAG_DEPTH, { "gl_FragDepthEXT", "float", 0, SEMA_VAR_FRAGDEPTH, false, DES, FRAG, 0 } },
};

/* Declares v when the dialect and stage have it; false: out of memory. */
static bool declare_var(struct fe_ctx *fe, const struct bi_var *v, const struct glsl_type *const *structs,
			void (*declare)(void *ud, struct sema_symbol *), void *ud)
{
	unsigned d = fe->es ? DES : fe->version >= 120 ? D120 : D110;
	unsigned s = fe->stage == GLSL_STAGE_VERTEX ? VERT : FRAG;
	if (!(v->dialects & d) || !(v->stages & s))
		return true;
	struct sema_symbol *sym = arena_alloc(fe->arena, sizeof *sym);
	if (!sym)
		return false;
	sym->name = v->name;
	sym->type = glsl_type_by_name(v->type);
	for (size_t k = 0; k < BI_NSTRUCTS && !sym->type; k++)
		if (structs[k] && strcmp(structs[k]->name, v->type) == 0)
			sym->type = structs[k];
	if (!sym->type)
		return false;
	if (v->array_len)
		sym->type = glsl_type_array(fe->arena, sym->type, bi_array_len(v->array_len));
	sym->builtin = v->kind;
	sym->read_only = v->read_only;
	sym->storage = v->kind == SEMA_VAR_UNIFORM ? AST_STORAGE_UNIFORM
		       : v->kind == SEMA_VAR_CONST ? AST_STORAGE_CONST
		       : AST_STORAGE_NONE;
	if (v->kind == SEMA_VAR_CONST) {
		sym->cval = arena_alloc(fe->arena, sizeof *sym->cval);
		if (sym->cval)
			sym->cval->v[0] = (float)v->value;
	}
	declare(ud, sym);
	return true;
}

unsigned sema_builtins_max(void)
{
	return (unsigned)(BI_NSTRUCTS + sizeof bi_vars / sizeof bi_vars[0] +
			  sizeof bi_ext_vars / sizeof bi_ext_vars[0]);
}

void sema_declare_builtins(struct fe_ctx *fe, void (*declare)(void *ud, struct sema_symbol *),
			   void (*declare_type)(void *ud, const struct glsl_type *), void *ud)
{
	unsigned d = fe->es ? DES : fe->version >= 120 ? D120 : D110;
	const struct glsl_type *structs[BI_NSTRUCTS];
	for (size_t i = 0; i < BI_NSTRUCTS; i++) {
		structs[i] = bi_structs[i].dialects & d ? bi_struct_type(fe->arena, &bi_structs[i]) : NULL;
		if (structs[i])
			declare_type(ud, structs[i]);
	}
	for (size_t i = 0; i < sizeof bi_vars / sizeof bi_vars[0]; i++)
		if (!declare_var(fe, &bi_vars[i], structs, declare, ud))
			return; /* out of memory */
	for (size_t i = 0; i < sizeof bi_ext_vars / sizeof bi_ext_vars[0]; i++)
		if (fe_ext_on(fe, bi_ext_vars[i].ext) &&
		    !declare_var(fe, &bi_ext_vars[i].var, structs, declare, ud))
			return;
}

const char *sema_ext_hint(const struct fe_ctx *fe, const char *name)
{
	unsigned d = fe->es ? DES : fe->version >= 120 ? D120 : D110;
	for (int i = 0; i < sema_bi_count; i++) {
		const struct sema_bi_sig *b = &sema_bi_table[i];
		if (b->ext && (b->dialects & d) && strcmp(b->name, name) == 0 &&
		    !fe_ext_on(fe, (enum fe_ext)(b->ext - 1)))
			return fe_ext_name((enum fe_ext)(b->ext - 1));
	}
	for (size_t i = 0; i < sizeof bi_ext_vars / sizeof bi_ext_vars[0]; i++)
		if ((bi_ext_vars[i].var.dialects & d) && strcmp(bi_ext_vars[i].var.name, name) == 0 &&
		    !fe_ext_on(fe, bi_ext_vars[i].ext))
			return fe_ext_name(bi_ext_vars[i].ext);
	return NULL;
}
