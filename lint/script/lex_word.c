/* Where a shell word ends, as bash 5.2's read_token_word decides it,
 * with the word's parts: literal runs, quoted strings, $NAME, ${ }, $( ),
 * $(( )), backquotes, <( ), array subscripts and NAME=( ... ). Quoted
 * and bracketed constructs end where lex_pair.c says. */
#include "lex.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* bash's shellbreak: the characters that end an unquoted word. */
static bool is_break(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' ||
	       c == '(' || c == ')' || c == '<' || c == '>';
}

size_t lex_skip_joins_at(struct lexer *lx, size_t p)
{
	while (p + 1 < lx->end && lx->s[p] == '\\' && lx->s[p + 1] == '\n') {
		if (!lx->env->in_string)
			lx->m->line_cont[lex_line_of(lx, p)] = 1;
		p = lex_after_newline(lx, p + 1);
	}
	return p;
}

/* ---- parts of a word ---- */

/* Both look ahead a bounded distance, so a word of a million '['
 * stays linear. */
#define LOOKAHEAD 512

static bool glob_bracket(const struct lexer *lx, size_t p)
{
	for (size_t q = p + 1; q < lx->end && q - p < LOOKAHEAD && !is_break(lx->s[q]); q++)
		if (lx->s[q] == ']')
			return q > p + 1;
	return false;
}

static bool brace_expansion(const struct lexer *lx, size_t p)
{
	for (size_t q = p + 1; q < lx->end && q - p < LOOKAHEAD && !is_break(lx->s[q]); q++) {
		if (lx->s[q] == '}')
			return false;
		if (lx->s[q] == ',' || (lx->s[q] == '.' && q + 1 < lx->end && lx->s[q + 1] == '.'))
			return true;
	}
	return false;
}

/* $NAME, $1, $@ ... at p (the '$'): a part, and the position after it;
 * p + 1 with no part when the '$' is literal. */
static size_t simple_param(struct lexer *lx, size_t p, char quote)
{
	const char *s = lx->s;
	size_t q = p + 1;
	if (q < lx->end && text_is_name_start((unsigned char)s[q])) {
		size_t e = q;
		while (e < lx->end && text_is_name_char((unsigned char)s[e]))
			e++;
		struct wpart *w = lex_add_part(lx, WP_PARAM, quote, p, e);
		w->text = sbm_strndup(lx->m, s + q, e - q);
		w->tlen = e - q;
		return e;
	}
	if (q < lx->end && ((s[q] >= '0' && s[q] <= '9') || strchr("@*#?$!-", s[q]))) {
		struct wpart *w = lex_add_part(lx, WP_SPECIAL, quote, p, q + 1);
		w->text = sbm_strndup(lx->m, s + q, 1);
		w->tlen = 1;
		return q + 1;
	}
	lex_add_lit(lx, quote, p, q);
	return q;
}

/* A $ construct at p inside or outside double quotes: ${ }, $( ),
 * $(( )), $[ ]; SIZE_MAX on failure, p when it is none of these. */
static size_t dollar_construct(struct lexer *lx, size_t p, char quote, unsigned rflags)
{
	size_t q;
	int c = lex_peek(lx, p + 1, &q);
	size_t e;
	if (c == '{') {
		e = lex_matched(lx, p, q, '{', '}', MP_FIRSTCLOSE | MP_DOLBRACE | rflags, 0);
		if (e != SIZE_MAX)
			lex_add_brace(lx, p, q, e - 1, quote);
		return e;
	}
	if (c == '[') {
		e = lex_matched(lx, p, q, '[', ']', MP_ARITH | rflags, 0);
		if (e != SIZE_MAX) {
			struct wpart *w = lex_add_part(lx, WP_ARITH, quote, p, e);
			w->in_off = q, w->in_end = e - 1;
		}
		return e;
	}
	if (c != '(')
		return p;
	size_t r;
	bool arith = lex_peek(lx, q, &r) == '(';
	bool in_dquote = quote == '"' || (rflags & MP_DQUOTE);
	e = lex_comsub(lx, p, q, in_dquote ? COMSUB_IN_DQUOTE : COMSUB_IN_WORD);
	if (e == SIZE_MAX)
		return e;
	struct wpart *w = lex_add_part(lx, arith ? WP_ARITH : WP_CMDSUB, quote, p, e);
	w->in_off = arith ? r : q;
	w->in_end = arith && e - 2 >= r && lx->s[e - 2] == ')' ? e - 2 : e - 1;
	return e;
}

static size_t backquote(struct lexer *lx, size_t p, char quote)
{
	size_t e = lex_matched(lx, p, p + 1, '`', '`', quote == '"' ? MP_DQUOTE : 0, '`');
	if (e == SIZE_MAX)
		return e;
	struct wpart *w = lex_add_part(lx, WP_BACKTICK, quote, p, e);
	w->in_off = p + 1, w->in_end = e - 1;
	lex_mark_string_lines(lx, p, e);
	return e;
}

/* A string's text ran to here and goes on at next: past a here-document's
 * body that a $( ) earlier on the line took (forward), or back to the
 * rest of that line once the body ended on the delimiter line (lex_heredoc.c).
 * The text so far is a part of its own; returns where the next one starts. */
static size_t text_goes_on(struct lexer *lx, unsigned jumps, size_t run, size_t here, size_t next)
{
	if (lx->jumps_taken == jumps)
		return run; /* contiguous */
	if (here > run)
		lex_add_lit(lx, '"', run, here);
	return next;
}

/* "..." from the quote at open; parts with quote '"'. */
static size_t dquote(struct lexer *lx, size_t open)
{
	if (!lex_enter(lx, open))
		return SIZE_MAX;
	size_t p = open + 1, run = p, parts = lx->tmp.len;
	for (;;) {
		size_t was = p;
		unsigned jumps = lx->jumps_taken;
		p = lex_skip_joins(lx, p);
		run = text_goes_on(lx, jumps, run, was, p);
		if (p >= lx->end) {
			lex_eof_in(lx, open, 1, '"');
			p = SIZE_MAX;
			break;
		}
		char c = lx->s[p];
		if (c == '"') {
			if (p > run || lx->tmp.len == parts)
				lex_add_lit(lx, '"', run, p);
			lex_mark_string_lines(lx, open, p);
			p++;
			break;
		}
		if (c == '\\') {
			p += p + 1 < lx->end ? 2 : 1;
			continue;
		}
		if (c != '$' && c != '`') {
			unsigned jumps = lx->jumps_taken;
			size_t next = c == '\n' ? lex_after_newline(lx, p) : p + 1;
			run = text_goes_on(lx, jumps, run, p + 1, next);
			p = next;
			continue;
		}
		if (p > run)
			lex_add_lit(lx, '"', run, p);
		size_t e = c == '`' ? backquote(lx, p, '"') : dollar_construct(lx, p, '"', MP_DQUOTE);
		if (e == p)
			e = simple_param(lx, p, '"');
		if (e == SIZE_MAX) {
			p = SIZE_MAX;
			break;
		}
		p = run = e;
	}
	lex_leave(lx);
	return p;
}

/* {{ ... }}, {% ... %} or {# ... #} at p in a template: the position
 * after its closer, or p when there is none on the line. */
SB_COLD static size_t template_tag(const struct lexer *lx, size_t p)
{
	if (p + 1 >= lx->end || lx->s[p] != '{' || !strchr("{%#", lx->s[p + 1]))
		return p;
	char close = lx->s[p + 1] == '{' ? '}' : lx->s[p + 1];
	for (size_t q = p + 2; q + 1 < lx->end && lx->s[q] != '\n'; q++)
		if (lx->s[q] == close && lx->s[q + 1] == '}')
			return q + 2;
	return p;
}

/* A backslash followed by blanks at the end of a line (or before a
 * comment) escapes a blank: the line does not continue. */
SB_COLD static void backslash_space(struct lexer *lx, size_t p)
{
	if (lx->env->in_string || lx->quiet)
		return;
	size_t q = p + 1;
	while (q < lx->end && (lx->s[q] == ' ' || lx->s[q] == '\t'))
		q++;
	if (q < lx->end && lx->s[q] != '\n' && lx->s[q] != '#')
		return;
	size_t eol = q;
	while (eol < lx->end && lx->s[eol] != '\n')
		eol++;
	struct sb_fact f = { 0 };
	f.kind = SB_FACT_BACKSLASH_SPACE;
	f.span = sbm_span(lx->m, p, q < lx->end && lx->s[q] == '#' ? q : eol);
	VEC_PUSH(lx->m->facts, f);
}

/* ---- compound assignment ---- */

SB_COLD static size_t compound_assignment(struct lexer *lx, size_t word, size_t eq, size_t p,
					  struct token *t)
{
	struct array_lit *a = sbm_alloc(lx->m, sizeof *a);
	const char *s = lx->s;
	size_t i = word;
	while (i < eq && text_is_name_char((unsigned char)s[i]))
		i++;
	a->name_off = word;
	a->name_end = i;
	a->name = sbm_strndup(lx->m, s + word, i - word);
	a->subscript = i < eq && s[i] == '[';
	a->append = s[eq - 1] == '+';
	struct lex_state saved = lx->st;
	lx->st.last = T_WORD;
	lx->st.pst = (lx->st.pst & ~(unsigned)(PST_CONDEXPR | PST_REGEXP | PST_EXTPAT)) | PST_COMPASSIGN;
	lx->st.expecting_in = lx->st.esacs_needed = 0;
	VEC(sb_word *) el = { 0 };
	lx->pos = p;
	bool entered = lex_enter(lx, eq), ok = entered;
	while (ok) {
		struct token e;
		lex_read(lx, &e);
		if (e.kind == T_RPAREN)
			break;
		if (e.kind == T_NEWLINE)
			continue;
		if (e.kind == T_WORD || e.kind == T_ASSIGN) {
			VEC_PUSH(el, e.word);
			continue;
		}
		if (e.kind == T_EOF)
			lex_fail(lx, SB_PROB_SYNTAX, word, eq + 2, "array ( without its closing )");
		else if (e.kind != T_ERROR)
			lex_fail(lx, SB_PROB_SYNTAX, e.off, e.end, "unexpected token in an array");
		ok = false;
	}
	if (entered)
		lex_leave(lx);
	/* bash restores its whole state, even here-documents a newline
	 * inside gathered (it reads them again) */
	lx->st = saved;
	a->n = el.len;
	if (el.len) {
		a->elems = sbm_alloc(lx->m, el.len * sizeof *a->elems);
		memcpy(a->elems, el.v, el.len * sizeof *a->elems);
	}
	free(el.v);
	t->arr = a;
	return ok ? lx->pos : SIZE_MAX;
}

size_t lex_assignment_left(const char *s, size_t a, size_t b, bool compassign)
{
	size_t i = a;
	if (compassign) {
		/* inside an array only [key]=value is one */
		if (i >= b || s[i] != '[')
			return SIZE_MAX;
	} else {
		if (i >= b || !text_is_name_start((unsigned char)s[i]))
			return SIZE_MAX;
		while (i < b && text_is_name_char((unsigned char)s[i]))
			i++;
	}
	if (i < b && s[i] == '[') {
		unsigned d = 0;
		for (; i < b; i++) {
			d += s[i] == '[';
			if (s[i] == ']' && !--d)
				break;
		}
		if (i >= b)
			return SIZE_MAX;
		i++;
	}
	if (i < b && s[i] == '+')
		i++;
	return i;
}

/* Is [a, b) a name, NAME[...] or either followed by +: the left side
 * of an assignment? */
static bool assignment_left(const char *s, size_t a, size_t b, bool compassign)
{
	return lex_assignment_left(s, a, b, compassign) == b;
}

static bool all_name(const char *s, size_t a, size_t b)
{
	if (a >= b || !text_is_name_start((unsigned char)s[a]))
		return false;
	for (size_t i = a; i < b; i++)
		if (!text_is_name_char((unsigned char)s[i]))
			return false;
	return true;
}

/* ---- the word ---- */

struct wscan {
	size_t start, p, run;
	unsigned flags;
	bool quoted, dollar, digits;
};

static void flush(struct lexer *lx, struct wscan *w)
{
	if (w->p > w->run)
		lex_add_lit(lx, 0, w->run, w->p);
}

/* '...', "..." or `...` at p, with their parts: the position after. */
static size_t quote_run(struct lexer *lx, struct wscan *w, size_t p)
{
	char c = lx->s[p];
	size_t e;
	if (c == '\'') {
		e = lex_matched(lx, p, p + 1, '\'', '\'', 0, '\'');
		if (e != SIZE_MAX) {
			lex_add_lit(lx, '\'', p + 1, e - 1);
			lex_mark_string_lines(lx, p, e);
		}
	} else {
		e = c == '"' ? dquote(lx, p) : backquote(lx, p, 0);
	}
	w->quoted |= c != '`';
	w->dollar |= c == '"' && e != SIZE_MAX && e > p && memchr(lx->s + p, '$', e - p);
	return e;
}

/* What starts with $, < or > at p: $'...', $"...", ${ }, $( ), $(( )),
 * $[ ], <( ), >( ), $NAME. p when it is none of these (a < or > that
 * ends the word). */
static size_t dollar_or_procsub(struct lexer *lx, struct wscan *w, size_t p)
{
	char c = lx->s[p];
	size_t q, e = p;
	int n = lex_peek(lx, p + 1, &q);
	if (c != '$' && n != '(')
		return p;
	flush(lx, w);
	w->dollar = true;
	if (c == '$' && n == '\'') {
		e = lex_matched(lx, p, q, '\'', '\'', MP_ALLOWESC, '\'');
		if (e != SIZE_MAX) {
			lex_add_lit(lx, '$', q, e - 1);
			lex_mark_string_lines(lx, p, e);
		}
		w->quoted = true;
	} else if (c == '$' && n == '"') {
		e = dquote(lx, q - 1);
		w->quoted = true;
	} else if (c == '$' && (n == '(' || n == '{' || n == '[')) {
		e = dollar_construct(lx, p, 0, 0);
	} else if (n == '(') {
		e = lex_comsub(lx, p, q, COMSUB_IN_WORD);
		if (e != SIZE_MAX) {
			struct wpart *pp = lex_add_part(lx, WP_PROCSUB, 0, p, e);
			pp->in_off = q, pp->in_end = e - 1;
		}
	} else {
		e = simple_param(lx, p, 0);
	}
	return e;
}

/* One quoted, expanded or bracketed construct at w->p; false when w->p
 * holds none (an ordinary character), and w->p is SIZE_MAX on failure. */
static bool construct(struct lexer *lx, struct wscan *w, struct token *t)
{
	const char *s = lx->s;
	size_t p = w->p, e = p, q;
	char c = s[p];
	unsigned pst = lx->st.pst;
	if (c == '\'' || c == '"' || c == '`') {
		flush(lx, w);
		e = quote_run(lx, w, p);
	} else if ((pst & PST_REGEXP) && c == '(') {
		e = lex_matched(lx, p, p + 1, '(', ')', 0, 0);
	} else if ((pst & PST_EXTPAT) && strchr("@*+?!", c) && lex_peek(lx, p + 1, &q) == '(') {
		e = lex_matched(lx, p, q, '(', ')', 0, 0);
		w->flags |= SB_W_GLOB;
	} else if (c == '$' || c == '<' || c == '>') {
		if ((e = dollar_or_procsub(lx, w, p)) == p)
			return false;
	} else if (c == '[' && ((p > w->start && lex_assign_ok(lx) && all_name(s, w->start, p)) ||
				(p == w->start && (pst & PST_COMPASSIGN)))) {
		e = lex_matched(lx, p, p + 1, '[', ']', MP_ARRAYSUB, 0);
	} else if (c == '=' && p > w->start && (lex_assign_ok(lx) || (pst & PST_ASSIGNOK)) &&
		   assignment_left(s, w->start, p, pst & PST_COMPASSIGN) && lex_peek(lx, p + 1, &q) == '(') {
		flush(lx, w);
		lex_add_lit(lx, 0, p, p + 1);
		e = compound_assignment(lx, w->start, p, q, t);
	} else if (lx->templates && c == '{' && (e = template_tag(lx, p)) != p) {
		flush(lx, w);
		lex_add_part(lx, WP_TEMPLATE, 0, p, e);
	} else {
		return false;
	}
	w->digits = false;
	w->p = e;
	if (e != SIZE_MAX)
		w->run = e;
	return true;
}

/* bash 5.2 reads an array's words inside $( ) or <( ) with a backslash
 * that escapes only what it escapes inside the innermost delimiter (lex.h,
 * PST_BS_NONE): `$(a=(\'))` opens a quote and `$(a=(x\))` closes the
 * array. So `bash -n` judges; the command, read again when it runs,
 * fails where the two readings differ. */
static bool literal_backslash(unsigned pst, char next)
{
	if (!(pst & PST_COMPASSIGN))
		return false;
	if (pst & PST_BS_NONE)
		return true;
	return (pst & PST_BS_DQUOTE) && (!next || !strchr("$`\"\\\n", next));
}

bool lex_scan_word(struct lexer *lx, struct token *t, bool *quoted, bool *dollar, bool *digits)
{
	const char *s = lx->s;
	size_t base = lx->tmp.len;
	struct wscan w = { lx->pos, lx->pos, lx->pos, 0, false, false, true };
	if (!lex_enter(lx, w.start))
		return false;
	for (;;) {
		w.p = lex_skip_joins(lx, w.p);
		if (w.p >= lx->end)
			break;
		char c = s[w.p];
		if (c == '\\') {
			char next = w.p + 1 < lx->end ? s[w.p + 1] : 0;
			if (literal_backslash(lx->st.pst, next)) {
				w.p++;
				w.digits = false;
				continue;
			}
			if (next == ' ' || next == '\t')
				backslash_space(lx, w.p);
			w.p += w.p + 1 < lx->end ? 2 : 1;
			w.quoted = true;
			w.digits = false;
			continue;
		}
		if ((lx->st.pst & PST_REGEXP) && c == '|') {
			w.p++;
			continue;
		}
		if (construct(lx, &w, t)) {
			if (w.p == SIZE_MAX)
				break;
			continue;
		}
		if (is_break(c))
			break;
		if (c == '~' && w.p == w.start) {
			size_t e = w.p + 1;
			while (e < lx->end && (text_is_name_char((unsigned char)s[e]) || s[e] == '+' || s[e] == '-'))
				e++;
			lex_add_part(lx, WP_TILDE, 0, w.p, e);
			w.p = w.run = e;
			w.digits = false;
			continue;
		}
		if (c == '*' || c == '?')
			w.flags |= SB_W_GLOB;
		else if (c == '[' && !(w.flags & SB_W_GLOB) && glob_bracket(lx, w.p))
			w.flags |= SB_W_GLOB;
		else if (c == '{' && !(w.flags & SB_W_BRACE) && brace_expansion(lx, w.p))
			w.flags |= SB_W_BRACE;
		w.digits &= c >= '0' && c <= '9';
		w.p++;
	}
	lex_leave(lx);
	if (w.p == SIZE_MAX) {
		lx->tmp.len = base;
		return false;
	}
	flush(lx, &w);
	lx->pos = w.p;
	/* a word the input went back into (the rest of a line after a
	 * here-document, lex_after_newline) ends where it started */
	size_t end = w.p < w.start ? w.start : w.p;
	t->off = w.start;
	t->end = end;
	t->word = lex_make_word(lx, base, w.start, end, w.flags);
	*quoted = w.quoted;
	*dollar = w.dollar;
	*digits = w.digits && w.p > w.start;
	return !lx->failed;
}

/* ${NAME:=operand}: the operand, read again as a word of its own, its
 * $( ) found but not parsed a second time. */
sb_word *lex_word_all(struct lexer *lx, bool in_dquote)
{
	size_t base = lx->tmp.len, start = lx->pos, p = start, run = start;
	while (p < lx->end) {
		char c = lx->s[p];
		size_t e = p;
		if (c == '\\') {
			p += p + 1 < lx->end ? 2 : 1;
			continue;
		}
		if (c == '$' || c == '`' || (!in_dquote && (c == '\'' || c == '"'))) {
			char q = in_dquote ? '"' : 0;
			if (p > run)
				lex_add_lit(lx, q, run, p);
			if (c == '`') {
				e = backquote(lx, p, q);
			} else if (c == '\'') {
				e = lex_matched(lx, p, p + 1, '\'', '\'', 0, '\'');
				if (e != SIZE_MAX)
					lex_add_lit(lx, '\'', p + 1, e - 1);
			} else if (c == '"') {
				e = dquote(lx, p);
			} else if ((e = dollar_construct(lx, p, q, 0)) == p) {
				e = simple_param(lx, p, q);
			}
			if (e == SIZE_MAX)
				break;
			p = run = e;
			continue;
		}
		p++;
	}
	if (p > lx->end)
		p = lx->end;
	if (p > run)
		lex_add_lit(lx, in_dquote ? '"' : 0, run, p);
	return lex_make_word(lx, base, start, lx->end, in_dquote ? SB_W_QUOTED : 0);
}
