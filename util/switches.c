/* The switch table (switches.h) read from switches.def. */
#include "switches.h"

#include <stddef.h>
#include <string.h>

static const struct {
	const char *name;
	enum sw_layer layer;
} table[SW_COUNT] = {
#define USCC_SWITCH(id, name, layer) [SW_##id] = { name, SW_LAYER_##layer },
#include "switches.def"
#undef USCC_SWITCH
};

const char *sw_name(enum sw_id id)
{
	return (unsigned)id < SW_COUNT ? table[id].name : NULL;
}

enum sw_layer sw_layer(enum sw_id id)
{
	return table[id].layer;
}

static bool same_name(const char *a, const char *b)
{
	for (;; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;
		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

bool sw_find(const char *name, enum sw_id *out)
{
	for (int i = 0; name && i < SW_COUNT; i++)
		if (same_name(table[i].name, name)) {
			*out = (enum sw_id)i;
			return true;
		}
	return false;
}
