/* PC2220: a queue built for multi-node training whose nodes Slurm may
 * hand to several jobs at once. It needs the batch scripts of the run,
 * so the lint driver calls it once every script is paired
 * (docs/design.md, "Pairing"). What a second job shares follows from
 * how ParallelCluster configures Slurm (docs/versions.md,
 * "pc-slurm-mapping-gres" and "pc-slurm-mapping-exclusive"): NVIDIA
 * GPUs are GRES, so a job's GPUs are its own; Neuron devices and EFA
 * are not GRES, so nothing keeps a second job off them. */
#include <stdio.h>
#include <string.h>

#include "pc.h"

/* The queue can run one job on several nodes over EFA or in a
 * placement group. */
static bool multi_node_training(const struct pc *pc, yd_node q, const char **why)
{
	const yamldoc *d = pc->cl->doc;
	if (cluster_queue_max_nodes(pc->cl, q) < 2)
		return false;
	yd_node crs = cluster_compute_resources(pc->cl, q);
	for (size_t i = 0; i < yd_len(d, crs); i++) {
		yd_node cr = yd_item(d, crs, i);
		if (cluster_flag(pc->cl, yd_get(d, cr, "Efa"), "Enabled")) {
			*why = "EFA";
			return true;
		}
		struct cluster_placement pg;
		cluster_placement_of(pc->cl, q, cr, &pg);
		if (pg.active) {
			*why = "a placement group";
			return true;
		}
	}
	return false;
}

/* What a second job on the same node shares, by the queue's accelerator. */
static const char *shared_part(const struct pc *pc, yd_node q)
{
	const yamldoc *d = pc->cl->doc;
	yd_node crs = cluster_compute_resources(pc->cl, q);
	bool gpu = false, neuron = false;
	for (size_t i = 0; i < yd_len(d, crs); i++) {
		yd_node types[16];
		size_t n = cluster_instance_types(pc->cl, yd_item(d, crs, i), types, 16);
		for (size_t k = 0; k < n && k < 16; k++) {
			const struct instance_type *it = cluster_instance(pc->cl, types[k]);
			gpu |= it && it->accel == ACCEL_NVIDIA_GPU;
			neuron |= it && catalog_is_neuron(it);
		}
	}
	if (neuron)
		return "Neuron devices are not GRES on ParallelCluster, so nothing keeps the other job off the NeuronCores, and EFA, host memory and CPUs are shared too";
	if (gpu)
		return "ParallelCluster makes only the GPUs GRES: EFA, host memory, CPUs and local disk are shared";
	return "EFA, host memory, CPUs and local disk are shared";
}

/* PC2220 nodes-shared-between-jobs */
static void nodes_shared_between_jobs(const struct pc *pc, const struct pc_pairing *pair)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		const char *why = NULL;
		bool exclusive = false;
		yd_node jea = yd_get(d, q, "JobExclusiveAllocation");
		if ((yd_bool(d, jea, &exclusive) && exclusive) || !multi_node_training(pc, q, &why))
			continue;
		const char *script = NULL;
		bool asked = false;
		for (size_t k = 0; k < pair->n; k++) {
			if (pair->queues[k] != q)
				continue;
			asked |= pair->exclusive[k];
			script = pair->scripts[k];
		}
		if (asked)
			continue;
		/* say what the run showed: a script that runs there, scripts
		 * paired elsewhere, or none paired at all */
		char who[512];
		if (script)
			snprintf(who, sizeof who, "%s, which runs there, does not ask for --exclusive", script);
		else if (pair->n == 1)
			snprintf(who, sizeof who, "the one batch script paired with this config does not run there");
		else if (pair->n)
			snprintf(who, sizeof who, "none of the %zu batch scripts paired with this config runs there", pair->n);
		else
			snprintf(who, sizeof who, "no batch script was paired with this config, so whether its jobs ask for --exclusive is not known");
		const char *name = yd_str(d, yd_get(d, q, "Name"), NULL);
		struct diag *g = pc_report(pc, R_PC2220, jea ? jea : yd_get(d, q, "Name") ? yd_get(d, q, "Name") : q,
			"queue %s runs multi-node training (%s, up to %lld nodes) without JobExclusiveAllocation: true, and %s: Slurm may start another job on the same nodes, where %s",
			name ? name : "?", why, cluster_queue_max_nodes(pc->cl, q), who, shared_part(pc, q));
		diag_set_help(g, "set JobExclusiveAllocation: true on the queue (or #SBATCH --exclusive in every job that runs there)");
		/* unsafe: every job then takes whole nodes */
		if (!jea)
			pc_fix_add_keys(g, d, q, "JobExclusiveAllocation: true");
		else
			diag_set_fix(g, "true");
	}
}

void pcluster_lint_sharing_at(struct source *src, const yamldoc *doc, const struct target *target,
			      const struct pc_pairing *pair, struct diag_list *diags)
{
	struct cluster cl = cluster_of(src, doc);
	struct pc pc = { .cl = &cl, .diags = diags, .target = target };
	nodes_shared_between_jobs(&pc, pair);
}
