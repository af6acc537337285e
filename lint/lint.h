/* The lint pipeline: read, classify, parse, run the rules of each file's
 * kind, check batch scripts against their cluster config, run
 * shellcheck, apply suppressions and rule selection. The CLI prints. */
#ifndef TF_LINT_H
#define TF_LINT_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster.h"
#include "diag.h"
#include "fileio.h"
#include "script.h"
#include "shellcheck.h"
#include "target.h"
#include "tmpl.h"
#include "trouble.h"
#include "yamldoc.h"

/* Checks a job spec; the CLI passes the generator's spec and plan checks
 * here, since lint/ does not include gen/. */
typedef void (*jobspec_check_fn)(struct source *src, const yamldoc *doc,
				 struct diag_list *diags);
/* The same against a target (the ParallelCluster a generated config is for). */
typedef void (*jobspec_check_at_fn)(struct source *src, const yamldoc *doc,
				    const struct target *target, struct diag_list *diags);

struct lint_options;
struct lint_template;
/* The options for one input path (its .trainforge.yaml); NULL: the run's. */
typedef const struct lint_options *(*lint_options_fn)(void *ctx, const char *path);

struct lint_options {
	enum file_kind kind;
	const char *stdin_filename;
	size_t max_bytes;
	bool enabled[RULE__COUNT];         /* after --select/--ignore */
	int level[RULE__COUNT];            /* -1 = the rule's default */
	jobspec_check_fn check_jobspec;    /* NULL: job specs get input checks only */
	jobspec_check_at_fn check_jobspec_at; /* when set, used instead, with the target */
	struct target target;              /* the versions the file is checked against */
	struct target_request target_flags; /* --target: applied over the settings files */
	const char *cluster_path;          /* --cluster: pairs every batch script */
	enum shellcheck_mode shellcheck;
	const char *shellcheck_program;    /* NULL: from PATH */
	double shellcheck_timeout;         /* seconds: the base of a shellcheck process's bound */
	const char *cluster_fallback;      /* settings' cluster: after the script's own comment */
	bool excluded;                     /* settings' exclude: the file is not linted */
	bool no_ignore;                    /* --no-ignore: walks read what .gitignore leaves out */
	const struct tmpl_defs *defines;   /* --define, --env-file, settings' define: values
					      for the placeholders of templates; NULL: none */
	const char *base_rev;              /* --base or base:, the git revision whose version of
					    * each cluster config a change is reviewed against */
	const char *base_path;             /* diff OLD NEW: the old version is this file */
	double idle_cost_warning;          /* idle-cost-warning: USD/h; < 0: PC6001 stays info */
	const char *docs_url;              /* docs-url: where rule links point; NULL: the build's */
	bool pair_tracked;                 /* --pair-tracked (hooks) and the editor: a batch
					      script nothing pairs pairs with the only
					      cluster config git tracks */
	bool skip_unknown;                 /* --skip-unknown (hooks): a named file of no
					      known kind is skipped without a finding */
	lint_options_fn options_for;       /* per-file options; NULL: these for every file */
	void *options_ctx;
};

/* One file of the run, parsed once: what every rule, the pairing, the
 * suppressions and the fixes of this pass read. */
struct schema_place;

struct lint_file {
	struct source *src;
	enum file_kind kind;     /* KIND_UNKNOWN: input checks only */
	bool named;              /* given on the command line, not found by a walk */
	bool input;              /* its text was read and linted; false: a cluster
				    config read for pairing, or a file over the
				    size limit */
	bool program;            /* a .py named on the command line: read only
				    when a batch script starts it */
	bool shell;              /* a .sh/.bash without #SBATCH: linted only when a
				    batch script starts it with srun */
	bool csh;                /* a csh or tcsh batch script: sbatch reads its #SBATCH
				    lines, which are checked; its body is not bash */
	bool launch;             /* such a script that runs a launcher itself (torchrun,
				    accelerate, deepspeed, mpirun): started on each node
				    by what the inputs do not show, linted as such */
	bool complete;           /* it parsed: every check could run */
	const struct schema_place *fragment; /* YAML of no kind that is part of a
				    cluster config: where its keys belong */
	struct tmpl yaml_tmpl;   /* YAML kinds: the text as the loader read it */
	yamldoc *doc;            /* YAML kinds: the document */
	yamldoc *as_written;     /* a config with look-alikes: the document before
				    they were read as ASCII (doc has them so) */
	sb_model *model;         /* scripts: the model */
	struct lint_template *tmpl; /* scripts with template tags: the masked text */
	struct cluster cluster;  /* a cluster config that parsed: the model over doc */
	size_t first_diag;       /* a cluster config's findings start here; its
				    suppressions wait for the checks that need
				    the run's batch scripts */
	bool deferred;           /* those suppressions are still to apply */
	bool yaml_waits;         /* a YAML file whose checks wait until shellcheck
				    started on the run's scripts (lint_run_finish);
				    its findings start at first_diag */
	bool reviewed;           /* a change review ran over it (its directives
				    for change rules count) */
};

/* Why a file a directory walk met was not linted (the walk's closing
 * line on stderr counts them). */
enum lint_skip {
	SKIP_NO_KIND,    /* neither a config, a job spec nor a batch script, by name and content */
	SKIP_LANGUAGE,   /* in another language than the shell's (.py, #!/usr/bin/env python) */
	SKIP_IGNORED,    /* left out by .gitignore */
	SKIP__COUNT
};

struct lint_run {
	const struct lint_options *opt;
	size_t skipped[SKIP__COUNT];       /* files the walks left out, by why */
	size_t walks;                      /* directories named on the command line */
	struct diag_list diags;
	struct trouble trouble;            /* messages for stderr, not findings */
	struct lint_file **files;          /* in the order they were read */
	size_t n_files, cap_files;
	size_t files_checked;
	bool io_failed;        /* a missing, unreadable or non-regular input: exit 2 */
	bool shellcheck_failed; /* --shellcheck required and it could not run or
				   finish: exit 2 */
	const char *base_failed; /* a revision already reported as unusable */
	struct lint_program *programs;     /* Python files read for the scripts */
	size_t n_programs, cap_programs;
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
/* After every input: shellcheck started on the batch scripts, then the
 * YAML checks that waited for it (with shellcheck on), the scripts
 * against their cluster, and the scripts' suppressions. Call once,
 * before reading the findings. */
void lint_run_finish(struct lint_run *run);
/* The options that apply to src: options_for's answer, else the run's. */
const struct lint_options *lint_options_of(const struct lint_run *run,
					   const struct source *src);

#endif
