/* The grammar of the batch-script model: tokens become a flat list of
 * simple commands, each knowing the constructs around it (if, loops,
 * case, functions, subshells, pipelines, && and ||, &) and the block it
 * runs in, and assignments become records the resolver can weigh.
 *
 * Compound commands are a stack of frames, not recursive calls; the
 * stack is bounded by the depth limit. Command substitutions are parsed
 * as scripts of their own, one nesting level deeper, bounded by the nest
 * limit. */
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* ---- tokens ---- */

void sbp_next(struct parser *p, struct token *t, bool cond)
{
	if (p->nla) {
		*t = p->la[0];
		p->la[0] = p->la[1];
		p->nla--;
		return;
	}
	lex_next(&p->lx, t, cond);
	if (p->lx.failed)
		p->failed = true;
}

const struct token *sbp_peek(struct parser *p, unsigned k)
{
	while (p->nla <= k) {
		lex_next(&p->lx, &p->la[p->nla], false);
		p->nla++;
	}
	return &p->la[k];
}

void sbp_unread(struct parser *p, const struct token *t)
{
	if (p->nla == 2)
		return; /* cannot happen: at most one token is pushed back */
	p->la[1] = p->la[0];
	p->la[0] = *t;
	p->nla++;
}

bool sbp_is_word(const struct token *t, const char *v)
{
	return t->kind == TK_WORD && t->word->value && !(t->word->flags & SB_W_QUOTED) &&
	       strcmp(t->word->value, v) == 0;
}

void sbp_syntax(struct parser *p, size_t off, size_t end, const char *msg)
{
	if (!p->failed && !p->lx.failed)
		sbm_problem(p->m, SB_PROB_SYNTAX, off, end, msg);
	p->failed = true;
}

/* ---- where commands run ---- */

struct frame *sbp_top(struct parser *p)
{
	return p->st.len ? &p->st.v[p->st.len - 1] : NULL;
}

unsigned sbp_cur_block(struct parser *p)
{
	return sbp_top(p) ? sbp_top(p)->block : p->env->block;
}

unsigned sbp_cur_ctx(struct parser *p)
{
	unsigned ctx = sbp_top(p) ? sbp_top(p)->ctx : p->env->ctx;
	if (p->andor)
		ctx |= SB_CTX_AND_OR;
	if (p->in_pipe)
		ctx |= SB_CTX_PIPELINE;
	if (p->negated)
		ctx |= SB_CTX_NEGATED;
	return ctx;
}

const char *sbp_cur_func(struct parser *p)
{
	return sbp_top(p) ? sbp_top(p)->func : p->env->func;
}

void sbp_end_list(struct parser *p)
{
	p->andor = p->in_pipe = p->negated = false;
	p->pipe_start = p->list_start = p->m->cmds.len;
}

static void mark(struct parser *p, size_t from, unsigned bits)
{
	for (size_t i = from; i < p->m->cmds.len; i++)
		p->m->cmds.v[i]->ctx |= bits;
}

static struct frame *push(struct parser *p, enum frame_kind kind, enum block_kind bk,
			  bool opaque, unsigned add_ctx, const struct token *t, const char *closer)
{
	if (p->st.len >= p->m->lim.max_depth) {
		if (!p->failed)
			sbm_problem(p->m, SB_PROB_LIMIT, t->off, t->end, "constructs nested deeper than the limit");
		p->failed = true;
		return NULL;
	}
	struct frame f = { 0 };
	f.kind = (uint8_t)kind;
	f.outer_block = sbp_cur_block(p);
	f.ctx = sbp_cur_ctx(p) | add_ctx;
	f.func = sbp_cur_func(p);
	if (p->pending_func) {
		f.func = p->pending_func;
		f.ctx |= SB_CTX_FUNCTION;
		bk = BK_FUNCTION;
		opaque = true;
		p->pending_func = NULL;
	}
	opaque |= p->andor || p->in_pipe;
	f.block = sbm_block_new(p->m, f.outer_block, bk, opaque);
	f.open_off = t->off;
	f.open_end = t->end;
	f.closer = closer;
	VEC_PUSH(p->st, f);
	/* The construct carries the list context; what follows it starts
	 * afresh inside. */
	p->andor = p->in_pipe = p->negated = false;
	return &p->st.v[p->st.len - 1];
}

static void pop(struct parser *p)
{
	p->st.len--;
}

/* ---- compound commands ---- */

static const struct { const char *word; } reserved[] = {
	{ "if" }, { "then" }, { "elif" }, { "else" }, { "fi" }, { "for" }, { "select" },
	{ "while" }, { "until" }, { "do" }, { "done" }, { "case" }, { "esac" }, { "{" },
	{ "}" }, { "function" }, { "!" },
};

static bool is_reserved(const struct token *t)
{
	for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
		if (sbp_is_word(t, reserved[i].word))
			return true;
	return false;
}

static void skip_newlines(struct parser *p, struct token *t)
{
	do
		sbp_next(p, t, false);
	while (t->kind == TK_NEWLINE || (t->kind == TK_OP && t->op == OP_SEMI));
}

/* for NAME [in WORDS]; do ... and for (( ; ; )); do ... */
static void for_loop(struct parser *p, struct token *kw)
{
	struct token t;
	sbp_reset_cmd(p);
	size_t off = kw->off, end = kw->end;
	VEC_PUSH(p->words, kw->word);
	const sb_word *var = NULL;
	if (lex_arith_cmd(&p->lx, &t)) {
		VEC_PUSH(p->words, t.word);
		end = t.end;
	} else {
		sbp_next(p, &t, false);
		if (t.kind != TK_WORD) {
			sbp_syntax(p, kw->off, kw->end, "for without a variable name");
			return;
		}
		var = t.word;
		VEC_PUSH(p->words, t.word);
		end = t.end;
		for (;;) {
			sbp_next(p, &t, false);
			if (t.kind != TK_WORD)
				break;
			VEC_PUSH(p->words, t.word);
			end = t.end;
		}
		sbp_unread(p, &t);
	}
	sb_cmd *head = sbp_emit(p, off, end);
	skip_newlines(p, &t);
	if (!sbp_is_word(&t, "do")) {
		sbp_syntax(p, t.off, t.end, "for without do");
		return;
	}
	struct frame *f = push(p, FR_LOOP, BK_LOOP, true, SB_CTX_LOOP, kw, "done");
	if (!f)
		return;
	f->state = ST_BODY;
	/* The loop variable changes on every pass: unknown inside. */
	sbp_reset_cmd(p);
	if (var)
		sbp_name_record(p, var, SB_ASSIGN_UNKNOWN);
	else
		sbp_arith_assigns(p, head->words[1]->parts[0].in_off, head->words[1]->parts[0].in_end);
	for (size_t i = 0; i < p->pending.len; i++) {
		p->pending.v[i]->pub.cmd = head;
		p->pending.v[i]->block = f->block;
		VEC_PUSH(p->m->assigns, p->pending.v[i]);
	}
	sbp_reset_cmd(p);
}

static void case_command(struct parser *p, struct token *kw)
{
	struct token t;
	sbp_reset_cmd(p);
	VEC_PUSH(p->words, kw->word);
	sbp_next(p, &t, false);
	if (t.kind != TK_WORD) {
		sbp_syntax(p, kw->off, kw->end, "case without a word");
		return;
	}
	VEC_PUSH(p->words, t.word);
	sbp_emit(p, kw->off, t.end);
	skip_newlines(p, &t);
	if (!sbp_is_word(&t, "in")) {
		sbp_syntax(p, t.off, t.end, "case without in");
		return;
	}
	struct frame *f = push(p, FR_CASE, BK_BRANCH, true, SB_CTX_CASE, kw, "esac");
	if (f)
		f->state = ST_PAT;
}

/* In a case, before an item: pattern [| pattern]... ) */
static void case_pattern(struct parser *p, struct token *t)
{
	struct frame *f = sbp_top(p);
	if (t->kind == TK_OP && t->op == OP_LPAREN)
		sbp_next(p, t, false);
	for (;;) {
		if (t->kind != TK_WORD) {
			sbp_syntax(p, t->off, t->end, "a case pattern was expected");
			return;
		}
		sbp_next(p, t, false);
		if (t->kind == TK_OP && t->op == OP_PIPE) {
			sbp_next(p, t, false);
			continue;
		}
		if (t->kind == TK_OP && t->op == OP_RPAREN)
			break;
		sbp_syntax(p, t->off, t->end, "a case pattern must end with )");
		return;
	}
	f->state = ST_ITEM;
	f->block = sbm_block_new(p->m, f->outer_block, BK_CASE_ITEM, true);
	sbp_end_list(p);
}

/* A reserved word at a command start. Returns false if t is not one. */
static bool keyword(struct parser *p, struct token *t)
{
	struct frame *f = sbp_top(p);
	if (!is_reserved(t))
		return false;
	const char *v = t->word->value;
	if (!strcmp(v, "if")) {
		struct frame *n = push(p, FR_IF, BK_BRANCH, true, SB_CTX_IF | SB_CTX_CONDITION, t, "fi");
		if (n)
			n->state = ST_COND;
	} else if (!strcmp(v, "then")) {
		if (!f || f->kind != FR_IF || f->state != ST_COND)
			return sbp_syntax(p, t->off, t->end, "then without if"), true;
		f->state = ST_BODY;
		f->ctx &= ~(unsigned)SB_CTX_CONDITION;
	} else if (!strcmp(v, "elif") || !strcmp(v, "else")) {
		if (!f || f->kind != FR_IF || f->state != ST_BODY)
			return sbp_syntax(p, t->off, t->end, "elif or else without if ... then"), true;
		f->block = sbm_block_new(p->m, f->outer_block, BK_BRANCH, true);
		if (v[2] == 'i') {
			f->state = ST_COND;
			f->ctx |= SB_CTX_CONDITION;
		}
	} else if (!strcmp(v, "fi") || !strcmp(v, "done") || !strcmp(v, "esac") || !strcmp(v, "}")) {
		if (!f || strcmp(f->closer, v) != 0 || (f->kind == FR_IF && f->state != ST_BODY) ||
		    (f->kind == FR_LOOP && f->state != ST_BODY))
			return sbp_syntax(p, t->off, t->end, "a closing keyword without its opening one"), true;
		pop(p);
		p->after_compound = true;
	} else if (!strcmp(v, "for") || !strcmp(v, "select")) {
		for_loop(p, t);
	} else if (!strcmp(v, "while") || !strcmp(v, "until")) {
		struct frame *n = push(p, FR_LOOP, BK_LOOP, true, SB_CTX_LOOP | SB_CTX_CONDITION, t, "done");
		if (n)
			n->state = ST_COND;
	} else if (!strcmp(v, "do")) {
		if (!f || f->kind != FR_LOOP || f->state != ST_COND)
			return sbp_syntax(p, t->off, t->end, "do without while or until"), true;
		f->state = ST_BODY;
		f->ctx &= ~(unsigned)SB_CTX_CONDITION;
	} else if (!strcmp(v, "case")) {
		case_command(p, t);
	} else if (!strcmp(v, "{")) {
		push(p, FR_BRACE, BK_BRACE, false, SB_CTX_BRACE, t, "}");
	} else if (!strcmp(v, "function")) {
		struct token name;
		sbp_next(p, &name, false);
		if (name.kind != TK_WORD || !name.word->value)
			return sbp_syntax(p, t->off, t->end, "function without a name"), true;
		const struct token *a = sbp_peek(p, 0);
		if (a->kind == TK_OP && a->op == OP_LPAREN && sbp_peek(p, 1)->kind == TK_OP &&
		    sbp_peek(p, 1)->op == OP_RPAREN) {
			struct token skip;
			sbp_next(p, &skip, false);
			sbp_next(p, &skip, false);
		}
		p->pending_func = name.word->value;
	} else if (!strcmp(v, "!")) {
		p->negated = true;
	}
	return true;
}

/* NAME ( ) at a command start: a function definition. */
static bool function_header(struct parser *p, const struct token *t)
{
	if (t->kind != TK_WORD || !t->word->value || (t->word->flags & SB_W_QUOTED))
		return false;
	const struct token *a = sbp_peek(p, 0);
	if (a->kind != TK_OP || a->op != OP_LPAREN)
		return false;
	const struct token *b = sbp_peek(p, 1);
	if (b->kind != TK_OP || b->op != OP_RPAREN)
		return false;
	struct token skip;
	sbp_next(p, &skip, false);
	sbp_next(p, &skip, false);
	p->pending_func = t->word->value;
	return true;
}

static void list_operator(struct parser *p, const struct token *t)
{
	switch (t->op) {
	case OP_SEMI:
		sbp_end_list(p);
		break;
	case OP_AMP:
		mark(p, p->list_start, SB_CTX_BACKGROUND);
		sbp_end_list(p);
		break;
	case OP_AND:
	case OP_OR:
		p->andor = true;
		p->in_pipe = p->negated = false;
		p->pipe_start = p->m->cmds.len;
		break;
	case OP_PIPE:
	case OP_PIPE_AMP:
		/* Only the first element needs marking after the fact; the
		 * ones after it are read with in_pipe set. */
		if (!p->in_pipe)
			mark(p, p->pipe_start, SB_CTX_PIPELINE);
		p->in_pipe = true;
		break;
	case OP_DSEMI:
	case OP_SEMI_AMP:
	case OP_DSEMI_AMP: {
		struct frame *f = sbp_top(p);
		if (!f || f->kind != FR_CASE || f->state != ST_ITEM)
			sbp_syntax(p, t->off, t->end, ";; outside a case item");
		else
			f->state = ST_PAT;
		sbp_end_list(p);
		break;
	}
	default:
		break;
	}
}

/* "done < file", "} > log": the redirection belongs to the construct. */
static void compound_redirection(struct parser *p, const struct token *t)
{
	struct token target;
	sbp_next(p, &target, false);
	if (target.kind != TK_WORD) {
		sbp_syntax(p, t->off, t->end, "a redirection without its target");
		return;
	}
	if (t->op == OP_HEREDOC || t->op == OP_HEREDOC_STRIP)
		lex_heredoc(&p->lx, target.word, t->op == OP_HEREDOC_STRIP, t->off);
	else
		sbp_parse_cmdsubs(p, target.word);
}

static void unclosed(struct parser *p)
{
	const struct frame *f = sbp_top(p);
	const char *text = f->kind == FR_IF ? "if without its fi"
			   : f->kind == FR_LOOP ? "loop without its done"
			   : f->kind == FR_CASE ? "case without its esac"
			   : f->kind == FR_BRACE ? "{ without its }"
			   : "( without its )";
	sbp_syntax(p, f->open_off, f->open_end, text);
}

bool sbp_parse_range(sb_model *m, size_t off, size_t end, const struct parse_env *env)
{
	struct parser p;
	memset(&p, 0, sizeof p);
	p.m = m;
	p.env = env;
	lex_init(&p.lx, m, off, end, env);
	sbp_end_list(&p);
	struct token t;
	while (!p.failed) {
		struct frame *f = sbp_top(&p);
		if (f && f->kind == FR_CASE && f->state == ST_PAT) {
			skip_newlines(&p, &t);
			if (sbp_is_word(&t, "esac")) {
				pop(&p);
				continue;
			}
			if (t.kind == TK_EOF)
				break;
			case_pattern(&p, &t);
			continue;
		}
		if (!p.nla && lex_arith_cmd(&p.lx, &t)) {
			sbp_reset_cmd(&p);
			VEC_PUSH(p.words, t.word);
			sbp_arith_assigns(&p, t.word->parts[0].in_off, t.word->parts[0].in_end);
			p.continues = false;
			sbp_emit(&p, t.off, t.end)->arith = true;
			continue;
		}
		sbp_next(&p, &t, false);
		if (t.kind == TK_EOF)
			break;
		if (t.kind == TK_NEWLINE) {
			if (!p.continues)
				sbp_end_list(&p);
			p.after_compound = false;
			continue;
		}
		if (t.kind == TK_OP && t.op == OP_LPAREN) {
			push(&p, FR_SUBSHELL, BK_SUBSHELL, true, SB_CTX_SUBSHELL, &t, ")");
			continue;
		}
		if (t.kind == TK_OP && t.op == OP_RPAREN) {
			if (!f || f->kind != FR_SUBSHELL)
				sbp_syntax(&p, t.off, t.end, "unexpected )");
			else
				pop(&p);
			p.after_compound = true;
			continue;
		}
		bool redir = t.kind == TK_OP && (t.op == OP_REDIR || t.op == OP_HEREDOC ||
						 t.op == OP_HEREDOC_STRIP || t.op == OP_HERESTRING);
		if (t.kind == TK_OP && !redir) {
			p.after_compound = false;
			list_operator(&p, &t);
			p.continues = t.op == OP_AND || t.op == OP_OR || t.op == OP_PIPE ||
				      t.op == OP_PIPE_AMP;
			continue;
		}
		p.continues = false;
		if (redir && p.after_compound) {
			compound_redirection(&p, &t);
			continue;
		}
		p.after_compound = false;
		if (p.pending_func && !(sbp_is_word(&t, "{") || sbp_is_word(&t, "if") || sbp_is_word(&t, "for") ||
					sbp_is_word(&t, "while") || sbp_is_word(&t, "until") || sbp_is_word(&t, "case"))) {
			sbp_syntax(&p, t.off, t.end, "a function body must be a compound command");
			break;
		}
		if (keyword(&p, &t))
			continue;
		if (function_header(&p, &t))
			continue;
		sbp_simple_command(&p, &t);
	}
	if (!p.failed && p.st.len)
		unclosed(&p);
	if (!p.failed && p.pending_func)
		sbp_syntax(&p, end, end, "a function without its body");
	bool ok = !p.failed && !p.lx.failed;
	lex_fini(&p.lx);
	free(p.st.v);
	free(p.words.v);
	free(p.extra.v);
	free(p.pending.v);
	free(p.heredocs.v);
	return ok;
}
