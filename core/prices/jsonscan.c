/* A strict, bounded pull scanner of JSON (jsonscan.h). */
#include "jsonscan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "xalloc.h"

#define CHUNK (64u << 10)

enum want { W_VALUE, W_KEY_OR_END, W_KEY, W_COLON, W_COMMA_OR_END, W_VALUE_OR_END, W_DONE };

struct json_scan {
	int fd;
	off_t start;
	const char *mem;
	size_t memlen;
	char *buf;
	const char *p;             /* the bytes being read: buf or mem */
	size_t pos, len;
	bool eof;
	unsigned long long off;
	unsigned long line, col, tok_line, tok_col;
	char stack[JSON_MAX_DEPTH];
	int depth;
	enum want want;
	char *text;
	size_t tlen, tcap;
	bool failed;
	char err[200];
};

static void reset(struct json_scan *s)
{
	s->pos = s->len = 0;
	s->eof = false;
	s->off = 0;
	s->line = s->col = s->tok_line = s->tok_col = 1;
	s->depth = 0;
	s->want = W_VALUE;
	s->failed = false;
	s->err[0] = '\0';
	if (s->mem != NULL) {
		s->p = s->mem;
		s->len = s->memlen;
		s->eof = true;
	}
}

struct json_scan *json_scan_fd(int fd)
{
	struct json_scan *s = xcalloc(1, sizeof *s);

	s->fd = fd;
	s->start = lseek(fd, 0, SEEK_CUR);
	s->buf = xmalloc(CHUNK);
	s->p = s->buf;
	reset(s);
	return s;
}

struct json_scan *json_scan_mem(const char *text, size_t len)
{
	struct json_scan *s = xcalloc(1, sizeof *s);

	s->fd = -1;
	s->mem = text;
	s->memlen = len;
	reset(s);
	return s;
}

void json_scan_free(struct json_scan *s)
{
	if (s == NULL)
		return;
	free(s->buf);
	free(s->text);
	free(s);
}

bool json_rewind(struct json_scan *s)
{
	if (s->mem == NULL && (s->start < 0 || lseek(s->fd, s->start, SEEK_SET) != s->start))
		return false;
	reset(s);
	return true;
}

unsigned long long json_offset(const struct json_scan *s)
{
	return s->off;
}

static enum json_tok fail(struct json_scan *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static enum json_tok fail(struct json_scan *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->failed) {
		va_start(ap, fmt);
		vsnprintf(s->err, sizeof s->err, fmt, ap);
		va_end(ap);
		s->failed = true;
	}
	return JT_ERROR;
}

enum json_tok json_fail(struct json_scan *s, const char *msg)
{
	return fail(s, "%s", msg);
}

const char *json_error(const struct json_scan *s)
{
	return s->failed ? s->err : NULL;
}

unsigned long json_line(const struct json_scan *s)
{
	return s->tok_line;
}

unsigned long json_col(const struct json_scan *s)
{
	return s->tok_col;
}

const char *json_text(const struct json_scan *s, size_t *len)
{
	if (len)
		*len = s->tlen;
	return s->text ? s->text : "";
}

/* The next byte, -1 at the end (or -2 after a read error). */
static int peek(struct json_scan *s)
{
	if (s->pos < s->len)
		return (unsigned char)s->p[s->pos];
	if (s->eof)
		return -1;
	for (;;) {
		ssize_t n = read(s->fd, s->buf, CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fail(s, "read error: %s", strerror(errno));
			s->eof = true;
			return -2;
		}
		s->pos = 0;
		s->len = (size_t)n;
		if (n == 0)
			s->eof = true;
		return n ? (unsigned char)s->buf[0] : -1;
	}
}

static void advance(struct json_scan *s)
{
	if (s->p[s->pos] == '\n') {
		s->line++;
		s->col = 1;
	} else {
		s->col++;
	}
	s->pos++;
	s->off++;
}

static bool put(struct json_scan *s, char c)
{
	if (s->tlen + 1 >= s->tcap) {
		if (s->tcap >= JSON_MAX_TOKEN) {
			fail(s, "a string or number longer than %u bytes", JSON_MAX_TOKEN);
			return false;
		}
		s->tcap = s->tcap ? 2 * s->tcap : 256;
		s->text = xrealloc(s->text, s->tcap);
	}
	s->text[s->tlen++] = c;
	s->text[s->tlen] = '\0';
	return true;
}

static void put_utf8(struct json_scan *s, unsigned long cp)
{
	if (cp < 0x80) {
		put(s, (char)cp);
	} else if (cp < 0x800) {
		put(s, (char)(0xc0 | cp >> 6));
		put(s, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		put(s, (char)(0xe0 | cp >> 12));
		put(s, (char)(0x80 | (cp >> 6 & 0x3f)));
		put(s, (char)(0x80 | (cp & 0x3f)));
	} else {
		put(s, (char)(0xf0 | cp >> 18));
		put(s, (char)(0x80 | (cp >> 12 & 0x3f)));
		put(s, (char)(0x80 | (cp >> 6 & 0x3f)));
		put(s, (char)(0x80 | (cp & 0x3f)));
	}
}

static long hex4(struct json_scan *s)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek(s);
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = v * 16 + (c - 'A' + 10);
		else
			return -1;
		advance(s);
	}
	return v;
}

/* The bytes of one UTF-8 sequence that starts with lead, checked. */
static bool utf8_rest(struct json_scan *s, int lead)
{
	int n = lead >= 0xf0 && lead <= 0xf4 ? 3 : lead >= 0xe0 ? 2 : lead >= 0xc2 && lead <= 0xdf ? 1 : -1;
	int lo = 0x80, hi = 0xbf;

	if (n < 0 || lead > 0xf4)
		return false;
	if (lead == 0xe0)
		lo = 0xa0;
	else if (lead == 0xed)
		hi = 0x9f;
	else if (lead == 0xf0)
		lo = 0x90;
	else if (lead == 0xf4)
		hi = 0x8f;
	for (int i = 0; i < n; i++) {
		int c = peek(s);
		if (c < lo || c > hi)
			return false;
		lo = 0x80, hi = 0xbf;
		put(s, (char)c);
		advance(s);
	}
	return true;
}

static enum json_tok string(struct json_scan *s, enum json_tok tok)
{
	advance(s); /* the quote */
	s->tlen = 0;
	put(s, '\0');
	s->tlen = 0;
	for (;;) {
		int c = peek(s);
		if (s->failed)
			return JT_ERROR;
		if (c < 0)
			return fail(s, "a string that is not closed");
		if (c == '"') {
			advance(s);
			return tok;
		}
		if (c < 0x20)
			return fail(s, "a control character in a string (escape it)");
		advance(s);
		if (c == '\\') {
			int e = peek(s);
			long cp;
			const char *simple = "\"\\/bfnrt", *is = "\"\\/\b\f\n\r\t";
			const char *at = e > 0 ? strchr(simple, e) : NULL;
			if (at != NULL && e != 0) {
				advance(s);
				put(s, is[at - simple]);
				continue;
			}
			if (e != 'u')
				return fail(s, "an unknown escape in a string");
			advance(s);
			cp = hex4(s);
			if (cp < 0)
				return fail(s, "a \\u escape without four hex digits");
			if (cp >= 0xd800 && cp <= 0xdbff) {
				long lo;
				if (peek(s) != '\\')
					return fail(s, "a lone surrogate in a \\u escape");
				advance(s);
				if (peek(s) != 'u')
					return fail(s, "a lone surrogate in a \\u escape");
				advance(s);
				lo = hex4(s);
				if (lo < 0xdc00 || lo > 0xdfff)
					return fail(s, "a lone surrogate in a \\u escape");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				return fail(s, "a lone surrogate in a \\u escape");
			}
			put_utf8(s, (unsigned long)cp);
		} else if (c < 0x80) {
			put(s, (char)c);
		} else {
			put(s, (char)c);
			if (!utf8_rest(s, c))
				return fail(s, "invalid UTF-8 in a string");
		}
		if (s->failed)
			return JT_ERROR;
	}
}

static bool digits(struct json_scan *s)
{
	bool any = false;

	for (int c; (c = peek(s)) >= '0' && c <= '9'; any = true) {
		if (!put(s, (char)c))
			return false;
		advance(s);
	}
	return any;
}

static enum json_tok number(struct json_scan *s)
{
	s->tlen = 0;
	if (peek(s) == '-') {
		put(s, '-');
		advance(s);
	}
	if (peek(s) == '0') {
		put(s, '0');
		advance(s);
	} else if (!digits(s)) {
		return fail(s, "a number without digits");
	}
	if (peek(s) == '.') {
		put(s, '.');
		advance(s);
		if (!digits(s))
			return fail(s, "a number without digits after its point");
	}
	if (peek(s) == 'e' || peek(s) == 'E') {
		put(s, 'e');
		advance(s);
		if (peek(s) == '+' || peek(s) == '-') {
			put(s, (char)peek(s));
			advance(s);
		}
		if (!digits(s))
			return fail(s, "a number without digits in its exponent");
	}
	return s->failed ? JT_ERROR : JT_NUMBER;
}

static enum json_tok literal(struct json_scan *s, const char *word, enum json_tok tok)
{
	for (const char *w = word; *w != '\0'; w++) {
		if (peek(s) != (unsigned char)*w)
			return fail(s, "an unknown word (not true, false or null)");
		advance(s);
	}
	return tok;
}

static enum json_tok after_value(struct json_scan *s, enum json_tok tok)
{
	s->want = s->depth == 0 ? W_DONE : W_COMMA_OR_END;
	return tok;
}

static enum json_tok value(struct json_scan *s, int c)
{
	switch (c) {
	case '{':
	case '[':
		if (s->depth == JSON_MAX_DEPTH)
			return fail(s, "nesting deeper than %d levels", JSON_MAX_DEPTH);
		advance(s);
		s->stack[s->depth++] = (char)c;
		s->want = c == '{' ? W_KEY_OR_END : W_VALUE_OR_END;
		return c == '{' ? JT_OBJECT : JT_ARRAY;
	case '"':
		return after_value(s, string(s, JT_STRING));
	case 't':
		return after_value(s, literal(s, "true", JT_TRUE));
	case 'f':
		return after_value(s, literal(s, "false", JT_FALSE));
	case 'n':
		return after_value(s, literal(s, "null", JT_NULL));
	default:
		if (c == '-' || (c >= '0' && c <= '9'))
			return after_value(s, number(s));
		if (c < 0)
			return fail(s, "the input ends where a value was expected");
		return fail(s, "'%c' where a value was expected", c >= 0x20 && c < 0x7f ? c : '?');
	}
}

static enum json_tok close_container(struct json_scan *s, char open)
{
	advance(s);
	s->depth--;
	return after_value(s, open == '{' ? JT_OBJECT_END : JT_ARRAY_END);
}

enum json_tok json_next(struct json_scan *s)
{
	if (s->failed)
		return JT_ERROR;
	for (;;) {
		int c;
		while ((c = peek(s)) == ' ' || c == '\t' || c == '\n' || c == '\r')
			advance(s);
		if (s->failed)
			return JT_ERROR;
		s->tok_line = s->line;
		s->tok_col = s->col;
		if (c == -1 && s->want != W_DONE && s->want != W_VALUE)
			return fail(s, "the input ends before the JSON value does (an object or array is not closed)");
		switch (s->want) {
		case W_DONE:
			if (c == -1)
				return JT_END;
			return fail(s, "text after the JSON value");
		case W_COLON:
			if (c != ':')
				return fail(s, "expected ':' after a key");
			advance(s);
			s->want = W_VALUE;
			continue;
		case W_COMMA_OR_END:
			if (c == ',') {
				advance(s);
				s->want = s->stack[s->depth - 1] == '{' ? W_KEY : W_VALUE;
				continue;
			}
			if (c == (s->stack[s->depth - 1] == '{' ? '}' : ']'))
				return close_container(s, s->stack[s->depth - 1]);
			return fail(s, s->stack[s->depth - 1] == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
		case W_KEY_OR_END:
			if (c == '}')
				return close_container(s, '{');
			/* fall through */
		case W_KEY:
			if (c != '"')
				return fail(s, "expected a key in double quotes");
			s->want = W_COLON;
			return string(s, JT_KEY);
		case W_VALUE_OR_END:
			if (c == ']')
				return close_container(s, '[');
			/* fall through */
		case W_VALUE:
			return value(s, c);
		}
	}
}

bool json_skip(struct json_scan *s, enum json_tok tok)
{
	int depth;

	if (tok == JT_ERROR)
		return false;
	if (tok != JT_OBJECT && tok != JT_ARRAY)
		return true;
	depth = s->depth;
	while (s->depth >= depth) {
		enum json_tok t = json_next(s);
		if (t == JT_ERROR || t == JT_END)
			return false;
	}
	return true;
}

bool json_string_value(struct json_scan *s, bool numbers)
{
	enum json_tok t = json_next(s);

	if (t == JT_STRING || (numbers && t == JT_NUMBER))
		return true;
	json_skip(s, t);
	return false;
}
