#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "schema.h"
#include "xalloc.h"

struct cluster cluster_of(struct source *src, const yamldoc *doc)
{
	return (struct cluster){ src, doc, yd_root(doc) };
}

yd_node cluster_queues(const struct cluster *c)
{
	yd_node q = yd_get(c->doc, yd_get(c->doc, c->root, "Scheduling"), "SlurmQueues");
	return yd_kind(c->doc, q) == YD_SEQUENCE ? q : 0;
}

yd_node cluster_compute_resources(const struct cluster *c, yd_node queue)
{
	yd_node crs = yd_get(c->doc, queue, "ComputeResources");
	return yd_kind(c->doc, crs) == YD_SEQUENCE ? crs : 0;
}

struct text {
	const char *s;
	size_t len;
};

static int text_cmp(const void *pa, const void *pb)
{
	const struct text *a = pa, *b = pb;
	int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

static bool text_eq(const struct text *a, const struct text *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* Distinct texts of v[0..n): pairwise for a short list, sorted (in
 * place) for a long one, where comparing every pair would not end. */
static size_t count_distinct(struct text *v, size_t n)
{
	size_t distinct = 0;
	if (n <= 16) {
		for (size_t i = 0; i < n; i++) {
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = text_eq(&v[i], &v[j]);
			distinct += !seen;
		}
		return distinct;
	}
	qsort(v, n, sizeof *v, text_cmp);
	for (size_t i = 0; i < n; i++)
		distinct += i == 0 || !text_eq(&v[i], &v[i - 1]);
	return distinct;
}

size_t cluster_subnet_count(const struct cluster *c, yd_node queue)
{
	const yamldoc *d = c->doc;
	yd_node ids = yd_get(d, yd_get(d, queue, "Networking"), "SubnetIds");
	size_t n = yd_kind(d, ids) == YD_SEQUENCE ? yd_len(d, ids) : 0, m = 0;
	struct text few[16];
	struct text *v = n <= 16 ? few : xmalloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++) {
		v[m].s = yd_str(d, yd_item(d, ids, i), &v[m].len);
		m += v[m].s != NULL && !cluster_unknown(c, yd_item(d, ids, i));
	}
	size_t distinct = count_distinct(v, m);
	if (v != few)
		free(v);
	return distinct;
}

bool cluster_unknown(const struct cluster *c, yd_node n)
{
	return yd_kind(c->doc, n) == YD_SCALAR && yd_type(c->doc, n) == YD_T_UNKNOWN;
}

bool cluster_subnets_open(const struct cluster *c, yd_node queue)
{
	const yamldoc *d = c->doc;
	yd_node ids = yd_get(d, yd_get(d, queue, "Networking"), "SubnetIds");
	if (cluster_unknown(c, ids))
		return true;
	for (size_t i = 0; yd_kind(d, ids) == YD_SEQUENCE && i < yd_len(d, ids); i++)
		if (cluster_unknown(c, yd_item(d, ids, i)))
			return true;
	return false;
}

const char *cluster_capacity_type(const struct cluster *c, yd_node queue)
{
	yd_node n = yd_get(c->doc, queue, "CapacityType");
	if (cluster_unknown(c, n))
		return NULL;
	const char *t = yd_str(c->doc, n, NULL);
	return t ? t : "ONDEMAND";
}

size_t cluster_instance_types(const struct cluster *c, yd_node cr, yd_node *out, size_t max)
{
	const yamldoc *d = c->doc;
	size_t n = 0;
	yd_node single = yd_get(d, cr, "InstanceType");
	if (yd_kind(d, single) == YD_SCALAR && max)
		out[n++] = single;
	yd_node list = yd_get(d, cr, "Instances");
	for (size_t i = 0; yd_kind(d, list) == YD_SEQUENCE && i < yd_len(d, list); i++) {
		yd_node t = yd_get(d, yd_item(d, list, i), "InstanceType");
		if (yd_kind(d, t) == YD_SCALAR && n < max)
			out[n++] = t;
	}
	return n;
}

const struct instance_type *cluster_instance(const struct cluster *c, yd_node type)
{
	size_t len;
	const char *s = yd_str(c->doc, type, &len);
	return s ? catalog_find(s, len) : NULL;
}

bool cluster_int(const struct cluster *c, yd_node n, long long *out)
{
	return schema_read_int(c->doc, n, out);
}

bool cluster_bool(const struct cluster *c, yd_node n, bool *out)
{
	return schema_read_bool(c->doc, n, out);
}

bool cluster_flag(const struct cluster *c, yd_node map, const char *key)
{
	bool v = false;
	return cluster_bool(c, yd_get(c->doc, map, key), &v) && v;
}

size_t cluster_action_scripts(const struct cluster *c, yd_node actions, yd_node *out, size_t max)
{
	static const char *const events[] = { "OnNodeStart", "OnNodeConfigured", "OnNodeUpdated" };
	const yamldoc *d = c->doc;
	size_t n = 0;
	for (size_t e = 0; e < sizeof events / sizeof events[0]; e++) {
		yd_node ev = yd_get(d, actions, events[e]);
		yd_node seq = yd_get(d, ev, "Sequence");
		if (yd_get(d, ev, "Script") && n < max)
			out[n++] = yd_get(d, ev, "Script");
		for (size_t i = 0; yd_kind(d, seq) == YD_SEQUENCE && i < yd_len(d, seq) && n < max; i++)
			if (yd_get(d, yd_item(d, seq, i), "Script"))
				out[n++] = yd_get(d, yd_item(d, seq, i), "Script");
	}
	return n;
}

void cluster_placement_of(const struct cluster *c, yd_node queue, yd_node cr,
		     struct cluster_placement *out)
{
	const yamldoc *d = c->doc;
	memset(out, 0, sizeof *out);
	yd_node pg = yd_get(d, yd_get(d, cr, "Networking"), "PlacementGroup");
	if (!pg)
		pg = yd_get(d, yd_get(d, queue, "Networking"), "PlacementGroup");
	if (yd_kind(d, pg) != YD_MAPPING)
		return;
	out->map = pg;
	out->enabled = yd_get(d, pg, "Enabled");
	bool v;
	if (cluster_bool(c, out->enabled, &v)) {
		out->enabled_true = v;
		out->enabled_false = !v;
	}
	out->name = yd_get(d, pg, "Name");
	out->id = yd_get(d, pg, "Id");
	out->unknown = cluster_unknown(c, out->enabled) || cluster_unknown(c, out->name) ||
		       cluster_unknown(c, out->id);
	out->active = out->enabled_true ||
		      (!out->enabled_false && (out->name || out->id));
}

long long cluster_queue_max_nodes(const struct cluster *c, yd_node queue)
{
	const yamldoc *d = c->doc;
	yd_node crs = cluster_compute_resources(c, queue);
	long long total = 0;
	for (size_t i = 0; i < yd_len(d, crs); i++) {
		long long max = 10; /* ParallelCluster's default MaxCount */
		yd_node n = yd_get(d, yd_item(d, crs, i), "MaxCount");
		if (cluster_unknown(c, n))
			return -1;
		cluster_int(c, n, &max);
		if (max > 0)
			total += max;
	}
	return total;
}
