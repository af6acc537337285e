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

/* Runs every SB check on script (parsed into m); cluster (NULL when
 * unpaired) gives the queue, instance type and storage the cross-checks
 * need. caller, when not NULL, is the model of a batch script among the
 * inputs that starts this one with srun on every node: its allocation
 * applies, and what runs here already runs under srun. */
void sbatch_lint(struct source *script, const sb_model *m, const struct cluster *cluster,
		 const sb_model *caller, struct diag_list *diags);
/* The same against a target's Slurm (and ParallelCluster, for what the
 * paired cluster can have); sbatch_lint uses the default target. */
void sbatch_lint_at(struct source *script, const sb_model *m, const struct cluster *cluster,
		    const sb_model *caller, const struct target *target, struct diag_list *diags);
/* Whether `caller` starts a script at `path` (relative to the caller's
 * directory, caller_path) with srun. */
bool sbatch_calls_with_srun(const sb_model *caller, const char *caller_path, const char *path);
/* The PATH of a `# trainforge cluster=PATH` comment, into out. */
bool sbatch_cluster_directive(const struct source *script, char *out, size_t cap);
/* SB3005 on the directive that names a config that cannot be used. */
void sbatch_report_unreadable_cluster(struct source *script, const char *path,
				      struct diag_list *diags);

#endif
