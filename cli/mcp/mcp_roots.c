/* The client's roots: the directories it lets the server work in. A
 * client that declares the roots capability is asked for them after
 * notifications/initialized and again on roots/list_changed; a tool call
 * that reads or writes files waits for the answer. file URIs are kept
 * (resolved, symbolic links followed), other schemes are not places on
 * this machine. A client without the capability, or with no usable
 * root, gets the working directory as its one root: the instructions
 * say so. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "mcp.h"
#include "xalloc.h"

enum { ROOTS_WAIT_MS = 10000, MAX_ROOTS = 64 };

static void roots_set(struct mcp_server *s, char **roots, size_t n)
{
	mcp_roots_free(s);
	s->roots = roots;
	s->n_roots = n;
	s->roots_known = true;
}

void mcp_roots_free(struct mcp_server *s)
{
	for (size_t i = 0; i < s->n_roots; i++)
		free(s->roots[i]);
	free(s->roots);
	s->roots = NULL;
	s->n_roots = 0;
}

void mcp_roots_default(struct mcp_server *s)
{
	char **one = xmalloc(sizeof *one);
	one[0] = xstrdup(s->cwd);
	roots_set(s, one, 1);
}

void mcp_roots_request(struct mcp_server *s)
{
	s->roots_request = s->next_id++;
	struct buf b = BUF_INIT;
	buf_printf(&b, "{\"jsonrpc\":\"2.0\",\"id\":%lld,\"method\":\"roots/list\"}", s->roots_request);
	mcp_send_now(s, &b);
}

void mcp_roots_answer(struct mcp_server *s, const yamldoc *doc, yd_node result, yd_node error)
{
	s->roots_request = 0;
	yd_node list = result ? json_get(doc, result, "roots") : 0;
	if (error || !list || yd_kind(doc, list) != YD_SEQUENCE) {
		fputs("trainforge mcp: the client's roots/list failed; the working directory is the root\n",
		      stderr);
		mcp_roots_default(s);
		return;
	}
	char **roots = xcalloc(MAX_ROOTS, sizeof *roots);
	size_t n = 0;
	for (size_t i = 0; i < yd_len(doc, list) && n < MAX_ROOTS; i++) {
		const char *uri = json_str(doc, yd_item(doc, list, i), "uri", NULL);
		char *path = uri ? uri_file_path(uri) : NULL;
		char *real = path ? realpath(path, NULL) : NULL;
		struct stat st;
		if (real && stat(real, &st) == 0 && S_ISDIR(st.st_mode))
			roots[n++] = real;
		else {
			fprintf(stderr, "trainforge mcp: root %s is not a directory here; left out\n",
				uri ? uri : "(without a uri)");
			free(real);
		}
		free(path);
	}
	if (!n) {
		free(roots);
		mcp_roots_default(s);
		return;
	}
	roots_set(s, roots, n);
}

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

bool mcp_roots_wait(struct mcp_server *s)
{
	if (s->roots_known)
		return true;
	if (!s->roots_request)
		mcp_roots_request(s);
	mcp_take_input(s, false); /* the answer may be read already */
	long long end = now_ms() + ROOTS_WAIT_MS;
	while (!s->roots_known && !s->eof && !s->broken_pipe) {
		long long left = end - now_ms();
		if (left <= 0)
			return false;
		struct pollfd p = { .fd = s->in.fd, .events = POLLIN };
		int n = poll(&p, 1, (int)left);
		if (n < 0 && errno != EINTR)
			return false;
		if (n > 0)
			mcp_take_input(s, true);
	}
	return s->roots_known;
}

void mcp_roots_text(const struct mcp_server *s, struct buf *out)
{
	for (size_t i = 0; i < s->n_roots; i++)
		buf_printf(out, "%s%s", i ? ", " : "", s->roots[i]);
}
