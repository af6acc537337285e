/* The parser state the grammar (sbatch_parse.c) and the simple-command
 * reader (sbatch_parse_cmd.c) share. Internal to lint/sbatch_*.c. */
#ifndef TF_SBATCH_PARSE_H
#define TF_SBATCH_PARSE_H

#include "lex.h"

enum frame_kind { FR_IF, FR_LOOP, FR_CASE, FR_BRACE, FR_SUBSHELL };
enum frame_state { ST_COND, ST_BODY, ST_PAT, ST_ITEM };

struct frame {
	uint8_t kind, state;
	unsigned block, outer_block;
	unsigned ctx;
	const char *func;
	size_t open_off, open_end;
	const char *closer;
};

struct parser {
	sb_model *m;
	struct lexer lx;
	const struct parse_env *env;
	VEC(struct frame) st;
	struct token la[2];
	unsigned nla;
	bool andor, in_pipe, negated;
	size_t pipe_start, list_start;
	const char *pending_func;
	const sb_cmd *last;
	bool failed;
	bool after_compound;          /* a construct just closed: "done < file" */
	bool continues;               /* after && || |: a newline does not end the list */
	/* the simple command being read */
	VEC(const sb_word *) words;
	VEC(const sb_word *) extra;   /* redirection targets: searched for $( ) */
	VEC(struct assign_rec *) pending;
	VEC(size_t) heredocs;
	int decl;                     /* enum decl of the command word */
	bool decl_export, decl_stop;
};

enum decl {
	DECL_NONE, DECL_EXPORT, DECL_DECLARE, DECL_UNSET, DECL_READ, DECL_GETOPTS,
	DECL_MAPFILE, DECL_PRINTF, DECL_SOURCE, DECL_LET, DECL_ONE_NAME
};

/* tokens and context (sbatch_parse.c) */
void sbp_next(struct parser *p, struct token *t, bool cond);
const struct token *sbp_peek(struct parser *p, unsigned k);
void sbp_unread(struct parser *p, const struct token *t);
bool sbp_is_word(const struct token *t, const char *v);
void sbp_syntax(struct parser *p, size_t off, size_t end, const char *msg);
struct frame *sbp_top(struct parser *p);
unsigned sbp_cur_block(struct parser *p);
unsigned sbp_cur_ctx(struct parser *p);
const char *sbp_cur_func(struct parser *p);
void sbp_end_list(struct parser *p);

/* simple commands (sbatch_parse_cmd.c) */
void sbp_reset_cmd(struct parser *p);
/* Makes a command of what was read, its $( ) first. */
sb_cmd *sbp_emit(struct parser *p, size_t off, size_t end);
void sbp_name_record(struct parser *p, const sb_word *w, enum sb_assign_kind kind);
/* Variables that arithmetic text a..b changes (x=1, x++, x+=2). */
void sbp_arith_assigns(struct parser *p, size_t a, size_t b);
void sbp_simple_command(struct parser *p, struct token *t);
void sbp_parse_cmdsubs(struct parser *p, const sb_word *w);

#endif
