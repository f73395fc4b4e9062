/* The R500 field table: every field and value round-trips through the
 * encoder and decoder, fields do not overlap, every bit is either a field
 * or documented reserved (ISA.md §4), and §9's worked example encodes to
 * the words the spec gives. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "r500_codec.h"

static uint16_t *member(struct r500_inst *in, const struct r500_field *f)
{
	return (uint16_t *)((char *)in + f->offset);
}

static uint32_t field_mask(const struct r500_field *f)
{
	return (uint32_t)(((uint64_t)1 << f->width) - 1) << f->lo;
}

/* (a) every legal value of every field, for every type that has it */
static void test_every_field_value_round_trips(void **state)
{
	(void)state;
	int checked = 0;
	for (size_t i = 0; i < r500_nfields; i++) {
		const struct r500_field *f = &r500_fields[i];
		assert_true(f->width >= 1 && f->width <= 9);
		assert_true(f->dword < 6 && f->lo + f->width <= 32);
		assert_true(f->offset + sizeof(uint16_t) <= sizeof(struct r500_inst));
		for (unsigned type = 0; type < 4; type++) {
			if (!((f->types >> type) & 1))
				continue;
			for (unsigned v = 0; v < (1u << f->width); v++) {
				if (f->legal && !((f->legal >> v) & 1))
					continue;
				struct r500_inst in, out;
				uint32_t w[6], w2[6];
				memset(&in, 0, sizeof in);
				in.cmn.type = (uint16_t)type;
				*member(&in, f) = (uint16_t)v;
				r500_encode(&in, w);
				/* the value sits exactly in the field's bits */
				uint32_t expect = ((uint32_t)v << f->lo);
				if (f->dword == 0 && strcmp(f->name, "TYPE"))
					expect |= type;
				assert_int_equal(w[f->dword], expect);
				r500_decode(w, &out, NULL, 0);
				if (memcmp(&in, &out, sizeof in)) {
					print_error("field %s type %u value %u\n", f->name, type, v);
					fail();
				}
				r500_encode(&out, w2);
				assert_memory_equal(w, w2, sizeof w);
				checked++;
			}
		}
	}
	assert_true(checked > 1000);
}

/* Bits ISA.md §4 marks unused, per type and dword. */
static uint32_t documented_reserved(unsigned type, unsigned dw)
{
	if (type == 3) { /* TEX */
		static const uint32_t r[6] = { 0, 0xF030FFFFu, 0, 0, 0xFFFFFFFFu, 0xFFFFFFFFu };
		return r[dw];
	}
	if (type == 2) { /* FC */
		static const uint32_t r[6] = { 0, 0xFFFFFFFFu, 0xE0E00008u, 0x7E00E0E0u,
					       0xFFFFFFFFu, 0xFFFFFFFFu };
		return r[dw];
	}
	return 0; /* ALU and OUT use every bit */
}

static void test_fields_tile_words(void **state)
{
	(void)state;
	for (unsigned type = 0; type < 4; type++)
		for (unsigned dw = 0; dw < 6; dw++) {
			uint32_t covered = 0;
			for (size_t i = 0; i < r500_nfields; i++) {
				const struct r500_field *f = &r500_fields[i];
				if (!((f->types >> type) & 1) || f->dword != dw)
					continue;
				if (covered & field_mask(f)) {
					print_error("%s overlaps in type %u dword %u\n", f->name, type, dw);
					fail();
				}
				covered |= field_mask(f);
			}
			assert_int_equal(covered | documented_reserved(type, dw), 0xFFFFFFFFu);
			assert_int_equal(covered & documented_reserved(type, dw), 0);
		}
}

/* each struct member is described once, CMN fields by all types */
static void test_members_unique(void **state)
{
	(void)state;
	for (size_t i = 0; i < r500_nfields; i++) {
		if (r500_fields[i].dword == 0)
			assert_int_equal(r500_fields[i].types, 15);
		for (size_t j = i + 1; j < r500_nfields; j++)
			assert_int_not_equal(r500_fields[i].offset, r500_fields[j].offset);
	}
}

/* legal masks exclude exactly the reserved values of §3/§4 */
static const struct r500_field *field(const char *name, unsigned type)
{
	for (size_t i = 0; i < r500_nfields; i++)
		if (!strcmp(r500_fields[i].name, name) && ((r500_fields[i].types >> type) & 1))
			return &r500_fields[i];
	return NULL;
}

static void test_reserved_values(void **state)
{
	(void)state;
	assert_int_equal(field("ALPHA_OP", 0)->legal, 0xFFFF & ~(1u << 4));
	assert_int_equal(field("RGB_OP", 1)->legal, 0x1FFF & ~(1u << 6));
	assert_int_equal(field("INST", 3)->legal, 0x7F);
	assert_int_equal(field("A_OP", 2)->legal, 0x7);
	assert_int_equal(field("B_OP0", 2)->legal, 0x7);
	assert_int_equal(field("B_OP1", 2)->legal, 0x7);
	assert_int_equal(field("RGB_PRED_SEL", 2)->legal, 0x3F);
	assert_int_equal(field("ALPHA_PRED_SEL", 0)->legal, 0x3F);
	/* spot checks of positions against §4 */
	assert_int_equal(field("DY_ADDR_REL", 3)->lo, 23);
	assert_int_equal(field("JUMP_ADDR", 2)->lo, 16);
	assert_int_equal(field("JUMP_ADDR", 2)->width, 9);
	assert_int_equal(field("OP", 2)->dword, 2);
	assert_int_equal(field("BOOL_ADDR", 2)->dword, 3);
	assert_int_equal(field("ALPHA_SWIZ_C", 0)->lo, 27);
	assert_null(field("OP", 0));
}

/* (b) ISA.md §9 */
static void test_worked_example(void **state)
{
	(void)state;
	static const uint32_t expect[6] = { 0x0007F805, 0x10000801, 0x10000801,
					    0x00442220, 0x0068C000, 0x1C222000 };
	struct r500_inst in;
	memset(&in, 0, sizeof in);
	in.cmn.type = R500_TYPE_OUT;
	in.cmn.tex_sem_wait = 1;
	in.cmn.rgb_wmask = 7;
	in.cmn.alpha_wmask = 1;
	in.cmn.rgb_omask = 7;
	in.cmn.alpha_omask = 1;
	struct r500_addr_word *aw[2] = { &in.alu.rgb_addr, &in.alu.alpha_addr };
	for (int u = 0; u < 2; u++) {
		aw[u]->src[0].addr = 1;
		aw[u]->src[1].addr = 2;
		aw[u]->src[2].addr = 0;
		aw[u]->src[2].cnst = 1;
	}
	for (int k = 0; k < 3; k++) {
		in.alu.rgb_arg[k].sel = (uint16_t)k;
		in.alu.alpha_arg[k].sel = (uint16_t)k;
		in.alu.alpha_arg[k].swz[0] = R500_SWZ_A;
		for (int c = 0; c < 3; c++)
			in.alu.rgb_arg[k].swz[c] = (uint16_t)c;
	}
	in.alu.rgb_op = R500_ROP_MAD;
	in.alu.alpha_op = R500_AOP_MAD;
	uint32_t w[6];
	r500_encode(&in, w);
	assert_memory_equal(w, expect, sizeof w);
	assert_true(r500_inst_validate(&in, NULL, 0));
	struct r500_inst back;
	char why[128];
	assert_true(r500_decode(expect, &back, why, sizeof why));
	assert_memory_equal(&in, &back, sizeof in);
}

/* other bodies stay 0 and do not reach the words */
static void test_foreign_members_not_encoded(void **state)
{
	(void)state;
	struct r500_inst in;
	memset(&in, 0, sizeof in);
	in.cmn.type = R500_TYPE_TEX;
	in.alu.rgb_op = 5;
	in.fc.jump_addr = 7;
	uint32_t w[6];
	r500_encode(&in, w);
	assert_int_equal(w[0], 3);
	for (int i = 1; i < 6; i++)
		assert_int_equal(w[i], 0);
	char why[128];
	assert_false(r500_inst_validate(&in, why, sizeof why));
}

static void test_inline_values(void **state)
{
	(void)state;
	assert_true(r500_inline_value(0x38) == 1.0f);
	assert_true(r500_inline_value(0x30) == 0.5f);
	assert_true(r500_inline_value(0x3C) == 1.5f);
	assert_true(r500_inline_value(0x7F) == 480.0f);
	assert_true(r500_inline_value(0x01) == 0.001953125f);
	assert_true(r500_inline_value(0x08) == 0.015625f);
	assert_true(r500_inline_value(0x00) == 0.0f);
	assert_int_equal(r500_inline_code(2.0f), 0x40);
	assert_int_equal(r500_inline_code(0.001953125f), -1); /* E = 0 never emitted */
}

/* r500_inline_code computes the code: every emitted code round-trips, and
 * the floats just beside each value, its negation, zero, infinity and NaN
 * have none. */
static void test_inline_code_round_trips(void **state)
{
	(void)state;
	for (unsigned code = 8; code < 128; code++) {
		float v = r500_inline_value(code);
		assert_int_equal(r500_inline_code(v), (int)code);
		assert_int_equal(r500_inline_code(nextafterf(v, 0.0f)), -1);
		assert_int_equal(r500_inline_code(nextafterf(v, INFINITY)), -1);
		assert_int_equal(r500_inline_code(-v), -1);
	}
	assert_int_equal(r500_inline_code(0.0f), -1);
	assert_int_equal(r500_inline_code(-0.0f), -1);
	assert_int_equal(r500_inline_code(INFINITY), -1);
	assert_int_equal(r500_inline_code(NAN), -1);
	assert_int_equal(r500_inline_code(481.0f), -1);
	assert_int_equal(r500_inline_code(1.0625f), -1); /* needs a 4th mantissa bit */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_field_value_round_trips),
		cmocka_unit_test(test_fields_tile_words),
		cmocka_unit_test(test_members_unique),
		cmocka_unit_test(test_reserved_values),
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_foreign_members_not_encoded),
		cmocka_unit_test(test_inline_values),
		cmocka_unit_test(test_inline_code_round_trips),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
