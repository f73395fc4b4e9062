/* The command line and output shared by uscc-run, uscc-ref and
 * llvmpipe-render (runtime/run_args.c, INTERFACES.md §5). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ir.h"
#include "run_args.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])))

static void test_common_options(void **state)
{
	(void)state;
	char a[][40] = { "prog", "--size", "7x5", "--uniform=u[1]=1,-2.5", "--varying",
			 "v=0:1,2:3:4,5,6,7", "--texture", "3=checker", "--probe", "1,2",
			 "--target", "2", "-o", "x.png", "--dump", "in.bin" };
	char *argv[ARGC(a)];
	for (int i = 0; i < ARGC(a); i++)
		argv[i] = a[i];
	static struct run_opts o;
	char why[256] = "";
	assert_int_equal(run_args_parse(&o, "prog", ARGC(a), argv, NULL, NULL, why, sizeof why),
			 RUN_PARSE_OK);
	assert_int_equal(o.width, 7);
	assert_int_equal(o.height, 5);
	assert_int_equal(o.nuniforms, 1);
	assert_string_equal(o.uniforms[0].name, "u[1]");
	assert_int_equal(o.uniforms[0].ncomp, 2);
	assert_true(o.uniforms[0].value[1] == -2.5f);
	assert_int_equal(o.nvaryings, 1);
	assert_string_equal(o.varyings[0].name, "v");
	/* missing components are (0, 0, 0, 1): BL = (0,0,0,1), BR = (1,2,0,1) */
	assert_true(o.varyings[0].corners[0][3] == 1.0f);
	assert_true(o.varyings[0].corners[1][1] == 2.0f);
	assert_true(o.varyings[0].corners[1][2] == 0.0f);
	assert_true(o.varyings[0].corners[3][3] == 7.0f);
	assert_string_equal(o.tex_spec[3], "checker");
	assert_null(o.tex_spec[0]);
	assert_int_equal(o.nprobes, 1);
	assert_int_equal(o.probes[0][0], 1);
	assert_int_equal(o.probes[0][1], 2);
	assert_int_equal(o.target, 2);
	assert_string_equal(o.out_png, "x.png");
	assert_true(o.dump);
	assert_string_equal(o.file, "in.bin");
}

/* Parses "prog ARG..." expecting status st and, for errors, message msg. */
static void expect(enum run_parse st, const char *msg, int n, ...)
{
	char a[8][40];
	char *argv[9] = { "prog" };
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		snprintf(a[i], sizeof a[i], "%s", va_arg(ap, const char *));
		argv[i + 1] = a[i];
	}
	va_end(ap);
	static struct run_opts o;
	char why[256] = "";
	assert_int_equal(run_args_parse(&o, "prog", n + 1, argv, NULL, NULL, why, sizeof why), st);
	if (msg)
		assert_string_equal(why, msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect(RUN_PARSE_ERROR, "prog: bad size '0x4' (want WxH)", 2, "--size", "0x4");
	expect(RUN_PARSE_ERROR, "prog: --size needs a value", 1, "--size");
	expect(RUN_PARSE_ERROR, "prog: bad target '4' (0..3)", 2, "--target=4", "f");
	expect(RUN_PARSE_ERROR, "prog: bad texture '16=checker' (want UNIT=FILE.png|checker|"
	       "gradient|miptree, unit 0..15)", 2, "--texture", "16=checker");
	expect(RUN_PARSE_ERROR, "prog: bad texture '1=' (want UNIT=FILE.png|checker|"
	       "gradient|miptree, unit 0..15)", 1, "--texture=1=");
	expect(RUN_PARSE_ERROR, "prog: bad varying 'v' (want NAME=BL:BR:TL:TR, each x,y,z,w)",
	       1, "--varying=v=1:2:3");
	expect(RUN_PARSE_ERROR, "prog: bad uniform '=1' (want NAME=x,y,...)", 1, "--uniform==1");
	expect(RUN_PARSE_ERROR, "prog: bad probe '1' (want X,Y)", 1, "--probe=1");
	expect(RUN_PARSE_ERROR, "prog: unknown option '--sizes'", 1, "--sizes");
	expect(RUN_PARSE_ERROR, "prog: more than one input file", 2, "a", "b");
	expect(RUN_PARSE_USAGE, NULL, 1, "--dump");
	expect(RUN_PARSE_HELP, NULL, 2, "-h", "--bogus");
	expect(RUN_PARSE_OK, NULL, 1, "-"); /* stdin */
}

/* A program's own option: "--flag" sets *ctx. */
static int extra(void *ctx, int argc, char **argv, int *i, char *why, size_t why_len)
{
	(void)argc, (void)why, (void)why_len;
	if (strcmp(argv[*i], "--flag"))
		return 0;
	*(int *)ctx = 1;
	return 1;
}

static void test_extra_option(void **state)
{
	(void)state;
	char a[][16] = { "prog", "--flag", "f" };
	char *argv[] = { a[0], a[1], a[2] };
	static struct run_opts o;
	int flag = 0;
	char why[128];
	assert_int_equal(run_args_parse(&o, "prog", 3, argv, extra, &flag, why, sizeof why),
			 RUN_PARSE_OK);
	assert_int_equal(flag, 1);
	assert_string_equal(o.file, "f");
}

static void test_textures(void **state)
{
	(void)state;
	static struct run_opts o;
	o.prog = "prog";
	o.tex_spec[2] = "checker";
	o.tex_spec[5] = "gradient";
	int target[RUN_UNITS];
	for (int u = 0; u < RUN_UNITS; u++)
		target[u] = IR_TARGET_2D;
	target[2] = IR_TARGET_CUBE;
	struct run_textures t;
	char why[256];
	assert_true(run_textures_load(&t, &o, target, why, sizeof why));
	assert_null(t.img[0].texels);
	assert_int_equal(t.img[2].target, IR_TARGET_CUBE);
	assert_int_equal(t.img[2].width, 8);
	assert_int_equal(t.img[2].depth, 1);
	assert_int_equal(t.img[2].filter, TEX_FILTER_NEAREST);
	assert_int_equal(t.img[2].wrap, TEX_WRAP_REPEAT);
	/* face 5 (-Z), texel (1,0) of the checker: white */
	const float *w = t.img[2].texels + (size_t)5 * 8 * 8 * 4 + 4;
	assert_true(w[0] == 1.0f && w[3] == 1.0f);
	assert_true(t.img[2].texels[5 * 8 * 8 * 4] == 0.0f);
	/* gradient texel (0,0) = (0.5/16, 0.5/16, 0.5, 1) */
	assert_int_equal(t.img[5].width, 16);
	assert_true(t.img[5].texels[0] == 0.5f / 16);
	assert_true(t.img[5].texels[2] == 0.5f);
	run_textures_free(&t);

	o.tex_spec[7] = "/nonexistent/none.png";
	assert_false(run_textures_load(&t, &o, NULL, why, sizeof why));
	assert_int_equal(strncmp(why, "prog: ", 6), 0);
	assert_null(t.store[2]); /* freed on failure */
}

static void test_report(void **state)
{
	(void)state;
	/* 2x2: (0,0) red, (1,0) discarded, (0,1) (0.25, 0.5, 0.75, 1), (1,1) 0 */
	const float rgba[16] = { 1, 0, 0, 1,  9, 9, 9, 9,  0.25f, 0.5f, 0.75f, 1,  0, 0, 0, 0 };
	const bool discarded[4] = { false, true, false, false };
	struct run_image img = { 2, 2, rgba, discarded };
	static struct run_opts o;
	o.prog = "prog";
	o.nprobes = 2;
	o.probes[0][0] = 0, o.probes[0][1] = 1;
	o.probes[1][0] = 2, o.probes[1][1] = 0;
	char buf[512] = "", why[128];
	FILE *f = tmpfile();
	assert_non_null(f);
	/* probes only: no dump */
	assert_true(run_report(f, &o, &img, why, sizeof why));
	o.dump = true;
	o.nprobes = 0;
	assert_true(run_report(f, &o, &img, why, sizeof why));
	rewind(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	assert_string_equal(buf, "0 1 0.25 0.5 0.75 1\n2 0 outside\n"
			    "0 0 1 0 0 1\n1 0 discard\n0 1 0.25 0.5 0.75 1\n1 1 0 0 0 0\n");
	o.out_png = "/nonexistent/dir/out.png";
	f = tmpfile();
	assert_non_null(f);
	assert_false(run_report(f, &o, &img, why, sizeof why));
	fclose(f);
	assert_int_equal(strncmp(why, "prog: ", 6), 0);
}

static void test_read_file(void **state)
{
	(void)state;
	char path[256];
	snprintf(path, sizeof path, "%s/test_run_args_%ld.txt", USCC_BINARY_DIR, (long)getpid());
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite("ab\0c", 1, 4, f);
	fclose(f);
	size_t size = 0;
	char *s = run_read_file(path, &size);
	remove(path);
	assert_non_null(s);
	assert_int_equal(size, 4);
	assert_memory_equal(s, "ab\0c", 5); /* with the terminating NUL */
	free(s);
	assert_null(run_read_file("/nonexistent/file", NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_common_options),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_extra_option),
		cmocka_unit_test(test_textures),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_read_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
