/* The PC rules' entry point: every check of a ParallelCluster v3 cluster
 * config whose YAML parsed. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include "diag.h"
#include "yamldoc.h"

void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);

#endif
