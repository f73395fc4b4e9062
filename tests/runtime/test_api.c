/* libuscc public API: compile, determinism, diagnostics, stage rules,
 * cache key, container reading, and allocation failure at every step. */
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "uscc.h"

static const char good_src[] =
	"uniform vec4 tint;\n"
	"void main()\n"
	"{\n"
	"    gl_FragColor = tint * vec4(0.5, 0.25, 1.0, 1.0);\n"
	"}\n";

static const char bad_src[] =
	"void main()\n"
	"{\n"
	"    gl_FragColor = undefined_thing;\n"
	"}\n";

static struct uscc_options *opts(const char *name)
{
	struct uscc_options *o = uscc_options_create(NULL);
	assert_non_null(o);
	assert_int_equal(uscc_options_set_filename(o, name), USCC_OK);
	return o;
}

/* The header's version macros and the library's uscc_version() agree. */
static void test_version(void **state)
{
	(void)state;
	char want[32];
	snprintf(want, sizeof want, "%d.%d.%d", USCC_VERSION_MAJOR, USCC_VERSION_MINOR,
		 USCC_VERSION_PATCH);
	assert_string_equal(uscc_version(), want);
	assert_string_equal(USCC_VERSION_STRING, want);
}

static void test_compile_and_read(void **state)
{
	(void)state;
	struct uscc_options *o = opts("good.frag");
	struct uscc_result *r;
	enum uscc_status st = uscc_compile(o, good_src, USCC_NUL_TERMINATED, &r);
	if (st != USCC_OK)
		fail_msg("compile failed: %s", uscc_result_diagnostics(r));
	size_t size;
	const uint8_t *bin = uscc_result_data(r, &size);
	assert_non_null(bin);
	assert_true(size > 24);
	assert_memory_equal(bin, "USCC", 4);
	struct uscc_container *c;
	char err[256];
	assert_int_equal(uscc_container_open(NULL, bin, size, &c, err, sizeof err), USCC_OK);
	int ninst;
	assert_non_null(uscc_container_code(c, &ninst));
	assert_true(ninst >= 1);
	/* the one colour output goes to render target 0 */
	assert_int_equal(uscc_container_num_outputs(c), 1);
	struct uscc_output_info out;
	assert_true(uscc_container_output(c, 0, &out));
	assert_string_equal(out.name, "gl_FragColor");
	assert_int_equal(out.target, 0);
	assert_false(uscc_container_output(c, 1, &out));
	/* the uniform is in the table with a slot */
	assert_true(uscc_container_num_uniforms(c) >= 1);
	struct uscc_uniform_info u;
	assert_true(uscc_container_uniform(c, 0, &u));
	assert_string_equal(u.name, "tint");
	assert_true(u.slot >= 0 && u.slot < 256);
	assert_non_null(strstr(uscc_container_json(c), "\"version\":2"));
	assert_non_null(uscc_container_disasm(c));
	/* figures: the container's compile_us is 0 (determinism), the
	 * result's is measured */
	struct uscc_stats cs, rs;
	uscc_container_stats(c, &cs);
	assert_true(uscc_result_stats(r, &rs));
	assert_int_equal(cs.compile_us, 0);
	assert_true(rs.compile_us >= 0);
	assert_int_equal(cs.instructions, rs.instructions);
	assert_int_equal(cs.instructions, ninst);
	assert_non_null(strstr(uscc_result_stats_json(r), "\"instructions\":"));
	uscc_container_destroy(c);
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

/* The program's KIL and depth write, for a driver's early-Z decision. */
static void check_program_info(const char *src, bool kill, bool depth)
{
	struct uscc_result *r;
	if (uscc_compile(NULL, src, USCC_NUL_TERMINATED, &r) != USCC_OK)
		fail_msg("compile failed: %s", uscc_result_diagnostics(r));
	size_t size;
	const void *bin = uscc_result_data(r, &size);
	struct uscc_container *c;
	assert_int_equal(uscc_container_open(NULL, bin, size, &c, NULL, 0), USCC_OK);
	struct uscc_program_info pi;
	uscc_container_program_info(c, &pi);
	assert_int_equal(pi.uses_kill, kill);
	assert_int_equal(pi.writes_depth, depth);
	uscc_container_destroy(c);
	uscc_result_destroy(r);
}

static void test_program_info(void **state)
{
	(void)state;
	check_program_info(good_src, false, false);
	check_program_info("varying vec4 v;\n"
			   "void main() { if (v.x < 0.5) discard; gl_FragColor = v; }\n",
			   true, false);
	check_program_info("varying vec4 v;\n"
			   "void main() { gl_FragColor = v; gl_FragDepth = v.z * 0.5; }\n",
			   false, true);
}

static void test_deterministic(void **state)
{
	(void)state;
	struct uscc_options *a = opts("a.frag"), *b = opts("other/name.frag");
	struct uscc_result *ra, *rb;
	assert_int_equal(uscc_compile(a, good_src, USCC_NUL_TERMINATED, &ra), USCC_OK);
	assert_int_equal(uscc_compile(b, good_src, strlen(good_src), &rb), USCC_OK);
	size_t na, nb;
	const void *da = uscc_result_data(ra, &na), *db = uscc_result_data(rb, &nb);
	assert_int_equal(na, nb);
	assert_memory_equal(da, db, na);
	uscc_result_destroy(ra);
	uscc_result_destroy(rb);
	uscc_options_destroy(a);
	uscc_options_destroy(b);
}

/* Step times: none while off; on, every step a compile runs gets time
 * (the frontend's, an IR pass, the backend's stages), a step made inside
 * another none; turning them off zeroes them. */
static void test_step_times(void **state)
{
	(void)state;
	static const char *const src = "uniform vec4 u;\nvarying vec2 v;\n"
				       "void main() { gl_FragColor = u * v.x + v.y; }\n";
	struct uscc_result *r;
	struct uscc_step st;
	assert_int_equal(uscc_compile(NULL, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	uscc_result_destroy(r);
	for (int i = 0; uscc_pipeline_step(i, &st); i++)
		assert_int_equal(uscc_step_time_ns(i), 0);
	uscc_step_times_enable(true);
	assert_int_equal(uscc_compile(NULL, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	uscc_result_destroy(r);
	int timed = 0, n = 0;
	for (; uscc_pipeline_step(n, &st); n++) {
		int64_t ns = uscc_step_time_ns(n);
		if (strcmp(st.layer, "inside") == 0)
			assert_int_equal(ns, 0);
		if (strcmp(st.name, "parse") == 0 || strcmp(st.name, "cse") == 0 ||
		    strcmp(st.name, "isel") == 0 || strcmp(st.name, "regalloc") == 0) {
			assert_true(ns > 0);
			timed++;
		}
	}
	assert_int_equal(timed, 4);
	assert_int_equal(uscc_step_time_ns(n), 0);
	assert_int_equal(uscc_step_time_ns(-1), 0);
	uscc_step_times_enable(false);
	for (int i = 0; i < n; i++)
		assert_int_equal(uscc_step_time_ns(i), 0);
}

/* A loop too long for the R500 once unrolled compiles as an R500 loop
 * (the compile retried with no loop unrolled); with loop_unroll skipped
 * by the caller it is a loop at once; a program too long either way
 * keeps the error of the first attempt. */
/* The step table: the frontend first, the backend's code last, every
 * --skip name exactly once, each step's skip a name uscc_options_skip
 * takes. */
static void test_pipeline_steps(void **state)
{
	(void)state;
	struct uscc_step st;
	int n = 0, skips = 0;
	const char *last = NULL;
	assert_true(uscc_pipeline_step(0, &st));
	assert_string_equal(st.layer, "frontend");
	for (; uscc_pipeline_step(n, &st); n++) {
		last = st.name;
		if (!st.skip)
			continue;
		skips++;
		struct uscc_options *o = uscc_options_create(NULL);
		assert_int_equal(uscc_options_skip(o, st.skip), USCC_OK);
		uscc_options_destroy(o);
		for (int k = 0; k < n; k++) {
			struct uscc_step other;
			assert_true(uscc_pipeline_step(k, &other));
			assert_true(!other.skip || strcmp(other.skip, st.skip) != 0);
		}
	}
	int names = 0;
	while (uscc_skip_name(names))
		names++;
	assert_int_equal(skips, names);
	assert_string_equal(last, "const-program");
	assert_false(uscc_pipeline_step(n, &st));
	assert_false(uscc_pipeline_step(-1, &st));
}

static void test_loop_kept_when_unrolled_too_long(void **state)
{
	(void)state;
	static const char *const loop_src =
		"varying vec2 v_uv;\n"
		"void main() {\n"
		"  float x = v_uv.x;\n"
		"  for (int i = 0; i < 60; i++)\n"
		"    x = sin(x * 1.3) + cos(x + v_uv.y) * 0.5 + sin(x * 0.7) * 0.25 +\n"
		"        cos(x * 2.1) * 0.125;\n"
		"  gl_FragColor = vec4(x, v_uv.y, 0.0, 1.0);\n"
		"}\n";
	struct uscc_options *o = opts("loop.frag");
	struct uscc_result *r;
	assert_int_equal(uscc_compile(o, loop_src, USCC_NUL_TERMINATED, &r), USCC_OK);
	struct uscc_stats st;
	assert_true(uscc_result_stats(r, &st));
	assert_true(st.fc > 0);
	assert_true(st.instructions < 64);
	assert_string_equal(uscc_result_diagnostics(r), "");
	uscc_result_destroy(r);
	/* straight code past the slots: the first attempt's error */
	static char big[16384];
	size_t n = (size_t)snprintf(big, sizeof big, "varying vec4 v;\nvoid main() {\n  vec4 x = v;\n");
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "  x = sin(x * %d.5);\n", i);
	snprintf(big + n, sizeof big - n, "  gl_FragColor = x;\n}\n");
	assert_int_equal(uscc_compile(o, big, USCC_NUL_TERMINATED, &r), USCC_SHADER_ERROR);
	assert_non_null(strstr(uscc_result_diagnostics(r), "instruction slots; the R500 has 512"));
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

static void test_invalid_shader_diagnostics(void **state)
{
	(void)state;
	struct uscc_options *o = opts("bad.frag");
	struct uscc_result *r;
	assert_int_equal(uscc_compile(o, bad_src, USCC_NUL_TERMINATED, &r), USCC_SHADER_ERROR);
	assert_int_equal(uscc_result_status(r), USCC_SHADER_ERROR);
	size_t size;
	assert_null(uscc_result_data(r, &size));
	assert_int_equal(size, 0);
	const char *d = uscc_result_diagnostics(r);
	/* gcc style: file:line:col: error: ..., the line, a caret */
	assert_non_null(strstr(d, "bad.frag:3:"));
	assert_non_null(strstr(d, ": error: "));
	assert_non_null(strstr(d, "gl_FragColor = undefined_thing;\n"));
	assert_non_null(strchr(d, '^'));
	assert_false(uscc_result_stats(r, &(struct uscc_stats){ 0 }));
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

static void test_nul_in_source(void **state)
{
	(void)state;
	struct uscc_options *o = opts("nul.frag");
	struct uscc_result *r;
	const char src[] = "void main()\n{ \0 }\n";
	assert_int_equal(uscc_compile(o, src, sizeof src - 1, &r), USCC_SHADER_ERROR);
	assert_non_null(strstr(uscc_result_diagnostics(r), "nul.frag:2:3: error:"));
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

static void test_vertex_stage_rules(void **state)
{
	(void)state;
	struct uscc_options *o = opts("v.vert");
	assert_int_equal(uscc_options_set_stage(o, USCC_STAGE_VERTEX), USCC_OK);
	struct uscc_result *r;
	const char *vs = "void main() { gl_Position = gl_Vertex; }\n";
	assert_int_equal(uscc_compile(o, vs, USCC_NUL_TERMINATED, &r), USCC_USAGE_ERROR);
	assert_non_null(strstr(uscc_result_diagnostics(r), "v.vert: error: vertex shaders"));
	uscc_result_destroy(r);
	assert_int_equal(uscc_run(o, USCC_ACTION_ASSEMBLY, vs, USCC_NUL_TERMINATED, &r),
			 USCC_USAGE_ERROR);
	uscc_result_destroy(r);
	assert_int_equal(uscc_run(o, USCC_ACTION_CHECK, vs, USCC_NUL_TERMINATED, &r), USCC_OK);
	assert_string_equal(uscc_result_diagnostics(r), "");
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

static void test_options_validation(void **state)
{
	(void)state;
	struct uscc_options *o = opts("x");
	assert_int_equal(uscc_options_set_opt_level(o, 1), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_opt_level(o, 0), USCC_OK);
	assert_int_equal(uscc_options_define(o, "1BAD", NULL), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_define(o, "", NULL), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_define(o, "GOOD_1", "2"), USCC_OK);
	assert_int_equal(uscc_options_undefine(o, "a b"), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_stage(o, (enum uscc_stage)7), USCC_USAGE_ERROR);
	assert_string_equal(uscc_status_string(USCC_OK), "success");
	assert_string_equal(uscc_status_string((enum uscc_status)99), "unknown status");
	uscc_options_destroy(o);
}

static void test_preprocess_defines(void **state)
{
	(void)state;
	struct uscc_options *o = opts("pp.frag");
	assert_int_equal(uscc_options_define(o, "VALUE", "0.75"), USCC_OK);
	assert_int_equal(uscc_options_define(o, "GONE", NULL), USCC_OK);
	assert_int_equal(uscc_options_undefine(o, "GONE"), USCC_OK);
	struct uscc_result *r;
	const char *src = "#ifdef GONE\nfloat a = 1.0;\n#endif\nfloat b = VALUE;\n";
	assert_int_equal(uscc_run(o, USCC_ACTION_PREPROCESS, src, USCC_NUL_TERMINATED, &r),
			 USCC_OK);
	const char *text = uscc_result_data(r, NULL);
	assert_non_null(strstr(text, "0.75"));
	assert_null(strstr(text, "float a"));
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

/* --skip by name: IR passes and optional backend stages, '-' and '_'
 * alike; required stages and unknown names refused; part of the cache key;
 * USCC_SKIP does the same for every new options object and warns about
 * names it does not know. */
static void test_skip(void **state)
{
	(void)state;
	struct uscc_options *o = opts("s.frag");
	const char *s = good_src;
	uint64_t k = uscc_cache_key(o, s, USCC_NUL_TERMINATED);
	assert_int_equal(uscc_options_skip(o, "regalloc"), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_skip(o, "no-such-pass"), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_skip(o, NULL), USCC_USAGE_ERROR);
	assert_true(k == uscc_cache_key(o, s, USCC_NUL_TERMINATED));
	assert_int_equal(uscc_options_skip(o, "copy-prop"), USCC_OK);
	uint64_t k1 = uscc_cache_key(o, s, USCC_NUL_TERMINATED);
	assert_true(k1 != k);
	assert_int_equal(uscc_options_skip(o, "copy_prop"), USCC_OK); /* the same name */
	assert_true(k1 == uscc_cache_key(o, s, USCC_NUL_TERMINATED));
	assert_int_equal(uscc_options_skip(o, "merge"), USCC_OK);
	assert_true(k1 != uscc_cache_key(o, s, USCC_NUL_TERMINATED));
	int n = 0;
	while (uscc_skip_name(n))
		n++;
	assert_int_equal(n, 38); /* 19 IR passes, copy-fold, copy-bypass, retarget-output, merge,
				    merge-copies, presub, sink, coalesce, alpha-lanes, self-copies,
				    endif-merge, mad-fusion,
				    omod, kill-compare, loop-rel, loop-array, phi-share,
				    hold-waiting, pressure */
	assert_string_equal(uscc_skip_name(0), "loop_unroll");
	assert_null(uscc_skip_name(-1));

	/* the dumps say what ran: no copy_prop pass, no merge stage */
	struct uscc_result *r;
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_IR_ALL, s, USCC_NUL_TERMINATED, &r), USCC_OK);
	assert_null(strstr(uscc_result_data(r, NULL), "--- copy_prop ---"));
	assert_non_null(strstr(uscc_result_data(r, NULL), "--- cse ---"));
	uscc_result_destroy(r);
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_BACKEND_ALL, s, USCC_NUL_TERMINATED, &r),
			 USCC_OK);
	assert_null(strstr(uscc_result_data(r, NULL), "--- merge ---"));
	assert_non_null(strstr(uscc_result_data(r, NULL), "--- coalesce ---"));
	uscc_result_destroy(r);
	uscc_options_destroy(o);

	setenv("USCC_SKIP", "cse,coalesce,bogus", 1);
	o = opts("s.frag");
	unsetenv("USCC_SKIP");
	struct uscc_options *plain = opts("s.frag");
	uscc_options_skip(plain, "cse");
	uscc_options_skip(plain, "coalesce");
	assert_true(uscc_cache_key(o, s, USCC_NUL_TERMINATED) ==
		    uscc_cache_key(plain, s, USCC_NUL_TERMINATED));
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_BACKEND_ALL, s, USCC_NUL_TERMINATED, &r),
			 USCC_OK);
	assert_null(strstr(uscc_result_data(r, NULL), "--- coalesce ---"));
	assert_non_null(strstr(uscc_result_diagnostics(r), "s.frag: warning: USCC_SKIP names 'bogus'"));
	uscc_result_destroy(r);
	uscc_options_destroy(o);
	uscc_options_destroy(plain);
}

/* --dump-backend: the middle form after the last stage only; =all after
 * each, in order; not for vertex shaders. */
static void test_dump_backend(void **state)
{
	(void)state;
	struct uscc_options *o = opts("d.frag");
	struct uscc_result *r;
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_BACKEND, good_src, USCC_NUL_TERMINATED, &r),
			 USCC_OK);
	const char *one = uscc_result_data(r, NULL);
	static const char head[] = "; --- const-program ---\n# ";
	assert_true(strncmp(one, head, strlen(head)) == 0);
	assert_non_null(strstr(one, "\ncode 0: "));
	assert_null(strstr(one, "--- isel ---"));
	uscc_result_destroy(r);
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_BACKEND_ALL, good_src, USCC_NUL_TERMINATED,
				  &r), USCC_OK);
	const char *all = uscc_result_data(r, NULL);
	const char *first = strstr(all, "; --- plan-arrays ---");
	const char *isel = strstr(all, "; --- isel ---"), *sched = strstr(all, "; --- schedule ---");
	const char *fin = strstr(all, "; --- finalize ---");
	assert_true(first == all && isel > first && sched > isel && fin > sched);
	uscc_result_destroy(r);
	uscc_options_set_stage(o, USCC_STAGE_VERTEX);
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_BACKEND, "void main() { gl_Position = "
				  "vec4(0.0); }", USCC_NUL_TERMINATED, &r), USCC_USAGE_ERROR);
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

/* The constant program through uscc.h: sin(t * 0.5) moves out of the
 * pixel program; the driver's run fills its slot with sinf's value; too
 * few slots is a usage error; the option turns it off (and is in the
 * cache key). */
static void test_constant_program(void **state)
{
	(void)state;
	static const char src[] = "uniform float t;\nvarying vec2 uv;\n"
				  "void main() { gl_FragColor = vec4(uv * sin(t * 0.5), 0.0, 1.0); }\n";
	struct uscc_options *o = opts("cp.frag");
	struct uscc_result *r;
	assert_int_equal(uscc_compile(o, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	size_t size;
	const void *bin = uscc_result_data(r, &size);
	struct uscc_container *c;
	assert_int_equal(uscc_container_open(NULL, bin, size, &c, NULL, 0), USCC_OK);
	int ninst, nout;
	uscc_container_constant_program(c, &ninst, &nout);
	assert_int_equal(nout, 1);
	assert_true(ninst >= 2);
	int n = uscc_container_num_const_slots(c);
	float image[256][4];
	memset(image, 0, sizeof image);
	struct uscc_uniform_info u;
	assert_int_equal(uscc_container_num_uniforms(c), 1);
	assert_true(uscc_container_uniform(c, 0, &u));
	assert_string_equal(u.name, "t");
	image[u.slot][u.swizzle[0] - 'x'] = 1.25f;
	assert_int_equal(uscc_container_run_constant_program(c, image, n - 1), USCC_USAGE_ERROR);
	assert_int_equal(uscc_container_run_constant_program(c, NULL, n), USCC_USAGE_ERROR);
	assert_int_equal(uscc_container_run_constant_program(c, image, n), USCC_OK);
	bool found = false;
	for (int s = 0; s < n; s++)
		for (int k = 0; k < 4; k++)
			found |= image[s][k] == sinf(1.25f * 0.5f);
	assert_true(found);
	uscc_container_destroy(c);
	uscc_result_destroy(r);

	uint64_t on = uscc_cache_key(o, src, USCC_NUL_TERMINATED);
	assert_int_equal(uscc_options_set_constant_program(o, false), USCC_OK);
	assert_true(on != uscc_cache_key(o, src, USCC_NUL_TERMINATED));
	/* divergent jumps make other programs: another key */
	uint64_t plain = uscc_cache_key(o, src, USCC_NUL_TERMINATED);
	assert_int_equal(uscc_options_set_divergent_jumps(o, true), USCC_OK);
	assert_true(plain != uscc_cache_key(o, src, USCC_NUL_TERMINATED));
	assert_int_equal(uscc_options_set_divergent_jumps(o, false), USCC_OK);
	assert_true(plain == uscc_cache_key(o, src, USCC_NUL_TERMINATED));
	assert_int_equal(uscc_compile(o, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	bin = uscc_result_data(r, &size);
	assert_int_equal(uscc_container_open(NULL, bin, size, &c, NULL, 0), USCC_OK);
	uscc_container_constant_program(c, &ninst, &nout);
	assert_int_equal(nout, 0);
	assert_int_equal(uscc_container_run_constant_program(c, image,
							     uscc_container_num_const_slots(c)),
			 USCC_OK);
	uscc_container_destroy(c);
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

static void test_cache_key(void **state)
{
	(void)state;
	struct uscc_options *a = opts("a.frag"), *b = opts("b.frag");
	const char *s = good_src;
	uint64_t k = uscc_cache_key(a, s, USCC_NUL_TERMINATED);
	/* same inputs, other object and file name: same key */
	assert_true(k == uscc_cache_key(b, s, strlen(s)));
	/* every part of the input changes it */
	assert_true(k != uscc_cache_key(a, s, strlen(s) - 1));
	uscc_options_set_opt_level(b, 0);
	uint64_t k0 = uscc_cache_key(b, s, USCC_NUL_TERMINATED);
	assert_true(k != k0);
	uscc_options_set_opt_level(b, 2);
	uscc_options_set_stage(b, USCC_STAGE_VERTEX);
	assert_true(k != uscc_cache_key(b, s, USCC_NUL_TERMINATED));
	uscc_options_set_stage(b, USCC_STAGE_FRAGMENT);
	assert_true(k == uscc_cache_key(b, s, USCC_NUL_TERMINATED));
	/* -D A=1 -D B differs from -D A -D B=1 and from -D B -D A=1 */
	struct uscc_options *c = opts("c"), *d = opts("d"), *e = opts("e");
	uscc_options_define(c, "A", "1");
	uscc_options_define(c, "B", NULL);
	uscc_options_define(d, "A", NULL);
	uscc_options_define(d, "B", "1");
	uscc_options_define(e, "B", NULL);
	uscc_options_define(e, "A", "1");
	uint64_t kc = uscc_cache_key(c, s, USCC_NUL_TERMINATED);
	assert_true(kc != uscc_cache_key(d, s, USCC_NUL_TERMINATED));
	assert_true(kc != uscc_cache_key(e, s, USCC_NUL_TERMINATED));
	assert_true(kc != k);
	/* NULL options are the defaults */
	struct uscc_options *dflt = uscc_options_create(NULL);
	assert_true(uscc_cache_key(NULL, s, USCC_NUL_TERMINATED) ==
		    uscc_cache_key(dflt, s, USCC_NUL_TERMINATED));
	uscc_options_destroy(dflt);
	uscc_options_destroy(a);
	uscc_options_destroy(b);
	uscc_options_destroy(c);
	uscc_options_destroy(d);
	uscc_options_destroy(e);
}

/* An allocator that fails on the Nth call and after; counts live bytes so
 * leaks show up too. */
struct failing {
	int calls, fail_at;
	long live;
};

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct failing *f = ud;
	if (nsize == 0) {
		if (ptr)
			f->live -= (long)osize;
		free(ptr);
		return NULL;
	}
	if (++f->calls >= f->fail_at)
		return NULL;
	void *p = realloc(ptr, nsize);
	if (p)
		f->live += (long)nsize - (ptr ? (long)osize : 0);
	return p;
}

/* Limits through the API: names, defaults, only tightening, the error
 * text, and the cache key of tightened options. */
static void test_limits(void **state)
{
	(void)state;
	for (int k = 0; k < USCC_LIMIT_COUNT; k++) {
		enum uscc_limit found;
		const char *name = uscc_limit_name((enum uscc_limit)k);
		assert_non_null(name);
		assert_int_equal(uscc_limit_find(name, &found), USCC_OK);
		assert_int_equal(found, k);
		assert_true(uscc_limit_default((enum uscc_limit)k) > 0);
		assert_int_equal(uscc_options_limit(NULL, (enum uscc_limit)k),
				 uscc_limit_default((enum uscc_limit)k));
	}
	enum uscc_limit found;
	assert_int_equal(uscc_limit_find("no-such-limit", &found), USCC_USAGE_ERROR);
	assert_null(uscc_limit_name(USCC_LIMIT_COUNT));
	assert_int_equal(uscc_limit_default(USCC_LIMIT_COUNT), -1);
	assert_int_equal(uscc_limit_default(USCC_LIMIT_SOURCE_BYTES), 1 << 20);

	struct uscc_options *o = opts("lim.frag");
	long def = uscc_limit_default(USCC_LIMIT_TOKENS);
	assert_int_equal(uscc_options_set_limit(o, USCC_LIMIT_TOKENS, def + 1), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_limit(o, USCC_LIMIT_TOKENS, 0), USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_limit(o, USCC_LIMIT_COUNT, 5), USCC_USAGE_ERROR);
	uint64_t k0 = uscc_cache_key(o, good_src, USCC_NUL_TERMINATED);
	assert_int_equal(k0, uscc_cache_key(NULL, good_src, USCC_NUL_TERMINATED));
	assert_int_equal(uscc_options_set_limit(o, USCC_LIMIT_TOKENS, 10), USCC_OK);
	assert_int_equal(uscc_options_limit(o, USCC_LIMIT_TOKENS), 10);
	assert_true(uscc_cache_key(o, good_src, USCC_NUL_TERMINATED) != k0);

	struct uscc_result *r;
	assert_int_equal(uscc_compile(o, good_src, USCC_NUL_TERMINATED, &r), USCC_SHADER_ERROR);
	assert_non_null(strstr(uscc_result_diagnostics(r), "lim.frag:4:"));
	assert_non_null(strstr(uscc_result_diagnostics(r),
			       "error: too many tokens after preprocessing: 11, over the limit of 10 "
			       "(limit 'tokens')"));
	uscc_result_destroy(r);
	/* back at its default, the same options compile */
	assert_int_equal(uscc_options_set_limit(o, USCC_LIMIT_TOKENS, def), USCC_OK);
	assert_int_equal(uscc_cache_key(o, good_src, USCC_NUL_TERMINATED), k0);
	assert_int_equal(uscc_compile(o, good_src, USCC_NUL_TERMINATED, &r), USCC_OK);
	uscc_result_destroy(r);
	uscc_options_destroy(o);
}

/* The shadow state per unit: checked, in the cache key only when it is
 * not GL's default, and it changes the code. */
static void test_shadow_state(void **state)
{
	(void)state;
	static const char src[] = "uniform sampler2DShadow s;\nvarying vec3 t;\n"
				  "void main() { gl_FragColor = shadow2D(s, t); }\n";
	struct uscc_options *o = opts("shadow.frag");
	uint64_t k0 = uscc_cache_key(o, src, USCC_NUL_TERMINATED);
	assert_int_equal(uscc_options_set_shadow(o, 16, USCC_COMPARE_LESS, USCC_DEPTH_LUMINANCE),
			 USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_shadow(o, -1, USCC_COMPARE_LESS, USCC_DEPTH_LUMINANCE),
			 USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_shadow(o, 0, (enum uscc_compare)8, USCC_DEPTH_LUMINANCE),
			 USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_shadow(o, 0, USCC_COMPARE_LESS, (enum uscc_depth_mode)4),
			 USCC_USAGE_ERROR);
	assert_int_equal(uscc_options_set_shadow(NULL, 0, USCC_COMPARE_LESS, USCC_DEPTH_RED),
			 USCC_USAGE_ERROR);
	/* the default, set explicitly, keeps the key */
	assert_int_equal(uscc_options_set_shadow(o, 3, USCC_COMPARE_LEQUAL, USCC_DEPTH_LUMINANCE),
			 USCC_OK);
	assert_true(uscc_cache_key(o, src, USCC_NUL_TERMINATED) == k0);
	struct uscc_result *r0, *r1;
	assert_int_equal(uscc_compile(o, src, USCC_NUL_TERMINATED, &r0), USCC_OK);
	assert_int_equal(uscc_options_set_shadow(o, 0, USCC_COMPARE_GREATER, USCC_DEPTH_ALPHA),
			 USCC_OK);
	assert_true(uscc_cache_key(o, src, USCC_NUL_TERMINATED) != k0);
	assert_int_equal(uscc_compile(o, src, USCC_NUL_TERMINATED, &r1), USCC_OK);
	size_t n0, n1;
	const uint8_t *b0 = uscc_result_data(r0, &n0), *b1 = uscc_result_data(r1, &n1);
	assert_true(n0 != n1 || memcmp(b0, b1, n0) != 0);
	uscc_result_destroy(r0);
	uscc_result_destroy(r1);
	uscc_options_destroy(o);
}

static void test_allocation_failures(void **state)
{
	(void)state;
	bool succeeded = false;
	for (int n = 1; n < 2000 && !succeeded; n++) {
		struct failing f = { 0, n, 0 };
		struct uscc_allocator al = { failing_alloc, &f };
		struct uscc_options *o = uscc_options_create(&al);
		if (o && uscc_options_set_filename(o, "oom.frag") == USCC_OK) {
			struct uscc_result *r = NULL;
			enum uscc_status st = uscc_compile(o, good_src, USCC_NUL_TERMINATED, &r);
			assert_true(st == USCC_OK || st == USCC_OUT_OF_MEMORY);
			assert_int_equal(uscc_result_status(r), st);
			assert_non_null(uscc_result_diagnostics(r));
			if (st == USCC_OK) {
				/* a compile that succeeded has its container view */
				assert_non_null(uscc_result_container(r));
				size_t size;
				const void *bin = uscc_result_data(r, &size);
				struct uscc_container *c = NULL;
				st = uscc_container_open(&al, bin, size, &c, NULL, 0);
				assert_true(st == USCC_OK || st == USCC_OUT_OF_MEMORY);
				succeeded = st == USCC_OK;
				uscc_container_destroy(c);
			}
			uscc_result_destroy(r);
		}
		uscc_options_destroy(o);
		assert_int_equal(f.live, 0);
	}
	assert_true(succeeded);
}

static char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	*size = fread(buf, 1, (size_t)n, f);
	buf[*size] = 0;
	fclose(f);
	return buf;
}

/* Every corpus shader the compiler accepts gives, at -O0 and -O2, a
 * container the reader accepts, the same bytes twice, and tables that
 * agree with the figures. */
static void check_corpus_dir(const char *dir, int *compiled)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", USCC_SOURCE_DIR, dir);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 5, ".frag") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s/%s", USCC_SOURCE_DIR, dir, e->d_name);
		size_t size = 0;
		char *src = slurp(path, &size);
		assert_non_null(src);
		for (int level = 0; level <= 2; level += 2) {
			struct uscc_options *o = opts(e->d_name);
			uscc_options_set_opt_level(o, level);
			struct uscc_result *r1, *r2;
			enum uscc_status st = uscc_compile(o, src, size, &r1);
			assert_true(st == USCC_OK || st == USCC_SHADER_ERROR);
			if (st == USCC_OK) {
				assert_int_equal(uscc_compile(o, src, size, &r2), USCC_OK);
				size_t n1, n2;
				const void *b1 = uscc_result_data(r1, &n1), *b2 = uscc_result_data(r2, &n2);
				assert_int_equal(n1, n2);
				assert_memory_equal(b1, b2, n1);
				struct uscc_container *c;
				char err[256];
				if (uscc_container_open(NULL, b1, n1, &c, err, sizeof err) != USCC_OK)
					fail_msg("%s -O%d: %s", e->d_name, level, err);
				int ninst;
				uscc_container_code(c, &ninst);
				struct uscc_stats s;
				uscc_container_stats(c, &s);
				assert_int_equal(s.instructions, ninst);
				assert_int_equal(s.alu + s.tex + s.fc + s.out, ninst);
				uscc_container_destroy(c);
				uscc_result_destroy(r2);
				(*compiled)++;
			}
			uscc_result_destroy(r1);
			uscc_options_destroy(o);
		}
		free(src);
	}
	closedir(d);
}

/* The first line of a listing or middle form: "# N ..." gives N. */
static int leading_count(const char *text, const char *after)
{
	const char *p = strstr(text, after);
	assert_non_null(p);
	return atoi(p + strlen(after));
}

/* --dump-backend shows the program -S lists: the candidates compare the
 * constant program's compile with the plain one and their alternatives
 * before the dump (this shader keeps the constant program's compile under
 * a pressure limit, not the first candidate: 91 instructions where the
 * first takes 109 and the plain one 109). */
static void test_dump_backend_shows_kept_program(void **state)
{
	(void)state;
	size_t size;
	char *src = slurp("tests/shaders/gen_seed_101514.frag", &size);
	assert_non_null(src);
	struct uscc_options *o = opts("gen.frag");
	struct uscc_result *s, *d;
	assert_int_equal(uscc_run(o, USCC_ACTION_ASSEMBLY, src, USCC_NUL_TERMINATED, &s), USCC_OK);
	assert_int_equal(uscc_run(o, USCC_ACTION_DUMP_BACKEND, src, USCC_NUL_TERMINATED, &d),
			 USCC_OK);
	const char *listing = uscc_result_data(s, NULL), *form = uscc_result_data(d, NULL);
	assert_int_equal(leading_count(form, "slots, "), leading_count(listing, "# "));
	assert_non_null(strstr(listing, "# constant program"));
	uscc_result_destroy(s);
	uscc_result_destroy(d);
	uscc_options_destroy(o);
	free(src);
}

static void test_corpus_round_trip(void **state)
{
	(void)state;
	int compiled = 0;
	check_corpus_dir("tests/shaders", &compiled);
	check_corpus_dir("samples", &compiled);
	print_message("%d corpus compiles checked\n", compiled);
}

/* The tool actions under the same failing allocator. */
static void test_allocation_failures_actions(void **state)
{
	(void)state;
	static const enum uscc_action acts[] = { USCC_ACTION_PREPROCESS, USCC_ACTION_CHECK,
						 USCC_ACTION_DUMP_IR_ALL, USCC_ACTION_ASSEMBLY };
	for (size_t a = 0; a < sizeof acts / sizeof *acts; a++) {
		bool succeeded = false;
		for (int n = 1; n < 2000 && !succeeded; n++) {
			struct failing f = { 0, n, 0 };
			struct uscc_allocator al = { failing_alloc, &f };
			struct uscc_options *o = uscc_options_create(&al);
			if (o && uscc_options_define(o, "X", "1") == USCC_OK) {
				struct uscc_result *r = NULL;
				enum uscc_status st = uscc_run(o, acts[a], good_src,
							       USCC_NUL_TERMINATED, &r);
				assert_true(st == USCC_OK || st == USCC_OUT_OF_MEMORY);
				if (st == USCC_OK)
					assert_non_null(uscc_result_data(r, NULL));
				succeeded = st == USCC_OK;
				uscc_result_destroy(r);
			}
			uscc_options_destroy(o);
			assert_int_equal(f.live, 0);
		}
		assert_true(succeeded);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version),
		cmocka_unit_test(test_compile_and_read),
		cmocka_unit_test(test_program_info),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_invalid_shader_diagnostics),
		cmocka_unit_test(test_loop_kept_when_unrolled_too_long),
		cmocka_unit_test(test_dump_backend_shows_kept_program),
		cmocka_unit_test(test_pipeline_steps),
		cmocka_unit_test(test_step_times),
		cmocka_unit_test(test_nul_in_source),
		cmocka_unit_test(test_vertex_stage_rules),
		cmocka_unit_test(test_options_validation),
		cmocka_unit_test(test_preprocess_defines),
		cmocka_unit_test(test_constant_program),
		cmocka_unit_test(test_cache_key),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_shadow_state),
		cmocka_unit_test(test_allocation_failures),
		cmocka_unit_test(test_allocation_failures_actions),
		cmocka_unit_test(test_corpus_round_trip),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_dump_backend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
