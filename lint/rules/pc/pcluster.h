/* The PC rules' entry point: every check of a ParallelCluster v3 cluster
 * config whose YAML parsed. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include "diag.h"
#include "target.h"
#include "tmpl.h"
#include "yamldoc.h"

/* Against the default target; pcluster_lint_at against target's
 * ParallelCluster (and the Slurm it runs), t saying how the text was read
 * (its look-alikes read as ASCII), or NULL. */
void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);
void pcluster_lint_at(struct source *src, const yamldoc *doc, const struct tmpl *t,
		      const struct target *target, struct diag_list *diags);

#endif
