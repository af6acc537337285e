/* SB300x: the script against the cluster config it runs on: partition,
 * node count, paths every node must see, and the Slurm plugins the
 * options need. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "changes.h"
#include "releases.h"
#include "sb.h"
#include "schema.h"
#include "text.h"

/* " (hetjob component 1)" after a component's option, so that a finding
 * in a heterogeneous job says which component it is about. */
static const char *which(const struct sbc *c, unsigned k, char *buf, size_t cap)
{
	if (c->ncomp < 2)
		return "";
	snprintf(buf, cap, " (hetjob component %u)", k);
	return buf;
}

/* SB3001 unknown-partition */
static void unknown_partition(struct sbc *c, unsigned k)
{
	const struct sb_directive *d = c->comp[k].partition;
	if (!d || !d->value || c->comp[k].queue)
		return;
	const yamldoc *doc = c->cluster->doc;
	yd_node queues = cluster_queues(c->cluster);
	for (size_t i = 0; i < yd_len(doc, queues); i++)
		if (cluster_unknown(c->cluster, yd_get(doc, yd_item(doc, queues, i), "Name")))
			return; /* a template's queue may be this one */
	struct buf names = BUF_INIT;
	const char *near = NULL;
	size_t best = 3;
	for (size_t i = 0; i < yd_len(doc, queues); i++) {
		size_t len;
		const char *n = yd_str(doc, yd_get(doc, yd_item(doc, queues, i), "Name"), &len);
		if (!n)
			continue;
		buf_printf(&names, "%s%s", names.len ? ", " : "", n);
		size_t dist = text_edit_distance(d->value, strlen(d->value), n, len, 2);
		if (dist < best) {
			best = dist;
			near = n;
		}
	}
	char comp[48];
	struct diag *g = sbc_report(c, R_SB3001, d->value_span,
		"partition '%s'%s is not a queue of %s (queues: %s)", d->value,
		which(c, k, comp, sizeof comp), c->cluster->src->path, names.p ? names.p : "none");
	if (near)
		diag_set_help(g, "did you mean '%s'?", near);
	buf_free(&names);
}

/* SB3002 nodes-exceed-queue: each component is a job of its own in its
 * own partition: its nodes must fit its queue, whatever the other
 * components ask. */
static void nodes_exceed_queue(struct sbc *c, unsigned k)
{
	const struct sbc_component *comp = &c->comp[k];
	if (!comp->queue || !comp->min_nodes)
		return;
	long long max = cluster_queue_max_nodes(c->cluster, comp->queue);
	if (max < 0 || comp->min_nodes <= max)
		return;
	const yamldoc *doc = c->cluster->doc;
	char where[48];
	sbc_report(c, R_SB3002, comp->nodes->value_span,
		   "%lld nodes%s, but queue %s of %s can start at most %lld (MaxCount, line %u)",
		   comp->min_nodes, which(c, k, where, sizeof where),
		   yd_str(doc, yd_get(doc, comp->queue, "Name"), NULL), c->cluster->src->path, max,
		   yd_span(doc, comp->queue).line);
}

/* Shared: a SharedStorage MountDir (or below), or /home, which the head
 * node exports to every node. */
static bool shared_path(const struct sbc *c, const char *path)
{
	if (!strncmp(path, "/home/", 6) || !strcmp(path, "/home"))
		return true;
	const yamldoc *doc = c->cluster->doc;
	yd_node storages = yd_get(doc, yd_root(doc), "SharedStorage");
	for (size_t i = 0; i < yd_len(doc, storages); i++) {
		yd_node mn = yd_get(doc, yd_item(doc, storages, i), "MountDir");
		const char *m = yd_str(doc, mn, NULL);
		if (cluster_unknown(c->cluster, mn))
			return true; /* a template's mount may be this one */
		if (!m)
			continue;
		char mount[512];
		snprintf(mount, sizeof mount, "%s%s", m[0] == '/' ? "" : "/", m);
		size_t n = strlen(mount);
		if (!strncmp(path, mount, n) && (path[n] == '/' || !path[n]))
			return true;
	}
	return false;
}

/* SB3004 path-not-shared */
static void path_not_shared(struct sbc *c, const char *what, const char *path, struct sb_span at)
{
	if (!path || path[0] != '/' || shared_path(c, path))
		return;
	struct diag *g = sbc_report(c, R_SB3004, at,
		"%s %s is not on shared storage of %s: each node sees its own copy, and the others' writes are lost",
		what, path, c->cluster->src->path);
	diag_set_help(g, "use a SharedStorage MountDir of the cluster config, or /home");
}

static void paths(struct sbc *c)
{
	static const char *const outputs[] = { "output", "error" };
	for (size_t i = 0; i < 2; i++) {
		const struct sb_directive *d = sb_directive_find(c->m, outputs[i]);
		if (d && d->value)
			path_not_shared(c, "--output", d->value, d->value_span);
	}
	const struct sb_assign *where = NULL;
	const char *cache = sbc_env_value(c, "NEURON_COMPILE_CACHE_URL", &where);
	if (cache && where)
		path_not_shared(c, "the compile cache", cache, where->span);
	static const char *const ckpt[] = { "save", "load", "checkpoint-dir", "checkpoint-path", "ckpt-dir" };
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_part *entry = sb_cmd_find(sb_cmd_at(c->m, i), SB_PROG_PYTHON);
		for (size_t k = 0; entry && k < sizeof ckpt / sizeof ckpt[0]; k++) {
			const sb_word *w = sb_flag(entry, ckpt[k]);
			if (!w)
				w = sb_flag_next(entry, ckpt[k]);
			if (w && sb_word_value(w))
				path_not_shared(c, "the checkpoint directory", sb_word_value(w), sb_word_span(w));
		}
	}
}

static bool queue_has_efa(const yamldoc *d, yd_node queue)
{
	yd_node crs = yd_get(d, queue, "ComputeResources");
	for (size_t i = 0; i < yd_len(d, crs); i++) {
		bool on = false;
		yd_node n = yd_get(d, yd_get(d, yd_item(d, crs, i), "Efa"), "Enabled");
		if (yd_type(d, n) == YD_T_UNKNOWN || (schema_read_bool(d, n, &on) && on))
			return true; /* a placeholder may turn it on */
	}
	return false;
}

/* SB3003 efa-variables-without-efa: EFA variables on a queue without EFA
 * do nothing useful; the variables reach every component of a
 * heterogeneous job. */
static void efa_variables_without_efa(struct sbc *c)
{
	if (!sb_complete(c->m))
		return; /* which assignment holds needs the whole script */
	const yamldoc *d = c->cluster->doc;
	yd_node queue = 0;
	for (unsigned k = 0; k < c->ncomp && !queue; k++)
		if (c->comp[k].queue && !queue_has_efa(d, c->comp[k].queue))
			queue = c->comp[k].queue;
	if (!queue)
		return;
	const struct sb_assign *a = sbc_assignment(c, "FI_PROVIDER");
	const char *v = sbc_assign_value(a);
	if (v && !strcmp(v, "efa"))
		sbc_report(c, R_SB3003, a->span,
			   "FI_PROVIDER=efa, but queue %s of %s has no EFA enabled (line %u)",
			   yd_str(d, yd_get(d, queue, "Name"), NULL), c->cluster->src->path,
			   yd_span(d, queue).line);
}

/* Whether the cluster can run Slurm's topology/block plugin: its
 * CustomSlurmSettings set it (or an include file might), or
 * ParallelCluster configures it, which from 3.14.0 it does for p6e-gb200
 * UltraServer capacity blocks alone (docs/versions.md, "pc-slurm-topology"). */
static bool cluster_has_block_topology(const struct sbc *c)
{
	const yamldoc *d = c->cluster->doc;
	yd_node settings = yd_get(d, yd_get(d, yd_root(d), "Scheduling"), "SlurmSettings");
	if (yd_get(d, settings, "CustomSlurmSettingsIncludeFile"))
		return true; /* unknown: say nothing */
	yd_node custom = yd_get(d, settings, "CustomSlurmSettings");
	for (size_t i = 0; i < yd_len(d, custom); i++) {
		const char *plugin = yd_str(d, yd_get(d, yd_item(d, custom, i), "TopologyPlugin"), NULL);
		if (plugin && strstr(plugin, "block"))
			return true;
	}
	static const struct version gb200 = VERSION_AT(3, 14, 0);
	if (version_cmp(c->target->pc, gb200) < 0)
		return false;
	yd_node queues = cluster_queues(c->cluster);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node q = yd_item(d, queues, i);
		bool mine = false;
		for (unsigned k = 0; k < c->ncomp; k++)
			mine |= c->comp[k].queue == q;
		if (!mine && c->queue)
			continue; /* another queue's GPUs do not help this job */
		yd_node crs = cluster_compute_resources(c->cluster, q);
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node types[16];
			size_t n = cluster_instance_types(c->cluster, yd_item(d, crs, j), types, 16);
			for (size_t t = 0; t < n && t < 16; t++) {
				const char *it = yd_str(d, types[t], NULL);
				if (it && !strncmp(it, "p6e-gb200.", 10))
					return true;
			}
		}
	}
	return false;
}

/* SB3006 block-topology-unavailable */
static void block_topology_unavailable(struct sbc *c, const char *what, struct sb_span at)
{
	struct diag *g = sbc_report(c, R_SB3006, at,
		"%s needs Slurm's topology/block plugin, which %s does not configure: ParallelCluster sets it up only for p6e-gb200 capacity blocks (3.14.0 and later; the target is %s), and no CustomSlurmSettings sets TopologyPlugin",
		what, c->cluster->src->path, PC_TEXT(c->target->pc));
	diag_set_help(g, "drop the option, or set TopologyPlugin: topology/block (with a topology.conf) in Scheduling/SlurmSettings/CustomSlurmSettings");
}

/* A block-topology row the target has (one it lacks is SB1003's). */
static bool block_row(const struct sbc *c, const struct slurm_change *ch)
{
	struct version when;
	return ch && (ch->flags & SLURM_CHANGE_BLOCK) &&
	       slurm_change_at(ch, c->target->slurm, &when) == SBOPT_PRESENT;
}

static void block_topology(struct sbc *c)
{
	if (cluster_has_block_topology(c))
		return;
	char what[96];
	struct version when;
	for (size_t i = 0; i < sb_directive_count(c->m); i++) {
		const struct sb_directive *d = sb_directive_at(c->m, i);
		if (d->after_command || !d->opt ||
		    sbopt_at_release(d->opt, c->target->slurm, &when) != SBOPT_PRESENT)
			continue;
		const struct slurm_change *v = slurm_change_value(SLURM_SBATCH, d->opt->name, d->value);
		if (d->opt->flags & SBOPT_BLOCK) {
			snprintf(what, sizeof what, "--%s", d->opt->name);
			block_topology_unavailable(c, what, d->name_span);
		} else if (block_row(c, v)) {
			snprintf(what, sizeof what, "--%s=%s", d->opt->name, v->value);
			block_topology_unavailable(c, what, d->value_span);
		}
	}
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_part *p = sb_cmd_find(sb_cmd_at(c->m, i), SB_PROG_SRUN);
		for (size_t k = 0; p && k < sb_part_flag_count(p); k++) {
			const struct sb_flag *f = sb_part_flag(p, k);
			const struct slurm_change *o = slurm_change_option(SLURM_SRUN, f->name);
			const char *value = f->value ? sb_word_value(f->value) : NULL;
			const struct slurm_change *v = slurm_change_value(SLURM_SRUN, f->name, value);
			if (block_row(c, o))
				snprintf(what, sizeof what, "srun --%s", f->name);
			else if (!o && block_row(c, v))
				snprintf(what, sizeof what, "srun --%s=%s", f->name, v->value);
			else
				continue;
			block_topology_unavailable(c, what, sb_word_span(f->word));
		}
	}
}

void sbc_check_cluster(struct sbc *c)
{
	if (!c->cluster)
		return;
	/* A script srun starts on every node has the caller's allocation:
	 * the caller's own lint reports on its #SBATCH lines. */
	for (unsigned k = 0; k < c->ncomp && !c->per_node; k++) {
		unknown_partition(c, k);
		nodes_exceed_queue(c, k);
	}
	paths(c);
	efa_variables_without_efa(c);
	block_topology(c);
}

/* `# trainforge cluster=PATH` anywhere in the comments. */
static const char *cluster_comment(const char *text, size_t len, size_t *plen)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *q = p;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q < eol && *q == '#') {
			q++;
			while (q < eol && (*q == ' ' || *q == '\t'))
				q++;
			if (eol - q > 19 && !memcmp(q, "trainforge cluster=", 19)) {
				q += 19;
				const char *e = q;
				while (e < eol && !isspace((unsigned char)*e))
					e++;
				*plen = (size_t)(e - q);
				return q;
			}
		}
		p = eol + 1;
	}
	return NULL;
}

bool sbatch_cluster_directive(const struct source *script, char *out, size_t cap)
{
	size_t len;
	const char *p = cluster_comment(script->text, script->len, &len);
	if (!p || !len || len >= cap)
		return false;
	memcpy(out, p, len);
	out[len] = '\0';
	return true;
}

/* SB3005 cluster-config-unreadable */
void sbatch_report_unreadable_cluster(struct source *script, const char *path,
				      struct diag_list *diags)
{
	size_t len;
	const char *p = cluster_comment(script->text, script->len, &len);
	uint32_t line = 1, col = 1;
	if (p)
		source_locate(script, (size_t)(p - script->text), &line, &col);
	diag_add(diags, script, R_SB3005, line, col, line, col + (uint32_t)len,
		 "cluster config %s cannot be read or is not a ParallelCluster config", path);
}
