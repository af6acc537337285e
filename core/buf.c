#include "buf.h"

#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "text.h"
#include "xalloc.h"

static void buf_reserve(struct buf *b, size_t extra)
{
	if (extra >= (size_t)-1 - b->len)
		xalloc_die();
	b->p = xgrow(b->p, &b->cap, b->len + extra + 1, 1);
}

void buf_put(struct buf *b, const char *s, size_t len)
{
	buf_reserve(b, len);
	if (len) /* s may be an empty buf's NULL */
		memcpy(b->p + b->len, s, len);
	b->len += len;
	b->p[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
	buf_put(b, &c, 1);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	char small[256];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		buf_put(b, small, (size_t)n);
		return;
	}
	buf_reserve(b, (size_t)n);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void buf_put_json(struct buf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': buf_put(b, "\\\"", 2); break;
		case '\\': buf_put(b, "\\\\", 2); break;
		case '\n': buf_put(b, "\\n", 2); break;
		case '\r': buf_put(b, "\\r", 2); break;
		case '\t': buf_put(b, "\\t", 2); break;
		default:
			if (c < 0x20 || c == 0x7f) {
				char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
				buf_put(b, esc, 6);
			} else {
				buf_putc(b, (char)c);
			}
		}
	}
}

void buf_put_json_utf8(struct buf *b, const char *s, size_t len)
{
	size_t run = 0, i = 0;
	while (i < len) {
		size_t adv;
		if (utf8_decode(s + i, len - i, &adv) >= 0) {
			i += adv;
			continue;
		}
		buf_put_json(b, s + run, i - run);
		buf_puts(b, "\\ufffd");
		run = ++i;
	}
	buf_put_json(b, s + run, len - run);
}

void buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

/* The string is kept (a finding's message lives as long as the run), so
 * it gives back what growing left over. */
char *buf_detach(struct buf *b)
{
	char *p = b->p ? xrealloc(b->p, b->len + 1) : xstrdup("");
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

void buf_free(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
