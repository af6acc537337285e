/* Templates of YAML files (docs/design.md, "Real files are messy"): the
 * placeholders that envsubst, Jinja and hand-written examples leave in a
 * config, found in one pass over the text, and the text the YAML loader
 * reads instead of it.
 *
 * Placeholders: ${VAR}, ${VAR:-default}, ${VAR-default}, $VAR,
 * {{ expr }}, {NAME}, <ANY TEXT IN ANGLES>, inline {% ... %}, words
 * that say so (PLACEHOLDER_AMI_ID, YOUR_KEY, XXXX, subnet-1234567),
 * alone or inside a value (subnet-<ID>, arn:aws:iam::${ACCOUNT}:role/x).
 * A line that holds only a placeholder among the keys of a mapping
 * stands for keys an installer writes there (${FSX} becoming a block):
 * it is read as a key that is a placeholder. Lines that hold
 * only a {% ... %} or {# ... #} tag are blanked, and the {% if %} arms
 * they delimit are recorded so that the same key in two arms of one if
 * is not a duplicate. Comments are left alone.
 *
 * The prepared text keeps every line where it was: a placeholder with a
 * value (a definition, or its ${VAR:-default}) is replaced by the value
 * (like envsubst), one without stays or is masked so that YAML can parse
 * it ({{ x }} becomes (( x ))), and the loader maps every position back
 * to the original text through the column shifts. Optionally,
 * characters that only look like ASCII are read as that ASCII. One pass,
 * linear in the input; the {% if %} nesting has a depth budget. */
#ifndef TF_TMPL_H
#define TF_TMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tmpl_style {
	TMPL_BRACED, /* ${VAR}, ${VAR:-default} */
	TMPL_BARE,   /* $VAR */
	TMPL_JINJA,  /* {{ expr }} */
	TMPL_ANGLE,  /* <YOUR SUBNET> */
	TMPL_TAG,    /* {% ... %} inside a line */
	TMPL_BRACE,  /* {SUBNET_ID}: a flow mapping to YAML when unquoted */
	/* a word that says it is to be replaced: PLACEHOLDER_AMI_ID,
	 * YOUR_KEY, CHANGEME, XXXqueueXXX, the XXXX of subnet-XXXX, and the
	 * body of a made-up resource id (subnet-1234567, sg-0, ami-1) */
	TMPL_WORD,
};

/* One placeholder, on one line of the original text. */
struct tmpl_ph {
	uint32_t start, end;        /* bytes of the original text */
	uint32_t line, col, end_col; /* 1-based, code points, end exclusive */
	uint32_t name, name_len;    /* its name (VAR, expr, the text in angles): bytes */
	uint8_t style;              /* enum tmpl_style */
	bool valued;                /* replaced by a definition or its default */
};

/* A run of a line the prepared text has in place of the original: the
 * loader maps positions through these (sorted by line, then column). */
struct tmpl_shift {
	uint32_t line;
	uint32_t col, cols;           /* in the prepared text: start, width */
	uint32_t orig_col, orig_cols; /* in the original */
};

/* An arm of a {% if %}: arm 0 is the if, 1... the elif and else. */
struct tmpl_branch {
	uint32_t parent; /* the enclosing arm, 0 at the top */
	uint32_t if_id;  /* which if */
	uint16_t arm, depth;
};

enum { TMPL_MAX_DEPTH = 64 }; /* {% if %} nesting followed; deeper is flat */

/* Values for placeholders by name: --define NAME=VALUE, an env file. */
struct tmpl_def {
	char *name, *value;
};
struct tmpl_defs {
	struct tmpl_def *v;
	size_t len, cap;
	bool sorted;
};

/* A look-alike character read as its ASCII (TMPL_FOLD). */
struct tmpl_fold {
	uint32_t start, end;  /* its bytes in the original text */
	uint32_t line, col;   /* where it is, 1-based, code points */
	int32_t cp;
};

struct tmpl {
	const char *orig;  /* the original text (not owned) */
	size_t orig_len;
	char *text;        /* the text to parse when it differs, else NULL */
	size_t len;        /* of the text to parse */
	bool changed;      /* it differs from the original */
	struct tmpl_ph *ph;
	size_t n_ph, cap_ph;
	size_t n_unvalued; /* placeholders left without a value */
	struct tmpl_shift *shifts;
	size_t n_shifts, cap_shifts;
	/* {% %} and {# #} lines: how many, the first, and the arm of each line */
	uint32_t n_tag_lines, first_tag_line;
	uint32_t *line_arm; /* by 1-based line; NULL when the text has no if */
	size_t n_lines;
	struct tmpl_branch *arms; /* arms[0] is the top */
	size_t n_arms, cap_arms;
	bool too_deep;     /* an if nested deeper than TMPL_MAX_DEPTH */
	struct tmpl_fold *folds; /* look-alike characters read as ASCII, in order */
	size_t n_folds, cap_folds;
};

enum {
	TMPL_FOLD = 1 << 0, /* read look-alike characters as their ASCII */
	/* $VAR and ${VAR} are text, not placeholders: a job spec's values are
	 * written where they never expand (docs/jobspec.md, "Environment and arguments"), so a $ in
	 * one is the value itself, which the spec's own rules judge */
	TMPL_LITERAL_DOLLAR = 1 << 1,
	/* words that say they are placeholders (TMPL_WORD): a config's
	 * values are ids and names, never prose */
	TMPL_WORDS = 1 << 2,
};

/* Prepares text (len bytes, UTF-8) for the loader. defs may be NULL. */
void tmpl_prepare(const char *text, size_t len, const struct tmpl_defs *defs, unsigned flags,
		  struct tmpl *out);
void tmpl_free(struct tmpl *t);
/* The text to parse: the prepared one, or the original when they agree. */
const char *tmpl_text(const struct tmpl *t);

/* Whether two lines hold keys that no rendering can both keep: they are
 * in different arms of one {% if %}. */
bool tmpl_exclusive(const struct tmpl *t, uint32_t line_a, uint32_t line_b);

/* Definitions. tmpl_defs_add copies name and value; a later definition
 * of a name replaces the earlier one. */
void tmpl_defs_add(struct tmpl_defs *d, const char *name, size_t name_len, const char *value,
		   size_t value_len);
/* The value of name[0..len), or NULL. */
const char *tmpl_defs_get(const struct tmpl_defs *d, const char *name, size_t len);
/* Parses NAME=VALUE (the form of --define); false with *why set when it
 * is not one: no '=', an empty name, or a value of more than one line. */
bool tmpl_defs_parse(struct tmpl_defs *d, const char *arg, const char **why);
/* Adds the definitions of an env file (NAME=VALUE lines, `export`, #
 * comments, values in single or double quotes). False at the first line
 * that is none of these, with its number in *bad_line. */
bool tmpl_defs_read_env(struct tmpl_defs *d, const char *text, size_t len, uint32_t *bad_line);
void tmpl_defs_copy(struct tmpl_defs *to, const struct tmpl_defs *from);
void tmpl_defs_free(struct tmpl_defs *d);

#endif
