/* The PC rules' entry point: every check of a ParallelCluster v3 cluster
 * config whose YAML parsed. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include "diag.h"
#include "tmpl.h"
#include "yamldoc.h"

/* t: how the text was read (its look-alikes read as ASCII), or NULL. */
void pcluster_lint(struct source *src, const yamldoc *doc, const struct tmpl *t,
		   struct diag_list *diags);

#endif
