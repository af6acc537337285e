#include "cluster_match.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_diff.h"
#include "xalloc.h"

/* A key value in an order that puts Python-equal values side by side:
 * absent, then numbers by value, then strings by bytes. */
enum key_class { KEY_ABSENT, KEY_NUMBER, KEY_STRING, KEY_OTHER };

struct cluster_match_key {
	enum key_class cls;
	double num;
	const char *s;
	size_t len;
	yd_node node;
	size_t index;
};

static struct cluster_match_key key_of(const yamldoc *d, yd_node n, size_t index)
{
	struct cluster_match_key k = { .node = n, .index = index };
	if (cluster_value_absent(d, n))
		k.cls = KEY_ABSENT;
	else if (yd_kind(d, n) != YD_SCALAR)
		k.cls = KEY_OTHER;
	else if (cluster_value_number(d, n, &k.num))
		k.cls = isnan(k.num) ? KEY_OTHER : KEY_NUMBER;
	else if (yd_type(d, n) == YD_T_STRING)
		k.s = yd_str(d, n, &k.len), k.cls = KEY_STRING;
	else
		k.cls = KEY_OTHER;
	return k;
}

/* By value only; 0 when the values may be equal. */
static int value_cmp(const struct cluster_match_key *a, const struct cluster_match_key *b)
{
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->cls == KEY_NUMBER)
		return (a->num > b->num) - (a->num < b->num);
	if (a->cls == KEY_STRING) {
		int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
		return c ? c : (a->len > b->len) - (a->len < b->len);
	}
	return 0;
}

static int key_cmp(const void *pa, const void *pb)
{
	const struct cluster_match_key *a = pa, *b = pb;
	int c = value_cmp(a, b);
	return c ? c : (a->index > b->index) - (a->index < b->index);
}

void cluster_match_init(struct cluster_match *m, const yamldoc *doc, yd_node list, size_t n,
			const char *key)
{
	m->doc = doc;
	m->n = n;
	m->v = xcalloc(n ? n : 1, sizeof *m->v);
	for (size_t i = 0; i < n; i++)
		m->v[i] = key_of(doc, yd_get(doc, yd_item(doc, list, i), key), i);
	qsort(m->v, n, sizeof *m->v, key_cmp);
}

size_t cluster_match_find(const struct cluster_match *m, const yamldoc *doc, yd_node value)
{
	struct cluster_match_key probe = key_of(doc, value, 0);
	if (probe.cls == KEY_OTHER)
		return SIZE_MAX;
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (value_cmp(&m->v[mid], &probe) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* equal by class and value; a huge integer rounds, so check */
	for (size_t i = lo; i < m->n && value_cmp(&m->v[i], &probe) == 0; i++)
		if (probe.cls == KEY_ABSENT || cluster_value_eq(m->doc, m->v[i].node, doc, value))
			return m->v[i].index;
	return SIZE_MAX;
}

void cluster_match_free(struct cluster_match *m)
{
	free(m->v);
	m->v = NULL;
	m->n = 0;
}
