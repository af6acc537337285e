/* The PC rules' entry points: every check of a ParallelCluster v3
 * cluster config whose YAML parsed, and the review of a change to one
 * against its old version. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include <stdbool.h>
#include <stddef.h>

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

/* What a run's settings change about the PC rules. */
struct pc_settings {
	const struct target *target; /* the ParallelCluster checked against; NULL: the default */
	double idle_cost_warning;    /* USD per hour of idle static nodes in one config
				      * above which PC6001 is a warning; < 0: never */
	const struct pc_reading *how; /* NULL: the text as the document has it */
};

/* A part of a cluster config (a fragment: a lone SlurmQueues list, a
 * compute resource kept apart): the schema's checks from the place at
 * (schema_places) its keys belong to, without the required keys of the
 * parts it does not hold. */
struct schema_place;
void pcluster_lint_fragment(struct source *src, const yamldoc *doc, const struct schema_place *at,
			    const struct target *target, struct diag_list *diags);

/* The old version of a config a change is reviewed against. */
struct pc_base {
	const yamldoc *doc;
	const char *name;           /* as users know it: HEAD:clusters/a.yaml, old.yaml */
};

/* Against the default target, PC6001 never a warning; pcluster_lint_at
 * against target's ParallelCluster (and the Slurm it runs);
 * pcluster_lint_with with every setting. */
void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);
void pcluster_lint_at(struct source *src, const yamldoc *doc, const struct target *target,
		      struct diag_list *diags);
void pcluster_lint_with(struct source *src, const yamldoc *doc, const struct pc_settings *set,
			struct diag_list *diags);
/* The PC5 findings of the change from base to doc, in src. */
void pcluster_review(struct source *src, const yamldoc *doc, const struct pc_base *base,
		     const struct pc_settings *set, struct diag_list *diags);
/* PC5009: the old version (name) cannot be reviewed against, and why. */
void pcluster_review_unusable(struct source *src, const char *name, const char *why,
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
