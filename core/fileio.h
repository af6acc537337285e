/* Reading whole files with a size limit, noticed before the bytes are
 * held: one place for what lint, gen and the CLI read. */
#ifndef TF_FILEIO_H
#define TF_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* The default limit on an input's size (--max-file-size). */
#define TF_DEFAULT_MAX_BYTES (16u << 20)

/* Reads fd to its end, at most max bytes; *too_big tells a larger input
 * (then what was read is returned). The result is NUL-terminated and the
 * caller frees it; NULL (errno set) on a read error. */
char *fd_read(int fd, size_t max, size_t *len, bool *too_big);
/* The same for a path; "-" is stdin. */
char *file_read(const char *path, size_t max, size_t *len, bool *too_big);
/* Replaces path with text through a temporary file in the same directory
 * and a rename, so readers see the old file or the new one, never half;
 * mode is the new file's permissions. False (errno set) on failure, with
 * the old file untouched. */
bool file_write_atomic(const char *path, const char *text, size_t len, unsigned mode);
/* Makes the directory path and its missing parents (mkdir -p, mode 0777
 * less the umask). True when it is a directory afterwards; false (errno
 * set) otherwise, ENOTDIR when path or a parent is another kind of file. */
bool dir_make(const char *path);

#endif
