/* Placement groups, with the severities of ParallelCluster's own
 * validators: EFA traffic between instances that are not in one cluster
 * placement group loses most of its bandwidth, and multi-subnet queues
 * cannot have a group at all. */
#include <string.h>

#include "pc.h"

static bool targets_reservation(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	return yd_get(d, yd_get(d, cr, "CapacityReservationTarget"), "CapacityReservationId") ||
	       yd_get(d, yd_get(d, queue, "CapacityReservationTarget"), "CapacityReservationId");
}

static void check_naming(const struct pc *pc, yd_node pg)
{
	const yamldoc *d = pc->cl->doc;
	yd_node name = yd_get(d, pg, "Name"), id = yd_get(d, pg, "Id");
	bool enabled = true;
	bool has_enabled = yd_bool(d, yd_get(d, pg, "Enabled"), &enabled);
	if (name && id)
		pc_report(pc, R_PC2106, yd_get_key(d, pg, "Id"),
			  "PlacementGroup has both Name and Id; use Name alone");
	else if ((name || id) && has_enabled && !enabled)
		pc_report(pc, R_PC2106, yd_get(d, pg, "Enabled"),
			  "PlacementGroup names a group but Enabled is false");
}

static void check_cr(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	struct cluster_placement pg;
	cluster_placement_of(pc->cl, queue, cr, &pg);
	yd_node efa = yd_get(d, cr, "Efa");
	bool efa_on = cluster_flag(pc->cl, efa, "Enabled");
	bool multi_subnet = cluster_subnet_count(pc->cl, queue) > 1;
	bool capacity_block = strcmp(cluster_capacity_type(pc->cl, queue), "CAPACITY_BLOCK") == 0;
	yd_node where = yd_get(d, efa, "Enabled");

	if (efa_on && multi_subnet)
		pc_report(pc, R_PC2103, where,
			  "EFA is enabled on a queue with %zu subnets; EFA needs every instance in one subnet",
			  cluster_subnet_count(pc->cl, queue));
	if (pg.active && multi_subnet)
		pc_report(pc, R_PC2104, pg.map,
			  "a placement group on a queue with more than one subnet; a cluster placement group lives in one Availability Zone");
	if (efa_on && !multi_subnet && !capacity_block) {
		if (!pg.active && !pg.enabled_false) {
			struct diag *g = pc_report(pc, R_PC2101, where,
				"EFA is enabled but no placement group is set for this compute resource");
			diag_set_help(g, "add 'Networking: {PlacementGroup: {Enabled: true}}' to the queue");
		} else if (pg.enabled_false && !pg.name && !pg.id) {
			pc_report(pc, R_PC2102, pg.enabled,
				  "EFA is enabled but the placement group is switched off; inter-node bandwidth and latency suffer");
		}
	}
	if (pg.enabled_true && !pg.name && !pg.id && targets_reservation(pc, queue, cr) &&
	    !capacity_block) {
		struct diag *g = pc_report(pc, R_PC2105, pg.enabled,
			"a managed placement group with a capacity reservation; the reserved instances are in the reservation's own group");
		diag_set_help(g, "name the reservation's placement group with PlacementGroup.Name");
	}
	if (pg.active && capacity_block)
		pc_report(pc, R_PC2107, pg.map,
			  "a placement group on a CAPACITY_BLOCK queue; the block's reserved instances may not fit a new placement group");
}

void pc_check_placement(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		yd_node qpg = yd_get(d, yd_get(d, q, "Networking"), "PlacementGroup");
		if (yd_kind(d, qpg) == YD_MAPPING)
			check_naming(pc, qpg);
		yd_node crs = cluster_compute_resources(pc->cl, q);
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node cr = yd_item(d, crs, j);
			yd_node cpg = yd_get(d, yd_get(d, cr, "Networking"), "PlacementGroup");
			if (yd_kind(d, cpg) == YD_MAPPING)
				check_naming(pc, cpg);
			check_cr(pc, q, cr);
		}
	}
}
