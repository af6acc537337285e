/* Tokens of the batch-script model, read as bash 5.2's read_token reads
 * them: blanks and comments skipped, operators, `((` as arithmetic or
 * two subshells, and words, which become reserved words only where a
 * command may start (reserved_word_acceptable), `in` and `do` after
 * `for NAME`, NUMBER before a redirection, {NAME} before one, and
 * NAME=value an assignment only where an assignment may stand. What
 * each test reads is the token memory (the last two tokens) and the
 * parser state flags in lx->st. Here-document bodies are read after the
 * newline that ends their line (lex_heredoc.c). */
#include "lex.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static const struct { const char *word; enum tok tok; } reserved[] = {
	{ "if", T_IF }, { "then", T_THEN }, { "else", T_ELSE }, { "elif", T_ELIF },
	{ "fi", T_FI }, { "case", T_CASE }, { "esac", T_ESAC }, { "for", T_FOR },
	{ "select", T_SELECT }, { "while", T_WHILE }, { "until", T_UNTIL }, { "do", T_DO },
	{ "done", T_DONE }, { "in", T_IN }, { "function", T_FUNCTION }, { "time", T_TIME },
	{ "{", T_LBRACE }, { "}", T_RBRACE }, { "!", T_BANG }, { "[[", T_COND_START },
	{ "]]", T_COND_END }, { "coproc", T_COPROC },
};

/* Builtins after which NAME=( ) is an assignment (ASSIGNMENT_BUILTIN,
 * and eval and let). */
static const char *const assign_builtins[] = {
	"alias", "declare", "export", "local", "readonly", "typeset", "eval", "let",
};

void lex_init(struct lexer *lx, sb_model *m, size_t off, size_t end,
	      const struct parse_env *env)
{
	memset(lx, 0, sizeof *lx);
	lx->m = m;
	lx->s = m->text;
	lx->pos = off;
	lx->end = end;
	lx->env = env;
	lx->st.last = lx->st.before = lx->st.cur = T_NEWLINE;
	lx->templates = m->templates;
}

void lex_fini(struct lexer *lx)
{
	free(lx->tmp.v);
	free(lx->hd.v);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Is the raw text [a, b), backslash-newlines left out, the string lit? */
static bool text_is(const struct lexer *lx, size_t a, size_t b, const char *lit)
{
	const char *s = lx->s;
	/* keywords are short, and a word mostly holds no backslash */
	if (b - a > 9)
		return false;
	for (; a < b; a++) {
		if (s[a] == '\\' && a + 1 < b && s[a + 1] == '\n') {
			a++;
			continue;
		}
		if (!*lit || *lit++ != s[a])
			return false;
	}
	return *lit == '\0';
}

/* ---- bash's tests on the token memory ---- */

static bool reserved_ok(const struct lexer *lx)
{
	switch (lx->st.last) {
	case T_NEWLINE: case T_SEMI: case T_LPAREN: case T_RPAREN: case T_PIPE: case T_AMP:
	case T_LBRACE: case T_RBRACE: case T_AND_AND: case T_ARITH_CMD: case T_BANG:
	case T_PIPE_AMP: case T_COND_END: case T_DO: case T_DONE: case T_ELIF: case T_ELSE:
	case T_ESAC: case T_FI: case T_IF: case T_OR_OR: case T_DSEMI: case T_SEMI_AND:
	case T_DSEMI_AND: case T_THEN: case T_TIME: case T_TIMEOPT: case T_TIMEIGN:
	case T_COPROC: case T_UNTIL: case T_WHILE: case T_DOLPAREN:
		return true;
	default:
		return lx->st.last == T_WORD &&
		       (lx->st.before == T_COPROC || lx->st.before == T_FUNCTION);
	}
}

/* bash 5.2.15 does not take `time` for the keyword right after $(. */
static bool time_ok(const struct lexer *lx)
{
	switch (lx->st.last) {
	case T_NEWLINE: case T_SEMI:
		return lx->st.before != T_PIPE;
	case T_AND_AND: case T_OR_OR: case T_AMP: case T_WHILE: case T_DO: case T_UNTIL:
	case T_IF: case T_THEN: case T_ELIF: case T_ELSE: case T_LBRACE: case T_LPAREN:
	case T_RPAREN: case T_BANG: case T_TIME: case T_TIMEOPT: case T_TIMEIGN:
		return true;
	default:
		return false;
	}
}

/* bash's parsing_redirection: every redirection operator but &>>. */
static bool parsing_redirection(enum tok t)
{
	return tok_is_redir(t) && t != T_AND_DGREAT;
}

static bool command_position(const struct lexer *lx)
{
	enum tok t = lx->st.last;
	return t == T_ASSIGN || ((lx->st.pst & PST_REDIRLIST) && !parsing_redirection(t)) ||
	       (t != T_DSEMI && t != T_SEMI_AND && t != T_DSEMI_AND && reserved_ok(lx));
}

bool lex_assign_ok(const struct lexer *lx)
{
	return command_position(lx) && !(lx->st.pst & PST_CASEPAT);
}

/* ---- words ---- */

/* bash's special_case_tokens: words that are keywords by position. */
static enum tok special_word(struct lexer *lx, size_t a, size_t b)
{
	struct lex_state *st = &lx->st;
	bool in = text_is(lx, a, b, "in"), dow = text_is(lx, a, b, "do");
	if (in && st->last == T_WORD &&
	    (st->before == T_FOR || st->before == T_CASE || st->before == T_SELECT)) {
		if (st->before == T_CASE) {
			st->pst |= PST_CASEPAT;
			st->esacs_needed++;
		}
		if (st->expecting_in)
			st->expecting_in--;
		return T_IN;
	}
	if (in && st->expecting_in && (st->last == T_WORD || st->last == T_NEWLINE)) {
		if (st->pst & PST_CASESTMT) {
			st->pst |= PST_CASEPAT;
			st->esacs_needed++;
		}
		st->expecting_in--;
		return T_IN;
	}
	if (dow && st->expecting_in && (st->last == T_NEWLINE || st->last == T_SEMI)) {
		st->expecting_in--;
		return T_DO;
	}
	if (dow && st->last == T_WORD && (st->before == T_FOR || st->before == T_SELECT)) {
		if (st->expecting_in)
			st->expecting_in--;
		return T_DO;
	}
	if (st->esacs_needed && st->last == T_IN && text_is(lx, a, b, "esac")) {
		st->esacs_needed--;
		st->pst &= ~(unsigned)PST_CASEPAT;
		return T_ESAC;
	}
	if (st->pst & PST_ALLOWOPNBRC) {
		st->pst &= ~(unsigned)PST_ALLOWOPNBRC;
		if (text_is(lx, a, b, "{")) {
			lx->open_braces++;
			return T_LBRACE;
		}
	}
	if (st->last == T_ARITH_FOR && dow)
		return T_DO;
	if (st->last == T_ARITH_FOR && text_is(lx, a, b, "{")) {
		lx->open_braces++;
		return T_LBRACE;
	}
	if (lx->open_braces && reserved_ok(lx) && text_is(lx, a, b, "}")) {
		lx->open_braces--;
		return T_RBRACE;
	}
	if (st->last == T_TIME && text_is(lx, a, b, "-p"))
		return T_TIMEOPT;
	if ((st->last == T_TIME || st->last == T_TIMEOPT) && text_is(lx, a, b, "--"))
		return T_TIMEIGN;
	if ((st->pst & PST_CONDEXPR) && text_is(lx, a, b, "]]"))
		return T_COND_END;
	return T_WORD;
}

/* bash's CHECK_FOR_RESERVED_WORD; T_WORD when the word is not one here. */
static enum tok reserved_word(struct lexer *lx, size_t a, size_t b)
{
	struct lex_state *st = &lx->st;
	if (!reserved_ok(lx))
		return T_WORD;
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
		if (!text_is(lx, a, b, reserved[i].word))
			continue;
		enum tok t = reserved[i].tok;
		if ((st->pst & PST_CASEPAT) && t != T_ESAC)
			return T_WORD;
		if (t == T_TIME && !time_ok(lx))
			return T_WORD;
		if ((st->pst & PST_CASEPAT) && (st->last == T_PIPE || st->last == T_LPAREN))
			return T_WORD;
		if (t == T_ESAC) {
			st->pst &= ~(unsigned)(PST_CASEPAT | PST_CASESTMT);
			if (st->esacs_needed)
				st->esacs_needed--;
		} else if (t == T_CASE) {
			st->pst |= PST_CASESTMT;
		} else if (t == T_LBRACE) {
			lx->open_braces++;
		} else if (t == T_RBRACE && lx->open_braces) {
			lx->open_braces--;
		}
		return t;
	}
	return T_WORD;
}

/* NAME=, NAME+=, NAME[...]= at the start of the raw text, as bash's
 * assignment() reads it. */
static bool assignment_word(const char *s, size_t a, size_t b, bool compassign)
{
	size_t i = lex_assignment_left(s, a, b, compassign);
	return i < b && s[i] == '=';
}

static bool small_number(const char *s, size_t a, size_t b)
{
	return b - a <= 9 || (b - a == 10 && memcmp(s + a, "2147483647", 10) <= 0);
}

/* {NAME} or {NAME[...]} right before < or >: bash's REDIR_WORD. */
static bool redir_word(const char *s, size_t a, size_t b)
{
	if (b - a < 3 || s[a] != '{' || s[b - 1] != '}')
		return false;
	size_t i = a + 1;
	if (!text_is_name_start((unsigned char)s[i]))
		return false;
	while (i < b - 1 && text_is_name_char((unsigned char)s[i]))
		i++;
	if (i < b - 1 && s[i] == '[' && s[b - 2] == ']')
		return true;
	return i == b - 1;
}

static void word_token(struct lexer *lx, struct token *t)
{
	bool quoted, dollar, digits;
	struct lex_state *st = &lx->st;
	if (!lex_scan_word(lx, t, &quoted, &dollar, &digits)) {
		t->kind = T_ERROR;
		return;
	}
	t->quoted = quoted;
	size_t a = t->off, b = t->end;
	const char *s = lx->s;
	size_t after = lex_skip_joins(lx, b);
	char next = after < lx->end ? s[after] : 0;
	if (digits && (next == '<' || next == '>' || st->last == T_LESS_AND ||
		       st->last == T_GREAT_AND) && small_number(s, a, b)) {
		t->kind = T_NUMBER;
		return;
	}
	t->kind = special_word(lx, a, b);
	if (t->kind != T_WORD)
		return;
	if (!quoted && !dollar && (t->kind = reserved_word(lx, a, b)) != T_WORD)
		return;
	bool compassign = (st->pst & PST_COMPASSIGN) != 0;
	if (assignment_word(s, a, b, compassign) && (lex_assign_ok(lx) || compassign))
		t->kind = T_ASSIGN;
	if (command_position(lx))
		for (size_t i = 0; i < sizeof assign_builtins / sizeof assign_builtins[0]; i++)
			if (text_is(lx, a, b, assign_builtins[i]))
				st->pst |= PST_ASSIGNOK;
	if ((next == '<' || next == '>') && redir_word(s, a, b)) {
		t->kind = T_REDIR_WORD;
		return;
	}
	if (st->last == T_FUNCTION)
		st->pst |= PST_ALLOWOPNBRC;
	else if (st->last == T_CASE || st->last == T_SELECT || st->last == T_FOR)
		st->expecting_in++;
}

/* ---- (( ---- */

/* At `((`: arithmetic for bash's parse_arith_cmd when the text up to the
 * ) that closes the second ( is followed by another ); else, where a
 * command may start, two subshells (the text is read again from the
 * second paren, and what reading it once recorded is taken back). */
static void dparen(struct lexer *lx, struct token *t, size_t p)
{
	bool after_for = lx->st.last == T_FOR;
	t->off = p;
	if (!after_for && !reserved_ok(lx)) {
		t->kind = T_LPAREN;
		t->end = lx->pos = p + 1;
		return;
	}
	struct sbm_mark mark = sbm_mark(lx->m);
	size_t base = lx->tmp.len, second = lex_skip_joins(lx, p + 1);
	size_t e = lex_matched(lx, p, second + 1, '(', ')', MP_ARITH, 0);
	if (e == SIZE_MAX) {
		t->kind = T_ERROR;
		return;
	}
	if (e < lx->end && lx->s[e] == ')') {
		t->kind = after_for ? T_ARITH_FOR : T_ARITH_CMD;
		t->end = lx->pos = e + 1;
		struct wpart *w = lex_add_part(lx, WP_ARITH, 0, p, e + 1);
		w->in_off = second + 1, w->in_end = e - 1;
		t->word = lex_make_word(lx, base, p, e + 1, 0);
		if (!lx->env->in_string && !lx->quiet)
			sbm_mark_line(lx->m, lex_line_of(lx, p), SB_LINE_CODE);
		return;
	}
	if (after_for) {
		lex_fail(lx, SB_PROB_SYNTAX, p, p + 2, "for (( without its closing ))");
		t->kind = T_ERROR;
		return;
	}
	sbm_rollback(lx->m, &mark);
	t->kind = T_LPAREN;
	t->end = lx->pos = p + 1;
}

/* ---- operators ---- */

static size_t op_len(struct lexer *lx, size_t p, struct token *t)
{
	static const struct { const char *op; enum tok tok; } ops[] = {
		{ ";;&", T_DSEMI_AND }, { ";;", T_DSEMI }, { ";&", T_SEMI_AND }, { ";", T_SEMI },
		{ "&&", T_AND_AND }, { "&>>", T_AND_DGREAT }, { "&>", T_AND_GREAT }, { "&", T_AMP },
		{ "||", T_OR_OR }, { "|&", T_PIPE_AMP }, { "|", T_PIPE },
		{ "<<<", T_TLESS }, { "<<-", T_DLESS_DASH }, { "<<", T_DLESS }, { "<&", T_LESS_AND },
		{ "<>", T_LESS_GREAT }, { "<", T_LESS },
		{ ">>", T_DGREAT }, { ">&", T_GREAT_AND }, { ">|", T_CLOBBER }, { ">", T_GREAT },
		{ "(", T_LPAREN }, { ")", T_RPAREN },
	};
	/* the characters of an operator, with backslash-newlines between
	 * them joined as bash's shell_getc joins them */
	char c[3];
	size_t at[3];
	size_t q = p;
	for (int i = 0; i < 3; i++) {
		q = i ? lex_skip_joins(lx, q) : q;
		c[i] = q < lx->end ? lx->s[q] : 0;
		at[i] = ++q;
	}
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i].op);
		if (memcmp(c, ops[i].op, n) == 0) {
			t->kind = ops[i].tok;
			return at[n - 1];
		}
	}
	return p;
}

static void op_token(struct lexer *lx, struct token *t, size_t p)
{
	struct lex_state *st = &lx->st;
	st->pst &= ~(unsigned)PST_ASSIGNOK;
	size_t e = op_len(lx, p, t);
	t->off = p;
	t->end = lx->pos = e;
	if (t->kind == T_LPAREN && e < lx->end && lex_skip_joins(lx, e) < lx->end &&
	    lx->s[lex_skip_joins(lx, e)] == '(') {
		dparen(lx, t, p);
		return;
	}
	switch (t->kind) {
	case T_DSEMI: case T_SEMI_AND: case T_DSEMI_AND:
		st->pst |= PST_CASEPAT;
		break;
	case T_RPAREN:
		if (st->last == T_LPAREN && st->before == T_WORD)
			st->pst |= PST_ALLOWOPNBRC;
		st->pst &= ~(unsigned)PST_CASEPAT;
		break;
	default:
		break;
	}
}

/* ---- comments and newlines ---- */

static void comment(struct lexer *lx, size_t p)
{
	const char *nl = memchr(lx->s + p, '\n', lx->end - p);
	size_t e = nl ? (size_t)(nl - lx->s) : lx->end;
	lx->pos = e;
	if (lx->env->in_string || lx->quiet)
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

/* The newline at q ends its line: here-document bodies follow. */
static void newline_token(struct lexer *lx, struct token *t, size_t q)
{
	t->kind = T_NEWLINE;
	t->off = q;
	t->end = q < lx->end ? q + 1 : q;
	size_t next = q < lx->end ? lex_after_newline(lx, q) : q;
	lx->pos = next;
	if (lx->st.nhd) {
		size_t rest, rest_nl;
		size_t e = lex_read_heredocs(lx, next, &rest, &rest_nl);
		lx->pos = e;
		if (rest != SIZE_MAX) {
			/* EOF) in a $( ): the ) is read next, then what follows
			 * the bodies */
			lx->pos = rest;
			if (e != rest_nl + 1 && lx->njumps < 4) {
				lx->jumps[lx->njumps].from = rest_nl;
				lx->jumps[lx->njumps++].to = e;
			}
		}
	}
	lx->st.pst &= ~(unsigned)PST_ASSIGNOK;
}

void lex_read(struct lexer *lx, struct token *t)
{
	memset(t, 0, sizeof *t);
	if (lx->failed) {
		t->kind = T_ERROR;
		t->off = t->end = lx->pos;
		return;
	}
	size_t p = lx->pos;
	for (;;) {
		p = lex_skip_joins(lx, p);
		if (p < lx->end && is_blank(lx->s[p]))
			p++;
		else
			break;
	}
	lx->pos = p;
	if (p >= lx->end) {
		size_t rest, rest_nl;
		if (lx->st.nhd)
			lex_read_heredocs(lx, lx->end, &rest, &rest_nl);
		t->kind = T_EOF;
		t->off = t->end = lx->end;
		return;
	}
	char c = lx->s[p];
	if (c == '#') {
		comment(lx, p);
		newline_token(lx, t, lx->pos);
		return;
	}
	if (c == '\n') {
		newline_token(lx, t, p);
		return;
	}
	if (!lx->env->in_string && !lx->quiet)
		sbm_mark_line(lx->m, lex_line_of(lx, p), SB_LINE_CODE);
	size_t q;
	bool procsub = (c == '<' || c == '>') && (q = lex_skip_joins(lx, p + 1)) < lx->end &&
		       lx->s[q] == '(';
	if (!(lx->st.pst & PST_REGEXP) && !procsub &&
	    (c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>')) {
		op_token(lx, t, p);
		return;
	}
	if (c == '-' && (lx->st.last == T_LESS_AND || lx->st.last == T_GREAT_AND) &&
	    !(lx->st.pst & PST_REGEXP)) {
		t->kind = T_DASH;
		t->off = p;
		t->end = lx->pos = p + 1;
		return;
	}
	word_token(lx, t);
}

void lex_token(struct lexer *lx, struct token *t)
{
	lx->st.before = lx->st.last;
	lx->st.last = lx->st.cur;
	lex_read(lx, t);
	lx->st.cur = t->kind;
}

void lex_resync(struct lexer *lx, size_t off)
{
	unsigned nhd = lx->st.nhd, base = lx->st.hd_base;
	memset(&lx->st, 0, sizeof lx->st);
	lx->st.last = lx->st.before = lx->st.cur = T_NEWLINE;
	lx->failed = false;
	lx->njumps = 0;
	lx->tmp.len = 0;
	lx->pos = off < lx->end ? off : lx->end;
	/* bodies of the broken line's here-documents are not commands */
	if (nhd) {
		lx->st.hd_base = base;
		lx->st.nhd = nhd;
		size_t rest, rest_nl;
		lx->pos = lex_read_heredocs(lx, lx->pos, &rest, &rest_nl);
	}
	lx->hd.len = lx->st.hd_base;
}
