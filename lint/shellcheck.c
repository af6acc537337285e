#include "shellcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "xalloc.h"
#include "yamldoc.h"

/* Codes that misfire on batch scripts linted away from the cluster: a
 * file sourced on the nodes (modules, venvs) does not exist here. */
static const char excluded[] = "SC1090,SC1091";

static bool write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(text, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

/* Runs argv, capturing stdout; returns the exit status or -1. */
static int capture(char *const argv[], struct buf *out)
{
	int fds[2];
	if (pipe(fds) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		int devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	char chunk[16384];
	ssize_t n;
	while ((n = read(fds[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			buf_put(out, chunk, (size_t)n);
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const struct {
	const char *level;
	enum severity sev;
} levels[] = {
	{ "error", SEV_ERROR }, { "warning", SEV_WARNING },
	{ "info", SEV_INFO }, { "style", SEV_INFO },
};

static long long num(const yamldoc *d, yd_node obj, const char *key)
{
	long long v = 0;
	yd_int(d, yd_get(d, obj, key), &v);
	return v;
}

/* SC0000 shellcheck: maps json1 comments (columns count a tab as one)
 * to diagnostics of the script whose temporary file name (its index)
 * they name. */
static void add_comments(const char *json, size_t len, struct source *const *scripts,
			 size_t n, const char *dir, struct diag_list *diags)
{
	yamldoc *d = yamldoc_parse(json, len, NULL);
	yd_node list = yd_get(d, yd_root(d), "comments");
	size_t dir_len = strlen(dir);
	for (size_t i = 0; i < yd_len(d, list); i++) {
		yd_node c = yd_item(d, list, i);
		const char *file = yd_str(d, yd_get(d, c, "file"), NULL);
		if (!file || strncmp(file, dir, dir_len) != 0)
			continue;
		size_t ix = strtoul(file + dir_len + 1, NULL, 10);
		if (ix >= n)
			continue;
		enum severity sev = SEV_INFO;
		for (size_t l = 0; l < sizeof levels / sizeof levels[0]; l++)
			if (yd_str_eq(d, yd_get(d, c, "level"), levels[l].level))
				sev = levels[l].sev;
		const char *msg = yd_str(d, yd_get(d, c, "message"), NULL);
		struct diag *g = diag_add(diags, scripts[ix], R_SC0000,
					  (uint32_t)num(d, c, "line"), (uint32_t)num(d, c, "column"),
					  (uint32_t)num(d, c, "endLine"), (uint32_t)num(d, c, "endColumn"),
					  "%s", msg ? msg : "shellcheck finding");
		g->sev = sev;
		g->ext_code = (int)num(d, c, "code");
		diag_set_help(g, "https://www.shellcheck.net/wiki/SC%04d", g->ext_code);
	}
	yamldoc_free(d);
}

bool shellcheck_run(struct source *const *scripts, size_t n, enum shellcheck_mode mode,
		    const char *program, struct diag_list *diags, struct trouble *trouble)
{
	if (mode == SHELLCHECK_OFF || n == 0)
		return true;
	char dir[] = "/tmp/trainforge-sc.XXXXXX";
	if (!mkdtemp(dir))
		return false;
	char **argv = xcalloc(n + 8, sizeof *argv);
	size_t argc = 0;
	argv[argc++] = (char *)(program ? program : "shellcheck");
	argv[argc++] = "--norc";
	argv[argc++] = "-f";
	argv[argc++] = "json1";
	argv[argc++] = "-e";
	argv[argc++] = (char *)excluded;
	bool ok = true;
	for (size_t i = 0; i < n; i++) {
		struct buf path = BUF_INIT;
		buf_printf(&path, "%s/%zu", dir, i);
		ok &= write_file(path.p, scripts[i]->text, scripts[i]->len);
		argv[argc++] = buf_detach(&path);
	}
	struct buf out = BUF_INIT;
	int status = ok ? capture(argv, &out) : -1;
	/* 0: clean, 1: findings; anything else: it did not run properly */
	ok = status == 0 || status == 1;
	if (ok)
		add_comments(out.p ? out.p : "", out.len, scripts, n, dir, diags);
	else if (mode == SHELLCHECK_AUTO)
		trouble_add(trouble, "trainforge: shellcheck %s; batch scripts got trainforge's checks only (--shellcheck off silences this)",
			status == 127 ? "is not installed" : "did not run");
	for (size_t i = 6; i < argc; i++) {
		unlink(argv[i]);
		free(argv[i]);
	}
	rmdir(dir);
	free(argv);
	buf_free(&out);
	return ok;
}
