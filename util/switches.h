/* The optimizations that can be switched off, from one list (switches.def):
 * an enum to name them in code and a bitset of those switched off. */
#ifndef USCC_SWITCHES_H
#define USCC_SWITCHES_H

#include <stdbool.h>
#include <stdint.h>

enum sw_id {
#define USCC_SWITCH(id, name, layer) SW_##id,
#include "switches.def"
#undef USCC_SWITCH
	SW_COUNT
};

enum sw_layer { SW_LAYER_IR, SW_LAYER_BACKEND };

/* Bit i set: switch i is off.  0: everything on. */
typedef uint64_t sw_set;
_Static_assert(SW_COUNT <= 64, "sw_set holds one bit per switch");

static inline sw_set sw_bit(enum sw_id id)
{
	return (sw_set)1 << id;
}

static inline bool sw_off(sw_set set, enum sw_id id)
{
	return (set & sw_bit(id)) != 0;
}

/* The name users type for id ("loop_unroll", "copy-fold"). */
const char *sw_name(enum sw_id id);
enum sw_layer sw_layer(enum sw_id id);
/* The switch named `name` ('-' and '_' alike); false if there is none. */
bool sw_find(const char *name, enum sw_id *out);

#endif
