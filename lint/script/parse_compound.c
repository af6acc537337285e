/* Compound commands of bash 5.2's grammar: if, while and until, for and
 * select (with `in` or without, `do ... done` or `{ ... }`), for (( )),
 * case with ;; ;& ;;&, subshells and groups, (( )), function
 * definitions in both syntaxes with any compound body, and coproc. Each
 * body is a block of its own for the resolver; the commands inside
 * carry the construct in their ctx bits. */
#include "parse.h"

#include <string.h>

#include "xalloc.h"

/* The where of a body: its block (a function's body is the function's
 * block) and the context bits it adds. */
static void enter(struct parser *p, const struct where *w, enum block_kind bk, bool opaque,
		  unsigned add, struct where *in)
{
	*in = *w;
	in->ctx |= add;
	if (p->pending_func) {
		in->func = p->pending_func;
		in->ctx |= SB_CTX_FUNCTION;
		bk = BK_FUNCTION;
		opaque = true;
		p->pending_func = NULL;
	}
	opaque |= p->opaque_next;
	p->opaque_next = false;
	in->block = sbm_block_new(p->m, w->block, bk, opaque);
}

/* A body: the list, with p->here set for the $( ) inside. */
static bool body(struct parser *p, const struct where *in, const char *what)
{
	struct where saved = p->here;
	p->here = *in;
	bool ok = sbp_compound_list(p, in, what);
	p->here = saved;
	return ok;
}

/* The closer a construct waits for. Another construct's closer there
 * means this one was never closed: the problem at its opener, and the
 * parse goes on as if it had been. */
static bool expect(struct parser *p, enum tok kind)
{
	const struct token *t = sbp_peek(p);
	if (t->kind == kind) {
		sbp_next(p);
		return true;
	}
	if (sbp_failed(p))
		return false;
	if (t->kind != T_EOF && t->kind != T_ERROR && sbp_outer_closer(p, t->kind)) {
		const struct opener *o = &p->open.v[p->open.len - 1];
		static const char *const msg[] = { "if without its fi", "loop without its done",
						   "case without its esac", "{ without its }",
						   "( without its )", "if without its then",
						   "loop without its do" };
		unsigned i = kind == T_FI ? 0 : kind == T_DONE ? 1 : kind == T_ESAC ? 2
			   : kind == T_RBRACE ? 3 : kind == T_RPAREN ? 4 : kind == T_THEN ? 5 : 6;
		sbp_error(p, o->off, o->end, msg[i]);
		p->lx->failed = false;
		return true;
	}
	sbp_unexpected(p, t);
	return false;
}

static bool if_command(struct parser *p, const struct where *w)
{
	struct token kw = *sbp_peek(p);
	sbp_next(p);
	if (!sbp_open(p, T_IF, &kw, W_THEN))
		return false;
	struct where in;
	enter(p, w, BK_BRANCH, true, SB_CTX_IF | SB_CTX_CONDITION, &in);
	/* the branches know their if, for sb_assign_conditions */
	unsigned first = in.block;
	if (p->m->blocks.v[first].kind == BK_BRANCH)
		p->m->blocks.v[first].if_first = first;
	bool ok = body(p, &in, "if with no command before then") && expect(p, T_THEN);
	/* a function's body: its branches are blocks of the function */
	unsigned outer = in.func != w->func ? in.block : w->block;
	while (ok) {
		sbp_wait(p, W_FI);
		in.ctx &= ~(unsigned)SB_CTX_CONDITION;
		ok = body(p, &in, "then with no command after it");
		const struct token *t = sbp_peek(p);
		if (!ok || (t->kind != T_ELIF && t->kind != T_ELSE))
			break;
		bool elif = t->kind == T_ELIF;
		sbp_next(p);
		in.block = sbm_block_new(p->m, outer, BK_BRANCH, true);
		p->m->blocks.v[in.block].if_first = p->m->blocks.v[first].if_first;
		if (!elif) {
			ok = body(p, &in, "else with no command after it");
			break;
		}
		sbp_wait(p, W_THEN);
		in.ctx |= SB_CTX_CONDITION;
		ok = body(p, &in, "elif with no command before then") && expect(p, T_THEN);
	}
	ok = ok && expect(p, T_FI);
	sbp_close(p);
	return ok;
}

static bool while_command(struct parser *p, const struct where *w)
{
	struct token kw = *sbp_peek(p);
	sbp_next(p);
	if (!sbp_open(p, kw.kind, &kw, W_DO))
		return false;
	struct where in;
	enter(p, w, BK_LOOP, true, SB_CTX_LOOP | SB_CTX_CONDITION, &in);
	bool ok = body(p, &in, "loop with no command before do") && expect(p, T_DO);
	sbp_wait(p, W_DONE);
	in.ctx &= ~(unsigned)SB_CTX_CONDITION;
	ok = ok && body(p, &in, "do with no command before done") && expect(p, T_DONE);
	sbp_close(p);
	return ok;
}

/* for (( a; b; c )) must hold three expressions: two ; outside quotes
 * and expansions (bash's make_arith_for_command). */
static bool three_expressions(const char *s, size_t a, size_t b)
{
	unsigned semis = 0, depth = 0;
	char q = 0;
	for (size_t i = a; i < b; i++) {
		char c = s[i];
		if (c == '\\') {
			i++;
		} else if (q) {
			q = c == q ? 0 : q;
		} else if (c == '\'' || c == '"' || c == '`') {
			q = c;
		} else if (c == '$' && i + 1 < b && strchr("({[", s[i + 1])) {
			depth++;
			i++;
		} else if (depth && strchr(")}]", c)) {
			depth--;
		} else if (c == ';' && !depth) {
			semis++;
		}
	}
	return semis == 2;
}

/* After `for NAME`: ; or newlines, and `in WORDS` with its terminator. */
static bool for_words(struct parser *p)
{
	const struct token *t = sbp_peek(p);
	if (t->kind == T_SEMI) {
		sbp_next(p);
		sbp_skip_newlines(p);
		return true;
	}
	sbp_skip_newlines(p);
	if (sbp_peek(p)->kind != T_IN)
		return true;
	sbp_add_word(p, sbp_peek(p));
	sbp_next(p);
	while (sbp_peek(p)->kind == T_WORD) {
		sbp_add_word(p, sbp_peek(p));
		sbp_next(p);
	}
	t = sbp_peek(p);
	if (t->kind == T_SEMI || t->kind == T_NEWLINE) {
		sbp_next(p);
		sbp_skip_newlines(p);
		return true;
	}
	if (t->kind == T_EOF)
		return true;
	sbp_unexpected(p, t);
	return false;
}

/* for (( a; b; c )) and its terminator. */
static void for_arith(struct parser *p, const sb_word *arith)
{
	if (!three_expressions(p->m->text, arith->parts[0].in_off, arith->parts[0].in_end)) {
		sbp_error(p, arith->off, arith->end, "for (( )) needs three expressions: init; test; step");
		p->lx->failed = false;
	}
	const struct token *t = sbp_peek(p);
	if (t->kind == T_SEMI || t->kind == T_NEWLINE) {
		sbp_next(p);
		sbp_skip_newlines(p);
	}
}

/* for NAME [in WORDS] or for (( )): the head, a command of its words;
 * *var or *arith says which. NULL when it is broken. */
static sb_cmd *for_head(struct parser *p, const struct where *w, const struct token *kw,
			const sb_word **var, const sb_word **arith)
{
	sbp_reset_cmd(p);
	sbp_add_word(p, kw);
	const struct token *t = sbp_peek(p);
	if (t->kind == T_ARITH_FOR) {
		*arith = t->word;
		sbp_add_word(p, t);
		sbp_next(p);
		for_arith(p, *arith);
	} else if (t->kind == T_WORD) {
		*var = t->word;
		sbp_add_word(p, t);
		sbp_next(p);
		if (sbp_peek(p)->kind != T_DO && !for_words(p))
			return NULL;
	} else {
		if (t->kind == T_EOF || t->kind == T_ERROR)
			sbp_unexpected(p, t);
		else
			sbp_error(p, kw->off, kw->end, "for without a variable name");
		return NULL;
	}
	return sbp_emit(p, w, kw->off, p->prev_end);
}

/* The loop variable changes on every pass: unknown inside the body. */
static void for_variable(struct parser *p, sb_cmd *head, unsigned block, const sb_word *var,
			 const sb_word *arith)
{
	sbp_reset_cmd(p);
	if (var)
		sbp_name_record(p, var, SB_ASSIGN_UNKNOWN);
	else
		sbp_arith_assigns(p, arith->parts[0].in_off, arith->parts[0].in_end);
	for (size_t i = 0; i < p->pending.len; i++) {
		p->pending.v[i]->pub.cmd = head;
		p->pending.v[i]->block = block;
		VEC_PUSH(p->m->assigns, p->pending.v[i]);
	}
	sbp_reset_cmd(p);
}

static bool for_command(struct parser *p, const struct where *w)
{
	struct token kw = *sbp_peek(p);
	sbp_next(p);
	if (!sbp_open(p, kw.kind, &kw, W_DO))
		return false;
	const sb_word *var = NULL, *arith = NULL;
	sb_cmd *head = for_head(p, w, &kw, &var, &arith);
	const struct token *t = sbp_peek(p);
	enum tok close = t->kind == T_LBRACE ? T_RBRACE : T_DONE;
	bool ok = head != NULL;
	if (ok && t->kind != T_DO && t->kind != T_LBRACE)
		ok = expect(p, T_DO);
	else if (ok)
		sbp_next(p);
	if (!ok) {
		sbp_close(p);
		return false;
	}
	sbp_wait(p, close == T_DONE ? W_DONE : W_RBRACE);
	struct where in;
	enter(p, w, BK_LOOP, true, SB_CTX_LOOP, &in);
	for_variable(p, head, in.block, var, arith);
	ok = body(p, &in, close == T_DONE ? "do with no command before done"
					  : "{ with no command before }") && expect(p, close);
	sbp_close(p);
	return ok;
}

/* pattern [| pattern]... ) */
static bool case_pattern(struct parser *p)
{
	if (sbp_peek(p)->kind == T_LPAREN)
		sbp_next(p);
	for (;;) {
		const struct token *t = sbp_peek(p);
		if (t->kind != T_WORD) {
			sbp_unexpected(p, t);
			return false;
		}
		sbp_next(p);
		t = sbp_peek(p);
		if (t->kind == T_PIPE) {
			sbp_next(p);
			continue;
		}
		if (t->kind == T_RPAREN) {
			sbp_next(p);
			return true;
		}
		sbp_error(p, t->off, t->end, "a case pattern must end with )");
		return false;
	}
}

static bool case_items(struct parser *p, const struct where *w, unsigned outer, const sb_cmd *cmd)
{
	for (;;) {
		sbp_skip_newlines(p);
		const struct token *t = sbp_peek(p);
		if (t->kind == T_ESAC) {
			sbp_next(p);
			return true;
		}
		size_t pat_off = t->off;
		if (!case_pattern(p))
			return false;
		struct where in = *w;
		in.block = sbm_block_new(p->m, outer, BK_CASE_ITEM, true);
		/* the item knows its case and patterns, for sb_assign_case */
		struct block *b = &p->m->blocks.v[in.block];
		b->case_cmd = cmd;
		b->pat_off = pat_off;
		b->pat_end = p->prev_end;
		sbp_wait(p, W_ESAC | W_DSEMI);
		sbp_skip_newlines(p);
		/* an item may be empty; an operator or a word the lexer
		 * cannot read there is a broken statement of its body */
		enum tok k = sbp_peek(p)->kind;
		if ((sbp_can_start(k) || sbp_is_operator(k) || k == T_ERROR) &&
		    !body(p, &in, "a case item with no command"))
			return false;
		t = sbp_peek(p);
		if (t->kind == T_DSEMI || t->kind == T_SEMI_AND || t->kind == T_DSEMI_AND) {
			p->m->blocks.v[in.block].falls_through = t->kind != T_DSEMI;
			sbp_next(p);
			sbp_wait(p, W_ESAC);
			continue;
		}
		return expect(p, T_ESAC);
	}
}

static bool case_command(struct parser *p, const struct where *w)
{
	struct token kw = *sbp_peek(p);
	sbp_next(p);
	if (!sbp_open(p, T_CASE, &kw, W_ESAC))
		return false;
	sbp_reset_cmd(p);
	sbp_add_word(p, &kw);
	const struct token *t = sbp_peek(p);
	bool ok = t->kind == T_WORD;
	const sb_cmd *cmd = NULL;
	if (ok) {
		sbp_add_word(p, t);
		sbp_next(p);
		cmd = sbp_emit(p, w, kw.off, p->prev_end);
		sbp_skip_newlines(p);
		t = sbp_peek(p);
		ok = t->kind == T_IN;
	}
	if (!ok) {
		if (!sbp_failed(p))
			sbp_error(p, t->off, t->end, t->kind == T_EOF ? "case without its esac"
								       : "case without in");
		sbp_close(p);
		return false;
	}
	sbp_next(p);
	struct where in;
	enter(p, w, BK_BRANCH, true, SB_CTX_CASE, &in);
	ok = case_items(p, &in, in.func != w->func ? in.block : w->block, cmd);
	sbp_close(p);
	return ok;
}

/* ( list ) and { list }; the opener already read when t is given. */
static bool group(struct parser *p, const struct where *w, const struct token *opened)
{
	struct token kw = opened ? *opened : *sbp_peek(p);
	if (!opened)
		sbp_next(p);
	bool sub = kw.kind == T_LPAREN;
	if (!sbp_open(p, kw.kind, &kw, sub ? W_RPAREN : W_RBRACE))
		return false;
	struct where in;
	enter(p, w, sub ? BK_SUBSHELL : BK_BRACE, sub, sub ? SB_CTX_SUBSHELL : SB_CTX_BRACE, &in);
	bool ok = body(p, &in, sub ? "( ) with no command inside" : "{ } with no command inside") &&
		  expect(p, sub ? T_RPAREN : T_RBRACE);
	sbp_close(p);
	return ok;
}

static bool arith_command(struct parser *p, const struct where *w)
{
	struct token t = *sbp_peek(p);
	size_t first = p->la_first;
	sbp_next(p);
	sbp_reset_cmd(p);
	p->cmd_first = first;
	sbp_add_word(p, &t);
	sbp_arith_assigns(p, t.word->parts[0].in_off, t.word->parts[0].in_end);
	struct where here = *w;
	if (p->pending_func) {
		struct where in;
		enter(p, w, BK_BRANCH, true, 0, &in);
		here = in;
	}
	p->opaque_next = false;
	sbp_emit(p, &here, t.off, t.end)->arith = true;
	return true;
}

bool sbp_shell_command(struct parser *p, const struct where *w)
{
	switch (sbp_peek(p)->kind) {
	case T_IF:
		return if_command(p, w);
	case T_WHILE: case T_UNTIL:
		return while_command(p, w);
	case T_FOR: case T_SELECT:
		return for_command(p, w);
	case T_CASE:
		return case_command(p, w);
	case T_LPAREN: case T_LBRACE:
		return group(p, w, NULL);
	case T_ARITH_CMD:
		return arith_command(p, w);
	case T_COND_START:
		if (p->pending_func) {
			struct where in;
			enter(p, w, BK_BRANCH, true, 0, &in);
			return sbp_cond(p, &in);
		}
		p->opaque_next = false;
		return sbp_cond(p, w);
	default:
		sbp_unexpected(p, sbp_peek(p));
		return false;
	}
}

static bool shell_command_start(enum tok k)
{
	return k == T_IF || k == T_WHILE || k == T_UNTIL || k == T_FOR || k == T_SELECT ||
	       k == T_CASE || k == T_LPAREN || k == T_LBRACE || k == T_ARITH_CMD ||
	       k == T_COND_START;
}

/* The body of a function: a compound command and its redirections. */
static bool function_body(struct parser *p, const struct where *w, const sb_word *name)
{
	const struct token *t = sbp_peek(p);
	if (!shell_command_start(t->kind)) {
		if (t->kind == T_EOF || sbp_failed(p))
			sbp_unexpected(p, t);
		else
			sbp_error(p, t->off, t->end, "a function body must be a compound command");
		return false;
	}
	p->pending_func = name->value ? name->value : sbm_strndup(p->m, p->m->text + name->off,
								 name->end - name->off);
	return sbp_shell_command(p, w) && sbp_redirections(p);
}

bool sbp_function_def(struct parser *p, const struct where *w, const struct token *name)
{
	sbp_next(p); /* ( */
	const struct token *t = sbp_peek(p);
	if (t->kind != T_RPAREN) {
		sbp_unexpected(p, t);
		return false;
	}
	sbp_next(p);
	sbp_skip_newlines(p);
	return function_body(p, w, name->word);
}

bool sbp_function_keyword(struct parser *p, const struct where *w)
{
	struct token kw = *sbp_peek(p);
	sbp_next(p);
	const struct token *t = sbp_peek(p);
	if (t->kind != T_WORD) {
		if (t->kind == T_EOF || sbp_failed(p))
			sbp_unexpected(p, t);
		else
			sbp_error(p, kw.off, kw.end, "function without a name");
		return false;
	}
	const sb_word *name = t->word;
	sbp_next(p);
	t = sbp_peek(p);
	if (t->kind == T_LPAREN) {
		struct token lp = *t;
		sbp_next(p);
		if (sbp_peek(p)->kind != T_RPAREN) {
			/* function NAME ( list ): a subshell body */
			p->pending_func = name->value ? name->value : "";
			return group(p, w, &lp) && sbp_redirections(p);
		}
		sbp_next(p);
		sbp_skip_newlines(p);
	} else if (t->kind == T_NEWLINE) {
		sbp_skip_newlines(p);
	}
	return function_body(p, w, name);
}

bool sbp_coproc(struct parser *p, const struct where *w)
{
	sbp_next(p);
	struct where bg = *w;
	bg.ctx |= SB_CTX_BACKGROUND;
	const struct token *t = sbp_peek(p);
	if (shell_command_start(t->kind))
		return sbp_shell_command(p, &bg) && sbp_redirections(p);
	if (t->kind == T_WORD) {
		struct token name = *t;
		p->cmd_first = p->la_first;
		sbp_next(p);
		if (shell_command_start(sbp_peek(p)->kind))
			return sbp_shell_command(p, &bg) && sbp_redirections(p);
		return sbp_simple_command(p, &bg, &name);
	}
	if (t->kind == T_ASSIGN || t->kind == T_NUMBER || t->kind == T_REDIR_WORD ||
	    tok_is_redir(t->kind))
		return sbp_simple_command(p, &bg, NULL);
	sbp_unexpected(p, t);
	return false;
}

/* ---- redirections ---- */

bool sbp_redirection(struct parser *p, bool compound)
{
	const struct token *t = sbp_peek(p);
	if (t->kind == T_NUMBER || t->kind == T_REDIR_WORD) {
		sbp_next(p);
		t = sbp_peek(p);
		if (!tok_is_redir(t->kind)) {
			sbp_unexpected(p, t);
			return false;
		}
	}
	struct token op = *t;
	sbp_next(p);
	t = sbp_peek(p);
	bool dup = op.kind == T_LESS_AND || op.kind == T_GREAT_AND;
	if (!(t->kind == T_WORD || (dup && (t->kind == T_NUMBER || t->kind == T_DASH)))) {
		if (t->kind == T_EOF && p->open.len)
			sbp_unexpected(p, t);
		else if (!sbp_failed(p))
			sbp_error(p, op.off, op.end, "a redirection without its target");
		return false;
	}
	struct token target = *t;
	sbp_next(p);
	if (op.kind == T_DLESS || op.kind == T_DLESS_DASH) {
		size_t rec = lex_heredoc(p->lx, target.word, op.kind == T_DLESS_DASH, op.off);
		if (!compound)
			VEC_PUSH(p->heredocs, rec);
	} else if (target.word && !compound) {
		VEC_PUSH(p->extra, target.word);
	} else if (target.word) {
		sbp_parse_backquotes(p, &p->here, target.word);
	}
	/* a command of redirections alone so far: NAME=( may follow */
	if (!compound && !p->words.len && !p->pending.len)
		p->lx->st.pst |= PST_REDIRLIST;
	return !sbp_failed(p);
}

bool sbp_redirections(struct parser *p)
{
	for (;;) {
		enum tok k = sbp_peek(p)->kind;
		if (!tok_is_redir(k) && k != T_NUMBER && k != T_REDIR_WORD)
			return !sbp_failed(p);
		if (!sbp_redirection(p, true))
			return false;
	}
}
