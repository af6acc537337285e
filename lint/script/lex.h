/* The shell lexer of the batch-script model: words with their parts and
 * spans, operators, here-document bodies, comments and continuation
 * facts. Pull-based, so the parser can ask for [[ ]] words and (( ))
 * where bash reads them differently. Internal to lint/sbatch_*.c. */
#ifndef TF_SBATCH_LEX_H
#define TF_SBATCH_LEX_H

#include "internal.h"

enum tok_kind { TK_EOF, TK_WORD, TK_NEWLINE, TK_OP, TK_ARRAY, TK_ARITH };

enum op {
	OP_NONE, OP_SEMI, OP_AMP, OP_AND, OP_OR, OP_PIPE, OP_PIPE_AMP,
	OP_LPAREN, OP_RPAREN, OP_DSEMI, OP_SEMI_AMP, OP_DSEMI_AMP,
	OP_REDIR, OP_HEREDOC, OP_HEREDOC_STRIP, OP_HERESTRING,
};

/* NAME=( ... ) and NAME+=( ... ) */
struct array_lit {
	const char *name;
	size_t name_off, name_end;
	bool append;
	bool subscript;   /* NAME[i]=( ... ): not a whole-array assignment */
	sb_word **elems;
	size_t n;
};

struct token {
	enum tok_kind kind;
	enum op op;
	size_t off, end;
	sb_word *word;          /* TK_WORD */
	struct array_lit *arr;  /* TK_ARRAY */
};

#define LEX_MAX_HEREDOCS 16

struct lexer {
	sb_model *m;
	const char *s;
	size_t pos, end;
	const struct parse_env *env;
	bool failed;
	bool in_array;
	struct {
		const char *delim;
		size_t dlen;
		bool strip;
		size_t rec;       /* index in m->heredocs */
		size_t op_off;
	} hd[LEX_MAX_HEREDOCS];
	unsigned nhd;
	VEC(struct wpart) tmp;
};

void lex_init(struct lexer *lx, sb_model *m, size_t off, size_t end,
	      const struct parse_env *env);
void lex_fini(struct lexer *lx);
/* The next token; cond reads inside [[ ]], where operators are words. */
void lex_next(struct lexer *lx, struct token *t, bool cond);
/* At a command start: reads "(( ... ))" as one TK_ARITH token if the
 * input is there. */
bool lex_arith_cmd(struct lexer *lx, struct token *t);
/* The whole of [pos, end) as one word: an operand of ${NAME:=...}. */
sb_word *lex_word_all(struct lexer *lx, bool in_dquote);
/* Registers a here-document whose body starts after the next newline;
 * returns its index in m->heredocs. */
size_t lex_heredoc(struct lexer *lx, const sb_word *delim, bool strip, size_t op_off);

/* ---- inside words (sbatch_lex_quote.c) ---- */

/* What skip_balanced is inside of. */
enum { SK_PAREN, SK_BRACE, SK_ARITH, SK_DQ, SK_BT };

uint32_t lex_line_of(struct lexer *lx, size_t off);
/* Records the problem (the first only) and stops the lexer. */
void lex_fail(struct lexer *lx, enum sb_problem_kind kind, size_t off, size_t end,
	      const char *msg);
/* Lines after the first of a quoted string lie inside it. */
void lex_mark_string_lines(struct lexer *lx, size_t off, size_t end);
/* Each returns the position after the closing quote (or construct),
 * or SIZE_MAX when the input ends first; p is after the opener. */
size_t lex_skip_single(const struct lexer *lx, size_t p);
size_t lex_skip_ansi(const struct lexer *lx, size_t p);
size_t lex_skip_balanced(struct lexer *lx, size_t p, int kind);
/* Parts of the word being scanned (lx->tmp). */
struct wpart *lex_add_part(struct lexer *lx, uint8_t kind, char quote, size_t off, size_t end);
void lex_add_lit(struct lexer *lx, char quote, size_t off, size_t end);
/* Read one expansion or quoted run at p; return the position after it. */
size_t lex_scan_dollar(struct lexer *lx, size_t p, char quote);
size_t lex_scan_backtick(struct lexer *lx, size_t p, char quote);
size_t lex_scan_dq_body(struct lexer *lx, size_t open, size_t p, bool closed);
size_t lex_scan_dquote(struct lexer *lx, size_t open, size_t p);

#endif
