/* Directory walks honour .gitignore, as ruff and ripgrep do: inside a git
 * repository, the patterns of .git/info/exclude and of every .gitignore
 * from the repository root down to the directory walked (deeper files
 * first, the last matching line of a file first, ! to re-include; an
 * ignored directory is not entered). Files named on the command line are
 * linted whatever the patterns say; --no-ignore walks everything. */
#ifndef TF_GITIGNORE_H
#define TF_GITIGNORE_H

#include <stdbool.h>
#include <stddef.h>

struct gi_file;

struct gitignore {
	char *root;              /* the repository's top directory, or NULL: no patterns */
	struct gi_file **files;  /* info/exclude first, then each level's .gitignore */
	size_t n, cap;
};

/* The patterns that apply in directory dir (a path as the walk has it):
 * none when dir is in no git repository. Returns the path of dir relative
 * to the repository root ("" for the root itself), which the caller frees,
 * or NULL outside a repository. */
char *gitignore_open(struct gitignore *g, const char *dir);
/* Entering directory dir (rel: relative to the root): its .gitignore;
 * gitignore_leave undoes the last enter. */
void gitignore_enter(struct gitignore *g, const char *dir, const char *rel);
void gitignore_leave(struct gitignore *g);
/* Whether rel (relative to the root; a directory when is_dir) is ignored. */
bool gitignore_ignored(const struct gitignore *g, const char *rel, bool is_dir);
void gitignore_close(struct gitignore *g);
/* The patterns of a .gitignore held in memory, for the level base
 * (relative to the root), as the next file of g (the tests use it with a
 * root of their own). */
void gitignore_add(struct gitignore *g, const char *text, size_t len, const char *base);

#endif
