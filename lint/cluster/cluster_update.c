/* The condition of each update policy, one function per policy, deciding
 * offline what ParallelCluster 3.11 decides against a running cluster
 * (docs/updates.md, "The conditions", names each condition). */
#include "cluster_update.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ParallelCluster's defaults when MinCount, MaxCount or MaxvCpus is absent. */
enum { DEFAULT_MIN_COUNT = 0, DEFAULT_MAX_COUNT = 10, DEFAULT_MAX_VCPUS = 10 };
/* Comparing every pair of two lists above this many pairs is not done. */
enum { PAIRS_MAX = 1 << 20 };

typedef struct cupd_verdict (*judge_fn)(const struct cupd_context *, const struct cdiff_change *);

static struct cupd_verdict verdict(enum cupd_outcome o, enum cupd_why w)
{
	return (struct cupd_verdict){ o, w };
}

/* A change inside a queue (ParallelCluster: a path entry SlurmQueues[...]). */
static bool in_queue(const struct cdiff_change *ch)
{
	for (size_t i = 0; i < ch->n_scope; i++)
		if (!strcmp(ch->scope[i].list, "SlurmQueues"))
			return true;
	return false;
}

static bool is_added_item(const struct cdiff_change *ch)
{
	return ch->item && ch->op == CDIFF_ADDED;
}

/* A count, with ParallelCluster's default when absent; NAN when not a number. */
static double count_of(const yamldoc *d, yd_node n, double fallback)
{
	double v;
	if (cluster_value_absent(d, n))
		return fallback;
	return cluster_value_number(d, n, &v) ? v : NAN;
}

static struct cupd_verdict by_strategy(const struct cupd_context *ctx, enum cupd_why why)
{
	if (ctx->strategy == CUPD_DRAIN_NODES)
		return verdict(CUPD_DRAIN, why);
	if (ctx->strategy == CUPD_TERMINATE_NODES)
		return verdict(CUPD_TERMINATE, why);
	return verdict(CUPD_FLEET_STOP, why);
}

static struct cupd_verdict unsupported(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ctx, (void)ch;
	return verdict(CUPD_REFUSED, CUPD_BY_POLICY);
}

static struct cupd_verdict read_only(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ctx, (void)ch;
	return verdict(CUPD_REFUSED, CUPD_READ_ONLY);
}

static struct cupd_verdict supported(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ctx;
	return verdict(CUPD_LIVE, is_added_item(ch) ? CUPD_ITEM_ADDED : CUPD_BY_POLICY);
}

static struct cupd_verdict not_checked(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ctx, (void)ch;
	return verdict(CUPD_NOT_CHECKED, CUPD_BY_POLICY);
}

static struct cupd_verdict unconfirmed(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ctx, (void)ch;
	return verdict(CUPD_UNKNOWN, CUPD_BY_POLICY);
}

static struct cupd_verdict fleet_stop(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ctx, (void)ch;
	return verdict(CUPD_FLEET_STOP, CUPD_BY_POLICY);
}

/* Items may be added to a queue's list while the fleet runs. */
static struct cupd_verdict fleet_stop_on_remove(const struct cupd_context *ctx,
						const struct cdiff_change *ch)
{
	(void)ctx;
	if (is_added_item(ch) && (in_queue(ch) || !strcmp(ch->key, "SlurmQueues")))
		return verdict(CUPD_LIVE, CUPD_ITEM_ADDED);
	return verdict(CUPD_FLEET_STOP, CUPD_BY_POLICY);
}

static struct cupd_verdict queue_strategy(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	return in_queue(ch) ? by_strategy(ctx, CUPD_BY_POLICY) : verdict(CUPD_FLEET_STOP, CUPD_BY_POLICY);
}

/* MinCount may rise while the fleet runs if MaxCount, changed in the
 * same compute resource, rises at least as much. */
static bool min_covered(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	const yamldoc *od = ctx->old->doc, *nd = ctx->new->doc;
	for (size_t i = 0; i < ctx->all->len; i++) {
		const struct cdiff_change *o = &ctx->all->v[i];
		if (o->item || strcmp(o->key, "MaxCount") || strcmp(o->path, ch->path))
			continue;
		double max_up = count_of(nd, o->new_value, DEFAULT_MAX_COUNT) -
				count_of(od, o->old_value, DEFAULT_MAX_COUNT);
		double min_up = count_of(nd, ch->new_value, DEFAULT_MIN_COUNT) -
				count_of(od, ch->old_value, DEFAULT_MIN_COUNT);
		return max_up >= min_up; /* false when either is not a number */
	}
	return false;
}

static struct cupd_verdict resize(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	bool queues = in_queue(ch) || !strcmp(ch->key, "SlurmQueues");
	if (queues && is_added_item(ch))
		return verdict(CUPD_LIVE, CUPD_ITEM_ADDED);
	if (!ch->item && !strcmp(ch->key, "MaxCount") &&
	    count_of(ctx->new->doc, ch->new_value, DEFAULT_MAX_COUNT) >=
	    count_of(ctx->old->doc, ch->old_value, DEFAULT_MAX_COUNT))
		return verdict(CUPD_LIVE, CUPD_GROWS);
	if (!ch->item && !strcmp(ch->key, "MinCount") && min_covered(ctx, ch))
		return verdict(CUPD_LIVE, CUPD_GROWS);
	if (queues && ctx->strategy == CUPD_TERMINATE_NODES)
		return verdict(CUPD_TERMINATE, CUPD_SHRINKS);
	return verdict(CUPD_FLEET_STOP, CUPD_SHRINKS);
}

/* The placement group the condition looks at: the compute resource's
 * PlacementGroup unless it is empty (unlike the group nodes get, where
 * an empty one wins), else the queue's; managed when enabled without a
 * Name or Id of its own. */
static bool managed_pg(const yamldoc *d, yd_node queue, yd_node cr)
{
	yd_node pg = yd_get(d, yd_get(d, cr, "Networking"), "PlacementGroup");
	if (!cluster_value_truthy(d, pg))
		pg = yd_get(d, yd_get(d, queue, "Networking"), "PlacementGroup");
	return cluster_value_truthy(d, pg) && cluster_value_truthy(d, yd_get(d, pg, "Enabled")) &&
	       !cluster_value_truthy(d, yd_get(d, pg, "Name")) &&
	       !cluster_value_truthy(d, yd_get(d, pg, "Id"));
}

static struct cupd_verdict placement(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	const char *q = "SlurmQueues", *cr = "ComputeResources";
	if (managed_pg(ctx->old->doc, cdiff_scope_item(ch, q, 0), cdiff_scope_item(ch, cr, 0)) &&
	    !managed_pg(ctx->new->doc, cdiff_scope_item(ch, q, 1), cdiff_scope_item(ch, cr, 1)))
		return verdict(CUPD_FLEET_STOP, CUPD_PG_DELETED);
	return queue_strategy(ctx, ch);
}

/* Every old value is still in the new list: only additions. */
static bool only_additions(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	const yamldoc *od = ctx->old->doc, *nd = ctx->new->doc;
	if (yd_kind(od, ch->old_value) != YD_SEQUENCE || yd_kind(nd, ch->new_value) != YD_SEQUENCE)
		return false;
	size_t n = yd_len(od, ch->old_value), m = yd_len(nd, ch->new_value);
	if (m && n > PAIRS_MAX / m)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool found = false;
		for (size_t j = 0; j < m && !found; j++)
			found = cluster_value_eq(od, yd_item(od, ch->old_value, i), nd, yd_item(nd, ch->new_value, j));
		if (!found)
			return false;
	}
	return true;
}

static struct cupd_verdict managed_fsx(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	if (ctx->managed_fsx)
		return verdict(CUPD_REFUSED, CUPD_MANAGED_FSX);
	if (!in_queue(ch))
		return verdict(CUPD_FLEET_STOP, CUPD_BY_POLICY);
	if (only_additions(ctx, ch))
		return verdict(CUPD_LIVE, CUPD_ITEM_ADDED);
	return by_strategy(ctx, CUPD_BY_POLICY);
}

bool cluster_storage_external(const yamldoc *doc, yd_node storage)
{
	static const char *const ids[] = { "VolumeId", "FileSystemId", "FileCacheId" };
	const char *type = yd_str(doc, yd_get(doc, storage, "StorageType"), NULL);
	char key[80];
	if (!type || strlen(type) > 64)
		return false;
	snprintf(key, sizeof key, "%sSettings", type);
	yd_node settings = yd_get(doc, storage, key);
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
		if (yd_get_key(doc, settings, ids[i]))
			return true;
	return false;
}

const char *cluster_storage_deletion_policy(const yamldoc *doc, yd_node storage)
{
	static const char *const managed[] = { "Ebs", "Efs", "FsxLustre" };
	const char *type = yd_str(doc, yd_get(doc, storage, "StorageType"), NULL);
	if (!type || cluster_storage_external(doc, storage))
		return NULL;
	for (size_t i = 0; i < sizeof managed / sizeof managed[0]; i++) {
		if (strcmp(type, managed[i]) != 0)
			continue;
		char key[32];
		snprintf(key, sizeof key, "%sSettings", type);
		const char *set = yd_str(doc, yd_get(doc, yd_get(doc, storage, key), "DeletionPolicy"), NULL);
		return set ? set : "Delete";
	}
	return NULL;
}

/* Storage types that nodes can mount and unmount without being replaced. */
static bool live_type(const char *type)
{
	static const char *const live[] = { "Efs", "FsxLustre", "FsxOntap", "FsxOpenZfs", "FileCache" };
	for (size_t i = 0; type && i < sizeof live / sizeof live[0]; i++)
		if (!strcmp(type, live[i]))
			return true;
	return false;
}

static bool at_home(const yamldoc *d, yd_node storage)
{
	return yd_str_eq(d, yd_get(d, storage, "MountDir"), "/home") ||
	       yd_str_eq(d, yd_get(d, storage, "MountDir"), "home");
}

static struct cupd_verdict storage(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	bool added = ch->op == CDIFF_ADDED;
	const yamldoc *d = added ? ctx->new->doc : ctx->old->doc;
	/* a whole storage, or (MountDir) the one the change is in */
	yd_node item = ch->item ? (added ? ch->new_value : ch->old_value)
				: cdiff_scope_item(ch, "SharedStorage", added);
	if (ch->item && at_home(d, item))
		return verdict(CUPD_REFUSED, CUPD_HOME);
	if (ctx->awsbatch)
		return verdict(CUPD_REFUSED, CUPD_AWSBATCH);
	bool live = ch->item && cluster_storage_external(d, item) &&
		    live_type(yd_str(d, yd_get(d, item, "StorageType"), NULL));
	/* a changed MountDir passes only with the fleet stopped: with nodes
	 * running, 3.11's checker takes the new MountDir for the storage
	 * and fails */
	bool fleet = !live && (ctx->strategy == CUPD_COMPUTE_FLEET_STOP || !ch->item);
	bool login = !live && ctx->login_running;
	if (fleet || login)
		return verdict(fleet && login ? CUPD_FLEET_LOGIN_STOP : fleet ? CUPD_FLEET_STOP
			       : CUPD_LOGIN_STOP, CUPD_BY_POLICY);
	return live ? verdict(CUPD_LIVE, CUPD_STORAGE_LIVE) : by_strategy(ctx, CUPD_BY_POLICY);
}

static struct cupd_verdict login_stop(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ch;
	return verdict(ctx->login_running ? CUPD_LOGIN_STOP : CUPD_LIVE, CUPD_BY_POLICY);
}

/* A pool runs when the old config gives it a Count above zero. */
static bool pool_running(const yamldoc *d, yd_node pool)
{
	double n = count_of(d, yd_get(d, pool, "Count"), 1);
	return pool && !(n <= 0);
}

static struct cupd_verdict pool_stop(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	bool running = pool_running(ctx->old->doc, cdiff_scope_item(ch, "Pools", 0));
	return verdict(running ? CUPD_LOGIN_STOP : CUPD_LIVE, CUPD_BY_POLICY);
}

static struct cupd_verdict pools(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	if (is_added_item(ch))
		return verdict(CUPD_LIVE, CUPD_ITEM_ADDED);
	return login_stop(ctx, ch);
}

static struct cupd_verdict fleet_and_login(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	(void)ch;
	return verdict(ctx->login_running ? CUPD_FLEET_LOGIN_STOP : CUPD_FLEET_STOP, CUPD_BY_POLICY);
}

static struct cupd_verdict max_vcpus(const struct cupd_context *ctx, const struct cdiff_change *ch)
{
	if (count_of(ctx->new->doc, ch->new_value, DEFAULT_MAX_VCPUS) >=
	    count_of(ctx->old->doc, ch->old_value, DEFAULT_MAX_VCPUS))
		return verdict(CUPD_LIVE, CUPD_GROWS);
	return verdict(CUPD_FLEET_STOP, CUPD_VCPUS_DOWN);
}

static const judge_fn judges[UP__COUNT] = {
	[UP_UNSUPPORTED] = unsupported,
	[UP_SUPPORTED] = supported,
	[UP_IGNORED] = not_checked,
	[UP_COMPUTE_FLEET_STOP] = fleet_stop,
	[UP_COMPUTE_FLEET_STOP_ON_REMOVE] = fleet_stop_on_remove,
	[UP_QUEUE_UPDATE_STRATEGY] = queue_strategy,
	[UP_RESIZE_UPDATE_STRATEGY_ON_REMOVE] = resize,
	[UP_MANAGED_PLACEMENT_GROUP] = placement,
	[UP_MANAGED_FSX] = managed_fsx,
	[UP_SHARED_STORAGE] = storage,
	[UP_LOGIN_NODES_STOP] = login_stop,
	[UP_LOGIN_NODES_POOL_STOP] = pool_stop,
	[UP_LOGIN_NODES_POOLS] = pools,
	[UP_COMPUTE_AND_LOGIN_NODES_STOP] = fleet_and_login,
	[UP_AWSBATCH_CE_MAX_RESIZE] = max_vcpus,
	[UP_READ_ONLY_RESOURCE_BUCKET] = read_only,
	[UP_NOT_COMPARED] = not_checked,
	[UP_UNCONFIRMED] = unconfirmed,
};

struct cupd_verdict cluster_update_judge(const struct cupd_context *ctx,
					 const struct cdiff_change *ch)
{
	if (!ch->entry)
		return verdict(CUPD_UNKNOWN, CUPD_BY_POLICY);
	return judges[ch->entry->policy](ctx, ch);
}

/* A managed FSx for Lustre (no FileSystemId) that both versions have,
 * by Name, blocks any change of queue subnets. */
static bool managed_lustre(const yamldoc *d, yd_node s)
{
	return yd_str_eq(d, yd_get(d, s, "StorageType"), "FsxLustre") &&
	       !yd_get_key(d, yd_get(d, s, "FsxLustreSettings"), "FileSystemId");
}

static const char *kept_managed_fsx(const struct cluster *old, const struct cluster *new)
{
	yd_node os = yd_get(old->doc, old->root, "SharedStorage");
	yd_node ns = yd_get(new->doc, new->root, "SharedStorage");
	size_t n = yd_kind(old->doc, os) == YD_SEQUENCE ? yd_len(old->doc, os) : 0;
	size_t m = yd_kind(new->doc, ns) == YD_SEQUENCE ? yd_len(new->doc, ns) : 0;
	if (m && n > PAIRS_MAX / m)
		m = PAIRS_MAX / n;
	for (size_t i = 0; i < n; i++) {
		yd_node a = yd_item(old->doc, os, i);
		if (!managed_lustre(old->doc, a))
			continue;
		for (size_t j = 0; j < m; j++) {
			yd_node b = yd_item(new->doc, ns, j);
			if (managed_lustre(new->doc, b) &&
			    cluster_value_eq(old->doc, yd_get(old->doc, a, "Name"), new->doc, yd_get(new->doc, b, "Name")))
				return yd_str(old->doc, yd_get(old->doc, a, "Name"), NULL);
		}
	}
	return NULL;
}

void cupd_context_init(struct cupd_context *ctx, const struct cluster *old,
		       const struct cluster *new, const struct cdiff *all)
{
	const yamldoc *od = old->doc, *nd = new->doc;
	*ctx = (struct cupd_context){ .old = old, .new = new, .all = all };
	yd_node s = yd_get(nd, yd_get(nd, yd_get(nd, new->root, "Scheduling"), "SlurmSettings"),
			   "QueueUpdateStrategy");
	ctx->strategy_node = s;
	ctx->strategy = yd_str_eq(nd, s, "DRAIN") ? CUPD_DRAIN_NODES
			: yd_str_eq(nd, s, "TERMINATE") ? CUPD_TERMINATE_NODES : CUPD_COMPUTE_FLEET_STOP;
	ctx->awsbatch = yd_str_eq(od, yd_get(od, yd_get(od, old->root, "Scheduling"), "Scheduler"),
				  "awsbatch");
	yd_node pools = yd_get(od, yd_get(od, old->root, "LoginNodes"), "Pools");
	for (size_t i = 0; yd_kind(od, pools) == YD_SEQUENCE && i < yd_len(od, pools); i++)
		ctx->login_running |= pool_running(od, yd_item(od, pools, i));
	ctx->managed_fsx = kept_managed_fsx(old, new);
}
