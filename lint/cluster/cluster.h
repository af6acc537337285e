/* A ParallelCluster config as a model: queues, compute resources,
 * subnets, instance types and placement groups, read from its yamldoc.
 * The model knows nothing of rules: the PC rules and the batch-script
 * checks against a cluster both read it. */
#ifndef TF_CLUSTER_H
#define TF_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "source.h"
#include "yamldoc.h"

struct cluster {
	struct source *src;
	const yamldoc *doc;
	yd_node root;
};

/* A model over doc (which must outlive it); src is the file it came from. */
struct cluster cluster_of(struct source *src, const yamldoc *doc);

/* Scheduling.SlurmQueues (a sequence) or 0. */
yd_node cluster_queues(const struct cluster *c);
/* ComputeResources of a queue (a sequence) or 0. */
yd_node cluster_compute_resources(const struct cluster *c, yd_node queue);
/* Distinct subnet IDs in the queue's Networking.SubnetIds, placeholders
 * left out: more than one is certainly several subnets. */
size_t cluster_subnet_count(const struct cluster *c, yd_node queue);
/* Whether a placeholder stands for some of them (so one subnet is not
 * certain either). */
bool cluster_subnets_open(const struct cluster *c, yd_node queue);
/* Whether n is a value a template leaves open (a placeholder such as
 * ${NODES}): checks that need the value stay silent about it. */
bool cluster_unknown(const struct cluster *c, yd_node n);
/* CapacityType, defaulting to ONDEMAND; NULL when it is a placeholder. */
const char *cluster_capacity_type(const struct cluster *c, yd_node queue);
/* The instance type nodes of a compute resource: InstanceType or every
 * Instances[].InstanceType. Returns the count written (at most max). */
size_t cluster_instance_types(const struct cluster *c, yd_node cr, yd_node *out, size_t max);
/* The catalog entry of an instance type node, or NULL. */
const struct instance_type *cluster_instance(const struct cluster *c, yd_node type);
/* A number or a flag as ParallelCluster reads it: "4" and 4.0 are 4,
 * "true", yes and 1 are true (docs/versions.md, "pc-yaml-coercion"). */
bool cluster_int(const struct cluster *c, yd_node n, long long *out);
bool cluster_bool(const struct cluster *c, yd_node n, bool *out);
/* A boolean key of map that is present and true. */
bool cluster_flag(const struct cluster *c, yd_node map, const char *key);

/* The scripts a CustomActions mapping runs: the Script, or each Script
 * of a Sequence, of OnNodeStart, OnNodeConfigured and OnNodeUpdated.
 * Returns the count written (at most max). */
size_t cluster_action_scripts(const struct cluster *c, yd_node actions, yd_node *out, size_t max);

/* Placement group that applies to a compute resource, as ParallelCluster
 * resolves it: the compute resource's mapping wins in full, even {}. */
struct cluster_placement {
	yd_node map;          /* the PlacementGroup mapping used, or 0 */
	yd_node enabled;      /* its Enabled value node, or 0 */
	bool enabled_true, enabled_false;
	yd_node name, id;
	bool active;          /* a group will be used (managed or named) */
	bool unknown;         /* Enabled, Name or Id is a placeholder */
};
void cluster_placement_of(const struct cluster *c, yd_node queue, yd_node cr,
			  struct cluster_placement *out);
/* The largest number of nodes a queue can run one job on; -1 when a
 * MaxCount is a placeholder. */
long long cluster_queue_max_nodes(const struct cluster *c, yd_node queue);

#endif
