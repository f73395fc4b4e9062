/* The shader cache under concurrency (built with USCC_TSAN by .ci/tsan):
 * 8 threads share one cache in memory, one on disk, and two cache objects
 * on one directory (as two processes would).  Each thread compiles every
 * samples/ shader at -O0 and -O2 through uscc_cache_compile, in its own
 * order, so that threads hit and miss the same keys at once; every result
 * must be byte-identical to a single-threaded uscc_compile and open as a
 * container.  Threads also call uscc_cache_get/put directly and read
 * uscc_cache_counts, which must never go down; at the end hits + misses
 * equal the lookups made, and every byte the shared allocator gave out has
 * come back.  And one container's constant program runs in every thread
 * at once. */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../test_util.h"
#include "uscc.h"

enum { NTHREADS = 8, ROUNDS = 4, MAX_SRC = 16, NOPT = 2, MAX_KEYS = MAX_SRC * NOPT };

static const char *const sample_names[] = {
	"checkerboard", "fog", "normal_map", "phong", "reflect_env",
	"rings", "textured", "toon", "vignette",
};

/* An allocator every thread shares: live bytes must come back to 0. */
struct counting {
	atomic_long live, calls;
};

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct counting *c = ud;
	atomic_fetch_add(&c->calls, 1);
	if (nsize == 0) {
		if (ptr)
			atomic_fetch_sub(&c->live, (long)osize);
		free(ptr);
		return NULL;
	}
	void *p = realloc(ptr, nsize);
	if (p)
		atomic_fetch_add(&c->live, (long)nsize - (ptr ? (long)osize : 0));
	return p;
}

/* What every thread must get: the single-threaded compile of each key. */
struct reference {
	int nkeys;
	const char *name[MAX_KEYS];
	char *source[MAX_KEYS];
	int opt[MAX_KEYS];
	uint64_t key[MAX_KEYS];
	uint8_t *bin[MAX_KEYS];
	size_t size[MAX_KEYS];
	int ninst[MAX_KEYS];
};

static struct reference ref;

static char *read_sample(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "samples/%s.frag", name);
	char *s = test_read_file(path);
	if (!s) { /* run by hand from elsewhere */
		snprintf(path, sizeof path, "%s/samples/%s.frag", USCC_SOURCE_DIR, name);
		s = test_read_file(path);
	}
	return s;
}

static struct uscc_options *options_at(const struct uscc_allocator *al, int opt)
{
	struct uscc_options *o = uscc_options_create(al);
	if (o && uscc_options_set_opt_level(o, opt) != USCC_OK) {
		uscc_options_destroy(o);
		o = NULL;
	}
	return o;
}

static int setup(void **state)
{
	(void)state;
	memset(&ref, 0, sizeof ref);
	size_t nsamples = sizeof sample_names / sizeof sample_names[0];
	for (size_t i = 0; i < nsamples && i < MAX_SRC; i++) {
		char *src = read_sample(sample_names[i]);
		if (!src) {
			print_error("cannot read samples/%s.frag\n", sample_names[i]);
			return -1;
		}
		for (int k = 0; k < NOPT; k++) {
			int n = ref.nkeys++, opt = k ? 2 : 0;
			struct uscc_options *o = options_at(NULL, opt);
			struct uscc_result *r = NULL;
			if (!o || uscc_compile(o, src, USCC_NUL_TERMINATED, &r) != USCC_OK) {
				print_error("%s -O%d does not compile: %s\n", sample_names[i], opt,
					    r ? uscc_result_diagnostics(r) : "out of memory");
				return -1;
			}
			size_t size;
			const void *d = uscc_result_data(r, &size);
			ref.name[n] = sample_names[i];
			ref.source[n] = k ? NULL : src; /* owned by the -O0 entry */
			ref.opt[n] = opt;
			ref.key[n] = uscc_cache_key(o, src, USCC_NUL_TERMINATED);
			ref.bin[n] = malloc(size);
			if (!ref.bin[n])
				return -1;
			memcpy(ref.bin[n], d, size);
			ref.size[n] = size;
			struct uscc_container *c;
			if (uscc_container_open(NULL, d, size, &c, NULL, 0) != USCC_OK)
				return -1;
			uscc_container_code(c, &ref.ninst[n]);
			uscc_container_destroy(c);
			uscc_result_destroy(r);
			uscc_options_destroy(o);
		}
	}
	/* the keys are distinct, or the test would prove less than it says */
	for (int a = 0; a < ref.nkeys; a++)
		for (int b = a + 1; b < ref.nkeys; b++)
			if (ref.key[a] == ref.key[b])
				return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int n = 0; n < ref.nkeys; n++) {
		free(ref.source[n]);
		free(ref.bin[n]);
	}
	return 0;
}

static const char *source_of(int n)
{
	return ref.source[n] ? ref.source[n] : ref.source[n - 1];
}

struct worker {
	struct uscc_cache *cache;
	const struct uscc_allocator *alloc;
	pthread_barrier_t *start;
	int id;
	/* lookups this thread made (each counts one hit or one miss) */
	uint64_t lookups, unknown_lookups;
	char error[256];           /* first failure, "" when none */
};

static bool failed(struct worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static bool failed(struct worker *w, const char *fmt, ...)
{
	if (!w->error[0]) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(w->error, sizeof w->error, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* The bytes of a result, as a container: those of reference n. */
static bool check_result(struct worker *w, struct uscc_result *r, int n, const char *how)
{
	size_t size;
	const void *d = uscc_result_data(r, &size);
	if (!d || size != ref.size[n] || memcmp(d, ref.bin[n], size) != 0)
		return failed(w, "%s of %s -O%d: %zu bytes that differ from the %zu of "
			      "uscc_compile", how, ref.name[n], ref.opt[n], size, ref.size[n]);
	struct uscc_container *c;
	char err[128];
	if (uscc_container_open(w->alloc, d, size, &c, err, sizeof err) != USCC_OK)
		return failed(w, "%s of %s: the container does not open: %s", how, ref.name[n],
			      err);
	int ninst = 0;
	bool same = uscc_container_code(c, &ninst) && ninst == ref.ninst[n];
	uscc_container_destroy(c);
	return same ? true : failed(w, "%s of %s: %d instructions, not %d", how, ref.name[n],
				    ninst, ref.ninst[n]);
}

/* One key: compile through the cache, get it back, put it again, look up
 * a key nobody stores, and read the counts. */
static bool one_key(struct worker *w, struct uscc_options *const opts[NOPT], int n,
		    uint64_t *hits, uint64_t *misses)
{
	struct uscc_result *r = NULL;
	enum uscc_status st = uscc_cache_compile(w->cache, opts[ref.opt[n] ? 1 : 0],
						 source_of(n), USCC_NUL_TERMINATED, &r);
	w->lookups++;
	bool ok = st == USCC_OK ? check_result(w, r, n, "uscc_cache_compile")
				: failed(w, "uscc_cache_compile of %s: %s", ref.name[n],
					 uscc_status_string(st));
	uscc_result_destroy(r);
	if (!ok)
		return false;
	/* stored by this thread or another: a hit from now on */
	r = NULL;
	st = uscc_cache_get(w->cache, ref.key[n], &r);
	w->lookups++;
	ok = st == USCC_OK ? check_result(w, r, n, "uscc_cache_get")
			   : failed(w, "uscc_cache_get of %s after compiling it: %s",
				    ref.name[n], uscc_status_string(st));
	uscc_result_destroy(r);
	if (!ok)
		return false;
	st = uscc_cache_put(w->cache, ref.key[n], ref.bin[n], ref.size[n]);
	if (st != USCC_OK)
		return failed(w, "uscc_cache_put of %s: %s", ref.name[n], uscc_status_string(st));
	/* a key no thread stores: always a miss */
	uint64_t unknown = ref.key[n] ^ (0x5a5a000000000000ULL + (uint64_t)w->id);
	r = (void *)1;
	st = uscc_cache_get(w->cache, unknown, &r);
	w->lookups++;
	w->unknown_lookups++;
	if (st != USCC_NOT_FOUND || r != NULL)
		return failed(w, "uscc_cache_get of an unknown key: %s", uscc_status_string(st));
	uint64_t h, m;
	uscc_cache_counts(w->cache, &h, &m);
	if (h < *hits || m < *misses)
		return failed(w, "counts went down: %llu/%llu after %llu/%llu",
			      (unsigned long long)h, (unsigned long long)m,
			      (unsigned long long)*hits, (unsigned long long)*misses);
	*hits = h;
	*misses = m;
	return true;
}

static void *work(void *p)
{
	struct worker *w = p;
	struct uscc_options *opts[NOPT] = { options_at(w->alloc, 0), options_at(w->alloc, 2) };
	uint64_t hits = 0, misses = 0;
	pthread_barrier_wait(w->start);
	bool ok = opts[0] && opts[1] ? true : failed(w, "uscc_options_create failed");
	/* each thread starts at its own key, odd ones walking backwards:
	 * every key once per round, met by others in both orders */
	int dir = w->id % 2 ? -1 : 1;
	for (int round = 0; round < ROUNDS && ok; round++)
		for (int k = 0; k < ref.nkeys && ok; k++) {
			int n = ((w->id * 5 + dir * k) % ref.nkeys + ref.nkeys) % ref.nkeys;
			ok = one_key(w, opts, n, &hits, &misses);
		}
	uscc_options_destroy(opts[0]);
	uscc_options_destroy(opts[1]);
	return NULL;
}

/* Runs NTHREADS workers, thread i on caches[i % ncaches]; fails the test
 * on any thread's error, then checks the counts against the lookups. */
static void run_workers(struct uscc_cache *const *caches, int ncaches,
			const struct uscc_allocator *al)
{
	pthread_t th[NTHREADS];
	struct worker w[NTHREADS];
	pthread_barrier_t start;
	assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
	memset(w, 0, sizeof w);
	for (int i = 0; i < NTHREADS; i++) {
		w[i] = (struct worker){ .cache = caches[i % ncaches], .alloc = al, .start = &start,
					.id = i };
		assert_int_equal(pthread_create(&th[i], NULL, work, &w[i]), 0);
	}
	uint64_t lookups = 0, unknown = 0;
	for (int i = 0; i < NTHREADS; i++) {
		assert_int_equal(pthread_join(th[i], NULL), 0);
		lookups += w[i].lookups;
		unknown += w[i].unknown_lookups;
	}
	pthread_barrier_destroy(&start);
	for (int i = 0; i < NTHREADS; i++)
		if (w[i].error[0])
			fail_msg("thread %d: %s", i, w[i].error);
	assert_int_equal(lookups, (uint64_t)NTHREADS * ROUNDS * ref.nkeys * 3);

	uint64_t hits = 0, misses = 0;
	for (int k = 0; k < ncaches; k++) {
		uint64_t h, m;
		uscc_cache_counts(caches[k], &h, &m);
		hits += h;
		misses += m;
	}
	assert_int_equal(hits + misses, lookups);
	/* every unknown key missed; of the others, each key missed at least
	 * once (nobody had it) and at most once per thread (its own compile
	 * stored it), and the get after a compile always hit */
	assert_true(misses >= unknown + (uint64_t)ref.nkeys);
	assert_true(misses - unknown <= (uint64_t)NTHREADS * ref.nkeys);
	assert_true(hits >= (uint64_t)NTHREADS * ROUNDS * ref.nkeys);
}

static char *make_dir(void)
{
	char tmpl[] = "/tmp/uscc-cache-threads-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return strdup(d);
}

/* Checks the directory holds exactly one whole file per key (no
 * temporary left over), then removes it. */
static void check_and_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	int files = 0, stray = 0;
	char path[600], bad[256] = "";
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		int n = -1;
		for (int k = 0; k < ref.nkeys && n < 0; k++) {
			char name[32];
			snprintf(name, sizeof name, "%016llx.uscc", (unsigned long long)ref.key[k]);
			if (!strcmp(name, e->d_name))
				n = k;
		}
		char *data = n >= 0 ? test_read_file(path) : NULL;
		if (data && memcmp(data, ref.bin[n], ref.size[n]) == 0)
			files++;
		else if (stray++ == 0)
			snprintf(bad, sizeof bad, "%s", e->d_name);
		free(data);
		unlink(path);
	}
	closedir(d);
	assert_int_equal(rmdir(dir), 0);
	if (stray)
		fail_msg("%d stray or wrong files in the cache directory, e.g. %s", stray, bad);
	assert_int_equal(files, ref.nkeys);
}

static void test_memory_cache(void **state)
{
	(void)state;
	struct counting cnt = { 0, 0 };
	struct uscc_allocator al = { counting_alloc, &cnt };
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(&al, NULL, &c), USCC_OK);
	run_workers(&c, 1, &al);
	uscc_cache_destroy(c);
	assert_true(atomic_load(&cnt.calls) > 0);
	assert_int_equal(atomic_load(&cnt.live), 0);
}

static void test_disk_cache(void **state)
{
	(void)state;
	struct counting cnt = { 0, 0 };
	struct uscc_allocator al = { counting_alloc, &cnt };
	char *dir = make_dir();
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(&al, dir, &c), USCC_OK);
	run_workers(&c, 1, &al);
	uscc_cache_destroy(c);
	/* a fresh object finds every key on disk */
	assert_int_equal(uscc_cache_create(&al, dir, &c), USCC_OK);
	for (int n = 0; n < ref.nkeys; n++) {
		struct uscc_result *r;
		assert_int_equal(uscc_cache_get(c, ref.key[n], &r), USCC_OK);
		size_t size;
		const void *d = uscc_result_data(r, &size);
		assert_int_equal(size, ref.size[n]);
		assert_memory_equal(d, ref.bin[n], size);
		uscc_result_destroy(r);
	}
	uscc_cache_destroy(c);
	assert_int_equal(atomic_load(&cnt.live), 0);
	check_and_remove_dir(dir);
	free(dir);
}

/* Two cache objects on one directory, each used by half the threads. */
static void test_two_caches_one_dir(void **state)
{
	(void)state;
	struct counting cnt = { 0, 0 };
	struct uscc_allocator al = { counting_alloc, &cnt };
	char *dir = make_dir();
	struct uscc_cache *c[2];
	assert_int_equal(uscc_cache_create(&al, dir, &c[0]), USCC_OK);
	assert_int_equal(uscc_cache_create(NULL, dir, &c[1]), USCC_OK);
	run_workers(c, 2, &al);
	uscc_cache_destroy(c[0]);
	uscc_cache_destroy(c[1]);
	assert_int_equal(atomic_load(&cnt.live), 0);
	check_and_remove_dir(dir);
	free(dir);
}

/* One container's constant program run by every thread at once, each on
 * its own constant file with its own uniform values: every run equals
 * the single-threaded run for those values (uscc.h: safe from many
 * threads on one container). */
struct cp_worker {
	pthread_t tid;
	const struct uscc_container *c;
	int n, seed;
	float want[256][4];
	bool ok;
};

static void cp_fill(const struct uscc_container *c, int n, int seed, float (*image)[4])
{
	memset(image, 0, sizeof(float[256][4]));
	for (int s = 0; s < n; s++)
		if (!uscc_container_constant(c, s, image[s]))
			for (int k = 0; k < 4; k++)
				image[s][k] = (float)((s * 4 + k + seed * 7) % 11) * 0.25f - 1.0f;
}

static void *cp_work(void *arg)
{
	struct cp_worker *w = arg;
	w->ok = true;
	for (int r = 0; r < 2000 && w->ok; r++) {
		float image[256][4];
		cp_fill(w->c, w->n, w->seed, image);
		w->ok = uscc_container_run_constant_program(w->c, image, w->n) == USCC_OK &&
			memcmp(image, w->want, sizeof image) == 0;
	}
	return NULL;
}

static void test_constant_program_threads(void **state)
{
	(void)state;
	char *src = read_sample("phong");
	assert_non_null(src);
	struct uscc_result *r;
	assert_int_equal(uscc_compile(NULL, src, USCC_NUL_TERMINATED, &r), USCC_OK);
	free(src);
	size_t size;
	const void *bin = uscc_result_data(r, &size);
	struct uscc_container *c;
	assert_int_equal(uscc_container_open(NULL, bin, size, &c, NULL, 0), USCC_OK);
	int ninst, nout;
	uscc_container_constant_program(c, &ninst, &nout);
	assert_true(nout > 0);
	static struct cp_worker w[NTHREADS];
	for (int t = 0; t < NTHREADS; t++) {
		w[t] = (struct cp_worker){ .c = c, .n = uscc_container_num_const_slots(c),
					   .seed = t };
		cp_fill(c, w[t].n, t, w[t].want);
		assert_int_equal(uscc_container_run_constant_program(c, w[t].want, w[t].n), USCC_OK);
	}
	for (int t = 0; t < NTHREADS; t++)
		assert_int_equal(pthread_create(&w[t].tid, NULL, cp_work, &w[t]), 0);
	for (int t = 0; t < NTHREADS; t++) {
		pthread_join(w[t].tid, NULL);
		assert_true(w[t].ok);
	}
	uscc_container_destroy(c);
	uscc_result_destroy(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constant_program_threads),
		cmocka_unit_test(test_memory_cache),
		cmocka_unit_test(test_disk_cache),
		cmocka_unit_test(test_two_caches_one_dir),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
