/* What `pcluster update-cluster` does with one change: the condition of
 * the key's update policy (docs/updates.md, "The conditions") decided
 * offline. trainforge cannot see the running
 * cluster, so it judges as if the compute fleet were running (the case
 * that costs a stopped training run), and the login nodes as running
 * when the old config gives a pool a Count above zero. */
#ifndef TF_CLUSTER_UPDATE_H
#define TF_CLUSTER_UPDATE_H

#include <stdbool.h>

#include "cluster_diff.h"

enum cupd_outcome {
	CUPD_NOT_CHECKED,     /* IGNORED or NOT_COMPARED: update-cluster looks away */
	CUPD_UNKNOWN,         /* no policy is known for the key */
	CUPD_LIVE,            /* allowed while everything runs */
	CUPD_REFUSED,         /* never allowed: restore it, or create a new cluster */
	CUPD_FLEET_STOP,      /* the compute fleet must be stopped first */
	CUPD_LOGIN_STOP,      /* the login nodes must be stopped first */
	CUPD_FLEET_LOGIN_STOP,
	CUPD_DRAIN,           /* allowed: QueueUpdateStrategy DRAIN replaces the nodes as they idle */
	CUPD_TERMINATE,       /* allowed: QueueUpdateStrategy TERMINATE terminates the nodes now */
};

/* Why, when the policy alone does not say. */
enum cupd_why {
	CUPD_BY_POLICY,
	CUPD_ITEM_ADDED,      /* an item added, which the policy allows */
	CUPD_GROWS,           /* MaxCount up, or MinCount up by no more than MaxCount */
	CUPD_SHRINKS,         /* capacity removed: needs TERMINATE or a stopped fleet */
	CUPD_HOME,            /* a shared storage at /home */
	CUPD_AWSBATCH,        /* shared storage changes on an awsbatch cluster */
	CUPD_MANAGED_FSX,     /* subnets change under a managed FSx for Lustre */
	CUPD_PG_DELETED,      /* a managed placement group is deleted */
	CUPD_READ_ONLY,       /* CustomS3Bucket */
	CUPD_STORAGE_LIVE,    /* an existing EFS/FSx/File Cache mounted or unmounted live */
	CUPD_VCPUS_DOWN,      /* MaxvCpus lowered */
};

enum cupd_strategy { CUPD_COMPUTE_FLEET_STOP, CUPD_DRAIN_NODES, CUPD_TERMINATE_NODES };

/* What every judgement of one pair of configs shares. */
struct cupd_context {
	const struct cluster *old, *new;
	const struct cdiff *all;      /* every change: MinCount looks at MaxCount's */
	enum cupd_strategy strategy;  /* the new config's QueueUpdateStrategy */
	yd_node strategy_node;        /* where it is written, or 0 (the default) */
	bool awsbatch;                /* the running cluster's scheduler */
	bool login_running;           /* a pool of the old config has Count > 0 */
	const char *managed_fsx;      /* a managed FSx for Lustre in both, by Name, or NULL */
};

struct cupd_verdict {
	enum cupd_outcome outcome;
	enum cupd_why why;
};

void cupd_context_init(struct cupd_context *ctx, const struct cluster *old,
		       const struct cluster *new, const struct cdiff *all);
struct cupd_verdict cluster_update_judge(const struct cupd_context *ctx,
					 const struct cdiff_change *ch);

/* Shared storage facts the judgement and the storage rule read: an item
 * that names an existing file system, volume or cache (not managed), and
 * its DeletionPolicy with ParallelCluster's default ("Delete" for a
 * managed one, NULL for an existing one). */
bool cluster_storage_external(const yamldoc *doc, yd_node storage);
const char *cluster_storage_deletion_policy(const yamldoc *doc, yd_node storage);

#endif
