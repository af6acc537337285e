/* The explain and instances tools: a rule's page and examples from the
 * rule table, and the instance catalog as `trainforge instances --format
 * json` lists it, filtered by what the call asks. */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "commands.h"
#include "explain.h"
#include "mcp.h"
#include "rules.h"

static void put_example(struct buf *b, const char *key, const char *text, size_t len, bool first)
{
	buf_printf(b, "%s\"%s\":", first ? "" : ",", key);
	if (text)
		json_put_str(b, text, len);
	else
		buf_puts(b, "null");
}

void tool_explain(struct mcp_call *c)
{
	size_t len;
	const char *name = json_str(c->doc, c->args, "rule", &len);
	int rule = name ? rule_find(name, len) : -1;
	if (rule < 0) {
		mcp_fail(c, "unknown rule '%s': an ID such as PC2101 or a name such as "
			 "efa-without-placement-group (the resources trainforge://rules/ID list them)",
			 name ? name : "");
		return;
	}
	static const char *const fixes[] = { [FIX_NONE] = "none", [FIX_SAFE] = "safe",
					     [FIX_UNSAFE] = "unsafe" };
	const struct rule *r = &rule_table[rule];
	struct buf *b = &c->json;
	explain_write(&c->text, rule, EXPLAIN_MARKDOWN, 1);
	buf_printf(b, "{\"id\":\"%s\",\"name\":\"%s\",\"severity\":\"%s\",\"fix\":\"%s\",\"summary\":",
		   r->id, r->name, severity_name(r->level), fixes[rule_fixability((enum rule_id)rule)]);
	json_put_str(b, r->summary, strlen(r->summary));
	buf_puts(b, ",\"family\":");
	json_put_str(b, explain_family(rule), strlen(explain_family(rule)));
	buf_puts(b, ",\"area\":");
	json_put_str(b, explain_area(rule), strlen(explain_area(rule)));
	buf_puts(b, ",\"page\":");
	json_put_str(b, c->text.p, c->text.len);
	const struct explain *e = explain_find(rule);
	size_t cluster_len = 0;
	const char *cluster = explain_cluster(rule, &cluster_len);
	buf_puts(b, ",\"examples\":{");
	put_example(b, "bad", e ? e->bad : NULL, e ? e->bad_len : 0, true);
	put_example(b, "good", e ? e->good : NULL, e ? e->good_len : 0, false);
	put_example(b, "cluster", cluster, cluster_len, false);
	put_example(b, "badOld", e ? e->bad_old : NULL, e ? e->bad_old_len : 0, false);
	put_example(b, "goodOld", e ? e->good_old : NULL, e ? e->good_old_len : 0, false);
	buf_puts(b, "}}");
}

/* ---- instances ------------------------------------------------------- */

static bool str_at(const yamldoc *d, yd_node n, const char *path, const char *want)
{
	const char *s = json_str(d, n, path, NULL);
	return s && !strcmp(s, want);
}

static bool wanted(const struct mcp_call *c, const yamldoc *d, yd_node item)
{
	yd_node types = mcp_arg(c, "types");
	if (types) {
		bool listed = false;
		const char *name = json_str(d, item, "name", NULL);
		for (size_t i = 0; name && i < yd_len(c->doc, types) && !listed; i++)
			listed = yd_str_eq(c->doc, yd_item(c->doc, types, i), name);
		if (!listed)
			return false;
	}
	const char *accel = mcp_arg_str(c, "accelerator");
	if (accel && !str_at(d, item, "accelerators.kind", accel))
		return false;
	bool efa;
	if (json_bool(c->doc, mcp_arg(c, "efa"), &efa) && str_at(d, item, "efa.supported", "yes") != efa)
		return false;
	return true;
}

/* A number at path, or "?" when the catalog does not know it (null). */
static const char *figure(const yamldoc *d, yd_node n, const char *path)
{
	n = json_get(d, n, path);
	const char *s = n && !yd_quoted(d, n) ? yd_str(d, n, NULL) : NULL;
	return s && strcmp(s, "null") ? s : NULL;
}

/* One line of the text: what a person compares first. */
static void text_line(const yamldoc *d, yd_node item, struct buf *t)
{
	const char *name = json_str(d, item, "name", NULL), *kind = json_str(d, item, "accelerators.kind", NULL);
	const char *model = json_str(d, item, "accelerators.model", NULL);
	const char *count = figure(d, item, "accelerators.count");
	const char *mem = figure(d, item, "memoryGiB");
	const char *efa = json_str(d, item, "efa.supported", NULL);
	yd_node od = json_get(d, item, "price.onDemand");
	const char *usd = figure(d, od, "usdPerHour");
	const char *region = json_str(d, od, "region", NULL), *date = json_str(d, od, "date", NULL);
	buf_printf(t, "%-20s %s x %s, %s GiB, EFA %s, on-demand ", name ? name : "?",
		   count ? count : "?", model ? model : kind ? kind : "?", mem ? mem : "?", efa ? efa : "?");
	if (usd)
		buf_printf(t, "$%s/h (%s, %s)\n", usd, region ? region : "?", date ? date : "?");
	else
		buf_puts(t, "unknown\n");
}

void tool_instances(struct mcp_call *c)
{
	char *argv[] = { "instances", "--format", "json", "--family", NULL, NULL };
	const char *family = mcp_arg_str(c, "family");
	argv[4] = (char *)family;
	struct buf out = BUF_INIT, err = BUF_INIT;
	int rc = mcp_capture(cmd_instances, family ? 5 : 3, argv, &out, &err);
	yamldoc *d = rc == EXIT_CLEAN ? json_parse(out.p ? out.p : "", out.len) : NULL;
	yd_node list = d ? json_get(d, yd_root(d), "instances") : 0;
	if (!list) {
		mcp_fail(c, "%s", err.len ? err.p : "the catalog could not be listed");
		buf_free(&out);
		buf_free(&err);
		yamldoc_free(d);
		return;
	}
	struct buf *b = &c->json;
	buf_puts(b, "{\"schemaVersion\":1,\"instances\":[");
	size_t kept = 0;
	for (size_t i = 0; i < yd_len(d, list); i++) {
		yd_node item = yd_item(d, list, i);
		if (!wanted(c, d, item))
			continue;
		buf_puts(b, kept++ ? "," : "");
		json_put_node(d, item, 16, b);
		text_line(d, item, &c->text);
	}
	buf_puts(b, "],\"unknown\":[");
	yd_node types = mcp_arg(c, "types");
	size_t unknown = 0;
	for (size_t i = 0; types && i < yd_len(c->doc, types); i++) {
		size_t len;
		const char *name = yd_str(c->doc, yd_item(c->doc, types, i), &len);
		if (!name || catalog_find(name, len))
			continue;
		char suggestion[96];
		catalog_check_name(name, len, suggestion, sizeof suggestion);
		buf_puts(b, unknown++ ? ",{\"name\":" : "{\"name\":");
		json_put_str(b, name, len);
		buf_puts(b, ",\"suggestion\":");
		if (suggestion[0])
			json_put_str(b, suggestion, strlen(suggestion));
		else
			buf_puts(b, "null");
		buf_putc(b, '}');
		buf_printf(&c->text, "%s: not in the catalog%s%s%s\n", name,
			   suggestion[0] ? " (did you mean " : "", suggestion, suggestion[0] ? "?)" : "");
	}
	buf_puts(b, "]}");
	if (!kept && !unknown)
		buf_puts(&c->text, "No instance type matches.\n");
	buf_free(&out);
	buf_free(&err);
	yamldoc_free(d);
}
