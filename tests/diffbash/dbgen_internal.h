/* The generator's state and the helpers its parts share: the random
 * source, the writer (which places here-document bodies after the line
 * that opened them) and the mutation sites. Internal to dbgen*.c. */
#ifndef TF_DBGEN_INTERNAL_H
#define TF_DBGEN_INTERNAL_H

#include <stddef.h>

#include "dbgen.h"

/* Levels of $( ) that may hold here-documents; deeper ones do not. */
#define G_LEVELS 24
#define G_HEREDOCS 8

struct g_heredoc {
	char delim[24];
	bool strip;    /* <<-: the body is indented by tabs */
	bool quoted;   /* no expansion in the body */
	bool broken;   /* the delimiter line is left out */
};

struct gen {
	uint64_t rng;
	struct buf *out;
	struct dbg_script *s;
	const char *eol;       /* "\n", or "\r\n" for a CRLF script */
	unsigned depth;        /* compound commands and words around the cursor */
	unsigned max_depth;
	bool rich;             /* dense grammar; else the plain words of most scripts */
	unsigned level;        /* $( ) around the cursor */
	unsigned indent;
	unsigned in_func;      /* local and return are valid inside */
	unsigned in_loop;      /* break and continue */
	int mutation;          /* the one chosen for this script, or -1 */
	bool mutated;          /* it has been applied */
	bool pipe_tail;        /* the next command follows a | */
	size_t dbracket_end;   /* the output length right after the last ]] */
	struct {
		struct g_heredoc v[G_HEREDOCS];
		unsigned n;
	} hd[G_LEVELS];
};

/* ---- random choices (dbgen.c) ---- */
uint64_t g_rand(struct gen *g);
unsigned g_below(struct gen *g, unsigned n);   /* [0, n) */
bool g_pct(struct gen *g, unsigned pct);        /* true pct times in 100 */
const char *g_pick_(struct gen *g, const char *const *v, size_t n);
#define g_pick(g, arr) g_pick_((g), (arr), sizeof(arr) / sizeof((arr)[0]))
/* An index into a table of weights. */
unsigned g_weighted(struct gen *g, const unsigned *w, size_t n);

/* ---- writing (dbgen.c) ---- */
void g_put(struct gen *g, const char *s);
void g_printf(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A newline token: bash reads pending here-document bodies after it. */
void g_nl(struct gen *g);
void g_indent(struct gen *g);
/* Ends a command inside a list: a newline, or "; " where a newline
 * cannot go (a here-document of an outer level is waiting for its). */
void g_end(struct gen *g);
/* True when a newline here would come before an outer level's
 * here-document body: the line must go on. */
bool g_oneline(const struct gen *g);
void g_use(struct gen *g, enum dbg_construct c);
/* Called before ; && || ;;: notes a [[ ]] right before it in a body. */
void g_chained(struct gen *g);
/* A mutation site: true once, at a site of the script's mutation. */
bool g_mut(struct gen *g, enum dbg_mutation m);
/* Queues a here-document for the next newline of this level. */
bool g_heredoc(struct gen *g, bool strip, bool quoted);
bool g_pending(const struct gen *g);

/* ---- statements and lists (dbgen.c) ---- */
/* One and-or list without its terminator. */
void g_and_or(struct gen *g);
/* n commands, each ended; body of a compound command. */
void g_body(struct gen *g, unsigned n);
/* A list for $( ), ( ) or a condition: the last command not ended. */
void g_inline_list(struct gen *g, unsigned n);
void g_comment(struct gen *g);

/* ---- words (dbgen_word.c) ---- */
enum g_wkind { W_ARG, W_VALUE, W_PATH, W_NUM, W_DQ_TEXT };
void g_word(struct gen *g, enum g_wkind k);
void g_var_name(struct gen *g);
const char *g_var(struct gen *g);
void g_param(struct gen *g);
void g_cmdsub(struct gen *g);
void g_arith_expr(struct gen *g, unsigned depth);
void g_dquote(struct gen *g);
void g_text(struct gen *g, bool unicode);

/* ---- simple commands (dbgen_cmd.c) ---- */
void g_simple(struct gen *g);
void g_assignment(struct gen *g);
void g_redirect(struct gen *g);
void g_header(struct gen *g);
void g_launcher(struct gen *g);
void g_array(struct gen *g);

/* ---- compound commands (dbgen_compound.c) ---- */
void g_compound(struct gen *g);
void g_function(struct gen *g);
void g_dbracket(struct gen *g);
void g_arith_cmd(struct gen *g);
void g_deep(struct gen *g, bool huge);

#endif
