/* Reading whole files with a size limit, noticed before the bytes are
 * held: one place for what lint, gen and the CLI read. */
#ifndef TF_FILEIO_H
#define TF_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* The default limit on an input's size (--max-file-size). */
#define TF_DEFAULT_MAX_BYTES (16u << 20)

/* Writes all of p to fd (again after a short write or EINTR); false
 * (errno set) when it could not. */
bool fd_write_all(int fd, const char *p, size_t len);
/* path made absolute against the working directory, with "." and ".."
 * segments and repeated slashes taken out, without reading the disk (a
 * ".." above the root stays at the root). The caller frees it. */
char *path_lexical(const char *path);
/* Reads fd to its end, at most max bytes; *too_big tells a larger input
 * (then what was read is returned). The result is NUL-terminated and the
 * caller frees it; NULL (errno set) on a read error. */
char *fd_read(int fd, size_t max, size_t *len, bool *too_big);
/* The same for a path; "-" is stdin. */
char *file_read(const char *path, size_t max, size_t *len, bool *too_big);

/* Confinement, for a process that reads for a client it does not trust
 * with the rest of the file system (the MCP server's tool runs): from
 * file_confine on, what this module opens for reading must resolve
 * (symbolic links followed) into one of the n directories (absolute);
 * another path is refused with EACCES. n 0 lifts it. */
void file_confine(char *const *roots, size_t n);
/* Whether path may be read: true without a confinement, and for an
 * overlay; false with errno EACCES outside it (a path that names nothing
 * yet is judged by the nearest directory above it that exists), or
 * ENOENT when it names nothing inside. */
bool file_allowed(const char *path);
/* open(path, O_RDONLY | O_CLOEXEC | flags), refused as file_allowed says. */
int file_open_read(const char *path, int flags);

/* Overlays, as an editor's unsaved buffer stands for its file: from
 * file_overlay on, file_read and lint's inputs read text for path instead
 * of the disk (the MCP server's tool runs set them for content a client
 * sends). Paths are compared made absolute, "." and ".." taken out
 * without looking at the disk. text is copied. */
void file_overlay(const char *path, const char *text, size_t len);
/* The overlay's text for path, or NULL. */
const char *file_overlay_find(const char *path, size_t *len);
/* Drops every overlay. */
void file_overlays_clear(void);
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
