/* The shell lexer of the batch-script model, which reads tokens the way
 * bash 5.2's read_token does: what a word is depends on the tokens
 * before it (reserved words only where a command may start, `in` and
 * `do` after `for NAME`, NAME=( only where an assignment may stand), so
 * the lexer keeps bash's memory of the last two tokens and its parser
 * state flags, and the parser pulls one token at a time. A $( ) inside
 * a word is parsed as commands (by a parser of its own on the same
 * input) to find where it ends, as bash does. Internal to lint/script. */
#ifndef TF_SBATCH_LEX_H
#define TF_SBATCH_LEX_H

#include "internal.h"

enum tok {
	T_EOF, T_NEWLINE, T_WORD, T_ASSIGN, T_NUMBER, T_REDIR_WORD,
	T_SEMI, T_AMP, T_AND_AND, T_OR_OR, T_PIPE, T_PIPE_AMP, T_LPAREN, T_RPAREN,
	T_DSEMI, T_SEMI_AND, T_DSEMI_AND, T_DASH,
	/* redirection operators: T_LESS .. T_AND_DGREAT */
	T_LESS, T_GREAT, T_DGREAT, T_DLESS, T_DLESS_DASH, T_TLESS, T_LESS_AND,
	T_GREAT_AND, T_LESS_GREAT, T_CLOBBER, T_AND_GREAT, T_AND_DGREAT,
	/* reserved words: T_IF .. T_TIMEIGN */
	T_IF, T_THEN, T_ELSE, T_ELIF, T_FI, T_CASE, T_ESAC, T_FOR, T_SELECT, T_WHILE,
	T_UNTIL, T_DO, T_DONE, T_IN, T_FUNCTION, T_TIME, T_LBRACE, T_RBRACE, T_BANG,
	T_COND_START, T_COND_END, T_COPROC, T_TIMEOPT, T_TIMEIGN,
	T_ARITH_CMD, T_ARITH_FOR,
	T_DOLPAREN, /* never returned: the token memory at the start of a $( ) */
	T_ERROR,    /* the lexer failed; the problem is recorded */
};

static inline bool tok_is_redir(enum tok k) { return k >= T_LESS && k <= T_AND_DGREAT; }
static inline bool tok_is_reserved(enum tok k) { return k >= T_IF && k <= T_TIMEIGN; }

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
	enum tok kind;
	bool quoted;            /* a quote or backslash in the word */
	size_t off, end;
	sb_word *word;          /* words, numbers and reserved words */
	struct array_lit *arr;  /* a word that is a compound assignment */
};

/* Parser state flags that change how words are read (bash's PST_*). */
enum {
	PST_CASEPAT = 1 << 0,   /* in a case pattern list: no reserved words but esac */
	PST_CASESTMT = 1 << 1,  /* after case, until its in */
	PST_COMPASSIGN = 1 << 2, /* inside NAME=( ... ) */
	PST_ASSIGNOK = 1 << 3,  /* after declare, export, eval...: NAME=( ok */
	PST_ALLOWOPNBRC = 1 << 4, /* after function NAME or NAME(): { opens the body */
	PST_REDIRLIST = 1 << 5, /* the command so far is only redirections */
	PST_REGEXP = 1 << 6,    /* the right side of =~ */
	PST_EXTPAT = 1 << 7,    /* the right side of == in [[ ]]: @( ) patterns */
	PST_CONDEXPR = 1 << 8,  /* inside [[ ]] */
	PST_CMDSUBST = 1 << 9,  /* inside $( ) */
	/* What a backslash escapes in an array's words (compound_assignment):
	 * bash's read_token_word tests its innermost delimiter, which a $( )
	 * in a word sets to ( (nothing), a $( ) in "..." to " (what a
	 * backslash escapes there); with neither, everything. */
	PST_BS_NONE = 1 << 10,
	PST_BS_DQUOTE = 1 << 11,
};

#define LEX_MAX_HEREDOCS 16

struct pending_heredoc {
	const char *delim;
	size_t dlen;
	bool strip, quoted;
	size_t rec;       /* index in m->heredocs */
	size_t op_off;
};

/* The lexer's memory of the tokens and bash's parser state: saved and
 * cleared around a $( ), as bash does. The here-documents waiting for
 * a newline are lx->hd[hd_base .. hd_base + nhd): a $( ) waits for its
 * own above its word's. Small: a copy of it is on the C stack for
 * every $( ) level. */
struct lex_state {
	enum tok cur, last, before; /* current_token, last_read_token, token_before_that */
	unsigned pst;
	unsigned expecting_in, esacs_needed;
	unsigned hd_base, nhd;
};

struct parser;

struct lexer {
	sb_model *m;
	const char *s;
	size_t pos, end;
	const struct parse_env *env;
	struct lex_state st;
	struct parser *owner;   /* the parser a $( ) found in a word belongs to */
	bool failed;
	bool templates;         /* {{ }} and {% %} are words of their own */
	bool quiet;             /* reading text again: record nothing */
	unsigned open_braces;   /* bash's open_brace_count */
	/* Where the input goes on after a newline, when that is not the
	 * next byte: a $( ) that closed before its here-document bodies has
	 * them read from the next line, and the rest of its line goes on
	 * after them (lex_heredoc.c). */
	struct { size_t from, to; } jumps[4];
	unsigned njumps;
	unsigned jumps_taken;   /* how many of them the input went through */
	/* After a syntax error: where the list it is in goes on (SIZE_MAX:
	 * nowhere, the input ended inside), and past where it went on last. */
	size_t err_resume, err_floor;
	VEC(struct wpart) tmp;  /* parts of the words being read, innermost last */
	VEC(struct pending_heredoc) hd;
	unsigned depth;         /* nesting: quotes, expansions, commands */
};

void lex_init(struct lexer *lx, sb_model *m, size_t off, size_t end,
	      const struct parse_env *env);
void lex_fini(struct lexer *lx);
/* The next token, shifting the token memory (bash's yylex). */
void lex_token(struct lexer *lx, struct token *t);
/* The next token without shifting it (read_token, as [[ ]] and NAME=( )
 * read theirs). */
void lex_read(struct lexer *lx, struct token *t);
/* Forgets the lexer state after a syntax error and goes on at off, a
 * line start. */
void lex_resync(struct lexer *lx, size_t off);
/* The whole of [pos, end) as one word: an operand of ${NAME:=...}. */
sb_word *lex_word_all(struct lexer *lx, bool in_dquote);
/* Registers a here-document whose body starts after the next newline;
 * returns its index in m->heredocs. */
size_t lex_heredoc(struct lexer *lx, const sb_word *delim, bool strip, size_t op_off);
/* Reads the pending here-document bodies from `from`, a line start;
 * returns the position after them. In a $( ), a body line that starts
 * with the delimiter and holds a ) ends the body too, and the rest of
 * that line is read next: [*rest, *rest_nl] (else *rest is SIZE_MAX). */
size_t lex_read_heredocs(struct lexer *lx, size_t from, size_t *rest, size_t *rest_nl);
/* The bodies of the pending here-documents of a $( ) that closed before
 * its newline: they come from the next line, and the rest of this line
 * goes on after them, as bash reads them. Returns where reading goes on. */
size_t lex_heredocs_now(struct lexer *lx);
/* The position after the newline at q: q + 1, or where a jump leads. */
size_t lex_after_newline(struct lexer *lx, size_t q);
/* Where an assignment may stand (bash's assignment_acceptable). */
bool lex_assign_ok(const struct lexer *lx);
/* Where the left side of an assignment that starts at a ends: after
 * NAME, NAME[...] (or, in an array, [...]) and a + if any; SIZE_MAX when
 * [a, b) does not start with one. */
size_t lex_assignment_left(const char *s, size_t a, size_t b, bool compassign);
/* Entering and leaving a nested construct; false (with a problem) past
 * the depth limit. */
bool lex_enter(struct lexer *lx, size_t off);
void lex_leave(struct lexer *lx);

/* ---- inside words (lex_word.c, lex_pair.c, lex_quote.c) ---- */

/* Reads one word starting at lx->pos (bash's read_token_word); the
 * token kind is decided by lex.c. Returns false when it failed. */
bool lex_scan_word(struct lexer *lx, struct token *t, bool *quoted, bool *dollar,
		   bool *digits);
/* Reads a matched pair from p (after its opener); returns the position
 * after the closer, or SIZE_MAX with a problem recorded. */
size_t lex_matched(struct lexer *lx, size_t at, size_t p, char open, char close, unsigned flags,
		   char qc);
enum { MP_FIRSTCLOSE = 1, MP_ALLOWESC = 2, MP_DQUOTE = 4, MP_COMMAND = 8,
       MP_ARRAYSUB = 16, MP_DOLBRACE = 32, MP_ARITH = 64 };
/* The input ended inside a construct opened at `at` (len bytes) that
 * `close` ends: the problem, at the opener. */
void lex_eof_in(struct lexer *lx, size_t at, size_t len, char close);
/* The position after the ) of a $( ) whose text starts at p; parses it.
 * from: where the $( ) is, which sets what a backslash escapes in it. */
enum comsub_from { COMSUB_IN_WORD, COMSUB_IN_DQUOTE, COMSUB_IN_BRACE };
size_t lex_comsub(struct lexer *lx, size_t open, size_t p, enum comsub_from from);

uint32_t lex_line_of(struct lexer *lx, size_t off);
/* Where the line of off ends, past the lines a backslash-newline joins
 * to it: the offset after its newline, or SIZE_MAX when the input ends
 * first. */
size_t lex_line_after(const struct lexer *lx, size_t off);
/* Records the problem (the first only) and stops the lexer. */
void lex_fail(struct lexer *lx, enum sb_problem_kind kind, size_t off, size_t end,
	      const char *msg);
/* Lines after the first of a quoted string lie inside it. */
void lex_mark_string_lines(struct lexer *lx, size_t off, size_t end);
/* A backslash-newline at p joins lines: records it and returns the
 * position after; else p. Called for nearly every character. */
size_t lex_skip_joins_at(struct lexer *lx, size_t p);
static inline size_t lex_skip_joins(struct lexer *lx, size_t p)
{
	return p + 1 < lx->end && lx->s[p] == '\\' && lx->s[p + 1] == '\n' ? lex_skip_joins_at(lx, p) : p;
}
/* The character at p once backslash-newlines are joined; *next is the
 * position after it. -1 at the end. */
static inline int lex_peek(struct lexer *lx, size_t p, size_t *next)
{
	p = lex_skip_joins(lx, p);
	if (p >= lx->end) {
		*next = p;
		return -1;
	}
	*next = p + 1;
	return (unsigned char)lx->s[p];
}
/* Parts of the word being scanned (lx->tmp). */
struct wpart *lex_add_part(struct lexer *lx, uint8_t kind, char quote, size_t off, size_t end);
void lex_add_lit(struct lexer *lx, char quote, size_t off, size_t end);
void lex_add_brace(struct lexer *lx, size_t start, size_t a, size_t b, char quote);
/* Makes the word of [off, end) from the parts from base on. */
sb_word *lex_make_word(struct lexer *lx, size_t base, size_t off, size_t end, unsigned flags);

#endif
