/* Checks of Slurm batch scripts (SB rules), alone and against the cluster
 * config they will run on, over the script model of sbatch_model.h. */
#ifndef TF_SBATCH_H
#define TF_SBATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "lint.h"

/* Runs every SB check on script; cluster (NULL when unpaired) gives the
 * queue, instance type and storage the cross-checks need. */
void sbatch_lint(struct source *script, const struct lint_cluster *cluster,
		 struct diag_list *diags);
/* The PATH of a `# trainforge cluster=PATH` comment, into out. */
bool sbatch_cluster_directive(const struct source *script, char *out, size_t cap);
/* SB3005 on the directive that names a config that cannot be used. */
void sbatch_report_unreadable_cluster(struct source *script, const char *path,
				      struct diag_list *diags);

#endif
