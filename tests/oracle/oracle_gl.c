/* The llvmpipe oracle's GL side.
 *
 * Context: EGL on Mesa's surfaceless platform (no window system, no GPU),
 * llvmpipe forced through LIBGL_ALWAYS_SOFTWARE/GALLIUM_DRIVER, one
 * desktop GL compatibility context for every shader: GLSL 1.10/1.20 work
 * as they are and `#version 100` shaders compile through
 * GL_ARB_ES2_compatibility (the generated vertex shader then is ES too),
 * so a float render target is available in both cases.
 *
 * Varyings: uscc-run interpolates each varying bilinearly between its four
 * corners.  When every given varying is affine (BL + TR == BR + TL, always
 * true of the default (u, v, 0, 1)) two triangles over the viewport give the
 * same values; otherwise the rectangle is drawn as a grid whose vertices sit
 * on the pixel centres (plus a ring outside), so every pixel centre is a
 * vertex carrying the exact bilinear value.  Derivatives still differ
 * there: a helper pixel's value comes from its neighbour's triangle plane,
 * not from the bilinear function (a warning says so).
 *
 * Derivatives: the R500's are coarse, llvmpipe's fine; unless asked for
 * llvmpipe's own, the shader's dFdx/dFdy/fwidth are redefined to the
 * R500's (oracle_derivs.c).
 *
 * Discard: the draw writes 1 into a stencil buffer cleared to 0 (stencil
 * test ALWAYS, REPLACE on pass); a discarded fragment writes nothing, so a
 * pixel whose stencil reads back 0 was discarded.  Colour targets are
 * GL_RGBA32F textures cleared to 0, with all colour clamping turned off. */
#define GL_GLEXT_PROTOTYPES 1
#define EGL_EGLEXT_PROTOTYPES 1
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "oracle_gl.h"
#include "oracle_scan.h"

enum { ATTR_POS = 0, ATTR_DEF = 1, ATTR_GIVEN = 2, VS_LEN = 1 << 15, INFO_LEN = 4096 };

struct egl {
	EGLDisplay dpy;
	EGLContext ctx;
};

static enum oracle_status fail(enum oracle_status st, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return st;
}

static enum oracle_status egl_open(struct egl *e, bool verbose, char *why, size_t why_len)
{
	/* llvmpipe only, whatever GPU the machine has */
	setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
	setenv("GALLIUM_DRIVER", "llvmpipe", 1);
	setenv("EGL_PLATFORM", "surfaceless", 1);
	e->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
	EGLint major, minor;
	if (e->dpy == EGL_NO_DISPLAY || !eglInitialize(e->dpy, &major, &minor))
		return fail(ORACLE_NO_GL, why, why_len,
			    "no surfaceless EGL display (is libegl-mesa0 installed?)");
	if (!eglBindAPI(EGL_OPENGL_API))
		return fail(ORACLE_NO_GL, why, why_len, "EGL cannot bind the OpenGL API");
	static const EGLint cfg_attrs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
	EGLConfig cfg = EGL_NO_CONFIG_KHR;
	EGLint ncfg = 0;
	if (!eglChooseConfig(e->dpy, cfg_attrs, &cfg, 1, &ncfg) || ncfg < 1)
		cfg = EGL_NO_CONFIG_KHR; /* EGL_KHR_no_config_context */
	static const EGLint ctx_attrs[] = { EGL_NONE };
	e->ctx = eglCreateContext(e->dpy, cfg, EGL_NO_CONTEXT, ctx_attrs);
	if (e->ctx == EGL_NO_CONTEXT ||
	    !eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, e->ctx))
		return fail(ORACLE_NO_GL, why, why_len, "cannot create a surfaceless GL context "
			    "(EGL error 0x%x)", (unsigned)eglGetError());
	const char *renderer = (const char *)glGetString(GL_RENDERER);
	const char *version = (const char *)glGetString(GL_VERSION);
	if (verbose)
		fprintf(stderr, "llvmpipe-render: EGL %d.%d, %s, GL %s\n", major, minor,
			renderer ? renderer : "?", version ? version : "?");
	if (!renderer || !strstr(renderer, "llvmpipe"))
		return fail(ORACLE_NO_GL, why, why_len, "renderer is '%s', not llvmpipe",
			    renderer ? renderer : "?");
	return ORACLE_OK;
}

static void egl_close(struct egl *e)
{
	if (e->dpy == EGL_NO_DISPLAY)
		return;
	eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	if (e->ctx != EGL_NO_CONTEXT)
		eglDestroyContext(e->dpy, e->ctx);
	eglTerminate(e->dpy);
}

/* --- program ------------------------------------------------------------ */

struct attr_map {
	const struct oracle_job *job;
};

/* Given varying `name` -> its attribute index, or -1 for the default. */
static int attr_of(const char *name, void *ud)
{
	const struct oracle_job *job = ((struct attr_map *)ud)->job;
	for (int i = 0; i < job->nvaryings; i++)
		if (!strcmp(job->varyings[i].name, name))
			return i;
	return -1;
}

static GLuint compile_stage(GLenum stage, const char *src, const char *what, char *why,
			    size_t why_len)
{
	GLuint sh = glCreateShader(stage);
	glShaderSource(sh, 1, &src, NULL);
	glCompileShader(sh);
	GLint ok = 0;
	glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[INFO_LEN] = "";
		glGetShaderInfoLog(sh, sizeof log, NULL, log);
		snprintf(why, why_len, "%s shader does not compile:\n%s", what, log);
		glDeleteShader(sh);
		return 0;
	}
	return sh;
}

/* The fragment shader as GL compiles it: with the R500's coarse
 * derivatives unless told otherwise. */
static GLuint compile_fragment(const struct oracle_job *job, const struct frag_scan *fs,
			       char *why, size_t why_len)
{
	char *coarse = NULL;
	if (fs->uses_derivatives && !job->fine_derivatives) {
		coarse = scan_coarse_derivatives(job->frag_src, fs->es);
		if (!coarse) {
			snprintf(why, why_len, "out of memory");
			return 0;
		}
		if (job->verbose)
			fprintf(stderr, "llvmpipe-render: fragment shader:\n%s", coarse);
	}
	GLuint f = compile_stage(GL_FRAGMENT_SHADER, coarse ? coarse : job->frag_src, "fragment",
				 why, why_len);
	free(coarse);
	return f;
}

static enum oracle_status build_program(const struct oracle_job *job, const struct frag_scan *fs,
					GLuint *prog, char *why, size_t why_len)
{
	/* the fragment shader first: its errors are the ones that matter */
	GLuint f = compile_fragment(job, fs, why, why_len);
	if (!f)
		return ORACLE_BAD_SHADER;
	char *vs = malloc(VS_LEN);
	struct attr_map map = { job };
	if (!vs || !scan_vertex_shader(fs, job->nvaryings, attr_of, &map, vs, VS_LEN)) {
		free(vs);
		glDeleteShader(f);
		return fail(ORACLE_BAD_INPUT, why, why_len, "vertex shader too long");
	}
	if (job->verbose)
		fprintf(stderr, "llvmpipe-render: vertex shader:\n%s", vs);
	GLuint v = compile_stage(GL_VERTEX_SHADER, vs, "generated vertex", why, why_len);
	free(vs);
	if (!v) {
		glDeleteShader(f);
		return ORACLE_BAD_INPUT;
	}
	GLuint p = glCreateProgram();
	glAttachShader(p, v);
	glAttachShader(p, f);
	glBindAttribLocation(p, ATTR_POS, "a_pos");
	glBindAttribLocation(p, ATTR_DEF, "a_def");
	for (int i = 0; i < job->nvaryings; i++) {
		char name[32];
		snprintf(name, sizeof name, "a_v%d", i);
		glBindAttribLocation(p, (GLuint)(ATTR_GIVEN + i), name);
	}
	glLinkProgram(p);
	glDeleteShader(v);
	glDeleteShader(f);
	GLint ok = 0;
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[INFO_LEN] = "";
		glGetProgramInfoLog(p, sizeof log, NULL, log);
		glDeleteProgram(p);
		return fail(ORACLE_BAD_SHADER, why, why_len, "program does not link:\n%s", log);
	}
	*prog = p;
	return ORACLE_OK;
}

/* --- uniforms ----------------------------------------------------------- */

typedef void (*vec_setter)(GLint, GLsizei, const GLfloat *);
typedef void (*ivec_setter)(GLint, GLsizei, const GLint *);
typedef void (*mat_setter)(GLint, GLsizei, GLboolean, const GLfloat *);

static const struct utype {
	GLenum type;
	char kind;           /* f float, i int, b bool */
	int cols, rows;
	vec_setter fv;
	ivec_setter iv;
	mat_setter mv;
} utypes[] = {
	{ GL_FLOAT, 'f', 1, 1, glUniform1fv, NULL, NULL },
	{ GL_FLOAT_VEC2, 'f', 1, 2, glUniform2fv, NULL, NULL },
	{ GL_FLOAT_VEC3, 'f', 1, 3, glUniform3fv, NULL, NULL },
	{ GL_FLOAT_VEC4, 'f', 1, 4, glUniform4fv, NULL, NULL },
	{ GL_INT, 'i', 1, 1, NULL, glUniform1iv, NULL },
	{ GL_INT_VEC2, 'i', 1, 2, NULL, glUniform2iv, NULL },
	{ GL_INT_VEC3, 'i', 1, 3, NULL, glUniform3iv, NULL },
	{ GL_INT_VEC4, 'i', 1, 4, NULL, glUniform4iv, NULL },
	{ GL_BOOL, 'b', 1, 1, NULL, glUniform1iv, NULL },
	{ GL_BOOL_VEC2, 'b', 1, 2, NULL, glUniform2iv, NULL },
	{ GL_BOOL_VEC3, 'b', 1, 3, NULL, glUniform3iv, NULL },
	{ GL_BOOL_VEC4, 'b', 1, 4, NULL, glUniform4iv, NULL },
	{ GL_FLOAT_MAT2, 'f', 2, 2, NULL, NULL, glUniformMatrix2fv },
	{ GL_FLOAT_MAT3, 'f', 3, 3, NULL, NULL, glUniformMatrix3fv },
	{ GL_FLOAT_MAT4, 'f', 4, 4, NULL, NULL, glUniformMatrix4fv },
	{ GL_FLOAT_MAT2x3, 'f', 2, 3, NULL, NULL, glUniformMatrix2x3fv },
	{ GL_FLOAT_MAT2x4, 'f', 2, 4, NULL, NULL, glUniformMatrix2x4fv },
	{ GL_FLOAT_MAT3x2, 'f', 3, 2, NULL, NULL, glUniformMatrix3x2fv },
	{ GL_FLOAT_MAT3x4, 'f', 3, 4, NULL, NULL, glUniformMatrix3x4fv },
	{ GL_FLOAT_MAT4x2, 'f', 4, 2, NULL, NULL, glUniformMatrix4x2fv },
	{ GL_FLOAT_MAT4x3, 'f', 4, 3, NULL, NULL, glUniformMatrix4x3fv },
};

static const struct utype *utype_of(GLenum type)
{
	for (size_t i = 0; i < sizeof utypes / sizeof utypes[0]; i++)
		if (utypes[i].type == type)
			return &utypes[i];
	return NULL;
}

/* The '[' of a trailing "[k]" of name, or NULL: "u[3]", "s[1].w[0]"; not
 * the struct index of "s[1].pos". */
static const char *trailing_index(const char *name)
{
	size_t n = strlen(name);
	if (n < 3 || name[n - 1] != ']')
		return NULL;
	return strrchr(name, '[');
}

/* Splits "u[3]" into base "u" and index 3 (-1 without an index at the
 * end: "s[1].pos" is a base of its own, as GL names a struct's member). */
static bool split_index(const char *name, char *base, size_t len, int *index)
{
	const char *br = trailing_index(name);
	size_t n = br ? (size_t)(br - name) : strlen(name);
	if (n == 0 || n >= len)
		return false;
	memcpy(base, name, n);
	base[n] = 0;
	*index = -1;
	if (!br)
		return true;
	char *end;
	long k = strtol(br + 1, &end, 10);
	if (end == br + 1 || strcmp(end, "]") != 0 || k < 0 || k > 4096)
		return false;
	*index = (int)k;
	return true;
}

/* Uploads array element `elem` of uniform `base` from the given values,
 * starting at value `first` (values past the given ones, or past 16, are 0
 * as in uscc-run). */
static void upload_element(GLuint prog, const char *base, bool array, int elem,
			   const struct utype *t, const struct run_uniform *u, int first)
{
	char name[160];
	if (array)
		snprintf(name, sizeof name, "%s[%d]", base, elem);
	else
		snprintf(name, sizeof name, "%s", base);
	GLint loc = glGetUniformLocation(prog, name);
	if (loc < 0)
		return;
	float f[16];
	GLint iv[4];
	int n = t->cols * t->rows;
	for (int j = 0; j < n; j++) {
		int at = first + j;
		f[j] = at < u->ncomp && at < 16 ? u->value[at] : 0.0f;
		if (j < 4)
			iv[j] = t->kind == 'b' ? f[j] != 0.0f : (GLint)f[j];
	}
	if (t->mv)
		t->mv(loc, 1, GL_FALSE, f);
	else if (t->fv)
		t->fv(loc, 1, f);
	else
		t->iv(loc, 1, iv);
}

static void set_uniforms(GLuint prog, const struct oracle_job *job)
{
	GLint count = 0;
	glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &count);
	for (GLint i = 0; i < count; i++) {
		char aname[160];
		GLint size = 0;
		GLenum type = 0;
		glGetActiveUniform(prog, (GLuint)i, sizeof aname, NULL, &size, &type, aname);
		const struct utype *t = utype_of(type);
		char *br = (char *)trailing_index(aname);
		bool array = br != NULL || size > 1;
		if (br)
			*br = 0; /* "u[0]": GL names an array by its first element */
		if (!t)
			continue; /* samplers: set_samplers */
		int per_elem = t->cols * t->rows;
		for (int k = 0; k < job->nuniforms; k++) {
			const struct run_uniform *u = &job->uniforms[k];
			char base[160];
			int index;
			if (!split_index(u->name, base, sizeof base, &index) || strcmp(base, aname))
				continue;
			if (index >= 0 && index < size)
				upload_element(prog, aname, array, index, t, u, 0);
			else if (index < 0)
				for (int e = 0; e < size; e++)
					upload_element(prog, aname, array, e, t, u, e * per_elem);
		}
	}
}

/* --- samplers and textures ---------------------------------------------- */

/* What a texture unit must hold for the sampler pointed at it. */
struct unit_kind {
	GLenum target;
	bool shadow;
};

static const struct {
	const char *type;
	struct unit_kind kind;
} sampler_kinds[] = {
	{ "sampler1D", { GL_TEXTURE_1D, false } }, { "sampler2D", { GL_TEXTURE_2D, false } },
	{ "sampler3D", { GL_TEXTURE_3D, false } }, { "samplerCube", { GL_TEXTURE_CUBE_MAP, false } },
	{ "sampler2DRect", { GL_TEXTURE_RECTANGLE, false } },
	{ "sampler1DShadow", { GL_TEXTURE_1D, true } }, { "sampler2DShadow", { GL_TEXTURE_2D, true } },
	{ "sampler2DRectShadow", { GL_TEXTURE_RECTANGLE, true } },
};

static struct unit_kind kind_of(const char *type)
{
	for (size_t i = 0; i < sizeof sampler_kinds / sizeof sampler_kinds[0]; i++)
		if (!strcmp(type, sampler_kinds[i].type))
			return sampler_kinds[i].kind;
	return (struct unit_kind){ GL_TEXTURE_2D, false };
}

/* The unit of sampler `name`: as given, else its place in declaration order. */
static int unit_of(const struct oracle_job *job, const char *name, int order)
{
	for (int i = 0; i < job->nsamplers; i++)
		if (!strcmp(job->samplers[i].name, name))
			return job->samplers[i].unit;
	return order;
}

/* Points each sampler at its unit; fills the texture kind each unit needs. */
static void set_samplers(GLuint prog, const struct oracle_job *job, const struct frag_scan *fs,
			 struct unit_kind units[ORACLE_UNITS])
{
	int order = 0;
	for (int i = 0; i < fs->nsamplers; i++) {
		const struct scan_decl *d = &fs->samplers[i];
		int n = d->length ? d->length : 1;
		for (int e = 0; e < n; e++, order++) {
			char name[SCAN_NAME_LEN + 16];
			if (d->length)
				snprintf(name, sizeof name, "%s[%d]", d->name, e);
			else
				snprintf(name, sizeof name, "%s", d->name);
			int unit = unit_of(job, name, order);
			GLint loc = glGetUniformLocation(prog, name);
			if (unit < 0 || unit >= ORACLE_UNITS || loc < 0)
				continue;
			glUniform1i(loc, unit);
			units[unit] = kind_of(d->type);
		}
	}
}

/* Level l of a texture's chain (2D layout, texture.h): its texels and size. */
static const float *level_texels(const struct oracle_texture *t, int l, int *w, int *h)
{
	const float *p = t->texels;
	for (int k = 0;; k++) {
		int size[3];
		tex_level_size(IR_TARGET_2D, t->width, t->height, 1, k, size);
		*w = size[0];
		*h = size[1];
		if (k == l)
			return p;
		p += (size_t)size[0] * (size_t)size[1] * 4;
	}
}

/* Images with one value per texel: the red channel, as depth. */
static void upload_depth(GLenum target, const float *texels, int level, int w, int h, float *red)
{
	size_t n = (size_t)w * (size_t)h;
	for (size_t i = 0; i < n; i++)
		red[i] = texels[i * 4];
	if (target == GL_TEXTURE_1D)
		glTexImage1D(target, level, GL_DEPTH_COMPONENT32F, w, 0, GL_DEPTH_COMPONENT,
			     GL_FLOAT, red);
	else
		glTexImage2D(target, level, GL_DEPTH_COMPONENT32F, w, h, 0, GL_DEPTH_COMPONENT,
			     GL_FLOAT, red);
}

/* One level of an RGBA image, as the target takes it. */
static void upload_level(GLenum target, int level, const float *texels, int w, int h)
{
	switch (target) {
	case GL_TEXTURE_1D: /* the bottom row */
		glTexImage1D(target, level, GL_RGBA32F, w, 0, GL_RGBA, GL_FLOAT, texels);
		break;
	case GL_TEXTURE_3D: /* one slice */
		glTexImage3D(target, level, GL_RGBA32F, w, h, 1, 0, GL_RGBA, GL_FLOAT, texels);
		break;
	case GL_TEXTURE_CUBE_MAP: /* the image on every face */
		for (int f = 0; f < 6; f++)
			glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, level, GL_RGBA32F,
				     w, h, 0, GL_RGBA, GL_FLOAT, texels);
		break;
	default:
		glTexImage2D(target, level, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, texels);
		break;
	}
}

/* uscc-run's filters in GL's terms (RECT textures have one level and
 * take no mipmap filter: the within-level part). */
static void set_filters(GLenum target, const struct oracle_texture *t)
{
	static const GLint min[TEX_FILTER_COUNT] = {
		GL_NEAREST, GL_LINEAR, GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST,
		GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR,
	};
	int f = t->filter >= 0 && t->filter < TEX_FILTER_COUNT ? (int)t->filter : 0;
	bool linear = f == TEX_FILTER_LINEAR || f == TEX_FILTER_LINEAR_MIPMAP_NEAREST ||
		      f == TEX_FILTER_LINEAR_MIPMAP_LINEAR;
	GLint minf = target == GL_TEXTURE_RECTANGLE ? (linear ? GL_LINEAR : GL_NEAREST) : min[f];
	GLint magf = t->mag == TEX_MAG_LINEAR || (t->mag != TEX_MAG_NEAREST && linear)
			     ? GL_LINEAR : GL_NEAREST;
	glTexParameteri(target, GL_TEXTURE_MIN_FILTER, minf);
	glTexParameteri(target, GL_TEXTURE_MAG_FILTER, magf);
}

static enum oracle_status load_texture(int unit, struct unit_kind kind,
				       const struct oracle_texture *t, GLuint *name, char *why,
				       size_t why_len)
{
	GLenum target = kind.target;
	glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
	glGenTextures(1, name);
	glBindTexture(target, *name);
	/* uscc-run's filters, levels and wrap mode (cube faces and RECT clamp:
	 * GL has no repeat for rectangle textures) */
	GLenum wrap = t->wrap == TEX_WRAP_CLAMP ? GL_CLAMP_TO_EDGE
		      : t->wrap == TEX_WRAP_MIRROR ? GL_MIRRORED_REPEAT : GL_REPEAT;
	if (target == GL_TEXTURE_CUBE_MAP || target == GL_TEXTURE_RECTANGLE)
		wrap = GL_CLAMP_TO_EDGE;
	set_filters(target, t);
	glTexParameteri(target, GL_TEXTURE_WRAP_S, (GLint)wrap);
	glTexParameteri(target, GL_TEXTURE_WRAP_T, (GLint)wrap);
	glTexParameteri(target, GL_TEXTURE_WRAP_R, (GLint)wrap);
	int levels = t->levels > 1 && target != GL_TEXTURE_RECTANGLE ? t->levels : 1;
	if (target != GL_TEXTURE_RECTANGLE) {
		glTexParameteri(target, GL_TEXTURE_BASE_LEVEL, 0);
		glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, levels - 1);
	}
	if (target == GL_TEXTURE_CUBE_MAP && t->width != t->height)
		return fail(ORACLE_BAD_INPUT, why, why_len,
			    "unit %d: a cube face must be square, not %dx%d", unit, t->width,
			    t->height);
	if (kind.shadow) {
		float *red = malloc((size_t)t->width * (size_t)t->height * sizeof(float));
		if (!red)
			return fail(ORACLE_BAD_INPUT, why, why_len, "out of memory");
		for (int l = 0; l < levels; l++) {
			int w, h;
			const float *p = level_texels(t, l, &w, &h);
			upload_depth(target, p, l, w, h, red);
		}
		free(red);
		/* uscc-run: (v, v, v, 1) with v = r <= texel red */
		glTexParameteri(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
		glTexParameteri(target, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
		glTexParameteri(target, GL_DEPTH_TEXTURE_MODE, GL_LUMINANCE);
		return ORACLE_OK;
	}
	for (int l = 0; l < levels; l++) {
		int w, h;
		const float *p = level_texels(t, l, &w, &h);
		upload_level(target, l, p, w, h);
	}
	return ORACLE_OK;
}

/* --- framebuffer and geometry ------------------------------------------- */

struct fbo {
	GLuint fb, color[ORACLE_TARGETS], depth_stencil;
};

static enum oracle_status make_fbo(struct fbo *f, int w, int h, int ntargets, char *why,
				   size_t why_len)
{
	glGenFramebuffers(1, &f->fb);
	glBindFramebuffer(GL_FRAMEBUFFER, f->fb);
	glGenTextures(ORACLE_TARGETS, f->color);
	GLenum bufs[ORACLE_TARGETS];
	for (int t = 0; t < ORACLE_TARGETS; t++) {
		glBindTexture(GL_TEXTURE_2D, f->color[t]);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
		glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
		glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, NULL);
		glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + (GLenum)t,
				       GL_TEXTURE_2D, f->color[t], 0);
		bufs[t] = GL_COLOR_ATTACHMENT0 + (GLenum)t;
	}
	glGenRenderbuffers(1, &f->depth_stencil);
	glBindRenderbuffer(GL_RENDERBUFFER, f->depth_stencil);
	glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, w, h);
	glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
				  f->depth_stencil);
	GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
	if (st != GL_FRAMEBUFFER_COMPLETE)
		return fail(ORACLE_BAD_INPUT, why, why_len, "float framebuffer %dx%d incomplete "
			    "(0x%x)", w, h, (unsigned)st);
	/* gl_FragColor alone goes to target 0 only, as in uscc's output table */
	glDrawBuffers(ntargets, bufs);
	glViewport(0, 0, w, h);
	glClearColor(0, 0, 0, 0);
	glClearStencil(0);
	glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
	return ORACLE_OK;
}

static bool affine(const struct run_varying *v)
{
	for (int c = 0; c < 4; c++)
		if (v->corners[0][c] + v->corners[3][c] != v->corners[1][c] + v->corners[2][c])
			return false;
	return true;
}

/* uscc-run's bilinear value of corners at (fx, fy), rounded to float. */
static float bilinear(const float corners[4][4], int c, double fx, double fy)
{
	double bot = corners[0][c] * (1 - fx) + corners[1][c] * fx;
	double top = corners[2][c] * (1 - fx) + corners[3][c] * fx;
	return (float)(bot * (1 - fy) + top * fy);
}

/* Grid coordinates: {0, 1} for two triangles, else every pixel centre
 * (i + 0.5)/n for i = -1..n (a ring outside so edges are covered). */
static double grid_coord(int i, int n, bool fine)
{
	return fine ? (i - 0.5) / n : i;
}

static enum oracle_status draw(const struct oracle_job *job, bool uses_derivatives, char *why,
			       size_t why_len)
{
	bool fine = false;
	for (int i = 0; i < job->nvaryings; i++)
		fine |= !affine(&job->varyings[i]);
	if (fine && uses_derivatives)
		fprintf(stderr, "llvmpipe-render: warning: varyings that are not affine "
			"(BL + TR != BR + TL): derivatives follow triangle planes, not uscc-run's "
			"bilinear values\n");
	int nx = fine ? job->width + 2 : 2, ny = fine ? job->height + 2 : 2;
	size_t stride = 6 + 4 * (size_t)job->nvaryings; /* floats per vertex */
	size_t nverts = (size_t)nx * (size_t)ny;
	size_t nidx = (size_t)(nx - 1) * (size_t)(ny - 1) * 6;
	float *vb = malloc(nverts * stride * sizeof(float));
	GLuint *ib = malloc(nidx * sizeof(GLuint));
	if (!vb || !ib) {
		free(vb);
		free(ib);
		return fail(ORACLE_BAD_INPUT, why, why_len, "out of memory for the vertex grid");
	}
	for (int j = 0; j < ny; j++)
		for (int i = 0; i < nx; i++) {
			double fx = grid_coord(i, job->width, fine), fy = grid_coord(j, job->height, fine);
			float *v = &vb[((size_t)j * (size_t)nx + (size_t)i) * stride];
			v[0] = (float)(2 * fx - 1);
			v[1] = (float)(2 * fy - 1);
			v[2] = (float)fx;
			v[3] = (float)fy;
			v[4] = 0.0f;
			v[5] = 1.0f;
			for (int k = 0; k < job->nvaryings; k++)
				for (int c = 0; c < 4; c++)
					v[6 + 4 * k + c] = bilinear(job->varyings[k].corners, c, fx, fy);
		}
	size_t n = 0;
	for (int j = 0; j + 1 < ny; j++)
		for (int i = 0; i + 1 < nx; i++) {
			GLuint a = (GLuint)(j * nx + i), b = a + 1, c = a + (GLuint)nx, d = c + 1;
			/* counter-clockwise: front facing */
			GLuint tri[6] = { a, b, d, a, d, c };
			memcpy(&ib[n], tri, sizeof tri);
			n += 6;
		}
	GLuint buf[2];
	glGenBuffers(2, buf);
	glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(nverts * stride * sizeof(float)), vb,
		     GL_STATIC_DRAW);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[1]);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(nidx * sizeof(GLuint)), ib,
		     GL_STATIC_DRAW);
	free(vb);
	free(ib);
	GLsizei bytes = (GLsizei)(stride * sizeof(float));
	glVertexAttribPointer(ATTR_POS, 2, GL_FLOAT, GL_FALSE, bytes, (void *)0);
	glEnableVertexAttribArray(ATTR_POS);
	glVertexAttribPointer(ATTR_DEF, 4, GL_FLOAT, GL_FALSE, bytes, (void *)(2 * sizeof(float)));
	glEnableVertexAttribArray(ATTR_DEF);
	for (int k = 0; k < job->nvaryings; k++) {
		GLuint at = (GLuint)(ATTR_GIVEN + k);
		glVertexAttribPointer(at, 4, GL_FLOAT, GL_FALSE, bytes,
				      (void *)((6 + 4 * (size_t)k) * sizeof(float)));
		glEnableVertexAttribArray(at);
	}
	glEnable(GL_STENCIL_TEST);
	glStencilFunc(GL_ALWAYS, 1, 0xff);
	glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
	glDisable(GL_DEPTH_TEST);
	glDisable(GL_CULL_FACE);
	glDisable(GL_BLEND);
	glDisable(GL_DITHER);
	glDrawElements(GL_TRIANGLES, (GLsizei)nidx, GL_UNSIGNED_INT, (void *)0);
	glDeleteBuffers(2, buf);
	return ORACLE_OK;
}

static enum oracle_status read_back(const struct oracle_job *job, struct oracle_image *out,
				    char *why, size_t why_len)
{
	size_t npix = (size_t)job->width * (size_t)job->height;
	memset(out, 0, sizeof *out);
	out->width = job->width;
	out->height = job->height;
	uint8_t *stencil = malloc(npix);
	out->discarded = malloc(npix * sizeof(bool));
	bool ok = stencil && out->discarded;
	for (int t = 0; ok && t < ORACLE_TARGETS; t++)
		ok = (out->rt[t] = malloc(npix * 4 * sizeof(float))) != NULL;
	if (!ok) {
		free(stencil);
		oracle_image_free(out);
		return fail(ORACLE_BAD_INPUT, why, why_len, "out of memory for the image");
	}
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	for (int t = 0; t < ORACLE_TARGETS; t++) {
		glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)t);
		glReadPixels(0, 0, job->width, job->height, GL_RGBA, GL_FLOAT, out->rt[t]);
	}
	glReadPixels(0, 0, job->width, job->height, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, stencil);
	for (size_t i = 0; i < npix; i++)
		out->discarded[i] = stencil[i] == 0;
	free(stencil);
	return ORACLE_OK;
}

enum oracle_status oracle_render(const struct oracle_job *job, struct oracle_image *out,
				 char *why, size_t why_len)
{
	memset(out, 0, sizeof *out);
	if (job->nvaryings > ORACLE_MAX_VARYINGS)
		return fail(ORACLE_BAD_INPUT, why, why_len, "at most %d varyings can be given",
			    ORACLE_MAX_VARYINGS);
	struct frag_scan fs;
	if (!scan_fragment(job->frag_src, &fs, why, why_len))
		return ORACLE_BAD_INPUT;
	struct egl e = { EGL_NO_DISPLAY, EGL_NO_CONTEXT };
	enum oracle_status st = egl_open(&e, job->verbose, why, why_len);
	GLuint prog = 0, tex[ORACLE_UNITS] = { 0 };
	struct fbo fb;
	memset(&fb, 0, sizeof fb);
	if (st == ORACLE_OK) {
		glClampColor(GL_CLAMP_VERTEX_COLOR, GL_FALSE);
		glClampColor(GL_CLAMP_FRAGMENT_COLOR, GL_FALSE);
		glClampColor(GL_CLAMP_READ_COLOR, GL_FALSE);
		st = build_program(job, &fs, &prog, why, why_len);
	}
	/* the framebuffer first: creating it binds textures on the active unit */
	if (st == ORACLE_OK)
		st = make_fbo(&fb, job->width, job->height, fs.uses_fragdata ? ORACLE_TARGETS : 1,
			      why, why_len);
	if (st == ORACLE_OK) {
		glBindTexture(GL_TEXTURE_2D, 0);
		glUseProgram(prog);
		set_uniforms(prog, job);
		struct unit_kind units[ORACLE_UNITS];
		for (int u = 0; u < ORACLE_UNITS; u++)
			units[u] = (struct unit_kind){ GL_TEXTURE_2D, false };
		set_samplers(prog, job, &fs, units);
		for (int u = 0; st == ORACLE_OK && u < ORACLE_UNITS; u++)
			if (job->textures[u].width > 0)
				st = load_texture(u, units[u], &job->textures[u], &tex[u],
						  why, why_len);
	}
	if (st == ORACLE_OK)
		st = draw(job, fs.uses_derivatives, why, why_len);
	if (st == ORACLE_OK)
		st = read_back(job, out, why, why_len);
	if (st == ORACLE_OK) {
		GLenum err = glGetError();
		if (err != GL_NO_ERROR) {
			oracle_image_free(out);
			st = fail(ORACLE_BAD_INPUT, why, why_len, "GL error 0x%x", (unsigned)err);
		}
	}
	if (e.ctx != EGL_NO_CONTEXT) {
		glDeleteTextures(ORACLE_UNITS, tex);
		if (fb.fb) {
			glDeleteFramebuffers(1, &fb.fb);
			glDeleteTextures(ORACLE_TARGETS, fb.color);
			glDeleteRenderbuffers(1, &fb.depth_stencil);
		}
		if (prog)
			glDeleteProgram(prog);
	}
	egl_close(&e);
	return st;
}

void oracle_image_free(struct oracle_image *img)
{
	for (int t = 0; t < ORACLE_TARGETS; t++)
		free(img->rt[t]);
	free(img->discarded);
	memset(img, 0, sizeof *img);
}
