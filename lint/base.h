/* The old version of a file, for reviewing a change: the file's content
 * at a git revision (`git show REV:PATH`, git run as a child process,
 * no shell) or another file. */
#ifndef TF_BASE_H
#define TF_BASE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

enum base_status {
	BASE_OK,         /* *text holds the old version */
	BASE_ABSENT,     /* the revision has no such file: the file is new */
	BASE_TOO_LARGE,  /* larger than max */
	BASE_FAILED,     /* the revision or the repository is unusable: why says so */
};

/* The content of path (as the run names it, relative to the working
 * directory or absolute) at revision rev of the repository path is in.
 * A revision starting with '-' is refused: it would be read as an option. */
enum base_status base_from_git(const char *rev, const char *path, size_t max, char **text,
			       size_t *len, struct buf *why);
/* The content of the file path; BASE_FAILED (with errno's words) when it
 * cannot be read. */
enum base_status base_from_file(const char *path, size_t max, char **text, size_t *len,
				struct buf *why);

/* The YAML files git tracks in the repository dir is in, NUL-separated,
 * each relative to dir (git ls-files with :(top) pathspecs), or NULL
 * outside a repository or without git. */
char *base_tracked_yaml(const char *dir, size_t *len);

#endif
