#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "xalloc.h"

extern char **environ;

/* git's own words on failure: its first line, at most this long. */
enum { GIT_MESSAGE_MAX = 4096 };

struct git_run {
	char *out;
	size_t len;
	bool too_big;
	int status;             /* the exit status; -1: git could not run */
};

static void first_line(int fd, struct buf *why)
{
	char msg[GIT_MESSAGE_MAX];
	size_t n = 0;
	ssize_t r;
	while (n < sizeof msg - 1 && (r = read(fd, msg + n, sizeof msg - 1 - n)) > 0)
		n += (size_t)r;
	msg[n] = '\0';
	size_t line = strcspn(msg, "\n");
	if (why && line)
		buf_put(why, msg, line);
}

/* Runs git with argv (no shell), stdin from /dev/null, and reads at most
 * max bytes of its output; why gets the first line of its errors. */
static void git(char *const argv[], size_t max, struct git_run *r, struct buf *why)
{
	int out[2], err[2];
	*r = (struct git_run){ .status = -1 };
	if (pipe(out) != 0)
		return;
	if (pipe(err) != 0) {
		close(out[0]), close(out[1]);
		return;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	posix_spawn_file_actions_addclose(&fa, err[0]);
	pid_t pid;
	int rc = posix_spawnp(&pid, "git", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(out[1]);
	close(err[1]);
	if (rc == 0) {
		/* a larger file closes the pipe early: git ends on SIGPIPE */
		r->out = fd_read(out[0], max, &r->len, &r->too_big);
		close(out[0]);
		first_line(err[0], why);
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	} else {
		close(out[0]);
		if (why)
			buf_printf(why, "git cannot run: %s", strerror(rc));
	}
	close(err[0]);
}

enum base_status base_from_git(const char *rev, const char *path, size_t max, char **text,
			       size_t *len, struct buf *why)
{
	if (!rev[0] || rev[0] == '-' || strpbrk(rev, "\n\r")) {
		buf_printf(why, "'%s' is not a revision", rev);
		return BASE_FAILED;
	}
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	const char *name = slash ? slash + 1 : path;
	struct buf commit = BUF_INIT, spec = BUF_INIT;
	buf_printf(&commit, "%s^{commit}", rev);
	buf_printf(&spec, "%s:./%s", rev, name);
	char *verify[] = { "git", "-C", dir, "rev-parse", "--verify", "--quiet", commit.p, NULL };
	char *show[] = { "git", "-C", dir, "show", "--no-textconv", spec.p, NULL };
	struct git_run r;
	enum base_status st = BASE_FAILED;
	git(verify, 4096, &r, why);
	free(r.out);
	if (r.status == 0) {
		git(show, max, &r, NULL);
		if (r.status != 0)
			st = BASE_ABSENT;
		else if (r.too_big)
			st = BASE_TOO_LARGE;
		else
			st = BASE_OK, *text = r.out, *len = r.len, r.out = NULL;
		free(r.out);
	} else if (r.status > 0 && !why->len) {
		buf_printf(why, "unknown revision '%s'", rev);
	}
	buf_free(&commit);
	buf_free(&spec);
	free(dir);
	return st;
}

enum base_status base_from_file(const char *path, size_t max, char **text, size_t *len,
				struct buf *why)
{
	bool too_big;
	char *t = file_read(path, max, len, &too_big);
	if (!t) {
		buf_puts(why, strerror(errno));
		return BASE_FAILED;
	}
	if (too_big) {
		free(t);
		return BASE_TOO_LARGE;
	}
	*text = t;
	return BASE_OK;
}

/* A list of a repository's YAML files is megabytes only in a repository
 * pairing would never read in full anyway. */
enum { TRACKED_MAX = 4u << 20 };

char *base_tracked_yaml(const char *dir, size_t *len)
{
	char *ls[] = { "git", "-C", (char *)dir, "ls-files", "-z", "--", ":(top)*.yaml", ":(top)*.yml",
		       NULL };
	struct git_run r;
	git(ls, TRACKED_MAX, &r, NULL);
	if (r.status != 0 || r.too_big) {
		free(r.out);
		return NULL;
	}
	*len = r.len;
	return r.out;
}
