/* A tool call runs in a child process: fork, not exec, so the child
 * starts with what the server has already set up. Whatever the input
 * does to it (a crash, a loop, output without end) ends the child, never
 * the server: the server reads its result and stderr as they come, and
 * kills it (its process group, with what it started) at the time bound,
 * when the client cancels the call or goes away, or when the result
 * passes the size limit. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "mcp.h"

enum { RESULT_MAX = 256u << 20, STDERR_MAX = 16u << 10, CHUNK = 65536 };

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* In the child: stdin and stdout from /dev/null, stderr to the server. */
static void child_side(int result_fd, int err_fd, void (*fn)(void *, int), void *ctx)
{
	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(126);
	fn(ctx, result_fd);
	fflush(NULL);
	_exit(0);
}

/* One read from fd into b, at most cap bytes kept; false at its end. */
static bool drain(int fd, struct buf *b, size_t cap, bool *over)
{
	char chunk[CHUNK];
	ssize_t n = read(fd, chunk, sizeof chunk);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	size_t keep = b->len >= cap ? 0 : cap - b->len < (size_t)n ? cap - b->len : (size_t)n;
	buf_put(b, chunk, keep);
	if (keep < (size_t)n && over)
		*over = true;
	return true;
}

/* The fuzz target runs the tools in its own process (their coverage is
 * what it looks for), and undoes what a child's end would undo. */
static void run_here(void (*fn)(void *ctx, int fd), void *ctx, struct child_result *r)
{
	char *cwd = getcwd(NULL, 0);
	int mem = memfd_create("result", MFD_CLOEXEC);
	if (mem >= 0) {
		fn(ctx, mem);
		char chunk[CHUNK];
		ssize_t n;
		for (off_t at = 0; (n = pread(mem, chunk, sizeof chunk, at)) > 0; at += n)
			buf_put(&r->out, chunk, (size_t)n);
		close(mem);
		r->end = CHILD_DONE;
	}
	file_overlays_clear();
	file_confine(NULL, 0);
	if (cwd && chdir(cwd) != 0)
		r->end = CHILD_FAILED;
	free(cwd);
}

void mcp_child_run(struct mcp_server *s, void (*fn)(void *ctx, int fd), void *ctx,
		   struct child_result *r)
{
	memset(r, 0, sizeof *r);
	r->end = CHILD_FAILED;
	if (s->in_process) {
		run_here(fn, ctx, r);
		return;
	}
	int out[2], err[2];
	if (pipe2(out, O_CLOEXEC) != 0)
		return;
	if (pipe2(err, O_CLOEXEC) != 0) {
		close(out[0]);
		close(out[1]);
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		child_side(out[1], err[1], fn, ctx);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		close(out[0]);
		close(err[0]);
		return;
	}
	setpgid(pid, pid); /* also here: no race with the kill below */
	double deadline = now_s() + s->timeout;
	bool out_open = true, err_open = true, over = false;
	s->cancelled = false;
	r->end = CHILD_DONE;
	while (out_open || err_open) {
		double left = deadline - now_s();
		if (left <= 0) {
			r->end = CHILD_TIMEOUT;
			break;
		}
		struct pollfd p[3] = {
			{ .fd = out_open ? out[0] : -1, .events = POLLIN },
			{ .fd = err_open ? err[0] : -1, .events = POLLIN },
			{ .fd = s->eof ? -1 : s->in.fd, .events = POLLIN },
		};
		int n = poll(p, 3, left > 3600 ? 3600000 : (int)(left * 1000) + 1);
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (p[0].revents && !(out_open = drain(out[0], &r->out, RESULT_MAX, &over)))
			out_open = false;
		if (p[1].revents)
			err_open = drain(err[0], &r->err, STDERR_MAX, NULL);
		if (over) {
			r->end = CHILD_TOO_LARGE;
			break;
		}
		if (p[2].revents) {
			mcp_take_input(s, true);
			if (s->cancelled || s->eof) {
				r->end = s->cancelled ? CHILD_CANCELLED : CHILD_GONE;
				break;
			}
		}
	}
	if (r->end != CHILD_DONE)
		kill(-pid, SIGKILL);
	close(out[0]);
	close(err[0]);
	while (waitpid(pid, &r->status, 0) < 0 && errno == EINTR)
		;
}

void child_result_free(struct child_result *r)
{
	buf_free(&r->out);
	buf_free(&r->err);
}

/* Points descriptor fd at a new memory file; the old one in *saved. */
static int redirect(int fd, int *saved)
{
	int mem = memfd_create("capture", MFD_CLOEXEC);
	*saved = dup(fd);
	if (mem >= 0 && *saved >= 0 && dup2(mem, fd) >= 0)
		return mem;
	if (mem >= 0)
		close(mem);
	if (*saved >= 0)
		close(*saved);
	return -1;
}

static void restore(int fd, int saved, int mem, struct buf *out)
{
	dup2(saved, fd);
	close(saved);
	char chunk[CHUNK];
	ssize_t n;
	for (off_t at = 0; (n = pread(mem, chunk, sizeof chunk, at)) > 0; at += n)
		buf_put(out, chunk, (size_t)n);
	close(mem);
}

int mcp_capture(int (*fn)(int, char **), int argc, char **argv, struct buf *out, struct buf *err)
{
	fflush(NULL);
	int saved_out, saved_err;
	int mem_out = redirect(1, &saved_out);
	if (mem_out < 0)
		return -1;
	int mem_err = redirect(2, &saved_err);
	if (mem_err < 0) {
		restore(1, saved_out, mem_out, out);
		return -1;
	}
	int rc = fn(argc, argv);
	fflush(NULL);
	restore(1, saved_out, mem_out, out);
	restore(2, saved_err, mem_err, err);
	return rc;
}
