/* Inside the batch-script model: the record layouts the lexer, parser,
 * launcher analysis and resolver share. Nothing outside lint/sbatch_*.c
 * includes this; rules use sbatch_model.h. */
#ifndef TF_SBATCH_IMPL_H
#define TF_SBATCH_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "script.h"
#include "text.h"

#define VEC(type) struct { type *v; size_t len, cap; }
#define VEC_PUSH(vec, item)                                                        \
	do {                                                                       \
		(vec).v = xgrow((vec).v, &(vec).cap, (vec).len + 1, sizeof *(vec).v); \
		(vec).v[(vec).len++] = (item);                                     \
	} while (0)

/* The parse recurses once per nesting level: a function that runs
 * rarely keeps its locals out of the frames every level carries. */
#define SB_COLD __attribute__((noinline, cold))

/* ---- word parts ---- */

enum wp_kind {
	WP_LIT,      /* literal text (quoted or not) */
	WP_PARAM,    /* $NAME, ${NAME} */
	WP_PARAM_OP, /* ${NAME...} with an operator, subscript, # or ! */
	WP_SPECIAL,  /* $1 $@ $* $# $? $$ $! $- $0 */
	WP_CMDSUB,   /* $( ) */
	WP_BACKTICK, /* ` ` */
	WP_ARITH,    /* $(( )) and $[ ] */
	WP_PROCSUB,  /* <( ) >( ) */
	WP_TILDE,    /* ~ or ~user at the start of an unquoted word */
	WP_TEMPLATE, /* {{ ... }} or {% ... %} of a template: a value unknown here */
};

enum wp_op { WOP_NONE, WOP_DEFAULT_ASSIGN, WOP_OTHER };

struct wpart {
	uint8_t kind;    /* enum wp_kind */
	char quote;      /* 0, '\'', '"' or '$' (ANSI-C $'...') */
	uint8_t op;      /* enum wp_op, for WP_PARAM_OP */
	bool array_all;  /* ${NAME[@]} or ${NAME[*]} */
	size_t off, end; /* LIT: raw text (inside its quotes); else the whole $... */
	size_t in_off, in_end; /* what is inside $( ) ` ` $(( )); the operand of := */
	const char *text; /* LIT: the value; PARAM/PARAM_OP/SPECIAL: the name */
	size_t tlen;
};

struct sb_word {
	const sb_model *m;
	size_t off, end;
	struct sb_span span;
	struct wpart *parts;
	unsigned nparts;
	unsigned flags;          /* enum sb_word_flags */
	const char *value;       /* NULL when there is an expansion */
	const char **refs;
	unsigned nrefs;
	const char *var;         /* the name when the word is one plain $NAME */
	const sb_word *origin;   /* spliced words: where they came from */
};

/* ---- blocks: which code runs for sure relative to which ---- */

enum block_kind {
	BK_ROOT, BK_BRANCH, BK_LOOP, BK_CASE_ITEM, BK_FUNCTION, BK_SUBSHELL,
	BK_BRACE, BK_CMDSUB, BK_SCOPE, BK_LIST
};
struct block {
	unsigned parent;
	uint8_t kind;   /* enum block_kind */
	bool opaque;    /* what is set inside may not have happened outside */
	size_t first_cmd;
	unsigned if_first; /* a branch of an if: the block of its first branch; 0 otherwise */
	/* a case item: the case command (words case WORD), its patterns'
	 * text [pat_off, pat_end), and whether it ends in ;& or ;;& */
	const sb_cmd *case_cmd;
	size_t pat_off, pat_end;
	bool falls_through;
};

/* ---- commands and launcher parts ---- */

struct sb_part {
	enum sb_prog kind;
	const sb_word *program;
	const char *name;
	const sb_word *entry;
	struct sb_flag *flags;
	size_t nflags;
	const sb_word **args;
	size_t nargs;
	size_t nopaque;
};

struct sb_cmd {
	size_t index;
	struct sb_span span;
	unsigned ctx;
	const char *func;
	const sb_cmd *parent;
	char nest_quote;
	unsigned nest;          /* levels of bash -c / $( ) around it */
	unsigned block;
	unsigned scope;         /* 0: the batch shell; else a bash -c shell */
	const sb_word **words;
	size_t nwords;
	const struct sb_assign **assigns; /* the assignments it makes */
	size_t nassigns;
	struct sb_part *parts;
	size_t nparts;
	bool assumed;
	bool analysed;
	bool arith;             /* (( ... )) */
	bool broken;            /* a statement that did not parse */
};

/* An assignment with what the resolver needs beside the public record. */
struct assign_rec {
	struct sb_assign pub;   /* first: sb_assign_at hands out &pub */
	unsigned block;
	unsigned scope;
	bool source_barrier;    /* `source FILE` / `. FILE`: may set anything */
};

struct sb_model {
	char *text;
	size_t len;
	struct sb_limits lim;
	struct arena_block *arena;
	bool complete;
	bool templates;         /* {{ }} and {% %} tags are words of their own */
	unsigned in_nested;     /* reading a string bash parses only when it runs it */
	/* The parse recurses per nesting level: where the stack was when it
	 * started, and how far it may grow (lex_enter). */
	uintptr_t stack_base;
	size_t stack_budget;
	size_t nwords;

	VEC(size_t) line_start;
	uint8_t *line_kind;     /* enum sb_line_kind by line (1-based) */
	uint8_t *line_cont;
	uint8_t *line_wide;     /* by line (1-based): bytes past ASCII? (sbm_locate) */
	struct { size_t off; uint32_t line, col; } loc; /* locate() cache */
	size_t lcur;            /* sbm_line_of's cursor: a line index */

	bool has_shebang;
	struct sb_shebang shebang;
	uint32_t first_cmd_line;
	unsigned components;    /* heterogeneous job components, at least 1 */
	size_t *component_first; /* directives of component k: [first[k], first[k+1]) */

	VEC(struct sb_problem) problems;
	VEC(struct sb_comment) comments;
	VEC(struct sb_directive) directives;
	VEC(sb_cmd *) cmds;
	VEC(struct assign_rec *) assigns;
	VEC(struct sb_heredoc) heredocs;
	VEC(struct sb_fact) facts;
	VEC(struct block) blocks;
	unsigned next_scope;
	unsigned nested_scripts;
	struct name_index *names; /* assignments by scope and name (resolver) */
};

/* sbatch_model.c: memory, positions, records */
void *sbm_alloc(sb_model *m, size_t size);             /* zeroed, arena */
char *sbm_strndup(sb_model *m, const char *s, size_t n);
void sbm_locate(sb_model *m, size_t off, uint32_t *line, uint32_t *col);
uint32_t sbm_line_of(sb_model *m, size_t off);
struct sb_span sbm_span(sb_model *m, size_t off, size_t end);
void sbm_problem(sb_model *m, enum sb_problem_kind kind, size_t off, size_t end,
		 const char *msg);
void sbm_problem_in(sb_model *m, enum sb_problem_scope scope, enum sb_problem_kind kind,
		    size_t off, size_t end, const char *msg);
/* The records as they are now, and back to them: text read twice
 * (`((` that turns out to be two subshells) leaves nothing twice. */
struct sbm_mark {
	size_t cmds, assigns, heredocs, facts, comments, blocks, problems, nwords;
};
struct sbm_mark sbm_mark(const sb_model *m);
void sbm_rollback(sb_model *m, const struct sbm_mark *k);
void sbm_mark_line(sb_model *m, uint32_t line, enum sb_line_kind kind);
unsigned sbm_block_new(sb_model *m, unsigned parent, enum block_kind kind,
		       bool opaque);

/* parse.c: read [off, end) of the text as a script; false when a
 * syntax error was found. nest = 0 for the file itself. */
struct parse_env {
	unsigned nest;
	unsigned block;      /* the block the script runs in */
	unsigned scope;
	unsigned ctx;        /* context bits every command inherits */
	const char *func;
	const sb_cmd *parent;
	char quote;          /* the quote of a bash -c string, 0 otherwise */
	bool in_string;      /* the text is inside a quoted string of the file */
};
bool sbp_parse_range(sb_model *m, size_t off, size_t end, const struct parse_env *env);

/* Word construction (sbatch_word.c, sbatch_lex_quote.c), used by the
 * parser for := operands and by the launcher analysis for words spliced
 * from variables. */
sb_word *sbl_word_range(sb_model *m, size_t off, size_t end, bool in_dquote);
void sbl_word_finish(sb_model *m, sb_word *w);
sb_word *sbl_word_sub(sb_model *m, const sb_word *w, size_t a, size_t b);

/* sbatch_model_directives.c */
void sbd_scan(sb_model *m);
/* sbatch_model_hetjob.c: where each component's directives start, once
 * sbd_scan has read them (in component order, before any read after the
 * first command). */
void sbh_index(sb_model *m);

/* sbatch_model_launch.c: fills c->parts; may insert the commands of a
 * bash -c string right after c. */
void sbx_analyse(sb_model *m, size_t index);

/* sbatch_model_resolve.c. The index is built after the parse and
 * brought up to date after each nested script. */
void sbr_index_update(sb_model *m);
void sbr_index_free(sb_model *m);
struct cands {
	const struct assign_rec *v[32];
	size_t n;
	bool any;        /* the environment (or anything) may also supply it */
	bool certain;    /* v[0] certainly decides; the rest come after it */
};
enum sb_res sbr_resolve(const sb_model *m, const char *name, const sb_cmd *at,
			struct sb_resolved *out);
/* The array NAME at `at`: its element words when certain (returns true,
 * *elems may be NULL with *n 0 for an empty array), else false. */
bool sbr_array(sb_model *m, const char *name, const sb_cmd *at,
	       const sb_word ***elems, size_t *n);
/* Every assignment that may decide NAME at `at` (arrays and scalars). */
void sbr_candidates(const sb_model *m, const char *name, const sb_cmd *at,
		    bool is_array, struct cands *out);


#endif
