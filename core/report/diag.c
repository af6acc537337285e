#include "diag.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "yamldoc.h"
#include "xalloc.h"

struct diag *diag_add(struct diag_list *list, struct source *src,
		      enum rule_id rule, uint32_t line, uint32_t col,
		      uint32_t end_line, uint32_t end_col, const char *fmt, ...)
{
	list->v = xgrow(list->v, &list->cap, list->len + 1, sizeof *list->v);
	struct diag *d = &list->v[list->len++];
	memset(d, 0, sizeof *d);
	d->src = src;
	d->rule = rule;
	d->sev = rule_table[rule].level;
	d->line = line ? line : 1;
	d->col = col ? col : 1;
	if (end_line < d->line || (end_line == d->line && end_col <= d->col)) {
		end_line = d->line;
		end_col = d->col + 1;
	}
	d->end_line = end_line;
	d->end_col = end_col;
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	d->msg = buf_detach(&b);
	return d;
}

static void help_drop(struct diag *d)
{
	if (d->help_owned)
		free((char *)d->help);
	d->help = NULL;
	d->help_owned = false;
}

void diag_set_help(struct diag *d, const char *fmt, ...)
{
	const char *text = fmt;
	char *made = NULL;
	if (strchr(fmt, '%')) {
		struct buf b = BUF_INIT;
		va_list ap;
		va_start(ap, fmt);
		buf_vprintf(&b, fmt, ap);
		va_end(ap);
		text = made = buf_detach(&b);
	}
	help_drop(d);
	d->help = text;
	d->help_owned = made != NULL;
}

const char *diag_id(const struct diag *d, char buf[8])
{
	if (!d->ext_code)
		return rule_table[d->rule].id;
	snprintf(buf, 8, "SC%04d", d->ext_code % 10000);
	return buf;
}

void diag_set_fix_bytes(struct diag *d, size_t start, size_t end, const char *text)
{
	assert(rule_fixability(d->rule) != FIX_NONE && start <= end && end <= d->src->len);
	free(d->fix);
	d->fix = xstrdup(text);
	d->fix_safe = rule_fixability(d->rule) == FIX_SAFE;
	d->fix_start = start;
	d->fix_end = end;
	source_locate(d->src, start, &d->fix_line, &d->fix_col);
	source_locate(d->src, end, &d->fix_end_line, &d->fix_end_col);
}

void diag_set_fix_case_only(struct diag *d)
{
	size_t start = d->fix_start, n = d->fix ? strlen(d->fix) : 0;
	if (d->fix && d->fix_end - start == n && strncasecmp(d->src->text + start, d->fix, n) == 0)
		d->fix_safe = true;
}

void diag_set_fix(struct diag *d, const char *text)
{
	size_t start = source_offset(d->src, d->line, d->col);
	size_t end = source_offset(d->src, d->end_line, d->end_col);
	diag_set_fix_bytes(d, start, end < start ? start : end, text);
}

void diag_set_alt_fix_bytes(struct diag *d, size_t start, size_t end, const char *text)
{
	assert(rule_fixability(d->rule) == FIX_SAFE && start <= end && end <= d->src->len);
	if (!d->alt)
		d->alt = xcalloc(1, sizeof *d->alt);
	free(d->alt->text);
	d->alt->text = xstrdup(text);
	d->alt->start = start;
	d->alt->end = end;
	source_locate(d->src, start, &d->alt->line, &d->alt->col);
	source_locate(d->src, end, &d->alt->end_line, &d->alt->end_col);
}

void diag_set_path(struct diag *d, const struct yamldoc *doc, uint32_t node)
{
	free(d->yaml_path);
	d->yaml_path = NULL;
	d->path_doc = doc;
	d->path_node = node;
}

void diag_write_path(const struct diag *d, struct buf *out)
{
	if (d->yaml_path)
		buf_puts(out, d->yaml_path);
	else if (d->path_doc)
		yd_path_json(d->path_doc, d->path_node, out);
	else
		buf_puts(out, "null");
}

static void diag_fini(struct diag *d)
{
	free(d->msg);
	help_drop(d);
	free(d->fix);
	free(d->yaml_path);
	if (d->alt)
		free(d->alt->text);
	free(d->alt);
}

void diag_remove(struct diag_list *list, size_t i)
{
	diag_fini(&list->v[i]);
	memmove(&list->v[i], &list->v[i + 1],
		(list->len - i - 1) * sizeof list->v[0]);
	list->len--;
}

void diag_list_move(struct diag_list *list, struct diag_list *from)
{
	if (!from->len)
		return;
	list->v = xgrow(list->v, &list->cap, list->len + from->len, sizeof *list->v);
	memcpy(list->v + list->len, from->v, from->len * sizeof *from->v);
	list->len += from->len;
	free(from->v);
	from->v = NULL;
	from->len = from->cap = 0;
}

void diag_list_filter(struct diag_list *list, size_t first,
		      bool (*keep)(struct diag *d, void *ctx), void *ctx)
{
	size_t out = first;
	for (size_t i = first; i < list->len; i++) {
		if (!keep(&list->v[i], ctx)) {
			diag_fini(&list->v[i]);
			continue;
		}
		if (out != i)
			list->v[out] = list->v[i];
		out++;
	}
	list->len = out;
}

static int diag_cmp(const void *pa, const void *pb)
{
	const struct diag *a = pa, *b = pb;
	int c = strcmp(a->src->path, b->src->path);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	char ba[8], bb[8];
	c = strcmp(diag_id(a, ba), diag_id(b, bb));
	if (c)
		return c;
	return strcmp(a->msg, b->msg);
}

void diag_list_sort(struct diag_list *list)
{
	if (list->len > 1)
		qsort(list->v, list->len, sizeof list->v[0], diag_cmp);
}

void diag_list_free(struct diag_list *list)
{
	for (size_t i = 0; i < list->len; i++)
		diag_fini(&list->v[i]);
	free(list->v);
	list->v = NULL;
	list->len = list->cap = 0;
}
