/* ir/quad_uniform.c: which values are the same in the four pixels of a
 * quad, and which IFs they all take alike. */
#include "ir_test_util.h"
#include "quad_uniform.h"

/* The IF at the top level, index k (0 = first) in program order. */
static const struct ir_cf *nth_if(const struct ir_cf_list *list, int *k)
{
	for (const struct ir_cf *cf = list->first; cf; cf = cf->next) {
		if (cf->kind == IR_CF_IF && (*k)-- == 0)
			return cf;
		const struct ir_cf *in = NULL;
		if (cf->kind == IR_CF_IF) {
			in = nth_if(&cf->then_list, k);
			if (!in)
				in = nth_if(&cf->else_list, k);
		} else if (cf->kind == IR_CF_LOOP) {
			in = nth_if(&cf->body, k);
		}
		if (in)
			return in;
	}
	return NULL;
}

static const struct ir_cf *if_at(const struct ir_func *f, int k)
{
	const struct ir_cf *cf = nth_if(&f->body, &k);
	assert_non_null(cf);
	return cf;
}

static struct ir_quad_uniform analyse(struct arena *a, const struct ir_func *f)
{
	validate_ok(a, f);
	struct ir_quad_uniform u;
	assert_true(ir_quad_uniform(f, a, &u));
	return u;
}

static const char key_ifs[] =
	"stage fragment\n"
	"input #0 \"uv\" f2\n"
	"sampler #0 \"keys\" 2d unit=0\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = const.f2 0.25 0.75\n"
	"%2 = tex.f4 #0 plain %1.xy\n"          /* a key: the same everywhere */
	"%3 = const.f1 0.5\n"
	"%4 = lt.b1 %3.x, %2.x\n"
	"%5 = input.f2 #0\n"
	"%6 = tex.f4 #0 plain %5.xy\n"          /* each pixel its own */
	"%7 = lt.b1 %3.x, %6.x\n"
	"if %4.x {\n"                           /* IF 0: all alike */
	"  %8 = tex.f4 #0 plain %5.xy\n"
	"  if %4.x {\n"                         /* IF 1: alike inside alike */
	"    %9 = mul.f4 %8.xyzw, %3.xxxx\n"
	"  }\n"
	"  %10 = phi.f4 %9.xyzw, %8.xyzw\n"
	"} else {\n"
	"  %11 = ddx.f4 %2.xyzw\n"              /* of a same value, all active: same */
	"}\n"
	"%12 = phi.f4 %10.xyzw, %11.xyzw\n"
	"if %7.x {\n"                           /* IF 2: pixels may differ */
	"  %13 = tex.f4 #0 plain %1.xy\n"       /* implicit LOD, neighbours may be off */
	"  %14 = tex.f4 #0 lod %1.xy, %3.x\n"   /* explicit LOD: needs no neighbour */
	"  if %4.x {\n"                         /* IF 3: alike, but inside IF 2 */
	"    %15 = add.f4 %14.xyzw, %14.xyzw\n"
	"  }\n"
	"  %16 = phi.f4 %15.xyzw, %14.xyzw\n"
	"}\n"
	"%17 = phi.f4 %16.xyzw, %2.xyzw\n"      /* joins sides the pixels may differ on */
	"output #0 %17.xyzw\n";

static void test_ifs_on_a_key(void **state)
{
	struct arena *a = *state;
	struct ir_func *f = parse_ok(a, key_ifs);
	struct ir_quad_uniform u = analyse(a, f);
	assert_true(u.value[2] && u.value[4]);
	assert_false(u.value[5] || u.value[6] || u.value[7] || u.value[8]);
	assert_true(u.value[11]);
	assert_false(u.value[13]);
	assert_true(u.value[14] && u.value[15]);
	assert_true(u.value[16]) /* IF 3's sides are taken alike */;
	assert_false(u.value[17]);
	assert_true(ir_quad_uniform_if(&u, if_at(f, 0)));
	assert_true(ir_quad_uniform_if(&u, if_at(f, 1)));
	assert_false(ir_quad_uniform_if(&u, if_at(f, 2)));
	assert_false(ir_quad_uniform_if(&u, if_at(f, 3)));
	assert_int_equal(u.nsplit, 0);
}

/* A counted loop whose exit compares the counter with a constant stays
 * together; one that leaves on a pixel's own value splits, and whatever
 * it makes differs afterwards (each pixel left at its own trip). */
static const char loops[] =
	"stage fragment\n"
	"input #0 \"uv\" f2\n"
	"sampler #0 \"s\" 2d unit=0\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = const.f1 0\n"
	"%2 = const.f1 1\n"
	"%3 = const.f1 4\n"
	"%4 = input.f2 #0\n"
	"loop {\n"                              /* counted: together */
	"  %5 = phi.f1 %1.x, %8.x\n"
	"  %6 = lt.b1 %5.x, %3.x\n"
	"  %7 = not.b1 %6.x\n"
	"  if %7.x {\n"                         /* IF 0 */
	"    break\n"
	"  }\n"
	"  %8 = add.f1 %5.x, %2.x\n"
	"}\n"
	"%9 = phi.f1 %5.x\n"
	"loop {\n"                              /* leaves on the pixel's uv: split */
	"  %10 = phi.f1 %1.x, %13.x\n"
	"  %11 = lt.b1 %10.x, %4.x\n"
	"  if %11.x {\n"                        /* IF 1 */
	"    break\n"
	"  }\n"
	"  %12 = lt.b1 %10.x, %3.x\n"
	"  if %12.x {\n"                        /* IF 2: alike by its condition, but in a split loop */
	"    %14 = tex.f4 #0 plain %4.xy\n"
	"  }\n"
	"  %13 = add.f1 %10.x, %2.x\n"
	"}\n"
	"%15 = phi.f1 %10.x\n"
	"%16 = vec.f4 %9.x, %15.x, %1.x, %2.x\n"
	"output #0 %16.xyzw\n";

static void test_loops(void **state)
{
	struct arena *a = *state;
	struct ir_func *f = parse_ok(a, loops);
	struct ir_quad_uniform u = analyse(a, f);
	assert_true(u.value[5] && u.value[7] && u.value[8] && u.value[9]);
	assert_true(ir_quad_uniform_if(&u, if_at(f, 0)));
	assert_int_equal(u.nsplit, 1);
	assert_false(u.value[10] || u.value[12] || u.value[13] || u.value[15]);
	assert_false(ir_quad_uniform_if(&u, if_at(f, 1)));
	assert_false(ir_quad_uniform_if(&u, if_at(f, 2)));
}

/* The loop's second trip reads what the first made from a pixel's own
 * value: the fixed point reaches the counter's PHI through the back edge. */
static const char back_edge[] =
	"stage fragment\n"
	"input #0 \"uv\" f2\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = const.f1 0\n"
	"%2 = const.f1 4\n"
	"%3 = input.f2 #0\n"
	"loop {\n"
	"  %4 = phi.f1 %1.x, %7.x\n"
	"  %5 = lt.b1 %2.x, %4.x\n"
	"  if %5.x {\n"
	"    break\n"
	"  }\n"
	"  %7 = add.f1 %4.x, %3.x\n"
	"}\n"
	"%8 = phi.f1 %4.x\n"
	"%9 = vec.f4 %8.x, %8.x, %8.x, %8.x\n"
	"output #0 %9.xyzw\n";

static void test_back_edge(void **state)
{
	struct arena *a = *state;
	struct ir_func *f = parse_ok(a, back_edge);
	struct ir_quad_uniform u = analyse(a, f);
	assert_false(u.value[4] || u.value[5] || u.value[7] || u.value[8]);
	assert_int_equal(u.nsplit, 1);
	assert_false(ir_quad_uniform_if(&u, if_at(f, 0)));
}

/* TGSI writes registers whole: a key in .x beside each pixel's own
 * lookup in .yzw, joined after an IF; the next IF reads only .x */
static const char register_parts[] =
	"stage fragment\n"
	"input #0 \"uv\" f2\n"
	"uniform #0 \"k\" \"float\" f1 nvec4=1 array=0 base=0\n"
	"sampler #0 \"tex\" 2d unit=0\n"
	"output #0 \"gl_FragColor\" f4 target=0\n"
	"%1 = uniform.f1 #0[0]\n"
	"%2 = const.f1 0.5\n"
	"%3 = lt.b1 %2.x, %1.x\n"
	"%4 = input.f2 #0\n"
	"if %3.x {\n"                           /* IF 0: all alike */
	"  %5 = tex.f4 #0 plain %4.xy\n"
	"  %6 = vec.f4 %2.x, %5.y, %5.z, %5.w\n" /* .x the same, .yzw not */
	"} else {\n"
	"  %7 = vec.f4 %1.x, %4.x, %4.y, %1.x\n"  /* .xw the same */
	"}\n"
	"%8 = phi.f4 %6.xyzw, %7.xyzw\n"       /* .x the same on both sides */
	"%9 = lt.b1 %8.x, %1.x\n"
	"%10 = lt.b1 %8.y, %1.x\n"
	"if %9.x {\n"                           /* IF 1: all alike */
	"  %11 = mul.f4 %8.xyzw, %8.xxxx\n"
	"}\n"
	"%12 = phi.f4 %11.xyzw, %8.xyzw\n"
	"if %10.x {\n"                          /* IF 2: pixels may differ */
	"  %13 = mul.f4 %12.xyzw, %8.xxxx\n"
	"}\n"
	"%14 = phi.f4 %13.xyzw, %12.xyzw\n"
	"output #0 %14.xyzw\n";

static void test_register_parts(void **state)
{
	struct arena *a = *state;
	struct ir_func *f = parse_ok(a, register_parts);
	struct ir_quad_uniform u = analyse(a, f);
	assert_int_equal(u.value[6], 0x1);
	assert_int_equal(u.value[7], 0x9);
	assert_int_equal(u.value[8], 0x1);
	assert_true(u.value[9]);
	assert_false(u.value[10]);
	assert_false(u.value[11]); /* reads %8.yzw */
	assert_true(ir_quad_uniform_if(&u, if_at(f, 0)));
	assert_true(ir_quad_uniform_if(&u, if_at(f, 1)));
	assert_false(ir_quad_uniform_if(&u, if_at(f, 2)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ifs_on_a_key),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_back_edge),
		cmocka_unit_test(test_register_parts),
	};
	return cmocka_run_group_tests(tests, ir_test_arena_setup, ir_test_arena_teardown);
}
