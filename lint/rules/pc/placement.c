/* PC210x: placement groups, with the severities of ParallelCluster's own
 * validators: EFA traffic between instances that are not in one cluster
 * placement group loses most of its bandwidth, and multi-subnet queues
 * cannot have a group at all. */
#include <string.h>

#include "pc.h"
#include "text.h"

static bool targets_reservation(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	return yd_get(d, yd_get(d, cr, "CapacityReservationTarget"), "CapacityReservationId") ||
	       yd_get(d, yd_get(d, queue, "CapacityReservationTarget"), "CapacityReservationId");
}

/* PC2106 placement-group-naming */
static void placement_group_naming(const struct pc *pc, yd_node pg)
{
	const yamldoc *d = pc->cl->doc;
	yd_node name = yd_get(d, pg, "Name"), id = yd_get(d, pg, "Id");
	bool enabled = true;
	bool has_enabled = cluster_bool(pc->cl, yd_get(d, pg, "Enabled"), &enabled);
	if (name && id)
		pc_report(pc, R_PC2106, yd_get_key(d, pg, "Id"),
			  "PlacementGroup has both Name and Id; use Name alone");
	else if ((name || id) && has_enabled && !enabled)
		pc_report(pc, R_PC2106, yd_get(d, pg, "Enabled"),
			  "PlacementGroup names a group but Enabled is false");
}

/* What the rules of one compute resource look at, worked out once. */
struct cr_facts {
	yd_node queue, cr;
	struct cluster_placement pg;
	bool efa_on, multi_subnet, capacity_block;
	yd_node efa_enabled; /* where EFA findings point */
};

/* PC2103 multi-subnet-efa */
static void multi_subnet_efa(const struct pc *pc, const struct cr_facts *f)
{
	if (f->efa_on && f->multi_subnet)
		pc_report(pc, R_PC2103, f->efa_enabled,
			  "EFA is enabled on a queue with %zu subnets; EFA needs every instance in one subnet",
			  cluster_subnet_count(pc->cl, f->queue));
}

/* PC2104 multi-subnet-placement-group */
static void multi_subnet_placement_group(const struct pc *pc, const struct cr_facts *f)
{
	if (f->pg.active && f->multi_subnet)
		pc_report(pc, R_PC2104, f->pg.map,
			  "a placement group on a queue with more than one subnet; a cluster placement group lives in one Availability Zone");
}

static bool efa_in_one_subnet(const struct cr_facts *f)
{
	return f->efa_on && !f->multi_subnet && !f->capacity_block;
}

/* A key of Networking that is a misspelt PlacementGroup (its own finding
 * and fix): adding another would make two once both fixes are in. */
static bool near_placement_group(const yamldoc *d, yd_node net)
{
	for (size_t i = 0; yd_kind(d, net) == YD_MAPPING && i < yd_len(d, net); i++) {
		size_t len;
		const char *k = yd_str(d, yd_key(d, net, i), &len);
		if (k && text_edit_distance(k, len, "PlacementGroup", 14, 3) <= 3)
			return true;
	}
	return false;
}

/* PC2101 efa-without-placement-group */
static void efa_without_placement_group(const struct pc *pc, const struct cr_facts *f)
{
	if (efa_in_one_subnet(f) && !f->pg.active && !f->pg.enabled_false) {
		struct diag *g = pc_report(pc, R_PC2101, f->efa_enabled,
			"EFA is enabled but no placement group is set for this compute resource");
		diag_set_help(g, "add 'Networking: {PlacementGroup: {Enabled: true}}' to the queue");
		/* unsafe: the nodes are then placed together, which a full
		 * placement group can refuse (insufficient capacity) */
		const yamldoc *d = pc->cl->doc;
		yd_node net = yd_get(d, f->queue, "Networking");
		if (net && !near_placement_group(d, net))
			pc_fix_add_keys(g, d, net, "PlacementGroup:\n  Enabled: true");
		else if (!net)
			pc_fix_add_keys(g, d, f->queue, "Networking:\n  PlacementGroup:\n    Enabled: true");
	}
}

/* PC2102 placement-group-disabled */
static void placement_group_disabled(const struct pc *pc, const struct cr_facts *f)
{
	if (efa_in_one_subnet(f) && !f->pg.active && f->pg.enabled_false && !f->pg.name && !f->pg.id)
		pc_report(pc, R_PC2102, f->pg.enabled,
			  "EFA is enabled but the placement group is switched off; inter-node bandwidth and latency suffer");
}

/* PC2105 reservation-managed-placement-group */
static void reservation_managed_placement_group(const struct pc *pc, const struct cr_facts *f)
{
	if (f->pg.enabled_true && !f->pg.name && !f->pg.id &&
	    targets_reservation(pc, f->queue, f->cr) && !f->capacity_block) {
		struct diag *g = pc_report(pc, R_PC2105, f->pg.enabled,
			"a managed placement group with a capacity reservation; the reserved instances are in the reservation's own group");
		diag_set_help(g, "name the reservation's placement group with PlacementGroup.Name");
	}
}

/* PC2107 capacity-block-placement-group */
static void capacity_block_placement_group(const struct pc *pc, const struct cr_facts *f)
{
	if (f->pg.active && f->capacity_block)
		pc_report(pc, R_PC2107, f->pg.map,
			  "a placement group on a CAPACITY_BLOCK queue; the block's reserved instances may not fit a new placement group");
}

static void check_cr(const struct pc *pc, yd_node queue, yd_node cr)
{
	const yamldoc *d = pc->cl->doc;
	struct cr_facts f = { .queue = queue, .cr = cr };
	cluster_placement_of(pc->cl, queue, cr, &f.pg);
	yd_node efa = yd_get(d, cr, "Efa");
	f.efa_on = cluster_flag(pc->cl, efa, "Enabled");
	f.efa_enabled = yd_get(d, efa, "Enabled");
	f.multi_subnet = cluster_subnet_count(pc->cl, queue) > 1;
	const char *type = cluster_capacity_type(pc->cl, queue);
	f.capacity_block = type && strcmp(type, "CAPACITY_BLOCK") == 0;
	/* what a placeholder leaves open decides every rule below */
	if (f.pg.unknown || !type || cluster_unknown(pc->cl, f.efa_enabled) ||
	    (!f.multi_subnet && cluster_subnets_open(pc->cl, queue)))
		return;
	multi_subnet_efa(pc, &f);
	multi_subnet_placement_group(pc, &f);
	efa_without_placement_group(pc, &f);
	placement_group_disabled(pc, &f);
	reservation_managed_placement_group(pc, &f);
	capacity_block_placement_group(pc, &f);
}

void pc_check_placement(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		yd_node qpg = yd_get(d, yd_get(d, q, "Networking"), "PlacementGroup");
		if (yd_kind(d, qpg) == YD_MAPPING)
			placement_group_naming(pc, qpg);
		yd_node crs = cluster_compute_resources(pc->cl, q);
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node cr = yd_item(d, crs, j);
			yd_node cpg = yd_get(d, yd_get(d, cr, "Networking"), "PlacementGroup");
			if (yd_kind(d, cpg) == YD_MAPPING)
				placement_group_naming(pc, cpg);
			check_cr(pc, q, cr);
		}
	}
}
