#include "trouble.h"

#include <stdarg.h>
#include <stdlib.h>

#include "buf.h"
#include "xalloc.h"

void trouble_add(struct trouble *t, const char *fmt, ...)
{
	if (!t)
		return;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	t->msgs = xgrow(t->msgs, &t->cap, t->len + 1, sizeof *t->msgs);
	char *msg = buf_detach(&b);
	t->msgs[t->len++] = msg ? msg : xstrdup("");
}

void trouble_flush(struct trouble *t, FILE *out)
{
	for (size_t i = 0; i < t->len; i++) {
		fprintf(out, "%s\n", t->msgs[i]);
		free(t->msgs[i]);
	}
	t->len = 0;
}

void trouble_free(struct trouble *t)
{
	for (size_t i = 0; i < t->len; i++)
		free(t->msgs[i]);
	free(t->msgs);
	t->msgs = NULL;
	t->len = t->cap = 0;
}
