/* The parser state the grammar (parse.c, parse_compound.c, parse_cond.c)
 * and the simple-command reader (parse_cmd.c) share. Internal to
 * lint/script. */
#ifndef TF_SBATCH_PARSE_H
#define TF_SBATCH_PARSE_H

#include "lex.h"

/* Where a command runs: the context bits and block every command of a
 * construct inherits. */
struct where {
	unsigned ctx;
	unsigned block;
	const char *func;
};

/* An open construct, for naming the real cause of a syntax error: the
 * opener a missing closer belongs to. */
struct opener {
	enum tok kind;      /* T_IF, T_WHILE, T_FOR, T_CASE, T_LBRACE, T_LPAREN, T_DOLPAREN... */
	size_t off, end;
	unsigned state;     /* what it waits for now (enum wait) */
};
enum wait { W_THEN = 1, W_DO = 2, W_FI = 4, W_DONE = 8, W_ESAC = 16, W_RBRACE = 32,
	    W_RPAREN = 64, W_DSEMI = 128 };

struct parser {
	sb_model *m;
	struct lexer *lx;
	const struct parse_env *env;
	struct token la;
	bool have_la;
	size_t la_first;              /* commands before the lookahead was read */
	size_t cmd_first;             /* commands before the one being read */
	struct where here;            /* where the tokens being read belong */
	const char *pending_func;     /* the next body is this function's */
	bool opaque_next;             /* the next compound runs or not by && || | */
	bool recover;                 /* may go on after a syntax error */
	size_t prev_end;              /* the end of the token consumed last */
	enum tok prev;                /* and its kind */
	const sb_cmd *last;
	VEC(struct opener) open;
	/* the simple command being read */
	VEC(const sb_word *) words;
	VEC(const sb_word *) extra;   /* redirection targets: searched for backquotes */
	VEC(struct assign_rec *) pending;
	VEC(size_t) heredocs;
	VEC(const sb_word *) prefix;  /* time -p, coproc: words before the next command */
	int decl;                     /* enum decl of the command word */
	bool decl_export, decl_stop;
};

enum decl {
	DECL_NONE, DECL_EXPORT, DECL_DECLARE, DECL_UNSET, DECL_READ, DECL_GETOPTS,
	DECL_MAPFILE, DECL_PRINTF, DECL_SOURCE, DECL_LET, DECL_ONE_NAME
};

/* errors and recovery (parse_error.c) */
bool sbp_is_closer(enum tok k);
/* ; & && || | |&: a separator or an operator between commands */
bool sbp_is_operator(enum tok k);
const char *sbp_tok_text(enum tok k);
/* Does an open construct (the innermost too, when inner) wait for t? */
bool sbp_awaited(const struct parser *p, enum tok t, bool inner);
/* The enum wait bits of the constructs that t closes (0: none). */
unsigned sbp_wanted_by(enum tok t);
/* After a syntax error in a list of the file: the broken statement from
 * stmt on stays as a command; false when the parse cannot go on. */
bool sbp_recover(struct parser *p, const struct where *w, size_t stmt);

/* tokens (parse.c) */
const struct token *sbp_peek(struct parser *p);
void sbp_next(struct parser *p);
bool sbp_failed(const struct parser *p);
/* A syntax error at token t (or [off, end)): the problem, once. */
void sbp_error(struct parser *p, size_t off, size_t end, const char *msg);
void sbp_unexpected(struct parser *p, const struct token *t);
void sbp_skip_newlines(struct parser *p);
bool sbp_can_start(enum tok k);
bool sbp_is_terminator(enum tok k);
/* Opening and closing a construct: the depth limit and the cause of
 * errors inside. */
bool sbp_open(struct parser *p, enum tok kind, const struct token *t, unsigned state);
void sbp_wait(struct parser *p, unsigned state);
void sbp_close(struct parser *p);
/* The closer t belongs to a construct around the innermost: then the
 * innermost lacks its closer. */
bool sbp_outer_closer(const struct parser *p, enum tok t);
/* The list between keywords (bash's compound_list); false on failure.
 * `what` names the body for an empty-body message. */
bool sbp_compound_list(struct parser *p, const struct where *w, const char *what);
bool sbp_pipeline_command(struct parser *p, const struct where *w, unsigned bits);
void sbp_mark(struct parser *p, size_t from, unsigned bits);

/* compound commands (parse_compound.c) */
bool sbp_shell_command(struct parser *p, const struct where *w);
bool sbp_function_def(struct parser *p, const struct where *w, const struct token *name);
bool sbp_function_keyword(struct parser *p, const struct where *w);
bool sbp_coproc(struct parser *p, const struct where *w);
bool sbp_redirections(struct parser *p);
bool sbp_redirection(struct parser *p, bool compound);

/* [[ ]] (parse_cond.c) */
bool sbp_cond(struct parser *p, const struct where *w);

/* simple commands (parse_cmd.c) */
void sbp_reset_cmd(struct parser *p);
/* Makes a command of what was read. */
sb_cmd *sbp_emit(struct parser *p, const struct where *w, size_t off, size_t end);
void sbp_name_record(struct parser *p, const sb_word *w, enum sb_assign_kind kind);
/* NAME at [noff, nend) is set to something unknown. */
void sbp_unknown_assign(struct parser *p, size_t noff, size_t nend);
/* Variables that arithmetic text a..b changes (x=1, x++, x+=2). */
void sbp_arith_assigns(struct parser *p, size_t a, size_t b);
/* The simple command starting with the lookahead (first, when not NULL,
 * is its first word, already read). */
bool sbp_simple_command(struct parser *p, const struct where *w, const struct token *first);
void sbp_add_word(struct parser *p, const struct token *t);
void sbp_parse_backquotes(struct parser *p, const struct where *w, const sb_word *word);

/* $( ) inside a word: parses it with a parser of its own on the same
 * lexer; the position after its ), or SIZE_MAX. */
size_t sbp_comsub(struct lexer *lx, size_t open);
void sbp_free(struct parser *p);

#endif
