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

enum { OPEN, CLOSED, CLOSED_BY_PAREN };

/* Does the body line [p, eol) close the here-document? With an unquoted
 * delimiter the line is read with its backslash-newlines joined: *next is
 * then past the last line joined. NUL bytes are not read at all. In a
 * $( ) a line that starts with the delimiter and holds a ) after it
 * closes it too (bash's backwards compatibility), and *rest is where the
 * rest of the line starts. */
static int closes(const struct lexer *lx, const struct pending_heredoc *h, size_t p,
		  size_t *eol, size_t *next, size_t *rest)
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
	bool paren = (lx->st.pst & PST_CMDSUBST) != 0;
	for (int round = 0; round < (h->strip ? 2 : 1); round++) {
		size_t k = 0, i = p;
		bool stripping = round == 1;
		for (; i < e && k < h->dlen; i++) {
			if (s[i] == '\0')
				continue;
			if (!h->quoted && s[i] == '\\' && i + 1 < e && s[i + 1] == '\n') {
				i++;
				continue;
			}
			if (stripping && s[i] == '\t')
				continue;
			stripping = false;
			if (s[i] != h->delim[k])
				break;
			k++;
		}
		if (k < h->dlen)
			continue;
		while (stripping && i < e && s[i] == '\t')
			i++;
		size_t tail = i;
		while (tail < e && s[tail] == '\0')
			tail++;
		if (tail == e)
			return CLOSED;
		if (paren && memchr(s + i, ')', e - i)) {
			*rest = i;
			return CLOSED_BY_PAREN;
		}
	}
	return OPEN;
}

size_t lex_read_heredocs(struct lexer *lx, size_t from, size_t *rest, size_t *rest_nl)
{
	sb_model *m = lx->m;
	size_t p = from;
	*rest = *rest_nl = SIZE_MAX;
	for (unsigned k = 0; k < lx->st.nhd; k++) {
		const struct pending_heredoc *h = &lx->hd.v[lx->st.hd_base + k];
		struct sb_heredoc *rec = &m->heredocs.v[h->rec];
		size_t body = p;
		bool found = false;
		while (p < lx->end) {
			size_t eol, next, r = SIZE_MAX;
			int end = closes(lx, h, p, &eol, &next, &r);
			if (!lx->env->in_string && !lx->quiet)
				for (size_t l = lex_line_of(lx, p), last = lex_line_of(lx, eol); l <= last; l++)
					sbm_mark_line(m, (uint32_t)l, SB_LINE_HEREDOC);
			p = next;
			if (end != OPEN) {
				found = true;
				rec->span = sbm_span(m, body, eol);
				if (end == CLOSED_BY_PAREN && *rest == SIZE_MAX) {
					*rest = r;
					*rest_nl = eol;
				}
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

static void add_jump(struct lexer *lx, size_t from, size_t to)
{
	if (from + 1 == to || lx->njumps >= sizeof lx->jumps / sizeof lx->jumps[0])
		return;
	lx->jumps[lx->njumps].from = from;
	lx->jumps[lx->njumps++].to = to;
}

/* The jump from the newline at q, taken; SIZE_MAX when there is none. */
static size_t take_jump(struct lexer *lx, size_t q)
{
	for (unsigned i = 0; i < lx->njumps; i++) {
		if (lx->jumps[i].from != q)
			continue;
		size_t to = lx->jumps[i].to;
		lx->jumps[i] = lx->jumps[--lx->njumps];
		lx->jumps_taken++;
		return to;
	}
	return SIZE_MAX;
}

size_t lex_after_newline(struct lexer *lx, size_t q)
{
	if (lx->njumps) {
		size_t to = take_jump(lx, q);
		if (to != SIZE_MAX)
			return to;
	}
	return q < lx->end ? q + 1 : q;
}

size_t lex_heredocs_now(struct lexer *lx)
{
	size_t cur = lx->pos, rest, rest_nl;
	const char *nl = memchr(lx->s + cur, '\n', lx->end - cur);
	if (!nl) {
		lex_read_heredocs(lx, lx->end, &rest, &rest_nl);
		return cur;
	}
	/* the bodies come after those an earlier $( ) of this line took */
	size_t f = (size_t)(nl - lx->s), start = take_jump(lx, f);
	if (start == SIZE_MAX)
		start = f + 1;
	size_t e = lex_read_heredocs(lx, start, &rest, &rest_nl);
	add_jump(lx, f, e);
	if (rest == SIZE_MAX)
		return cur;
	/* the rest of the delimiter line is read first, then this line's */
	add_jump(lx, rest_nl, cur);
	return rest;
}
