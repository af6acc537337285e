#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "xalloc.h"

/* Reads at most max+1 bytes so that an oversized input is noticed without
 * holding it. */
char *fd_read(int fd, size_t max, size_t *len, bool *too_big)
{
	size_t cap = 1 << 14, n = 0;
	char *p = xmalloc(cap);
	*too_big = false;
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				*too_big = true;
				break;
			}
			cap *= 2;
			p = xrealloc(p, cap);
		}
		ssize_t got = read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(p);
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			*too_big = true;
			break;
		}
	}
	p = xrealloc(p, n + 1);
	p[n] = '\0';
	*len = n;
	return p;
}

static char **confined;
static size_t n_confined;

void file_confine(char *const *roots, size_t n)
{
	for (size_t i = 0; i < n_confined; i++)
		free(confined[i]);
	free(confined);
	confined = n ? xmalloc(n * sizeof *confined) : NULL;
	for (size_t i = 0; i < n; i++)
		confined[i] = xstrdup(roots[i]);
	n_confined = n;
}

static bool under(const char *resolved)
{
	for (size_t i = 0; i < n_confined; i++) {
		size_t k = strlen(confined[i]);
		if (strncmp(resolved, confined[i], k) == 0 &&
		    (resolved[k] == '\0' || resolved[k] == '/' || (k && confined[i][k - 1] == '/')))
			return true;
	}
	return false;
}

/* A path that names nothing is judged by its directory, so that whether
 * a file exists outside the roots is not told either. */
bool file_allowed(const char *path)
{
	if (!n_confined || strcmp(path, "-") == 0)
		return true;
	char *real = realpath(path, NULL);
	if (!real && errno == ENOENT) {
		char *copy = xstrdup(path), *slash = strrchr(copy, '/');
		if (slash)
			*slash = '\0';
		real = realpath(slash ? (*copy ? copy : "/") : ".", NULL);
		free(copy);
		bool inside = real && under(real);
		free(real);
		errno = inside ? ENOENT : EACCES;
		return false;
	}
	bool inside = real && under(real);
	free(real);
	if (!inside)
		errno = EACCES;
	return inside;
}

int file_open_read(const char *path, int flags)
{
	if (!file_allowed(path))
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC | flags);
}

char *file_read(const char *path, size_t max, size_t *len, bool *too_big)
{
	if (strcmp(path, "-") == 0)
		return fd_read(0, max, len, too_big);
	int fd = file_open_read(path, 0);
	if (fd < 0)
		return NULL;
	char *p = fd_read(fd, max, len, too_big);
	int saved = errno;
	close(fd);
	errno = saved;
	return p;
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

bool file_write_atomic(const char *path, const char *text, size_t len, unsigned mode)
{
	struct buf tmp = BUF_INIT;
	const char *slash = strrchr(path, '/');
	if (slash)
		buf_printf(&tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
	else
		buf_printf(&tmp, ".%s.XXXXXX", path);
	int fd = mkstemp(tmp.p);
	bool ok = fd >= 0;
	if (ok) {
		ok = write_all(fd, text, len) && fsync(fd) == 0;
		ok = fchmod(fd, (mode_t)mode) == 0 && ok;
		ok = close(fd) == 0 && ok;
		ok = ok && rename(tmp.p, path) == 0;
		if (!ok) {
			int saved = errno;
			unlink(tmp.p);
			errno = saved;
		}
	}
	buf_free(&tmp);
	return ok;
}

static bool is_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	if (!S_ISDIR(st.st_mode))
		errno = ENOTDIR;
	return S_ISDIR(st.st_mode);
}

/* Each prefix up to a slash, then the whole path; an existing directory
 * (made meanwhile by another process too) is success. */
bool dir_make(const char *path)
{
	if (is_dir(path))
		return true;
	if (errno != ENOENT)
		return false;
	struct buf p = BUF_INIT;
	buf_puts(&p, path);
	bool ok = true;
	for (char *s = p.p + 1; ok; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		ok = mkdir(p.p, 0777) == 0 || (errno == EEXIST && is_dir(p.p));
		*s = c;
		if (!c)
			break;
	}
	buf_free(&p);
	return ok;
}
