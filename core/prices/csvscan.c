/* CSV records in a fixed buffer (csvscan.h). A record's end is found
 * first, by its line breaks and the parity of the quotes before them
 * (memchr and a count sixteen bytes at a time: most of a bulk offer file
 * is skipped at that speed, csv_raw), then its fields are split and
 * their doubled quotes collapsed in place (csv_split), for the records a
 * reader keeps. */
#include "csvscan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#define BUF_SIZE (4u << 20)

struct csv_scan {
	int fd;
	char *buf;
	size_t start, len, cap;  /* the record starts at start; len bytes are valid */
	bool eof;
	unsigned long line, rec_line, record;
	size_t commas;           /* of the last record csv_raw gave */
	char word[32];           /* csv_watch's */
	size_t word_len;
	bool found;              /* the last record holds it */
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

void csv_watch(struct csv_scan *s, const char *word)
{
	size_t n = strlen(word);

	s->word_len = n < sizeof s->word ? n : 0;
	memcpy(s->word, word, s->word_len);
}

bool csv_holds(const struct csv_scan *s)
{
	return s->word_len == 0 || s->found;
}

size_t csv_commas(const struct csv_scan *s)
{
	return s->commas;
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

/* More bytes after the current record's start; false at the end of the
 * input (or on an error, then s->failed). */
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

/* Quotes and commas of p[0..n) in one pass, and whether the scanner's
 * word is in it. Sixteen bytes at a time in the compiler's vector types
 * (SSE2 on x86-64, NEON on arm64): a comparison gives -1 in each equal
 * byte, so subtracting it counts, in byte lanes that are summed before
 * they can wrap; a block that holds the word's first byte is checked at
 * each place. */
typedef unsigned char bytes16 __attribute__((vector_size(16)));
typedef uint64_t words2 __attribute__((vector_size(16)));

static size_t lanes_sum(bytes16 v)
{
	size_t sum = 0;

	for (int i = 0; i < 16; i++)
		sum += v[i];
	return sum;
}

static void count_both(struct csv_scan *s, const char *p, size_t n, size_t *quotes, size_t *commas)
{
	const bytes16 qv = (bytes16){ 0 } + '"', cv = (bytes16){ 0 } + ',';
	const bytes16 wv = (bytes16){ 0 } + (unsigned char)(s->word_len ? s->word[0] : 0);
	bool watch = s->word_len != 0 && !s->found;
	size_t q = 0, c = 0, i = 0;

	while (i + 16 <= n) {
		bytes16 aq = { 0 }, ac = { 0 };
		/* 255 blocks at most before a byte lane could wrap */
		for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
			bytes16 w;
			memcpy(&w, p + i, 16);
			aq -= (bytes16)(w == qv);
			ac -= (bytes16)(w == cv);
			if (!watch)
				continue;
			bytes16 eq = (bytes16)(w == wv);
			words2 hit = (words2)eq;
			if ((hit[0] | hit[1]) == 0)
				continue;
			for (size_t k = 0; k < 16 && watch; k++)
				if (eq[k] && i + k + s->word_len <= n
				    && memcmp(p + i + k, s->word, s->word_len) == 0) {
					s->found = true;
					watch = false;
				}
		}
		q += lanes_sum(aq);
		c += lanes_sum(ac);
	}
	for (; i < n; i++) {
		q += p[i] == '"';
		c += p[i] == ',';
		if (watch && i + s->word_len <= n && memcmp(p + i, s->word, s->word_len) == 0) {
			s->found = true;
			watch = false;
		}
	}
	*quotes += q;
	*commas += c;
}

int csv_raw(struct csv_scan *s, char **rec, size_t *len)
{
	size_t at = 0, quotes = 0, commas = 0; /* at: offset from the record's start */
	unsigned long breaks = 0;

	if (s->failed)
		return -1;
	s->rec_line = s->line;
	s->found = false;
	for (;;) {
		char *b = s->buf + s->start;
		size_t avail = s->len - s->start;
		char *nl = at < avail ? memchr(b + at, '\n', avail - at) : NULL;
		if (nl == NULL) {
			size_t seen = avail;
			if (refill(s))
				continue;  /* the record moved to the start: offsets hold */
			if (s->failed)
				return -1;
			if (seen == 0)
				return 0;  /* the end of the input */
			count_both(s, s->buf + s->start + at, seen - at, &quotes, &commas);
			if (quotes % 2)
				return fail(s, "a quoted field is not closed");
			*rec = s->buf + s->start;
			*len = seen;
			s->start += seen;
			break;
		}
		size_t end = (size_t)(nl - b);
		count_both(s, b + at, end - at, &quotes, &commas);
		breaks++;
		if (quotes % 2 == 0) { /* the break is outside quotes: the record's end */
			*rec = b;
			*len = end;
			s->start += end + 1;
			break;
		}
		at = end + 1;              /* a break inside a quoted field */
	}
	if (*len > CSV_MAX_RECORD)
		return fail(s, "a record longer than %u bytes", CSV_MAX_RECORD);
	if (*len > 0 && (*rec)[*len - 1] == '\r')
		--*len;
	s->commas = commas;
	s->line += breaks;
	s->record++;
	return 1;
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

int csv_split(struct csv_scan *s, char *p, size_t n, struct csv_field **out)
{
	size_t i = 0, nf = 0;

	for (;;) {
		if (nf == CSV_MAX_FIELDS)
			return fail(s, "more than %d fields", CSV_MAX_FIELDS);
		if (i < n && p[i] == '"') {
			size_t j = i + 1, k;
			bool escaped = false;
			for (;;) {
				const char *q = memchr(p + j, '"', n - j);
				if (q == NULL)
					return fail(s, "a quoted field is not closed");
				k = (size_t)(q - p);
				if (k + 1 < n && p[k + 1] == '"') {
					escaped = true;
					j = k + 2;
					continue;
				}
				break;
			}
			s->f[nf].p = p + i + 1;
			s->f[nf].len = escaped ? unescape(p + i + 1, k - i - 1) : k - i - 1;
			nf++;
			i = k + 1;
			if (i == n)
				break;
			if (p[i] != ',')
				return fail(s, "a character after a closing quote (a quote inside a quoted field is written twice)");
			i++;
			continue;
		}
		const char *comma = i < n ? memchr(p + i, ',', n - i) : NULL;
		size_t end = comma ? (size_t)(comma - p) : n;
		if (memchr(p + i, '"', end - i))
			return fail(s, "a quote inside a field that does not start with one");
		s->f[nf].p = p + i;
		s->f[nf].len = end - i;
		nf++;
		if (comma == NULL)
			break;
		i = end + 1;
	}
	*out = s->f;
	return (int)nf;
}

int csv_next(struct csv_scan *s, struct csv_field **out)
{
	char *rec;
	size_t len;
	int rc = csv_raw(s, &rec, &len);

	return rc <= 0 ? rc : csv_split(s, rec, len, out);
}
