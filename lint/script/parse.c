/* The grammar of the batch-script model: bash 5.2's, read by recursive
 * descent with one token of lookahead, as its LALR(1) parser reads it:
 * lists, && and ||, pipelines, ! and time, commands (parse_compound.c
 * for compound ones, parse_cmd.c for simple ones, parse_error.c for
 * what a syntax error costs). Each nesting counts against the depth
 * limit. The model is a flat list of simple commands, each with the
 * constructs around it (ctx bits) and the block it runs in, in the
 * order bash meets them. */
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
	snprintf(msg, sizeof msg, "%s with no command after it", sbp_tok_text(op->kind));
	sbp_error(p, op->off, op->end, sbm_strndup(p->m, msg, strlen(msg)));
	/* a closer of a $( ) is no place for the file's list to go on at */
	if (sbp_is_closer(t->kind) && p->recover)
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

bool sbp_is_operator(enum tok k)
{
	return k == T_SEMI || k == T_AMP || k == T_AND_AND || k == T_OR_OR || k == T_PIPE ||
	       k == T_PIPE_AMP;
}

/* The token a statement of a list starts with. One the lexer could not
 * read (a quote left open in the first word, or a $( ) there) starts a
 * broken statement, and the list goes on after it, like after any
 * other (a body's own closer then still ends it). */
static const struct token *statement_start(struct parser *p, const struct where *w, bool *broken)
{
	const struct token *t = sbp_peek(p);
	while (t->kind == T_ERROR && sbp_failed(p) && sbp_recover(p, w, t->off)) {
		*broken = true;
		t = sbp_peek(p);
	}
	return t;
}

bool sbp_compound_list(struct parser *p, const struct where *w, const char *what)
{
	sbp_skip_newlines(p);
	bool broken = false;
	const struct token *t = statement_start(p, w, &broken);
	if (sbp_is_operator(t->kind) && !sbp_failed(p)) {
		/* an operator where the body's first command should be
		 * (then ; fi, { && a; }): the problem at it, and the body
		 * goes on after it, so its closer on the same line still
		 * ends the construct */
		sbp_unexpected(p, t);
		p->lx->failed = false;
		sbp_next(p);
		sbp_skip_newlines(p);
		broken = true;
		t = statement_start(p, w, &broken);
	}
	if (broken && !sbp_can_start(t->kind))
		return !sbp_failed(p);
	/* a token no command starts with and no construct waits for
	 * (| at the start of a body): the statement reports it */
	if (!sbp_can_start(t->kind) && (sbp_is_closer(t->kind) || t->kind == T_EOF ||
					t->kind == T_ERROR || sbp_failed(p))) {
		if (t->kind == T_EOF || t->kind == T_ERROR || sbp_failed(p)) {
			sbp_unexpected(p, t);
			return false;
		}
		/* an empty body: the problem at its keyword, and the
		 * construct goes on with the closer: its own (then fi is
		 * one problem, not a second at the fi), or an outer one's */
		const struct opener *o = &p->open.v[p->open.len - 1];
		sbp_error(p, o->off, o->end, what);
		if (o->state & sbp_wanted_by(t->kind)) {
			p->lx->failed = false;
			return true;
		}
		if (sbp_is_closer(t->kind) && p->recover)
			p->lx->err_resume = t->off;
		return false;
	}
	for (;;) {
		size_t first = p->m->cmds.len, stmt = sbp_peek(p)->off;
		if (!and_or(p, w)) {
			if (!sbp_recover(p, w, stmt))
				return false;
			if (!sbp_can_start(sbp_peek(p)->kind))
				return !sbp_failed(p);
			continue;
		}
		t = sbp_peek(p);
		if (t->kind != T_SEMI && t->kind != T_AMP && t->kind != T_NEWLINE) {
			if (t->kind == T_EOF || t->kind == T_ERROR || sbp_awaited(p, t->kind, true))
				return true;
			/* a stray token after the statement: it costs the
			 * statement, and the body goes on */
			sbp_unexpected(p, t);
			if (!sbp_recover(p, w, stmt))
				return false;
			if (!sbp_can_start(sbp_peek(p)->kind))
				return !sbp_failed(p);
			continue;
		}
		if (t->kind == T_AMP)
			sbp_mark(p, first, SB_CTX_BACKGROUND);
		sbp_next(p);
		sbp_skip_newlines(p);
		if (!sbp_can_start(statement_start(p, w, &broken)->kind))
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

/* The token memory and state flags a $( ) starts with, as bash's
 * parse_comsub sets them; its here-documents wait above the word's. */
static void comsub_state(struct lexer *lx, const struct lex_state *outer)
{
	unsigned keep = PST_CASESTMT | PST_ASSIGNOK | PST_ALLOWOPNBRC;
	memset(&lx->st, 0, sizeof lx->st);
	lx->st.cur = T_DOLPAREN;
	lx->st.last = T_NEWLINE;
	lx->st.before = outer->last;
	lx->st.pst = (outer->pst & (keep | PST_BS_NONE | PST_BS_DQUOTE)) | PST_CMDSUBST;
	lx->st.hd_base = outer->hd_base + outer->nhd;
}

/* DOLPAREN compound_list ')' | DOLPAREN newline_list ')': the position
 * reading goes on at, or SIZE_MAX. */
static size_t comsub_body(struct parser *sub, const struct where *w, size_t open)
{
	struct token t0 = { .kind = T_DOLPAREN, .off = open, .end = open + 2 };
	size_t e = SIZE_MAX;
	if (!sbp_open(sub, T_DOLPAREN, &t0, W_RPAREN))
		return e;
	sbp_skip_newlines(sub);
	bool ok = sbp_peek(sub)->kind == T_RPAREN ||
		  sbp_compound_list(sub, w, "$( ) with no command inside");
	const struct token *t = sbp_peek(sub);
	if (ok && t->kind == T_RPAREN) {
		e = t->end;
		sbp_next(sub);
		if (sub->lx->st.nhd)
			e = lex_heredocs_now(sub->lx);
	} else if (ok || !sbp_failed(sub)) {
		sbp_unexpected(sub, t);
	}
	sbp_close(sub);
	return e;
}

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
	comsub_state(lx, &saved);
	size_t e = comsub_body(sub, &w, open);
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
		if (!simple_list(&p, &p.here) && !sbp_recover(&p, &p.here, stmt))
			break;
	}
	bool ok = true;
	for (size_t i = problems; i < m->problems.len; i++)
		ok &= m->problems.v[i].kind == SB_PROB_HEREDOC_UNTERMINATED;
	lex_fini(&lx);
	sbp_free(&p);
	return ok;
}
