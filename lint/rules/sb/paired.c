/* SB3201-SB3203: the script against the paired cluster's mounts and its
 * instance's accelerators. sbatch has slurmstepd open --output and
 * --error as the user before the script runs, creating their directory
 * on Slurm 23.02 and later: under a top directory the node does not
 * have (/shared on a cluster without a /shared storage), the user
 * cannot create it in /, and the job fails to start. GPUs are
 * ParallelCluster's gres: each node of a queue has gpu:N for its
 * instance's N GPUs, so a job asking more per node is refused at
 * submission (Requested node configuration is not available): only
 * NVIDIA GPUs are GRES there (docs/versions.md, pc-slurm-mapping-gres). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"

/* Top directories every node has whatever the cluster mounts: the
 * Linux tree, /home (exported by the head node), and /scratch, where
 * ParallelCluster mounts the instance store (ComputeSettings
 * LocalStorage EphemeralVolume MountDir, default /scratch). */
static bool system_top(const char *top, size_t n)
{
	static const char *const tops[] = {
		"home", "tmp", "var", "opt", "usr", "etc", "dev", "run", "mnt", "srv", "root",
		"scratch", "proc", "sys", "media", "local_scratch",
	};
	for (size_t i = 0; i < sizeof tops / sizeof tops[0]; i++)
		if (strlen(tops[i]) == n && !strncmp(top, tops[i], n))
			return true;
	return false;
}

/* Whether some SharedStorage MountDir lies under /top (or is it); true
 * too when a mount is a placeholder, which may be anything. */
static bool mounted_top(const struct sbc *c, const char *top, size_t n)
{
	const yamldoc *doc = c->cluster->doc;
	yd_node storages = yd_get(doc, yd_root(doc), "SharedStorage");
	for (size_t i = 0; i < yd_len(doc, storages); i++) {
		yd_node mn = yd_get(doc, yd_item(doc, storages, i), "MountDir");
		const char *m = yd_str(doc, mn, NULL);
		if (cluster_unknown(c->cluster, mn))
			return true;
		if (!m)
			continue;
		m += m[0] == '/';
		if (!strncmp(m, top, n) && (m[n] == '/' || !m[n]))
			return true;
	}
	return false;
}

static bool has_custom_ami(const struct sbc *c)
{
	const yamldoc *d = c->cluster->doc;
	if (yd_get(d, yd_get(d, yd_root(d), "Image"), "CustomAmi"))
		return true;
	yd_node queues = cluster_queues(c->cluster);
	for (size_t i = 0; i < yd_len(d, queues); i++)
		if (yd_get(d, yd_get(d, yd_item(d, queues, i), "Image"), "CustomAmi"))
			return true;
	return false;
}

/* SB3201 output-mount-missing */
static void output_mount_missing(struct sbc *c)
{
	static const char *const opts[] = { "output", "error" };
	if (has_custom_ami(c))
		return; /* its image may hold the directory */
	for (size_t i = 0; i < 2; i++) {
		const struct sb_directive *d = sb_directive_find(c->m, opts[i]);
		const char *v = d ? d->value : NULL;
		if (!v || v[0] != '/' || !strchr(v + 1, '/'))
			continue;
		size_t n = strcspn(v + 1, "/");
		if (!n || system_top(v + 1, n) || mounted_top(c, v + 1, n) || memchr(v + 1, '%', n))
			continue;
		struct diag *g = sbc_report(c, R_SB3201, d->value_span,
			"--%s=%s: %s mounts nothing at /%.*s, and its nodes have no such directory: Slurm cannot create it as the user, so the job fails before the script runs",
			opts[i], v, c->cluster->src->path, (int)n, v + 1);
		diag_set_help(g, "write the logs under a SharedStorage MountDir of the cluster, or under /home");
	}
}

/* GPUs a node of the job asks for: --gpus-per-node=[type:]N, or
 * --gres=gpu[:type]:N; 0 when it asks none. */
static long long gpus_asked(const struct sbc *c, const struct sb_directive **at)
{
	const struct sb_directive *d = sb_directive_find(c->alloc, "gpus-per-node");
	if (d && d->value) {
		const char *colon = strrchr(d->value, ':');
		*at = d;
		return atoll(colon ? colon + 1 : d->value);
	}
	d = sb_directive_find(c->alloc, "gres");
	const char *g = d && d->value ? strstr(d->value, "gpu") : NULL;
	if (!g || (g != d->value && g[-1] != ','))
		return 0;
	size_t len = strcspn(g, ",");
	const char *colon = NULL;
	for (const char *p = g; p < g + len; p++)
		if (*p == ':')
			colon = p;
	*at = d;
	return colon ? atoll(colon + 1) : 1;
}

static int instance_gpus(const struct sbc *c)
{
	return c->it->accel == ACCEL_NVIDIA_GPU ? c->it->accel_count : 0;
}

/* The processes srun starts per node when it runs a Python program
 * itself (one process per task), from its own flag or the job's. */
static long long srun_python_tasks(const struct sbc *c, const sb_cmd **at)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		const sb_part *srun = sb_cmd_find(cmd, SB_PROG_SRUN);
		if (!srun || sb_cmd_launcher(cmd) != SB_PROG_SRUN || !sb_cmd_find(cmd, SB_PROG_PYTHON) ||
		    sb_cmd_find(cmd, SB_PROG_TORCHRUN) || sb_cmd_find(cmd, SB_PROG_LAUNCHER))
			continue;
		long long n = 0;
		if (!sbc_word_int(c, sb_flag(srun, "ntasks-per-node"), cmd, &n))
			n = sb_flag(srun, "ntasks") || sb_flag(srun, "nodes") ? 0 : c->tasks_per_node;
		*at = cmd;
		return n;
	}
	return 0;
}

/* SB3203 gpus-idle: fewer processes than GPUs, the request aside */
static void gpus_idle(struct sbc *c, struct sb_span at, const char *who, long long procs, int have)
{
	bool tasks = !strcmp(who, "srun");
	sbc_report(c, R_SB3203, at, "%s starts %lld %s per node%s, and %s has %d GPUs: %lld stay idle",
		   who, procs, tasks ? "tasks" : "processes", tasks ? ", one process each" : "",
		   c->it->name, have, have - procs);
}

/* SB3202 gpus-exceed-instance */
static void gpus_per_node(struct sbc *c)
{
	if (!c->it)
		return;
	int have = instance_gpus(c);
	const struct sb_directive *d = NULL;
	long long asked = gpus_asked(c, &d);
	if (asked > have) {
		struct diag *g = sbc_report(c, R_SB3202, d->value_span,
			"%s=%s asks %lld GPUs per node, and %s has %d: sbatch refuses the job (Requested node configuration is not available)",
			d->name, d->value, asked, c->it->name, have);
		diag_set_help(g, have ? "ask for %d at most" : "this queue has no GPUs: drop the GPU request, or use a GPU queue", have);
		return;
	}
	if (!have)
		return;
	const sb_cmd *cmd = NULL;
	long long tasks = srun_python_tasks(c, &cmd);
	if (tasks > have) {
		sbc_report(c, R_SB3202, sb_cmd_span(cmd),
			   "srun starts %lld tasks per node, one process each, and %s has %d GPUs: the processes past the %dth have no GPU of their own",
			   tasks, c->it->name, have, have);
		return;
	}
	if (tasks > 0 && tasks < have && (asked == 0 || asked == have))
		gpus_idle(c, sb_cmd_span(cmd), "srun", tasks, have);
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *tc = sb_cmd_at(c->m, i);
		const sb_part *torch = sb_cmd_find(tc, SB_PROG_TORCHRUN);
		long long ppn;
		if (!torch || !sbc_word_int(c, sb_flag(torch, "nproc-per-node"), tc, &ppn) || ppn < 1)
			continue;
		long long usable = asked ? asked : have;
		if (ppn > usable && asked && asked < have)
			sbc_report(c, R_SB3202, sb_word_span(sb_flag(torch, "nproc-per-node")),
				   "torchrun starts %lld processes per node, and the job asks %lld GPUs per node (%s=%s): Slurm shows each node only those, so local ranks %lld and up have no GPU",
				   ppn, asked, d->name, d->value, asked);
		else if (ppn < have && (asked == 0 || asked == have))
			gpus_idle(c, sb_word_span(sb_flag(torch, "nproc-per-node")), "torchrun", ppn, have);
	}
}

void sbc_check_paired(struct sbc *c)
{
	if (!c->cluster)
		return;
	output_mount_missing(c);
	gpus_per_node(c);
}
