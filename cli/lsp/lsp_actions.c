/* textDocument/codeAction: every fix of the findings in the range asked
 * about, as a quick fix that carries the diagnostic it fixes, as
 * publishDiagnostics sent it. A finding's own fix (safe, or unsafe where
 * its rule's fix is) and the unsafe one beside a safe one (a look-alike
 * whose ASCII value is still wrong) are each an action; the safe one is
 * preferred. The document is linted again for the answer, so the edits
 * are on the text the client has. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "lsp.h"

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
	lsp_put_diag(s, b, g);
	buf_puts(b, "],\"edit\":{\"changes\":{");
	json_put_str(b, d->uri, strlen(d->uri));
	buf_puts(b, ":[{\"range\":");
	put_range(s, b, g->src, line, col, end_line, end_col);
	buf_puts(b, ",\"newText\":");
	json_put_str(b, text, strlen(text));
	buf_puts(b, "}]}}}");
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
		for (size_t i = 0; i < l.run.diags.len; i++) {
			const struct diag *g = &l.run.diags.v[i];
			if (g->src != src || !in_range(g, l0, l1))
				continue;
			if (g->fix)
				put_action(s, &b, d, g, g->fix, g->fix_line, g->fix_col, g->fix_end_line,
					   g->fix_end_col, g->fix_safe, &first);
			if (g->alt)
				put_action(s, &b, d, g, g->alt->text, g->alt->line, g->alt->col,
					   g->alt->end_line, g->alt->end_col, false, &first);
		}
		lsp_linted_free(&l);
	}
	buf_puts(&b, "]}");
	lsp_send(s, &b);
	lsp_log_trouble(s, &trouble);
	trouble_free(&trouble);
}
