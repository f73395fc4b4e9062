/* PNG write/read round trip (row 0 at the bottom, clamping) and the
 * built-in textures of uscc-run. */
#include <png.h>
#include <stdio.h>
#include <unistd.h>
#include "test_emu_util.h"
#include "builtin_textures.h"
#include "png_io.h"

static void temp_path(char *buf, size_t n)
{
	snprintf(buf, n, "%s/test_emu_png_%ld.png", USCC_BINARY_DIR, (long)getpid());
}

static void test_round_trip(void **state)
{
	(void)state;
	/* 3x2, row 0 (bottom) then row 1 (top) */
	const float img[2 * 3 * 4] = {
		0, 0, 0, 1,   1, 0, 0, 1,   0, 1, 0, 1,
		0, 0, 1, 1,   0.5f, 0.25f, 0.75f, 0,   1.5f, -1, NAN, 0.2f,
	};
	char path[512], why[256];
	temp_path(path, sizeof path);
	assert_true(png_write_rgba(path, 3, 2, img, why, sizeof why));
	int w, h;
	float *back;
	assert_true(png_read_rgba(path, &w, &h, &back, why, sizeof why));
	assert_int_equal(w, 3);
	assert_int_equal(h, 2);
	const float expect[2 * 3 * 4] = {
		0, 0, 0, 1,   1, 0, 0, 1,   0, 1, 0, 1,
		0, 0, 1, 1,   128 / 255.0f, 64 / 255.0f, 191 / 255.0f, 0,   1, 0, 0, 51 / 255.0f,
	};
	for (int i = 0; i < 24; i++)
		assert_float_equal(back[i], expect[i], 1e-6);
	free(back);

	/* the file's first row is the top row (GL row 1) */
	png_image pi;
	memset(&pi, 0, sizeof pi);
	pi.version = PNG_IMAGE_VERSION;
	assert_true(png_image_begin_read_from_file(&pi, path));
	pi.format = PNG_FORMAT_RGBA;
	uint8_t raw[24];
	assert_true(png_image_finish_read(&pi, NULL, raw, 12, NULL));
	assert_int_equal(raw[2], 255);      /* pixel (0,1) blue */
	assert_int_equal(raw[12 + 0], 0);   /* pixel (0,0) black */
	assert_int_equal(raw[12 + 4], 255); /* pixel (1,0) red */
	unlink(path);
}

static void test_read_errors(void **state)
{
	(void)state;
	int w, h;
	float *t;
	char why[256];
	assert_false(png_read_rgba("/nonexistent/x.png", &w, &h, &t, why, sizeof why));
	assert_non_null(strstr(why, "/nonexistent/x.png"));
	assert_false(png_write_rgba("/nonexistent/dir/x.png", 1, 1,
				    (const float[4]){ 0 }, why, sizeof why));
}

static void test_builtins(void **state)
{
	(void)state;
	int w, h;
	float *t;
	assert_true(builtin_texture("checker", &w, &h, &t));
	assert_int_equal(w, 8);
	assert_int_equal(h, 8);
	assert_true(t[0] == 0 && t[1] == 0 && t[2] == 0 && t[3] == 1);      /* (0,0) */
	assert_true(t[4] == 1 && t[5] == 1 && t[6] == 1 && t[7] == 1);      /* (1,0) */
	assert_true(t[(8 + 1) * 4] == 0);                                   /* (1,1) */
	free(t);
	assert_true(builtin_texture("gradient", &w, &h, &t));
	assert_int_equal(w, 16);
	const float *g = &t[(5 * 16 + 3) * 4];                              /* (3,5) */
	assert_true(g[0] == 3.5f / 16 && g[1] == 5.5f / 16 && g[2] == 0.5f && g[3] == 1);
	free(t);
	assert_false(builtin_texture("nope", &w, &h, &t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_builtins),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
