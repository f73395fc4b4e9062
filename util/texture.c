/* Texture sampling shared by the IR interpreter and the emulator (the
 * rules are texture.h's): within a level nearest or bilinear (trilinear
 * across slices for 3D), repeat, clamp-to-edge or mirrored repeat; between
 * levels GL's mipmap selection.  1D images use their row 0; cube maps pick
 * a face by the major axis as the GL spec's table does and always clamp;
 * RECT coordinates are in texels and RECT images have one level. */
#include <math.h>
#include <stddef.h>
#include "texture.h"

/* Texel index for integer coordinate i along an axis of n texels. */
static int wrap_index(long long i, int n, enum tex_wrap wrap)
{
	if (wrap == TEX_WRAP_REPEAT)
		return (int)(((i % n) + n) % n);
	if (wrap == TEX_WRAP_MIRROR) { /* n texels forward, then n backward */
		long long m = ((i % (2LL * n)) + 2LL * n) % (2LL * n);
		return (int)(m < n ? m : 2LL * n - 1 - m);
	}
	return i < 0 ? 0 : i >= n ? n - 1 : (int)i;
}

/* Keeps coordinates finite and small enough for integer maths. */
static double tame(double x)
{
	if (!isfinite(x))
		return 0.0;
	return x > 1e9 ? 1e9 : x < -1e9 ? -1e9 : x;
}

/* --- levels ------------------------------------------------------------ */

/* One level of an image: where its texels start and its size. */
struct level {
	const float *texels;
	int w, h, d;        /* d: slices (3D) or layers */
	int faces;          /* 6 for a cube, else 1 */
};

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

int tex_full_levels(int target, int width, int height, int depth)
{
	if (width < 1 || height < 1)
		return 0;
	if (target == IR_TARGET_RECT)
		return 1;
	int m = width;
	if (target != IR_TARGET_1D)
		m = max_int(m, height);
	if (target == IR_TARGET_3D)
		m = max_int(m, depth);
	int n = 1;
	while (m > 1) {
		m >>= 1;
		n++;
	}
	return n;
}

void tex_level_size(int target, int width, int height, int depth, int level, int size[3])
{
	int l = level < 0 ? 0 : level > 30 ? 30 : level;
	size[0] = max_int(1, width >> l);
	size[1] = target == IR_TARGET_1D ? max_int(1, height) : max_int(1, height >> l);
	size[2] = target == IR_TARGET_3D   ? max_int(1, depth >> l)
		  : target == IR_TARGET_CUBE ? 1
					     : max_int(1, depth);
}

long long tex_chain_texels(int target, int width, int height, int depth, int levels)
{
	if (width < 1 || height < 1 || levels < 0 || levels > 31)
		return -1;
	long long sum = 0;
	for (int l = 0; l < (levels > 1 ? levels : 1); l++) {
		int s[3];
		tex_level_size(target, width, height, depth, l, s);
		sum += (long long)s[0] * s[1] * s[2] * (target == IR_TARGET_CUBE ? 6 : 1);
	}
	return sum;
}

/* The highest level a lookup may use. */
static int max_level(const struct tex_image *img)
{
	if (img->levels <= 1 || img->target == IR_TARGET_RECT)
		return 0;
	int full = tex_full_levels(img->target, img->width, img->height, img->depth);
	return (img->levels < full ? img->levels : full) - 1;
}

static struct level level_of(const struct tex_image *img, int l)
{
	struct level lv = { img->texels, 0, 0, 0, img->target == IR_TARGET_CUBE ? 6 : 1 };
	int depth = img->depth > 0 ? img->depth : 1;
	for (int k = 0;; k++) {
		int s[3];
		tex_level_size(img->target, img->width, img->height, depth, k, s);
		lv.w = s[0];
		lv.h = s[1];
		lv.d = s[2];
		if (k == l)
			return lv;
		lv.texels += (size_t)s[0] * (size_t)s[1] * (size_t)s[2] * (size_t)lv.faces * 4;
	}
}

/* First and one past the last texel of level n (side n) that texel i of
 * the level below (side m) averages. */
static void block(int i, int m, int n, int *first, int *end)
{
	*first = 2 * i < n ? 2 * i : n - 1;
	*end = i == m - 1 ? n : 2 * i + 2;
	if (*end > n)
		*end = n;
}

void tex_build_levels(int target, int width, int height, int depth, int levels,
		      float *texels)
{
	int faces = target == IR_TARGET_CUBE ? 6 : 1;
	float *above = texels;
	int a[3];
	tex_level_size(target, width, height, depth, 0, a);
	for (int l = 1; l < levels; l++) {
		int b[3];
		tex_level_size(target, width, height, depth, l, b);
		size_t above_face = (size_t)a[0] * a[1] * a[2] * 4;
		size_t below_face = (size_t)b[0] * b[1] * b[2] * 4;
		float *below = above + above_face * (size_t)faces;
		for (int f = 0; f < faces; f++)
			for (int z = 0; z < b[2]; z++)
				for (int y = 0; y < b[1]; y++)
					for (int x = 0; x < b[0]; x++) {
						int x0, x1, y0, y1, z0, z1;
						block(x, b[0], a[0], &x0, &x1);
						if (target == IR_TARGET_1D)
							y0 = y, y1 = y + 1;
						else
							block(y, b[1], a[1], &y0, &y1);
						if (target == IR_TARGET_3D)
							block(z, b[2], a[2], &z0, &z1);
						else
							z0 = z, z1 = z + 1;
						double acc[4] = { 0, 0, 0, 0 };
						for (int k = z0; k < z1; k++)
							for (int j = y0; j < y1; j++)
								for (int i = x0; i < x1; i++) {
									const float *t = above + f * above_face +
										(((size_t)k * a[1] + j) * a[0] + i) * 4;
									for (int c = 0; c < 4; c++)
										acc[c] += t[c];
								}
						double n = (double)(x1 - x0) * (y1 - y0) * (z1 - z0);
						float *o = below + f * below_face +
							   (((size_t)z * b[1] + y) * b[0] + x) * 4;
						for (int c = 0; c < 4; c++)
							o[c] = (float)(acc[c] / n);
					}
		above = below;
		a[0] = b[0], a[1] = b[1], a[2] = b[2];
	}
}

/* --- sampling one level ------------------------------------------------ */

struct axis {
	int i[2];       /* the two texels (nearest: both the same) */
	double w;       /* weight of i[1] */
};

/* pos: coordinate in texels (texel centres at k + 0.5). */
static struct axis axis_setup(double pos, int n, bool linear, enum tex_wrap wrap)
{
	struct axis a;
	pos = tame(pos);
	if (!linear) {
		a.i[0] = a.i[1] = wrap_index((long long)floor(pos), n, wrap);
		a.w = 0.0;
		return a;
	}
	double x = pos - 0.5, fl = floor(x);
	a.i[0] = wrap_index((long long)fl, n, wrap);
	a.i[1] = wrap_index((long long)fl + 1, n, wrap);
	a.w = x - fl;
	return a;
}

static void fetch(const struct level *lv, int face, int x, int y, int z, double w, double acc[4])
{
	long long at = (((long long)face * lv->d + z) * lv->h + y) * lv->w + x;
	for (int c = 0; c < 4; c++)
		acc[c] += w * lv->texels[at * 4 + c];
}

/* Samples one face/volume of a level at texel-space position (px, py, pz). */
static void sample_at(const struct level *lv, int face, double px, double py, double pz,
		      bool use_y, bool use_z, bool linear, enum tex_wrap wrap, float out[4])
{
	struct axis ax = axis_setup(px, lv->w, linear, wrap);
	struct axis ay = use_y ? axis_setup(py, lv->h, linear, wrap)
			       : (struct axis){ { 0, 0 }, 0.0 };
	struct axis az = use_z ? axis_setup(pz, lv->d, linear, wrap)
			       : (struct axis){ { 0, 0 }, 0.0 };
	double acc[4] = { 0, 0, 0, 0 };
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < 2; j++)
			for (int i = 0; i < 2; i++) {
				double w = (i ? ax.w : 1 - ax.w) * (j ? ay.w : 1 - ay.w) *
					   (k ? az.w : 1 - az.w);
				if (w != 0.0)
					fetch(lv, face, ax.i[i], ay.i[j], az.i[k], w, acc);
			}
	for (int c = 0; c < 4; c++)
		out[c] = (float)acc[c];
}

/* A cube face by GL's major-axis rule: face = (+X -X +Y -Y +Z -Z), and
 * its sc = ssign * r[si], tc = tsign * r[ti], ma = r[mi]. */
struct cube_axes {
	int face, si, ti, mi;
	double ssign, tsign;
};

static struct cube_axes cube_axes(const float r[3])
{
	double x = r[0], y = r[1], z = r[2];
	double ax = fabs(x), ay = fabs(y), az = fabs(z);
	if (ax >= ay && ax >= az)
		return x >= 0 ? (struct cube_axes){ 0, 2, 1, 0, -1, -1 }
			      : (struct cube_axes){ 1, 2, 1, 0, 1, -1 };
	if (ay >= az)
		return y >= 0 ? (struct cube_axes){ 2, 0, 2, 1, 1, 1 }
			      : (struct cube_axes){ 3, 0, 2, 1, 1, -1 };
	return z >= 0 ? (struct cube_axes){ 4, 0, 1, 2, 1, -1 }
		      : (struct cube_axes){ 5, 0, 1, 2, -1, -1 };
}

/* The face and its (s, t) in [0, 1]. */
static int cube_face(const float r[3], double *s, double *t)
{
	struct cube_axes c = cube_axes(r);
	double ma = fabs((double)r[c.mi]);
	if (!(ma > 0.0) || !isfinite(ma)) {
		*s = *t = 0.5;
		return c.face;
	}
	*s = (c.ssign * r[c.si] / ma + 1.0) * 0.5;
	*t = (c.tsign * r[c.ti] / ma + 1.0) * 0.5;
	return c.face;
}

/* Samples level l within it, nearest or bilinear. */
static void sample_level(const struct tex_image *img, int l, bool linear, const float coord[3],
			 float out[4])
{
	struct level lv = level_of(img, l);
	double w = lv.w, h = lv.h, d = lv.d;
	switch (img->target) {
	case IR_TARGET_1D:
		sample_at(&lv, 0, coord[0] * w, 0, 0, false, false, linear, img->wrap, out);
		break;
	case IR_TARGET_3D:
		sample_at(&lv, 0, coord[0] * w, coord[1] * h, coord[2] * d, true, true, linear,
			  img->wrap, out);
		break;
	case IR_TARGET_CUBE: {
		double s, t;
		int face = cube_face(coord, &s, &t);
		sample_at(&lv, face, s * w, t * h, 0, true, false, linear, TEX_WRAP_CLAMP, out);
		break;
	}
	case IR_TARGET_RECT:
		sample_at(&lv, 0, coord[0], coord[1], 0, true, false, linear, img->wrap, out);
		break;
	default: /* 2D */
		sample_at(&lv, 0, coord[0] * w, coord[1] * h, 0, true, false, linear, img->wrap,
			  out);
		break;
	}
}

/* --- level of detail ----------------------------------------------------- */

const char *tex_target_name(int target)
{
	static const char *const names[] = { "1D", "2D", "3D", "CUBE", "RECT" };
	return target >= IR_TARGET_1D && target <= IR_TARGET_RECT ? names[target] : "?";
}

const char *tex_filter_name(int filter)
{
	static const char *const names[TEX_FILTER_COUNT] = {
		"nearest", "linear", "nearest_mipmap_nearest", "linear_mipmap_nearest",
		"nearest_mipmap_linear", "linear_mipmap_linear",
	};
	return filter >= 0 && filter < TEX_FILTER_COUNT ? names[filter] : NULL;
}

bool tex_filter_is_mipmap(int filter)
{
	return filter >= TEX_FILTER_NEAREST_MIPMAP_NEAREST && filter < TEX_FILTER_COUNT;
}

/* Within a level: LINEAR_* and LINEAR filter bilinearly. */
static bool min_is_linear(int filter)
{
	return filter == TEX_FILTER_LINEAR || filter == TEX_FILTER_LINEAR_MIPMAP_NEAREST ||
	       filter == TEX_FILTER_LINEAR_MIPMAP_LINEAR;
}

/* Derivatives of a cube face's (s, t) at r from those of the direction
 * (the quotient rule on s = (sc / |ma| + 1) / 2); false when r has no
 * major axis. */
static bool cube_derivs(const float r[3], const float dr[3], double out[2])
{
	struct cube_axes c = cube_axes(r);
	double ma = r[c.mi], ama = fabs(ma);
	if (!(ama > 0.0) || !isfinite(ama))
		return false;
	double dma = ma < 0 ? -(double)dr[c.mi] : dr[c.mi];
	double sc = c.ssign * r[c.si], tc = c.tsign * r[c.ti];
	double dsc = c.ssign * dr[c.si], dtc = c.tsign * dr[c.ti];
	out[0] = (dsc * ama - sc * dma) / (2.0 * ama * ama);
	out[1] = (dtc * ama - tc * dma) / (2.0 * ama * ama);
	return true;
}

float tex_lambda(const struct tex_image *img, const float coord[3], const float dx[3],
		 const float dy[3])
{
	if (!img || img->width <= 0 || img->height <= 0)
		return 0.0f;
	double scale[3] = { img->width, img->height, img->depth > 0 ? img->depth : 1 };
	double gx[3] = { dx[0], dx[1], dx[2] }, gy[3] = { dy[0], dy[1], dy[2] };
	int n = 2;
	switch (img->target) {
	case IR_TARGET_1D:
		n = 1;
		break;
	case IR_TARGET_3D:
		n = 3;
		break;
	case IR_TARGET_RECT:
		scale[0] = scale[1] = 1.0;
		break;
	case IR_TARGET_CUBE:
		if (!cube_derivs(coord, dx, gx) || !cube_derivs(coord, dy, gy))
			return 0.0f;
		break;
	default:
		break;
	}
	double rx = 0.0, ry = 0.0;
	for (int i = 0; i < n; i++) {
		rx += gx[i] * scale[i] * gx[i] * scale[i];
		ry += gy[i] * scale[i] * gy[i] * scale[i];
	}
	return (float)(0.5 * log2(rx > ry ? rx : ry));
}

void tex_sample_lod(const struct tex_image *img, const float coord[3], float lambda,
		    float out[4])
{
	out[0] = out[1] = out[2] = 0.0f;
	out[3] = 1.0f;
	if (!img || !img->texels || img->width <= 0 || img->height <= 0)
		return;
	double lod = isnan(lambda) ? 0.0 : lambda;
	if (lod <= 0.0) { /* magnification */
		bool linear = img->mag == TEX_MAG_LINEAR ||
			      (img->mag != TEX_MAG_NEAREST && min_is_linear(img->filter));
		sample_level(img, 0, linear, coord, out);
		return;
	}
	int q = max_level(img), f = img->filter;
	bool linear = min_is_linear(f);
	if (f == TEX_FILTER_NEAREST_MIPMAP_NEAREST || f == TEX_FILTER_LINEAR_MIPMAP_NEAREST) {
		/* the level nearest lambda: ceil(lambda + 1/2) - 1, from 1/2 up */
		double d = lod <= 0.5 ? 0.0 : ceil(lod + 0.5) - 1.0;
		sample_level(img, d < q ? (int)d : q, linear, coord, out);
	} else if (f == TEX_FILTER_NEAREST_MIPMAP_LINEAR || f == TEX_FILTER_LINEAR_MIPMAP_LINEAR) {
		if (lod >= q) {
			sample_level(img, q, linear, coord, out);
			return;
		}
		int d = (int)floor(lod);
		double frac = lod - d;
		float a[4], b[4];
		sample_level(img, d, linear, coord, a);
		sample_level(img, d + 1, linear, coord, b);
		for (int c = 0; c < 4; c++)
			out[c] = (float)((1.0 - frac) * a[c] + frac * b[c]);
	} else {
		sample_level(img, 0, linear, coord, out);
	}
}

void tex_sample(const struct tex_image *img, const float coord[3], float out[4])
{
	tex_sample_lod(img, coord, 0.0f, out);
}
