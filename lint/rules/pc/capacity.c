/* Node counts, queue limits and capacity types. */
#include <stdio.h>
#include <string.h>

#include "pc.h"

/* ParallelCluster 3.6+ limits (MaxCountValidator). */
enum { MAX_QUEUES = 50, MAX_CRS_PER_QUEUE = 50, MAX_CRS_PER_CLUSTER = 50 };

static void check_counts(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	long long min = 0, max = 10;
	yd_node min_n = yd_get(d, cr, "MinCount"), max_n = yd_get(d, cr, "MaxCount");
	bool has_min = yd_int(d, min_n, &min), has_max = yd_int(d, max_n, &max);
	if (has_min && min > max)
		pc_report(pc, R_PC2201, min_n, "MinCount %lld is above MaxCount %lld%s",
			  min, max, has_max ? "" : " (the default)");
	if (strcmp(cluster_capacity_type(pc->cl, queue), "CAPACITY_BLOCK") != 0)
		return;
	if (min != max || min <= 0) {
		struct diag *g = pc_report(pc, R_PC2203, has_min ? min_n : cr,
			"CAPACITY_BLOCK needs MinCount equal to MaxCount and above zero (MinCount %lld, MaxCount %lld)",
			min, max);
		diag_set_help(g, "set both to the number of instances in the capacity block");
	}
	if (!yd_get(d, yd_get(d, cr, "CapacityReservationTarget"), "CapacityReservationId") &&
	    !yd_get(d, yd_get(d, queue, "CapacityReservationTarget"), "CapacityReservationId"))
		pc_report(pc, R_PC2204, cr,
			  "CAPACITY_BLOCK needs CapacityReservationTarget.CapacityReservationId on the compute resource or the queue");
}

static void check_spot_price(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	yd_node price = yd_get(d, cr, "SpotPrice");
	double v;
	if (!price)
		return;
	if (strcmp(cluster_capacity_type(pc->cl, queue), "SPOT") != 0)
		pc_report(pc, R_PC2205, yd_get_key(d, cr, "SpotPrice"),
			  "SpotPrice is set but the queue's CapacityType is %s, not SPOT",
			  cluster_capacity_type(pc->cl, queue));
	else if (yd_number(d, price, &v) && v <= 0)
		pc_report(pc, R_PC2205, price,
			  "SpotPrice must be above zero; leave it out to pay up to the on-demand price");
}

static void check_priorities(const struct pc *pc, yd_node queue, yd_node crs)
{
	const yamldoc *d = pc->cl->doc;
	long long max_static = 0, min_dynamic = -1;
	yd_node at = 0;
	for (size_t j = 0; j < yd_len(d, crs); j++) {
		yd_node cr = yd_item(d, crs, j);
		long long s = 1, dyn = 1000;
		yd_int(d, yd_get(d, cr, "StaticNodePriority"), &s);
		yd_int(d, yd_get(d, cr, "DynamicNodePriority"), &dyn);
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
	(void)queue;
}

static void check_allocation(const struct pc *pc, yd_node queue, yd_node crs)
{
	const yamldoc *d = pc->cl->doc;
	yd_node strategy = yd_get(d, queue, "AllocationStrategy");
	const char *s = yd_str(d, strategy, NULL);
	const char *type = cluster_capacity_type(pc->cl, queue);
	bool flexible = false;
	for (size_t j = 0; j < yd_len(d, crs); j++)
		flexible |= yd_get(d, yd_item(d, crs, j), "Instances") != 0;
	if (!s || !flexible)
		return;
	if (strcmp(type, "CAPACITY_BLOCK") == 0)
		pc_report(pc, R_PC2207, strategy,
			  "AllocationStrategy cannot be set on a CAPACITY_BLOCK queue");
	else if (strcmp(type, "ONDEMAND") == 0 && strcmp(s, "lowest-price") != 0)
		pc_report(pc, R_PC2207, strategy,
			  "an ONDEMAND queue allows only AllocationStrategy lowest-price, not %s", s);
}

void pc_check_capacity(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	size_t n_queues = yd_len(d, queues), total = 0;
	if (n_queues > MAX_QUEUES)
		pc_report(pc, R_PC2202, queues, "%zu queues; ParallelCluster allows at most %d",
			  n_queues, MAX_QUEUES);
	for (size_t i = 0; i < n_queues; i++) {
		yd_node q = yd_item(d, queues, i);
		yd_node crs = cluster_compute_resources(pc->cl, q);
		size_t n = yd_len(d, crs);
		total += n;
		if (n > MAX_CRS_PER_QUEUE)
			pc_report(pc, R_PC2202, crs,
				  "%zu compute resources in one queue; ParallelCluster allows at most %d",
				  n, MAX_CRS_PER_QUEUE);
		bool multi_subnet = cluster_subnet_count(pc->cl, q) > 1;
		for (size_t j = 0; j < n; j++) {
			yd_node cr = yd_item(d, crs, j);
			check_counts(pc, q, cr);
			check_spot_price(pc, q, cr);
			yd_node single = yd_get(d, cr, "InstanceType");
			if (multi_subnet && single)
				pc_report(pc, R_PC2208, single,
					  "a queue with more than one subnet needs Instances, not InstanceType");
		}
		check_priorities(pc, q, crs);
		check_allocation(pc, q, crs);
	}
	if (total > MAX_CRS_PER_CLUSTER && n_queues <= MAX_QUEUES)
		pc_report(pc, R_PC2202, queues,
			  "%zu compute resources in the cluster; ParallelCluster allows at most %d",
			  total, MAX_CRS_PER_CLUSTER);
}
