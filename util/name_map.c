/* The name map of name_map.h. */
#include "name_map.h"

#include <string.h>

static const char tombstone[1];

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* The slot holding `name`, or NULL. */
static struct name_slot *find(const struct name_map *m, const char *name)
{
	if (!m->cap)
		return NULL;
	for (uint32_t i = name_hash(name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct name_slot *s = &m->slots[i];
		if (!s->name)
			return NULL;
		if (s->name != tombstone && strcmp(s->name, name) == 0)
			return s;
	}
}

void *name_map_get(const struct name_map *m, const char *name)
{
	const struct name_slot *s = find(m, name);
	return s ? s->value : NULL;
}

/* Rehashes into a table of `cap` slots (dropping tombstones). */
static bool resize(struct name_map *m, struct arena *arena, uint32_t cap)
{
	struct name_slot *slots = arena_alloc(arena, sizeof *slots * cap);
	if (!slots)
		return false;
	for (uint32_t i = 0; i < m->cap; i++) {
		const struct name_slot *o = &m->slots[i];
		if (!o->name || o->name == tombstone)
			continue;
		uint32_t j = name_hash(o->name) & (cap - 1);
		while (slots[j].name)
			j = (j + 1) & (cap - 1);
		slots[j] = *o;
	}
	m->slots = slots;
	m->cap = cap;
	m->used = m->count;
	return true;
}

bool name_map_reserve(struct name_map *m, struct arena *arena, uint32_t n)
{
	uint32_t cap = m->cap ? m->cap : 8;
	while (n * 2 > cap && cap <= (1u << 29))
		cap *= 2;
	return n * 2 <= cap && (cap == m->cap || resize(m, arena, cap));
}

/* One probe sequence finds the name or the slot it goes to (the first
 * tombstone on the way, else the empty slot that ends it), so the name
 * is hashed once: declaring the GLSL built-ins hashed each name twice. */
bool name_map_put(struct name_map *m, struct arena *arena, const char *name, void *value)
{
	/* keep at most half the slots in use, so probes stay short */
	if ((m->used + 1) * 2 > m->cap) {
		uint32_t cap = m->cap ? m->cap : 8;
		while ((m->count + 1) * 2 > cap)
			cap *= 2;
		if (cap > (1u << 30) || !resize(m, arena, cap))
			return false;
	}
	struct name_slot *dest = NULL;
	for (uint32_t i = name_hash(name) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		struct name_slot *s = &m->slots[i];
		if (!s->name) {
			if (!dest) {
				dest = s;
				m->used++;
			}
			break;
		}
		if (s->name == tombstone) {
			if (!dest)
				dest = s;
		} else if (strcmp(s->name, name) == 0) {
			s->value = value;
			return true;
		}
	}
	dest->name = name;
	dest->value = value;
	m->count++;
	return true;
}

bool name_map_remove(struct name_map *m, const char *name)
{
	struct name_slot *s = find(m, name);
	if (!s)
		return false;
	s->name = tombstone;
	s->value = NULL;
	m->count--;
	return true;
}
