/* PC300x: operating system against scheduler and accelerator stack, and
 * the settings ParallelCluster allows only with Slurm. */
#include <string.h>

#include "pc.h"

static bool is_awsbatch(const struct pc *pc)
{
	return yd_str_eq(pc->cl->doc, yd_get(pc->cl->doc, yd_get(pc->cl->doc, pc->cl->root, "Scheduling"),
					 "Scheduler"), "awsbatch");
}

/* PC3001 os-accelerator-mismatch: Neuron 2.21 is the first release for
 * Trainium2, and Neuron dropped Amazon Linux 2 in 2.20: trn2 cannot run
 * on alinux2 at all. */
static void os_accelerator_mismatch(const struct pc *pc, yd_node os)
{
	const yamldoc *d = pc->cl->doc;
	if (!yd_str_eq(d, os, "alinux2"))
		return;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node crs = cluster_compute_resources(pc->cl, yd_item(d, queues, i));
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node types[64];
			size_t n = cluster_instance_types(pc->cl, yd_item(d, crs, j), types, 64);
			for (size_t k = 0; k < n; k++) {
				const struct instance_type *it = cluster_instance(pc->cl, types[k]);
				if (!it || it->accel != ACCEL_TRAINIUM2)
					continue;
				struct diag *g = pc_report(pc, R_PC3001, os,
					"Os alinux2 cannot run %s: Trainium2 needs Neuron 2.21 or later, which does not support Amazon Linux 2 (queue line %u)",
					it->name, yd_span(d, types[k]).line);
				diag_set_help(g, "use alinux2023 or ubuntu2204");
				return;
			}
		}
	}
}

/* Keys that ParallelCluster's validators reject with awsbatch. */
struct slurm_only {
	const char *parent; /* top-level section, or NULL for the root */
	const char *sub;    /* a mapping under it, or NULL */
	const char *key;
	bool only_if_true;
	bool absent_is_true; /* ParallelCluster's default is true */
};

static const struct slurm_only slurm_only[] = {
	{ NULL, NULL, "LoginNodes", false, false },
	{ "HeadNode", "Imds", "Secured", true, true },
	{ "HeadNode", "CustomActions", "OnNodeUpdated", false, false },
	{ "DeploymentSettings", NULL, "DisableSudoAccessForDefaultUser", true, false },
	{ "AdditionalPackages", "IntelSoftware", "IntelHpcPlatform", true, false },
	{ NULL, NULL, "DirectoryService", false, false },
};

/* PC3003 scheduler-os-mismatch */
static void scheduler_os_mismatch(const struct pc *pc, yd_node os)
{
	const yamldoc *d = pc->cl->doc;
	if (is_awsbatch(pc) && os && !yd_str_eq(d, os, "alinux2") && !yd_str_eq(d, os, "alinux2023"))
		pc_report(pc, R_PC3003, os, "the awsbatch scheduler runs only on alinux2 and alinux2023, not %s",
			  yd_str(d, os, NULL) ? yd_str(d, os, NULL) : "this Os");
}

/* PC3004 awsbatch-only-slurm-feature */
static void awsbatch_only_slurm_feature(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node intel = yd_get(d, yd_get(d, yd_get(d, pc->cl->root, "AdditionalPackages"),
				     "IntelSoftware"), "IntelHpcPlatform");
	bool on;
	if (!is_awsbatch(pc)) {
		if (cluster_bool(pc->cl, intel, &on) && on)
			pc_report(pc, R_PC3004, intel,
				  "IntelHpcPlatform needs Os centos7, which ParallelCluster 3.11 no longer supports");
		return;
	}
	for (size_t i = 0; i < sizeof slurm_only / sizeof slurm_only[0]; i++) {
		const struct slurm_only *s = &slurm_only[i];
		yd_node map = s->parent ? yd_get(d, pc->cl->root, s->parent) : pc->cl->root;
		if (s->sub)
			map = yd_get(d, map, s->sub);
		yd_node key = yd_get_key(d, map, s->key);
		if (!key && s->absent_is_true) {
			yd_node at = yd_get_key(d, pc->cl->root, s->parent);
			struct diag *g = pc_report(pc, R_PC3004, at,
				"%s.%s.%s defaults to true, which ParallelCluster allows only with the slurm scheduler",
				s->parent, s->sub, s->key);
			diag_set_help(g, "set %s.%s.%s: false", s->parent, s->sub, s->key);
			continue;
		}
		if (!key || (s->only_if_true && !cluster_flag(pc->cl, map, s->key)))
			continue;
		pc_report(pc, R_PC3004, key, "%s%s%s%s%s is allowed only with the slurm scheduler",
			  s->parent ? s->parent : "", s->parent ? "." : "",
			  s->sub ? s->sub : "", s->sub ? "." : "", s->key);
	}
}

/* PC3002 os-needs-custom-ami */
static void os_needs_custom_ami(const struct pc *pc, yd_node image, yd_node os)
{
	const yamldoc *d = pc->cl->doc;
	if ((yd_str_eq(d, os, "rocky8") || yd_str_eq(d, os, "rocky9")) &&
	    !yd_get(d, image, "CustomAmi")) {
		struct diag *g = pc_report(pc, R_PC3002, os,
			"%s has no public ParallelCluster AMI; Image.CustomAmi is required",
			yd_str(d, os, NULL));
		diag_set_help(g, "build an AMI with 'pcluster build-image' and set Image.CustomAmi");
	}
}

void pc_check_platform(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node image = yd_get(d, pc->cl->root, "Image");
	yd_node os = yd_get(d, image, "Os");
	yd_node scheduler = yd_get(d, yd_get(d, pc->cl->root, "Scheduling"), "Scheduler");
	if (cluster_unknown(pc->cl, scheduler))
		return;
	if (!cluster_unknown(pc->cl, os)) {
		os_accelerator_mismatch(pc, os);
		os_needs_custom_ami(pc, image, os);
		scheduler_os_mismatch(pc, os);
	}
	awsbatch_only_slurm_feature(pc);
}
