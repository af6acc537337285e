/* Checks of Slurm batch scripts (SB rules), alone and against the cluster
 * config they will run on, over the script model of sbatch_model.h. */
#ifndef TF_SBATCH_H
#define TF_SBATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "cluster.h"
#include "diag.h"
#include "target.h"

#include "script.h"

struct py_args;
/* The Python programs a script starts, as the lint run finds them: the
 * command-line definitions of the file at entry (relative to the
 * script, or an input of the run), with the path it was read from; NULL
 * when there is none, or it cannot be read. */
struct sb_programs {
	const struct py_args *(*find)(void *ctx, const char *entry, const char **path);
	void *ctx;
};

/* The world a batch script runs in beyond its own text (docs/design.md,
 * "An open world"): whether a file the script sources, or one beside it
 * that users source before sbatch (MLPerf's config_<system>.sh), sets a
 * name; *file: that file, *sourced: the script sources it (or a file
 * it sources does). value_beside: the literal value a file beside the
 * script gives name, which the submitting shell then holds (sbatch reads
 * SBATCH_EXPORT so), or NULL. */
struct sb_world {
	bool (*sets)(void *ctx, const char *name, const char **file, bool *sourced);
	const char *(*value_beside)(void *ctx, const char *name, const char **file);
	void *ctx;
};

/* Runs every SB check on script (parsed into m); cluster (NULL when
 * unpaired) gives the queue, instance type and storage the cross-checks
 * need. caller, when not NULL, is the model of a batch script among the
 * inputs that starts this one with srun on every node: its allocation
 * applies, and what runs here already runs under srun (a launch script
 * passes its own). */
void sbatch_lint(struct source *script, const sb_model *m, const struct cluster *cluster,
		 const sb_model *caller, struct diag_list *diags);
/* The same against a target's Slurm (and ParallelCluster, for what the
 * paired cluster can have); sbatch_lint uses the default target. */
void sbatch_lint_at(struct source *script, const sb_model *m, const struct cluster *cluster,
		    const sb_model *caller, const struct target *target, struct diag_list *diags);
/* The queue of cl a batch script's job (its first component) runs in,
 * 0 when its partition is no queue; *exclusive: it asks for --exclusive. */
yd_node sbatch_job_queue(const sb_model *m, const struct cluster *cl, bool *exclusive);
/* The same, with the programs the script starts (NULL: none is read). */
void sbatch_lint_with(struct source *script, const sb_model *m, const struct cluster *cluster,
		      const sb_model *caller, const struct target *target,
		      const struct sb_programs *programs, struct diag_list *diags);
/* The same, with the world the script runs in (NULL: its text alone). */
void sbatch_lint_in(struct source *script, const sb_model *m, const struct cluster *cluster,
		    const sb_model *caller, const struct target *target,
		    const struct sb_programs *programs, const struct sb_world *world,
		    struct diag_list *diags);
/* The checks of a batch script's #SBATCH lines alone, for a script in
 * a shell other than bash's family (csh), whose model holds no-op
 * commands in place of its body. */
void sbatch_lint_directives(struct source *script, const sb_model *m, const struct cluster *cluster,
			    const struct target *target, struct diag_list *diags);
/* Whether `caller` starts a script at `path` (relative to the caller's
 * directory, caller_path) with srun. */
bool sbatch_calls_with_srun(const sb_model *caller, const char *caller_path, const char *path);
/* Whether a script runs a launcher itself: torchrun (or python -m
 * torch.distributed.run), accelerate launch, deepspeed or mpirun. A
 * shell script without #SBATCH that does is a launch script, linted with
 * caller = its own model (started on each node, its world from its own
 * flags). */
bool sbatch_runs_launcher(const sb_model *m);
/* Whether `caller` starts, with srun, a script by an absolute path (the
 * path it is deployed at, /fsx/job/train.sh) whose basename is path's;
 * *entry and *at: that path and where the caller names it. */
bool sbatch_calls_by_basename(const sb_model *caller, const char *path, const char **entry,
			      struct sb_span *at);
/* SB2020: the caller was paired with `path` by the basename of `entry`. */
void sbatch_report_paired_by_basename(struct source *caller, struct sb_span at, const char *entry,
				      const char *path, struct diag_list *diags);
/* The PATH of a `# trainforge cluster=PATH` comment, into out. */
bool sbatch_cluster_directive(const struct source *script, char *out, size_t cap);
/* SB3005 on the directive that names a config that cannot be used. */
void sbatch_report_unreadable_cluster(struct source *script, const char *path,
				      struct diag_list *diags);

#endif
