/* Resources: what an assistant reads instead of guessing. One page per
 * rule (as `trainforge explain --format markdown` prints it), the JSON
 * Schemas of the job spec, the ParallelCluster config (for the newest
 * release, as `trainforge schema` prints them), the settings file and
 * plan's cost inputs, and the instance catalog. A rule's page is also a
 * template, trainforge://rules/{rule}, by ID or name. Each is made in a
 * child process, as a tool call is. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "assets.h"
#include "commands.h"
#include "explain.h"
#include "fileio.h"
#include "mcp.h"
#include "rules.h"
#include "schema.h"
#include "target.h"

enum { E_NO_RESOURCE = -32002 }; /* the specification's "Resource not found" */

#define RULES_URI "trainforge://rules/"

static const struct schema_resource {
	const char *uri, *asset, *name, *title, *description;
	bool releases;  /* tagged by release: printed for the newest */
} schemas[] = {
	{ "trainforge://schema/jobspec", "jobspec.schema.json", "jobspec-schema",
	  "Job spec JSON Schema",
	  "The trainforge job spec (the input of gen and plan): every key with its description." , true },
	{ "trainforge://schema/parallelcluster", "parallelcluster.schema.json", "parallelcluster-schema",
	  "ParallelCluster 3 config JSON Schema",
	  "The AWS ParallelCluster 3 cluster config as the newest release (3.16) accepts it: every "
	  "key, type, enum and pattern, with descriptions.", true },
	{ "trainforge://schema/settings", "trainforge-config.schema.json", "settings-schema",
	  "Settings file (.trainforge.yaml) JSON Schema",
	  "The lint settings file: select, ignore, severity, per-file-ignores, cluster, target and "
	  "the rest.", false },
	{ "trainforge://schema/tco", "tco.schema.json", "tco-schema",
	  "Owned-cluster cost inputs JSON Schema",
	  "The figures of an owned cluster that plan's tco sets against the cloud.", false },
};

#define INSTANCES_URI "trainforge://instances"

static void put_resource(const struct mcp_server *s, struct buf *b, const char *uri,
			 const char *name, const char *title, const char *description,
			 const char *mime)
{
	buf_puts(b, "{\"uri\":");
	json_put_str(b, uri, strlen(uri));
	buf_puts(b, ",\"name\":");
	json_put_str(b, name, strlen(name));
	if (s->rev->has & REV_TITLE) {
		buf_puts(b, ",\"title\":");
		json_put_str(b, title, strlen(title));
	}
	buf_puts(b, ",\"description\":");
	json_put_str(b, description, strlen(description));
	buf_printf(b, ",\"mimeType\":\"%s\"}", mime);
}

void mcp_resources_list(struct mcp_server *s, const yamldoc *doc, yd_node id)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "{\"resources\":[");
	for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
		put_resource(s, &b, schemas[i].uri, schemas[i].name, schemas[i].title,
			     schemas[i].description, "application/json");
		buf_putc(&b, ',');
	}
	put_resource(s, &b, INSTANCES_URI, "instances", "EC2 instance catalog",
		     "Instance types with accelerators, memory, EFA and prices (region, date and source "
		     "of each), as trainforge instances --format json lists them.", "application/json");
	for (int i = 0; i < RULE__COUNT; i++) {
		char uri[64], name[96], title[160];
		snprintf(uri, sizeof uri, RULES_URI "%s", rule_table[i].id);
		snprintf(name, sizeof name, "%s %s", rule_table[i].id, rule_table[i].name);
		snprintf(title, sizeof title, "Rule %s: %s", rule_table[i].id, rule_table[i].name);
		buf_putc(&b, ',');
		put_resource(s, &b, uri, name, title, rule_table[i].summary, "text/markdown");
	}
	buf_puts(&b, "]}");
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
}

void mcp_resource_templates(struct mcp_server *s, const yamldoc *doc, yd_node id)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "{\"resourceTemplates\":[{\"uriTemplate\":\"" RULES_URI "{rule}\",\"name\":\"rule\",");
	if (s->rev->has & REV_TITLE)
		buf_puts(&b, "\"title\":\"A rule's page\",");
	buf_puts(&b, "\"description\":\"A rule's page: why it matters, a bad and a good example, how to "
		     "suppress it; {rule} is an ID (PC2101) or a name (efa-without-placement-group).\","
		     "\"mimeType\":\"text/markdown\"}]}");
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
}

/* ---- reading --------------------------------------------------------- */

struct reading {
	const struct mcp_server *s;
	const char *uri;
	int rule;                            /* >= 0: a rule's page */
	const struct schema_resource *schema;
};

static void put_contents(struct buf *b, const char *uri, const char *mime, const char *text,
			 size_t len)
{
	buf_puts(b, "{\"contents\":[{\"uri\":");
	json_put_str(b, uri, strlen(uri));
	buf_printf(b, ",\"mimeType\":\"%s\",\"text\":", mime);
	json_put_str(b, text ? text : "", len);
	buf_puts(b, "}]}");
}


static void read_child(void *ctx, int fd)
{
	const struct reading *r = ctx;
	struct buf text = BUF_INIT, out = BUF_INIT;
	const char *mime = "application/json";
	if (r->rule >= 0) {
		explain_write(&text, r->rule, EXPLAIN_MARKDOWN, 1);
		mime = "text/markdown";
	} else if (r->schema) {
		const struct asset *a = asset_find(r->schema->asset);
		if (a && r->schema->releases) {
			yamldoc *doc = yamldoc_parse(a->text, a->len, NULL);
			schema_print_release(doc, target_default().pc, &text);
			yamldoc_free(doc);
		} else if (a) {
			buf_put(&text, a->text, a->len);
		}
	} else {
		char *argv[] = { "instances", "--format", "json", NULL };
		struct buf err = BUF_INIT;
		mcp_capture(cmd_instances, 3, argv, &text, &err);
		buf_free(&err);
	}
	put_contents(&out, r->uri, mime, text.p, text.len);
	fd_write_all(fd, out.p, out.len);
	buf_free(&text);
	buf_free(&out);
}

void mcp_resources_read(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params)
{
	size_t len;
	const char *uri = json_str(doc, params, "uri", &len);
	if (!uri || memchr(uri, '\0', len)) {
		mcp_reply_error(s, doc, id, E_PARAMS, "resources/read needs a uri");
		return;
	}
	struct reading r = { s, uri, -1, NULL };
	bool known = !strcmp(uri, INSTANCES_URI);
	for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++)
		if (!strcmp(uri, schemas[i].uri))
			r.schema = &schemas[i], known = true;
	if (!strncmp(uri, RULES_URI, strlen(RULES_URI))) {
		const char *name = uri + strlen(RULES_URI);
		r.rule = rule_find(name, strlen(name));
		known = r.rule >= 0;
	}
	if (!known) {
		char msg[300];
		snprintf(msg, sizeof msg, "Resource not found: %.200s", uri);
		mcp_reply_error(s, doc, id, E_NO_RESOURCE, msg);
		return;
	}
	struct child_result res;
	mcp_child_run(s, read_child, &r, &res);
	if (res.end == CHILD_DONE && WIFEXITED(res.status) && !WEXITSTATUS(res.status) && res.out.len)
		mcp_reply(s, doc, id, res.out.p);
	else if (res.end != CHILD_CANCELLED && res.end != CHILD_GONE)
		mcp_reply_error(s, doc, id, E_INTERNAL, "the resource could not be made");
	child_result_free(&res);
}
