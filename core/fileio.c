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

char *path_lexical(const char *path)
{
	struct buf b = BUF_INIT;
	if (path[0] != '/') {
		char *cwd = getcwd(NULL, 0);
		buf_puts(&b, cwd ? cwd : "");
		free(cwd);
	}
	const char *p = path;
	while (*p) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (n == 0)
			break;
		if (n == 1 && p[0] == '.') {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = b.p ? strrchr(b.p, '/') : NULL;
			b.len = slash ? (size_t)(slash - b.p) : 0;
			if (b.p)
				b.p[b.len] = '\0';
		} else {
			buf_putc(&b, '/');
			buf_put(&b, p, n);
		}
		p += n;
	}
	if (!b.len)
		buf_putc(&b, '/');
	return buf_detach(&b);
}

static struct overlay {
	char *path, *text;
	size_t len;
} *overlays;
static size_t n_overlays, cap_overlays;

void file_overlay(const char *path, const char *text, size_t len)
{
	char *key = path_lexical(path);
	struct overlay *o = NULL;
	for (size_t i = 0; i < n_overlays && !o; i++)
		if (strcmp(overlays[i].path, key) == 0)
			o = &overlays[i];
	if (o) {
		free(key);
		free(o->text);
	} else {
		overlays = xgrow(overlays, &cap_overlays, n_overlays + 1, sizeof *overlays);
		o = &overlays[n_overlays++];
		o->path = key;
	}
	o->text = xmalloc(len + 1);
	memcpy(o->text, text, len);
	o->text[len] = '\0';
	o->len = len;
}

const char *file_overlay_find(const char *path, size_t *len)
{
	if (!n_overlays || strcmp(path, "-") == 0)
		return NULL;
	char *key = path_lexical(path);
	const struct overlay *o = NULL;
	for (size_t i = 0; i < n_overlays && !o; i++)
		if (strcmp(overlays[i].path, key) == 0)
			o = &overlays[i];
	free(key);
	if (o)
		*len = o->len;
	return o ? o->text : NULL;
}

void file_overlays_clear(void)
{
	for (size_t i = 0; i < n_overlays; i++) {
		free(overlays[i].path);
		free(overlays[i].text);
	}
	free(overlays);
	overlays = NULL;
	n_overlays = cap_overlays = 0;
}

/* The resolved form of path, or of the nearest directory above it that
 * exists when path names nothing (*missing set): whether a file exists
 * outside the roots is not told either. */
static char *resolve_near(const char *path, bool *missing)
{
	*missing = false;
	char *real = realpath(path, NULL);
	if (real || errno != ENOENT)
		return real;
	*missing = true;
	char *dir = path_lexical(path);
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			free(dir);
			return realpath("/", NULL);
		}
		*slash = '\0';
		if ((real = realpath(dir, NULL)) || errno != ENOENT)
			break;
	}
	free(dir);
	return real;
}

bool file_allowed(const char *path)
{
	size_t len;
	if (!n_confined || strcmp(path, "-") == 0 || file_overlay_find(path, &len))
		return true;
	bool missing;
	char *real = resolve_near(path, &missing);
	bool inside = real && under(real);
	free(real);
	errno = !inside ? EACCES : ENOENT;
	return inside && !missing;
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
	size_t olen;
	const char *over = file_overlay_find(path, &olen);
	if (over) {
		*too_big = olen > max;
		*len = *too_big ? max + 1 : olen;
		char *p = xmalloc(*len + 1);
		memcpy(p, over, *len);
		p[*len] = '\0';
		return p;
	}
	int fd = file_open_read(path, 0);
	if (fd < 0)
		return NULL;
	char *p = fd_read(fd, max, len, too_big);
	int saved = errno;
	close(fd);
	errno = saved;
	return p;
}

bool fd_write_all(int fd, const char *p, size_t len)
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
		ok = fd_write_all(fd, text, len) && fsync(fd) == 0;
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
