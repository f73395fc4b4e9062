/* Built-in textures, computed rather than stored. */
#include <stdlib.h>
#include <string.h>
#include "builtin_textures.h"

static void checker_texel(int level, int i, int j, float *t)
{
	(void)level;
	float v = (i + j) % 2 ? 1.0f : 0.0f;
	t[0] = t[1] = t[2] = v;
	t[3] = 1.0f;
}

static void gradient_texel(int level, int i, int j, float *t)
{
	(void)level;
	t[0] = (i + 0.5f) / 16.0f;
	t[1] = (j + 0.5f) / 16.0f;
	t[2] = 0.5f;
	t[3] = 1.0f;
}

/* piglit_miptree_texture(): red, green, blue, white by level */
static void miptree_texel(int level, int i, int j, float *t)
{
	static const float colour[4][4] = {
		{ 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 }, { 1, 1, 1, 1 },
	};
	(void)i, (void)j;
	memcpy(t, colour[level & 3], sizeof colour[0]);
}

static const struct builtin {
	const char *name;
	int size, levels;
	void (*texel)(int level, int i, int j, float *t);
} builtins[] = {
	{ "checker", 8, 1, checker_texel },
	{ "gradient", 16, 1, gradient_texel },
	{ "miptree", 8, 4, miptree_texel },
};

bool builtin_texture_chain(const char *name, int *w, int *h, int *levels, float **texels)
{
	for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++) {
		const struct builtin *b = &builtins[k];
		if (strcmp(name, b->name) != 0)
			continue;
		size_t n = 0;
		for (int l = 0; l < b->levels; l++)
			n += (size_t)(b->size >> l) * (size_t)(b->size >> l);
		float *t = malloc(n * 4 * sizeof(float)), *p = t;
		if (!t)
			return false;
		for (int l = 0; l < b->levels; l++) {
			int s = b->size >> l;
			for (int j = 0; j < s; j++)
				for (int i = 0; i < s; i++, p += 4)
					b->texel(l, i, j, p);
		}
		*w = *h = b->size;
		*levels = b->levels;
		*texels = t;
		return true;
	}
	return false;
}

bool builtin_texture(const char *name, int *w, int *h, float **texels)
{
	int levels;
	return builtin_texture_chain(name, w, h, &levels, texels);
}
