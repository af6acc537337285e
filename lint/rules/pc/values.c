/* Single values that need facts beyond the schema: instance types (the
 * catalog), regions (ParallelCluster's list) and names that must be
 * unique. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pc.h"
#include "regions.h"
#include "text.h"
#include "xalloc.h"

static void check_region(const struct pc *pc)
{
	yd_node r = yd_get(pc->cl->doc, pc->cl->root, "Region");
	const char *s = yd_str(pc->cl->doc, r, NULL);
	if (!s || yd_type(pc->cl->doc, r) != YD_T_STRING || region_supported(s))
		return;
	struct diag *d = pc_report(pc, R_PC1003, r,
				   "region '%s' is not one ParallelCluster supports", s);
	const char *near = region_nearest(s);
	if (near)
		diag_set_help(d, "did you mean '%s'?", near);
}

static void check_type(const struct pc *pc, yd_node t)
{
	size_t len;
	const char *s = yd_str(pc->cl->doc, t, &len);
	if (!s || yd_type(pc->cl->doc, t) != YD_T_STRING)
		return;
	char suggestion[64];
	switch (catalog_check_name(s, len, suggestion, sizeof suggestion)) {
	case CATALOG_KNOWN:
		return;
	case CATALOG_UNKNOWN_PLAUSIBLE:
		pc_report(pc, R_PC1001, t,
			  "instance type '%s' is not in the catalog; EFA and accelerator checks skip it", s);
		return;
	case CATALOG_INVALID: {
		struct diag *d = pc_report(pc, R_PC1002, t, "'%s' cannot be an EC2 instance type", s);
		if (suggestion[0])
			diag_set_help(d, "did you mean '%s'?", suggestion);
		return;
	}
	}
}

static void check_types_in(const struct pc *pc, yd_node list, const char *key)
{
	const yamldoc *d = pc->cl->doc;
	for (size_t i = 0; yd_kind(d, list) == YD_SEQUENCE && i < yd_len(d, list); i++) {
		yd_node item = yd_item(d, list, i);
		yd_node t = yd_get(d, item, key);
		/* AWS Batch also takes "optimal" and bare families such as c5 */
		for (size_t j = 0; yd_kind(d, t) == YD_SEQUENCE && j < yd_len(d, t); j++) {
			const char *s = yd_str(d, yd_item(d, t, j), NULL);
			if (s && strchr(s, '.'))
				check_type(pc, yd_item(d, t, j));
		}
		if (yd_kind(d, t) == YD_SCALAR)
			check_type(pc, t);
	}
}

static void check_instance_types(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	check_type(pc, yd_get(d, yd_get(d, pc->cl->root, "HeadNode"), "InstanceType"));
	yd_node queues = cluster_queues(pc->cl);
	for (size_t i = 0; i < yd_len(d, queues); i++) {
		yd_node crs = cluster_compute_resources(pc->cl, yd_item(d, queues, i));
		for (size_t j = 0; j < yd_len(d, crs); j++) {
			yd_node types[64];
			size_t n = cluster_instance_types(pc->cl, yd_item(d, crs, j), types, 64);
			for (size_t k = 0; k < n; k++)
				check_type(pc, types[k]);
		}
	}
	check_types_in(pc, yd_get(d, yd_get(d, pc->cl->root, "LoginNodes"), "Pools"), "InstanceType");
	yd_node batch = yd_get(d, yd_get(d, pc->cl->root, "Scheduling"), "AwsBatchQueues");
	for (size_t i = 0; yd_kind(d, batch) == YD_SEQUENCE && i < yd_len(d, batch); i++)
		check_types_in(pc, yd_get(d, yd_item(d, batch, i), "ComputeResources"),
			       "InstanceTypes");
}

struct named {
	const char *s;
	size_t len;
	size_t index; /* order in the list, so the later one is reported */
	yd_node node;
};

static int named_cmp(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	int c = memcmp(a->s, b->s, a->len);
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static bool same_text(const struct named *a, const struct named *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* Reports each value that repeats an earlier one; sorting keeps a
 * 20,000-queue file linear-logarithmic. */
static void report_repeats(const struct pc *pc, struct named *v, size_t n,
			   const char *what, const char *verb)
{
	if (n > 1)
		qsort(v, n, sizeof *v, named_cmp);
	size_t first = 0;
	for (size_t i = 1; i < n; i++) {
		if (!same_text(&v[i], &v[first])) {
			first = i;
			continue;
		}
		pc_report(pc, R_PC2206, v[i].node, "%s '%s' is already %s at line %u",
			  what, v[i].s, verb, yd_span(pc->cl->doc, v[first].node).line);
	}
}

/* Reports every item of list whose `key` (found by get) repeats an
 * earlier item's. */
static void unique_by(const struct pc *pc, yd_node list,
		      yd_node (*get)(const struct pc *, yd_node, const char *),
		      const char *key, const char *what, const char *verb)
{
	const yamldoc *d = pc->cl->doc;
	if (yd_kind(d, list) != YD_SEQUENCE)
		return;
	size_t n = yd_len(d, list), m = 0;
	struct named *v = xcalloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; i < n; i++) {
		yd_node node = get(pc, yd_item(d, list, i), key);
		size_t len;
		const char *s = yd_str(d, node, &len);
		if (s)
			v[m++] = (struct named){ s, len, i, node };
	}
	report_repeats(pc, v, m, what, verb);
	free(v);
}

static yd_node get_key(const struct pc *pc, yd_node item, const char *key)
{
	return yd_get(pc->cl->doc, item, key);
}

/* Existing volumes, file systems and caches can be mounted once. */
static const struct {
	const char *settings, *key;
} storage_ids[] = {
	{ "EbsSettings", "VolumeId" }, { "EfsSettings", "FileSystemId" },
	{ "FsxLustreSettings", "FileSystemId" }, { "FsxOntapSettings", "VolumeId" },
	{ "FsxOpenZfsSettings", "VolumeId" }, { "FileCacheSettings", "FileCacheId" },
};

static yd_node storage_id(const struct pc *pc, yd_node storage)
{
	for (size_t i = 0; i < sizeof storage_ids / sizeof storage_ids[0]; i++) {
		yd_node id = yd_get(pc->cl->doc, yd_get(pc->cl->doc, storage, storage_ids[i].settings),
				    storage_ids[i].key);
		if (id)
			return id;
	}
	return 0;
}

static yd_node get_storage_id(const struct pc *pc, yd_node storage, const char *unused)
{
	(void)unused;
	return storage_id(pc, storage);
}

static void check_unique_names(const struct pc *pc)
{
	const yamldoc *d = pc->cl->doc;
	yd_node queues = cluster_queues(pc->cl);
	unique_by(pc, queues, get_key, "Name", "queue name", "used");
	for (size_t i = 0; i < yd_len(d, queues); i++)
		unique_by(pc, cluster_compute_resources(pc->cl, yd_item(d, queues, i)), get_key,
			  "Name", "compute resource name", "used");
	yd_node storages = yd_get(d, pc->cl->root, "SharedStorage");
	unique_by(pc, storages, get_key, "Name", "storage name", "used");
	unique_by(pc, storages, get_storage_id, NULL, "storage id", "mounted");
	unique_by(pc, yd_get(d, yd_get(d, pc->cl->root, "LoginNodes"), "Pools"), get_key,
		  "Name", "login pool name", "used");
}

void pc_check_values(const struct pc *pc)
{
	check_region(pc);
	check_instance_types(pc);
	check_unique_names(pc);
}
