#include "update_policy.h"

#include <stdbool.h>
#include <string.h>

/* Filled by code on first use, not initialised as data: a table of
 * pointers is relocated at every start, and only a change review reads
 * this one. */
enum {
#define UP(path, kind, key, policy, from, until) +1
	N_ROWS = 0
#include "update_policy.def"
#undef UP
};
static struct up_entry entries[N_ROWS];

static const struct up_entry *table(void)
{
	static bool filled;
	size_t i = 0;
	if (filled)
		return entries;
#define UP(path, kind, key, policy, from, until) \
	entries[i++] = (struct up_entry){ path, UP_##kind, key, UP_##policy, from, until };
#include "update_policy.def"
#undef UP
	filled = true;
	return entries;
}

enum { OLDEST = 311, NEWEST = 316 };

/* What ParallelCluster 3.11 checks for each policy, in words
 * (docs/updates.md, "The conditions", says what each outcome asks of the
 * user). */
static const struct up_policy_info policies[UP__COUNT] = {
	[UP_UNSUPPORTED] = { "UNSUPPORTED",
		"never: the change needs a new cluster" },
	[UP_SUPPORTED] = { "SUPPORTED",
		"at any time" },
	[UP_IGNORED] = { "IGNORED",
		"not checked: a section is compared by the keys under it" },
	[UP_COMPUTE_FLEET_STOP] = { "COMPUTE_FLEET_STOP",
		"only while the compute fleet is stopped" },
	[UP_COMPUTE_FLEET_STOP_ON_REMOVE] = { "COMPUTE_FLEET_STOP_ON_REMOVE",
		"an item can be added at any time; removing one needs the compute fleet stopped" },
	[UP_QUEUE_UPDATE_STRATEGY] = { "QUEUE_UPDATE_STRATEGY",
		"under SlurmQueues, while the fleet runs, when QueueUpdateStrategy is DRAIN or "
		"TERMINATE (the queue's nodes are replaced); otherwise only while the compute "
		"fleet is stopped" },
	[UP_RESIZE_UPDATE_STRATEGY_ON_REMOVE] = { "RESIZE_UPDATE_STRATEGY_ON_REMOVE",
		"while the fleet runs: adding a queue or compute resource, raising MaxCount, "
		"raising MinCount by no more than MaxCount rises, or any change with "
		"QueueUpdateStrategy TERMINATE (the nodes it removes are terminated); otherwise "
		"only while the compute fleet is stopped" },
	[UP_MANAGED_PLACEMENT_GROUP] = { "MANAGED_PLACEMENT_GROUP",
		"removing a managed placement group (Enabled true without Name or Id) from a "
		"compute resource needs the compute fleet stopped; any other change is judged "
		"as QUEUE_UPDATE_STRATEGY" },
	[UP_MANAGED_FSX] = { "MANAGED_FSX",
		"never while a managed FSx for Lustre file system (one without FileSystemId) "
		"stays in the config; otherwise, under SlurmQueues, subnets can be added while "
		"the fleet runs and other changes need QueueUpdateStrategy DRAIN or TERMINATE, "
		"else the compute fleet stopped" },
	[UP_SHARED_STORAGE] = { "SHARED_STORAGE_UPDATE_POLICY",
		"never for a storage at /home or with awsbatch; mounting or unmounting an "
		"existing EFS, FSx or File Cache (with its FileSystemId, VolumeId or "
		"FileCacheId) is applied live; any other change needs the compute fleet stopped "
		"or QueueUpdateStrategy DRAIN or TERMINATE, and the login nodes stopped" },
	[UP_LOGIN_NODES_STOP] = { "LOGIN_NODES_STOP",
		"only while every login node of the cluster is stopped" },
	[UP_LOGIN_NODES_POOL_STOP] = { "LOGIN_NODES_POOL_STOP",
		"only while the login nodes of the pool are stopped" },
	[UP_LOGIN_NODES_POOLS] = { "LOGIN_NODES_POOLS_UPDATE_POLICY",
		"a pool can be added at any time; removing one needs every login node stopped" },
	[UP_COMPUTE_AND_LOGIN_NODES_STOP] = { "COMPUTE_AND_LOGIN_NODES_STOP",
		"only while the compute fleet and every login node are stopped" },
	[UP_AWSBATCH_CE_MAX_RESIZE] = { "AWSBATCH_CE_MAX_RESIZE",
		"MaxvCpus cannot drop below the vCPUs the compute environment runs" },
	[UP_READ_ONLY_RESOURCE_BUCKET] = { "READ_ONLY_RESOURCE_BUCKET",
		"never: the bucket is read only after creation (a forced update keeps the old one)" },
	[UP_NOT_COMPARED] = { "NOT_COMPARED",
		"not compared: ParallelCluster reads Script and Args of a custom action, so a "
		"change inside Sequence passes unchecked" },
	[UP_UNCONFIRMED] = { "UNCONFIRMED",
		"not known: the release added the key and no source read states its policy; "
		"`pcluster update-cluster --dryrun true` decides" },
};

int update_policy_newest(void)
{
	return NEWEST;
}

int update_policy_version(struct version pc)
{
	return version_is_set(pc) ? pc.major * 100 + pc.minor : NEWEST;
}

static int path_cmp(const char *row, const char *path, size_t len)
{
	int c = strncmp(row, path, len);
	return c ? c : row[len] != '\0';
}

const struct up_entry *update_policy_find(const char *path, size_t len, int version)
{
	const struct up_entry *rows = table();
	size_t lo = 0, hi = N_ROWS;
	if (!version)
		version = NEWEST;
	while (lo < hi) { /* the first row with the path */
		size_t mid = lo + (hi - lo) / 2;
		if (path_cmp(rows[mid].path, path, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	const struct up_entry *first = NULL;
	for (size_t i = lo; i < N_ROWS && !path_cmp(rows[i].path, path, len); i++) {
		const struct up_entry *e = &rows[i];
		if (!first)
			first = e;
		if (version >= e->from && (!e->until || version < e->until))
			return e;
	}
	/* a version before the table's knowledge gets 3.11's row; a key a
	 * later release added is not one of its keys */
	return first && version < OLDEST && first->from == OLDEST ? first : NULL;
}

size_t update_policy_count(void)
{
	return N_ROWS;
}

const struct up_entry *update_policy_at(size_t i)
{
	return i < N_ROWS ? &table()[i] : NULL;
}

const struct up_policy_info *update_policy_info(enum up_policy p)
{
	return (unsigned)p < UP__COUNT ? &policies[p] : NULL;
}
