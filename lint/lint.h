/* The lint pipeline: read, classify, parse, run the rules of each file's
 * kind, check batch scripts against their cluster config, run
 * shellcheck, apply suppressions and rule selection. The CLI prints. */
#ifndef TF_LINT_H
#define TF_LINT_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster.h"
#include "diag.h"
#include "shellcheck.h"
#include "yamldoc.h"

enum lint_kind { KIND_AUTO, KIND_PCLUSTER, KIND_JOBSPEC, KIND_SBATCH, KIND_UNKNOWN };

/* Checks a job spec; the CLI passes the generator's spec and plan checks
 * here, since lint/ does not include gen/. */
typedef void (*jobspec_check_fn)(struct source *src, const yamldoc *doc,
				 struct diag_list *diags);

struct lint_options;
/* The options for one input path (its .trainforge.yaml); NULL: the run's. */
typedef const struct lint_options *(*lint_options_fn)(void *ctx, const char *path);

struct lint_options {
	enum lint_kind kind;
	const char *stdin_filename;
	size_t max_bytes;
	bool enabled[RULE__COUNT];         /* after --select/--ignore */
	int level[RULE__COUNT];            /* -1 = the rule's default */
	jobspec_check_fn check_jobspec;    /* NULL: job specs get input checks only */
	const char *cluster_path;          /* --cluster: pairs every batch script */
	enum shellcheck_mode shellcheck;
	const char *shellcheck_program;    /* NULL: from PATH */
	const char *cluster_fallback;      /* a config's cluster: after the script's own comment */
	bool excluded;                     /* a config's exclude: the file is not linted */
	lint_options_fn options_for;       /* per-file options; NULL: these for every file */
	void *options_ctx;
};

/* An input as handed to the rules, so that a run can be repeated on
 * changed text (--fix). */
struct lint_input {
	struct source *src;
	bool named;
};

/* A cluster config of the run, kept for batch-script cross-checks. */
struct lint_cluster {
	struct cluster model;
	yamldoc *doc;      /* owned: the model reads it */
};

struct lint_run {
	const struct lint_options *opt;
	struct diag_list diags;
	struct source **sources;
	size_t n_sources, cap_sources;
	struct source **scripts;           /* checked at lint_run_finish */
	size_t n_scripts, cap_scripts;
	struct source **shells;            /* .sh inputs: scripts if a batch script runs them */
	bool *shells_named;
	size_t n_shells, cap_shells;
	struct lint_cluster *clusters;
	size_t n_clusters, cap_clusters;
	struct lint_input *inputs;         /* in the order they were linted */
	size_t n_inputs, cap_inputs;
	size_t files_checked;
	bool io_failed;        /* a missing, unreadable or non-regular input: exit 2 */
	bool shellcheck_failed; /* --shellcheck required and it could not run: exit 2 */
};

/* Rules enabled by default, levels at their defaults, shellcheck auto. */
void lint_options_init(struct lint_options *opt);
void lint_run_init(struct lint_run *run, const struct lint_options *opt);
void lint_run_fini(struct lint_run *run);
/* A file or a directory (walked recursively); "-" reads stdin. */
void lint_path(struct lint_run *run, const char *path);
/* Lints text held in memory as if it were the file `path`. */
void lint_text(struct lint_run *run, const char *path, const char *text,
	       size_t len, bool named);
/* After every input: batch scripts against their cluster, shellcheck,
 * and the scripts' suppressions. Call once, before printing. */
void lint_run_finish(struct lint_run *run);
/* The options that apply to src: options_for's answer, else the run's. */
const struct lint_options *lint_options_of(const struct lint_run *run,
					   const struct source *src);

#endif
