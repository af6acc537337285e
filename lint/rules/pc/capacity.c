/* PC220x: node counts, queue limits and capacity types, as
 * ParallelCluster's validators check them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "xalloc.h"

/* ParallelCluster 3.6+ limits (MaxCountValidator). */
enum { MAX_QUEUES = 50, MAX_CRS_PER_QUEUE = 50, MAX_CRS_PER_CLUSTER = 50 };

static bool is_capacity_block(const struct pc *pc, yd_node queue)
{
	const char *t = cluster_capacity_type(pc->cl, queue);
	return t && strcmp(t, "CAPACITY_BLOCK") == 0;
}

/* PC2201 min-count-above-max */
static void min_count_above_max(const struct pc *pc, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	long long min = 0, max = 10;
	yd_node min_n = yd_get(d, cr, "MinCount"), max_n = yd_get(d, cr, "MaxCount");
	bool has_min = cluster_int(pc->cl, min_n, &min), has_max = cluster_int(pc->cl, max_n, &max);
	if (cluster_unknown(pc->cl, max_n))
		return;
	if (has_min && min > max)
		pc_report(pc, R_PC2201, min_n, "MinCount %lld is above MaxCount %lld%s",
			  min, max, has_max ? "" : " (the default)");
}

/* PC2203 capacity-block-counts */
static void capacity_block_counts(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	long long min = 0, max = 10;
	yd_node min_n = yd_get(d, cr, "MinCount"), max_n = yd_get(d, cr, "MaxCount");
	bool has_min = cluster_int(pc->cl, min_n, &min);
	cluster_int(pc->cl, max_n, &max);
	if (!is_capacity_block(pc, queue) || (min == max && min > 0) ||
	    cluster_unknown(pc->cl, min_n) || cluster_unknown(pc->cl, max_n))
		return;
	struct diag *g = pc_report(pc, R_PC2203, has_min ? min_n : cr,
		"CAPACITY_BLOCK needs MinCount equal to MaxCount and above zero (MinCount %lld, MaxCount %lld)",
		min, max);
	diag_set_help(g, "set both to the number of instances in the capacity block");
}

/* PC2204 capacity-block-without-reservation */
static void capacity_block_without_reservation(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	if (is_capacity_block(pc, queue) &&
	    !yd_get(d, yd_get(d, cr, "CapacityReservationTarget"), "CapacityReservationId") &&
	    !yd_get(d, yd_get(d, queue, "CapacityReservationTarget"), "CapacityReservationId"))
		pc_report(pc, R_PC2204, cr,
			  "CAPACITY_BLOCK needs CapacityReservationTarget.CapacityReservationId on the compute resource or the queue");
}

/* PC2205 spot-price-misuse */
static void spot_price_misuse(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	yd_node price = yd_get(d, cr, "SpotPrice");
	double v;
	const char *type = cluster_capacity_type(pc->cl, queue);
	if (!price || !type)
		return;
	if (strcmp(type, "SPOT") != 0)
		pc_report(pc, R_PC2205, yd_get_key(d, cr, "SpotPrice"),
			  "SpotPrice is set but the queue's CapacityType is %s, not SPOT", type);
	else if (yd_number(d, price, &v) && v <= 0)
		pc_report(pc, R_PC2205, price,
			  "SpotPrice must be above zero; leave it out to pay up to the on-demand price");
}

/* PC2208 multi-subnet-instance-type */
static void multi_subnet_instance_type(const struct pc *pc, yd_node queue, yd_node cr)
{
	yd_node single = yd_get(pc->cl->doc, cr, "InstanceType");
	if (single && cluster_subnet_count(pc->cl, queue) > 1)
		pc_report(pc, R_PC2208, single,
			  "a queue with more than one subnet needs Instances, not InstanceType");
}

/* PC2209 node-priority-order */
static void node_priority_order(const struct pc *pc, yd_node crs)
{
	const yamldoc *d = pc->cl->doc;
	long long max_static = 0, min_dynamic = -1;
	yd_node at = 0;
	for (size_t j = 0; j < yd_len(d, crs); j++) {
		yd_node cr = yd_item(d, crs, j);
		long long s = 1, dyn = 1000;
		yd_node sn = yd_get(d, cr, "StaticNodePriority"), dn = yd_get(d, cr, "DynamicNodePriority");
		if (cluster_unknown(pc->cl, sn) || cluster_unknown(pc->cl, dn))
			return;
		cluster_int(pc->cl, sn, &s);
		cluster_int(pc->cl, dn, &dyn);
		if (s > max_static) {
			max_static = s;
			at = yd_get(d, cr, "StaticNodePriority");
		}
		if (min_dynamic < 0 || dyn < min_dynamic)
			min_dynamic = dyn;
	}
	if (at && min_dynamic >= 0 && max_static >= min_dynamic)
		pc_report(pc, R_PC2209, at,
			  "static node priority %lld is not below dynamic node priority %lld; Slurm may start dynamic nodes while static ones idle",
			  max_static, min_dynamic);
}

/* PC2207 allocation-strategy-mismatch */
static void allocation_strategy_mismatch(const struct pc *pc, yd_node queue, yd_node crs)
{
	const yamldoc *d = pc->cl->doc;
	yd_node strategy = yd_get(d, queue, "AllocationStrategy");
	const char *s = yd_str(d, strategy, NULL);
	const char *type = cluster_capacity_type(pc->cl, queue);
	bool flexible = false;
	for (size_t j = 0; j < yd_len(d, crs); j++)
		flexible |= yd_get(d, yd_item(d, crs, j), "Instances") != 0;
	if (!s || !flexible || !type || cluster_unknown(pc->cl, strategy))
		return;
	if (strcmp(type, "CAPACITY_BLOCK") == 0)
		pc_report(pc, R_PC2207, strategy,
			  "AllocationStrategy cannot be set on a CAPACITY_BLOCK queue");
	else if (strcmp(type, "ONDEMAND") == 0 && strcmp(s, "lowest-price") != 0 &&
		 strcmp(s, "prioritized") != 0)
		/* prioritized arrived in 3.14.0; PC0007 says so for an older target */
		pc_report(pc, R_PC2207, strategy,
			  "an ONDEMAND queue allows only AllocationStrategy lowest-price or prioritized, not %s", s);
}

/* PC2202 too-many-queues */
static void too_many_queues(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	size_t n_queues = yd_len(d, queues), total = 0;
	if (n_queues > MAX_QUEUES)
		pc_report(pc, R_PC2202, queues, "%zu queues; ParallelCluster allows at most %d",
			  n_queues, MAX_QUEUES);
	for (size_t i = 0; i < n_queues; i++) {
		yd_node crs = cluster_compute_resources(pc->cl, yd_item(d, queues, i));
		size_t n = yd_len(d, crs);
		total += n;
		if (n > MAX_CRS_PER_QUEUE)
			pc_report(pc, R_PC2202, crs,
				  "%zu compute resources in one queue; ParallelCluster allows at most %d",
				  n, MAX_CRS_PER_QUEUE);
	}
	if (total > MAX_CRS_PER_CLUSTER && n_queues <= MAX_QUEUES)
		pc_report(pc, R_PC2202, queues,
			  "%zu compute resources in the cluster; ParallelCluster allows at most %d",
			  total, MAX_CRS_PER_CLUSTER);
}

struct named {
	const char *s;
	size_t len;
	size_t index; /* order in the list, so the later one is reported */
	yd_node node;
};

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	int c = memcmp(a->s, b->s, a->len);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static bool same_text(const struct named *a, const struct named *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* Reports each value that repeats an earlier one; sorting keeps a
 * 20,000-queue file linear-logarithmic. */
static void report_repeats(const struct pc *pc, struct named *v, size_t n,
			   const char *what, const char *verb)
{
	if (n > 1)
		qsort(v, n, sizeof *v, named_cmp);
	size_t first = 0;
	for (size_t i = 1; i < n; i++) {
		if (!same_text(&v[i], &v[first])) {
			first = i;
			continue;
		}
		pc_report(pc, R_PC2206, v[i].node, "%s '%s' is already %s at line %u",
			  what, v[i].s, verb, yd_span(pc->cl->doc, v[first].node).line);
	}
}

/* Reports every item of list whose `key` (found by get) repeats an
 * earlier item's. */
static void unique_by(const struct pc *pc, yd_node list,
		      yd_node (*get)(const struct pc *, yd_node, const char *),
		      const char *key, const char *what, const char *verb)
{
	const yamldoc *d = pc->cl->doc;
	if (yd_kind(d, list) != YD_SEQUENCE)
		return;
	size_t n = yd_len(d, list), m = 0;
	struct named *v = xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < n; i++) {
		yd_node node = get(pc, yd_item(d, list, i), key);
		size_t len;
		const char *s = yd_str(d, node, &len);
		if (s)
			v[m++] = (struct named){ s, len, i, node };
	}
	report_repeats(pc, v, m, what, verb);
	free(v);
}

static yd_node get_key(const struct pc *pc, yd_node item, const char *key)
{
	return yd_get(pc->cl->doc, item, key);
}

/* Existing volumes, file systems and caches can be mounted once. */
static const struct {
	const char *settings, *key;
} storage_ids[] = {
	{ "EbsSettings", "VolumeId" }, { "EfsSettings", "FileSystemId" },
	{ "FsxLustreSettings", "FileSystemId" }, { "FsxOntapSettings", "VolumeId" },
	{ "FsxOpenZfsSettings", "VolumeId" }, { "FileCacheSettings", "FileCacheId" },
};

static yd_node storage_id(const struct pc *pc, yd_node storage)
{
	for (size_t i = 0; i < sizeof storage_ids / sizeof storage_ids[0]; i++) {
		yd_node id = yd_get(pc->cl->doc, yd_get(pc->cl->doc, storage, storage_ids[i].settings),
				    storage_ids[i].key);
		if (id)
			return id;
	}
	return 0;
}

static yd_node get_storage_id(const struct pc *pc, yd_node storage, const char *unused)
{
	(void)unused;
	return storage_id(pc, storage);
}

/* PC2206 duplicate-name */
static void duplicate_name(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	unique_by(pc, queues, get_key, "Name", "queue name", "used");
	for (size_t i = 0; i < yd_len(d, queues); i++)
		unique_by(pc, cluster_compute_resources(pc->cl, yd_item(d, queues, i)), get_key,
			  "Name", "compute resource name", "used");
	yd_node storages = yd_get(d, pc->cl->root, "SharedStorage");
	unique_by(pc, storages, get_key, "Name", "storage name", "used");
	unique_by(pc, storages, get_storage_id, NULL, "storage id", "mounted");
	unique_by(pc, yd_get(d, yd_get(d, pc->cl->root, "LoginNodes"), "Pools"), get_key,
		  "Name", "login pool name", "used");
}

void pc_check_capacity(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	too_many_queues(pc);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		yd_node crs = cluster_compute_resources(pc->cl, q);
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node cr = yd_item(d, crs, j);
			min_count_above_max(pc, cr);
			capacity_block_counts(pc, q, cr);
			capacity_block_without_reservation(pc, q, cr);
			spot_price_misuse(pc, q, cr);
			multi_subnet_instance_type(pc, q, cr);
		}
		node_priority_order(pc, crs);
		allocation_strategy_mismatch(pc, q, crs);
	}
	duplicate_name(pc);
}
