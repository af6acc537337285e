/* What changed between two versions of a cluster config, found the way
 * ParallelCluster's own comparison finds it before `pcluster
 * update-cluster` judges each change: key by key along the update-policy
 * table, a section added or removed as one change, list items matched by
 * their update key (Name, InstanceType, Key...), so that reordered items
 * are unchanged and a renamed one is removed and added. No diagnostics:
 * the PC5 rules judge the changes. */
#ifndef TF_CLUSTER_DIFF_H
#define TF_CLUSTER_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "cluster.h"
#include "update_policy.h"

enum cdiff_op { CDIFF_ADDED, CDIFF_REMOVED, CDIFF_MODIFIED };

/* Deeper lists than the table has cannot occur; the bound is static. */
enum { CDIFF_MAX_SCOPE = 8 };

/* A list item on the way to a change (SlurmQueues[train]), in each
 * version; an item added or removed has only one side. */
struct cdiff_scope {
	const char *list;            /* the list's key, SlurmQueues */
	yd_node old_item, new_item;
};

struct cdiff_change {
	enum cdiff_op op;
	bool item;                   /* a whole list item added or removed */
	const struct up_entry *entry;/* NULL: no policy is known for the key */
	char *path;                  /* the parent: Scheduling.SlurmQueues[train] */
	char *key;                   /* MinCount; for an item, the list (ComputeResources) */
	yd_node old_value, new_value;/* 0 where absent; the item itself for an item */
	yd_node at;                  /* the new file's node to report at */
	yd_node old_at;              /* where it was (or its parent) in the old file */
	struct cdiff_scope scope[CDIFF_MAX_SCOPE];
	size_t n_scope;
};

struct cdiff {
	struct cdiff_change *v;
	size_t len, cap;
};

/* The changes from old to new at ParallelCluster version (0: newest),
 * appended to out in the new file's order, removals after what is left
 * of their parent. */
void cluster_diff(const struct cluster *old, const struct cluster *new, int version,
		  struct cdiff *out);
void cdiff_free(struct cdiff *d);

/* The list item of the change's scope whose list is `list`, in the old
 * (which 0) or new (which 1) version; 0 when there is none. */
yd_node cdiff_scope_item(const struct cdiff_change *ch, const char *list, int which);

/* Equality of two values as ParallelCluster compares the loaded YAML:
 * null and absent are alike, numbers by value (true is 1), mappings by
 * their keys, sequences in order. */
bool cluster_value_eq(const yamldoc *a, yd_node x, const yamldoc *b, yd_node y);

/* Null or absent: ParallelCluster reads both as None. */
bool cluster_value_absent(const yamldoc *doc, yd_node n);
/* Python's truth of the loaded value: false for null, false, 0, "" and
 * empty collections. ParallelCluster treats an empty section as absent. */
bool cluster_value_truthy(const yamldoc *doc, yd_node n);
/* A boolean, integer or float as a number (true is 1); false otherwise. */
bool cluster_value_number(const yamldoc *doc, yd_node n, double *out);

/* A short, one-line rendering of a value for messages: a scalar's text,
 * [a, b] or {N keys}. */
void cluster_value_text(const yamldoc *doc, yd_node n, struct buf *out);

#endif
