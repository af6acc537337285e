/* textDocument/codeAction: every fix of the findings in the range asked
 * about, as a quick fix that carries the diagnostic it fixes, as
 * publishDiagnostics sent it. A finding's own fix (safe, or unsafe where
 * its rule's fix is) and the unsafe one beside a safe one (a look-alike
 * whose ASCII value is still wrong) are each an action; the safe one is
 * preferred. Each finding also gets "disable for this line" and "for
 * this file", which write the directive lint --add-noqa writes, with a
 * reason to fill in; and source.fixAll.trainforge (asked for on save by
 * editors that run fix-all) applies every safe fix, as lint --fix would.
 * The document is linted again for the answer, so the edits are on the
 * text the client has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fix.h"
#include "lsp.h"
#include "noqa.h"
#include "text.h"

enum { TITLE_TEXT = 40 }; /* bytes of the replacement shown in a title */

/* A 0-based LSP position, read from params. */
static bool position(const yamldoc *doc, yd_node n, const char *path, long long *line,
		     long long *ch)
{
	char key[64];
	snprintf(key, sizeof key, "%s.line", path);
	bool ok = yd_int(doc, json_get(doc, n, key), line);
	snprintf(key, sizeof key, "%s.character", path);
	return ok && yd_int(doc, json_get(doc, n, key), ch);
}

/* Whether the finding overlaps the lines asked about (an editor asks for
 * the cursor's line or a selection; columns would only hide a fix on the
 * line from a cursor next to it). */
static bool in_range(const struct diag *g, long long first, long long last)
{
	long long a = g->line ? g->line - 1 : 0, b = g->end_line ? g->end_line - 1 : a;
	if (g->end_col == 1 && b > a)
		b--; /* ends at the start of the next line */
	return a <= last && b >= first;
}

static void put_range(const struct server *s, struct buf *b, struct source *src, uint32_t line,
		      uint32_t col, uint32_t end_line, uint32_t end_col)
{
	buf_printf(b, "{\"start\":{\"line\":%u,\"character\":%u},\"end\":{\"line\":%u,\"character\":%u}}",
		   line ? line - 1 : 0, lsp_char(s, src, line, col), end_line ? end_line - 1 : 0,
		   lsp_char(s, src, end_line, end_col));
}

static void put_title(struct buf *b, const struct diag *g, const char *text, bool safe)
{
	char id[8], title[160];
	size_t n = strlen(text);
	if (!n)
		snprintf(title, sizeof title, "%s: remove it%s", diag_id(g, id), safe ? "" : " (unsafe fix)");
	else
		snprintf(title, sizeof title, "%s: write '%.*s%s'%s", diag_id(g, id),
			 (int)(n > TITLE_TEXT ? TITLE_TEXT : n), text, n > TITLE_TEXT ? "..." : "",
			 safe ? "" : " (unsafe fix)");
	json_put_str(b, title, strlen(title));
}

static void put_action(const struct server *s, struct buf *b, const struct document *d,
		       const struct diag *g, const char *text, uint32_t line, uint32_t col,
		       uint32_t end_line, uint32_t end_col, bool safe, bool *first)
{
	if (!*first)
		buf_putc(b, ',');
	*first = false;
	buf_puts(b, "{\"title\":");
	put_title(b, g, text, safe);
	buf_printf(b, ",\"kind\":\"quickfix\",\"isPreferred\":%s,\"diagnostics\":[", safe ? "true" : "false");
	lsp_put_diag(s, b, g, NULL);
	buf_puts(b, "],\"edit\":{\"changes\":{");
	json_put_str(b, d->uri, strlen(d->uri));
	buf_puts(b, ":[{\"range\":");
	put_range(s, b, g->src, line, col, end_line, end_col);
	buf_puts(b, ",\"newText\":");
	json_put_str(b, text, strlen(text));
	buf_puts(b, "}]}}}");
}

/* "Disable ID for this line" (or file): the directive as an insertion. */
static void put_disable(const struct server *s, struct buf *b, const struct document *d,
			struct source *src, const struct diag *g, bool file_wide, bool *first)
{
	struct noqa_edit *e;
	size_t n = noqa_edits(src, src->kind != KIND_SBATCH, &g, 1, file_wide, "reason", &e);
	if (n == 1) {
		char id[8], title[96];
		snprintf(title, sizeof title, "Disable %s for this %s", diag_id(g, id),
			 file_wide ? "file" : "line");
		if (!*first)
			buf_putc(b, ',');
		*first = false;
		buf_puts(b, "{\"title\":");
		json_put_str(b, title, strlen(title));
		buf_puts(b, ",\"kind\":\"quickfix\",\"diagnostics\":[");
		lsp_put_diag(s, b, g, NULL);
		buf_puts(b, "],\"edit\":{\"changes\":{");
		json_put_str(b, d->uri, strlen(d->uri));
		/* an insertion at a byte offset: its line and column there */
		size_t len;
		const char *line = source_line(src, e[0].line, &len);
		uint32_t col = line ? (uint32_t)utf8_count(line, e[0].offset - (size_t)(line - src->text)) + 1 : 1;
		buf_puts(b, ":[{\"range\":");
		put_range(s, b, src, e[0].line, col, e[0].line, col);
		buf_puts(b, ",\"newText\":");
		json_put_str(b, e[0].text, strlen(e[0].text));
		buf_puts(b, "}]}}}");
	}
	noqa_edits_free(e, n);
}

/* Whether the client asked only for kinds of the source.fixAll family. */
static bool wants(const yamldoc *doc, yd_node params, const char *kind)
{
	yd_node only = json_get(doc, params, "context.only");
	if (!only || yd_kind(doc, only) != YD_SEQUENCE)
		return !strcmp(kind, "quickfix");
	for (size_t i = 0; i < yd_len(doc, only); i++) {
		size_t len;
		const char *k = yd_str(doc, yd_item(doc, only, i), &len);
		/* a kind asked for covers its sub-kinds: source covers
		 * source.fixAll.trainforge */
		if (k && !strncmp(kind, k, len) && (kind[len] == '\0' || kind[len] == '.'))
			return true;
	}
	return false;
}

/* The end of the text as an LSP position: its last line and the line's
 * length. */
static void text_end(const struct server *s, struct source *src, uint32_t *line, uint32_t *ch)
{
	uint32_t n = 1;
	const char *last = src->text;
	for (const char *p = src->text; (p = memchr(p, '\n', src->len - (size_t)(p - src->text))); p++) {
		n++;
		last = p + 1;
	}
	*line = n - 1;
	*ch = lsp_char(s, src, n, (uint32_t)utf8_count(last, src->len - (size_t)(last - src->text)) + 1);
}

/* source.fixAll.trainforge: the document with every safe fix, as one
 * edit of the whole text (nothing when there is nothing to fix). */
static void put_fix_all(const struct server *s, struct buf *b, const struct document *d,
			struct lsp_linted *l, struct source *src, bool *first)
{
	struct fix_result res;
	fix_run(&l->opt, &l->run, false, &res);
	for (size_t i = 0; i < res.len && res.converged; i++) {
		if (strcmp(res.v[i].path, src->path))
			continue;
		uint32_t end_line, end_ch;
		text_end(s, src, &end_line, &end_ch);
		if (!*first)
			buf_putc(b, ',');
		*first = false;
		buf_printf(b, "{\"title\":\"Fix all safe trainforge findings (%zu)\","
			      "\"kind\":\"source.fixAll.trainforge\",\"edit\":{\"changes\":{", res.v[i].fixes);
		json_put_str(b, d->uri, strlen(d->uri));
		buf_printf(b, ":[{\"range\":{\"start\":{\"line\":0,\"character\":0},"
			      "\"end\":{\"line\":%u,\"character\":%u}},\"newText\":", end_line, end_ch);
		json_put_str(b, res.v[i].after, res.v[i].after_len);
		buf_puts(b, "}]}}}");
	}
	fix_result_free(&res);
}

void lsp_code_action(struct server *s, const yamldoc *doc, yd_node id, yd_node params)
{
	const char *uri = json_str(doc, params, "textDocument.uri", NULL);
	struct document *d = uri ? lsp_find_doc(s, uri) : NULL;
	long long l0, c0, l1, c1;
	if (!uri || !position(doc, params, "range.start", &l0, &c0) ||
	    !position(doc, params, "range.end", &l1, &c1)) {
		lsp_reply_error(s, doc, id, E_PARAMS, "codeAction needs textDocument.uri and a range");
		return;
	}
	struct buf b = BUF_INIT;
	rpc_begin_response(&b, doc, id);
	buf_puts(&b, ",\"result\":[");
	struct trouble trouble = { 0 };
	if (d && d->len <= s->opt.max_bytes) {
		struct lsp_linted l;
		struct source *src = lsp_lint(s, d, &l, &trouble);
		bool first = true;
		bool quickfix = wants(doc, params, "quickfix");
		for (size_t i = 0; quickfix && i < l.run.diags.len; i++) {
			const struct diag *g = &l.run.diags.v[i];
			if (g->src != src || !in_range(g, l0, l1))
				continue;
			if (g->fix)
				put_action(s, &b, d, g, g->fix, g->fix_line, g->fix_col, g->fix_end_line,
					   g->fix_end_col, g->fix_safe, &first);
			if (g->alt)
				put_action(s, &b, d, g, g->alt->text, g->alt->line, g->alt->col,
					   g->alt->end_line, g->alt->end_col, false, &first);
			if (src->kind != KIND_UNKNOWN) { /* a directive is read in these */
				put_disable(s, &b, d, src, g, false, &first);
				put_disable(s, &b, d, src, g, true, &first);
			}
		}
		if (wants(doc, params, "source.fixAll.trainforge"))
			put_fix_all(s, &b, d, &l, src, &first);
		lsp_linted_free(&l);
	}
	buf_puts(&b, "]}");
	lsp_send(s, &b);
	lsp_log_trouble(s, &trouble);
	trouble_free(&trouble);
}
