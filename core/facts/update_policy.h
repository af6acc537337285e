/* ParallelCluster's update policies: for each key of a cluster config,
 * what `pcluster update-cluster` allows when its value changes, per
 * ParallelCluster version. The rows are static data (update_policy.def);
 * what each policy means, and the condition it checks, in words. */
#ifndef TF_UPDATE_POLICY_H
#define TF_UPDATE_POLICY_H

#include <stddef.h>

#include "version.h"

/* The policies ParallelCluster's schema names (UpdatePolicy.X),
 * NOT_COMPARED for keys its comparison never reads, and UNCONFIRMED for
 * a key of a later release whose policy no source read states. */
enum up_policy {
	UP_UNSUPPORTED,
	UP_SUPPORTED,
	UP_IGNORED,
	UP_COMPUTE_FLEET_STOP,
	UP_COMPUTE_FLEET_STOP_ON_REMOVE,
	UP_QUEUE_UPDATE_STRATEGY,
	UP_RESIZE_UPDATE_STRATEGY_ON_REMOVE,
	UP_MANAGED_PLACEMENT_GROUP,
	UP_MANAGED_FSX,
	UP_SHARED_STORAGE,
	UP_LOGIN_NODES_STOP,
	UP_LOGIN_NODES_POOL_STOP,
	UP_LOGIN_NODES_POOLS,
	UP_COMPUTE_AND_LOGIN_NODES_STOP,
	UP_AWSBATCH_CE_MAX_RESIZE,
	UP_READ_ONLY_RESOURCE_BUCKET,
	UP_NOT_COMPARED,
	UP_UNCONFIRMED,
	UP__COUNT
};

/* How ParallelCluster compares a key: as one value, key by key (a
 * section added or removed is one change), or item by item. */
enum up_kind { UP_PARAM, UP_SECTION, UP_LIST };

struct up_entry {
	const char *path;        /* Scheduling.SlurmQueues[].ComputeResources[].MinCount */
	enum up_kind kind;
	const char *update_key;  /* UP_LIST: what items are matched by (Name) */
	enum up_policy policy;
	int from, until;         /* versions (100 * major + minor); until 0: still */
};

struct up_policy_info {
	const char *name;        /* as ParallelCluster names it: COMPUTE_FLEET_STOP */
	const char *condition;   /* what update-cluster checks, in words */
};

/* The newest ParallelCluster version the table describes (316 for 3.16). */
int update_policy_newest(void);
/* The table's version for a target's ParallelCluster (a line or a
 * release: 3.16 and 3.16.2 are 316); the newest when pc is unset. */
int update_policy_version(struct version pc);

/* The row for the key path path[0..len) that holds at version (0: the
 * newest); versions older than 3.11 get 3.11's row. NULL when no row
 * has the path, or the key is not one of version's (added later, or
 * gone). */
const struct up_entry *update_policy_find(const char *path, size_t len, int version);

/* Every row, in table order, for docs and tests. */
size_t update_policy_count(void);
const struct up_entry *update_policy_at(size_t i);

const struct up_policy_info *update_policy_info(enum up_policy p);

#endif
