#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "fileio.h"

/* 1: same bytes, 0: differs, -1: missing or unreadable. */
static int same_content(const char *path, const char *text, size_t len)
{
	size_t have;
	bool too_big;
	char *p = file_read(path, len, &have, &too_big);
	if (!p)
		return -1;
	int same = !too_big && have == len && (len == 0 || memcmp(p, text, len) == 0);
	free(p);
	return same;
}

void output_path(struct buf *path, const char *dir, const char *name)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	buf_printf(path, "%.*s%s%s", (int)n, dir, n && dir[n - 1] == '/' ? "" : "/", name);
}

enum output_result output_write(const char *dir, const char *name, const char *text,
				size_t len, bool force, bool check)
{
	struct buf path = BUF_INIT;
	output_path(&path, dir, name);
	int same = same_content(path.p, text, len);
	enum output_result r;
	if (same == 1) {
		r = OUTPUT_UNCHANGED;
	} else if (check) {
		r = same < 0 ? OUTPUT_MISSING : OUTPUT_DRIFT;
	} else if (same == 0 && !force) {
		r = OUTPUT_EXISTS;
	} else {
		/* scripts are run by sbatch, which needs no x bit; keep 0644 */
		r = file_write_atomic(path.p, text, len, 0644) ? OUTPUT_WRITTEN : OUTPUT_FAILED;
	}
	buf_free(&path);
	return r;
}
