/* PC300x: operating system against scheduler and accelerator stack, the
 * Neuron release a node installs, the settings ParallelCluster allows
 * only with Slurm, the head node's size for its fleet, and the instance
 * metadata service. */
#include <string.h>

#include "neuron.h"
#include "pc.h"
#include "releases.h"

static bool is_awsbatch(const struct pc *pc)
{
	return yd_str_eq(pc->cl->doc, yd_get(pc->cl->doc, yd_get(pc->cl->doc, pc->cl->root, "Scheduling"),
					 "Scheduler"), "awsbatch");
}

enum { MAX_SCRIPTS = 16 };

/* The release Neuron's ParallelCluster install script installs: it is
 * .../neuron-installation/v<SDK>/<os>/pt/install_neuron.sh
 * (docs/versions.md, neuron-parallelcluster). */
static bool script_sdk(const yamldoc *d, yd_node script, struct neuron_version *v)
{
	size_t len;
	const char *s = yd_str(d, script, &len);
	static const char key[] = "/neuron-installation/v";
	const char *p = s ? memmem(s, len, key, sizeof key - 1) : NULL;
	if (!p)
		return false;
	p += sizeof key - 1;
	size_t n = 0;
	while (p + n < s + len && p[n] != '/')
		n++;
	return neuron_version_parse(p, n, v);
}

/* The first instance type of a queue whose accelerator needs a newer
 * Neuron release than sdk (any release when sdk is NULL) would give. */
static const struct instance_type *needs_newer(const struct pc *pc, yd_node queue,
					       const struct neuron_version *sdk,
					       struct neuron_first_release *first, yd_node *at)
{
	const yamldoc *d = pc->cl->doc;
	yd_node crs = cluster_compute_resources(pc->cl, queue);
	for (size_t j = 0; j < yd_len(d, crs); j++) {
		yd_node types[64];
		size_t n = cluster_instance_types(pc->cl, yd_item(d, crs, j), types, 64);
		for (size_t k = 0; k < n; k++) {
			const struct instance_type *it = cluster_instance(pc->cl, types[k]);
			if (!it || !neuron_min_sdk(it->accel, first))
				continue;
			if (sdk ? neuron_version_cmp(*sdk, first->version) < 0
				: !neuron_runs_on_al2(first->version)) {
				*at = types[k];
				return it;
			}
		}
	}
	return NULL;
}

/* PC3005 neuron-install-too-old */
static void neuron_install_too_old(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	char v[16], min[16];
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i), scripts[MAX_SCRIPTS], type;
		size_t n = cluster_action_scripts(pc->cl, yd_get(d, q, "CustomActions"), scripts, MAX_SCRIPTS);
		for (size_t k = 0; k < n; k++) {
			struct neuron_version sdk;
			struct neuron_first_release first;
			const struct instance_type *it;
			if (!script_sdk(d, scripts[k], &sdk) || !(it = needs_newer(pc, q, &sdk, &first, &type)))
				continue;
			struct diag *g = pc_report(pc, R_PC3005, scripts[k],
				"this script installs Neuron %s, older than %s, the first release for %s (%s, line %u)",
				neuron_version_str(sdk, v, sizeof v), neuron_version_str(first.version, min, sizeof min),
				first.accel, it->name, yd_span(d, type).line);
			diag_set_help(g, "install Neuron %s or later: change v%s in the script's path", min, v);
		}
	}
}

/* The OSes to suggest instead of alinux2: ubuntu2404 only where the
 * target has it, from 3.13.0 (docs/versions.md, "pc-schema-os"). */
static const char *neuron_os_help(const struct pc *pc)
{
	static const struct version ubuntu2404 = VERSION_AT(3, 13, 0);
	return version_cmp(pc->target->pc, ubuntu2404) >= 0 ? "use Os alinux2023, ubuntu2204 or ubuntu2404"
							    : "use Os alinux2023 or ubuntu2204";
}

/* PC3001 os-accelerator-mismatch: no Neuron release after 2.19 has a
 * runtime for Amazon Linux 2 (docs/versions.md, neuron-os), so neither
 * Trainium2 (2.21 and later) nor Trainium3 (2.27) runs on alinux2, and
 * neither does a Neuron install script of a later release. */
static void os_accelerator_mismatch(const struct pc *pc, yd_node os)
{
	const yamldoc *d = pc->cl->doc;
	char v[16], last[16];
	if (!yd_str_eq(d, os, "alinux2"))
		return;
	/* the head node's scripts and every queue's */
	yd_node owners[1 + 64];
	size_t nowners = 0;
	owners[nowners++] = yd_get(d, pc->cl->root, "HeadNode");
	yd_node qs = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, qs) && nowners < sizeof owners / sizeof owners[0]; i++)
		owners[nowners++] = yd_item(d, qs, i);
	for (size_t i = 0; i < nowners; i++) {
		yd_node scripts[MAX_SCRIPTS];
		size_t n = cluster_action_scripts(pc->cl, yd_get(d, owners[i], "CustomActions"), scripts, MAX_SCRIPTS);
		for (size_t k = 0; k < n; k++) {
			struct neuron_version sdk;
			if (!script_sdk(d, scripts[k], &sdk) || neuron_runs_on_al2(sdk))
				continue;
			struct diag *g = pc_report(pc, R_PC3001, scripts[k],
				"this script installs Neuron %s, and no Neuron release after %s has a runtime for Os alinux2 (line %u)",
				neuron_version_str(sdk, v, sizeof v),
				neuron_version_str(neuron_al2_last(), last, sizeof last), yd_span(d, os).line);
			diag_set_help(g, "%s", neuron_os_help(pc));
		}
	}
	for (size_t i = 0; i < yd_len(d, qs); i++) {
		struct neuron_first_release first;
		yd_node type;
		const struct instance_type *it = needs_newer(pc, yd_item(d, qs, i), NULL, &first, &type);
		if (!it)
			continue;
		char min[16];
		struct diag *g = pc_report(pc, R_PC3001, os,
			"Os alinux2 cannot run %s: %s needs Neuron %s or later, and no Neuron release after %s supports Amazon Linux 2 (queue line %u)",
			it->name, first.accel, neuron_version_str(first.version, min, sizeof min),
			neuron_version_str(neuron_al2_last(), last, sizeof last), yd_span(d, type).line);
		diag_set_help(g, "%s", neuron_os_help(pc));
		return;
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

/* HeadNodeMemorySizeValidator: with T the sum of MaxCount over every
 * compute resource, the head node needs min(T / 25 + 0.6, 16) GiB (0.6
 * for the OS; the requirement stops at 16), ERROR otherwise. Merged into
 * develop on 2024-12-13, so first released in 3.12.0, the next release
 * cut from develop (docs/versions.md, "pc-slurm-mapping-head-node"). */
/* PC3011 head-node-too-small */
static void head_node_too_small(const struct pc *pc)
{
	static const struct version since = VERSION_AT(3, 12, 0);
	if (version_cmp(pc->target->pc, since) < 0)
		return;
	const yamldoc *d = pc->cl->doc;
	yd_node type = yd_get(d, yd_get(d, pc->cl->root, "HeadNode"), "InstanceType");
	const struct instance_type *it = cluster_instance(pc->cl, type);
	if (!it || it->memory_mib <= 0)
		return;
	long long total = 0;
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node crs = cluster_compute_resources(pc->cl, yd_item(d, queues, i));
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			long long max = 10; /* ParallelCluster's default MaxCount */
			yd_int(d, yd_get(d, yd_item(d, crs, j), "MaxCount"), &max);
			total += max > 0 ? max : 0;
		}
	}
	double need = (double)total / 25 + 0.6, have = it->memory_mib / 1024.0;
	if (need > 16)
		need = 16;
	if (have >= need)
		return;
	struct diag *g = pc_report(pc, R_PC3011, type,
		"head node %s has %.1f GiB of memory, but a fleet of up to %lld compute nodes needs at least %.1f GiB for slurmctld, clustermgtd and the /home export: ParallelCluster %s refuses the config (HeadNodeMemorySizeValidator, from 3.12.0)",
		it->name, have, total, need, PC_TEXT(pc->target->pc));
	diag_set_help(g, "choose a head node with at least %.1f GiB of memory (16 GiB is enough for any fleet)",
		      need);
}

/* PC3010 imds-v1-allowed: ImdsSupport v1.0 lets every node answer
 * IMDSv1 requests, which need no session token; v2.0, the default,
 * allows IMDSv2 only (docs/versions.md, "pc-imds"). */
static void imds_v1_allowed(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node v = yd_get(d, yd_get(d, pc->cl->root, "Imds"), "ImdsSupport");
	if (!yd_str_eq(d, v, "v1.0"))
		return;
	struct diag *g = pc_report(pc, R_PC3010, v,
		"ImdsSupport: v1.0 lets the head node and every compute node answer IMDSv1, which needs no session token: a request forgery in any service on a node can read the instance role's credentials");
	diag_set_help(g, "remove it (the default is v2.0), after moving any tool that still speaks IMDSv1 to IMDSv2");
}

void pc_check_platform(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node image = yd_get(d, pc->cl->root, "Image");
	yd_node os = yd_get(d, image, "Os");
	yd_node scheduler = yd_get(d, yd_get(d, pc->cl->root, "Scheduling"), "Scheduler");
	neuron_install_too_old(pc);
	if (cluster_unknown(pc->cl, scheduler))
		return;
	if (!cluster_unknown(pc->cl, os)) {
		os_accelerator_mismatch(pc, os);
		os_needs_custom_ami(pc, image, os);
		scheduler_os_mismatch(pc, os);
	}
	awsbatch_only_slurm_feature(pc);
	head_node_too_small(pc);
	imds_v1_allowed(pc);
}
