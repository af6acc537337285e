/* SARIF 2.1.0, shaped for GitHub code scanning: one run, every rule that
 * fired in tool.driver.rules, a level on every result, URIs relative to
 * %SRCROOT% (the checkout), columns in code points, `results: []` when
 * clean (an empty upload is what closes old alerts). The output depends
 * on nothing but the findings: no time, host or absolute directory. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "format_internal.h"
#include "xalloc.h"

/* A small pretty-printing JSON writer: two-space indent, one member per
 * line, empty arrays as []. */
struct jw {
	struct buf *b;
	int depth;
	bool comma; /* a member was written at this depth */
};

static void jw_member(struct jw *w, const char *key)
{
	if (w->comma)
		buf_putc(w->b, ',');
	if (w->depth > 0)
		buf_putc(w->b, '\n');
	for (int i = 0; i < w->depth; i++)
		buf_puts(w->b, "  ");
	if (key)
		buf_printf(w->b, "\"%s\": ", key);
	w->comma = true;
}

static void jw_open(struct jw *w, const char *key, char c)
{
	jw_member(w, key);
	buf_putc(w->b, c);
	w->depth++;
	w->comma = false;
}

static void jw_close(struct jw *w, char c)
{
	w->depth--;
	if (w->comma) {
		buf_putc(w->b, '\n');
		for (int i = 0; i < w->depth; i++)
			buf_puts(w->b, "  ");
	}
	buf_putc(w->b, c);
	w->comma = true;
}

static void jw_str(struct jw *w, const char *key, const char *s)
{
	jw_member(w, key);
	format_json_str(w->b, s);
}

static void jw_uint(struct jw *w, const char *key, uint32_t n)
{
	jw_member(w, key);
	buf_printf(w->b, "%u", n);
}

/* SARIF's message and multiformatMessageString objects: {"text": s}. */
static void jw_text(struct jw *w, const char *key, const char *s)
{
	jw_open(w, key, '{');
	jw_str(w, "text", s);
	jw_close(w, '}');
}

static const char *const level_of[] = {
	[SEV_INFO] = "note", [SEV_WARNING] = "warning", [SEV_ERROR] = "error",
};

/* A path as a URI reference (RFC 3986): unreserved bytes and '/' stay,
 * everything else, spaces and non-ASCII bytes included, is percent-
 * encoded, so no ':' in a file name can pass for a scheme. A leading
 * "./" says nothing a relative reference does not. */
static void put_uri_path(struct buf *b, const char *p)
{
	static const char hex[] = "0123456789ABCDEF";
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			buf_putc(b, (char)c);
		else
			buf_printf(b, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

/* A relative path is relative to the working directory, which in CI is
 * the checkout: %SRCROOT%. An absolute one becomes a file: URI, which
 * GitHub maps back into the checkout. */
static void artifact_location(struct jw *w, const char *path)
{
	struct buf uri = BUF_INIT;
	if (path[0] == '/')
		buf_puts(&uri, "file://");
	put_uri_path(&uri, path);
	jw_open(w, "artifactLocation", '{');
	jw_str(w, "uri", uri.p);
	if (path[0] != '/')
		jw_str(w, "uriBaseId", "%SRCROOT%");
	jw_close(w, '}');
	buf_free(&uri);
}

/* SARIF regions are 1-based with an exclusive end column, like ours;
 * a degenerate range becomes an insertion point at its start. */
static void span_region(struct jw *w, const char *key, uint32_t line, uint32_t col,
			uint32_t end_line, uint32_t end_col)
{
	line = line ? line : 1;
	col = col ? col : 1;
	if (end_line < line || (end_line == line && end_col < col)) {
		end_line = line;
		end_col = col;
	}
	jw_open(w, key, '{');
	jw_uint(w, "startLine", line);
	jw_uint(w, "startColumn", col);
	jw_uint(w, "endLine", end_line);
	jw_uint(w, "endColumn", end_col ? end_col : 1);
	jw_close(w, '}');
}

static void region(struct jw *w, const char *key, const struct diag *d)
{
	span_region(w, key, d->line, d->col, d->end_line, d->end_col);
}

/* A reportingDescriptor is one ID users see: a rule of the table, or
 * one shellcheck code passed through under SC0000. */
struct rule_key {
	int rule, ext;
};

static int key_cmp(const void *pa, const void *pb)
{
	const struct rule_key *a = pa, *b = pb;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	return (a->ext > b->ext) - (a->ext < b->ext);
}

/* The rule's page from `trainforge explain` is its help: GitHub shows
 * help.markdown beside every alert of the rule. */
static void rule_help(struct jw *w, int rule)
{
	struct buf t = BUF_INIT;
	jw_open(w, "help", '{');
	explain_write(&t, rule, EXPLAIN_TEXT, 0);
	jw_str(w, "text", t.p);
	buf_reset(&t);
	explain_write(&t, rule, EXPLAIN_MARKDOWN, 2);
	jw_str(w, "markdown", t.p);
	jw_close(w, '}');
	buf_free(&t);
}

/* A shellcheck code is documented on shellcheck's wiki, not by us. */
static void shellcheck_help(struct jw *w, const char *id, struct buf *url)
{
	struct buf t = BUF_INIT;
	jw_open(w, "help", '{');
	buf_printf(&t, "ShellCheck's %s, reported by trainforge on a batch script. "
		   "%s explains it. '# shellcheck disable=%s' above the line "
		   "suppresses one finding.", id, url->p, id);
	jw_str(w, "text", t.p);
	buf_reset(&t);
	buf_printf(&t, "ShellCheck's [%s](%s), reported by trainforge on a batch "
		   "script. `# shellcheck disable=%s` above the line suppresses "
		   "one finding.", id, url->p, id);
	jw_str(w, "markdown", t.p);
	jw_close(w, '}');
	buf_free(&t);
}

static void rule_descriptor(struct jw *w, const struct rule_key *k, const char *docs_url)
{
	const struct rule *r = &rule_table[k->rule];
	const struct explain *e = explain_find(k->rule);
	char id[8], name[24];
	struct buf t = BUF_INIT, url = BUF_INIT;
	snprintf(id, sizeof id, "SC%04d", k->ext % 10000);
	snprintf(name, sizeof name, "shellcheck-sc%04d", k->ext % 10000);
	rule_url(&url, k->rule, k->ext, docs_url);
	jw_open(w, NULL, '{');
	jw_str(w, "id", k->ext ? id : r->id);
	jw_str(w, "name", k->ext ? name : r->name);
	jw_text(w, "shortDescription", r->summary);
	if (e)
		buf_puts(&t, e->why);
	else
		buf_printf(&t, "%s (%s): %s.", r->id, r->name, r->summary);
	jw_text(w, "fullDescription", t.p);
	if (k->ext)
		shellcheck_help(w, id, &url);
	else
		rule_help(w, k->rule);
	jw_str(w, "helpUri", url.p);
	jw_open(w, "defaultConfiguration", '{');
	jw_str(w, "level", level_of[r->level]);
	jw_close(w, '}');
	jw_close(w, '}');
	buf_free(&t);
	buf_free(&url);
}

static void one_fix(struct jw *w, const struct diag *d, const char *description,
		    uint32_t line, uint32_t col, uint32_t end_line, uint32_t end_col,
		    const char *text)
{
	jw_open(w, NULL, '{');
	if (description)
		jw_text(w, "description", description);
	jw_open(w, "artifactChanges", '[');
	jw_open(w, NULL, '{');
	artifact_location(w, d->src->path);
	jw_open(w, "replacements", '[');
	jw_open(w, NULL, '{');
	span_region(w, "deletedRegion", line, col, end_line, end_col);
	jw_text(w, "insertedContent", text);
	jw_close(w, '}');
	jw_close(w, ']');
	jw_close(w, '}');
	jw_close(w, ']');
	jw_close(w, '}');
}

/* The fix replaces its range (the finding's own unless set apart); an
 * unsafe fix beside a safe one is the second. */
static void fixes(struct jw *w, const struct diag *d)
{
	jw_open(w, "fixes", '[');
	one_fix(w, d, d->help, d->fix_line, d->fix_col, d->fix_end_line, d->fix_end_col, d->fix);
	if (d->alt)
		one_fix(w, d, "unsafe: what the value was most likely meant to be", d->alt->line,
			d->alt->col, d->alt->end_line, d->alt->end_col, d->alt->text);
	jw_close(w, ']');
}

static void result(struct jw *w, const struct diag *d, int rule_index)
{
	jw_open(w, NULL, '{');
	char id[8];
	jw_str(w, "ruleId", diag_id(d, id));
	jw_uint(w, "ruleIndex", (uint32_t)rule_index);
	jw_str(w, "level", level_of[d->sev]);
	jw_text(w, "message", d->msg);
	jw_open(w, "locations", '[');
	jw_open(w, NULL, '{');
	jw_open(w, "physicalLocation", '{');
	artifact_location(w, d->src->path);
	region(w, "region", d);
	jw_close(w, '}');
	jw_close(w, '}');
	jw_close(w, ']');
	if (d->fix)
		fixes(w, d);
	jw_close(w, '}');
}

static void target_object(struct jw *w, const char *key, const struct format_target *t)
{
	jw_open(w, key, '{');
	jw_str(w, "parallelcluster", t->parallelcluster);
	jw_str(w, "slurm", t->slurm);
	jw_close(w, '}');
}

/* The run's property bag (SARIF 2.1.0, 3.8): what it was checked against. */
static void run_properties(struct jw *w, const struct format_run *run)
{
	jw_open(w, "properties", '{');
	if (run->n_targets == 1)
		target_object(w, "target", &run->targets[0]);
	jw_open(w, "targets", '[');
	for (size_t i = 0; i < run->n_targets; i++)
		target_object(w, NULL, &run->targets[i]);
	jw_close(w, ']');
	jw_close(w, '}');
}

void format_sarif(struct buf *b, const struct diag_list *list, const struct format_run *run)
{
	/* Rules in table order (shellcheck codes in code order), so the
	 * rules array and every ruleIndex depend only on what fired. */
	struct rule_key *keys = xmalloc((list->len + 1) * sizeof *keys);
	size_t n = 0;
	for (size_t i = 0; i < list->len; i++)
		keys[n++] = (struct rule_key){ list->v[i].rule, list->v[i].ext_code };
	qsort(keys, n, sizeof *keys, key_cmp);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (u == 0 || key_cmp(&keys[u - 1], &keys[i]) != 0)
			keys[u++] = keys[i];
	n = u;

	struct jw w = { b, 0, false };
	jw_open(&w, NULL, '{');
	jw_str(&w, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	jw_str(&w, "version", "2.1.0");
	jw_open(&w, "runs", '[');
	jw_open(&w, NULL, '{');
	jw_open(&w, "tool", '{');
	jw_open(&w, "driver", '{');
	jw_str(&w, "name", "trainforge");
	jw_str(&w, "version", TF_VERSION);
	jw_str(&w, "semanticVersion", TF_VERSION);
	struct buf home = BUF_INIT;
	buf_printf(&home, "%s", run && run->docs_url ? run->docs_url : rule_docs_url);
	jw_str(&w, "informationUri", home.p);
	buf_free(&home);
	jw_open(&w, "rules", '[');
	for (size_t i = 0; i < n; i++)
		rule_descriptor(&w, &keys[i], run ? run->docs_url : NULL);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_close(&w, '}');
	jw_str(&w, "columnKind", "unicodeCodePoints");
	if (run)
		run_properties(&w, run);
	jw_open(&w, "results", '[');
	for (size_t i = 0; i < list->len; i++) {
		const struct diag *d = &list->v[i];
		struct rule_key k = { d->rule, d->ext_code };
		const struct rule_key *at = bsearch(&k, keys, n, sizeof *keys, key_cmp);
		result(&w, d, (int)(at - keys));
	}
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_close(&w, ']');
	jw_close(&w, '}');
	buf_putc(b, '\n');
	free(keys);
}
