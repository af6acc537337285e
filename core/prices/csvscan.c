/* CSV records in a fixed buffer (csvscan.h). A record is found first
 * (field bounds as offsets from its start, so that a refill that moves
 * it keeps them), then its quoted fields are unescaped in place: nothing
 * is copied but the rare field with a doubled quote. */
#include "csvscan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#define BUF_SIZE (4u << 20)

struct bound {
	size_t at, len;
	bool escaped; /* holds "" to collapse */
};

struct csv_scan {
	int fd;
	char *buf;
	size_t start, len, cap;  /* the record starts at start; len bytes are valid */
	bool eof, own;
	unsigned long line, rec_line, record;
	struct bound b[CSV_MAX_FIELDS];
	struct csv_field f[CSV_MAX_FIELDS];
	bool failed;
	char err[160];
};

struct csv_scan *csv_scan_fd(int fd)
{
	struct csv_scan *s = xcalloc(1, sizeof *s);

	s->fd = fd;
	s->cap = BUF_SIZE;
	s->buf = xmalloc(s->cap);
	s->own = true;
	s->line = 1;
	return s;
}

struct csv_scan *csv_scan_mem(const char *text, size_t len)
{
	struct csv_scan *s = xcalloc(1, sizeof *s);

	/* a copy: unescaping writes into the record */
	s->fd = -1;
	s->cap = len ? len : 1;
	s->buf = xmalloc(s->cap);
	memcpy(s->buf, text, len);
	s->len = len;
	s->eof = true;
	s->own = true;
	s->line = 1;
	return s;
}

void csv_scan_free(struct csv_scan *s)
{
	if (s == NULL)
		return;
	free(s->buf);
	free(s);
}

unsigned long csv_line(const struct csv_scan *s)
{
	return s->rec_line;
}

unsigned long csv_record(const struct csv_scan *s)
{
	return s->record;
}

const char *csv_error(const struct csv_scan *s)
{
	return s->failed ? s->err : NULL;
}

static int fail(struct csv_scan *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct csv_scan *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof s->err, fmt, ap);
	va_end(ap);
	s->failed = true;
	return -1;
}

/* More bytes after the current record's; false at the end of the input
 * (or on an error, then s->failed). */
static bool refill(struct csv_scan *s)
{
	if (s->eof)
		return false;
	if (s->start > 0) {
		memmove(s->buf, s->buf + s->start, s->len - s->start);
		s->len -= s->start;
		s->start = 0;
	}
	if (s->len >= CSV_MAX_RECORD) {
		fail(s, "a record longer than %u bytes", CSV_MAX_RECORD);
		return false;
	}
	for (;;) {
		ssize_t n = read(s->fd, s->buf + s->len, s->cap - s->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(s, "read error: %s", strerror(errno));
			return false;
		}
		if (n == 0) {
			s->eof = true;
			return false;
		}
		s->len += (size_t)n;
		return true;
	}
}

static unsigned long count_newlines(const char *p, size_t n)
{
	unsigned long c = 0;

	for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
		c++;
	return c;
}

/* Collapses each "" of a quoted field to ", in place; the new length. */
static size_t unescape(char *p, size_t n)
{
	size_t w = 0;

	for (size_t r = 0; r < n; r++) {
		p[w++] = p[r];
		if (p[r] == '"')
			r++;
	}
	return w;
}

int csv_next(struct csv_scan *s, struct csv_field **out)
{
	size_t i = 0, nf = 0; /* i: offset from the record's start */

	if (s->failed)
		return -1;
	s->rec_line = s->line;
	for (;;) {
		size_t at = s->start + i;
		if (at >= s->len && !refill(s)) {
			if (s->failed)
				return -1;
			if (nf == 0 && i == 0)
				return 0;                  /* the end of the input */
			if (nf == CSV_MAX_FIELDS)
				return fail(s, "more than %d fields", CSV_MAX_FIELDS);
			s->b[nf++] = (struct bound){ i, 0, false }; /* a last empty field */
			break;
		}
		at = s->start + i;
		if (nf == CSV_MAX_FIELDS)
			return fail(s, "more than %d fields", CSV_MAX_FIELDS);
		if (s->buf[at] == '"') {
			size_t j = i + 1, k;
			bool escaped = false;
			for (;;) {
				const char *q = memchr(s->buf + s->start + j, '"', s->len - s->start - j);
				if (q == NULL) {
					j = s->len - s->start;
					if (!refill(s))
						return s->failed ? -1 : fail(s, "a quoted field is not closed");
					continue;
				}
				k = (size_t)(q - (s->buf + s->start));
				if (s->start + k + 1 >= s->len && refill(s))
					continue;                  /* "" or the end? read on */
				if (s->failed)
					return -1;
				if (s->start + k + 1 < s->len && s->buf[s->start + k + 1] == '"') {
					escaped = true;
					j = k + 2;
					continue;
				}
				break;
			}
			s->b[nf++] = (struct bound){ i + 1, k - i - 1, escaped };
			s->line += count_newlines(s->buf + s->start + i + 1, k - i - 1);
			i = k + 1;
			at = s->start + i;
			if (at >= s->len && !refill(s)) {
				if (s->failed)
					return -1;
				break;                             /* the input ends after the quote */
			}
			at = s->start + i;
			if (s->buf[at] == ',') {
				i++;
				continue;
			}
			if (s->buf[at] == '\r' && (at + 1 < s->len || refill(s)) &&
			    s->buf[s->start + i + 1] == '\n')
				i++;
			at = s->start + i;
			if (s->buf[at] == '\n') {
				i++;
				s->line++;
				break;
			}
			return fail(s, "a character after a closing quote (a quote inside a quoted field is written twice)");
		}
		/* unquoted: up to a comma or the end of the line */
		size_t j = i;
		for (;;) {
			const char *b = s->buf + s->start;
			size_t end = s->len - s->start;
			while (j < end && b[j] != ',' && b[j] != '\n')
				j++;
			if (j < end || !refill(s))
				break;
		}
		if (s->failed)
			return -1;
		{
			const char *b = s->buf + s->start;
			size_t end = s->len - s->start, flen = j - i;
			bool eol = j >= end || b[j] == '\n';
			if (eol && flen > 0 && b[j - 1] == '\r')
				flen--;
			s->b[nf++] = (struct bound){ i, flen, false };
			if (j >= end) {
				i = j;
				break;
			}
			i = j + 1;
			if (eol) {
				s->line++;
				break;
			}
		}
	}
	for (size_t k = 0; k < nf; k++) {
		char *p = s->buf + s->start + s->b[k].at;
		s->f[k].p = p;
		s->f[k].len = s->b[k].escaped ? unescape(p, s->b[k].len) : s->b[k].len;
	}
	s->start += i;
	s->record++;
	*out = s->f;
	return (int)nf;
}
