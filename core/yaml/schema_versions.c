/* The release tags: x-since and x-until on a property's schema (the key)
 * or beside an enum (its values), checked against the release the caller
 * names (schema.h). A tag that does not parse is the schema's fault. */
#include <string.h>

#include "schema_internal.h"

/* The tag's version; false (after an SF_SCHEMA error) when it is not one. */
static bool tag_version(struct run *r, yd_node tag, yd_node n, struct version *out,
			struct schema_errors *out_errs)
{
	size_t len;
	const char *s = yd_str(r->s->doc, tag, &len);
	if (s && version_parse(s, len, out))
		return true;
	sch_err_add(out_errs, SF_SCHEMA, n, n, NULL, "the schema has a bad release tag '%s' here",
		    s ? s : "(not a string)");
	return false;
}

/* Whether the release lacks what the tag marks: older than its x-since,
 * or at or after its x-until. */
static bool release_lacks(const struct run *r, enum kw kw, struct version tagged)
{
	int c = version_cmp(r->release, tagged);
	return kw == KW_SINCE ? c < 0 : c >= 0;
}

bool sch_check_key_release(struct run *r, const struct compiled *c, yd_node n, yd_node holder,
			   struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	if (!r->versions)
		return false;
	for (enum kw kw = KW_SINCE; kw <= KW_UNTIL; kw++) {
		yd_node tag = c->kw[kw];
		struct version v;
		if (!tag || yd_kind(sd, tag) != YD_SCALAR || !tag_version(r, tag, n, &v, out))
			continue;
		if (!release_lacks(r, kw, v))
			continue;
		const char *key = holder ? yd_str(r->doc, holder, NULL) : NULL;
		yd_node at = holder ? holder : n;
		if (kw == KW_SINCE)
			sch_err_add(out, SF_KEY_SINCE, n, at, NULL,
				    "'%s' needs %s %s or later; the target is %s", key ? key : "this key",
				    r->product, version_release_text(v, 1).s,
				    version_text(r->release, 1).s);
		else
			sch_err_add(out, SF_KEY_UNTIL, n, at, NULL,
				    "'%s' was removed in %s %s; the target is %s", key ? key : "this key",
				    r->product, version_release_text(v, 1).s,
				    version_text(r->release, 1).s);
		return true;
	}
	return false;
}

void sch_check_value_release(struct run *r, const struct compiled *c, yd_node n,
			     struct schema_errors *out)
{
	const yamldoc *sd = r->s->doc;
	const char *value = yd_str(r->doc, n, NULL);
	if (!r->versions || !value)
		return;
	for (enum kw kw = KW_SINCE; kw <= KW_UNTIL; kw++) {
		yd_node tags = c->kw[kw];
		yd_node tag = yd_kind(sd, tags) == YD_MAPPING ? yd_get(sd, tags, value) : 0;
		struct version v;
		if (!tag || !tag_version(r, tag, n, &v, out) || !release_lacks(r, kw, v))
			continue;
		if (kw == KW_SINCE)
			sch_err_add(out, SF_SINCE, n, n, NULL, "'%s' needs %s %s or later; the target is %s",
				    value, r->product, version_release_text(v, 1).s,
				    version_text(r->release, 1).s);
		else
			sch_err_add(out, SF_UNTIL, n, n, NULL, "'%s' was removed in %s %s; the target is %s",
				    value, r->product, version_release_text(v, 1).s,
				    version_text(r->release, 1).s);
	}
}
