/* Where an object of a schema can stand: the object schemas the walk
 * reaches from the root through properties, items and $ref, each once,
 * with the path of keys that reaches it first (the shortest), and a walk
 * that starts at one of them. A part of a document (a fragment: a lone
 * SlurmQueues list, a compute resource kept apart) is checked from the
 * place its keys belong to. */
#include <stdlib.h>
#include <string.h>

#include "schema_internal.h"
#include "xalloc.h"

/* The schema sn stands for once its $refs are followed. */
static yd_node resolved(schema *s, yd_node sn)
{
	for (unsigned hops = 0; sn && hops < 64; hops++) {
		const struct compiled *c = sch_compile(s, sn);
		if (!c || !c->ref)
			return sn;
		sn = c->ref;
	}
	return sn;
}

struct pending {
	yd_node sn;
	char *path;
	bool item;
};

static void place_add(struct schema_places *p, size_t *cap, yd_node sn, char *path, bool item)
{
	p->v = xgrow(p->v, cap, p->len + 1, sizeof *p->v);
	p->v[p->len++] = (struct schema_place){ sn, path, item };
}

/* A path and one more step: ".name" (none at the root) or "[]". */
static char *path_step(const char *path, const char *name, size_t len)
{
	size_t pl = strlen(path), dot = name && *path, add = name ? len : 2;
	char *p = xmalloc(pl + dot + add + 1);
	memcpy(p, path, pl);
	p[pl] = '.';
	memcpy(p + pl + dot, name ? name : "[]", add);
	p[pl + dot + add] = '\0';
	return p;
}

/* Breadth first, so that a schema's place is the shortest path to it: a
 * schema is queued once, the first time the walk reaches it, and only
 * then is its path written. */
static void find_places(schema *s, struct schema_places *out)
{
	const yamldoc *sd = s->doc;
	bool *seen = xcalloc(s->n, sizeof *seen);
	struct pending *q = NULL;
	size_t head = 0, len = 0, cap = 0, out_cap = 0;
	q = xgrow(q, &cap, 1, sizeof *q);
	yd_node root = resolved(s, yd_root(sd));
	q[len++] = (struct pending){ root, xstrdup(""), false };
	if (root && root < s->n)
		seen[root] = true;
	while (head < len) {
		struct pending at = q[head++];
		const struct compiled *c = at.sn && at.sn < s->n ? sch_compile(s, at.sn) : NULL;
		if (!c) {
			free(at.path);
			continue;
		}
		yd_node props = c->kw[KW_PROPERTIES], items = c->kw[KW_ITEMS];
		size_t n_props = props ? yd_len(sd, props) : 0;
		for (size_t i = 0; i <= n_props; i++) {
			bool item = i == n_props;
			yd_node child = item ? (items && yd_kind(sd, items) == YD_MAPPING ? items : 0)
					     : yd_value(sd, props, i);
			size_t name_len = 0;
			const char *name = item ? NULL : yd_str(sd, yd_key(sd, props, i), &name_len);
			yd_node sn = child ? resolved(s, child) : 0;
			if (!sn || sn >= s->n || seen[sn] || (!item && !name))
				continue;
			seen[sn] = true;
			q = xgrow(q, &cap, len + 1, sizeof *q);
			q[len++] = (struct pending){ sn, path_step(at.path, name, name_len), item };
		}
		if (props)
			place_add(out, &out_cap, at.sn, at.path, at.item);
		else
			free(at.path);
	}
	free(q);
	free(seen);
}

const struct schema_places *schema_places(schema *s)
{
	if (!s->places) {
		s->places = xcalloc(1, sizeof *s->places);
		find_places(s, s->places);
	}
	return s->places;
}

void sch_places_free(struct schema_places *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->len; i++)
		free(p->v[i].path);
	free(p->v);
	free(p);
}

size_t schema_property_count(schema *s, yd_node sn)
{
	const struct compiled *c = sn < s->n ? sch_compile(s, sn) : NULL;
	return c && c->kw[KW_PROPERTIES] ? yd_len(s->doc, c->kw[KW_PROPERTIES]) : 0;
}

const char *schema_property_name(schema *s, yd_node sn, size_t i, size_t *len)
{
	const struct compiled *c = sch_compile(s, sn);
	return yd_str(s->doc, yd_key(s->doc, c->kw[KW_PROPERTIES], i), len);
}

bool schema_has_property(schema *s, yd_node sn, const char *key, size_t len)
{
	const struct compiled *c = sn < s->n ? sch_compile(s, sn) : NULL;
	return c && c->kw[KW_PROPERTIES] && sch_property(s, c, key, len);
}

void schema_validate_at(schema *s, const yamldoc *doc, yd_node root, yd_node sn,
			const struct version *release, struct schema_errors *errs)
{
	const char *product = yd_str(s->doc, yd_get(s->doc, yd_root(s->doc), "x-product"), NULL);
	struct run r = { .s = s, .doc = doc, .versions = release != NULL,
			 .product = product ? product : "release" };
	if (release)
		r.release = *release;
	r.coerce = yd_str_eq(s->doc, yd_get(s->doc, yd_root(s->doc), "x-coerce"), "marshmallow");
	if (root && sn)
		sch_validate(&r, sn, root, 0, errs);
}
