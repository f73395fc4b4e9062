/* Built-in textures, computed rather than stored. */
#include <stdlib.h>
#include <string.h>
#include "builtin_textures.h"

static void checker_texel(int i, int j, float *t)
{
	float v = (i + j) % 2 ? 1.0f : 0.0f;
	t[0] = t[1] = t[2] = v;
	t[3] = 1.0f;
}

static void gradient_texel(int i, int j, float *t)
{
	t[0] = (i + 0.5f) / 16.0f;
	t[1] = (j + 0.5f) / 16.0f;
	t[2] = 0.5f;
	t[3] = 1.0f;
}

static const struct builtin {
	const char *name;
	int size;
	void (*texel)(int i, int j, float *t);
} builtins[] = {
	{ "checker", 8, checker_texel },
	{ "gradient", 16, gradient_texel },
};

bool builtin_texture(const char *name, int *w, int *h, float **texels)
{
	for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++) {
		const struct builtin *b = &builtins[k];
		if (strcmp(name, b->name) != 0)
			continue;
		float *t = malloc((size_t)b->size * (size_t)b->size * 4 * sizeof(float));
		if (!t)
			return false;
		for (int j = 0; j < b->size; j++)
			for (int i = 0; i < b->size; i++)
				b->texel(i, j, &t[((size_t)j * (size_t)b->size + (size_t)i) * 4]);
		*w = *h = b->size;
		*texels = t;
		return true;
	}
	return false;
}
