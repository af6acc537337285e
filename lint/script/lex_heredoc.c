/* Here-documents, as bash 5.2 reads them: the delimiter is the word
 * with its quotes removed (the raw word when nothing in it is quoted),
 * the body is the lines after the newline that ends the line of the
 * operator, up to a line that is the delimiter (after leading tabs, for
 * <<-). With an unquoted delimiter a backslash-newline joins two body
 * lines before the comparison. A body that runs to the end of the file
 * is a warning in bash, not an error. At most 16 may wait for one
 * newline (bash's HEREDOC_MAX). */
#include "lex.h"

#include <string.h>

#include "buf.h"
#include "xalloc.h"

size_t lex_heredoc(struct lexer *lx, const sb_word *delim, bool strip, size_t op_off)
{
	struct sb_heredoc h = { 0 };
	/* until its body is read (a parse that stops first never reads it),
	 * the here-document sits at its operator */
	h.span = sbm_span(lx->m, op_off, op_off);
	h.strip_tabs = strip;
	h.quoted = (delim->flags & SB_W_QUOTED) != 0 ||
		   memchr(lx->s + delim->off, '\\', delim->end - delim->off) != NULL;
	struct buf b = BUF_INIT;
	const char *s = lx->s;
	if (h.quoted) {
		for (unsigned i = 0; i < delim->nparts; i++) {
			const struct wpart *p = &delim->parts[i];
			if (p->kind == WP_LIT)
				buf_put(&b, p->text, p->tlen);
			else
				buf_put(&b, s + p->off, p->end - p->off);
		}
	} else {
		for (size_t i = delim->off; i < delim->end; i++) {
			if (s[i] == '\\' && i + 1 < delim->end && s[i + 1] == '\n')
				i++;
			else
				buf_putc(&b, s[i]);
		}
	}
	h.delim = sbm_strndup(lx->m, b.p ? b.p : "", b.len);
	buf_free(&b);
	VEC_PUSH(lx->m->heredocs, h);
	size_t rec = lx->m->heredocs.len - 1;
	if (lx->st.nhd >= LEX_MAX_HEREDOCS) {
		lex_fail(lx, SB_PROB_LIMIT, op_off, op_off + 2,
			 "more than 16 here-documents wait for one newline (bash refuses the 17th)");
		return rec;
	}
	struct pending_heredoc p = { h.delim, strlen(h.delim), strip, h.quoted, rec, op_off };
	lx->hd.len = lx->st.hd_base + lx->st.nhd++;
	VEC_PUSH(lx->hd, p);
	return rec;
}

/* Does the body line [p, eol) close the here-document? With an unquoted
 * delimiter the line is read with its backslash-newlines joined: *next
 * is then past the last line joined. NUL bytes are not read at all. */
static bool closes(const struct lexer *lx, const struct pending_heredoc *h, size_t p,
		   size_t *eol, size_t *next)
{
	const char *s = lx->s;
	size_t e = p;
	bool pass = false;
	for (; e < lx->end && (s[e] != '\n' || pass); e++) {
		if (pass)
			pass = false;
		else if (!h->quoted && s[e] == '\\')
			pass = true;
	}
	*eol = e;
	*next = e < lx->end ? e + 1 : e;
	/* the line as bash compares it: joins and NULs left out */
	size_t k = 0, i = p;
	bool strip = h->strip, stripping = h->strip;
	for (int round = 0; round < 2; round++) {
		k = 0;
		i = p;
		stripping = round == 1 && strip;
		bool ok = true;
		for (; i < e; i++) {
			if (s[i] == '\0')
				continue;
			if (!h->quoted && s[i] == '\\' && i + 1 < e && s[i + 1] == '\n') {
				i++;
				continue;
			}
			if (stripping && s[i] == '\t')
				continue;
			stripping = false;
			if (k >= h->dlen || s[i] != h->delim[k]) {
				ok = false;
				break;
			}
			k++;
		}
		if (ok && k == h->dlen)
			return true;
		if (!strip)
			break;
	}
	return false;
}

size_t lex_read_heredocs(struct lexer *lx, size_t from)
{
	sb_model *m = lx->m;
	size_t p = from;
	for (unsigned k = 0; k < lx->st.nhd; k++) {
		const struct pending_heredoc *h = &lx->hd.v[lx->st.hd_base + k];
		struct sb_heredoc *rec = &m->heredocs.v[h->rec];
		size_t body = p;
		bool found = false;
		while (p < lx->end) {
			size_t eol, next;
			bool end = closes(lx, h, p, &eol, &next);
			if (!lx->env->in_string && !lx->quiet)
				for (size_t l = lex_line_of(lx, p), last = lex_line_of(lx, eol); l <= last; l++)
					sbm_mark_line(m, (uint32_t)l, SB_LINE_HEREDOC);
			p = next;
			if (end) {
				found = true;
				rec->span = sbm_span(m, body, eol);
				break;
			}
		}
		if (!found) {
			rec->span = sbm_span(m, body, lx->end);
			if (!lx->quiet)
				sbm_problem(m, SB_PROB_HEREDOC_UNTERMINATED, h->op_off, h->op_off + 2,
					    "here-document delimiter never found: the body runs to the end");
		}
		rec->terminated = found;
	}
	lx->st.nhd = 0;
	return p;
}

void lex_heredocs_now(struct lexer *lx)
{
	size_t from;
	if (lx->jump_from != SIZE_MAX) {
		from = lx->jump_to;
	} else {
		const char *nl = memchr(lx->s + lx->pos, '\n', lx->end - lx->pos);
		if (!nl) {
			lex_read_heredocs(lx, lx->end);
			return;
		}
		lx->jump_from = (size_t)(nl - lx->s);
		from = lx->jump_from + 1;
	}
	lx->jump_to = lex_read_heredocs(lx, from);
}
