/* Reading inputs: files, directory trees (honouring .gitignore:
 * gitignore.h) and stdin, with the size limit applied before a byte is
 * held, and every failure reported. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "gitignore.h"
#include "lint_internal.h"
#include "ln.h"
#include "xalloc.h"

enum { WALK_MAX_DEPTH = 64 };


static void too_large(struct lint_run *run, const char *path, unsigned long long size, bool named)
{
	struct lint_file *f = lint_add_file(run, path, xmalloc(1), 0, named);
	f->input = false; /* no text was read: there is nothing to lint again */
	size_t first = run->diags.len;
	ln_file_too_large(&run->diags, f->src, size, run->opt->max_bytes);
	run->files_checked++;
	lint_apply_selection(run, first);
}

static void read_file(struct lint_run *run, const char *path, bool named);

/* A file whose name says nothing is a batch script by its head
 * (docs/design.md, "Kinds"): MLPerf's run.sub, NVIDIA's *.sub. */
static bool batch_by_content(const char *path)
{
	char head[8192];
	int fd = file_open_read(path, O_NONBLOCK);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, head, sizeof head);
	close(fd);
	return n > 0 && lint_batch_head(head, (size_t)n);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory of a walk: rel is its path from the repository root (NULL
 * outside one, or with --no-ignore), for g's patterns. */
static void lint_dir(struct lint_run *run, const char *path, const char *rel, unsigned depth,
		     struct gitignore *g)
{
	DIR *dir = opendir(path);
	if (!dir) {
		lint_io_error(run, path, strerror(errno));
		return;
	}
	if (rel)
		gitignore_enter(g, path, rel);
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue; /* ., .., and hidden trees such as .git */
		names = xgrow(names, &cap, n + 1, sizeof *names);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(dir);
	if (n > 1)
		qsort(names, n, sizeof *names, name_cmp);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(path) + strlen(names[i]) + 2;
		char *child = xmalloc(len);
		bool slash = path[strlen(path) - 1] == '/';
		snprintf(child, len, "%s%s%s", path, slash ? "" : "/", names[i]);
		char *child_rel = NULL;
		if (rel) {
			size_t rl = strlen(rel) + strlen(names[i]) + 2;
			child_rel = xmalloc(rl);
			snprintf(child_rel, rl, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		}
		struct stat st;
		if (lstat(child, &st) == 0) {
			bool is_dir = S_ISDIR(st.st_mode);
			if (child_rel && gitignore_ignored(g, child_rel, is_dir))
				run->skipped[SKIP_IGNORED] += !is_dir; /* not entered, not read */
			else if (is_dir && depth < WALK_MAX_DEPTH)
				lint_dir(run, child, child_rel, depth + 1, g);
			else if (S_ISREG(st.st_mode) && (lint_candidate(child) || batch_by_content(child)))
				read_file(run, child, false);
			else if (S_ISREG(st.st_mode))
				run->skipped[SKIP_NO_KIND]++;
		}
		free(child_rel);
		free(child);
		free(names[i]);
	}
	free(names);
	if (rel)
		gitignore_leave(g);
}

/* A directory named on the command line: walked even when its own
 * repository ignores it, below it as its .gitignore files say. */
static void walk(struct lint_run *run, const char *path)
{
	run->walks++;
	struct gitignore g;
	char *rel = run->opt->no_ignore ? NULL : gitignore_open(&g, path);
	lint_dir(run, path, rel, 0, &g);
	if (rel)
		gitignore_close(&g);
	free(rel);
}

static void read_file(struct lint_run *run, const char *path, bool named)
{
	const char *shown = strncmp(path, "./", 2) == 0 ? path + 2 : path;
	size_t over_len;
	const char *over = file_overlay_find(path, &over_len);
	if (over && over_len > run->opt->max_bytes) {
		too_large(run, shown, (unsigned long long)over_len, named);
		return;
	}
	if (over) {
		lint_text(run, shown, over, over_len, named);
		return;
	}
	int fd = file_open_read(path, O_NONBLOCK);
	if (fd < 0) {
		lint_io_error(run, path, strerror(errno));
		return;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		lint_io_error(run, path, strerror(errno));
		close(fd);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		walk(run, path);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		lint_io_error(run, path, "not a regular file");
		return;
	}
	if ((unsigned long long)st.st_size > run->opt->max_bytes) {
		close(fd);
		too_large(run, path, (unsigned long long)st.st_size, named);
		return;
	}
	size_t len;
	bool too_big;
	char *text = fd_read(fd, run->opt->max_bytes, &len, &too_big);
	close(fd);
	if (!text) {
		lint_io_error(run, path, strerror(errno));
		return;
	}
	if (too_big) {
		free(text);
		too_large(run, path, (unsigned long long)len, named);
		return;
	}
	lint_file_check(run, lint_add_file(run, shown, text, len, named));
}

void lint_path(struct lint_run *run, const char *path)
{
	if (strcmp(path, "-") != 0) {
		read_file(run, path, true);
		return;
	}
	size_t len;
	bool too_big;
	const char *name = run->opt->stdin_filename ? run->opt->stdin_filename : "<stdin>";
	char *text = fd_read(0, run->opt->max_bytes, &len, &too_big);
	if (!text) {
		lint_io_error(run, "-", strerror(errno));
		return;
	}
	if (too_big) {
		free(text);
		too_large(run, name, (unsigned long long)len, true);
		return;
	}
	lint_file_check(run, lint_add_file(run, name, text, len, true));
}
