/* Matching the items of two versions of a list by their update key, as
 * ParallelCluster does: each new item pairs with the first old item whose
 * key value is equal (items without the key are alike). Sorted, so that
 * a list of thousands of items costs n log n, not n squared. */
#ifndef TF_CLUSTER_MATCH_H
#define TF_CLUSTER_MATCH_H

#include <stddef.h>

#include "yamldoc.h"

struct cluster_match {
	struct cluster_match_key *v;
	size_t n;
	const yamldoc *doc;
};

/* Indexes the n items of list (in doc) by the value of key. */
void cluster_match_init(struct cluster_match *m, const yamldoc *doc, yd_node list, size_t n,
			const char *key);
/* The index of the first item whose key equals value (a node of doc),
 * or SIZE_MAX. A key that is a mapping or sequence matches nothing. */
size_t cluster_match_find(const struct cluster_match *m, const yamldoc *doc, yd_node value);
void cluster_match_free(struct cluster_match *m);

#endif
