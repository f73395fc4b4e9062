/* uscc-run end to end: a hand-built program written as a container, run by
 * the built binary (skipped when it has not been built). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test_emu_util.h"
#include "container.h"
#include "png_io.h"

static char dir[512];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "%s/test_emu_run_cli_%ld", USCC_BINARY_DIR, (long)getpid());
	char cmd[600];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static bool have_binary(void)
{
	return access(USCC_BINARY_DIR "/uscc-run", X_OK) == 0;
}

/* TEX LD t1 <- tex0(t0); OUT t1 * u + (0,0,0,0), with uniform u in c0 and
 * input "gl_TexCoord[0]" in t0. */
static void write_program(const char *path)
{
	struct tp t;
	tp_init(&t);
	t.inputs[0].name = "gl_TexCoord[0]";
	struct r500_inst *x = &t.code[t.n++];
	memset(x, 0, sizeof *x);
	x->cmn.type = R500_TYPE_TEX;
	x->cmn.rgb_wmask = 7;
	x->cmn.alpha_wmask = 1;
	x->cmn.tex_sem_wait = 1;
	x->tex.inst = R500_TEX_LD;
	x->tex.sem_acquire = 1;
	x->tex.dst_addr = 1;
	for (int c = 0; c < 4; c++)
		x->tex.src_swz[c] = x->tex.dst_swz[c] = (uint16_t)c;
	struct r500_inst *o = tp_out(&t);
	o->cmn.tex_sem_wait = 1;
	tp_src_temp(o, 0, 1);
	tp_src_const(o, 1, 0);
	t.unis[0] = (struct r500_uniform){ .name = "u", .type = "vec4", .slot = 0,
					   .swizzle = "xyzw" };
	t.nunis = 1;
	struct r500_sampler s = { .name = "tex", .unit = 0, .target = IR_TARGET_2D };
	struct r500_output out = { .name = "gl_FragColor", .target = 0 };
	struct r500_program *p = tp_prog(&t);
	p->nconst_slots = 1;
	p->samplers = &s;
	p->nsamplers = 1;
	p->outputs = &out;
	p->noutputs = 1;
	size_t size;
	uint8_t *buf = container_write(p, &mem_default_allocator, &size);
	assert_non_null(buf);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, size, f), size);
	fclose(f);
	mem_free(&mem_default_allocator, buf, size);
}

/* Runs uscc-run with `args`; returns its exit status, output in out. */
static int run(const char *args, char *out, size_t n)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "cd '%s' && '%s/uscc-run' %s 2>/dev/null", dir,
		 USCC_BINARY_DIR, args);
	FILE *f = popen(cmd, "r");
	assert_non_null(f);
	size_t got = fread(out, 1, n - 1, f);
	out[got] = 0;
	int st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_dump_probe_png(void **state)
{
	(void)state;
	if (!have_binary())
		skip();
	char path[600], out[8192];
	snprintf(path, sizeof path, "%s/p.bin", dir);
	write_program(path);
	/* gradient at 4x2: pixel (1,0) has (u,v) = (.375,.25) -> texel (6,4) */
	assert_int_equal(run("p.bin --size 4x2 --texture 0=gradient --uniform u=2,1,1,0.5 "
			     "--probe 1,0", out, sizeof out), 0);
	assert_string_equal(out, "1 0 0.8125 0.28125 0.5 0.5\n");
	assert_int_equal(run("p.bin --size 2x2 --texture 0=checker --uniform u=1,1,1,1 --dump",
			     out, sizeof out), 0);
	/* u = .25/.75 -> texels 2/6, v likewise: (2+2), (6+2)... all even: black */
	assert_string_equal(out, "0 0 0 0 0 1\n1 0 0 0 0 1\n0 1 0 0 0 1\n1 1 0 0 0 1\n");
	/* a varying given by its corners: BL = (0,0), TR = (.125,.125) */
	assert_int_equal(run("p.bin --size 2x2 --texture 0=checker --uniform u=1,1,1,1 "
			     "--varying 'gl_TexCoord[0]=0,0,0,1:0.25,0,0,1:0,0.25,0,1:0.25,0.25,0,1' "
			     "--probe 1,0 --probe 0,0", out, sizeof out), 0);
	/* (1,0): (.1875, .0625) -> texel (1,0) white; (0,0): texel (0,0) black */
	assert_string_equal(out, "1 0 1 1 1 1\n0 0 0 0 0 1\n");
	assert_int_equal(run("p.bin --size 4x2 --texture 0=gradient --uniform u=1,1,1,1 "
			     "-o out.png", out, sizeof out), 0);
	char png[600], why[256];
	snprintf(png, sizeof png, "%s/out.png", dir);
	int w, h;
	float *img;
	assert_true(png_read_rgba(png, &w, &h, &img, why, sizeof why));
	assert_int_equal(w, 4);
	assert_int_equal(h, 2);
	/* pixel (3,1): (u,v) = (.875,.75) -> texel (14,12) = (14.5/16, 12.5/16) */
	assert_float_equal(img[(4 + 3) * 4 + 0], 231 / 255.0f, 1e-6);
	assert_float_equal(img[(4 + 3) * 4 + 1], 199 / 255.0f, 1e-6);
	free(img);
}

static void test_exit_codes(void **state)
{
	(void)state;
	if (!have_binary())
		skip();
	char path[600], out[4096];
	snprintf(path, sizeof path, "%s/p.bin", dir);
	write_program(path);
	assert_int_equal(run("missing.bin", out, sizeof out), 2);
	assert_int_equal(run("p.bin --size 0x1", out, sizeof out), 2);
	assert_int_equal(run("p.bin --texture 0=missing.png", out, sizeof out), 2);
	assert_int_equal(run("p.bin --frobnicate", out, sizeof out), 2);
	assert_int_equal(run("", out, sizeof out), 2);
	FILE *f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 40, SEEK_SET);
	fputc(0x5A, f);
	fclose(f);
	assert_int_equal(run("p.bin", out, sizeof out), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dump_probe_png),
		cmocka_unit_test(test_exit_codes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
