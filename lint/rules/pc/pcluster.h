/* The PC rules' entry point: every check of a ParallelCluster v3 cluster
 * config whose YAML parsed. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include "diag.h"
#include "target.h"
#include "tmpl.h"
#include "yamldoc.h"

/* How a config's text was read: the template it was prepared from (with
 * its look-alikes read as ASCII) and, when that changed the document, the
 * document as written. */
struct pc_reading {
	const struct tmpl *tmpl;
	const yamldoc *as_written;
};

/* Against the default target; pcluster_lint_at against target's
 * ParallelCluster (and the Slurm it runs); how may be NULL. */
void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);
void pcluster_lint_at(struct source *src, const yamldoc *doc, const struct pc_reading *how,
		      const struct target *target, struct diag_list *diags);

#endif
