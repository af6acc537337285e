#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "plan_out.h"

void out_money(struct buf *b, double usd, const char *unknown)
{
	if (usd < 0 || !isfinite(usd))
		buf_puts(b, unknown);
	else if (usd >= 1000)
		buf_printf(b, "$%.0f", usd);
	else
		buf_printf(b, "$%.2f", usd);
}

void out_gib(struct buf *b, double bytes)
{
	if (bytes < 0)
		buf_puts(b, "unknown");
	else
		buf_printf(b, "%.2f GiB", bytes / PLAN_GIB);
}

/* A member's key, after a comma unless it opens its object. */
static void key(struct buf *b, const char *k)
{
	if (b->len && b->p[b->len - 1] != '{' && b->p[b->len - 1] != '[')
		buf_putc(b, ',');
	buf_printf(b, "\"%s\":", k);
}

void out_jnum(struct buf *b, const char *k, double v)
{
	key(b, k);
	if (v >= 0 && isfinite(v))
		buf_printf(b, "%.10g", v);
	else
		buf_puts(b, "null");
}

void out_jint(struct buf *b, const char *k, long long v)
{
	key(b, k);
	buf_printf(b, "%lld", v);
}

void out_jstr(struct buf *b, const char *k, const char *v)
{
	key(b, k);
	if (!v) {
		buf_puts(b, "null");
		return;
	}
	buf_putc(b, '"');
	buf_put_json(b, v, strlen(v));
	buf_putc(b, '"');
}

void out_jbool(struct buf *b, const char *k, bool v)
{
	key(b, k);
	buf_puts(b, v ? "true" : "false");
}

void out_jtri(struct buf *b, const char *k, int v)
{
	key(b, k);
	buf_puts(b, v == 1 ? "true" : v == 0 ? "false" : "null");
}

void out_jobj(struct buf *b, const char *k)
{
	key(b, k);
	buf_putc(b, '{');
}

void out_jarr(struct buf *b, const char *k)
{
	key(b, k);
	buf_putc(b, '[');
}

void out_xml(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '&': buf_puts(b, "&amp;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		default:  buf_putc(b, *s);
		}
	}
}
