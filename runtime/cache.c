/* The shader cache: containers by 64-bit key, in a hash table in memory
 * and optionally as files <key>.uscc in a directory.
 *
 * Threads: one mutex guards the table and the counters; compiling and file
 * I/O happen outside it.  Processes: a file is written under a unique
 * temporary name in the same directory and renamed into place (atomic on
 * POSIX), and every file read is validated as a container (checksum), so a
 * reader sees a whole container or a miss, never a torn one. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "container.h"
#include "uscc_internal.h"

enum { MAX_FILE_SIZE = 4 << 20 };

struct entry {
	uint64_t key;
	uint8_t *data; /* NULL = empty bucket */
	size_t size;
};

struct uscc_cache {
	struct mem_allocator alloc;
	pthread_mutex_t lock;
	char *dir;
	struct entry *table;
	size_t cap, count; /* cap a power of two */
	uint64_t hits, misses;
};

/* ---- the table (open addressing, linear probing; caller holds lock) ---- */

static size_t bucket_of(const struct uscc_cache *c, uint64_t key)
{
	/* the key is already a hash; mix once more for the low bits */
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (c->cap - 1);
}

static struct entry *table_find(struct uscc_cache *c, uint64_t key)
{
	if (!c->cap)
		return NULL;
	for (size_t i = bucket_of(c, key);; i = (i + 1) & (c->cap - 1)) {
		if (!c->table[i].data)
			return NULL;
		if (c->table[i].key == key)
			return &c->table[i];
	}
}

static bool table_grow(struct uscc_cache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 64;
	struct entry *t = mem_alloc(&c->alloc, ncap * sizeof *t);
	if (!t)
		return false;
	memset(t, 0, ncap * sizeof *t);
	struct entry *old = c->table;
	size_t ocap = c->cap;
	c->table = t;
	c->cap = ncap;
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].data)
			continue;
		size_t j = bucket_of(c, old[i].key);
		while (t[j].data)
			j = (j + 1) & (ncap - 1);
		t[j] = old[i];
	}
	mem_free(&c->alloc, old, ocap * sizeof *old);
	return true;
}

/* Takes ownership of data on success. */
static bool table_insert(struct uscc_cache *c, uint64_t key, uint8_t *data, size_t size)
{
	if ((c->count + 1) * 2 > c->cap && !table_grow(c))
		return false;
	size_t i = bucket_of(c, key);
	while (c->table[i].data)
		i = (i + 1) & (c->cap - 1);
	c->table[i] = (struct entry){ key, data, size };
	c->count++;
	return true;
}

/* ---- files ---- */

static char *entry_path(const struct uscc_cache *c, uint64_t key, struct arena *arena)
{
	return arena_printf(arena, "%s/%016llx.uscc", c->dir, (unsigned long long)key);
}

/* USCC_OK, USCC_CORRUPT_CONTAINER, or USCC_OUT_OF_MEMORY (so a failed
 * allocation is not mistaken for a bad container). */
static enum uscc_status check_container(const struct mem_allocator *alloc, const void *data,
					size_t size)
{
	struct arena *a = arena_create(alloc);
	if (!a)
		return USCC_OUT_OF_MEMORY;
	struct r500_program p;
	bool ok = container_read(data, size, a, &p, NULL, 0);
	bool oom = arena_failed(a);
	arena_destroy(a);
	return ok ? USCC_OK : oom ? USCC_OUT_OF_MEMORY : USCC_CORRUPT_CONTAINER;
}

/* The file's bytes in the arena, or NULL (absent, unreadable, too big). */
static uint8_t *read_file(const char *path, struct arena *arena, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct stat sb;
	uint8_t *buf = NULL;
	size_t n = 0;
	if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size <= MAX_FILE_SIZE) {
		/* one byte more than stated: a file that grew is not a whole one */
		size_t want = (size_t)sb.st_size;
		buf = arena_alloc(arena, want + 1);
		n = buf ? fread(buf, 1, want + 1, f) : 0;
		if (n != want)
			buf = NULL;
	}
	fclose(f);
	*size = n;
	return buf;
}

static enum uscc_status write_file(const struct uscc_cache *c, uint64_t key, const void *data,
				   size_t size)
{
	struct arena *a = arena_create(&c->alloc);
	if (!a)
		return USCC_OUT_OF_MEMORY;
	char *path = entry_path(c, key, a);
	char *tmp = arena_printf(a, "%s/.tmp-%016llx-XXXXXX", c->dir, (unsigned long long)key);
	enum uscc_status st = USCC_OUT_OF_MEMORY;
	if (path && tmp) {
		st = USCC_IO_ERROR;
		int fd = mkstemp(tmp);
		if (fd >= 0) {
			FILE *f = fdopen(fd, "wb");
			bool ok = f && fwrite(data, 1, size, f) == size;
			ok = f && fflush(f) == 0 && ok && fsync(fd) == 0;
			if (f)
				ok = fclose(f) == 0 && ok;
			else
				close(fd);
			(void)chmod(tmp, 0644);
			if (ok && rename(tmp, path) == 0)
				st = USCC_OK;
			else
				unlink(tmp);
		}
	}
	arena_destroy(a);
	return st;
}

/* ---- public ---- */

enum uscc_status uscc_cache_create(const struct uscc_allocator *alloc, const char *dir,
				   struct uscc_cache **out)
{
	*out = NULL;
	struct mem_allocator a = uscc_allocator_of(alloc);
	struct uscc_cache *c = mem_alloc(&a, sizeof *c);
	if (!c)
		return USCC_OUT_OF_MEMORY;
	memset(c, 0, sizeof *c);
	c->alloc = a;
	if (dir) {
		size_t n = strlen(dir) + 1;
		c->dir = mem_alloc(&a, n);
		if (!c->dir) {
			mem_free(&a, c, sizeof *c);
			return USCC_OUT_OF_MEMORY;
		}
		memcpy(c->dir, dir, n);
		struct stat sb;
		if (mkdir(dir, 0755) != 0 && !(errno == EEXIST && stat(dir, &sb) == 0 &&
					       S_ISDIR(sb.st_mode))) {
			mem_free(&a, c->dir, n);
			mem_free(&a, c, sizeof *c);
			return USCC_IO_ERROR;
		}
	}
	if (pthread_mutex_init(&c->lock, NULL) != 0) {
		if (c->dir)
			mem_free(&a, c->dir, strlen(c->dir) + 1);
		mem_free(&a, c, sizeof *c);
		return USCC_OUT_OF_MEMORY;
	}
	*out = c;
	return USCC_OK;
}

void uscc_cache_destroy(struct uscc_cache *c)
{
	if (!c)
		return;
	struct mem_allocator a = c->alloc;
	for (size_t i = 0; i < c->cap; i++)
		if (c->table[i].data)
			mem_free(&a, c->table[i].data, c->table[i].size);
	mem_free(&a, c->table, c->cap * sizeof *c->table);
	if (c->dir)
		mem_free(&a, c->dir, strlen(c->dir) + 1);
	pthread_mutex_destroy(&c->lock);
	mem_free(&a, c, sizeof *c);
}

/* Copies data into memory under key unless present; false only on OOM. */
static bool remember(struct uscc_cache *c, uint64_t key, const void *data, size_t size,
		     bool *was_new)
{
	uint8_t *copy = mem_alloc(&c->alloc, size);
	if (!copy)
		return false;
	memcpy(copy, data, size);
	pthread_mutex_lock(&c->lock);
	bool fresh = !table_find(c, key);
	bool ok = !fresh || table_insert(c, key, copy, size);
	pthread_mutex_unlock(&c->lock);
	if (!fresh || !ok)
		mem_free(&c->alloc, copy, size);
	if (was_new)
		*was_new = fresh && ok;
	return ok;
}

static void count(struct uscc_cache *c, bool hit)
{
	pthread_mutex_lock(&c->lock);
	if (hit)
		c->hits++;
	else
		c->misses++;
	pthread_mutex_unlock(&c->lock);
}

/* A hit in memory: a result made under the lock (entries never change). */
static struct uscc_result *memory_get(struct uscc_cache *c, uint64_t key, bool *found)
{
	pthread_mutex_lock(&c->lock);
	struct entry *e = table_find(c, key);
	struct uscc_result *r = NULL;
	*found = e != NULL;
	if (e)
		r = uscc_result_make(&c->alloc, USCC_OK, e->data, e->size, "", NULL);
	pthread_mutex_unlock(&c->lock);
	return r;
}

enum uscc_status uscc_cache_get(struct uscc_cache *c, uint64_t key, struct uscc_result **out)
{
	*out = NULL;
	bool found;
	struct uscc_result *r = memory_get(c, key, &found);
	if (found) {
		count(c, true);
		*out = r;
		return r ? USCC_OK : USCC_OUT_OF_MEMORY;
	}
	if (c->dir) {
		struct arena *a = arena_create(&c->alloc);
		if (!a)
			return USCC_OUT_OF_MEMORY;
		size_t size = 0;
		char *path = entry_path(c, key, a);
		uint8_t *data = path ? read_file(path, a, &size) : NULL;
		if (data && check_container(&c->alloc, data, size) == USCC_OK) {
			remember(c, key, data, size, NULL);
			r = uscc_result_make(&c->alloc, USCC_OK, data, size, "", NULL);
			arena_destroy(a);
			count(c, true);
			*out = r;
			return r ? USCC_OK : USCC_OUT_OF_MEMORY;
		}
		arena_destroy(a);
	}
	count(c, false);
	return USCC_NOT_FOUND;
}

enum uscc_status uscc_cache_put(struct uscc_cache *c, uint64_t key, const void *data,
				size_t size)
{
	enum uscc_status st = data ? check_container(&c->alloc, data, size)
				   : USCC_CORRUPT_CONTAINER;
	if (st != USCC_OK)
		return st;
	bool fresh = false;
	if (!remember(c, key, data, size, &fresh))
		return USCC_OUT_OF_MEMORY;
	if (fresh && c->dir)
		return write_file(c, key, data, size);
	return USCC_OK;
}

enum uscc_status uscc_cache_compile(struct uscc_cache *c, const struct uscc_options *o,
				    const char *source, size_t len, struct uscc_result **out)
{
	uint64_t key = uscc_cache_key(o, source, len);
	enum uscc_status st = uscc_cache_get(c, key, out);
	if (st != USCC_NOT_FOUND)
		return st;
	st = uscc_compile(o, source, len, out);
	if (st == USCC_OK) {
		size_t size;
		const void *data = uscc_result_data(*out, &size);
		/* the cache is best effort: a failed store still returns the code */
		(void)uscc_cache_put(c, key, data, size);
	}
	return st;
}

void uscc_cache_counts(struct uscc_cache *c, uint64_t *hits, uint64_t *misses)
{
	pthread_mutex_lock(&c->lock);
	if (hits)
		*hits = c->hits;
	if (misses)
		*misses = c->misses;
	pthread_mutex_unlock(&c->lock);
}
