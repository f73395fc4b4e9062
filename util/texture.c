/* Texture sampling shared by the IR interpreter and the emulator: one
 * level, nearest or bilinear (trilinear across slices for 3D), repeat,
 * clamp-to-edge or mirrored repeat.  1D images use their row 0; cube maps
 * pick a face by the major axis as the GL spec's table does and always
 * clamp; RECT coordinates are in texels. */
#include <math.h>
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

struct axis {
	int i[2];       /* the two texels (nearest: both the same) */
	double w;       /* weight of i[1] */
};

/* pos: coordinate in texels (texel centres at k + 0.5). */
static struct axis axis_setup(double pos, int n, enum tex_filter f, enum tex_wrap wrap)
{
	struct axis a;
	pos = tame(pos);
	if (f == TEX_FILTER_NEAREST) {
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

static void fetch(const struct tex_image *img, int face, int x, int y, int z, double w,
		  double acc[4])
{
	long long layers = img->target == IR_TARGET_CUBE || img->depth <= 0 ? 1 : img->depth;
	long long at = (((long long)face * layers + z) * img->height + y) * img->width + x;
	for (int c = 0; c < 4; c++)
		acc[c] += w * img->texels[at * 4 + c];
}

/* Samples one face/volume at texel-space position (px, py, pz). */
static void sample_at(const struct tex_image *img, int face, double px, double py, double pz,
		      bool use_y, bool use_z, enum tex_wrap wrap, float out[4])
{
	int d = img->depth > 0 ? img->depth : 1;
	struct axis ax = axis_setup(px, img->width, img->filter, wrap);
	struct axis ay = use_y ? axis_setup(py, img->height, img->filter, wrap)
			       : (struct axis){ { 0, 0 }, 0.0 };
	struct axis az = use_z ? axis_setup(pz, d, img->filter, wrap)
			       : (struct axis){ { 0, 0 }, 0.0 };
	double acc[4] = { 0, 0, 0, 0 };
	for (int k = 0; k < 2; k++)
		for (int j = 0; j < 2; j++)
			for (int i = 0; i < 2; i++) {
				double w = (i ? ax.w : 1 - ax.w) * (j ? ay.w : 1 - ay.w) *
					   (k ? az.w : 1 - az.w);
				if (w != 0.0)
					fetch(img, face, ax.i[i], ay.i[j], az.i[k], w, acc);
			}
	for (int c = 0; c < 4; c++)
		out[c] = (float)acc[c];
}

/* GL major-axis rule: face (+X -X +Y -Y +Z -Z) and its (s, t). */
static int cube_face(const float r[3], double *s, double *t)
{
	double x = r[0], y = r[1], z = r[2];
	double ax = fabs(x), ay = fabs(y), az = fabs(z), sc, tc, ma;
	int face;
	if (ax >= ay && ax >= az) {
		face = x >= 0 ? 0 : 1; ma = ax; sc = x >= 0 ? -z : z; tc = -y;
	} else if (ay >= az) {
		face = y >= 0 ? 2 : 3; ma = ay; sc = x; tc = y >= 0 ? z : -z;
	} else {
		face = z >= 0 ? 4 : 5; ma = az; sc = z >= 0 ? x : -x; tc = -y;
	}
	if (!(ma > 0.0) || !isfinite(ma)) {
		*s = *t = 0.5;
		return face;
	}
	*s = (sc / ma + 1.0) * 0.5;
	*t = (tc / ma + 1.0) * 0.5;
	return face;
}

const char *tex_target_name(int target)
{
	static const char *const names[] = { "1D", "2D", "3D", "CUBE", "RECT" };
	return target >= IR_TARGET_1D && target <= IR_TARGET_RECT ? names[target] : "?";
}

void tex_sample(const struct tex_image *img, const float coord[3], float out[4])
{
	out[0] = out[1] = out[2] = 0.0f;
	out[3] = 1.0f;
	if (!img || !img->texels || img->width <= 0 || img->height <= 0)
		return;
	double w = img->width, h = img->height, d = img->depth > 0 ? img->depth : 1;
	switch (img->target) {
	case IR_TARGET_1D:
		sample_at(img, 0, coord[0] * w, 0, 0, false, false, img->wrap, out);
		break;
	case IR_TARGET_3D:
		sample_at(img, 0, coord[0] * w, coord[1] * h, coord[2] * d, true, true,
			  img->wrap, out);
		break;
	case IR_TARGET_CUBE: {
		double s, t;
		int face = cube_face(coord, &s, &t);
		sample_at(img, face, s * w, t * h, 0, true, false, TEX_WRAP_CLAMP, out);
		break;
	}
	case IR_TARGET_RECT:
		sample_at(img, 0, coord[0], coord[1], 0, true, false, img->wrap, out);
		break;
	default: /* 2D */
		sample_at(img, 0, coord[0] * w, coord[1] * h, 0, true, false, img->wrap, out);
		break;
	}
}
