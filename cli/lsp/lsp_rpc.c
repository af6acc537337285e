/* Content-Length framing (LSP base protocol). Headers are ASCII lines
 * ended by CRLF (a bare LF is accepted); a blank line ends them. A block
 * that names no length is skipped, and a Content-Length found inside a
 * garbage line is still honoured, so that one bad frame does not lose the
 * stream. */
#include "lsp_rpc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "xalloc.h"

enum { HEADER_LINE_MAX = 8192, READ_CHUNK = 65536 };

void rpc_in_init(struct rpc_in *in, int fd)
{
	memset(in, 0, sizeof *in);
	in->fd = fd;
}

void rpc_in_free(struct rpc_in *in)
{
	free(in->buf);
	in->buf = NULL;
}

/* Reads more bytes; false at end of input or on a read error. */
static bool fill(struct rpc_in *in)
{
	if (in->eof)
		return false;
	if (in->start > 0 && in->start == in->len) {
		in->start = in->len = 0;
	} else if (in->start > in->cap / 2) {
		memmove(in->buf, in->buf + in->start, in->len - in->start);
		in->len -= in->start;
		in->start = 0;
	}
	if (in->cap - in->len < READ_CHUNK)
		in->buf = xgrow(in->buf, &in->cap, in->len + READ_CHUNK, 1);
	for (;;) {
		ssize_t n = read(in->fd, in->buf + in->len, in->cap - in->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			in->eof = true;
			return false;
		}
		in->len += (size_t)n;
		return true;
	}
}

bool rpc_pending(struct rpc_in *in)
{
	if (in->start < in->len || in->eof)
		return true;
	struct pollfd p = { .fd = in->fd, .events = POLLIN };
	return poll(&p, 1, 0) > 0;
}

/* The next header line, without its line end, in *line (valid until the
 * next read). A line longer than HEADER_LINE_MAX is cut: its head is
 * dropped and its last bytes kept, so a header glued to it survives. */
static bool next_line(struct rpc_in *in, const char **line, size_t *len)
{
	for (;;) {
		char *p = in->buf + in->start;
		size_t avail = in->len - in->start;
		char *nl = avail ? memchr(p, '\n', avail) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - p);
			in->start += n + 1;
			if (n && p[n - 1] == '\r')
				n--;
			*line = p;
			*len = n;
			return true;
		}
		if (avail > HEADER_LINE_MAX) {
			fputs("trainforge lsp: header line too long; skipping input\n", stderr);
			in->start = in->len - 64;
		}
		if (!fill(in))
			return false;
	}
}

/* Parses a Content-Length value: digits only, no overflow. -1 if bad. */
static long long parse_length(const char *s, size_t len)
{
	while (len && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len || len > 12)
		return -1;
	long long v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* The Content-Length named in a header line, -1 when it names none,
 * -2 when it names one that cannot be read. */
static long long header_length(const char *line, size_t len)
{
	static const char name[] = "content-length:";
	const size_t n = sizeof name - 1;
	for (size_t i = 0; i + n <= len; i++)
		if (strncasecmp(line + i, name, n) == 0) {
			long long v = parse_length(line + i + n, len - i - n);
			return v < 0 ? -2 : v;
		}
	return -1;
}

static bool skip_bytes(struct rpc_in *in, size_t n)
{
	while (n) {
		size_t avail = in->len - in->start;
		size_t take = avail < n ? avail : n;
		in->start += take;
		n -= take;
		if (n && !fill(in))
			return false;
	}
	return true;
}

enum rpc_status rpc_read(struct rpc_in *in, const char **body, size_t *len)
{
	for (;;) {
		long long length = -1;
		bool junk = false, any = false;
		const char *line;
		size_t n;
		for (;;) {
			if (!next_line(in, &line, &n))
				return RPC_EOF;
			if (n == 0)
				break;
			any = true;
			long long v = header_length(line, n);
			if (v >= 0 && length < 0)
				length = v;
			bool glued = v >= 0 && strncasecmp(line, "content-length:", 15) != 0;
			if (v == -2 || glued || !memchr(line, ':', n))
				junk = true;
		}
		if (!any)
			continue; /* stray blank line between frames */
		if (junk)
			fputs("trainforge lsp: malformed header line skipped\n", stderr);
		if (length < 0) {
			fputs("trainforge lsp: header without Content-Length; frame skipped\n", stderr);
			continue;
		}
		if ((unsigned long long)length > RPC_MAX_MESSAGE) {
			fprintf(stderr, "trainforge lsp: message of %lld bytes is over the %u-byte limit; skipped\n",
				length, (unsigned)RPC_MAX_MESSAGE);
			return skip_bytes(in, (size_t)length) ? RPC_TOO_LARGE : RPC_EOF;
		}
		size_t want = (size_t)length;
		while (in->len - in->start < want) {
			if (in->cap - in->start < want + 1) {
				memmove(in->buf, in->buf + in->start, in->len - in->start);
				in->len -= in->start;
				in->start = 0;
				in->buf = xgrow(in->buf, &in->cap, want + 1, 1);
			}
			if (!fill(in))
				return RPC_EOF;
		}
		*body = in->buf + in->start;
		*len = want;
		in->start += want;
		return RPC_MESSAGE;
	}
}

bool rpc_send(int fd, const struct buf *body)
{
	char head[64];
	int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", body->len);
	const char *parts[2] = { head, body->p ? body->p : "" };
	size_t sizes[2] = { (size_t)hn, body->len };
	for (int k = 0; k < 2; k++) {
		size_t off = 0;
		while (off < sizes[k]) {
			ssize_t w = write(fd, parts[k] + off, sizes[k] - off);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return false;
			off += (size_t)w;
		}
	}
	return true;
}
