/* Matched pairs, as bash 5.2's parse_matched_pair reads them: where a
 * quoted string, ${ }, $(( )), $[ ] or backquotes end, with the quotes
 * and expansions nested inside; and $( ), parsed as commands by a parser
 * of its own (parse.c, sbp_comsub) because only the grammar knows which
 * ) ends it (a case pattern's does not, a here-document body inside is
 * not shell text). Each nested construct is a level of recursion,
 * counted against the depth limit and the stack (lex_enter). */
#include "lex.h"
#include "parse.h"

#include <string.h>

bool lex_enter(struct lexer *lx, size_t off)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	if (lx->depth >= lx->m->lim.max_depth ||
	    lx->m->stack_base - here > lx->m->stack_budget) {
		lex_fail(lx, SB_PROB_LIMIT, off, off + 1, "nesting deeper than the limit");
		return false;
	}
	lx->depth++;
	return true;
}

void lex_leave(struct lexer *lx)
{
	lx->depth--;
}

void lex_eof_in(struct lexer *lx, size_t at, size_t len, char close)
{
	static const char *const msg[] = {
		"' without its closing '", "\" without its closing \"", "` without its closing `",
		"$( without its closing )", "${ without its closing }", "[ without its closing ]",
	};
	const char *m = close == '\'' ? msg[0] : close == '"' ? msg[1] : close == '`' ? msg[2]
		      : close == ')' ? msg[3] : close == '}' ? msg[4] : msg[5];
	enum sb_problem_kind kind = close == '\'' || close == '"' || close == '`'
				    ? SB_PROB_UNTERMINATED_QUOTE : SB_PROB_UNTERMINATED_EXPANSION;
	lex_fail(lx, kind, at, at + len, m);
}

/* ---- matched pairs ---- */

enum { MF_WASDOL = 1, MF_PASSNEXT = 2, MF_GTLT = 4 };

static size_t dollar_word(struct lexer *lx, size_t at, size_t p, char ch, unsigned rflags,
			  enum comsub_from from)
{
	if (ch == '(')
		return lex_comsub(lx, at, p, from);
	if (ch == '{')
		return lex_matched(lx, at, p, '{', '}', MP_FIRSTCLOSE | MP_DOLBRACE | rflags, 0);
	return lex_matched(lx, at, p, '[', ']', rflags | MP_ARITH, 0);
}

/* bash's parse_matched_pair: the opener is read, p is after it. */
size_t lex_matched(struct lexer *lx, size_t at, size_t p, char open, char close, unsigned flags,
		   char qc)
{
	if (!lex_enter(lx, at))
		return SIZE_MAX;
	unsigned count = 1, tf = 0;
	unsigned rflags = qc == '"' ? MP_DQUOTE : (flags & MP_DQUOTE);
	enum comsub_from from = (rflags & MP_DQUOTE) ? COMSUB_IN_DQUOTE : COMSUB_IN_BRACE;
	const char *s = lx->s;
	/* the opener is [at, p): one byte (a quote, a subscript's [) or
	 * two ($[, ${), with any backslash-newline between */
	size_t opener_end = p;
	for (;;) {
		if (qc != '\'' && !(tf & MF_PASSNEXT))
			p = lex_skip_joins(lx, p);
		if (p >= lx->end) {
			lex_eof_in(lx, at, opener_end - at, close);
			p = SIZE_MAX;
			break;
		}
		char ch = s[p];
		p = ch == '\n' ? lex_after_newline(lx, p) : p + 1;
		if (tf & MF_PASSNEXT) {
			tf &= ~(unsigned)MF_PASSNEXT;
			continue;
		}
		if (ch == close)
			count--;
		else if (open != close && (tf & MF_WASDOL) && open == '{' && ch == '{')
			count++;
		else if (!(flags & MP_FIRSTCLOSE) && ch == open)
			count++;
		if (!count)
			break;
		if (open == '\'') {
			if ((flags & MP_ALLOWESC) && ch == '\\')
				tf |= MF_PASSNEXT;
			continue;
		}
		if (ch == '\\')
			tf |= MF_PASSNEXT;
		size_t np = p;
		if (open != close) {
			if (ch == '\'' || ch == '"' || ch == '`') {
				unsigned f = (tf & MF_WASDOL) && ch == '\'' ? MP_ALLOWESC | rflags : rflags;
				np = lex_matched(lx, p - 1, p, ch, ch, f, ch);
			} else if (((flags & (MP_ARRAYSUB | MP_DOLBRACE)) && (tf & MF_WASDOL) &&
				    (ch == '(' || ch == '{' || ch == '[')) ||
				   ((flags & MP_ARITH) && (tf & MF_WASDOL) && ch == '(') ||
				   ((flags & (MP_ARRAYSUB | MP_DOLBRACE)) && (tf & MF_GTLT) && ch == '(')) {
				if (open == ch)
					count--;
				np = dollar_word(lx, p - 2, p, ch, rflags, from);
			}
		} else if (open == '"' && ch == '`') {
			np = lex_matched(lx, p - 1, p, '`', '`', rflags, 0);
		} else if (open != '`' && (tf & MF_WASDOL) && (ch == '(' || ch == '{' || ch == '[')) {
			if (open == ch)
				count--;
			np = dollar_word(lx, p - 2, p, ch, rflags, from);
		}
		if (np == SIZE_MAX) {
			p = SIZE_MAX;
			break;
		}
		if (np != p) {
			p = np;
			tf &= ~(unsigned)(MF_WASDOL | MF_GTLT);
			continue;
		}
		if ((ch == '<' || ch == '>') && !(tf & MF_GTLT))
			tf |= MF_GTLT;
		else
			tf &= ~(unsigned)MF_GTLT;
		if (ch == '$' && !(tf & MF_WASDOL))
			tf |= MF_WASDOL;
		else
			tf &= ~(unsigned)MF_WASDOL;
	}
	lex_leave(lx);
	return p;
}

/* Read again (a ${NAME:=...} operand): parsed, then taken back. */
SB_COLD static size_t comsub_again(struct lexer *lx, size_t open)
{
	struct sbm_mark mark = sbm_mark(lx->m);
	size_t e = sbp_comsub(lx, open);
	sbm_rollback(lx->m, &mark);
	return e;
}

size_t lex_comsub(struct lexer *lx, size_t open, size_t p, enum comsub_from from)
{
	/* bash pushes a delimiter for a $( ) or $(( )) in a word or in
	 * "...", not for one it finds inside ${ } or $[ ]: what a backslash
	 * escapes in an array inside (lex.h, PST_BS_NONE) is set here, and
	 * a $( ) takes it along (parse.c, comsub_state) */
	static const unsigned bs[] = { [COMSUB_IN_WORD] = PST_BS_NONE,
				       [COMSUB_IN_DQUOTE] = PST_BS_DQUOTE };
	unsigned pst = lx->st.pst;
	if (from != COMSUB_IN_BRACE)
		lx->st.pst = (pst & ~(unsigned)(PST_BS_NONE | PST_BS_DQUOTE)) | bs[from];
	size_t q, e = SIZE_MAX;
	if (lex_peek(lx, p, &q) == '(') {
		e = lex_matched(lx, open, p, '(', ')', MP_ARITH, 0);
	} else if (lex_enter(lx, open)) {
		lx->pos = p;
		e = lx->quiet ? comsub_again(lx, open) : sbp_comsub(lx, open);
		lex_leave(lx);
	}
	lx->st.pst = pst;
	return e;
}

