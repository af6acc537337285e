/* The values of a template's placeholders: --define, --env-file and the
 * settings' define, looked up by name (tmpl.h). */
#include "tmpl.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "xalloc.h"

static int def_cmp(const void *pa, const void *pb)
{
	const struct tmpl_def *a = pa, *b = pb;
	return strcmp(a->name, b->name);
}

void tmpl_defs_add(struct tmpl_defs *d, const char *name, size_t name_len, const char *value,
		   size_t value_len)
{
	for (size_t i = 0; i < d->len; i++)
		if (strlen(d->v[i].name) == name_len && memcmp(d->v[i].name, name, name_len) == 0) {
			free(d->v[i].value);
			d->v[i].value = xstrndup(value, value_len);
			return;
		}
	d->v = xgrow(d->v, &d->cap, d->len + 1, sizeof *d->v);
	d->v[d->len++] = (struct tmpl_def){ xstrndup(name, name_len), xstrndup(value, value_len) };
	d->sorted = false;
}

const char *tmpl_defs_get(const struct tmpl_defs *d, const char *name, size_t len)
{
	if (!d || !d->len || len == 0)
		return NULL;
	if (!d->sorted) {
		/* sorted once, on the first look-up: a template may hold a
		 * hundred thousand placeholders */
		struct tmpl_defs *w = (struct tmpl_defs *)d;
		qsort(w->v, w->len, sizeof *w->v, def_cmp);
		w->sorted = true;
	}
	size_t lo = 0, hi = d->len;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *n = d->v[mid].name;
		size_t nl = strlen(n);
		int c = memcmp(name, n, len < nl ? len : nl);
		if (!c)
			c = len < nl ? -1 : len > nl;
		if (!c)
			return d->v[mid].value;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

bool tmpl_defs_parse(struct tmpl_defs *d, const char *arg, const char **why)
{
	const char *eq = strchr(arg, '=');
	if (!eq) {
		*why = "expected NAME=VALUE";
		return false;
	}
	if (eq == arg) {
		*why = "the name is empty";
		return false;
	}
	if (strpbrk(eq + 1, "\r\n")) {
		*why = "the value must be one line";
		return false;
	}
	tmpl_defs_add(d, arg, (size_t)(eq - arg), eq + 1, strlen(eq + 1));
	return true;
}

bool tmpl_defs_read_env(struct tmpl_defs *d, const char *text, size_t len, uint32_t *bad_line)
{
	uint32_t line = 0;
	size_t at = 0;
	while (at < len) {
		line++;
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t a = at, b = end;
		at = end + 1;
		while (a < b && (text[a] == ' ' || text[a] == '\t'))
			a++;
		while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\r'))
			b--;
		if (a == b || text[a] == '#')
			continue;
		if (b - a > 7 && memcmp(text + a, "export ", 7) == 0)
			for (a += 7; a < b && text[a] == ' '; a++)
				;
		size_t n = a;
		while (n < b && text_is_name_char(text[n]))
			n++;
		if (n == a || n >= b || text[n] != '=' || !text_is_name_start(text[a])) {
			*bad_line = line;
			return false;
		}
		size_t v = n + 1, ve = b;
		if (ve - v >= 2 && (text[v] == '"' || text[v] == '\'') && text[ve - 1] == text[v]) {
			v++;
			ve--;
		}
		tmpl_defs_add(d, text + a, n - a, text + v, ve - v);
	}
	return true;
}

void tmpl_defs_copy(struct tmpl_defs *to, const struct tmpl_defs *from)
{
	for (size_t i = 0; from && i < from->len; i++)
		tmpl_defs_add(to, from->v[i].name, strlen(from->v[i].name), from->v[i].value,
			      strlen(from->v[i].value));
}

void tmpl_defs_free(struct tmpl_defs *d)
{
	for (size_t i = 0; i < d->len; i++) {
		free(d->v[i].name);
		free(d->v[i].value);
	}
	free(d->v);
	memset(d, 0, sizeof *d);
}
