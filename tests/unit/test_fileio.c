/* core/fileio: paths made absolute without the disk, overlays that stand
 * for files, and the confinement of reads to a set of directories
 * (symbolic links followed, missing files judged by the directory above
 * them that exists), in a private directory tree. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "buf.h"
#include "fileio.h"

static char tree[64];

static void put(const char *rel, const char *text)
{
	char p[128];
	snprintf(p, sizeof p, "%s/%s", tree, rel);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	strcpy(tree, "/tmp/tf-test-fileio-XXXXXX");
	if (!mkdtemp(tree))
		return -1;
	char p[128];
	snprintf(p, sizeof p, "%s/in", tree);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/out", tree);
	mkdir(p, 0700);
	snprintf(p, sizeof p, "%s/inner", tree);
	mkdir(p, 0700);
	put("in/a.yaml", "a: 1\n");
	put("inner/a.yaml", "a: 1\n");
	put("out/secret.yaml", "s: 1\n");
	char link[128];
	snprintf(link, sizeof link, "%s/in/escape", tree);
	snprintf(p, sizeof p, "%s/out", tree);
	return symlink(p, link);
}

static int teardown(void **state)
{
	(void)state;
	file_confine(NULL, 0);
	file_overlays_clear();
	char cmd[96];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tree);
	return system(cmd) == 0 ? 0 : -1;
}

static void lexical(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "/a/./b//c/../d", "/a/b/d" }, { "/..", "/" }, { "/a/../..", "/" }, { "/", "/" },
		{ "/a/b/", "/a/b" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *p = path_lexical(cases[i][0]);
		assert_string_equal(p, cases[i][1]);
		free(p);
	}
	char *cwd = getcwd(NULL, 0), *p = path_lexical("x/../y");
	struct buf want = BUF_INIT;
	buf_printf(&want, "%s/y", strcmp(cwd, "/") ? cwd : "");
	assert_string_equal(p, want.p);
	buf_free(&want);
	free(p);
	free(cwd);
}

static void overlays(void **state)
{
	(void)state;
	char path[128], same[128];
	snprintf(path, sizeof path, "%s/in/new.yaml", tree);
	snprintf(same, sizeof same, "%s/in/./sub/../new.yaml", tree);
	size_t len;
	bool too_big;
	assert_null(file_overlay_find(path, &len));
	file_overlay(path, "b: 2\n", 5);
	file_overlay(same, "b: 3\0x", 6); /* the same file, named another way: replaced */
	const char *text = file_overlay_find(path, &len);
	assert_non_null(text);
	assert_int_equal(len, 6);
	assert_memory_equal(text, "b: 3\0x", 6);
	char *read = file_read(same, 100, &len, &too_big);
	assert_non_null(read);
	assert_false(too_big);
	assert_int_equal(len, 6);
	free(read);
	read = file_read(path, 3, &len, &too_big); /* over the limit, as a file would be */
	assert_true(too_big);
	free(read);
	file_overlays_clear();
	assert_null(file_overlay_find(path, &len));
	assert_null(file_read(path, 100, &len, &too_big)); /* no such file on disk */
}

static void confinement(void **state)
{
	(void)state;
	char in[96], p[160];
	snprintf(in, sizeof in, "%s/in", tree);
	char *real = realpath(in, NULL); /* as the server resolves its roots */
	char *roots[] = { real };
	snprintf(p, sizeof p, "%s/out/secret.yaml", tree);
	assert_true(file_allowed(p)); /* nothing is confined yet */
	file_confine(roots, 1);
	free(real);
	struct { const char *rel; bool allowed; int err; } cases[] = {
		{ "in/a.yaml", true, 0 },
		{ "in", true, 0 },
		{ "out/secret.yaml", false, EACCES },
		{ "in/escape/secret.yaml", false, EACCES },  /* a symbolic link out */
		{ "in/../out/secret.yaml", false, EACCES },
		{ "in/missing.yaml", false, ENOENT },         /* inside, not there */
		{ "in/no/such/dir/x.yaml", false, ENOENT },
		{ "out/missing.yaml", false, EACCES },        /* outside: not told whether it is there */
		{ "inner/a.yaml", false, EACCES },            /* a sibling whose name starts like the root */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", tree, cases[i].rel);
		errno = 0;
		bool ok = file_allowed(p);
		if (ok != cases[i].allowed || (!ok && errno != cases[i].err))
			fail_msg("%s: allowed %d errno %d", cases[i].rel, ok, errno);
	}
	size_t len;
	bool too_big;
	snprintf(p, sizeof p, "%s/out/secret.yaml", tree);
	assert_null(file_read(p, 100, &len, &too_big));
	assert_int_equal(errno, EACCES);
	assert_int_equal(file_open_read(p, 0), -1);
	file_overlay(p, "o: 1\n", 5); /* an overlay is the client's text, not the disk */
	assert_true(file_allowed(p));
	file_overlays_clear();
	file_confine(NULL, 0);
	assert_true(file_allowed(p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lexical),
		cmocka_unit_test(overlays),
		cmocka_unit_test(confinement),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
