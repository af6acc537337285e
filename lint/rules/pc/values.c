/* PC100x: single values that need facts beyond the schema: instance
 * types (the catalog), regions (ParallelCluster's list), and characters
 * that only look like ASCII. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "pc.h"
#include "regions.h"
#include "text.h"
#include "xalloc.h"

/* PC1003 unsupported-region */
static void unsupported_region(const struct pc *pc)
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

/* PC1001 unknown-instance-type */
static void unknown_instance_type(const struct pc *pc, yd_node t, const char *s)
{
	pc_report(pc, R_PC1001, t,
		  "instance type '%s' is not in the catalog; EFA and accelerator checks skip it", s);
}

/* PC1005 provisional-instance-type: the checks run on the catalog's
 * figures; this says they are not yet EC2's. */
static void provisional_instance_type(const struct pc *pc, yd_node t, const struct instance_type *it)
{
	struct diag *d = pc_report(pc, R_PC1005, t,
		"instance type '%s' is provisional in the catalog, its name and per-instance figures not yet confirmed by EC2: %s",
		it->name, it->provisional);
	diag_set_help(d, "`trainforge plan` shows which figures are derived; check them against AWS's page for the type");
}

/* PC1002 invalid-instance-type */
static void invalid_instance_type(const struct pc *pc, yd_node t, const char *s,
				  const char *suggestion)
{
	struct diag *d = pc_report(pc, R_PC1002, t, "'%s' cannot be an EC2 instance type", s);
	if (suggestion[0])
		diag_set_help(d, "did you mean '%s'?", suggestion);
}

static void check_type(const struct pc *pc, yd_node t)
{
	size_t len;
	const char *s = yd_str(pc->cl->doc, t, &len);
	if (!s || yd_type(pc->cl->doc, t) != YD_T_STRING)
		return;
	char suggestion[64];
	switch (catalog_check_name(s, len, suggestion, sizeof suggestion)) {
	case CATALOG_KNOWN: {
		const struct instance_type *it = catalog_find(s, len);
		if (it->provisional)
			provisional_instance_type(pc, t, it);
		return;
	}
	case CATALOG_UNKNOWN_PLAUSIBLE:
		unknown_instance_type(pc, t, s);
		return;
	case CATALOG_INVALID:
		invalid_instance_type(pc, t, s, suggestion);
		return;
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

/* The byte where a comment starts on this line, or len. */
static size_t comment_start(const char *p, size_t len)
{
	char quote = 0;
	for (size_t i = 0; i < len; i++) {
		if (quote) {
			if (p[i] == quote)
				quote = 0;
		} else if (p[i] == '"' || p[i] == '\'') {
			if (i == 0 || strchr(" \t:[{,-", p[i - 1]))
				quote = p[i];
		} else if (p[i] == '#' && (i == 0 || p[i - 1] == ' ' || p[i - 1] == '\t')) {
			return i;
		}
	}
	return len;
}

/* Whether any byte is outside ASCII, eight at a time: most configs are
 * pure ASCII, and a large one is scanned on every run. */
static bool has_non_ascii(const char *p, size_t len)
{
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t word;
		memcpy(&word, p + i, 8);
		if (word & UINT64_C(0x8080808080808080))
			return true;
	}
	for (; i < len; i++)
		if ((unsigned char)p[i] >= 0x80)
			return true;
	return false;
}

/* PC1004 non-ascii-lookalike: a hyphen pasted from a web page turns
 * `p5-48xlarge` into a string no AWS API knows, and the file still looks
 * right. Comments are left alone. */
static void non_ascii_lookalike(const struct pc *pc)
{
	size_t len;
	const char *p;
	/* look-alikes are non-ASCII: a file without such bytes has none */
	bool any = has_non_ascii(pc->cl->src->text, pc->cl->src->len);
	for (uint32_t line = 1; any && (p = source_line(pc->cl->src, line, &len)); line++) {
		size_t end = comment_start(p, len);
		uint32_t col = 1;
		for (size_t i = 0; i < end; col++) {
			size_t adv;
			int32_t cp = utf8_decode(p + i, end - i, &adv);
			const struct lookalike *l = cp >= 0x80 ? text_lookalike(cp) : NULL;
			if (l) {
				struct diag *d = diag_add(pc->diags, pc->cl->src, R_PC1004, line, col,
							  line, col + 1,
							  "U+%04X (%s) looks like '%s' but is not ASCII",
							  (unsigned)cp, l->name, l->ascii);
				diag_set_help(d, "replace it with '%s'", l->ascii);
				diag_set_fix(d, l->ascii);
				yd_node at = yd_at(pc->cl->doc, line, col);
				if (at) {
					struct buf path = BUF_INIT;
					yd_path_json(pc->cl->doc, at, &path);
					d->yaml_path = buf_detach(&path);
				}
			}
			i += adv;
		}
	}
}

void pc_check_values(const struct pc *pc)
{
	unsupported_region(pc);
	check_instance_types(pc);
	non_ascii_lookalike(pc);
}
