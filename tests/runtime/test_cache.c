/* Shader cache: memory hits and misses, validation on put, persistence on
 * disk across cache objects, corrupt files treated as misses, concurrent
 * threads sharing one cache. */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "container.h"
#include "program_fixture.h"
#include "uscc.h"

static uint8_t *fixture_container(size_t *size)
{
	struct fixture f;
	fixture_init(&f);
	uint8_t *buf = container_write(&f.p, NULL, size);
	assert_non_null(buf);
	return buf;
}

static char *make_dir(void)
{
	char tmpl[] = "/tmp/uscc-cache-test-XXXXXX";
	char *d = mkdtemp(tmpl);
	assert_non_null(d);
	return strdup(d);
}

/* Removes the directory's files and the directory; returns how many
 * names started with '.' (left-over temporary files). */
static int remove_dir(const char *dir)
{
	int dotfiles = 0;
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *e;
	char path[512];
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		dotfiles += e->d_name[0] == '.';
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
	return dotfiles;
}

static void test_memory_hit_miss(void **state)
{
	(void)state;
	size_t size;
	uint8_t *bin = fixture_container(&size);
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(NULL, NULL, &c), USCC_OK);
	struct uscc_result *r = (void *)1;
	assert_int_equal(uscc_cache_get(c, 42, &r), USCC_NOT_FOUND);
	assert_null(r);
	assert_int_equal(uscc_cache_put(c, 42, bin, size), USCC_OK);
	assert_int_equal(uscc_cache_get(c, 42, &r), USCC_OK);
	size_t n;
	const void *d = uscc_result_data(r, &n);
	assert_int_equal(n, size);
	assert_memory_equal(d, bin, size);
	uscc_result_destroy(r);
	assert_int_equal(uscc_cache_get(c, 43, &r), USCC_NOT_FOUND);
	uint64_t hits, misses;
	uscc_cache_counts(c, &hits, &misses);
	assert_int_equal(hits, 1);
	assert_int_equal(misses, 2);
	/* many keys: the table grows and keeps them all */
	for (uint64_t k = 1000; k < 1300; k++)
		assert_int_equal(uscc_cache_put(c, k * 0x9e3779b97f4a7c15ULL, bin, size), USCC_OK);
	for (uint64_t k = 1000; k < 1300; k++) {
		assert_int_equal(uscc_cache_get(c, k * 0x9e3779b97f4a7c15ULL, &r), USCC_OK);
		uscc_result_destroy(r);
	}
	uscc_cache_destroy(c);
	free(bin);
}

static void test_put_validates(void **state)
{
	(void)state;
	size_t size;
	uint8_t *bin = fixture_container(&size);
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(NULL, NULL, &c), USCC_OK);
	bin[30] ^= 4;
	assert_int_equal(uscc_cache_put(c, 1, bin, size), USCC_CORRUPT_CONTAINER);
	assert_int_equal(uscc_cache_put(c, 1, bin, 10), USCC_CORRUPT_CONTAINER);
	struct uscc_result *r;
	assert_int_equal(uscc_cache_get(c, 1, &r), USCC_NOT_FOUND);
	uscc_cache_destroy(c);
	free(bin);
}

static void test_disk_persistence(void **state)
{
	(void)state;
	size_t size;
	uint8_t *bin = fixture_container(&size);
	char *dir = make_dir();
	struct uscc_cache *c1, *c2, *c3;
	assert_int_equal(uscc_cache_create(NULL, dir, &c1), USCC_OK);
	assert_int_equal(uscc_cache_put(c1, 0x0123456789abcdefULL, bin, size), USCC_OK);
	uscc_cache_destroy(c1);

	char path[512];
	snprintf(path, sizeof path, "%s/0123456789abcdef.uscc", dir);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fclose(f);

	/* a second cache object (as another process would) finds it */
	assert_int_equal(uscc_cache_create(NULL, dir, &c2), USCC_OK);
	struct uscc_result *r;
	assert_int_equal(uscc_cache_get(c2, 0x0123456789abcdefULL, &r), USCC_OK);
	size_t n;
	const void *d = uscc_result_data(r, &n);
	assert_int_equal(n, size);
	assert_memory_equal(d, bin, size);
	uscc_result_destroy(r);
	uscc_cache_destroy(c2);

	/* a corrupted file is a miss, not an error and not a crash */
	f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 40, SEEK_SET);
	fputc(0x55, f);
	fclose(f);
	assert_int_equal(uscc_cache_create(NULL, dir, &c3), USCC_OK);
	assert_int_equal(uscc_cache_get(c3, 0x0123456789abcdefULL, &r), USCC_NOT_FOUND);
	/* a truncated one too */
	assert_int_equal(truncate(path, 20), 0);
	assert_int_equal(uscc_cache_get(c3, 0x0123456789abcdefULL, &r), USCC_NOT_FOUND);
	uscc_cache_destroy(c3);

	assert_int_equal(remove_dir(dir), 0);
	free(dir);
	free(bin);
}

static void test_create_in_missing_dir(void **state)
{
	(void)state;
	char *dir = make_dir();
	char sub[512];
	snprintf(sub, sizeof sub, "%s/sub", dir);
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(NULL, sub, &c), USCC_OK);
	uscc_cache_destroy(c);
	char bad[512];
	snprintf(bad, sizeof bad, "%s/no/such/parent", dir);
	assert_int_equal(uscc_cache_create(NULL, bad, &c), USCC_IO_ERROR);
	rmdir(sub);
	rmdir(dir);
	free(dir);
}

static const char *const shaders[] = {
	"void main() { gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0); }\n",
	"uniform vec4 c;\nvoid main() { gl_FragColor = c; }\n",
	"uniform sampler2D t;\nvoid main() { gl_FragColor = texture2D(t, gl_TexCoord[0].xy); }\n",
	"void main() { gl_FragColor = gl_TexCoord[0] * 0.5; }\n",
};
enum { NSHADERS = 4, NTHREADS = 4 };

static void test_compile_through_cache(void **state)
{
	(void)state;
	char *dir = make_dir();
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(NULL, dir, &c), USCC_OK);
	struct uscc_options *o = uscc_options_create(NULL);
	struct uscc_result *r1, *r2;
	enum uscc_status st = uscc_cache_compile(c, o, shaders[0], USCC_NUL_TERMINATED, &r1);
	if (st != USCC_OK)
		fail_msg("compile failed: %s", uscc_result_diagnostics(r1));
	assert_int_equal(uscc_cache_compile(c, o, shaders[0], USCC_NUL_TERMINATED, &r2), USCC_OK);
	size_t n1, n2;
	const void *d1 = uscc_result_data(r1, &n1), *d2 = uscc_result_data(r2, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(d1, d2, n1);
	uint64_t hits, misses;
	uscc_cache_counts(c, &hits, &misses);
	assert_int_equal(hits, 1);
	assert_int_equal(misses, 1);
	uscc_result_destroy(r1);
	uscc_result_destroy(r2);
	uscc_options_destroy(o);
	uscc_cache_destroy(c);
	assert_int_equal(remove_dir(dir), 0);
	free(dir);
}

struct thread_arg {
	struct uscc_cache *cache;
	int id;
	uint8_t *out[NSHADERS];
	size_t size[NSHADERS];
	bool ok;
};

static void *compile_thread(void *p)
{
	struct thread_arg *a = p;
	struct uscc_options *o = uscc_options_create(NULL);
	a->ok = o != NULL;
	for (int round = 0; round < 3 && a->ok; round++) {
		for (int k = 0; k < NSHADERS; k++) {
			int s = (k + a->id) % NSHADERS;
			struct uscc_result *r;
			enum uscc_status st = a->cache
				? uscc_cache_compile(a->cache, o, shaders[s], USCC_NUL_TERMINATED, &r)
				: uscc_compile(o, shaders[s], USCC_NUL_TERMINATED, &r);
			size_t n;
			const void *d = uscc_result_data(r, &n);
			if (st != USCC_OK || !d) {
				a->ok = false;
			} else if (!a->out[s]) {
				a->out[s] = malloc(n);
				memcpy(a->out[s], d, n);
				a->size[s] = n;
			} else if (n != a->size[s] || memcmp(d, a->out[s], n)) {
				a->ok = false;
			}
			uscc_result_destroy(r);
		}
	}
	uscc_options_destroy(o);
	return NULL;
}

static void run_threads(struct uscc_cache *cache)
{
	pthread_t th[NTHREADS];
	struct thread_arg args[NTHREADS];
	memset(args, 0, sizeof args);
	for (int i = 0; i < NTHREADS; i++) {
		args[i].cache = cache;
		args[i].id = i;
		assert_int_equal(pthread_create(&th[i], NULL, compile_thread, &args[i]), 0);
	}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < NTHREADS; i++) {
		assert_true(args[i].ok);
		for (int s = 0; s < NSHADERS; s++) {
			/* every thread got the same bytes for the same shader */
			assert_int_equal(args[i].size[s], args[0].size[s]);
			assert_memory_equal(args[i].out[s], args[0].out[s], args[0].size[s]);
		}
	}
	for (int i = 0; i < NTHREADS; i++)
		for (int s = 0; s < NSHADERS; s++)
			free(args[i].out[s]);
}

static void test_threads_without_cache(void **state)
{
	(void)state;
	run_threads(NULL);
}

static void test_threads_sharing_cache(void **state)
{
	(void)state;
	char *dir = make_dir();
	struct uscc_cache *c;
	assert_int_equal(uscc_cache_create(NULL, dir, &c), USCC_OK);
	run_threads(c);
	uint64_t hits, misses;
	uscc_cache_counts(c, &hits, &misses);
	assert_int_equal(hits + misses, NTHREADS * NSHADERS * 3);
	assert_true(misses >= NSHADERS);
	uscc_cache_destroy(c);
	/* no temporary file is left behind */
	assert_int_equal(remove_dir(dir), 0);
	free(dir);
}

/* Processes sharing a directory: each child stores and reads back the same
 * keys many times; a reader must only ever see whole containers. */
static void test_processes_sharing_dir(void **state)
{
	(void)state;
	size_t size;
	uint8_t *bin = fixture_container(&size);
	char *dir = make_dir();
	enum { NCHILD = 3, ROUNDS = 40 };
	pid_t pids[NCHILD];
	for (int i = 0; i < NCHILD; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			int bad = 0;
			for (int k = 0; k < ROUNDS; k++) {
				/* a fresh object each round: no memory hits, only disk */
				struct uscc_cache *c;
				if (uscc_cache_create(NULL, dir, &c) != USCC_OK)
					_exit(2);
				uint64_t key = (uint64_t)(k % 5);
				struct uscc_result *r;
				enum uscc_status st = uscc_cache_get(c, key, &r);
				if (st == USCC_OK) {
					size_t n;
					const void *d = uscc_result_data(r, &n);
					bad |= n != size || memcmp(d, bin, n) != 0;
					uscc_result_destroy(r);
				} else if (st != USCC_NOT_FOUND) {
					bad = 1;
				}
				bad |= uscc_cache_put(c, key, bin, size) != USCC_OK;
				uscc_cache_destroy(c);
			}
			_exit(bad);
		}
	}
	for (int i = 0; i < NCHILD; i++) {
		int status = 0;
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(remove_dir(dir), 0);
	free(dir);
	free(bin);
}

struct failing {
	int calls, fail_at;
	long live;
};

static void *failing_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct failing *f = ud;
	if (nsize == 0) {
		if (ptr)
			f->live -= (long)osize;
		free(ptr);
		return NULL;
	}
	if (++f->calls >= f->fail_at)
		return NULL;
	void *p = realloc(ptr, nsize);
	if (p)
		f->live += (long)nsize - (ptr ? (long)osize : 0);
	return p;
}

/* Every allocation of create, put, get (memory and disk) failing in turn:
 * an error status, never a crash or a leak. */
static void test_allocation_failures(void **state)
{
	(void)state;
	size_t size;
	uint8_t *bin = fixture_container(&size);
	char *dir = make_dir();
	bool succeeded = false;
	for (int n = 1; n < 200 && !succeeded; n++) {
		struct failing f = { 0, n, 0 };
		struct uscc_allocator al = { failing_alloc, &f };
		struct uscc_cache *c = NULL, *c2 = NULL;
		enum uscc_status st = uscc_cache_create(&al, dir, &c);
		assert_true(st == USCC_OK || st == USCC_OUT_OF_MEMORY);
		if (st == USCC_OK) {
			uint64_t key = (uint64_t)n;
			st = uscc_cache_put(c, key, bin, size);
			assert_true(st == USCC_OK || st == USCC_OUT_OF_MEMORY || st == USCC_IO_ERROR);
			struct uscc_result *r = NULL;
			enum uscc_status g = uscc_cache_get(c, key, &r);
			assert_true(g == USCC_OK || g == USCC_OUT_OF_MEMORY || g == USCC_NOT_FOUND);
			uscc_result_destroy(r);
			/* from disk through a second object */
			if (uscc_cache_create(&al, dir, &c2) == USCC_OK) {
				r = NULL;
				g = uscc_cache_get(c2, key, &r);
				assert_true(g == USCC_OK || g == USCC_OUT_OF_MEMORY ||
					    g == USCC_NOT_FOUND);
				succeeded = st == USCC_OK && g == USCC_OK;
				uscc_result_destroy(r);
				uscc_cache_destroy(c2);
			}
			uscc_cache_destroy(c);
		}
		assert_int_equal(f.live, 0);
	}
	assert_true(succeeded);
	assert_int_equal(remove_dir(dir), 0);
	free(dir);
	free(bin);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memory_hit_miss),
		cmocka_unit_test(test_put_validates),
		cmocka_unit_test(test_disk_persistence),
		cmocka_unit_test(test_create_in_missing_dir),
		cmocka_unit_test(test_compile_through_cache),
		cmocka_unit_test(test_threads_without_cache),
		cmocka_unit_test(test_threads_sharing_cache),
		cmocka_unit_test(test_processes_sharing_dir),
		cmocka_unit_test(test_allocation_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
