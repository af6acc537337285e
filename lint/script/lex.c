/* Shell lexing for the batch-script model. Words keep their parts
 * (literal runs, $NAME, ${...}, $(...), quotes) with byte ranges, so that
 * later stages can slice "--nnodes=$N" at the '=' and still point at the
 * right columns. Nesting ($( ) inside " " inside ${ }) is followed with
 * an explicit stack bounded by the model's depth limit, never by
 * recursion. */
#include "lex.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xalloc.h"

void lex_init(struct lexer *lx, sb_model *m, size_t off, size_t end,
	      const struct parse_env *env)
{
	memset(lx, 0, sizeof *lx);
	lx->m = m;
	lx->s = m->text;
	lx->pos = off;
	lx->end = end;
	lx->env = env;
}

void lex_fini(struct lexer *lx)
{
	free(lx->tmp.v);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_meta(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' ||
	       c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
}

/* ---- words ---- */

static void backslash_space_fact(struct lexer *lx, size_t p)
{
	size_t q = p + 1;
	while (q < lx->end && is_blank(lx->s[q]))
		q++;
	if (q < lx->end && lx->s[q] != '\n' && lx->s[q] != '#')
		return;
	size_t eol = q;
	while (eol < lx->end && lx->s[eol] != '\n')
		eol++;
	struct sb_fact f = { 0 };
	f.kind = SB_FACT_BACKSLASH_SPACE;
	f.span = sbm_span(lx->m, p, lx->s[q] == '#' ? q : eol);
	VEC_PUSH(lx->m->facts, f);
}

/* Both look ahead a bounded distance, so a word of a million '['
 * stays linear. */
#define LOOKAHEAD 512

static bool glob_bracket(const struct lexer *lx, size_t p)
{
	for (size_t q = p + 1; q < lx->end && q - p < LOOKAHEAD && !is_meta(lx->s[q]); q++)
		if (lx->s[q] == ']')
			return q > p + 1;
	return false;
}

static bool brace_expansion(const struct lexer *lx, size_t p)
{
	for (size_t q = p + 1; q < lx->end && q - p < LOOKAHEAD && !is_meta(lx->s[q]); q++) {
		if (lx->s[q] == '}')
			return false;
		if (lx->s[q] == ',' || (lx->s[q] == '.' && q + 1 < lx->end && lx->s[q + 1] == '.'))
			return true;
	}
	return false;
}

static sb_word *make_word(struct lexer *lx, size_t off, size_t end, unsigned flags)
{
	sb_model *m = lx->m;
	sb_word *w = sbm_alloc(m, sizeof *w);
	w->m = m;
	w->off = off;
	w->end = end;
	w->flags = flags;
	w->nparts = (unsigned)lx->tmp.len;
	if (w->nparts) {
		w->parts = sbm_alloc(m, lx->tmp.len * sizeof *w->parts);
		memcpy(w->parts, lx->tmp.v, lx->tmp.len * sizeof *w->parts);
	}
	lx->tmp.len = 0;
	sbl_word_finish(m, w);
	if (++m->nwords > m->lim.max_words)
		lex_fail(lx, SB_PROB_LIMIT, off, end, "more words than the limit");
	return w;
}

/* Is the unquoted text [start, p) "NAME=", "NAME+=" or "NAME[...]="? */
static bool assign_prefix(const struct lexer *lx, size_t start, size_t p, struct array_lit *a)
{
	const char *s = lx->s;
	size_t i = start;
	if (p - start < 2 || s[p - 1] != '=' || !sb_is_name_start((unsigned char)s[i]))
		return false;
	while (i < p && sb_is_name_char((unsigned char)s[i]))
		i++;
	a->name_off = start;
	a->name_end = i;
	if (i < p && s[i] == '[') {
		const char *close = memchr(s + i, ']', p - i);
		if (!close)
			return false;
		a->subscript = true;
		i = (size_t)(close - s) + 1;
	}
	if (i < p && s[i] == '+') {
		a->append = true;
		i++;
	}
	return i + 1 == p;
}

static void lex_comment(struct lexer *lx);

/* NAME=( elements ) from p at '('. */
static void scan_array(struct lexer *lx, struct token *t, size_t start, size_t p,
		       struct array_lit *a)
{
	VEC(sb_word *) el = { 0 };
	lx->tmp.len = 0;
	a->name = sbm_strndup(lx->m, lx->s + a->name_off, a->name_end - a->name_off);
	p++;
	for (;;) {
		while (p < lx->end && (is_blank(lx->s[p]) || lx->s[p] == '\n' ||
				       (lx->s[p] == '\\' && p + 1 < lx->end && lx->s[p + 1] == '\n'))) {
			if (lx->s[p] == '\\') {
				if (!lx->env->in_string)
					lx->m->line_cont[lex_line_of(lx, p)] = 1;
				p++;
			}
			p++;
		}
		if (p >= lx->end) {
			lex_fail(lx, SB_PROB_SYNTAX, start, a->name_end + 1, "array ( without its closing )");
			break;
		}
		if (lx->s[p] == ')') {
			p++;
			break;
		}
		if (lx->s[p] == '#') {
			lx->pos = p;
			lex_comment(lx);
			p = lx->pos;
			continue;
		}
		struct token et;
		lx->pos = p;
		lx->in_array = true;
		lex_next(lx, &et, false);
		lx->in_array = false;
		if (et.kind != TK_WORD || lx->failed) {
			if (!lx->failed)
				lex_fail(lx, SB_PROB_SYNTAX, et.off, et.end, "unexpected token in an array");
			break;
		}
		VEC_PUSH(el, et.word);
		p = lx->pos;
	}
	a->n = el.len;
	if (el.len) {
		a->elems = sbm_alloc(lx->m, el.len * sizeof *a->elems);
		memcpy(a->elems, el.v, el.len * sizeof *a->elems);
	}
	free(el.v);
	t->kind = TK_ARRAY;
	t->arr = a;
	t->off = start;
	t->end = p;
	lx->pos = p;
}

enum scan_mode { SCAN_NORMAL, SCAN_COND, SCAN_ALL };

static void scan_word(struct lexer *lx, struct token *t, enum scan_mode mode)
{
	bool cond = mode != SCAN_NORMAL, all = mode == SCAN_ALL;
	const char *s = lx->s;
	size_t start = lx->pos, p = start, run = start, no_close = 0;
	unsigned flags = 0;
	lx->tmp.len = 0;
#define FLUSH()                                    \
	do {                                       \
		if (p > run)                       \
			lex_add_lit(lx, 0, run, p);    \
	} while (0)
	while (p < lx->end && !lx->failed) {
		char c = s[p];
		if (!all && (c == ' ' || c == '\t' || c == '\n'))
			break;
		/* Arrays do not nest, so an element never opens another. */
		if (c == '(' && !cond && !lx->in_array && lx->tmp.len == 0) {
			struct array_lit a = { 0 };
			if (assign_prefix(lx, run, p, &a)) {
				struct array_lit *arr = sbm_alloc(lx->m, sizeof *arr);
				*arr = a;
				scan_array(lx, t, start, p, arr);
				return;
			}
		}
		if (!cond && is_meta(c))
			break;
		switch (c) {
		case '\\':
			if (p + 1 < lx->end && s[p + 1] == '\n') {
				if (!lx->env->in_string)
					lx->m->line_cont[lex_line_of(lx, p)] = 1;
			} else if (p + 1 < lx->end && is_blank(s[p + 1])) {
				backslash_space_fact(lx, p);
			}
			p = p + 2 <= lx->end ? p + 2 : lx->end;
			continue;
		case '\'': {
			FLUSH();
			size_t e = lex_skip_single(lx, p + 1);
			flags |= SB_W_QUOTED;
			if (e == SIZE_MAX) {
				lex_fail(lx, SB_PROB_UNTERMINATED_QUOTE, p, p + 1, "' without its closing '");
				lex_add_lit(lx, '\'', p + 1, lx->end);
				p = run = lx->end;
				continue;
			}
			lex_add_lit(lx, '\'', p + 1, e - 1);
			lex_mark_string_lines(lx, p, e);
			p = run = e;
			continue;
		}
		case '"':
			FLUSH();
			flags |= SB_W_QUOTED;
			p = run = lex_scan_dquote(lx, p, p + 1);
			continue;
		case '$':
			FLUSH();
			if (p + 1 < lx->end && s[p + 1] == '\'') {
				size_t e = lex_skip_ansi(lx, p + 2);
				flags |= SB_W_QUOTED;
				if (e == SIZE_MAX) {
					lex_fail(lx, SB_PROB_UNTERMINATED_QUOTE, p, p + 2, "$' without its closing '");
					lex_add_lit(lx, '$', p + 2, lx->end);
					p = run = lx->end;
					continue;
				}
				lex_add_lit(lx, '$', p + 2, e - 1);
				lex_mark_string_lines(lx, p, e);
				p = run = e;
			} else if (p + 1 < lx->end && s[p + 1] == '"') {
				flags |= SB_W_QUOTED;
				p = run = lex_scan_dquote(lx, p + 1, p + 2);
			} else {
				p = run = lex_scan_dollar(lx, p, 0);
			}
			continue;
		case '`':
			FLUSH();
			p = run = lex_scan_backtick(lx, p, 0);
			continue;
		case '~':
			if (p == start) {
				size_t e = p + 1;
				while (e < lx->end && (sb_is_name_char((unsigned char)s[e]) || s[e] == '+' || s[e] == '-'))
					e++;
				lex_add_part(lx, WP_TILDE, 0, p, e);
				p = run = e;
				continue;
			}
			break;
		case '*':
		case '?':
			flags |= SB_W_GLOB;
			break;
		case '[':
			if (!cond && !(flags & SB_W_GLOB) && p >= no_close) {
				if (glob_bracket(lx, p))
					flags |= SB_W_GLOB;
				else
					no_close = p + LOOKAHEAD; /* no ']' that near */
			}
			break;
		case '{':
			if (!(flags & SB_W_BRACE) && brace_expansion(lx, p))
				flags |= SB_W_BRACE;
			break;
		default:
			break;
		}
		p++;
	}
	FLUSH();
#undef FLUSH
	if (p == start && p < lx->end) { /* a lone metacharacter we do not handle: skip it */
		p = start + 1;
		lex_add_lit(lx, 0, start, p);
	}
	t->kind = TK_WORD;
	t->off = start;
	t->end = p;
	lx->pos = p;
	t->word = make_word(lx, start, p, flags);
}

/* ---- comments and here-documents ---- */

static void lex_comment(struct lexer *lx)
{
	size_t p = lx->pos, e = p;
	while (e < lx->end && lx->s[e] != '\n')
		e++;
	lx->pos = e;
	if (lx->env->in_string)
		return;
	sb_model *m = lx->m;
	size_t ls = p;
	while (ls > 0 && m->text[ls - 1] != '\n')
		ls--;
	bool own = true;
	for (size_t i = ls; i < p; i++)
		if (!is_blank(m->text[i]))
			own = false;
	struct sb_comment c;
	c.span = sbm_span(m, p, e);
	c.text = sbm_strndup(m, m->text + p, e - p);
	c.own_line = own;
	VEC_PUSH(m->comments, c);
	if (own)
		sbm_mark_line(m, c.span.line, SB_LINE_COMMENT);
}

size_t lex_heredoc(struct lexer *lx, const sb_word *delim, bool strip, size_t op_off)
{
	struct sb_heredoc h = { 0 };
	/* until its body is read (a parse that stops first never reads it),
	 * the here-document sits at its operator */
	h.span = sbm_span(lx->m, op_off, op_off);
	h.strip_tabs = strip;
	h.quoted = (delim->flags & SB_W_QUOTED) != 0;
	/* The delimiter is the word with quotes removed; bash expands
	 * nothing in it. */
	struct buf b = BUF_INIT;
	for (unsigned i = 0; i < delim->nparts; i++) {
		const struct wpart *p = &delim->parts[i];
		if (p->kind == WP_LIT)
			buf_put(&b, p->text, p->tlen);
		else
			buf_put(&b, lx->s + p->off, p->end - p->off);
	}
	h.delim = sbm_strndup(lx->m, b.p ? b.p : "", b.len);
	buf_free(&b);
	VEC_PUSH(lx->m->heredocs, h);
	size_t rec = lx->m->heredocs.len - 1;
	if (lx->nhd < LEX_MAX_HEREDOCS) {
		lx->hd[lx->nhd].delim = h.delim;
		lx->hd[lx->nhd].dlen = strlen(h.delim);
		lx->hd[lx->nhd].strip = strip;
		lx->hd[lx->nhd].rec = rec;
		lx->hd[lx->nhd].op_off = op_off;
		lx->nhd++;
	} else {
		lex_fail(lx, SB_PROB_LIMIT, op_off, op_off + 2, "too many here-documents on one line");
	}
	return rec;
}

/* Reads the pending here-document bodies from lx->pos (a line start). */
static void read_heredocs(struct lexer *lx)
{
	sb_model *m = lx->m;
	for (unsigned k = 0; k < lx->nhd; k++) {
		struct sb_heredoc *h = &m->heredocs.v[lx->hd[k].rec];
		size_t body = lx->pos, p = body;
		bool found = false;
		while (p < lx->end) {
			size_t eol = p;
			while (eol < lx->end && lx->s[eol] != '\n')
				eol++;
			size_t t = p;
			if (lx->hd[k].strip)
				while (t < eol && lx->s[t] == '\t')
					t++;
			bool match = eol - t == lx->hd[k].dlen &&
				     memcmp(lx->s + t, lx->hd[k].delim, lx->hd[k].dlen) == 0;
			size_t next = eol < lx->end ? eol + 1 : eol;
			if (!lx->env->in_string)
				sbm_mark_line(m, lex_line_of(lx, p), SB_LINE_HEREDOC);
			p = next;
			if (match) {
				found = true;
				h->span = sbm_span(m, body, eol);
				break;
			}
		}
		if (!found) {
			h->span = sbm_span(m, body, lx->end);
			sbm_problem(m, SB_PROB_HEREDOC_UNTERMINATED, lx->hd[k].op_off,
				    lx->hd[k].op_off + 2,
				    "here-document delimiter never found: the body runs to the end");
		}
		h->terminated = found;
		lx->pos = p;
	}
	lx->nhd = 0;
}

/* ---- tokens ---- */

static void op_token(struct lexer *lx, struct token *t, enum op op, size_t len)
{
	t->kind = TK_OP;
	t->op = op;
	t->off = lx->pos;
	t->end = lx->pos + len;
	lx->pos += len;
}

static bool starts(const struct lexer *lx, const char *lit)
{
	size_t n = strlen(lit);
	return lx->end - lx->pos >= n && memcmp(lx->s + lx->pos, lit, n) == 0;
}

static bool redirection(struct lexer *lx, struct token *t)
{
	static const struct { const char *text; enum op op; } ops[] = {
		{ "<<<", OP_HERESTRING }, { "<<-", OP_HEREDOC_STRIP }, { "<<", OP_HEREDOC },
		{ "&>>", OP_REDIR }, { "&>", OP_REDIR }, { ">>", OP_REDIR }, { ">&", OP_REDIR },
		{ "<&", OP_REDIR }, { ">|", OP_REDIR }, { "<>", OP_REDIR }, { ">", OP_REDIR },
		{ "<", OP_REDIR },
	};
	size_t save = lx->pos;
	while (lx->pos < lx->end && lx->s[lx->pos] >= '0' && lx->s[lx->pos] <= '9')
		lx->pos++;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (starts(lx, ops[i].text)) {
			if (lx->pos > save && ops[i].text[0] == '&')
				break;
			size_t len = strlen(ops[i].text);
			t->kind = TK_OP;
			t->op = ops[i].op;
			t->off = save;
			t->end = lx->pos + len;
			lx->pos += len;
			return true;
		}
	}
	lx->pos = save;
	return false;
}

void lex_next(struct lexer *lx, struct token *t, bool cond)
{
	memset(t, 0, sizeof *t);
	for (;;) {
		while (lx->pos < lx->end) {
			char c = lx->s[lx->pos];
			if (is_blank(c) || (cond && c == '\n')) {
				lx->pos++;
			} else if (c == '\\' && lx->pos + 1 < lx->end && lx->s[lx->pos + 1] == '\n') {
				if (!lx->env->in_string)
					lx->m->line_cont[lex_line_of(lx, lx->pos)] = 1;
				lx->pos += 2;
			} else {
				break;
			}
		}
		if (lx->failed || lx->pos >= lx->end) {
			if (lx->nhd)
				read_heredocs(lx);
			t->kind = TK_EOF;
			t->off = t->end = lx->pos;
			return;
		}
		if (lx->s[lx->pos] != '#')
			break;
		lex_comment(lx);
	}
	char c = lx->s[lx->pos];
	if (!lx->env->in_string && c != '\n')
		sbm_mark_line(lx->m, lex_line_of(lx, lx->pos), SB_LINE_CODE);
	if (cond) {
		scan_word(lx, t, SCAN_COND);
		return;
	}
	if (c == '\n') {
		op_token(lx, t, OP_NONE, 1);
		t->kind = TK_NEWLINE;
		if (lx->nhd)
			read_heredocs(lx);
		return;
	}
	if ((c == '<' || c == '>') && lx->pos + 1 < lx->end && lx->s[lx->pos + 1] == '(') {
		size_t start = lx->pos, e = lex_skip_balanced(lx, start + 2, SK_PAREN);
		if (e == SIZE_MAX) {
			lex_fail(lx, SB_PROB_UNTERMINATED_EXPANSION, start, start + 2, "<( without its closing )");
			e = lx->end;
		}
		lx->tmp.len = 0;
		struct wpart *w = lex_add_part(lx, WP_PROCSUB, 0, start, e);
		w->in_off = start + 2, w->in_end = e > start + 2 ? e - 1 : e;
		lx->pos = e;
		t->kind = TK_WORD;
		t->off = start;
		t->end = e;
		t->word = make_word(lx, start, e, 0);
		return;
	}
	if ((c >= '0' && c <= '9') || c == '<' || c == '>' || (c == '&' && starts(lx, "&>")))
		if (redirection(lx, t))
			return;
	switch (c) {
	case ';':
		if (starts(lx, ";;&"))
			op_token(lx, t, OP_DSEMI_AMP, 3);
		else if (starts(lx, ";;"))
			op_token(lx, t, OP_DSEMI, 2);
		else if (starts(lx, ";&"))
			op_token(lx, t, OP_SEMI_AMP, 2);
		else
			op_token(lx, t, OP_SEMI, 1);
		return;
	case '&':
		op_token(lx, t, starts(lx, "&&") ? OP_AND : OP_AMP, starts(lx, "&&") ? 2 : 1);
		return;
	case '|':
		if (starts(lx, "||"))
			op_token(lx, t, OP_OR, 2);
		else if (starts(lx, "|&"))
			op_token(lx, t, OP_PIPE_AMP, 2);
		else
			op_token(lx, t, OP_PIPE, 1);
		return;
	case '(':
		op_token(lx, t, OP_LPAREN, 1);
		return;
	case ')':
		op_token(lx, t, OP_RPAREN, 1);
		return;
	default:
		scan_word(lx, t, SCAN_NORMAL);
	}
}

sb_word *lex_word_all(struct lexer *lx, bool in_dquote)
{
	struct token t;
	size_t start = lx->pos;
	if (!in_dquote) {
		scan_word(lx, &t, SCAN_ALL);
		return t.word;
	}
	lx->tmp.len = 0;
	lex_scan_dq_body(lx, start, start, false);
	return make_word(lx, start, lx->end, SB_W_QUOTED);
}

bool lex_arith_cmd(struct lexer *lx, struct token *t)
{
	size_t save = lx->pos;
	while (lx->pos < lx->end && is_blank(lx->s[lx->pos]))
		lx->pos++;
	if (!starts(lx, "((")) {
		lx->pos = save;
		return false;
	}
	size_t start = lx->pos, e = lex_skip_balanced(lx, start + 2, SK_ARITH);
	if (e == SIZE_MAX || lx->s[e - 1] != ')' || lx->s[e - 2] != ')') {
		/* "( (cmd) )": a subshell in a subshell, not arithmetic. */
		lx->pos = save;
		return false;
	}
	if (!lx->env->in_string)
		sbm_mark_line(lx->m, lex_line_of(lx, start), SB_LINE_CODE);
	memset(t, 0, sizeof *t);
	t->kind = TK_ARITH;
	t->off = start;
	t->end = e;
	lx->tmp.len = 0;
	struct wpart *w = lex_add_part(lx, WP_ARITH, 0, start, e);
	w->in_off = start + 2, w->in_end = e - 2;
	t->word = make_word(lx, start, e, 0);
	lx->pos = e;
	return true;
}
