/* The batch-script model: what a Slurm batch script says, with a
 * position for every piece, for the SB rules to read.
 *
 * sb_parse reads a bash script the way bash and sbatch do, without
 * running it: the shebang; the #SBATCH directives as sbatch collects
 * them (stopping at the first command); comments; every simple command
 * in order, with its words, the constructs around it and the launcher
 * chain it starts (srun, mpirun, torchrun, python, bash -c, scripts);
 * assignments and exports, so a word like $NNODES can be traced to
 * $SLURM_JOB_NUM_NODES; here-documents as data; and the continuation
 * facts text rules need (a backslash followed by spaces, a line that
 * starts with --flag because the line before lost its backslash).
 *
 * What cannot be known without running the script is reported as
 * unknown, never guessed: an expansion whose value depends on a branch,
 * an array built in a loop, an option of unknown arity followed by a
 * bare word. A script the parser cannot follow (an unterminated quote, a
 * limits) yields problem records with positions, never a crash. The
 * parse goes on after a syntax error at the next statement, so facts
 * before and after the broken statement are still reported, and
 * sb_complete says whether the whole script was understood.
 *
 * Positions: lines and columns are 1-based, columns count code points,
 * ends are exclusive, like struct diag. Byte offsets index the text given
 * to sb_parse. All strings and records belong to the model. */
#ifndef TF_SBATCH_MODEL_H
#define TF_SBATCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

typedef struct sb_model sb_model;
typedef struct sb_word sb_word;
typedef struct sb_cmd sb_cmd;
typedef struct sb_part sb_part;

struct sb_span {
	uint32_t line, col;         /* start */
	uint32_t end_line, end_col; /* exclusive end */
	size_t off, end;            /* bytes */
};

/* Input limits; zero fields take the defaults shown. */
struct sb_limits {
	size_t max_bytes;    /* 8 MiB: larger input is not parsed at all */
	unsigned max_depth;  /* 10000: nested quotes, $( ), ${ }, constructs */
	unsigned max_nest;   /* 4000: levels of bash -c and $( ) parsed as scripts */
	size_t max_words;    /* 4000000 words in all */
	unsigned flags;      /* enum sb_parse_flags */
};
enum sb_parse_flags {
	/* A Jinja or Mustache template of a script: {{ ... }}, {% ... %}
	 * and {# ... #} are words whose value is unknown, never syntax. */
	SB_PARSE_TEMPLATE = 1 << 0,
};

/* Copies text (which need not be NUL-terminated); never returns NULL. */
sb_model *sb_parse(const char *text, size_t len, const struct sb_limits *limits);
void sb_free(sb_model *m);
/* False when a syntax error (in the script or in a string it runs)
 * left a statement out of the model: then a missing fact proves
 * nothing. The statements around it are there. */
bool sb_complete(const sb_model *m);

/* ---- problems: where the script cannot be read as bash ---- */

enum sb_problem_kind {
	SB_PROB_UNTERMINATED_QUOTE,   /* ', ", ` or $' without its end */
	SB_PROB_UNTERMINATED_EXPANSION, /* $( ${ $(( without the close */
	/* delimiter never found: the body runs to the end of the file;
	 * bash only warns, so this alone leaves the script complete */
	SB_PROB_HEREDOC_UNTERMINATED,
	SB_PROB_SYNTAX,               /* an unexpected or missing keyword or operator */
	SB_PROB_LIMIT,                /* size, depth or word count over the limit */
};
/* Who refuses the text. */
enum sb_problem_scope {
	SB_SCOPE_SCRIPT,    /* bash: a syntax error in the script itself */
	/* text bash parses only when it runs it (a bash -c string,
	 * backquotes): that command fails then; the script parses */
	SB_SCOPE_STRING,
	SB_SCOPE_DIRECTIVE, /* sbatch, reading an #SBATCH line */
};
struct sb_problem {
	enum sb_problem_kind kind;
	struct sb_span span;  /* the real cause: the opener a closer is missing for */
	const char *msg;
	enum sb_problem_scope scope;
};
size_t sb_problem_count(const sb_model *m);
const struct sb_problem *sb_problem_at(const sb_model *m, size_t i);

/* ---- the file as lines ---- */

enum sb_line_kind {
	SB_LINE_BLANK,
	SB_LINE_COMMENT,   /* only a comment */
	SB_LINE_DIRECTIVE, /* an #SBATCH (or #SLURM) line */
	SB_LINE_CODE,      /* holds the start of a token */
	SB_LINE_STRING,    /* inside a quoted string that spans lines */
	SB_LINE_HEREDOC,   /* here-document body or its delimiter line */
};
uint32_t sb_line_count(const sb_model *m);
enum sb_line_kind sb_line_kind(const sb_model *m, uint32_t line);
/* True when the line ends with a backslash-newline that joins it to the
 * next (in code, outside quotes and comments). */
bool sb_line_continues(const sb_model *m, uint32_t line);
/* The first line sbatch reads as a command (it stops reading #SBATCH
 * there); 0 when the script has none. */
uint32_t sb_first_command_line(const sb_model *m);

struct sb_shebang {
	struct sb_span span;
	const char *text;   /* the line after "#!" */
	const char *interp; /* "bash", "sh"...: the program, through /usr/bin/env */
};
const struct sb_shebang *sb_shebang(const sb_model *m); /* NULL if none */

/* ---- comments and directives ---- */

struct sb_comment {
	struct sb_span span; /* from '#' to the end of the line */
	const char *text;    /* the same, NUL-terminated */
	bool own_line;       /* nothing but blanks before it */
};
size_t sb_comment_count(const sb_model *m);
const struct sb_comment *sb_comment_at(const sb_model *m, size_t i);

enum sb_dform {
	SB_DFORM_FLAG,         /* --exclusive, -H: no value */
	SB_DFORM_EQ,           /* --nodes=2 */
	SB_DFORM_SPACE,        /* --nodes 2 (the value may be on a later #SBATCH line) */
	SB_DFORM_SHORT_JOINED, /* -N2 */
	SB_DFORM_SHORT_SPACE,  /* -N 2 */
	SB_DFORM_STRAY,        /* a word that is not an option: sbatch rejects the script */
};
struct sb_directive {
	struct sb_span span;      /* the option through its value */
	struct sb_span name_span;
	struct sb_span value_span; /* valid when value != NULL */
	const char *name;         /* as written: "--nodes", "--nod", "-N"; the word for STRAY */
	const char *long_name;    /* "nodes"; NULL when unknown or ambiguous */
	const struct sbopt *opt;  /* NULL when unknown or ambiguous */
	const char *value;        /* after sbatch's quote removal; NULL when none */
	enum sb_dform form;
	uint32_t line;            /* the #SBATCH line holding the option */
	unsigned index_on_line;   /* 0-based among the options of its line */
	unsigned count_on_line;
	unsigned component;       /* heterogeneous job component (#SBATCH hetjob) */
	bool after_command;       /* after the first command: sbatch ignores it */
	bool abbreviated;         /* a unique prefix getopt accepts */
	bool ambiguous;           /* a prefix of several options */
	bool missing_value;       /* needs a value and none follows */
	bool slurm_prefix;        /* written #SLURM (sbatch accepts it, with a warning) */
	bool placeholder;         /* the value holds a template tag: unknown, value NULL */
};
size_t sb_directive_count(const sb_model *m);
const struct sb_directive *sb_directive_at(const sb_model *m, size_t i);
/* The directive sbatch uses for an option (the last one before the first
 * command, in component 0), by long name; NULL if none. */
const struct sb_directive *sb_directive_find(const sb_model *m, const char *long_name);

/* Heterogeneous jobs: "#SBATCH hetjob" lines split the directives into
 * components, numbered from 0 (sb_directive.component); a job without
 * one has a single component. Each component is a job of its own with
 * its own partition and node count; the batch script runs on the first
 * node of component 0. */
unsigned sb_component_count(const sb_model *m);
/* The last directive for an option in one component itself; NULL if none. */
const struct sb_directive *sb_directive_in(const sb_model *m, unsigned component,
					   const char *long_name);
/* The directive sbatch uses for an option in one component: the
 * component's own, else, for an option sbatch carries from one component
 * into the next (--no-kill, --time, --output...; not --partition or
 * --nodes), the nearest earlier component's. NULL if none. It may walk
 * back through every earlier component: a rule that looks at each
 * component in turn carries the value along itself (sb_option_carried). */
const struct sb_directive *sb_directive_find_in(const sb_model *m, unsigned component,
						const char *long_name);
/* Whether sbatch carries an option (by long name) into later components. */
bool sb_option_carried(const char *long_name);

/* ---- words ---- */

enum sb_word_flags {
	SB_W_QUOTED    = 1 << 0, /* some part is quoted */
	SB_W_EXPANSION = 1 << 1, /* $VAR, ${...}, $(...), `...`, $((...)), ~ */
	SB_W_CMDSUB    = 1 << 2, /* holds $(...) or `...` */
	SB_W_GLOB      = 1 << 3, /* unquoted * ? [ : bash may expand it to file names */
	SB_W_BRACE     = 1 << 4, /* unquoted {a,b}: brace expansion */
	SB_W_SPLICED   = 1 << 5, /* came from an array or variable, not the command line */
	SB_W_OPAQUE    = 1 << 6, /* an expansion whose words are unknown: any number, any text */
};
/* The word as written. */
const char *sb_word_raw(const sb_word *w, size_t *len);
/* The value after quote removal, when the word has no expansion;
 * NULL otherwise. */
const char *sb_word_value(const sb_word *w);
struct sb_span sb_word_span(const sb_word *w);
unsigned sb_word_flags(const sb_word *w);
/* Variables the word reads ($NAME, ${NAME...}, names in $((...)) and
 * in command substitutions), without duplicates. */
size_t sb_word_ref_count(const sb_word *w);
const char *sb_word_ref(const sb_word *w, size_t i);
/* When the whole word is one plain expansion, $NAME or ${NAME} (quoted
 * or not), its NAME; else NULL. */
const char *sb_word_var(const sb_word *w);
/* For a spliced word (SB_W_SPLICED): the word on the command line it
 * came from ("${ARGS[@]}", $DIST_ARGS). NULL otherwise. */
const sb_word *sb_word_origin(const sb_word *w);

/* ---- commands ---- */

enum sb_ctx {
	SB_CTX_IF         = 1 << 0,  /* in an if/elif/else (condition or body) */
	SB_CTX_LOOP       = 1 << 1,  /* in a for/while/until/select */
	SB_CTX_CASE       = 1 << 2,
	SB_CTX_FUNCTION   = 1 << 3,  /* in a function body: runs when called */
	SB_CTX_SUBSHELL   = 1 << 4,  /* ( ... ) */
	SB_CTX_BRACE      = 1 << 5,  /* { ...; } */
	SB_CTX_PIPELINE   = 1 << 6,  /* part of a | pipeline */
	SB_CTX_AND_OR     = 1 << 7,  /* runs or not by a previous && or || */
	SB_CTX_BACKGROUND = 1 << 8,  /* ends with & */
	SB_CTX_CONDITION  = 1 << 9,  /* an if/while/until condition */
	SB_CTX_NEGATED    = 1 << 10, /* after ! */
	SB_CTX_CMDSUB     = 1 << 11, /* inside $( ) or ` ` of another command */
	SB_CTX_NESTED     = 1 << 12, /* inside the string of bash -c */
};

enum sb_prog {
	SB_PROG_NONE,     /* no command word: only assignments or redirections */
	SB_PROG_UNKNOWN,  /* the command word is an expansion we cannot resolve */
	SB_PROG_OTHER,    /* any other program or builtin */
	SB_PROG_WRAPPER,  /* time, env, nohup, exec, timeout...: runs the next part */
	SB_PROG_SRUN,
	SB_PROG_MPIRUN,   /* mpirun, mpiexec, orterun */
	SB_PROG_TORCHRUN, /* torchrun, python -m torch.distributed.run|launch */
	SB_PROG_NEURON_PARALLEL_COMPILE,
	SB_PROG_LAUNCHER, /* another launcher: deepspeed, accelerate, composer... */
	SB_PROG_SHELL_C,  /* bash -c STRING, sh -c STRING */
	SB_PROG_SCRIPT,   /* ./train.sh, bash train.sh, a .sh on PATH */
	SB_PROG_PYTHON,   /* python train.py, python -m module, torchrun's script */
	/* ssh HOST, pdsh -w HOSTS: runs the rest of the command (the next
	 * parts, or the commands of its one quoted string) on other nodes */
	SB_PROG_REMOTE,
	SB_PROG__COUNT
};
/* "srun", "torchrun"... for messages. */
const char *sb_prog_name(enum sb_prog kind);

size_t sb_cmd_count(const sb_model *m);
/* Commands in the order bash meets them: a command substitution's
 * commands come before the command holding them, a bash -c string's
 * right after its command. */
const sb_cmd *sb_cmd_at(const sb_model *m, size_t i);
size_t sb_cmd_index(const sb_cmd *c);

/* The span from the first to the last token, across backslash-newline
 * continuations: span.line..span.end_line is the line range. */
struct sb_span sb_cmd_span(const sb_cmd *c);
/* A statement that did not parse (a syntax error in it): a command of
 * no words over its text, whose assignments are of unknown value. */
bool sb_cmd_broken(const sb_cmd *c);
unsigned sb_cmd_context(const sb_cmd *c);        /* enum sb_ctx bits */
const char *sb_cmd_function(const sb_cmd *c);    /* enclosing function or NULL */
/* The command whose bash -c (or $( )) string holds this one, or NULL;
 * with the quote of that string: '\'', '"', or 0 for $( ). */
const sb_cmd *sb_cmd_parent(const sb_cmd *c);
char sb_cmd_nest_quote(const sb_cmd *c);

/* Words after the leading assignments, redirections left out. */
size_t sb_cmd_word_count(const sb_cmd *c);
const sb_word *sb_cmd_word(const sb_cmd *c, size_t i);
/* The assignments the command makes: leading VAR=value (kind PREFIX when
 * a command word follows), export/declare arguments, ${NAME:=x}. */
size_t sb_cmd_assign_count(const sb_cmd *c);
const struct sb_assign *sb_cmd_assign(const sb_cmd *c, size_t i);

/* The launcher chain: "srun -N2 torchrun --nnodes 2 train.py --lr 1" is
 * parts SRUN, TORCHRUN, PYTHON; wrappers (time, env) are parts too. */
size_t sb_cmd_part_count(const sb_cmd *c);
const sb_part *sb_cmd_part(const sb_cmd *c, size_t i);
/* The first part of the kind, or NULL. */
const sb_part *sb_cmd_find(const sb_cmd *c, enum sb_prog kind);
/* The kind of the first part that is not a wrapper. */
enum sb_prog sb_cmd_launcher(const sb_cmd *c);
/* True when the chain rests on an assumption: an expansion we could not
 * resolve stood where an option or the program could be, and the parts
 * after it were read as if it held only options (or nothing). */
bool sb_cmd_assumed(const sb_cmd *c);

enum sb_arity {
	SB_ARITY_NONE,     /* a flag */
	SB_ARITY_ONE,
	SB_ARITY_OPTIONAL, /* only an attached =value */
	SB_ARITY_TWO,      /* mpirun --mca NAME VALUE */
	SB_ARITY_UNKNOWN,  /* not in our tables: only an =value is taken */
};
struct sb_flag {
	const char *written;  /* "--nproc_per_node", "-N" */
	const char *name;     /* normalized: no dashes, '_' as '-', short
			       * letters as the long name: "nproc-per-node", "nodes" */
	const sb_word *word;  /* the word holding the flag */
	const sb_word *value; /* NULL when none was taken */
	const sb_word *value2; /* the second value of an ARITY_TWO flag */
	enum sb_arity arity;
	bool joined;          /* --a=b or -N2 */
	bool bare_next;       /* ARITY_UNKNOWN and the next word does not start
			       * with '-': it may be this flag's value or a
			       * positional; see sb_flag_next */
};
enum sb_prog sb_part_kind(const sb_part *p);
/* The word naming the program ("srun", "./pt/bin/torchrun", "python3"). */
const sb_word *sb_part_program(const sb_part *p);
/* Its basename ("torchrun", "python3"); "" when unknown. */
const char *sb_part_name(const sb_part *p);
/* PYTHON: the script or module (-m); SCRIPT: the script path; SHELL_C:
 * the command string; TORCHRUN via python -m: the module. NULL if none. */
const sb_word *sb_part_entry(const sb_part *p);
size_t sb_part_flag_count(const sb_part *p);
const struct sb_flag *sb_part_flag(const sb_part *p, size_t i);
/* Positional words of the part: the script's own arguments for PYTHON
 * and SCRIPT, remaining words for OTHER. */
size_t sb_part_arg_count(const sb_part *p);
const sb_word *sb_part_arg(const sb_part *p, size_t i);
/* Words we could not place (opaque expansions) inside the part's options. */
size_t sb_part_opaque_count(const sb_part *p);

/* The value of the last occurrence of a flag, by any spelling:
 * sb_flag(p, "nnodes"), sb_flag(p, "nproc_per_node"), sb_flag(p, "N").
 * NULL when absent or when it took no value. */
const sb_word *sb_flag(const sb_part *p, const char *name);
const struct sb_flag *sb_flag_find(const sb_part *p, const char *name);
size_t sb_flag_occurrences(const sb_part *p, const char *name);
/* For a flag of unknown arity written as "--name value": the next word,
 * for rules that know the program takes one value there. NULL otherwise. */
const sb_word *sb_flag_next(const sb_part *p, const char *name);

/* ---- assignments ---- */

enum sb_assign_kind {
	SB_ASSIGN_PLAIN,   /* NAME=value, NAME+=value */
	SB_ASSIGN_EXPORT,  /* export NAME=value */
	SB_ASSIGN_DECLARE, /* declare/typeset/local/readonly NAME=value */
	SB_ASSIGN_DEFAULT, /* ${NAME:=value}: only when unset or empty */
	SB_ASSIGN_PREFIX,  /* NAME=value cmd: for that command only */
	SB_ASSIGN_MARK,    /* export NAME / declare -x NAME: no new value */
	SB_ASSIGN_UNSET,   /* unset NAME */
	SB_ASSIGN_UNKNOWN, /* read NAME, for NAME in, getopts...: set at run time */
};
struct sb_assign {
	const char *name;
	struct sb_span span;      /* the whole assignment word */
	struct sb_span name_span;
	enum sb_assign_kind kind;
	const sb_word *value;     /* scalar value; NULL for arrays and value-less kinds */
	const sb_word *const *elems; /* array elements */
	size_t n_elems;
	bool array;               /* NAME=( ... ) */
	bool append;              /* += */
	bool exported;            /* by this record: export NAME=v, declare -x, export NAME */
	bool refs_vars;           /* the value reads other variables */
	const sb_cmd *cmd;        /* the command it belongs to */
};
/* In the order the parse met them: the file's in command order, then
 * those of bash -c strings (each string a scope of its own). */
size_t sb_assign_count(const sb_model *m);
const struct sb_assign *sb_assign_at(const sb_model *m, size_t i);

enum sb_res {
	SB_RES_VALUE,   /* a literal value: out->value */
	SB_RES_WORD,    /* set to a word with expansions: out->assign->value */
	SB_RES_ENV,     /* not set by the script before this point: the
			 * environment's (SLURM_* and the like); out->var names it */
	SB_RES_UNKNOWN, /* set on some paths only, in a loop, a function or
			 * a subshell, or at run time */
};
struct sb_resolved {
	enum sb_res kind;
	const struct sb_assign *assign; /* the assignment that decides, if any */
	const char *value;    /* VALUE: the text */
	const char *var;      /* ENV: the variable the chain ends at */
	bool overridable;     /* a ${NAME:=default}: the environment may win */
	bool after_source;    /* a file sourced (or eval) since may have set
			       * it too; the model assumes it did not */
	bool exported;        /* known to be exported at this point */
	unsigned hops;        /* NAME=$OTHER links followed */
};
/* What NAME holds when command `at` runs (at == NULL: at the end of the
 * script). Follows NAME=$OTHER chains. */
enum sb_res sb_resolve(const sb_model *m, const char *name, const sb_cmd *at,
		       struct sb_resolved *out);
/* The same for a word that is one plain expansion (sb_word_var); a word
 * with a literal value resolves to SB_RES_VALUE, anything else UNKNOWN. */
enum sb_res sb_resolve_word(const sb_model *m, const sb_word *w, const sb_cmd *at,
			    struct sb_resolved *out);

/* For the checks that evaluate a script at given numbers (a node
 * count): the assignments of NAME that may decide its value when `at`
 * runs, latest first, into out (at most max). *base is true when the
 * last of them certainly ran, so nothing before it (nor the environment)
 * matters. Returns the count, or SIZE_MAX when a loop or a function
 * makes the order unknown, or there are more than max. */
size_t sb_assign_candidates(const sb_model *m, const char *name, const sb_cmd *at,
			    const struct sb_assign **out, size_t max, bool *base);
/* What decides whether an assignment ran when `use` runs: the condition
 * commands of the if it stands in, the earlier branches' first and its
 * own last (an else has none), each with the outcome it must have
 * (taken[i]: false for an earlier branch, true for its own). Returns the
 * count; 0 when it runs whenever the script reaches it; SIZE_MAX when
 * something else decides (a loop, && or ||, a case item, two ifs, a
 * condition of more than one command). */
size_t sb_assign_conditions(const sb_model *m, const struct sb_assign *a, const sb_cmd *use,
			    const sb_cmd **conds, bool *taken, size_t max);
/* The same for an assignment in a case item: the case's word, and the
 * patterns of the items from the first to its own, as written ("1|2",
 * "*", ")" left out), into patterns (at most max). Returns the count,
 * 0 when no case item decides it, SIZE_MAX when something else does or
 * an item before it falls through (;& or ;;&). */
size_t sb_assign_case(const sb_model *m, const struct sb_assign *a, const sb_cmd *use,
		      const sb_word **subject, const char **patterns, size_t max);

/* Whether the batch shell expands the references of word w of command
 * at, so that they hold the batch step's values, the same for every
 * task: at runs in the batch shell; or it stands in a double-quoted
 * bash -c string, whose text the batch shell expanded before the task's
 * shell read it; or w was spliced from a variable the batch shell
 * assigned ($LAUNCHER holding "--node_rank $SLURM_PROCID"). */
bool sb_word_batch_expanded(const sb_model *m, const sb_word *w, const sb_cmd *at);

/* ---- here-documents and continuation facts ---- */

struct sb_heredoc {
	struct sb_span span;  /* the body, through the delimiter line */
	const char *delim;
	bool quoted;          /* <<'EOF': no expansion in the body */
	bool strip_tabs;      /* <<- */
	bool terminated;      /* false: the body ran to the end of the file */
	const sb_cmd *cmd;
};
size_t sb_heredoc_count(const sb_model *m);
const struct sb_heredoc *sb_heredoc_at(const sb_model *m, size_t i);

enum sb_fact_kind {
	/* A backslash followed by blanks at the end of a line: it escapes a
	 * blank, so the line does not continue. span: backslash to EOL. */
	SB_FACT_BACKSLASH_SPACE,
	/* A command that starts with -flag: the line before lost its
	 * trailing backslash. span: the flag word; prev: the command the
	 * line was meant to continue. */
	SB_FACT_LOST_CONTINUATION,
};
struct sb_fact {
	enum sb_fact_kind kind;
	struct sb_span span;
	const sb_cmd *cmd;  /* LOST_CONTINUATION: the command the lost line
			     * became; NULL for BACKSLASH_SPACE */
	const sb_cmd *prev; /* LOST_CONTINUATION: the command before */
	bool adjacent;      /* LOST_CONTINUATION: prev ends on the line above */
};
size_t sb_fact_count(const sb_model *m);
const struct sb_fact *sb_fact_at(const sb_model *m, size_t i);

#endif
