/* Hostile inputs of uscc-run's options and texture files (runtime/png_io.c,
 * runtime/run_args.c): sizes, probes and counts past their bounds are
 * refused with the bound in the message; a PNG that is empty, truncated,
 * corrupt, not a PNG at all, a directory, or whose header claims absurd
 * dimensions is an error naming the file, never a crash or a huge
 * allocation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "png_io.h"
#include "run_args.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/uscc-run-inputs-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Parses "prog ARGS..." (NULL-terminated); returns the status, message in why. */
static enum run_parse parse(struct run_opts *o, char *why, size_t why_len, ...)
{
	static char store[200][32];
	char *argv[201] = { "prog" };
	int argc = 1;
	va_list ap;
	va_start(ap, why_len);
	for (const char *a; argc < 200 && (a = va_arg(ap, const char *)); argc++) {
		snprintf(store[argc], sizeof store[argc], "%s", a);
		argv[argc] = store[argc];
	}
	va_end(ap);
	why[0] = 0;
	return run_args_parse(o, "prog", argc, argv, NULL, NULL, why, why_len);
}

static void test_numeric_bounds(void **state)
{
	(void)state;
	static struct run_opts o;
	char why[256];
	assert_int_equal(parse(&o, why, sizeof why, "--size", "100000x100000", "f", NULL),
			 RUN_PARSE_ERROR);
	assert_string_equal(why, "prog: bad size '100000x100000' (at most 16384 pixels a side)");
	assert_int_equal(parse(&o, why, sizeof why, "--size", "16384x16385", "f", NULL),
			 RUN_PARSE_ERROR);
	assert_int_equal(parse(&o, why, sizeof why, "--size", "16384x1", "f", NULL), RUN_PARSE_OK);
	assert_int_equal(o.width, 16384);
	/* numbers that overflow an int, or trail junk, are no size */
	static const char *const bad_sizes[] = {
		"99999999999999999999x2", "2x99999999999", "64x64junk", "64", "x64", "64x",
		"-4x4", "4x-4", "4.5x4", "",
	};
	for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
		assert_int_equal(parse(&o, why, sizeof why, "--size", bad_sizes[i], "f", NULL),
				 RUN_PARSE_ERROR);
		assert_non_null(strstr(why, "bad size"));
	}
	assert_int_equal(parse(&o, why, sizeof why, "--probe", "1,2x", "f", NULL), RUN_PARSE_ERROR);
	assert_string_equal(why, "prog: bad probe '1,2x' (want X,Y)");
	assert_int_equal(parse(&o, why, sizeof why, "--probe", "99999999999,2", "f", NULL),
			 RUN_PARSE_ERROR);
	assert_int_equal(parse(&o, why, sizeof why, "--probe", "-1,3", "f", NULL), RUN_PARSE_OK);
	assert_int_equal(o.probes[0][0], -1);
	assert_int_equal(parse(&o, why, sizeof why, "--target", "99999999999", "f", NULL),
			 RUN_PARSE_ERROR);
}

/* 65 of an option that takes at most 64: the bound in the message. */
static void test_count_bounds(void **state)
{
	(void)state;
	static const char *const opts[][3] = {
		{ "--probe", "1,1", "prog: bad probe '1,1' (at most 64 --probe options)" },
		{ "--uniform", "u=1", "prog: bad uniform 'u=1' (at most 64 --uniform options)" },
		{ "--varying", "v=0:0:0:0",
		  "prog: bad varying 'v=0:0:0:0' (at most 64 --varying options)" },
	};
	for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
		static char store[140][16];
		char *argv[140] = { "prog" };
		int argc = 1;
		for (int i = 0; i < 65; i++) {
			snprintf(store[argc], sizeof store[argc], "%s", opts[k][0]);
			argv[argc] = store[argc];
			argc++;
			snprintf(store[argc], sizeof store[argc], "%s", opts[k][1]);
			argv[argc] = store[argc];
			argc++;
		}
		static struct run_opts o;
		char why[256];
		assert_int_equal(run_args_parse(&o, "prog", argc, argv, NULL, NULL, why, sizeof why),
				 RUN_PARSE_ERROR);
		assert_string_equal(why, opts[k][2]);
	}
}

/* ---- PNG files ---- */

static uint32_t crc32_of(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
	}
	return c ^ 0xffffffffu;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static const char *path_of(const char *name)
{
	static char path[4][320];
	static int next;
	char *p = path[next++ % 4];
	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	return p;
}

static void write_bytes(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
}

/* A chunk of `len` bytes of data at p (its CRC made right); returns its end. */
static uint8_t *put_chunk(uint8_t *p, const char *type, const uint8_t *data, uint32_t len)
{
	put_be32(p, len);
	memcpy(p + 4, type, 4);
	if (len)
		memcpy(p + 8, data, len);
	put_be32(p + 8 + len, crc32_of(p + 4, 4 + len));
	return p + 12 + len;
}

/* The signature, an IHDR claiming w x h RGBA8, then the start of a
 * zlib stream in an IDAT and IEND: what an absurd header looks like. */
static void write_header_only(const char *path, uint32_t w, uint32_t h)
{
	uint8_t b[8 + 25 + 14 + 12] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	uint8_t ihdr[13] = { 0 }, zlib[2] = { 0x78, 0x9c };
	put_be32(ihdr, w);
	put_be32(ihdr + 4, h);
	ihdr[8] = 8, ihdr[9] = 6; /* 8 bits, RGBA; compression, filter, interlace 0 */
	uint8_t *p = put_chunk(b + 8, "IHDR", ihdr, 13);
	p = put_chunk(p, "IDAT", zlib, 2);
	p = put_chunk(p, "IEND", NULL, 0);
	write_bytes(path, b, (size_t)(p - b));
}

static uint8_t *read_bytes(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t *buf = malloc(1 << 16);
	assert_non_null(buf);
	*n = fread(buf, 1, 1 << 16, f);
	fclose(f);
	return buf;
}

/* png_read_rgba fails, naming the file (and `what` when given); so does
 * a texture option loading it. */
static void expect_bad_png(const char *path, const char *what, int cut)
{
	int w = -1, h = -1;
	float *rgba = (float *)1;
	char why[512] = "";
	if (png_read_rgba(path, &w, &h, &rgba, why, sizeof why))
		fail_msg("%s (cut at %d) was read as a %dx%d image", path, cut, w, h);
	assert_null(rgba);
	if (strncmp(why, path, strlen(path)) != 0 || (what && !strstr(why, what)))
		fail_msg("%s: message '%s'", path, why);

	static struct run_opts o;
	memset(&o, 0, sizeof o);
	o.prog = "prog";
	o.tex_spec[3] = path;
	struct run_textures t;
	assert_false(run_textures_load(&t, &o, NULL, why, sizeof why));
	assert_int_equal(strncmp(why, "prog: ", 6), 0);
	assert_non_null(strstr(why, path));
}

static void test_bad_pngs(void **state)
{
	(void)state;
	const float px[4 * 4] = { 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 1 };
	char why[256];
	const char *good = path_of("good.png");
	assert_true(png_write_rgba(good, 2, 2, px, why, sizeof why));
	int w, h;
	float *rgba;
	assert_true(png_read_rgba(good, &w, &h, &rgba, why, sizeof why));
	assert_int_equal(w, 2);
	free(rgba);
	size_t n;
	uint8_t *bytes = read_bytes(good, &n);
	assert_true(n > 60);

	write_bytes(path_of("empty.png"), "", 0);
	expect_bad_png(path_of("empty.png"), NULL, -1);
	/* cut anywhere before the end of the image data (a file whose IEND is
	 * cut short still holds the whole image: libpng may take it) */
	size_t iend = 0;
	for (size_t i = 4; i + 4 <= n && !iend; i++)
		if (!memcmp(bytes + i, "IEND", 4))
			iend = i - 4;
	assert_true(iend > 40);
	for (size_t cut = 1; cut < iend; cut++) {
		write_bytes(path_of("cut.png"), bytes, cut);
		expect_bad_png(path_of("cut.png"), NULL, (int)cut);
	}
	write_bytes(path_of("text.png"), "hello, world\n", 13);
	expect_bad_png(path_of("text.png"), "Not a PNG", -1);
	/* every byte after the signature flipped in turn: a CRC or format
	 * error, or (in ancillary data) a valid image; never a crash */
	for (size_t i = 8; i < n; i++) {
		bytes[i] ^= 0x41;
		write_bytes(path_of("flip.png"), bytes, n);
		rgba = NULL;
		if (png_read_rgba(path_of("flip.png"), &w, &h, &rgba, why, sizeof why))
			assert_true(w >= 1 && h >= 1 && w * h <= 16 << 20);
		else
			assert_non_null(strstr(why, path_of("flip.png")));
		free(rgba);
		bytes[i] ^= 0x41;
	}
	free(bytes);
	write_header_only(path_of("huge.png"), 100000, 100000);
	expect_bad_png(path_of("huge.png"), "PNG of 100000x100000 texels is too large", -1);
	write_header_only(path_of("huger.png"), 0x7fffffff, 0x7fffffff); /* libpng's limits */
	expect_bad_png(path_of("huger.png"), NULL, -1);
	write_header_only(path_of("big.png"), 16000, 16000);
	expect_bad_png(path_of("big.png"), "too large", -1);
	write_header_only(path_of("wide.png"), 20000, 1);
	expect_bad_png(path_of("wide.png"), "too large", -1);
	write_header_only(path_of("zero.png"), 0, 7);
	expect_bad_png(path_of("zero.png"), NULL, -1);
	/* a header within bounds, its pixels missing */
	write_header_only(path_of("nodata.png"), 64, 64);
	expect_bad_png(path_of("nodata.png"), NULL, -1);
	expect_bad_png(dir, NULL, -1); /* a directory */
	expect_bad_png(path_of("missing.png"), NULL, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numeric_bounds),
		cmocka_unit_test(test_count_bounds),
		cmocka_unit_test(test_bad_pngs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
