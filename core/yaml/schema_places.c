/* Where an object of a schema can stand: the object schemas the walk
 * reaches from the root through properties, items and $ref, each once,
 * with the path of keys that reaches it first (the shortest), and a walk
 * that starts at one of them. A part of a document (a fragment: a lone
 * SlurmQueues list, a compute resource kept apart) is checked from the
 * place its keys belong to. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
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

/* Breadth first, so that a schema's place is the shortest path to it. */
static void find_places(schema *s, struct schema_places *out)
{
	const yamldoc *sd = s->doc;
	bool *seen = xcalloc(s->n, sizeof *seen);
	struct pending *q = NULL;
	size_t head = 0, len = 0, cap = 0, out_cap = 0;
	q = xgrow(q, &cap, 1, sizeof *q);
	q[len++] = (struct pending){ yd_root(sd), xstrdup(""), false };
	while (head < len) {
		struct pending at = q[head++];
		yd_node sn = resolved(s, at.sn);
		const struct compiled *c = sn && sn < s->n ? sch_compile(s, sn) : NULL;
		if (!c || seen[sn]) {
			free(at.path);
			continue;
		}
		seen[sn] = true;
		yd_node props = c->kw[KW_PROPERTIES], items = c->kw[KW_ITEMS];
		for (size_t i = 0; props && i < yd_len(sd, props); i++) {
			const char *name = yd_str(sd, yd_key(sd, props, i), NULL);
			if (!name)
				continue;
			struct buf b = BUF_INIT;
			buf_printf(&b, "%s%s%s", at.path, *at.path ? "." : "", name);
			q = xgrow(q, &cap, len + 1, sizeof *q);
			q[len++] = (struct pending){ yd_value(sd, props, i), buf_detach(&b), false };
		}
		if (items && yd_kind(sd, items) == YD_MAPPING) {
			struct buf b = BUF_INIT;
			buf_printf(&b, "%s[]", at.path);
			q = xgrow(q, &cap, len + 1, sizeof *q);
			q[len++] = (struct pending){ items, buf_detach(&b), true };
		}
		if (props)
			place_add(out, &out_cap, sn, at.path, at.item);
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
