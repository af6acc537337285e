/* Checks of ParallelCluster v3 cluster configs (PC rules), one file per
 * family, all reading one yamldoc. */
#ifndef TF_PCLUSTER_H
#define TF_PCLUSTER_H

#include <stdbool.h>

#include "catalog.h"
#include "diag.h"
#include "yamldoc.h"

struct pc {
	struct source *src;
	const yamldoc *doc;
	yd_node root;
	struct diag_list *diags;
};

/* Runs every PC check on a config whose YAML parsed. */
void pcluster_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);

/* Reports at node `at` (its span and YAML path). */
struct diag *pc_report(const struct pc *pc, enum rule_id rule, yd_node at,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The families. */
void pc_check_schema(const struct pc *pc);
void pc_check_text(const struct pc *pc);
void pc_check_values(const struct pc *pc);
void pc_check_efa(const struct pc *pc);
void pc_check_placement(const struct pc *pc);
void pc_check_capacity(const struct pc *pc);
void pc_check_platform(const struct pc *pc);
void pc_check_storage(const struct pc *pc);

/* ---- the model the checks share (pcluster_model.c) ---- */

/* Scheduling.SlurmQueues (a sequence) or 0. */
yd_node pc_queues(const struct pc *pc);
/* ComputeResources of a queue (a sequence) or 0. */
yd_node pc_compute_resources(const struct pc *pc, yd_node queue);
/* Distinct subnet IDs in the queue's Networking.SubnetIds. */
size_t pc_subnet_count(const struct pc *pc, yd_node queue);
/* CapacityType, defaulting to ONDEMAND. */
const char *pc_capacity_type(const struct pc *pc, yd_node queue);
/* The instance type nodes of a compute resource: InstanceType or every
 * Instances[].InstanceType. Returns the count written (at most max). */
size_t pc_instance_types(const struct pc *pc, yd_node cr, yd_node *out, size_t max);
/* The catalog entry of an instance type node, or NULL. */
const struct instance_type *pc_instance(const struct pc *pc, yd_node type);
bool pc_flag(const struct pc *pc, yd_node map, const char *key);

/* Placement group that applies to a compute resource, as ParallelCluster
 * resolves it: the compute resource's mapping wins in full, even {}. */
struct pc_placement {
	yd_node map;          /* the PlacementGroup mapping used, or 0 */
	yd_node enabled;      /* its Enabled value node, or 0 */
	bool enabled_true, enabled_false;
	yd_node name, id;
	bool active;          /* a group will be used (managed or named) */
};
void pc_placement_of(const struct pc *pc, yd_node queue, yd_node cr,
		     struct pc_placement *out);
/* The largest number of nodes a queue can run one job on. */
long long pc_queue_max_nodes(const struct pc *pc, yd_node queue);

#endif
