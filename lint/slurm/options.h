/* The options sbatch accepts, as one static table: what each is called
 * (long and short), whether it takes a value, what the value must look
 * like, and the Slurm releases that added and removed it.
 *
 * The baseline is Slurm 22.05: the table holds the 106 options the
 * 22.05.8 sbatch registers with getopt (hidden aliases included, so
 * "--tasks-per-node" and "--cluster" are not reported as unknown), and
 * every option a later release added, to 26.05, with that release in
 * `since`; an option a release removed carries it in `until`
 * (docs/versions.md, "slurm-options-sbatch"). What a release makes of an
 * option is sbopt_at_release; of one value, changes.h.
 *
 * Value checks follow what sbatch 22.05 itself parses on the client side
 * and, where the controller parses (arrays, dependencies), what the man
 * page defines. A value sbatch would take but almost certainly not in the
 * sense the author meant ("--nice=abc" is 0, "--time=1:60" is two
 * minutes) is SBOPT_SUSPECT rather than bad. */
#ifndef TF_SBATCH_OPTIONS_H
#define TF_SBATCH_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "version.h"

enum sbopt_arg {
	SBOPT_ARG_NONE,     /* --exclusive-style flags never take one */
	SBOPT_ARG_REQUIRED, /* "--nodes=2", "--nodes 2", "-N2", "-N 2" */
	SBOPT_ARG_OPTIONAL, /* only attached: "--exclusive=user", "-k" */
};

/* The value syntaxes; each has one checker (sbatch_values*.c). */
enum sbopt_syntax {
	SBV_NONE,          /* takes no value */
	SBV_TEXT,          /* free text: names, paths, lists sbatch passes on */
	SBV_PATTERN,       /* filename pattern with %j-style replacements */
	SBV_TIME,          /* minutes, MM:SS, HH:MM:SS, D-HH[:MM[:SS]], UNLIMITED */
	SBV_MEM,           /* size with optional K/M/G/T suffix; MB default */
	SBV_NODES,         /* N or MIN-MAX, with optional k/m multiplier */
	SBV_COUNT,         /* integer >= 1 */
	SBV_COUNT0,        /* integer >= 0 */
	SBV_INT,           /* any integer (nice adjustment) */
	SBV_ENUM,          /* one word of `choices`, case-insensitive */
	SBV_ENUM_LIST,     /* comma list of `choices` */
	SBV_TRES,          /* [type:]count[,[type:]count...] (--gpus*) */
	SBV_GRES,          /* name[[:type]:count][,...] */
	SBV_ARRAY,         /* 0-15:4%2,20 */
	SBV_DEPENDENCY,    /* type:jobid[:jobid][,|?...], singleton */
	SBV_DATETIME,      /* --begin/--deadline forms */
	SBV_SIGNAL,        /* [{R|B}:]sig[@time] */
	SBV_DISTRIBUTION,  /* block|cyclic|arbitrary|plane=N[:..[:..]][,Pack] */
	SBV_GPU_BIND,
	SBV_MEM_BIND,
	SBV_CPU_FREQ,
	SBV_GPU_FREQ,
	SBV_EXTRA_NODE_INFO, /* S[:C[:T]] with * and ranges */
	SBV_SWITCHES,      /* count[@time] */
	SBV_ACCTG_FREQ,    /* N or type=N[,...] */
	SBV_GET_USER_ENV,  /* [timeout][S|L] */
	SBV_PROFILE,
	SBV_PROPAGATE,
	SBV_PRIORITY,      /* integer >= 0 or TOP */
	SBV_LICENSES,      /* name[@db][:count][,...] */
	SBV_BOOL01,        /* 0 or 1 (--wait-all-nodes) */
};

/* Facts about an option that are not its syntax. */
enum sbopt_flags {
	SBOPT_HIDDEN     = 1 << 0, /* not in --help/man: an alias or internal */
	SBOPT_SITE       = 1 << 1, /* the value must exist at the site (partition, account...) */
	SBOPT_CLIENT     = 1 << 2, /* changes what the sbatch command does, not the job */
	SBOPT_PRIVILEGED = 1 << 3, /* only root or Slurm operators may use it */
	SBOPT_FILE       = 1 << 4, /* sbatch opens the named file at submission */
	SBOPT_BLOCK      = 1 << 5, /* needs Slurm's topology/block plugin */
	SBOPT_UNSURE     = 1 << 6, /* since is the first release known to have it;
				    * the one that added it (after 22.05) is not known */
};

struct sbopt {
	const char *name;        /* long name without the dashes */
	char short_name;         /* 0 when there is none */
	enum sbopt_arg arg;
	enum sbopt_syntax syntax;
	const char *const *choices; /* NULL-terminated, for the enum syntaxes */
	struct version since;    /* unset: in 22.05; else the release that added it */
	struct version until;    /* unset: never removed; else the release that removed it */
	unsigned flags;          /* enum sbopt_flags */
	const char *alias_of;    /* the documented name of a hidden alias */
	const char *example;     /* a value sbatch accepts; NULL when none is taken */
	const char *summary;     /* one line, for messages and docs */
	const char *needs;       /* options sbatch refuses it without ("--gpus=1"), or NULL */
};

/* Exact lookup: "nodes", "--nodes", "N", "-N" all find --nodes. NULL if
 * there is no such option. */
const struct sbopt *sbopt_find(const char *name);
const struct sbopt *sbopt_find_n(const char *name, size_t len);
/* The long option a getopt_long abbreviation selects, as sbatch resolves
 * it: an exact name wins, else a unique prefix. *ambiguous is set when
 * several options share the prefix (sbatch then refuses the script).
 * sbopt_match takes every option of the table for an exact name and
 * those no release removed for a prefix; sbopt_match_at, those of one
 * Slurm release (a line or a release of one). */
const struct sbopt *sbopt_match(const char *name, size_t len, bool *ambiguous);
const struct sbopt *sbopt_match_at(const char *name, size_t len, struct version slurm,
				   bool *ambiguous);

/* What a Slurm release (a line or a release) makes of a table row. */
enum sbopt_release {
	SBOPT_PRESENT, /* it has it */
	SBOPT_NEWER,   /* a later release added it: *when */
	SBOPT_MAYBE,   /* newer than 22.05 and older than *when, the first release
			* known to have it: the release that added it is not known */
	SBOPT_REMOVED, /* it, or a release before it, removed it: *when */
};
/* From a row's since, until and SBOPT_UNSURE. */
enum sbopt_release sbopt_release_of(struct version since, struct version until, bool unsure,
				    struct version slurm, struct version *when);
enum sbopt_release sbopt_at_release(const struct sbopt *o, struct version slurm,
				    struct version *when);

enum sbopt_verdict {
	SBOPT_OK,
	SBOPT_BAD,     /* sbatch (or the controller) rejects it */
	SBOPT_SUSPECT, /* accepted, but not in the way it reads */
};
/* Checks value[0..len) for opt. On BAD or SUSPECT writes a reason of at
 * most cap bytes (NUL-terminated) into why; why may be NULL. */
enum sbopt_verdict sbopt_check_value(const struct sbopt *opt, const char *value,
				     size_t len, char *why, size_t cap);

/* Whether a --nodes value is a size list or a step ("2,4,8", "1-15:4"),
 * which Slurm reads from 23.02 (changes.h). */
bool sbopt_nodes_size_list(const char *value);

/* The closest option names to an unknown one, for "did you mean": the
 * long name of the best match within a small edit distance (prefix
 * typos and '_' for '-' count as close), or NULL. */
const char *sbopt_suggest(const char *name);

/* The table in alphabetical order of long name. sbopt_at returns NULL
 * past the end. */
size_t sbopt_count(void);
const struct sbopt *sbopt_at(size_t i);

#endif
