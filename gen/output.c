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

static bool write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

enum output_result output_write(const char *dir, const char *name, const char *text,
				size_t len, bool force, bool check)
{
	struct buf path = BUF_INIT, tmp = BUF_INIT;
	buf_printf(&path, "%s/%s", dir, name);
	int same = same_content(path.p, text, len);
	enum output_result r;
	if (same == 1) {
		r = OUTPUT_UNCHANGED;
	} else if (check) {
		r = OUTPUT_DRIFT;
	} else if (same == 0 && !force) {
		r = OUTPUT_EXISTS;
	} else {
		buf_printf(&tmp, "%s/.%s.XXXXXX", dir, name);
		int fd = mkstemp(tmp.p);
		r = OUTPUT_FAILED;
		if (fd >= 0) {
			bool ok = write_all(fd, text, len) && fsync(fd) == 0;
			/* scripts are run by sbatch, which needs no x bit; keep 0644 */
			ok = fchmod(fd, 0644) == 0 && ok;
			ok = close(fd) == 0 && ok;
			if (ok && rename(tmp.p, path.p) == 0)
				r = OUTPUT_WRITTEN;
			else
				unlink(tmp.p);
		}
	}
	buf_free(&path);
	buf_free(&tmp);
	return r;
}
