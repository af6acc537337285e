/* LN100x: what the linter finds about an input before any kind's rules
 * can start: bytes that are not text, a file too large or empty, YAML
 * that does not load, a file of no kind. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "issues.h"
#include "ln.h"
#include "text.h"
#include "xalloc.h"

/* LN1004 empty-file */
static void empty_file(struct diag_list *diags, struct source *src)
{
	diag_add(diags, src, R_LN1004, 1, 1, 1, 1, "the file is empty");
}

/* LN1003 binary-file */
static void binary_file(struct diag_list *diags, struct source *src, size_t where)
{
	uint32_t line, col;
	source_locate(src, where, &line, &col);
	diag_add(diags, src, R_LN1003, line, col, line, col + 1,
		 "NUL byte at offset %zu: this is a binary file, not text", where);
}

/* LN1002 invalid-utf8 */
static void invalid_utf8(struct diag_list *diags, struct source *src, size_t where)
{
	uint32_t line, col;
	source_locate(src, where, &line, &col);
	diag_add(diags, src, R_LN1002, line, col, line, col + 1,
		 "invalid UTF-8 byte 0x%02x at offset %zu", (unsigned char)src->text[where], where);
}

bool ln_check_bytes(struct diag_list *diags, struct source *src, bool named)
{
	size_t where;
	enum input_problem p = text_check_input(src->text, src->len, &where);
	if (p == INPUT_OK) {
		size_t i = 0;
		while (i < src->len && strchr(" \t\r\n", src->text[i]))
			i++;
		if (i < src->len)
			return true;
		if (named)
			empty_file(diags, src);
		return false;
	}
	if (!named)
		return false;
	if (p == INPUT_BINARY)
		binary_file(diags, src, where);
	else
		invalid_utf8(diags, src, where);
	return false;
}

/* LN1005 file-too-large */
void ln_file_too_large(struct diag_list *diags, struct source *src, unsigned long long size,
		       size_t limit)
{
	diag_add(diags, src, R_LN1005, 1, 1, 1, 1,
		 "the file is %llu bytes; the limit is %zu bytes", size, limit);
}

/* LN1008 unknown-kind */
void ln_unknown_kind(struct diag_list *diags, struct source *src, const char *why)
{
	diag_add(diags, src, R_LN1008, 1, 1, 1, 1, "%s", why);
}

/* Whether the text is a Jinja template ({% %} lines or {{ }} values),
 * whose text is often YAML only once rendered. */
static bool jinja(const struct tmpl *t)
{
	if (t->n_tag_lines)
		return true;
	for (size_t i = 0; i < t->n_ph; i++)
		if (t->ph[i].style == TMPL_JINJA || t->ph[i].style == TMPL_TAG)
			return true;
	return false;
}

/* LN1011 template-not-yaml: the loader's syntax error, read for what it
 * is in a template: one finding, and no cascade (the file's rules do
 * not run on text that did not parse). */
static void template_not_yaml(struct diag *d, const struct tmpl *t)
{
	d->rule = R_LN1011;
	d->sev = rule_table[R_LN1011].level;
	const char *why = strncmp(d->msg, "YAML syntax error: ", 19) == 0 ? d->msg + 19 : d->msg;
	char *msg = xstrdup(why);
	free(d->msg);
	struct buf b = BUF_INIT;
	buf_printf(&b, "this template is not YAML until it is rendered: %s", msg);
	d->msg = buf_detach(&b);
	free(msg);
	if (t->n_tag_lines)
		diag_set_help(d, "with its %u {%% %%} line%s (the first at line %u) left out the rest does not parse; lint the rendered file, or exclude the template",
			      t->n_tag_lines, t->n_tag_lines == 1 ? "" : "s", t->first_tag_line);
	else
		diag_set_help(d, "lint the rendered file, or give the {{ }} values with --define NAME=VALUE");
}

/* LN1001, LN1006, LN1007 and LN1009 are the loader's issues, mapped in
 * core/report/issues.c with the kinds' duplicate-key rules. */
void ln_yaml_issues(struct diag_list *diags, struct source *src, const yamldoc *doc,
		    enum file_kind kind, const struct tmpl *t)
{
	size_t first = diags->len;
	issues_report(diags, src, doc, kind);
	if (!t || !jinja(t))
		return;
	for (size_t i = first; i < diags->len; i++)
		if (diags->v[i].rule == R_LN1001)
			template_not_yaml(&diags->v[i], t);
}

enum { SHOWN_PLACEHOLDERS = 6, SHOWN_BYTES = 40 };

static const char *ph_text;

static int ph_cmp(const void *pa, const void *pb)
{
	const struct tmpl_ph *a = *(const struct tmpl_ph *const *)pa;
	const struct tmpl_ph *b = *(const struct tmpl_ph *const *)pb;
	size_t al = a->end - a->start, bl = b->end - b->start;
	int c = memcmp(ph_text + a->start, ph_text + b->start, al < bl ? al : bl);
	if (c || al != bl)
		return c ? c : al < bl ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

static int ph_order(const void *pa, const void *pb)
{
	const struct tmpl_ph *a = *(const struct tmpl_ph *const *)pa;
	const struct tmpl_ph *b = *(const struct tmpl_ph *const *)pb;
	return a->start < b->start ? -1 : a->start > b->start;
}

static void placeholders(struct diag_list *diags, struct source *src, const struct tmpl *t,
			 const char *skipped);

/* LN1010 template-placeholders: one finding per file, at the first
 * placeholder, naming the distinct ones in the order they appear. */
void ln_template_placeholders(struct diag_list *diags, struct source *src, const struct tmpl *t)
{
	placeholders(diags, src, t, "the checks of %s value%s are skipped");
}

/* The same for a batch script, whose placeholders stand in options,
 * words and commands (lint/template.c). */
void ln_script_placeholders(struct diag_list *diags, struct source *src, const struct tmpl_ph *ph,
			    size_t n)
{
	struct tmpl t = { .ph = (struct tmpl_ph *)ph, .n_ph = n, .n_unvalued = n };
	placeholders(diags, src, &t,
		     "the checks of the #SBATCH options, words and commands %s stand%s in are skipped");
}

static void placeholders(struct diag_list *diags, struct source *src, const struct tmpl *t,
			 const char *skipped)
{
	if (!t->n_unvalued)
		return;
	const struct tmpl_ph **v = xmalloc(t->n_unvalued * sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < t->n_ph; i++)
		if (!t->ph[i].valued)
			v[n++] = &t->ph[i];
	const struct tmpl_ph *at = v[0];
	/* distinct texts: sorted by text, each kept at its first place */
	ph_text = src->text;
	qsort(v, n, sizeof *v, ph_cmp);
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tmpl_ph *last = distinct ? v[distinct - 1] : NULL;
		size_t len = v[i]->end - v[i]->start;
		if (!last || last->end - last->start != len ||
		    memcmp(src->text + last->start, src->text + v[i]->start, len) != 0)
			v[distinct++] = v[i];
	}
	qsort(v, distinct, sizeof *v, ph_order);
	struct buf list = BUF_INIT;
	for (size_t i = 0; i < distinct && i < SHOWN_PLACEHOLDERS; i++) {
		size_t len = v[i]->end - v[i]->start;
		buf_printf(&list, "%s%.*s%s", i ? ", " : "", (int)(len > SHOWN_BYTES ? SHOWN_BYTES : len),
			   src->text + v[i]->start, len > SHOWN_BYTES ? "..." : "");
	}
	if (distinct > SHOWN_PLACEHOLDERS)
		buf_printf(&list, " and %zu more", distinct - SHOWN_PLACEHOLDERS);
	struct buf what = BUF_INIT;
	bool one = distinct == 1;
	if (strstr(skipped, "stand%s"))
		buf_printf(&what, skipped, one ? "it" : "they", one ? "s" : "");
	else
		buf_printf(&what, skipped, one ? "its" : "their", one ? "" : "s");
	struct diag *d = diag_add(diags, src, R_LN1010, at->line, at->col, at->line, at->end_col,
		"a template with %zu placeholder%s that %s no value (%s): %s", distinct,
		one ? "" : "s", one ? "has" : "have", list.p, what.p);
	buf_free(&what);
	diag_set_help(d, "give them values with --define NAME=VALUE or --env-file FILE (or define: in .trainforge.yaml) to check the file as rendered");
	buf_free(&list);
	free(v);
}
