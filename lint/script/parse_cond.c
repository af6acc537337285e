/* [[ ]], read as bash 5.2's parse_cond_command reads it: its own small
 * grammar over tokens read without moving the token memory (bash reads
 * them with read_token, not yylex). Newlines may stand between terms
 * but not inside one; ( ) group, ! negates, && binds before ||, a word
 * alone means -n word, == and != take an extended pattern, =~ a regular
 * expression in which ( ) and | are part of the word. The command's
 * words are every token between [[ and ]]. */
#include "parse.h"

#include <string.h>

#include "xalloc.h"

struct cond {
	struct parser *p;
	struct token t;     /* the token read last (bash's cond_token) */
	size_t open, open_end; /* the [[ */
	bool bad;
};

static bool word_is(const struct cond *c, const char *lit)
{
	const char *s = c->p->m->text + c->t.off;
	size_t n = c->t.end - c->t.off;
	return c->t.kind == T_WORD && strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* The problem at the token that broke the expression; at the end of
 * the input, at the [[ left open. */
static void fail(struct cond *c, const char *msg)
{
	if (!c->bad && !sbp_failed(c->p)) {
		if (c->t.kind == T_EOF) {
			sbp_error(c->p, c->open, c->open_end, "[[ without its ]]");
			c->p->lx->err_resume = SIZE_MAX;
		} else {
			sbp_error(c->p, c->t.off, c->t.end > c->t.off ? c->t.end : c->t.off + 1, msg);
		}
	}
	c->bad = true;
}

/* Reads the next token; every one is a word of the command. */
static void read_tok(struct cond *c)
{
	lex_read(c->p->lx, &c->t);
	if (c->t.kind == T_ERROR) {
		c->bad = true;
		return;
	}
	if (c->t.kind == T_NEWLINE || c->t.kind == T_EOF)
		return;
	if (!c->t.word) {
		size_t base = c->p->lx->tmp.len;
		lex_add_lit(c->p->lx, 0, c->t.off, c->t.end);
		c->t.word = lex_make_word(c->p->lx, base, c->t.off, c->t.end, 0);
	}
	VEC_PUSH(c->p->words, c->t.word);
}

static void skip_newlines(struct cond *c)
{
	do
		read_tok(c);
	while (!c->bad && c->t.kind == T_NEWLINE);
}

static bool unary_op(const struct cond *c)
{
	const char *s = c->p->m->text + c->t.off;
	return c->t.kind == T_WORD && c->t.end - c->t.off == 2 && s[0] == '-' &&
	       strchr("abcdefghknoprstuvwxzGLNORS", s[1]);
}

static bool binary_op(const struct cond *c)
{
	static const char *const ops[] = {
		"=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge",
	};
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (word_is(c, ops[i]))
			return true;
	return false;
}

static void cond_or(struct cond *c);

static void term(struct cond *c)
{
	skip_newlines(c);
	if (c->bad)
		return;
	if (c->t.kind == T_COND_END) {
		fail(c, "[[ ]] with no expression, or an operator with nothing after it");
		return;
	}
	if (c->t.kind == T_LPAREN || c->t.kind == T_BANG || word_is(c, "!")) {
		if (!lex_enter(c->p->lx, c->t.off)) {
			c->bad = true;
			return;
		}
		if (c->t.kind == T_LPAREN) {
			cond_or(c);
			if (!c->bad && c->t.kind != T_RPAREN)
				fail(c, "a ( in [[ ]] without its )");
			if (!c->bad)
				skip_newlines(c);
		} else {
			term(c);
		}
		lex_leave(c->p->lx);
		return;
	}
	if (unary_op(c)) {
		read_tok(c);
		if (!c->bad && c->t.kind != T_WORD)
			fail(c, "a [[ ]] test operator without its argument");
		if (!c->bad)
			skip_newlines(c);
		return;
	}
	if (c->t.kind != T_WORD) {
		fail(c, "unexpected token in [[ ]]");
		return;
	}
	read_tok(c);
	if (c->bad)
		return;
	unsigned *pst = &c->p->lx->st.pst, mode = 0;
	if (c->t.kind == T_COND_END || c->t.kind == T_AND_AND || c->t.kind == T_OR_OR ||
	    c->t.kind == T_RPAREN)
		return;
	if (word_is(c, "=~"))
		mode = PST_REGEXP;
	else if (word_is(c, "=") || word_is(c, "==") || word_is(c, "!="))
		mode = PST_EXTPAT;
	else if (!binary_op(c) && c->t.kind != T_LESS && c->t.kind != T_GREAT) {
		fail(c, "a [[ ]] comparison operator was expected");
		return;
	}
	*pst |= mode;
	read_tok(c);
	*pst &= ~(unsigned)(PST_REGEXP | PST_EXTPAT);
	if (!c->bad && c->t.kind != T_WORD)
		fail(c, "a [[ ]] comparison without its right side");
	if (!c->bad)
		skip_newlines(c);
}

static void cond_and(struct cond *c)
{
	do
		term(c);
	while (!c->bad && c->t.kind == T_AND_AND);
}

static void cond_or(struct cond *c)
{
	do
		cond_and(c);
	while (!c->bad && c->t.kind == T_OR_OR);
}

bool sbp_cond(struct parser *p, const struct where *w)
{
	struct token kw = *sbp_peek(p);
	sbp_next(p);
	if (!sbp_open(p, T_COND_START, &kw, 0))
		return false;
	struct lexer *lx = p->lx;
	sbp_reset_cmd(p);
	sbp_add_word(p, &kw);
	/* bash reads the expression as the token after [[ */
	lx->st.before = lx->st.last;
	lx->st.last = lx->st.cur;
	lx->st.pst |= PST_CONDEXPR;
	struct cond c = { .p = p, .open = kw.off, .open_end = kw.end };
	cond_or(&c);
	if (!c.bad && c.t.kind != T_COND_END)
		fail(&c, c.t.kind == T_EOF ? "[[ without its ]]" : "unexpected token in [[ ]]");
	lx->st.pst &= ~(unsigned)(PST_CONDEXPR | PST_REGEXP | PST_EXTPAT);
	sbp_close(p);
	if (c.bad)
		return false;
	/* what bash's token memory holds after ]] */
	lx->st.before = T_COND_START;
	lx->st.last = T_ERROR;
	lx->st.cur = T_COND_END;
	p->prev = T_COND_END;
	p->prev_end = c.t.end;
	sbp_emit(p, w, kw.off, c.t.end);
	return true;
}
