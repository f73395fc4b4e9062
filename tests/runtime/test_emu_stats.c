/* Emulator statistics (emu_config.stats, uscc-run --stats): the cost model
 * of INTERFACES.md §4 over the slots each pixel executes.  Straight
 * programs cost exactly their static `cycles` (compiled shaders, checked
 * against their containers); a loop counts every trip; TEX blocks pay
 * 30 - min(30, d), d the distance to the first wait counted as Mesa does
 * from the block's BEGIN_TEX marker: 1 + the block's lookups + the slots
 * between; pixels on different branch
 * paths get different figures, each the figure of its own path; a killed
 * pixel stops counting at its kill.  Expected figures are worked out by
 * hand next to each program. */
#include <dirent.h>
#include <stdio.h>
#include "test_emu_fc_util.h"
#include "arena.h"
#include "container.h"
#include "r500_compile.h"
#include "uscc.h"
#include "../test_util.h"

/* Runs with statistics on; asserts success. */
static void run_stats(struct tp *t)
{
	t->cfg.stats = true;
	tp_run(t);
	assert_non_null(t->img.stats);
}

static const struct emu_pixel_stats *px_stats(const struct tp *t, int x, int y)
{
	return &t->img.stats[y * t->img.width + x];
}

static void expect_px(const struct tp *t, int x, int y, uint64_t cycles, uint32_t insts)
{
	const struct emu_pixel_stats *s = px_stats(t, x, y);
	if (s->cycles != cycles || s->instructions != insts)
		print_error("pixel (%d,%d): %llu cycles, %u instructions; expected %llu, %u\n",
			    x, y, (unsigned long long)s->cycles, s->instructions,
			    (unsigned long long)cycles, insts);
	assert_true(s->cycles == cycles && s->instructions == insts);
}

/* TEX LD t[dst] = tex0(t0), acquiring the semaphore. */
static struct r500_inst *tex_ld(struct tp *t, int dst)
{
	struct r500_inst *x = &t->code[t->n++];
	memset(x, 0, sizeof *x);
	x->cmn.type = R500_TYPE_TEX;
	x->cmn.rgb_wmask = 7;
	x->cmn.alpha_wmask = 1;
	x->tex.inst = R500_TEX_LD;
	x->tex.sem_acquire = 1;
	x->tex.dst_addr = (uint16_t)dst;
	for (int c = 0; c < 4; c++)
		x->tex.src_swz[c] = x->tex.dst_swz[c] = (uint16_t)c;
	return x;
}

/* An ALU slot that writes nothing (reads inline zeros). */
static struct r500_inst *idle(struct tp *t)
{
	return tp_alu(t, R500_TYPE_ALU);
}

/* ---- straight programs ---- */

/* 0-1 TEX run A, 2 ALU+NOP, 3 TEX B, 4 ALU, 5 ALU waits (A: 1 + 2 + 3
 * between -> 24, B: 1 + 1 + 1 -> 27), 6 TEX C waits (settles nothing),
 * 7 OUT, end (C: 1 + 1 + 1 slot after it -> 27).  8 slots + 1 NOP + 24 +
 * 27 + 27 = 87. */
static void test_tex_blocks_straight(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tex_ld(&t, 1);
	tex_ld(&t, 2);
	idle(&t)->cmn.nop = 1;
	tex_ld(&t, 3);
	idle(&t);
	idle(&t)->cmn.tex_sem_wait = 1;
	tex_ld(&t, 4)->cmn.tex_sem_wait = 1;
	tp_out(&t);
	assert_int_equal(r500_program_cycles(t.code, t.n), 87);
	run_stats(&t);
	for (int y = 0; y < 2; y++)
		for (int x = 0; x < 2; x++)
			expect_px(&t, x, y, 87, 8);
	assert_true(t.img.draw.cycles == 87 && t.img.draw.instructions == 8);
	tp_done(&t);
}

/* TEX, `gap` idle slots, OUT waiting: 2 + gap + 30 - min(30, gap + 2). */
static void test_tex_latency_gap(void **state)
{
	(void)state;
	static const int gaps[] = { 0, 1, 27, 28, 29, 30, 31, 40 };
	for (size_t k = 0; k < sizeof gaps / sizeof gaps[0]; k++) {
		int gap = gaps[k];
		struct tp t;
		tp_init(&t);
		tex_ld(&t, 1);
		for (int i = 0; i < gap; i++)
			idle(&t);
		tp_out(&t)->cmn.tex_sem_wait = 1;
		int want = 2 + gap + 30 - (gap + 2 < 30 ? gap + 2 : 30);
		assert_int_equal(r500_program_cycles(t.code, t.n), want);
		run_stats(&t);
		expect_px(&t, 1, 1, (uint64_t)want, (uint32_t)(gap + 2));
		tp_done(&t);
	}
}

static struct r500_program *compile_glsl(const char *src, struct arena *a)
{
	struct uscc_result *r;
	assert_int_equal(uscc_compile(NULL, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	size_t size;
	const void *bin = uscc_result_data(r, &size);
	struct r500_program *p = arena_alloc(a, sizeof *p);
	char why[256];
	assert_non_null(p);
	bool ok = container_read(bin, size, a, p, why, sizeof why);
	uscc_result_destroy(r);
	if (!ok)
		print_error("container_read: %s\n", why);
	assert_true(ok);
	return p;
}

/* Runs p over 4x4 pixels with statistics; checks what holds for every
 * program (no pixel executes more slots than the draw's walk) and, for a
 * program without flow control, that the draw and every pixel not
 * discarded cost exactly the container's static figures. */
static void check_compiled(const char *name, const struct r500_program *p)
{
	struct emu_config cfg = { .width = 4, .height = 4, .stats = true };
	struct emu_image img;
	char why[256];
	if (!emu_run(p, &cfg, &img, why, sizeof why))
		print_error("%s: %s\n", name, why);
	assert_non_null(img.stats);
	bool straight = p->stats.fc == 0;
	uint64_t want = (uint64_t)p->stats.cycles;
	if (straight && img.draw.cycles != want)
		print_error("%s: draw %llu cycles, static %llu\n", name,
			    (unsigned long long)img.draw.cycles, (unsigned long long)want);
	assert_true(!straight || img.draw.cycles == want);
	assert_true(!straight || img.draw.instructions == (uint32_t)p->ninst);
	for (int i = 0; i < 16; i++) {
		const struct emu_pixel_stats *s = &img.stats[i];
		assert_true(s->instructions <= img.draw.instructions);
		if (!straight || img.discarded[i])
			continue;
		assert_true(s->cycles == want);
		assert_int_equal(s->instructions, p->ninst);
	}
	emu_image_free(&img);
}

/* Every shader in samples/ and tests/shaders/. */
static void test_compiled_straight_equals_static(void **state)
{
	(void)state;
	static const char *const dirs[] = { "samples", "tests/shaders" };
	int straight = 0, with_tex = 0, with_nops = 0, with_kill = 0;
	for (size_t d = 0; d < 2; d++) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s", USCC_SOURCE_DIR, dirs[d]);
		DIR *dir = opendir(path);
		assert_non_null(dir);
		for (struct dirent *e; (e = readdir(dir));) {
			size_t len = strlen(e->d_name);
			if (len < 6 || strcmp(e->d_name + len - 5, ".frag"))
				continue;
			snprintf(path, sizeof path, "%s/%s/%s", USCC_SOURCE_DIR, dirs[d], e->d_name);
			char *src = test_read_file(path);
			assert_non_null(src);
			struct arena *a = arena_create(NULL);
			assert_non_null(a);
			const struct r500_program *p = compile_glsl(src, a);
			free(src);
			check_compiled(e->d_name, p);
			if (p->stats.fc == 0) {
				straight++;
				with_tex += p->stats.tex > 0;
				with_nops += p->stats.nops > 0;
				for (int i = 0; i < p->ninst; i++)
					with_kill += (p->code[i].cmn.type & 3) == R500_TYPE_TEX &&
						     (p->code[i].tex.inst & 7) == R500_TEX_KILL;
			}
			arena_destroy(a);
		}
		closedir(dir);
	}
	assert_true(straight >= 10);
	assert_true(with_tex >= 2 && with_nops >= 1 && with_kill >= 1);
}

/* ---- loops ---- */

/* for (t1 = 1; ; t1++) { t3 = tex0(t0); if (t1 >= u) break; }, u a uniform:
 *   0 t1 = 0 ; 1 LOOP ; 2 TEX t2 ; 3 t1 += 1 ; 4 t3 = t2 (waits: 1 slot
 *   after the TEX -> +27) ; 5 alu = t1 - u >= 0 ; 6 BREAKLOOP -> 8 ;
 *   7 ENDLOOP -> 2 ; 8 OUT t3.
 * u = n >= 1 runs n trips: 0, 1, 6 slots (2..7) for each of the first
 * n - 1 trips, 5 (2..6) for the last, then 8: 6n + 2 slots, and
 * 6n + 2 + 27n = 33n + 2 cycles. */
static void build_uniform_loop(struct tp *t, float n)
{
	tp_init(t);
	t->unis[0] = (struct r500_uniform){ .name = "u", .type = "float", .slot = 1,
					    .swizzle = "x" };
	t->nunis = 1;
	t->cfg.uniforms = calloc(1, sizeof *t->cfg.uniforms);
	assert_non_null(t->cfg.uniforms);
	struct emu_uniform *u = (struct emu_uniform *)t->cfg.uniforms;
	*u = (struct emu_uniform){ .name = "u", .value = { n }, .ncomp = 1 };
	t->cfg.nuniforms = 1;
	tp_const(t, 0, 0, 0, 0, 0);
	add(t, 1, K(0), K(0));                                      /* 0 t1 = 0 */
	fc(t, R500_FC_LOOP, 0x00, 0, 7);                            /* 1 */
	tex_ld(t, 2);                                               /* 2 */
	add(t, 1, T(1), I(0x38));                                   /* 3 t1 += 1 */
	add(t, 3, T(2), K(0))->cmn.tex_sem_wait = 1;                /* 4 t3 = t2 */
	struct r500_inst *c = add(t, 0, T(1), K(1));                /* 5 */
	c->cmn.rgb_wmask = c->cmn.alpha_wmask = 0;
	c->alu.rgb_arg[2].mod = R500_MOD_NEG;
	c->alu.alu_wmask = 1;
	c->cmn.alu_result_op = R500_CMP_GE0;
	fc(t, R500_FC_BREAKLOOP, 0xF0, 0, 8)->fc.b_op1 = R500_FC_B_DECR; /* 6 */
	fc(t, R500_FC_ENDLOOP, 0xFF, 1, 2);                         /* 7 */
	struct r500_inst *o = tp_out(t);                            /* 8 */
	tp_src_temp(o, 0, 1);
	tp_rgb_swz(o, 1, R500_SWZ_ONE, R500_SWZ_ONE, R500_SWZ_ONE);
	o->alu.alpha_arg[1].swz[0] = R500_SWZ_ONE;
}

static void test_loop_trips_from_uniform(void **state)
{
	(void)state;
	for (int n = 1; n <= 5; n++) {
		struct tp t;
		build_uniform_loop(&t, (float)n);
		run_stats(&t);
		tp_expect(&t, 0, 1, 0, (float)n, (float)n, (float)n, (float)n);
		for (int y = 0; y < 2; y++)
			for (int x = 0; x < 2; x++)
				expect_px(&t, x, y, 33u * (unsigned)n + 2, 6u * (unsigned)n + 2);
		assert_true(t.img.draw.cycles == 33u * (unsigned)n + 2);
		free((void *)t.cfg.uniforms);
		tp_done(&t);
	}
}

/* A compiled loop over a uniform trip count: the figures grow by the same
 * step with every trip (whatever the compiler's code for it). */
static void test_compiled_loop_grows(void **state)
{
	(void)state;
	static const char src[] =
		"uniform int n;\n"
		"uniform sampler2D s;\n"
		"void main() {\n"
		"	vec4 c = vec4(0.0);\n"
		"	for (int i = 0; i < n; i++)\n"
		"		c += texture2D(s, c.xy + gl_FragCoord.xy);\n"
		"	gl_FragColor = c;\n"
		"}\n";
	struct arena *a = arena_create(NULL);
	assert_non_null(a);
	struct r500_program *p = compile_glsl(src, a);
	assert_true(p->stats.fc > 0);
	uint64_t cycles[5];
	uint32_t insts[5];
	for (int n = 0; n < 5; n++) {
		struct emu_uniform u = { .name = "n", .value = { (float)n }, .ncomp = 1 };
		struct emu_config cfg = { .width = 2, .height = 2, .uniforms = &u,
					  .nuniforms = 1, .stats = true };
		struct emu_image img;
		char why[256];
		assert_true(emu_run(p, &cfg, &img, why, sizeof why));
		cycles[n] = img.stats[0].cycles;
		insts[n] = img.stats[0].instructions;
		for (int i = 1; i < 4; i++)
			assert_true(img.stats[i].cycles == cycles[n]);
		assert_true(img.draw.cycles == cycles[n]);
		emu_image_free(&img);
	}
	uint64_t step = cycles[2] - cycles[1];
	assert_true(step > insts[2] - insts[1]);   /* each trip pays TEX latency */
	for (int n = 2; n < 5; n++) {
		assert_true(cycles[n] - cycles[n - 1] == step);
		assert_true(insts[n] - insts[n - 1] == insts[2] - insts[1]);
	}
	assert_true(cycles[1] > cycles[0]);
	arena_destroy(a);
}

/* ---- branches ---- */

/* if (u < 0.5) { TEX; ALU; OUT red (waits: +27) } else OUT green, in
 * Mesa's encoding (test_emu_fc.c):
 *   0 alu = u - 0.5 < 0 ; 1 IF -> 6 ; 2 TEX ; 3 ALU ; 4 OUT red ;
 *   5 ELSE -> 8 ; 6 OUT green ; 7 ENDIF -> 8 ; 8 OUT (end).
 * Then-pixels are active at 0-5 and 8 (inactive at 6, 7: the ELSE makes
 * them so, the ENDIF wakes them): 7 slots, 34 cycles.  Else-pixels are
 * active at 0, 1, then inactive until the ELSE wakes them, active at 6,
 * 7, 8: 5 slots, 5 cycles.  The draw's walk: 9 slots, 36 cycles. */
static void build_branch(struct tp *t)
{
	tp_init(t);
	cond_x_plus(t, I(0x30), 1);                                 /* 0 */
	struct r500_inst *f = fc(t, R500_FC_JUMP, 0x0F, 0, 6);      /* 1 IF */
	f->fc.b_op0 = f->fc.b_op1 = R500_FC_B_INCR;
	f->fc.ignore_uncovered = 1;
	tex_ld(t, 1);                                               /* 2 */
	idle(t);                                                    /* 3 */
	out_const_swz(t, R500_SWZ_ONE, R500_SWZ_ZERO, R500_SWZ_ZERO)->cmn.tex_sem_wait = 1;
	f = fc(t, R500_FC_JUMP, 0x00, 0, 8);                        /* 5 ELSE */
	f->fc.b_else = 1;
	f->fc.b_op1 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	out_const_swz(t, R500_SWZ_ZERO, R500_SWZ_ONE, R500_SWZ_ZERO); /* 6 */
	f = fc(t, R500_FC_JUMP, 0x00, 1, 8);                        /* 7 ENDIF */
	f->fc.b_op0 = R500_FC_B_DECR;
	f->fc.b_pop_cnt = 1;
	struct r500_inst *end = tp_out(t);                          /* 8 */
	end->cmn.rgb_omask = end->cmn.alpha_omask = 0;
}

static void test_branch_paths_differ(void **state)
{
	(void)state;
	struct tp t;
	build_branch(&t);
	run_stats(&t);
	tp_expect(&t, 0, 0, 0, 1, 0, 0, 1);     /* column u = .25: then */
	tp_expect(&t, 0, 1, 0, 0, 1, 0, 1);     /* column u = .75: else */
	for (int y = 0; y < 2; y++) {
		expect_px(&t, 0, y, 34, 7);
		expect_px(&t, 1, y, 5, 5);
	}
	assert_true(t.img.draw.cycles == 36 && t.img.draw.instructions == 9);
	struct emu_stats_summary s;
	assert_true(emu_stats_summarize(&t.img, &s));
	assert_int_equal(s.pixels, 4);
	assert_int_equal(s.discarded, 0);
	assert_true(s.cycles[0] == 5 && s.cycles[1] == 5 && s.cycles[2] == 34);
	assert_true(s.instructions[0] == 5 && s.instructions[2] == 7);
	assert_true(s.cycles[0] < s.cycles[2]);
	tp_done(&t);
}

/* A pixel's figure in a diverging draw is that of a draw where every
 * pixel takes its path (the PC then skips the other branch). */
static void test_branch_path_alone(void **state)
{
	(void)state;
	static const float us[2] = { 0.25f, 0.75f };
	static const uint64_t cycles[2] = { 34, 5 };
	for (int k = 0; k < 2; k++) {
		struct tp t;
		build_branch(&t);
		struct emu_varying v = { .name = "v" };
		for (int c = 0; c < 4; c++)
			v.corners[c][0] = us[k];
		t.cfg.varyings = &v;
		t.cfg.nvaryings = 1;
		run_stats(&t);
		for (int y = 0; y < 2; y++)
			for (int x = 0; x < 2; x++)
				assert_true(px_stats(&t, x, y)->cycles == cycles[k]);
		assert_true(t.img.draw.cycles == cycles[k]);
		tp_done(&t);
	}
}

/* ---- kills ---- */

/* 0 t1 = t0.xxxx - 0.5 ; 1 TEXKILL t1 ; 2, 3 ALU ; 4 OUT (waits).
 * Survivors (u = .75): 5 slots, the TEXKILL run settled 2 slots later:
 * 5 + 30 - (1 + 1 + 2) = 31.  Killed (u = .25): slots 0 and 1, then
 * nothing; its TEXKILL run is settled at the kill with 0 slots after it:
 * 2 + 30 - (1 + 1) = 30. */
static void test_killed_pixel_stops(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	struct r500_inst *a = add(&t, 1, T(0), I(0x30));
	a->alu.rgb_arg[2].mod = R500_MOD_NEG;
	a->alu.alpha_arg[2].mod = R500_MOD_NEG;
	tp_rgb_swz(a, 0, R500_SWZ_R, R500_SWZ_R, R500_SWZ_R);
	a->alu.alpha_arg[0].swz[0] = R500_SWZ_R;
	struct r500_inst *k = tex_ld(&t, 0);
	k->tex.inst = R500_TEX_KILL;
	k->tex.src_addr = 1;
	k->cmn.rgb_wmask = k->cmn.alpha_wmask = 0;
	idle(&t);
	idle(&t);
	tp_out(&t)->cmn.tex_sem_wait = 1;
	run_stats(&t);
	assert_true(t.img.discarded[0] && !t.img.discarded[1]);
	for (int y = 0; y < 2; y++) {
		expect_px(&t, 0, y, 30, 2);
		expect_px(&t, 1, y, 31, 5);
	}
	assert_true(t.img.draw.cycles == 31);
	struct emu_stats_summary s;
	assert_true(emu_stats_summarize(&t.img, &s));
	assert_int_equal(s.discarded, 2);
	assert_true(s.instructions[0] == 2 && s.instructions[1] == 2 && s.instructions[2] == 5);
	tp_done(&t);
}

/* ---- the summary and its JSON ---- */

static void test_summary_and_json(void **state)
{
	(void)state;
	enum { W = 7, H = 3 };
	struct emu_pixel_stats px[W * H];
	bool disc[W * H] = { false };
	for (int i = 0; i < W * H; i++) /* 0..20 shuffled: median 10 */
		px[i] = (struct emu_pixel_stats){ (uint64_t)((i * 8) % 21) + 100,
						  (uint32_t)((i * 5) % 21) };
	disc[3] = true;
	struct emu_image img = { .width = W, .height = H, .stats = px, .discarded = disc,
				 .draw = { 500, 40 } };
	struct emu_stats_summary s;
	assert_true(emu_stats_summarize(&img, &s));
	assert_true(s.cycles[0] == 100 && s.cycles[1] == 110 && s.cycles[2] == 120);
	assert_true(s.instructions[0] == 0 && s.instructions[1] == 10 &&
		    s.instructions[2] == 20);
	img.width = 4;            /* 100, 108, 116, 103: lower middle = 103 */
	img.height = 1;
	assert_true(emu_stats_summarize(&img, &s));
	assert_true(s.cycles[1] == 103);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	emu_stats_print_json(f, &s);
	fclose(f);
	assert_string_equal(text, "{\"pixels\":4,\"discarded\":1,"
			    "\"cycles\":{\"min\":100,\"median\":103,\"max\":116},"
			    "\"instructions\":{\"min\":0,\"median\":5,\"max\":15},"
			    "\"draw\":{\"cycles\":500,\"instructions\":40}}\n");
	free(text);
	img.stats = NULL;
	assert_false(emu_stats_summarize(&img, &s));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The median against qsort, on draws with few and with many values. */
static void test_median_matches_sort(void **state)
{
	(void)state;
	enum { N = 1001 };
	static struct emu_pixel_stats px[N];
	static uint64_t sorted[N];
	unsigned seed = 12345;
	for (int round = 0; round < 40; round++) {
		int n = 1 + round * 25, spread = round % 3 == 0 ? 3 : 1000;
		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			sorted[i] = (seed >> 16) % (unsigned)spread;
			px[i] = (struct emu_pixel_stats){ sorted[i], 0 };
		}
		qsort(sorted, (size_t)n, sizeof sorted[0], cmp_u64);
		struct emu_image img = { .width = n, .height = 1, .stats = px };
		struct emu_stats_summary s;
		assert_true(emu_stats_summarize(&img, &s));
		assert_true(s.cycles[0] == sorted[0]);
		assert_true(s.cycles[1] == sorted[(n - 1) / 2]);
		assert_true(s.cycles[2] == sorted[n - 1]);
	}
}

/* Without the option nothing is counted; with it, the counters count
 * against the draw's memory limit. */
static void test_off_and_memory_limit(void **state)
{
	(void)state;
	struct tp t;
	tp_init(&t);
	tp_out(&t);
	tp_run(&t);
	assert_null(t.img.stats);
	tp_done(&t);
	/* 2800x2800 of a 1-temporary program fits without the counters
	 * (about 900 MiB), not with them (32 bytes more a pixel) */
	t.cfg.width = t.cfg.height = 2800;
	t.cfg.stats = true;
	assert_false(emu_run(tp_prog(&t), &t.cfg, &t.img, t.why, sizeof t.why));
	assert_non_null(strstr(t.why, "with statistics"));
	assert_non_null(strstr(t.why, "more than the emulator's limit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tex_blocks_straight),
		cmocka_unit_test(test_tex_latency_gap),
		cmocka_unit_test(test_compiled_straight_equals_static),
		cmocka_unit_test(test_loop_trips_from_uniform),
		cmocka_unit_test(test_compiled_loop_grows),
		cmocka_unit_test(test_branch_paths_differ),
		cmocka_unit_test(test_branch_path_alone),
		cmocka_unit_test(test_killed_pixel_stops),
		cmocka_unit_test(test_summary_and_json),
		cmocka_unit_test(test_median_matches_sort),
		cmocka_unit_test(test_off_and_memory_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
