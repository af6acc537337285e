/* The grammar of the batch-script model: bash 5.2's, read by recursive
 * descent with one token of lookahead, as its LALR(1) parser reads it:
 * lists, && and ||, pipelines, ! and time, commands (parse_compound.c
 * for compound ones, parse_cmd.c for simple ones). Each nesting counts
 * against the depth limit. The model is a flat list of simple commands,
 * each with the constructs around it (ctx bits) and the block it runs
 * in, in the order bash meets them.
 *
 * A syntax error is one problem, at its real cause: a closer that
 * belongs to an outer construct names the inner one that was never
 * closed, an empty body names its keyword. The parse then goes on: the
 * list the error is in resumes at the next line (or at the closer it
 * met), so the statements around the broken one stay in the model. */
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* ---- tokens ---- */

const struct token *sbp_peek(struct parser *p)
{
	if (!p->have_la) {
		p->lx->owner = p;
		p->la_first = p->m->cmds.len;
		lex_token(p->lx, &p->la);
		p->have_la = true;
	}
	return &p->la;
}

void sbp_next(struct parser *p)
{
	sbp_peek(p);
	p->prev = p->la.kind;
	p->prev_end = p->la.end;
	p->have_la = false;
}

bool sbp_failed(const struct parser *p)
{
	return p->lx->failed;
}

void sbp_skip_newlines(struct parser *p)
{
	while (sbp_peek(p)->kind == T_NEWLINE)
		sbp_next(p);
}

/* Tokens a command can start with (a pipeline_command of bash's). */
bool sbp_can_start(enum tok k)
{
	switch (k) {
	case T_WORD: case T_ASSIGN: case T_NUMBER: case T_REDIR_WORD:
	case T_IF: case T_CASE: case T_FOR: case T_SELECT: case T_WHILE: case T_UNTIL:
	case T_LBRACE: case T_LPAREN: case T_FUNCTION: case T_COPROC: case T_BANG:
	case T_TIME: case T_ARITH_CMD: case T_COND_START:
		return true;
	default:
		return tok_is_redir(k);
	}
}

bool sbp_is_terminator(enum tok k)
{
	return k == T_SEMI || k == T_NEWLINE || k == T_EOF;
}

static bool is_closer(enum tok k)
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
			letter |= sb_is_name_start((unsigned char)s[k]);
			k++;
		}
		if (k < le && s[k] == '>' && letter && k > i + 1) {
			*start = i;
			return k + 1;
		}
	}
	return 0;
}

static size_t line_after(const struct parser *p, size_t off)
{
	const char *nl = memchr(p->m->text + off, '\n', p->lx->end - off);
	return nl ? (size_t)(nl - p->m->text) + 1 : p->lx->end;
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

static unsigned wanted_by(enum tok t);

/* Does an open construct, the innermost (inner) or one around it,
 * wait for t? */
static bool awaited(const struct parser *p, enum tok t, bool inner)
{
	unsigned want = wanted_by(t);
	for (size_t i = p->open.len - (inner ? 0 : 1); want && i-- > 0;)
		if (p->open.v[i].state & want)
			return true;
	return false;
}

bool sbp_outer_closer(const struct parser *p, enum tok t)
{
	return awaited(p, t, false);
}

static unsigned wanted_by(enum tok t)
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

static const char *tok_text(enum tok k)
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
	const char *after = tok_text(p->prev);
	bool closed = p->prev == T_RPAREN || p->prev == T_RBRACE || p->prev == T_FI ||
		      p->prev == T_DONE || p->prev == T_ESAC || p->prev == T_COND_END ||
		      p->prev == T_ARITH_CMD;
	const char *msg = NULL;
	if ((t->kind == T_WORD || t->kind == T_ASSIGN) && closed)
		msg = p->prev == T_ARITH_CMD ? "a word right after (( )): end the command first"
		      : p->prev == T_COND_END ? "a word right after ]]: end the command first"
		      : "a word right after a closing keyword or ): end the command first";
	else if (is_closer(t->kind) || t->kind == T_IN || t->kind == T_COND_END)
		msg = NULL;
	for (size_t i = 0; !msg && i < sizeof lone / sizeof lone[0]; i++)
		if (lone[i].k == t->kind)
			msg = lone[i].msg;
	if (!msg) {
		static char buf[64];
		const char *tt = tok_text(t->kind);
		if (tt && is_closer(t->kind))
			snprintf(buf, sizeof buf, "%s without its opening keyword", tt);
		else
			snprintf(buf, sizeof buf, "unexpected %s%s%s", tt ? tt : "word",
				 after ? " after " : "", after ? after : "");
		msg = sbm_strndup(p->m, buf, strlen(buf));
	}
	sbp_error(p, t->off, t->end, msg);
}

/* ---- constructs ---- */

bool sbp_open(struct parser *p, enum tok kind, const struct token *t, unsigned state)
{
	if (!lex_enter(p->lx, t->off))
		return false;
	struct opener o = { kind, t->off, t->end, state };
	VEC_PUSH(p->open, o);
	return true;
}

void sbp_wait(struct parser *p, unsigned state)
{
	p->open.v[p->open.len - 1].state = state;
}

void sbp_close(struct parser *p)
{
	p->open.len--;
	lex_leave(p->lx);
}

void sbp_mark(struct parser *p, size_t from, unsigned bits)
{
	for (size_t i = from; i < p->m->cmds.len; i++)
		p->m->cmds.v[i]->ctx |= bits;
}

unsigned sbp_new_block(struct parser *p, const struct where *w, enum block_kind kind,
		       bool opaque)
{
	(void)p;
	return sbm_block_new(p->m, w->block, kind, opaque);
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
		if (!sb_is_name_start((unsigned char)s[i]) ||
		    (i > off && !strchr(" \t\n;&|({`\"'", s[i - 1])))
			continue;
		size_t e = i;
		while (e < end && sb_is_name_char((unsigned char)s[e]))
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
static bool recover(struct parser *p, const struct where *w, size_t stmt)
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
	return true;
}

/* ---- lists ---- */

static bool command(struct parser *p, const struct where *w, unsigned bits);

/* A command after an operator that needs one: none there is the
 * problem at the operator; before a closer the construct goes on. */
static bool operand(struct parser *p, const struct token *op, bool pipe)
{
	const struct token *t = sbp_peek(p);
	bool ok = pipe ? sbp_can_start(t->kind) && t->kind != T_BANG && t->kind != T_TIME
		       : sbp_can_start(t->kind);
	if (ok || sbp_failed(p))
		return ok;
	if (t->kind == T_EOF || t->kind == T_ERROR) {
		sbp_unexpected(p, t);
		return false;
	}
	char msg[48];
	snprintf(msg, sizeof msg, "%s with no command after it", tok_text(op->kind));
	sbp_error(p, op->off, op->end, sbm_strndup(p->m, msg, strlen(msg)));
	if (is_closer(t->kind))
		p->lx->err_resume = t->off;
	return false;
}

static bool pipeline(struct parser *p, const struct where *w, unsigned bits)
{
	size_t first = p->m->cmds.len;
	if (!command(p, w, bits))
		return false;
	bool multi = false;
	for (;;) {
		const struct token *t = sbp_peek(p);
		if (t->kind != T_PIPE && t->kind != T_PIPE_AMP)
			return true;
		struct token op = *t;
		sbp_next(p);
		if (!multi)
			sbp_mark(p, first, SB_CTX_PIPELINE);
		multi = true;
		sbp_skip_newlines(p);
		if (!operand(p, &op, true) || !command(p, w, bits | SB_CTX_PIPELINE))
			return false;
	}
}

bool sbp_pipeline_command(struct parser *p, const struct where *w, unsigned bits)
{
	for (;;) {
		const struct token *t = sbp_peek(p);
		if (t->kind == T_BANG) {
			sbp_next(p);
			bits |= SB_CTX_NEGATED;
			if (sbp_is_terminator(sbp_peek(p)->kind))
				return true;
			continue;
		}
		if (t->kind != T_TIME)
			break;
		VEC_PUSH(p->prefix, t->word);
		sbp_next(p);
		while (sbp_peek(p)->kind == T_TIMEOPT || sbp_peek(p)->kind == T_TIMEIGN) {
			VEC_PUSH(p->prefix, sbp_peek(p)->word);
			sbp_next(p);
		}
		if (sbp_is_terminator(sbp_peek(p)->kind)) {
			/* `time` alone times nothing: a command of its words */
			struct where here = *w;
			here.ctx |= bits;
			sbp_reset_cmd(p);
			sbp_emit(p, &here, p->prefix.v[0]->off, p->prefix.v[p->prefix.len - 1]->end);
			return true;
		}
	}
	return pipeline(p, w, bits);
}

/* && and || chains. */
static bool and_or(struct parser *p, const struct where *w)
{
	if (!sbp_pipeline_command(p, w, 0))
		return false;
	for (;;) {
		const struct token *t = sbp_peek(p);
		if (t->kind != T_AND_AND && t->kind != T_OR_OR)
			return true;
		struct token op = *t;
		sbp_next(p);
		sbp_skip_newlines(p);
		if (!operand(p, &op, false) || !sbp_pipeline_command(p, w, SB_CTX_AND_OR))
			return false;
	}
}

/* A list ended by ; & or a newline at the top (bash's simple_list). */
static bool simple_list(struct parser *p, const struct where *w)
{
	size_t first = p->m->cmds.len;
	if (!and_or(p, w))
		return false;
	for (;;) {
		const struct token *t = sbp_peek(p);
		if (t->kind == T_NEWLINE || t->kind == T_EOF)
			return true;
		if (t->kind != T_SEMI && t->kind != T_AMP) {
			sbp_unexpected(p, t);
			return false;
		}
		if (t->kind == T_AMP)
			sbp_mark(p, first, SB_CTX_BACKGROUND);
		sbp_next(p);
		t = sbp_peek(p);
		if (t->kind == T_NEWLINE || t->kind == T_EOF)
			return true;
		first = p->m->cmds.len;
		if (!and_or(p, w))
			return false;
	}
}

bool sbp_compound_list(struct parser *p, const struct where *w, const char *what)
{
	sbp_skip_newlines(p);
	const struct token *t = sbp_peek(p);
	if (!sbp_can_start(t->kind)) {
		if (t->kind == T_EOF || t->kind == T_ERROR || sbp_failed(p)) {
			sbp_unexpected(p, t);
			return false;
		}
		/* an empty body: the problem at its keyword, and the
		 * construct goes on with the closer */
		const struct opener *o = &p->open.v[p->open.len - 1];
		sbp_error(p, o->off, o->end, what);
		if (is_closer(t->kind))
			p->lx->err_resume = t->off;
		return false;
	}
	for (;;) {
		size_t first = p->m->cmds.len, stmt = sbp_peek(p)->off;
		if (!and_or(p, w)) {
			if (!recover(p, w, stmt))
				return false;
			if (!sbp_can_start(sbp_peek(p)->kind))
				return !sbp_failed(p);
			continue;
		}
		t = sbp_peek(p);
		if (t->kind != T_SEMI && t->kind != T_AMP && t->kind != T_NEWLINE) {
			if (t->kind == T_EOF || t->kind == T_ERROR || awaited(p, t->kind, true))
				return true;
			/* a stray token after the statement: it costs the
			 * statement, and the body goes on */
			sbp_unexpected(p, t);
			if (!recover(p, w, stmt))
				return false;
			if (!sbp_can_start(sbp_peek(p)->kind))
				return !sbp_failed(p);
			continue;
		}
		if (t->kind == T_AMP)
			sbp_mark(p, first, SB_CTX_BACKGROUND);
		sbp_next(p);
		sbp_skip_newlines(p);
		if (!sbp_can_start(sbp_peek(p)->kind))
			return !sbp_failed(p);
	}
}

/* ---- commands ---- */

static bool command(struct parser *p, const struct where *w, unsigned bits)
{
	struct where here = *w;
	here.ctx |= bits;
	const struct token *t = sbp_peek(p);
	switch (t->kind) {
	case T_FOR: case T_SELECT: case T_CASE: case T_WHILE: case T_UNTIL: case T_IF:
	case T_LPAREN: case T_LBRACE: case T_ARITH_CMD: case T_COND_START:
		p->prefix.len = 0;
		p->opaque_next = (bits & (SB_CTX_AND_OR | SB_CTX_PIPELINE)) != 0;
		return sbp_shell_command(p, &here) && sbp_redirections(p);
	case T_FUNCTION:
		p->prefix.len = 0;
		return sbp_function_keyword(p, &here);
	case T_COPROC:
		p->prefix.len = 0;
		return sbp_coproc(p, &here);
	case T_WORD: {
		struct token first = *t;
		p->cmd_first = p->la_first;
		sbp_next(p);
		if (sbp_peek(p)->kind == T_LPAREN && !sbp_failed(p)) {
			p->prefix.len = 0;
			return sbp_function_def(p, &here, &first);
		}
		return sbp_simple_command(p, &here, &first);
	}
	default:
		if (t->kind == T_ASSIGN || t->kind == T_NUMBER || t->kind == T_REDIR_WORD ||
		    tok_is_redir(t->kind))
			return sbp_simple_command(p, &here, NULL);
		sbp_unexpected(p, t);
		return false;
	}
}

/* ---- $( ) ---- */

size_t sbp_comsub(struct lexer *lx, size_t open)
{
	sb_model *m = lx->m;
	struct parser *outer = lx->owner;
	struct parse_env env = *(outer ? outer->env : lx->env);
	if (++env.nest > m->lim.max_nest) {
		lex_fail(lx, SB_PROB_LIMIT, open, open + 2,
			 "command substitutions nested deeper than the limit");
		return SIZE_MAX;
	}
	struct where w = { env.ctx | SB_CTX_CMDSUB, env.block, env.func };
	if (outer) {
		w = outer->here;
		w.ctx |= SB_CTX_CMDSUB;
	}
	w.block = sbm_block_new(m, w.block, BK_CMDSUB, true);
	env.block = w.block;
	env.ctx = w.ctx;
	env.func = w.func;
	env.quote = 0;
	/* on the heap: one is alive for every $( ) level */
	struct parser *sub = xcalloc(1, sizeof *sub);
	sub->m = m;
	sub->lx = lx;
	sub->env = &env;
	sub->here = w;
	sub->last = outer ? outer->last : NULL;
	struct lex_state saved = lx->st;
	unsigned keep = PST_CASESTMT | PST_ASSIGNOK | PST_ALLOWOPNBRC;
	memset(&lx->st, 0, sizeof lx->st);
	lx->st.cur = T_DOLPAREN;
	lx->st.last = T_NEWLINE;
	lx->st.before = saved.last;
	lx->st.pst = (saved.pst & keep) | PST_CMDSUBST;
	lx->st.hd_base = saved.hd_base + saved.nhd;
	struct token t0 = { .kind = T_DOLPAREN, .off = open, .end = open + 2 };
	size_t e = SIZE_MAX;
	if (sbp_open(sub, T_DOLPAREN, &t0, W_RPAREN)) {
		sbp_skip_newlines(sub);
		bool ok = sbp_peek(sub)->kind == T_RPAREN ||
			  sbp_compound_list(sub, &w, "$( ) with no command inside");
		const struct token *t = sbp_peek(sub);
		if (ok && t->kind == T_RPAREN) {
			e = t->end;
			sbp_next(sub);
			if (lx->st.nhd)
				lex_heredocs_now(lx);
		} else if (ok || !sbp_failed(sub)) {
			sbp_unexpected(sub, t);
		}
		sbp_close(sub);
	}
	lx->st = saved;
	lx->hd.len = saved.hd_base + saved.nhd;
	lx->owner = outer;
	if (outer && e != SIZE_MAX)
		outer->last = sub->last;
	sbp_free(sub);
	free(sub);
	if (e != SIZE_MAX)
		lx->pos = e;
	return e;
}

/* ---- a script ---- */

void sbp_free(struct parser *p)
{
	free(p->open.v);
	free(p->words.v);
	free(p->extra.v);
	free(p->pending.v);
	free(p->heredocs.v);
	free(p->prefix.v);
}

bool sbp_parse_range(sb_model *m, size_t off, size_t end, const struct parse_env *env)
{
	struct lexer lx;
	lex_init(&lx, m, off, end, env);
	struct parser p;
	memset(&p, 0, sizeof p);
	p.m = m;
	p.lx = &lx;
	p.env = env;
	p.recover = true;
	p.here = (struct where){ env->ctx, env->block, env->func };
	size_t problems = m->problems.len;
	for (;;) {
		const struct token *t = sbp_peek(&p);
		if (t->kind == T_EOF)
			break;
		if (t->kind == T_NEWLINE) {
			sbp_next(&p);
			continue;
		}
		size_t stmt = t->off;
		if (!simple_list(&p, &p.here) && !recover(&p, &p.here, stmt))
			break;
	}
	bool ok = true;
	for (size_t i = problems; i < m->problems.len; i++)
		ok &= m->problems.v[i].kind == SB_PROB_HEREDOC_UNTERMINATED;
	lex_fini(&lx);
	sbp_free(&p);
	return ok;
}
