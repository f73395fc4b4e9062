/* Every shader of tests/shaders and samples/ is accepted and lowers to
 * valid IR that writes an output. */
#include "fe_test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include "../test_util.h"

static int compile_dir(const char *dir)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", USCC_SOURCE_DIR, dir);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".frag") != 0)
			continue;
		char file[1400];
		snprintf(file, sizeof file, "%s/%s", path, e->d_name);
		char *src = test_read_file(file);
		assert_non_null(src);
		struct fe_test t;
		fe_test_begin(&t);
		struct ir_func *f = fe_compile(&t, src);
		if (!f)
			fail_msg("%s rejected:\n%s", file, t.diags);
		if (!ir_validate(f, &t.diag))
			fail_msg("%s: invalid IR:\n%s", file, diag_render(&t.diag));
		if (f->noutputs < 1)
			fail_msg("%s writes no output", file);
		fe_test_end(&t);
		free(src);
		n++;
	}
	closedir(d);
	return n;
}

static void test_shaders(void **state)
{
	(void)state;
	assert_true(compile_dir("tests/shaders") >= 4);
}

static void test_samples(void **state)
{
	(void)state;
	compile_dir("samples");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shaders),
		cmocka_unit_test(test_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
