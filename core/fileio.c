#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

char *file_read(const char *path, size_t max, size_t *len, bool *too_big)
{
	if (strcmp(path, "-") == 0)
		return fd_read(0, max, len, too_big);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	char *p = fd_read(fd, max, len, too_big);
	int saved = errno;
	close(fd);
	errno = saved;
	return p;
}
