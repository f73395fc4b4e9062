/* The container accessors a driver binds with: samplers, constant slots,
 * inputs and flow control, read from a compiled program (values checked
 * against the source, allocation-dependent figures checked for
 * consistency), and every index out of range refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "uscc.h"

static const char loop_src[] =
	"uniform sampler2D tex_a;\n"
	"uniform samplerCube tex_b;\n"
	"uniform sampler2DShadow tex_c;\n"
	"uniform int n;\n"
	"varying vec4 v;\n"
	"varying vec2 w;\n"
	"void main() {\n"
	"  vec4 s = texture2D(tex_a, w) + textureCube(tex_b, v.xyz) + shadow2D(tex_c, v.xyz);\n"
	"  for (int i = 0; i < n; i++) s += vec4(0.3, 0.7, 0.11, 0.13);\n"
	"  gl_FragColor = s * gl_FragCoord.x;\n"
	"}\n";

static const char straight_src[] =
	"varying vec4 v;\n"
	"void main() { gl_FragColor = v * 0.5; }\n";

struct compiled {
	struct uscc_result *r;
	struct uscc_container *c;
};

static struct compiled compile(const char *src)
{
	struct compiled k;
	if (uscc_compile(NULL, src, USCC_NUL_TERMINATED, &k.r) != USCC_OK)
		fail_msg("compile failed: %s", uscc_result_diagnostics(k.r));
	size_t size;
	const void *bin = uscc_result_data(k.r, &size);
	char err[256];
	if (uscc_container_open(NULL, bin, size, &k.c, err, sizeof err) != USCC_OK)
		fail_msg("open failed: %s", err);
	return k;
}

static void release(struct compiled *k)
{
	uscc_container_destroy(k->c);
	uscc_result_destroy(k->r);
}

static void test_samplers(void **state)
{
	(void)state;
	struct compiled k = compile(loop_src);
	assert_int_equal(uscc_container_num_samplers(k.c), 3);
	static const char *const names[] = { "tex_a", "tex_b", "tex_c" };
	static const char *const targets[] = { "2D", "CUBE", "2D" };
	bool unit_seen[16] = { false };
	for (int i = 0; i < 3; i++) {
		struct uscc_sampler_info s;
		assert_true(uscc_container_sampler(k.c, i, &s));
		assert_string_equal(s.name, names[i]);
		assert_string_equal(s.target, targets[i]);
		/* the depth compare of shadow2D is in the code, not the sampler */
		assert_false(s.shadow);
		assert_true(s.unit >= 0 && s.unit < 16);
		assert_false(unit_seen[s.unit]);
		unit_seen[s.unit] = true;
	}
	struct uscc_sampler_info s;
	assert_false(uscc_container_sampler(k.c, 3, &s));
	assert_false(uscc_container_sampler(k.c, -1, &s));
	release(&k);
}

/* The immediate vec4 sits in exactly one slot; the uniform's slot holds
 * no immediate; slots past the count hold nothing. */
static void test_constant_slots(void **state)
{
	(void)state;
	struct compiled k = compile(loop_src);
	int nslots = uscc_container_num_const_slots(k.c);
	assert_true(nslots >= 2 && nslots <= 256);
	struct uscc_uniform_info u;
	assert_true(uscc_container_uniform(k.c, 0, &u));
	assert_string_equal(u.name, "n");
	float v[4];
	assert_false(uscc_container_constant(k.c, u.slot, v));
	int found = 0;
	for (int s = 0; s < nslots; s++) {
		if (!uscc_container_constant(k.c, s, v))
			continue;
		if (v[0] == 0.3f && v[1] == 0.7f && v[2] == 0.11f && v[3] == 0.13f)
			found++;
	}
	assert_int_equal(found, 1);
	assert_false(uscc_container_constant(k.c, nslots, v));
	assert_false(uscc_container_constant(k.c, -1, v));
	assert_false(uscc_container_constant(k.c, 1000, v));
	release(&k);
}

/* Each input in its own temporary within the pixel's frame, with the
 * components the shader reads. */
static void test_inputs(void **state)
{
	(void)state;
	struct compiled k = compile(loop_src);
	struct uscc_flow_info fc;
	uscc_container_flow(k.c, &fc);
	assert_int_equal(uscc_container_num_inputs(k.c), 3);
	static const char *const names[] = { "w", "v", "gl_FragCoord" };
	static const char *const comps[] = { "xy", "xyzw", "xyzw" };
	int temps[3];
	for (int i = 0; i < 3; i++) {
		struct uscc_input_info in;
		assert_true(uscc_container_input(k.c, i, &in));
		assert_string_equal(in.name, names[i]);
		assert_string_equal(in.components, comps[i]);
		assert_true(in.temp >= 0 && in.temp <= fc.pixsize);
		temps[i] = in.temp;
		for (int j = 0; j < i; j++)
			assert_int_not_equal(temps[j], in.temp);
	}
	struct uscc_input_info in;
	assert_false(uscc_container_input(k.c, 3, &in));
	assert_false(uscc_container_input(k.c, -1, &in));
	release(&k);
}

/* A loop with a uniform bound is an R500 loop: flow control on and one
 * integer constant (the most trips, 255) in use; straight code has none. */
static void test_flow(void **state)
{
	(void)state;
	struct compiled k = compile(loop_src);
	struct uscc_flow_info fc;
	uscc_container_flow(k.c, &fc);
	assert_true(fc.uses_fc);
	assert_int_not_equal(fc.int_const_used, 0);
	for (int i = 0; i < 32; i++)
		if (fc.int_const_used & (1u << i))
			assert_int_equal(fc.int_const[i] & 0xff, 255);
		else
			assert_int_equal(fc.int_const[i], 0);
	assert_true(fc.pixsize >= 1 && fc.pixsize < 128);
	release(&k);

	k = compile(straight_src);
	uscc_container_flow(k.c, &fc);
	assert_false(fc.uses_fc);
	assert_int_equal(fc.int_const_used, 0);
	assert_int_equal(fc.bool_const, 0);
	assert_int_equal(uscc_container_num_samplers(k.c), 0);
	assert_int_equal(uscc_container_num_inputs(k.c), 1);
	release(&k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samplers),
		cmocka_unit_test(test_constant_slots),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_flow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
