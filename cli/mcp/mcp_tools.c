/* The tools: one row each (name, title, description, what it does to
 * the files), their schemas from schemas/mcp.schema.json, and a call:
 * arguments checked against the input schema (a tool error the model can
 * read and correct, as SEP-1303 has it since 2025-11-25), then the tool
 * run in a child process confined to the roots, whose result is sent as
 * it made it. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "mcp.h"

struct tool {
	const char *name, *title, *description;
	void (*fn)(struct mcp_call *c);
	bool read_only;  /* writes nothing */
	bool files;      /* reads or writes files: needs the roots */
};

static const struct tool tools[] = {
	{ "lint", "Lint cluster configs, batch scripts and job specs",
	  "Checks AWS ParallelCluster 3 configs, Slurm batch scripts and trainforge job specs, "
	  "alone and against each other (a script against the cluster config it runs on), as "
	  "`trainforge lint --format json` does: EFA and placement groups, look-alike characters, "
	  "invented instance types, torchrun without srun, lost line continuations, Neuron and EFA "
	  "variables, layouts that do not divide the world, every key ParallelCluster's schema "
	  "refuses. Each finding has a position, a rule ID (explain tells why) and, where one "
	  "exists, a fix. Give files by path or by content (unsaved text). Run it on every "
	  "ParallelCluster config or batch script before handing it to the user.",
	  tool_lint, true, true },
	{ "fix", "Fix what lint found",
	  "Applies the fixes of lint's findings to the text and returns the fixed text, the edits "
	  "and a unified diff, with the findings that remain; writes nothing. Safe fixes only "
	  "(look-alike characters to ASCII, NEURON_COMPILE_CACHE_DIR, stale suppressions) unless "
	  "unsafe is true.",
	  tool_fix, true, true },
	{ "gen", "Generate a cluster config and batch script from a job spec",
	  "Turns a trainforge job spec (the resource trainforge://schema/jobspec is its schema) into "
	  "a ParallelCluster config and a Slurm batch script whose every derived number (nodes, "
	  "processes per node, data parallel size, EFA, compile cache) agrees by construction, and "
	  "returns their contents with the plan and the next steps. Writes nothing: gen_write writes.",
	  tool_gen, true, true },
	{ "gen_write", "Generate and write a cluster config and batch script",
	  "gen, and writes the files into directory (inside the roots) through a temporary file "
	  "and a rename; a file that exists and differs is left as it is unless force is true.",
	  tool_gen_write, false, true },
	{ "plan", "Plan a job: layout, memory, time and cost",
	  "The plan of a job spec as `trainforge plan --format json` prints it: the parallel "
	  "layout and its invariants, pipeline bubble, memory fit, run time and cost, each figure "
	  "with its source; compare instance types, size them by a deadline, or set an owned "
	  "cluster against the cloud (tco). Of a ParallelCluster config: the cost by the hour of "
	  "each queue at MinCount and MaxCount.",
	  tool_plan, true, true },
	{ "explain", "Explain a rule",
	  "A rule's page: what it checks, why it matters, a bad and a good example, the "
	  "ParallelCluster validator it mirrors, how to suppress it.",
	  tool_explain, true, false },
	{ "diff", "Review a cluster config change",
	  "Judges the change from old to new, two versions of one ParallelCluster config, by "
	  "ParallelCluster's update policy for each changed key, as `pcluster update-cluster` "
	  "would, offline: refused changes, those that need the compute fleet stopped, data lost "
	  "with DeletionPolicy Delete, and the cost of more nodes.",
	  tool_diff, true, true },
	{ "instances", "Look up EC2 instance types",
	  "The instance catalog trainforge plans and lints with: accelerators, memory, EFA, "
	  "on-demand, spot and Capacity Block prices with their region, date and source. Filter "
	  "by family, exact type names, accelerator kind or EFA support; a name the catalog lacks "
	  "(an invented type) comes back with the nearest it has.",
	  tool_instances, true, false },
};

static const struct tool *tool_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof tools / sizeof tools[0]; i++)
		if (!strcmp(tools[i].name, name))
			return &tools[i];
	return NULL;
}

/* ---- tools/list ------------------------------------------------------ */

static void put_tool(const struct mcp_server *s, const struct tool *t, struct buf *b)
{
	char def[64];
	buf_printf(b, "{\"name\":\"%s\",", t->name);
	if (s->rev->has & REV_TITLE) {
		buf_puts(b, "\"title\":");
		json_put_str(b, t->title, strlen(t->title));
		buf_putc(b, ',');
	}
	buf_puts(b, "\"description\":");
	json_put_str(b, t->description, strlen(t->description));
	snprintf(def, sizeof def, "%s-input", t->name);
	buf_puts(b, ",\"inputSchema\":");
	mcp_schema_put(def, b);
	if (s->rev->has & REV_STRUCTURED) {
		snprintf(def, sizeof def, "%s-output", t->name);
		buf_puts(b, ",\"outputSchema\":");
		mcp_schema_put(def, b);
	}
	if (s->rev->has & REV_ANNOTATIONS) {
		/* gen_write overwrites only with force; it is marked by what it may do */
		buf_puts(b, ",\"annotations\":{\"title\":");
		json_put_str(b, t->title, strlen(t->title));
		buf_printf(b, ",\"readOnlyHint\":%s,\"destructiveHint\":%s,\"idempotentHint\":true,"
			   "\"openWorldHint\":false}", t->read_only ? "true" : "false",
			   t->read_only ? "false" : "true");
	}
	buf_putc(b, '}');
}

void mcp_tools_list(struct mcp_server *s, const yamldoc *doc, yd_node id)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "{\"tools\":[");
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		buf_puts(&b, i ? "," : "");
		put_tool(s, &tools[i], &b);
	}
	buf_puts(&b, "]}");
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
}

/* ---- tools/call ------------------------------------------------------ */

static void put_text_block(struct buf *b, const char *text, size_t len)
{
	buf_puts(b, "{\"type\":\"text\",\"text\":");
	json_put_str(b, text ? text : "", len);
	buf_putc(b, '}');
}

/* A CallToolResult: the text, and the structured result where the
 * revision has it (before 2025-06-18 it goes as a second text block). */
static void put_result(const struct mcp_server *s, const struct mcp_call *c, struct buf *b)
{
	buf_puts(b, "{\"content\":[");
	if (c->error.len) {
		put_text_block(b, c->error.p, c->error.len);
		buf_puts(b, "],\"isError\":true}");
		return;
	}
	put_text_block(b, c->text.p, c->text.len);
	if (!(s->rev->has & REV_STRUCTURED)) {
		buf_putc(b, ',');
		put_text_block(b, c->json.p, c->json.len);
		buf_puts(b, "],\"isError\":false}");
		return;
	}
	buf_puts(b, "],\"structuredContent\":");
	buf_put(b, c->json.p ? c->json.p : "{}", c->json.len ? c->json.len : 2);
	buf_puts(b, ",\"isError\":false}");
}

static void tool_error(struct mcp_server *s, const yamldoc *doc, yd_node id, const char *msg)
{
	struct buf b = BUF_INIT;
	struct mcp_call c = { .s = s };
	buf_puts(&c.error, msg);
	put_result(s, &c, &b);
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
	buf_free(&c.error);
}

struct run {
	const struct mcp_server *s;
	const struct tool *t;
	const yamldoc *doc;
	yd_node args;
};


/* In the child: confined to the roots, working in the first. */
static void run_child(void *ctx, int fd)
{
	const struct run *r = ctx;
	struct mcp_call c = { .s = r->s, .doc = r->doc, .args = r->args };
	if (r->t->files) {
		file_confine(r->s->roots, r->s->n_roots);
		if (!r->s->n_roots || chdir(r->s->roots[0]) != 0)
			mcp_fail(&c, "cannot work in %s: %s", r->s->n_roots ? r->s->roots[0] : "no root",
				 strerror(errno));
	}
	if (!c.error.len)
		r->t->fn(&c);
	struct buf b = BUF_INIT;
	put_result(r->s, &c, &b);
	fd_write_all(fd, b.p, b.len);
	buf_free(&b);
	buf_free(&c.text);
	buf_free(&c.json);
	buf_free(&c.error);
}

/* What a person reads when the child did not finish. */
static void child_failure(const struct mcp_server *s, const struct child_result *r,
			  struct buf *msg)
{
	switch (r->end) {
	case CHILD_TIMEOUT:
		buf_printf(msg, "the call took longer than %g s (trainforge mcp --timeout) and was stopped",
			   s->timeout);
		break;
	case CHILD_TOO_LARGE:
		buf_puts(msg, "the result is larger than 256 MiB and was dropped; ask for less");
		break;
	case CHILD_FAILED:
		buf_printf(msg, "trainforge could not start the call: %s", strerror(errno));
		break;
	default:
		if (WIFSIGNALED(r->status))
			buf_printf(msg, "trainforge stopped on this input (signal %d, %s): a bug in trainforge; "
				   "the server goes on", WTERMSIG(r->status), strsignal(WTERMSIG(r->status)));
		else
			buf_printf(msg, "trainforge ended without a result (exit %d): a bug in trainforge",
				   WIFEXITED(r->status) ? WEXITSTATUS(r->status) : -1);
		if (r->err.len) {
			buf_puts(msg, "\n");
			buf_put(msg, r->err.p, r->err.len);
		}
	}
}

void mcp_tools_call(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params)
{
	const char *name = json_str(doc, params, "name", NULL);
	const struct tool *t = tool_find(name);
	if (!t) {
		struct buf msg = BUF_INIT;
		buf_printf(&msg, "unknown tool '%.80s'; the tools are", name ? name : "");
		for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
			buf_printf(&msg, "%s %s", i ? "," : "", tools[i].name);
		mcp_reply_error(s, doc, id, E_PARAMS, msg.p);
		buf_free(&msg);
		return;
	}
	/* the arguments may be left out: then they are {} */
	const yamldoc *adoc = doc;
	yd_node args = yd_get(doc, params, "arguments");
	yamldoc *empty = NULL;
	if (!args || (yd_kind(doc, args) == YD_SCALAR && !yd_quoted(doc, args) &&
		      yd_str_eq(doc, args, "null"))) {
		empty = json_parse("{}", 2);
		adoc = empty;
		args = yd_root(empty);
	}
	struct buf errors = BUF_INIT;
	char def[64];
	snprintf(def, sizeof def, "%s-input", t->name);
	if (yd_kind(adoc, args) != YD_MAPPING) {
		mcp_reply_error(s, doc, id, E_PARAMS, "arguments must be an object");
		yamldoc_free(empty);
		return;
	}
	mcp_schema_check(def, adoc, args, &errors);
	if (!errors.len && t->files && !mcp_roots_wait(s))
		buf_puts(&errors, "the client did not answer roots/list: no file can be read");
	if (errors.len) {
		tool_error(s, doc, id, errors.p);
	} else {
		struct run r = { s, t, adoc, args };
		struct child_result res;
		buf_reset(&s->current_id);
		json_put_scalar(doc, id, &s->current_id);
		mcp_child_run(s, run_child, &r, &res);
		buf_reset(&s->current_id);
		bool ok = res.end == CHILD_DONE && WIFEXITED(res.status) && !WEXITSTATUS(res.status) &&
			  res.out.len;
		if (ok) {
			mcp_reply(s, doc, id, res.out.p);
		} else if (res.end != CHILD_CANCELLED && res.end != CHILD_GONE) {
			struct buf msg = BUF_INIT;
			child_failure(s, &res, &msg);
			tool_error(s, doc, id, msg.p);
			buf_free(&msg);
		}
		child_result_free(&res);
	}
	buf_free(&errors);
	yamldoc_free(empty);
}
