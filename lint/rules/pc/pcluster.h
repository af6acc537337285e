/* The PC rules' entry point: every check of a ParallelCluster v3 cluster
 * config whose YAML parsed. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "target.h"
#include "yamldoc.h"

/* Against the default target; pcluster_lint_at against target's
 * ParallelCluster (and the Slurm it runs). */
void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);
void pcluster_lint_at(struct source *src, const yamldoc *doc, const struct target *target,
		      struct diag_list *diags);

/* The batch scripts of a run paired with one cluster config: for each,
 * the queue it runs in (0 when none), whether it asks for --exclusive,
 * and its path. */
struct pc_pairing {
	size_t n;
	const yd_node *queues;
	const bool *exclusive;
	const char *const *scripts;
};
/* The checks that need the run's batch scripts (PC2220), once they are
 * paired; pair may be empty. */
void pcluster_lint_sharing_at(struct source *src, const yamldoc *doc, const struct target *target,
			      const struct pc_pairing *pair, struct diag_list *diags);

#endif
