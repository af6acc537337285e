/* What a syntax error costs in the batch-script model: one problem, at
 * its real cause (parse.c, parse_compound.c call here). A closer that
 * belongs to an outer construct names the inner one that was never
 * closed; an empty body names its keyword; a documentation placeholder
 * (<paste your key>) says so. Then the list the error is in goes on at
 * the next line, and the broken statement stays in the model as a
 * command of no words whose assignments are unknown (docs/design.md,
 * "Syntax errors cost one statement"). */
#include "parse.h"

#include <stdio.h>
#include <string.h>

#include "xalloc.h"

bool sbp_is_closer(enum tok k)
{
	switch (k) {
	case T_THEN: case T_ELSE: case T_ELIF: case T_FI: case T_DO: case T_DONE: case T_ESAC:
	case T_RBRACE: case T_RPAREN: case T_DSEMI: case T_SEMI_AND: case T_DSEMI_AND:
		return true;
	default:
		return false;
	}
}

/* ---- errors ---- */

/* `<paste your key>`, `<PATH>`: a placeholder of a document, which
 * bash reads as a redirection. The span on the line of off, or 0. */
static size_t placeholder(const struct parser *p, size_t off, size_t *start)
{
	const char *s = p->m->text;
	size_t ls = off, le = off;
	while (ls > 0 && s[ls - 1] != '\n')
		ls--;
	while (le < p->lx->end && s[le] != '\n')
		le++;
	for (size_t i = ls; i < le; i++) {
		if (s[i] != '<' || (i > ls && strchr("<$", s[i - 1])) || i + 1 >= le ||
		    strchr("<(&> \t", s[i + 1]))
			continue;
		size_t k = i + 1;
		bool letter = false;
		while (k < le && !strchr("<>|;&()\"'`$", s[k])) {
			letter |= text_is_name_start((unsigned char)s[k]);
			k++;
		}
		if (k < le && s[k] == '>' && letter && k > i + 1) {
			*start = i;
			return k + 1;
		}
	}
	return 0;
}

/* The line after the broken one, past the lines a backslash-newline
 * joins to it: those are words of the same statement, not commands. */
static size_t line_after(const struct parser *p, size_t off)
{
	size_t at = lex_line_after(p->lx, off);
	return at == SIZE_MAX ? p->lx->end : at;
}

static void error_kind(struct parser *p, enum sb_problem_kind kind, size_t off, size_t end,
		       const char *msg)
{
	struct lexer *lx = p->lx;
	if (lx->failed)
		return;
	size_t a, b = placeholder(p, off, &a);
	if (b)
		sbm_problem(p->m, SB_PROB_SYNTAX, a, b,
			    "looks like a placeholder; bash reads < as a redirection");
	else
		sbm_problem(p->m, kind, off, end, msg);
	lx->failed = true;
	lx->err_resume = line_after(p, off > p->prev_end ? off : p->prev_end);
}

void sbp_error(struct parser *p, size_t off, size_t end, const char *msg)
{
	error_kind(p, SB_PROB_SYNTAX, off, end, msg);
}

static const char *unclosed_msg(const struct opener *o)
{
	switch (o->kind) {
	case T_IF: return o->state & W_THEN ? "if without its then" : "if without its fi";
	case T_WHILE: case T_UNTIL:
		return o->state & W_DO ? "loop without its do" : "loop without its done";
	case T_FOR: case T_SELECT:
		return o->state & W_DO ? "for without its do" : "loop without its done";
	case T_CASE: return "case without its esac";
	case T_LBRACE: return "{ without its }";
	case T_DOLPAREN: return "$( without its closing )";
	default: return "( without its )";
	}
}

/* The innermost open construct lacks its closer: the problem at its
 * opener. */
static void unclosed(struct parser *p)
{
	const struct opener *o = &p->open.v[p->open.len - 1];
	error_kind(p, o->kind == T_DOLPAREN ? SB_PROB_UNTERMINATED_EXPANSION : SB_PROB_SYNTAX,
		   o->off, o->end, unclosed_msg(o));
}

/* Does an open construct, the innermost (inner) or one around it,
 * wait for t? */
bool sbp_awaited(const struct parser *p, enum tok t, bool inner)
{
	unsigned want = sbp_wanted_by(t);
	for (size_t i = p->open.len - (inner ? 0 : 1); want && i-- > 0;)
		if (p->open.v[i].state & want)
			return true;
	return false;
}

bool sbp_outer_closer(const struct parser *p, enum tok t)
{
	return sbp_awaited(p, t, false);
}

unsigned sbp_wanted_by(enum tok t)
{
	static const struct { enum tok t; unsigned w; } by[] = {
		{ T_THEN, W_THEN }, { T_ELIF, W_FI }, { T_ELSE, W_FI }, { T_FI, W_FI },
		{ T_DO, W_DO }, { T_DONE, W_DONE }, { T_ESAC, W_ESAC }, { T_DSEMI, W_DSEMI },
		{ T_SEMI_AND, W_DSEMI }, { T_DSEMI_AND, W_DSEMI }, { T_RBRACE, W_RBRACE },
		{ T_RPAREN, W_RPAREN },
	};
	for (size_t i = 0; i < sizeof by / sizeof by[0]; i++)
		if (by[i].t == t)
			return by[i].w;
	return 0;
}

const char *sbp_tok_text(enum tok k)
{
	static const struct { enum tok k; const char *s; } names[] = {
		{ T_SEMI, ";" }, { T_AMP, "&" }, { T_AND_AND, "&&" }, { T_OR_OR, "||" },
		{ T_PIPE, "|" }, { T_PIPE_AMP, "|&" }, { T_LPAREN, "(" }, { T_RPAREN, ")" },
		{ T_DSEMI, ";;" }, { T_SEMI_AND, ";&" }, { T_DSEMI_AND, ";;&" }, { T_THEN, "then" },
		{ T_ELSE, "else" }, { T_ELIF, "elif" }, { T_FI, "fi" }, { T_DO, "do" },
		{ T_DONE, "done" }, { T_ESAC, "esac" }, { T_IN, "in" }, { T_RBRACE, "}" },
		{ T_LBRACE, "{" }, { T_COND_END, "]]" }, { T_BANG, "!" },
		{ T_NEWLINE, "end of the line" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].k == k)
			return names[i].s;
	return NULL;
}

void sbp_unexpected(struct parser *p, const struct token *t)
{
	static const struct { enum tok k; const char *msg; } lone[] = {
		{ T_SEMI, "; with no command before it" }, { T_AMP, "& with no command before it" },
		{ T_AND_AND, "&& with no command before it" }, { T_OR_OR, "|| with no command before it" },
		{ T_PIPE, "| with no command before it" }, { T_PIPE_AMP, "|& with no command before it" },
		{ T_DSEMI, ";; outside a case item" }, { T_SEMI_AND, ";& outside a case item" },
		{ T_DSEMI_AND, ";;& outside a case item" }, { T_RPAREN, "unexpected )" },
		{ T_LPAREN, "unexpected (" }, { T_IN, "unexpected in" }, { T_COND_END, "unexpected ]]" },
	};
	if (sbp_failed(p))
		return;
	if (t->kind == T_EOF || t->kind == T_ERROR) {
		if (t->kind == T_EOF && p->open.len)
			unclosed(p);
		else if (t->kind == T_EOF)
			sbp_error(p, t->off, t->end, "unexpected end of the file");
		p->lx->err_resume = SIZE_MAX;
		p->lx->failed = true;
		return;
	}
	const char *after = sbp_tok_text(p->prev);
	bool closed = p->prev == T_RPAREN || p->prev == T_RBRACE || p->prev == T_FI ||
		      p->prev == T_DONE || p->prev == T_ESAC || p->prev == T_COND_END ||
		      p->prev == T_ARITH_CMD;
	const char *msg = NULL;
	if ((t->kind == T_WORD || t->kind == T_ASSIGN) && closed)
		msg = p->prev == T_ARITH_CMD ? "a word right after (( )): end the command first"
		      : p->prev == T_COND_END ? "a word right after ]]: end the command first"
		      : "a word right after a closing keyword or ): end the command first";
	else if (sbp_is_closer(t->kind) || t->kind == T_IN || t->kind == T_COND_END)
		msg = NULL;
	for (size_t i = 0; !msg && i < sizeof lone / sizeof lone[0]; i++)
		if (lone[i].k == t->kind)
			msg = lone[i].msg;
	if (!msg) {
		static char buf[64];
		const char *tt = sbp_tok_text(t->kind);
		if (tt && sbp_is_closer(t->kind))
			snprintf(buf, sizeof buf, "%s without its opening keyword", tt);
		else
			snprintf(buf, sizeof buf, "unexpected %s%s%s", tt ? tt : "word",
				 after ? " after " : "", after ? after : "");
		msg = sbm_strndup(p->m, buf, strlen(buf));
	}
	sbp_error(p, t->off, t->end, msg);
}

/* ---- recovery ---- */

/* The statement [off, end) that did not parse stays in the model as a
 * command of no words, marked broken, with an assignment of unknown
 * value for every NAME= its text holds: what it may set is unknown,
 * never the value from before it. */
static void broken_statement(struct parser *p, const struct where *w, size_t off, size_t end)
{
	const char *s = p->m->text;
	while (end > off && (s[end - 1] == '\n' || s[end - 1] == ' ' || s[end - 1] == '\t'))
		end--;
	sbp_reset_cmd(p);
	for (size_t i = off; i < end; i++) {
		if (!text_is_name_start((unsigned char)s[i]) ||
		    (i > off && !strchr(" \t\n;&|({`\"'", s[i - 1])))
			continue;
		size_t e = i;
		while (e < end && text_is_name_char((unsigned char)s[e]))
			e++;
		if (e < end && (s[e] == '=' || s[e] == '[' || (s[e] == '+' && e + 1 < end && s[e + 1] == '=')))
			sbp_unknown_assign(p, i, e);
		i = e;
	}
	p->prefix.len = 0;
	sb_cmd *c = sbp_emit(p, w, off, end > off ? end : off);
	c->broken = true;
}

/* After a syntax error in a list of the file (not of a $( ), whose end
 * is unknown then): forgets the broken statement and goes on at the
 * line after it, or at the closer it met. */
bool sbp_recover(struct parser *p, const struct where *w, size_t stmt)
{
	struct lexer *lx = p->lx;
	if (!p->recover || !lx->failed || lx->err_resume == SIZE_MAX ||
	    lx->err_resume <= lx->err_floor || lx->err_resume >= lx->end)
		return false;
	lx->err_floor = lx->err_resume;
	if (stmt < lx->err_resume)
		broken_statement(p, w, stmt, lx->err_resume);
	lex_resync(lx, lx->err_resume);
	p->have_la = false;
	p->prev = T_NEWLINE;
	sbp_reset_cmd(p);
	p->prefix.len = 0;
	/* blank lines after it are no empty statement */
	sbp_skip_newlines(p);
	return true;
}

