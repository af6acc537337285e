/* The tools' input and output schemas (schemas/mcp.schema.json, compiled
 * into the binary): validating arguments with the project's own JSON
 * Schema validator, and sending each schema whole. A client reads a
 * tool's schema on its own, so every $ref is written out in place (the
 * referring object's own keys win over the referred one's). */
#include <stdio.h>
#include <string.h>

#include "mcp.h"
#include "schema.h"

enum { MAX_DEPTH = 32, MAX_OVER = 8 };

static schema *tools_schema(void)
{
	return schema_embedded("mcp.schema.json");
}

static yd_node def_node(const yamldoc *d, const char *name)
{
	return d ? yd_get(d, yd_get(d, yd_root(d), "$defs"), name) : 0;
}

/* "#/$defs/NAME" */
static yd_node ref_target(const yamldoc *d, yd_node ref)
{
	const char *p = yd_str(d, ref, NULL);
	return p && !strncmp(p, "#/$defs/", 8) ? def_node(d, p + 8) : 0;
}

static bool put_node(const yamldoc *d, yd_node n, struct buf *out, unsigned depth);

static bool overridden(const yamldoc *d, const yd_node *over, size_t n_over, const char *key)
{
	for (size_t i = 0; i < n_over; i++)
		if (yd_get(d, over[i], key))
			return true;
	return false;
}

/* The members of mapping m, with those of what its $ref refers to first;
 * a key of a mapping in over (the referring ones) is left to it. */
static bool put_members(const yamldoc *d, yd_node m, yd_node *over, size_t n_over, bool *first,
			struct buf *out, unsigned depth)
{
	yd_node ref = yd_get(d, m, "$ref");
	if (ref) {
		yd_node t = ref_target(d, ref);
		if (!t || n_over == MAX_OVER || depth > MAX_DEPTH)
			return false;
		over[n_over] = m;
		if (!put_members(d, t, over, n_over + 1, first, out, depth + 1))
			return false;
	}
	for (size_t i = 0; i < yd_len(d, m); i++) {
		size_t klen;
		const char *key = yd_str(d, yd_key(d, m, i), &klen);
		if (!key || !strcmp(key, "$ref") || overridden(d, over, n_over, key))
			continue;
		buf_puts(out, *first ? "" : ",");
		*first = false;
		json_put_str(out, key, klen);
		buf_putc(out, ':');
		if (!put_node(d, yd_value(d, m, i), out, depth + 1))
			return false;
	}
	return true;
}

static bool put_node(const yamldoc *d, yd_node n, struct buf *out, unsigned depth)
{
	if (depth > MAX_DEPTH)
		return false;
	switch (yd_kind(d, n)) {
	case YD_MAPPING: {
		yd_node over[MAX_OVER];
		bool first = true;
		buf_putc(out, '{');
		if (!put_members(d, n, over, 0, &first, out, depth))
			return false;
		buf_putc(out, '}');
		return true;
	}
	case YD_SEQUENCE:
		buf_putc(out, '[');
		for (size_t i = 0; i < yd_len(d, n); i++) {
			buf_puts(out, i ? "," : "");
			if (!put_node(d, yd_item(d, n, i), out, depth + 1))
				return false;
		}
		buf_putc(out, ']');
		return true;
	default:
		return json_put_scalar(d, n, out);
	}
}

bool mcp_schema_put(const char *def, struct buf *out)
{
	schema *s = tools_schema();
	const yamldoc *d = s ? schema_document(s) : NULL;
	yd_node n = def_node(d, def);
	size_t at = out->len;
	if (n && put_node(d, n, out, 0))
		return true;
	out->len = at;
	if (out->p)
		out->p[at] = '\0';
	return false;
}

/* "files[0].pathz": the path of n below the arguments at root. */
static void arg_path(const yamldoc *doc, yd_node root, yd_node n, struct buf *out)
{
	struct buf whole = BUF_INIT, base = BUF_INIT;
	yd_path_dotted(doc, n, &whole);
	yd_path_dotted(doc, root, &base);
	const char *p = whole.p ? whole.p : "";
	if (base.len && !strncmp(p, base.p, base.len))
		p += base.len + (p[base.len] == '.');
	buf_puts(out, *p ? p : "(the arguments)");
	buf_free(&whole);
	buf_free(&base);
}

bool mcp_schema_check(const char *def, const yamldoc *doc, yd_node n, struct buf *out)
{
	schema *s = tools_schema();
	yd_node sn = s ? def_node(schema_document(s), def) : 0;
	if (!sn) {
		buf_printf(out, "the schema %s is not built in", def);
		return false;
	}
	struct schema_errors errs = { 0 };
	schema_validate_at(s, doc, n, sn, NULL, &errs);
	for (size_t i = 0; i < errs.len; i++) {
		const struct schema_error *e = &errs.v[i];
		buf_puts(out, i ? "\n" : "");
		arg_path(doc, n, e->node, out);
		buf_printf(out, ": %s", e->msg);
		if (e->suggest)
			buf_printf(out, " (did you mean '%s'?)", e->suggest);
		else if (e->help)
			buf_printf(out, " (%s)", e->help);
	}
	bool ok = errs.len == 0;
	schema_errors_free(&errs);
	return ok;
}
