/* What the launcher analysis (sbatch_model_launch.c) and its argument
 * reader (sbatch_model_args.c) share. Internal to lint/sbatch_*.c. */
#ifndef TF_SBATCH_MODEL_CHAIN_H
#define TF_SBATCH_MODEL_CHAIN_H

#include "lex.h"
#include "flags.h"

#define MAX_ARGS 4096

struct arg {
	const sb_word *w;
	const char *v;        /* the literal value, or NULL */
	bool opaque;
	const char *name;     /* opaque: the variable, if one */
	bool array;
};

struct chain {
	sb_model *m;
	sb_cmd *c;
	VEC(struct arg) a;
	VEC(struct sb_part) parts;
	VEC(struct sb_flag) flags;
	VEC(const sb_word *) args;
};

/* The command's words as bash would pass them, where the script decides:
 * arrays spliced, certain unquoted variables split, the rest opaque. */
void sbx_expand(struct chain *ch);
size_t sbx_lit_prefix(const sb_word *w, char *out, size_t cap);
size_t sbx_raw_of(const sb_model *m, const sb_word *w, size_t idx);
struct sb_part *sbx_new_part(struct chain *ch, enum sb_prog kind, const sb_word *program);
void sbx_close_part(struct chain *ch);
struct sb_part *sbx_cur(struct chain *ch);
struct sb_flag *sbx_add_flag(struct chain *ch, const sb_word *w, const char *written,
			     size_t wlen, const struct flagdef *def);
bool sbx_known_program(const char *v);
/* "${VENV}/bin/torchrun" names torchrun: the literal tail of a path. */
const char *sbx_tail_name(const sb_word *w);
/* Reads the current part's options from ch->a[*i] with table fs; stops
 * at the first positional word, left at *i. */
void sbx_parse_options(struct chain *ch, const struct flagset *fs, size_t *i);
/* The rest of the words as the part's positional words, flags read
 * where they can be (an application's own arguments). */
void sbx_rest_args(struct chain *ch, size_t i);

#endif
