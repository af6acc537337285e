/* Checks of ParallelCluster v3 cluster configs (PC rules), one file per
 * rule area of rules.def, all reading one cluster model. */
#ifndef TF_PC_H
#define TF_PC_H

#include <stdbool.h>

#include "cluster.h"
#include "diag.h"
#include "pcluster.h"

/* What every PC rule gets: the model it reads, the list it reports to. */
struct pc {
	const struct cluster *cl;
	struct diag_list *diags;
	size_t first;           /* the file's first finding in diags */
	const struct tmpl *tmpl; /* how the text was read, or NULL */
	const yamldoc *as_written; /* before look-alikes were read as ASCII, or NULL */
	const struct target *target; /* the ParallelCluster checked against */
	double idle_cost_warning;    /* pc_settings */
};

/* Reports at node `at` (its span and YAML path). */
struct diag *pc_report(const struct pc *pc, enum rule_id rule, yd_node at,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* An unsafe fix on g that adds `lines` (key: value lines, '\n' between,
 * indented relative to one another) as keys of the block mapping map,
 * at its indentation (fix_keys.c); false when map takes no such edit. */
bool pc_fix_add_keys(struct diag *g, const yamldoc *d, yd_node map, const char *lines);

/* The areas, one file each (rules.def). */
void pc_check_schema(const struct pc *pc);
void pc_check_values(const struct pc *pc);
void pc_check_efa(const struct pc *pc);
void pc_check_placement(const struct pc *pc);
void pc_check_capacity(const struct pc *pc);
void pc_check_platform(const struct pc *pc);
void pc_check_storage(const struct pc *pc);
void pc_check_cost(const struct pc *pc);
void pc_check_network(const struct pc *pc);
void pc_check_bootstrap(const struct pc *pc);
/* PC1004 (values.c), after every other check: what the value is once
 * read in ASCII depends on what they found. */
void pc_check_lookalikes(const struct pc *pc);

#endif
