/* A growable byte string that is always NUL-terminated. */
#ifndef TF_BUF_H
#define TF_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
	char *p;
	size_t len, cap;
};

#define BUF_INIT { NULL, 0, 0 }

void buf_put(struct buf *b, const char *s, size_t len);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
/* Appends s as the body of a JSON string (without the quotes). */
void buf_put_json(struct buf *b, const char *s, size_t len);
/* The same, with each byte that is not UTF-8 written as U+FFFD, so that
 * the JSON is valid whatever s holds. */
void buf_put_json_utf8(struct buf *b, const char *s, size_t len);
void buf_reset(struct buf *b);
/* Returns the string and leaves b empty; the caller frees it. */
char *buf_detach(struct buf *b);
void buf_free(struct buf *b);

#endif
