/* The public figures (uscc.h's struct uscc_stats) from the backend's
 * (r500_stats.def).  uscc.h spells its members out so that it stands
 * alone; the asserts below keep them the .def's, in its order. */
#include <stddef.h>

#include "r500_program.h"
#include "uscc_internal.h"

#define R500_STAT(name, type, meaning)                                                      \
	_Static_assert(offsetof(struct uscc_stats, name) == offsetof(struct r500_stats, name) && \
			       sizeof(((struct uscc_stats *)0)->name) == sizeof(type),           \
		       "uscc_stats." #name " is not r500_stats.def's");
#include "r500_stats.def"
#undef R500_STAT
_Static_assert(sizeof(struct uscc_stats) == sizeof(struct r500_stats),
	       "uscc_stats has members r500_stats.def lacks");

void uscc_stats_from(struct uscc_stats *d, const struct r500_stats *s)
{
#define R500_STAT(name, type, meaning) d->name = s->name;
#include "r500_stats.def"
#undef R500_STAT
}
