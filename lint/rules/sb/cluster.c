/* SB300x: the script against the cluster config it runs on: partition,
 * node count, and paths every node must see. */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "sb.h"
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

static void partition(struct sbc *c, unsigned k)
{
	const struct sb_directive *d = c->comp[k].partition;
	if (!d || !d->value || c->comp[k].queue)
		return;
	const yamldoc *doc = c->cluster->doc;
	yd_node queues = cluster_queues(c->cluster);
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

/* Each component is a job of its own in its own partition: its nodes
 * must fit its queue, whatever the other components ask. */
static void node_count(struct sbc *c, unsigned k)
{
	const struct sbc_component *comp = &c->comp[k];
	if (!comp->queue || !comp->min_nodes)
		return;
	long long max = cluster_queue_max_nodes(c->cluster, comp->queue);
	if (comp->min_nodes <= max)
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
		const char *m = yd_str(doc, yd_get(doc, yd_item(doc, storages, i), "MountDir"), NULL);
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

static void check_path(struct sbc *c, const char *what, const char *path, struct sb_span at)
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
			check_path(c, "--output", d->value, d->value_span);
	}
	const struct sb_assign *where = NULL;
	const char *cache = sbc_env_value(c, "NEURON_COMPILE_CACHE_URL", &where);
	if (cache && where)
		check_path(c, "the compile cache", cache, where->span);
	static const char *const ckpt[] = { "save", "load", "checkpoint-dir", "checkpoint-path", "ckpt-dir" };
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_part *entry = sb_cmd_find(sb_cmd_at(c->m, i), SB_PROG_PYTHON);
		for (size_t k = 0; entry && k < sizeof ckpt / sizeof ckpt[0]; k++) {
			const sb_word *w = sb_flag(entry, ckpt[k]);
			if (!w)
				w = sb_flag_next(entry, ckpt[k]);
			if (w && sb_word_value(w))
				check_path(c, "the checkpoint directory", sb_word_value(w), sb_word_span(w));
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
		partition(c, k);
		node_count(c, k);
	}
	paths(c);
}
