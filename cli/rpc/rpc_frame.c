/* The two framings. Content-Length (LSP base protocol): headers are
 * ASCII lines ended by CRLF (a bare LF is accepted); a blank line ends
 * them. A block that names no length is skipped, and a Content-Length
 * found inside a garbage line is still honoured, so that one bad frame
 * does not lose the stream. Lines (MCP stdio): a message is a line,
 * ended by LF (a CR before it is dropped); blank lines are skipped, and
 * a line over the limit is dropped to its end. */
#include "rpc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fileio.h"
#include "xalloc.h"

enum { HEADER_LINE_MAX = 8192, READ_CHUNK = 65536 };

void rpc_in_init(struct rpc_in *in, int fd, enum rpc_framing framing, const char *who)
{
	memset(in, 0, sizeof *in);
	in->fd = fd;
	in->framing = framing;
	in->who = who;
}

void rpc_in_free(struct rpc_in *in)
{
	free(in->buf);
	in->buf = NULL;
}

/* Reads more bytes; false at end of input or on a read error. */
bool rpc_fill(struct rpc_in *in)
{
	if (in->eof)
		return false;
	if (in->start > 0 && in->start == in->len) {
		in->start = in->len = in->scanned = 0;
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
		char *p = in->buf ? in->buf + in->start : NULL; /* NULL before the first read */
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
			fprintf(stderr, "%s: header line too long; skipping input\n", in->who);
			in->start = in->len - 64;
		}
		if (!rpc_fill(in))
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
		if (n && !rpc_fill(in))
			return false;
	}
	return true;
}

static enum rpc_status read_frame(struct rpc_in *in, const char **body, size_t *len)
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
			fprintf(stderr, "%s: malformed header line skipped\n", in->who);
		if (length < 0) {
			fprintf(stderr, "%s: header without Content-Length; frame skipped\n", in->who);
			continue;
		}
		if ((unsigned long long)length > RPC_MAX_MESSAGE) {
			fprintf(stderr, "%s: message of %lld bytes is over the %u-byte limit; skipped\n",
				in->who, length, (unsigned)RPC_MAX_MESSAGE);
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
			if (!rpc_fill(in))
				return RPC_EOF;
		}
		*body = in->buf + in->start;
		*len = want;
		in->start += want;
		return RPC_MESSAGE;
	}
}

/* The next line of the lines framing. Unless block, only a line already
 * buffered. */
static enum rpc_status read_line(struct rpc_in *in, const char **body, size_t *len, bool block)
{
	for (;;) {
		char *p = in->buf ? in->buf + in->start : NULL; /* NULL before the first read */
		size_t avail = in->len - in->start;
		char *nl = avail > in->scanned ? memchr(p + in->scanned, '\n', avail - in->scanned) : NULL;
		if (nl) {
			size_t n = (size_t)(nl - p);
			in->start += n + 1;
			in->scanned = 0;
			if (in->skipping) {
				in->skipping = false;
				return RPC_TOO_LARGE;
			}
			if (n && p[n - 1] == '\r')
				n--;
			if (n == 0)
				continue; /* a blank line between messages */
			if (n > RPC_MAX_MESSAGE) {
				fprintf(stderr, "%s: message of %zu bytes is over the %u-byte limit; skipped\n",
					in->who, n, (unsigned)RPC_MAX_MESSAGE);
				return RPC_TOO_LARGE;
			}
			*body = p;
			*len = n;
			return RPC_MESSAGE;
		}
		in->scanned = avail;
		if (avail > RPC_MAX_MESSAGE) {
			if (!in->skipping)
				fprintf(stderr, "%s: a message over the %u-byte limit; skipped\n", in->who,
					(unsigned)RPC_MAX_MESSAGE);
			in->skipping = true;
			in->start = in->len;
			in->scanned = 0;
		}
		if (!block)
			return in->eof ? RPC_EOF : RPC_AGAIN;
		if (!rpc_fill(in))
			return RPC_EOF;
	}
}

enum rpc_status rpc_read(struct rpc_in *in, const char **body, size_t *len)
{
	return in->framing == RPC_LINES ? read_line(in, body, len, true) : read_frame(in, body, len);
}

enum rpc_status rpc_read_buffered(struct rpc_in *in, const char **body, size_t *len)
{
	return in->framing == RPC_LINES ? read_line(in, body, len, false) : RPC_AGAIN;
}


bool rpc_send(int fd, enum rpc_framing framing, struct buf *body)
{
	const char *p = body->p ? body->p : "";
	if (framing == RPC_LINES) {
		for (size_t i = 0; i < body->len; i++)
			if (p[i] == '\n' || p[i] == '\r')
				body->p[i] = ' ';
		return fd_write_all(fd, p, body->len) && fd_write_all(fd, "\n", 1);
	}
	char head[64];
	int hn = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", body->len);
	return fd_write_all(fd, head, (size_t)hn) && fd_write_all(fd, p, body->len);
}
