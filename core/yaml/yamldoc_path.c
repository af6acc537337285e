/* The path from the root to a node, as findings show it:
 * ["Scheduling","SlurmQueues",0,"Name"] or Scheduling.SlurmQueues[0].Name.
 * Aliases make the tree a DAG; a node's path is where a depth-first walk
 * meets it first. One finding searches the tree; a file with many (one
 * per item of a long list) builds, once, an index of where the walk met
 * each node, so that findings do not cost a walk each. */
#include <stdlib.h>

#include "xalloc.h"
#include "yamldoc_internal.h"

/* Searches before the index (8 bytes a node) pays for itself. */
enum { PATH_SEARCHES = 8 };

/* Where the walk met a node: its container and its slot in the kids
 * (2i for the key of pair i, 2i + 1 for the value; i for an item). A
 * container of 0 means not met (or the root). */
struct yd_met {
	uint32_t node, slot;
};

/* A container met first as a key and entered later as a value: its own
 * path is the key's, those of its children go through the value. */
struct yd_met_key {
	yd_node node;
	struct yd_met key;
};

struct walk {
	yd_node node;
	uint32_t next; /* the next slot to visit */
	uint32_t slot; /* the slot of the child being visited */
};

static bool is_container(const struct yd_cell *c)
{
	return c->kind == YD_MAPPING || c->kind == YD_SEQUENCE;
}

/* Depth-first from the root, values in order; a key is met only when it
 * is the target. Fills route (root first) and returns its length plus
 * one, or 0 when the walk does not meet target within its budget. */
static size_t path_search(const yamldoc *doc, yd_node target, struct yd_met **route)
{
	size_t cap = 0, n = 0, visits = 0;
	struct walk *st = xgrow(NULL, &cap, 1, sizeof *st);
	st[n++] = (struct walk){ doc->root, 0, 0 };
	while (n && visits++ < 4000000) {
		struct walk *top = &st[n - 1];
		if (top->node == target) {
			struct yd_met *r = xmalloc(n * sizeof *r);
			for (size_t i = 0; i + 1 < n; i++)
				r[i] = (struct yd_met){ st[i].node, st[i].slot };
			free(st);
			*route = r;
			return n;
		}
		const struct yd_cell *c = &doc->cells[top->node];
		if (!is_container(c) || top->next >= c->len) {
			n--;
			continue;
		}
		top->slot = top->next;
		if (c->kind == YD_MAPPING) {
			top->next += 2;
			if (doc->kids[c->off + top->slot] != target)
				top->slot++; /* the value */
		} else {
			top->next++;
		}
		yd_node child = doc->kids[c->off + top->slot];
		st = xgrow(st, &cap, n + 1, sizeof *st);
		st[n++] = (struct walk){ child, 0, 0 };
	}
	free(st);
	return 0;
}

static int met_key_cmp(const void *pa, const void *pb)
{
	const struct yd_met_key *a = pa, *b = pb;
	return (a->node > b->node) - (a->node < b->node);
}

/* The same walk over the whole tree, noting where it meets each node
 * first and where it enters each container. A container is entered once:
 * meeting it again (an alias) shows nothing new, which keeps the walk
 * linear. Keys are met but not entered, as in path_search. */
static void met_index(yamldoc *doc)
{
	struct yd_met *met = xcalloc(doc->n_cells, sizeof *met);
	unsigned char *entered = xcalloc(doc->n_cells, 1);
	size_t cap = 0, n = 0, cap_keys = 0;
	struct walk *st = xgrow(NULL, &cap, 1, sizeof *st);
	st[n++] = (struct walk){ doc->root, 0, 0 };
	entered[doc->root] = 1;
	while (n) {
		struct walk *top = &st[n - 1];
		const struct yd_cell *c = &doc->cells[top->node];
		if (!is_container(c) || top->next >= c->len) {
			n--;
			continue;
		}
		yd_node parent = top->node;
		uint32_t slot = top->next;
		if (c->kind == YD_MAPPING) {
			yd_node key = doc->kids[c->off + slot];
			if (!met[key].node)
				met[key] = (struct yd_met){ parent, slot };
			slot++;
		}
		top->next = slot + 1;
		yd_node child = doc->kids[c->off + slot];
		if (!met[child].node)
			met[child] = (struct yd_met){ parent, slot };
		if (entered[child] || !is_container(&doc->cells[child]))
			continue;
		if (met[child].slot != slot || met[child].node != parent) {
			doc->met_keys = xgrow(doc->met_keys, &cap_keys, doc->n_met_keys + 1,
					      sizeof *doc->met_keys);
			doc->met_keys[doc->n_met_keys++] = (struct yd_met_key){ child, met[child] };
			met[child] = (struct yd_met){ parent, slot };
		}
		entered[child] = 1;
		st = xgrow(st, &cap, n + 1, sizeof *st);
		st[n++] = (struct walk){ child, 0, 0 };
	}
	free(st);
	free(entered);
	if (doc->n_met_keys > 1)
		qsort(doc->met_keys, doc->n_met_keys, sizeof *doc->met_keys, met_key_cmp);
	doc->met = met;
}

/* Where the walk met target first: in met, unless it was a key that was
 * entered later. */
static struct yd_met first_met(const yamldoc *doc, yd_node target)
{
	struct yd_met_key want = { target, { 0, 0 } };
	const struct yd_met_key *k = doc->n_met_keys
		? bsearch(&want, doc->met_keys, doc->n_met_keys, sizeof want, met_key_cmp)
		: NULL;
	return k ? k->key : doc->met[target];
}

/* The route to target from the index, root first, as path_search. */
static size_t path_indexed(const yamldoc *doc, yd_node target, struct yd_met **route)
{
	if (target == doc->root) {
		*route = xmalloc(sizeof **route);
		return 1;
	}
	struct yd_met first = first_met(doc, target);
	size_t depth = 1;
	for (yd_node at = first.node; at != doc->root; at = doc->met[at].node) {
		if (!at || depth >= doc->n_cells)
			return 0;
		depth++;
	}
	struct yd_met *r = xmalloc(depth * sizeof *r);
	size_t i = depth;
	r[--i] = first;
	for (yd_node at = first.node; at != doc->root; at = doc->met[at].node)
		r[--i] = doc->met[at];
	*route = r;
	return depth + 1;
}

/* The index is made for a document read as const: it is a cache. */
static size_t path_find(const yamldoc *doc, yd_node target, struct yd_met **route)
{
	yamldoc *d = (yamldoc *)doc;
	if (!d->root || target >= d->n_cells)
		return 0;
	if (!d->met && ++d->path_searches > PATH_SEARCHES)
		met_index(d);
	return d->met ? path_indexed(d, target, route) : path_search(d, target, route);
}

static void path_write(const yamldoc *doc, yd_node n, struct buf *out, bool json)
{
	struct yd_met *route = NULL;
	size_t depth = path_find(doc, n, &route);
	if (!depth) {
		buf_puts(out, json ? "null" : "<unknown>");
		return;
	}
	if (json)
		buf_putc(out, '[');
	else if (depth == 1)
		buf_puts(out, "<root>");
	for (size_t i = 0; i + 1 < depth; i++) {
		if (doc->cells[route[i].node].kind == YD_MAPPING) {
			size_t len;
			const char *k = yd_str(doc, yd_key(doc, route[i].node, route[i].slot / 2), &len);
			if (json) {
				buf_puts(out, i ? ",\"" : "\"");
				buf_put_json(out, k ? k : "?", k ? len : 1);
				buf_putc(out, '"');
			} else {
				if (i)
					buf_putc(out, '.');
				buf_put(out, k ? k : "?", k ? len : 1);
			}
		} else {
			buf_printf(out, json ? (i ? ",%u" : "%u") : "[%u]", route[i].slot);
		}
	}
	if (json)
		buf_putc(out, ']');
	free(route);
}

void yd_path_json(const yamldoc *doc, yd_node n, struct buf *out)
{
	path_write(doc, n, out, true);
}

void yd_path_dotted(const yamldoc *doc, yd_node n, struct buf *out)
{
	path_write(doc, n, out, false);
}
