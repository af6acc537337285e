/* Prompts: the two ways the tools are meant to be used, as messages a
 * client puts before the model. write-job-spec leads from a description
 * of the job through the spec, plan, gen and lint; review-cluster through
 * lint, explain and fix of a config and its batch script. And the
 * instructions the server sends at initialize. */
#include <stdio.h>
#include <string.h>

#include "assets.h"
#include "mcp.h"

enum { ARG_MAX = 8192 };

struct prompt_arg {
	const char *name, *description;
	bool required;
};

static const struct prompt {
	const char *name, *title, *description;
	struct prompt_arg args[3];
	const char *text; /* printf: each argument's value in turn ("" when absent) */
	const char *resource; /* a schema to attach, or NULL */
} prompts[] = {
	{ "write-job-spec", "Write a job spec",
	  "Write a trainforge job spec for a training job, check it with plan, and generate its "
	  "ParallelCluster config and Slurm batch script.",
	  { { "job", "The job: model and size, instance type or budget, nodes, deadline, storage, "
		     "region (what is known)", true } },
	  "Write a trainforge job spec for this training job: %s\n\n"
	  "1. Write the spec as YAML by the job spec schema attached below (trainforge://schema/jobspec): "
	  "`trainforge: 1`, name, instance, nodes, parallel, model, entry, cluster, storage. Use only "
	  "instance types the instances tool lists; leave what you do not know as a placeholder the "
	  "user must fill in (subnet-<ID>), never an invented value.\n"
	  "2. Call plan with the spec as content (spec: {path: \"job.yaml\", content: ...}). Fix every "
	  "error it reports and call it again until ok is true. Tell the user the layout, memory fit, "
	  "run time and cost it gives, with their sources; with a budget or a deadline, compare "
	  "instance types (compare, deadline).\n"
	  "3. Call gen with the same spec: it returns the cluster config and batch script, right by "
	  "construction, and the next steps. Do not edit them by hand: change the spec and generate "
	  "again. Write the files with gen_write only when the user asks.\n"
	  "4. Call lint on the generated files (as content) and show that it finds nothing.\n",
	  "trainforge://schema/jobspec" },
	{ "review-cluster", "Review a cluster config and batch script",
	  "Review an AWS ParallelCluster config and the Slurm batch script that runs on it: lint "
	  "them together, explain the findings, and propose the fixes.",
	  { { "cluster", "The cluster config's path (inside the roots)", true },
	    { "script", "The batch script's path (inside the roots), if there is one", false } },
	  "Review the ParallelCluster config %s and the batch script %s (none when empty).\n\n"
	  "1. Call lint with both files (files: [{path: config}, {path: script}]) and cluster set to "
	  "the config, so that the script is checked against the cluster it runs on.\n"
	  "2. Report every error and warning in plain words: what goes wrong at run time (a job that "
	  "hangs, a node that cannot start, queue time lost) and the line. Call explain for a rule "
	  "you are not sure of. Do not report what lint does not say as fact.\n"
	  "3. Call fix for the safe fixes and show the diff. Propose the unsafe ones (fix with "
	  "unsafe: true) one by one, saying what each changes; apply none without the user's yes.\n"
	  "4. After the user's changes, call lint again until nothing at error level remains.\n",
	  NULL },
};

static const struct prompt *prompt_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof prompts / sizeof prompts[0]; i++)
		if (!strcmp(prompts[i].name, name))
			return &prompts[i];
	return NULL;
}

void mcp_prompts_list(struct mcp_server *s, const yamldoc *doc, yd_node id)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "{\"prompts\":[");
	for (size_t i = 0; i < sizeof prompts / sizeof prompts[0]; i++) {
		const struct prompt *p = &prompts[i];
		buf_printf(&b, "%s{\"name\":\"%s\",", i ? "," : "", p->name);
		if (s->rev->has & REV_TITLE)
			buf_printf(&b, "\"title\":\"%s\",", p->title);
		buf_puts(&b, "\"description\":");
		json_put_str(&b, p->description, strlen(p->description));
		buf_puts(&b, ",\"arguments\":[");
		for (size_t k = 0; k < 3 && p->args[k].name; k++) {
			buf_printf(&b, "%s{\"name\":\"%s\",\"description\":", k ? "," : "", p->args[k].name);
			json_put_str(&b, p->args[k].description, strlen(p->args[k].description));
			buf_printf(&b, ",\"required\":%s}", p->args[k].required ? "true" : "false");
		}
		buf_puts(&b, "]}");
	}
	buf_puts(&b, "]}");
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
}

void mcp_prompts_get(struct mcp_server *s, const yamldoc *doc, yd_node id, yd_node params)
{
	const char *name = json_str(doc, params, "name", NULL);
	const struct prompt *p = prompt_find(name);
	if (!p) {
		mcp_reply_error(s, doc, id, E_PARAMS, "unknown prompt: the prompts are write-job-spec and review-cluster");
		return;
	}
	yd_node args = json_get(doc, params, "arguments");
	const char *values[3] = { "", "", "" };
	for (size_t k = 0; k < 3 && p->args[k].name; k++) {
		size_t len = 0;
		const char *v = args ? json_str(doc, args, p->args[k].name, &len) : NULL;
		char msg[160];
		if ((!v && p->args[k].required) || (v && (len > ARG_MAX || memchr(v, '\0', len)))) {
			snprintf(msg, sizeof msg, "prompt %s needs argument %s: a string of at most %d bytes",
				 p->name, p->args[k].name, ARG_MAX);
			mcp_reply_error(s, doc, id, E_PARAMS, msg);
			return;
		}
		values[k] = v ? v : "";
	}
	struct buf text = BUF_INIT, b = BUF_INIT;
	buf_printf(&text, p->text, values[0], values[1], values[2]);
	buf_puts(&b, "{\"description\":");
	json_put_str(&b, p->description, strlen(p->description));
	buf_puts(&b, ",\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":");
	json_put_str(&b, text.p, text.len);
	buf_puts(&b, "}}");
	const struct asset *a = p->resource ? asset_find("jobspec.schema.json") : NULL;
	if (a) {
		buf_puts(&b, ",{\"role\":\"user\",\"content\":{\"type\":\"resource\",\"resource\":{\"uri\":");
		json_put_str(&b, p->resource, strlen(p->resource));
		buf_puts(&b, ",\"mimeType\":\"application/json\",\"text\":");
		json_put_str(&b, a->text, a->len);
		buf_puts(&b, "}}}");
	}
	buf_puts(&b, "]}");
	mcp_reply(s, doc, id, b.p);
	buf_free(&b);
	buf_free(&text);
}

void mcp_instructions(const struct mcp_server *s, struct buf *out)
{
	buf_puts(out,
		 "trainforge checks and writes AWS ParallelCluster 3 configs and Slurm batch scripts for "
		 "distributed training on Trainium and GPU instances. Call lint on every cluster config, "
		 "batch script or job spec you write, change or are shown, before you hand it to the user, "
		 "and say what it finds; fix returns the safe fixes as text and a diff; explain tells why a "
		 "rule fires. For a new job, write a job spec (its schema: the resource "
		 "trainforge://schema/jobspec), check it with plan and generate the files with gen, "
		 "rather than writing a cluster config by hand. instances lists real instance types with "
		 "their prices. ");
	if (s->client_roots)
		buf_puts(out, "Files are read and written only inside the roots the client shares; a "
			      "relative path is relative to the first.");
	else
		buf_printf(out, "The client shares no roots: files are read and written only inside the "
			   "server's working directory, %s, and a relative path is relative to it.", s->cwd);
	buf_puts(out, " No tool reaches the network.");
}
