/* PC200x: EFA on compute resources: on where the hardware has it, off
 * where a multi-node job needs it, and the GdrSupport key that stopped
 * mattering in ParallelCluster 3.0.2. */
#include <stdio.h>
#include <string.h>

#include "pc.h"

enum { MAX_TYPES = 64 };

static const char *const accel_names[] = {
	[ACCEL_NONE] = "no accelerator", [ACCEL_NVIDIA_GPU] = "NVIDIA GPUs",
	[ACCEL_TRAINIUM] = "Trainium", [ACCEL_TRAINIUM2] = "Trainium2",
	[ACCEL_INFERENTIA2] = "Inferentia2", [ACCEL_TRAINIUM3] = "Trainium3",
};

/* PC2005 flexible-instances-mismatch: ParallelCluster's validators
 * reject mixed accelerators, and a queue with EFA only on some types
 * loses it. */
static void flexible_instances_mismatch(const struct pc *pc, yd_node *types, size_t n)
{
	const struct instance_type *first = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct instance_type *it = cluster_instance(pc->cl, types[i]);
		if (!it)
			continue;
		if (!first) {
			first = it;
			continue;
		}
		if (it->efa != TRI_UNKNOWN && first->efa != TRI_UNKNOWN && it->efa != first->efa)
			pc_report(pc, R_PC2005, types[i],
				  "%s %s EFA but %s %s; flexible instances must agree",
				  it->name, it->efa == TRI_YES ? "has" : "has no",
				  first->name, first->efa == TRI_YES ? "has" : "has not");
		else if (it->accel != first->accel ||
			 (it->accel_count >= 0 && first->accel_count >= 0 &&
			  it->accel_count != first->accel_count))
			pc_report(pc, R_PC2005, types[i],
				  "%s has %d x %s but %s has %d x %s; flexible instances must have the same accelerators",
				  it->name, it->accel_count, accel_names[it->accel],
				  first->name, first->accel_count, accel_names[first->accel]);
	}
}

/* What a queue allows, worked out once per queue rather than for each of
 * its compute resources: each walks a list (compute resources, subnets)
 * that may be thousands long. */
struct queue_facts {
	bool multi_node;   /* a job can span nodes */
	bool multi_subnet; /* EFA cannot work across its subnets */
	bool subnets_open; /* a placeholder may make it several */
};

/* PC2003 gdr-support-no-effect */
static void gdr_support_no_effect(const struct pc *pc, yd_node efa)
{
	const yamldoc *d = pc->cl->doc;
	if (yd_get(d, efa, "GdrSupport"))
		pc_report(pc, R_PC2003, yd_get_key(d, efa, "GdrSupport"),
			  "GdrSupport has had no effect since ParallelCluster 3.0.2; GPUDirect RDMA is used whenever the instance has it");
}

/* PC2004 gdr-without-efa */
static void gdr_without_efa(const struct pc *pc, yd_node efa)
{
	if (cluster_flag(pc->cl, efa, "GdrSupport") && !cluster_flag(pc->cl, efa, "Enabled") &&
	    !cluster_unknown(pc->cl, yd_get(pc->cl->doc, efa, "Enabled")))
		pc_report(pc, R_PC2004, yd_get(pc->cl->doc, efa, "GdrSupport"),
			  "GdrSupport is true but Efa.Enabled is not");
}

/* PC2001 efa-unsupported */
static void efa_unsupported(const struct pc *pc, yd_node efa, const struct instance_type *it)
{
	struct diag *g = pc_report(pc, R_PC2001, yd_get(pc->cl->doc, efa, "Enabled"),
				   "Efa.Enabled is true but %s has no EFA", it->name);
	diag_set_help(g, "remove Efa or choose an EFA-capable instance type");
}

/* PC2002 efa-off-multinode */
static void efa_off_multinode(const struct pc *pc, yd_node type, const struct instance_type *it)
{
	struct diag *g = pc_report(pc, R_PC2002, type,
		"%s supports EFA but Efa.Enabled is not true in a queue that can run multi-node jobs",
		it->name);
	diag_set_help(g, "add 'Efa: {Enabled: true}' and a placement group to the compute resource");
}

static void check_cr(const struct pc *pc, const struct queue_facts *q, yd_node cr)
{
	yd_node efa = yd_get(pc->cl->doc, cr, "Efa");
	bool on = cluster_flag(pc->cl, efa, "Enabled");
	yd_node types[MAX_TYPES];
	size_t n = cluster_instance_types(pc->cl, cr, types, MAX_TYPES);
	if (n > 1)
		flexible_instances_mismatch(pc, types, n);
	gdr_support_no_effect(pc, efa);
	gdr_without_efa(pc, efa);
	if (cluster_unknown(pc->cl, yd_get(pc->cl->doc, efa, "Enabled")))
		return;
	for (size_t i = 0; i < n; i++) {
		const struct instance_type *it = cluster_instance(pc->cl, types[i]);
		if (!it)
			continue;
		if (on && it->efa == TRI_NO) {
			efa_unsupported(pc, efa, it);
		} else if (!on && it->efa == TRI_YES && q->multi_node && !q->multi_subnet &&
			   !q->subnets_open) {
			efa_off_multinode(pc, types[i], it);
			break; /* once per compute resource */
		}
	}
}

void pc_check_efa(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		struct queue_facts facts = {
			.multi_node = cluster_queue_max_nodes(pc->cl, q) > 1,
			.multi_subnet = cluster_subnet_count(pc->cl, q) > 1,
			.subnets_open = cluster_subnets_open(pc->cl, q),
		};
		yd_node crs = cluster_compute_resources(pc->cl, q);
		for (size_t j = 0; j < yd_len(d, crs); j++)
			check_cr(pc, &facts, yd_item(d, crs, j));
	}
}
