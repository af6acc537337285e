/* The gen, gen_write and plan tools: a job spec (on disk, or content
 * laid over its path) read as `trainforge gen` and `trainforge plan`
 * read it, with the same checks; gen renders the files and lints them as
 * gen does, and writes only in gen_write, into a directory inside the
 * roots, as gen writes (a temporary file and a rename; never over a file
 * that differs without force). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog.h"
#include "fileio.h"
#include "issues.h"
#include "jobspec.h"
#include "lint.h"
#include "mcp.h"
#include "output.h"
#include "plan_cluster.h"
#include "render.h"
#include "tco.h"

enum { MAX_TYPES = 64 };

/* The findings of a spec as a report; run stands in for a lint run. */
static void put_findings(const struct diag_list *diags, const struct target *target,
			 struct buf *json, struct buf *text)
{
	struct lint_run run;
	memset(&run, 0, sizeof run);
	run.diags = *diags;
	run.files_checked = 1;
	mcp_report(&run, target, NULL, json, text);
}

static void put_memstream(struct buf *b, void (*fn)(void *ctx, FILE *f), void *ctx)
{
	char *p = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&p, &len);
	fn(ctx, f);
	fclose(f);
	buf_put(b, p, len);
	free(p);
}

struct plan_out {
	const struct plan *p;
	const struct plan_request *rq;
};

static void plan_json(void *ctx, FILE *f)
{
	const struct plan_out *o = ctx;
	plan_report_json(o->p, o->rq, f);
}

static void plan_text(void *ctx, FILE *f)
{
	const struct plan_out *o = ctx;
	plan_report_text(o->p, o->rq, f);
}

static void plan_summary(void *ctx, FILE *f)
{
	const struct plan_out *o = ctx;
	plan_print_text(o->p, f, 0);
}

static void strip_newline(struct buf *b)
{
	while (b->len && (b->p[b->len - 1] == '\n' || b->p[b->len - 1] == ' '))
		b->p[--b->len] = '\0';
}

/* ---- gen ------------------------------------------------------------- */

/* What the user does with the files, in order. */
static void next_steps(const char *name, const char *dir, const struct gen_files *files,
		       bool written, struct buf *json, struct buf *text)
{
	const char *config = NULL, *script = NULL, *watcher = NULL;
	for (size_t i = 0; i < files->len; i++) {
		const char *kind = files->v[i].kind;
		if (!strcmp(kind, "pcluster"))
			config = files->v[i].name;
		else if (!strcmp(kind, "sbatch"))
			script = files->v[i].name;
		else
			watcher = files->v[i].name;
	}
	char steps[6][640];
	size_t n = 0;
	if (!written)
		snprintf(steps[n++], sizeof steps[0],
			 "write the files into %s (the gen_write tool, or trainforge gen SPEC -o %s)", dir, dir);
	if (watcher)
		snprintf(steps[n++], sizeof steps[0],
			 "upload %s/%s to the URL the cluster config's OnNodeConfigured script names, before "
			 "the cluster is created", dir, watcher);
	if (config) {
		snprintf(steps[n++], sizeof steps[0],
			 "validate without creating anything: pcluster create-cluster --cluster-name %s "
			 "--cluster-configuration %s/%s --dryrun true", name, dir, config);
		snprintf(steps[n++], sizeof steps[0],
			 "create the cluster: pcluster create-cluster --cluster-name %s "
			 "--cluster-configuration %s/%s", name, dir, config);
	}
	if (script)
		snprintf(steps[n++], sizeof steps[0],
			 "on the head node (pcluster ssh --cluster-name %s), from a directory every node "
			 "sees, with the training code in place: sbatch %s", name, script);
	snprintf(steps[n++], sizeof steps[0],
		 "after a change by hand, lint both files (the lint tool); better, change the job spec "
		 "and generate again");
	buf_puts(json, "[");
	buf_puts(text, "\nNext steps:\n");
	for (size_t i = 0; i < n; i++) {
		buf_puts(json, i ? "," : "");
		json_put_str(json, steps[i], strlen(steps[i]));
		buf_printf(text, "%zu. %s\n", i + 1, steps[i]);
	}
	buf_puts(json, "]");
}

static const char *language(const char *kind)
{
	return !strcmp(kind, "pcluster") ? "yaml" : "bash";
}

/* gen and gen_write: write says where; NULL writes nothing. */
static void generate(struct mcp_call *c, const char *write)
{
	struct target_request req = { 0 };
	const char *spec;
	if (!mcp_target(c, &req) || !mcp_take_file(c, "spec", mcp_arg(c, "spec"), &spec))
		return;
	const char *dir = write ? write : mcp_arg_str(c, "directory");
	dir = dir ? dir : ".";
	struct stat st;
	if (write && !mcp_path_ok(c, "directory", dir, true))
		return;
	if (write && stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)) {
		mcp_fail(c, "%s: not a directory", dir);
		return;
	}
	struct target target = target_apply(target_default(), &req);
	struct diag_list diags = { 0 };
	struct jobspec js;
	if (!jobspec_open(&js, spec, &target, &diags)) {
		mcp_fail(c, "%s: %s", spec, strerror(errno ? errno : EIO));
		return;
	}
	struct gen_files files = { 0 };
	struct jobspec_templates templates = { 0 };
	char err[512];
	char *bug = NULL;
	size_t bug_len = 0;
	FILE *internal = js.ok ? open_memstream(&bug, &bug_len) : NULL;
	int unexplained = 0;
	size_t before = diags.len;
	if (js.ok)
		unexplained = jobspec_outputs_check(&js, spec, NULL, dir, &target, &files, &diags, internal,
						    &templates, err, sizeof err);
	if (internal)
		fclose(internal);
	for (size_t i = before; i < diags.len; i++)
		js.ok &= diags.v[i].sev < SEV_WARNING;
	diag_list_sort(&diags);
	if (unexplained < 0)
		mcp_fail(c, "template error: %s", err);
	else if (unexplained > 0)
		mcp_fail(c, "trainforge made files that do not lint clean, which no spec value explains "
			 "(a bug in trainforge):\n%.*s", (int)bug_len, bug);
	const char *name = js.ok && js.spec.job ? js.spec.job->name : NULL;
	struct buf *b = &c->json, *t = &c->text;
	if (!c->error.len) {
		bool ok = js.ok;
		struct buf written = BUF_INIT;
		if (js.ok && write && !dir_make(dir)) {
			mcp_fail(c, "%s: %s", dir, strerror(errno));
		} else if (js.ok && write) {
			static const char *const status[] = {
				[OUTPUT_WRITTEN] = "written", [OUTPUT_UNCHANGED] = "unchanged",
				[OUTPUT_EXISTS] = "exists", [OUTPUT_DRIFT] = "exists", [OUTPUT_FAILED] = "failed",
			};
			for (size_t i = 0; i < files.len; i++) {
				const struct gen_file *f = &files.v[i];
				enum output_result r = output_write(dir, f->name, f->text, f->len,
								    mcp_arg_bool(c, "force"), false);
				buf_printf(&written, "%s{\"path\":", i ? "," : "");
				buf_printf(t, "%s/%s: %s\n", dir, f->name,
					   r == OUTPUT_EXISTS ? "exists and differs; not overwritten without force"
							      : status[r]);
				struct buf path = BUF_INIT;
				buf_printf(&path, "%s/%s", dir, f->name);
				json_put_str(&written, path.p, path.len);
				buf_free(&path);
				buf_printf(&written, ",\"status\":\"%s\"", status[r]);
				if (r == OUTPUT_FAILED) {
					buf_puts(&written, ",\"error\":");
					json_put_str(&written, strerror(errno), strlen(strerror(errno)));
				}
				buf_putc(&written, '}');
				ok &= r == OUTPUT_WRITTEN || r == OUTPUT_UNCHANGED;
			}
		}
		buf_printf(b, "{\"ok\":%s,\"name\":", ok ? "true" : "false");
		if (name)
			json_put_str(b, name, strlen(name));
		else
			buf_puts(b, "null");
		buf_puts(b, ",\"directory\":");
		json_put_str(b, dir, strlen(dir));
		buf_puts(b, ",\"files\":[");
		for (size_t i = 0; i < files.len; i++) {
			const struct gen_file *f = &files.v[i];
			buf_printf(b, "%s{\"name\":", i ? "," : "");
			json_put_str(b, f->name, strlen(f->name));
			struct buf path = BUF_INIT;
			buf_printf(&path, "%s/%s", dir, f->name);
			buf_puts(b, ",\"path\":");
			json_put_str(b, path.p, path.len);
			buf_free(&path);
			buf_printf(b, ",\"kind\":\"%s\",\"content\":", f->kind);
			json_put_str(b, f->text, f->len);
			buf_putc(b, '}');
		}
		buf_putc(b, ']');
		if (write)
			buf_printf(b, ",\"written\":[%s]", written.p ? written.p : "");
		buf_free(&written);
		struct buf findings_text = BUF_INIT;
		if (js.ok) {
			const struct instance_type *types[1] = { js.plan.it };
			struct plan_request rq = { .types = types, .ntypes = 1, .spec = &js.spec, .same = SAME_PEAK };
			struct plan_out o = { &js.plan, &rq };
			buf_puts(b, ",\"plan\":");
			struct buf pj = BUF_INIT;
			put_memstream(&pj, plan_json, &o);
			strip_newline(&pj);
			buf_put(b, pj.p, pj.len);
			buf_free(&pj);
			struct buf summary = BUF_INIT;
			put_memstream(&summary, plan_summary, &o);
			buf_put(t, summary.p, summary.len);
			buf_free(&summary);
			for (size_t i = 0; !write && i < files.len; i++)
				buf_printf(t, "\n%s/%s:\n```%s\n%.*s```\n", dir, files.v[i].name,
					   language(files.v[i].kind), (int)files.v[i].len, files.v[i].text);
		} else {
			buf_printf(t, "%s holds errors: nothing was generated.\n", spec);
		}
		buf_puts(b, ",\"findings\":");
		put_findings(&diags, &target, b, &findings_text);
		if (diags.len) {
			buf_puts(t, "\nFindings in the spec:\n");
			buf_put(t, findings_text.p, findings_text.len);
		}
		buf_free(&findings_text);
		buf_puts(b, ",\"nextSteps\":");
		struct buf steps_text = BUF_INIT;
		if (js.ok)
			next_steps(name ? name : "NAME", dir, &files, write != NULL, b, &steps_text);
		else
			buf_puts(b, "[]");
		buf_put(t, steps_text.p, steps_text.len);
		buf_free(&steps_text);
		buf_putc(b, '}');
	}
	free(bug);
	gen_files_free(&files);
	jobspec_templates_free(&templates);
	jobspec_close(&js);
	diag_list_free(&diags);
	source_free(js.src);
}

void tool_gen(struct mcp_call *c)
{
	generate(c, NULL);
}

void tool_gen_write(struct mcp_call *c)
{
	generate(c, mcp_arg_str(c, "directory"));
}

/* ---- plan ------------------------------------------------------------ */

struct cluster_out {
	struct source *src;
	const yamldoc *doc;
	bool json;
};

static void cluster_plan(void *ctx, FILE *f)
{
	const struct cluster_out *o = ctx;
	plan_cluster_write(o->src, o->doc, o->json, f);
}

/* A ParallelCluster config's cost by queue; false: the file is a job spec. */
static bool plan_config(struct mcp_call *c, const char *path, bool spec_args)
{
	size_t len;
	bool too_big;
	char *text = file_read(path, TF_DEFAULT_MAX_BYTES, &len, &too_big);
	if (!text || too_big) {
		free(text);
		return false; /* read again as a job spec, which says why */
	}
	struct source *src = source_new(path, text, len);
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	bool is = plan_cluster_is(doc);
	if (is && spec_args) {
		mcp_fail(c, "compare, same, deadline, hours and tco plan a job spec; %s is a cluster config", path);
	} else if (is) {
		struct diag_list diags = { 0 };
		src->kind = KIND_PCLUSTER;
		issues_report(&diags, src, doc, KIND_PCLUSTER);
		diag_list_sort(&diags);
		bool ok = !yamldoc_broken(doc);
		buf_printf(&c->json, "{\"ok\":%s,\"kind\":\"pcluster\"", ok ? "true" : "false");
		if (ok) {
			struct cluster_out o = { src, doc, true };
			buf_puts(&c->json, ",\"plan\":");
			struct buf pj = BUF_INIT;
			put_memstream(&pj, cluster_plan, &o);
			strip_newline(&pj);
			buf_put(&c->json, pj.p, pj.len);
			buf_free(&pj);
			o.json = false;
			put_memstream(&c->text, cluster_plan, &o);
		}
		buf_puts(&c->json, ",\"findings\":");
		struct target base = target_default();
		struct buf findings = BUF_INIT;
		put_findings(&diags, &base, &c->json, &findings);
		if (diags.len)
			buf_put(&c->text, findings.p, findings.len);
		buf_free(&findings);
		buf_putc(&c->json, '}');
		diag_list_free(&diags);
	}
	yamldoc_free(doc);
	source_free(src);
	return is;
}

static bool compare_types(struct mcp_call *c, const struct instance_type **listed, size_t *n)
{
	yd_node list = mcp_arg(c, "compare");
	for (size_t i = 0; list && i < yd_len(c->doc, list); i++) {
		size_t len;
		const char *name = yd_str(c->doc, yd_item(c->doc, list, i), &len);
		const struct instance_type *it = name ? catalog_find(name, len) : NULL;
		if (!it) {
			char suggestion[96];
			catalog_check_name(name ? name : "", name ? len : 0, suggestion, sizeof suggestion);
			return mcp_fail(c, "compare: unknown instance type '%s'%s%s%s", name ? name : "",
					suggestion[0] ? " (did you mean " : " (the instances tool lists them)",
					suggestion, suggestion[0] ? "?)" : "");
		}
		bool dup = false;
		for (size_t k = 0; k < *n; k++)
			dup |= listed[k] == it;
		if (!dup && *n < MAX_TYPES)
			listed[(*n)++] = it;
	}
	return true;
}

static struct tco_spec *read_tco(struct mcp_call *c)
{
	yd_node n = mcp_arg(c, "tco");
	const char *path;
	if (!n || !mcp_take_file(c, "tco", n, &path))
		return NULL;
	struct trouble t = { 0 };
	struct tco_spec *spec = tco_load(path, &t);
	for (size_t i = 0; i < t.len; i++)
		mcp_fail(c, "%s", t.msgs[i]);
	trouble_free(&t);
	if (spec && !catalog_find(spec->owned->like_instance, strlen(spec->owned->like_instance))) {
		mcp_fail(c, "%s: owned.like_instance %s is not in the instance catalog", path,
			 spec->owned->like_instance);
		tco_free(spec);
		return NULL;
	}
	return spec;
}

static bool number(const struct mcp_call *c, const char *key, double *out)
{
	yd_node n = mcp_arg(c, key);
	const char *s = n ? yd_str(c->doc, n, NULL) : NULL;
	*out = s ? strtod(s, NULL) : 0;
	return s != NULL;
}

void tool_plan(struct mcp_call *c)
{
	const char *path, *same_name = mcp_arg_str(c, "same");
	double hours = 0, deadline = 0;
	bool has_hours = number(c, "hours", &hours), has_deadline = number(c, "deadline", &deadline);
	struct target_request req = { 0 };
	if (!mcp_target(c, &req) || !mcp_take_file(c, "spec", mcp_arg(c, "spec"), &path))
		return;
	bool spec_args = has_hours || has_deadline || same_name || mcp_arg(c, "compare") ||
			 mcp_arg(c, "tco");
	if (plan_config(c, path, spec_args) || c->error.len)
		return;
	if (same_name && has_deadline) {
		mcp_fail(c, "same and deadline size the compared types in two different ways: give one");
		return;
	}
	if (has_hours && has_deadline) {
		mcp_fail(c, "deadline sizes types by their estimated run time; hours would replace it");
		return;
	}
	static const struct { const char *name; enum plan_same same; } modes[] = {
		{ "peak", SAME_PEAK }, { "nodes", SAME_NODES }, { "ranks", SAME_RANKS },
	};
	enum plan_same same = SAME_PEAK;
	for (size_t i = 0; same_name && i < sizeof modes / sizeof modes[0]; i++)
		if (!strcmp(same_name, modes[i].name))
			same = modes[i].same;
	const struct instance_type *listed[MAX_TYPES], *types[MAX_TYPES + 1];
	size_t nlisted = 0, ntypes = 0;
	if (!compare_types(c, listed, &nlisted))
		return;
	struct tco_spec *tco = read_tco(c);
	if (c->error.len)
		return;
	struct target target = target_apply(target_default(), &req);
	struct diag_list diags = { 0 };
	struct jobspec js;
	if (!jobspec_open(&js, path, &target, &diags)) {
		mcp_fail(c, "%s: %s", path, strerror(errno ? errno : EIO));
		tco_free(tco);
		return;
	}
	diag_list_sort(&diags);
	buf_printf(&c->json, "{\"ok\":%s,\"kind\":\"jobspec\"", js.ok ? "true" : "false");
	if (js.ok) {
		types[ntypes++] = js.plan.it;
		for (size_t i = 0; i < nlisted; i++)
			if (listed[i] != js.plan.it)
				types[ntypes++] = listed[i];
		struct plan_request rq = { .hours = hours, .types = types, .ntypes = ntypes, .spec = &js.spec,
					   .same = same, .deadline_days = deadline, .tco = tco };
		struct plan_est own;
		plan_estimate(&js.plan, js.plan.it, 0, &own);
		if (deadline > 0 && !(own.total_flops > 0)) {
			mcp_fail(c, "deadline needs the run's FLOPs: give model.parameters and model.tokens in %s",
				 path);
		} else {
			struct plan_out o = { &js.plan, &rq };
			struct buf pj = BUF_INIT;
			put_memstream(&pj, plan_json, &o);
			strip_newline(&pj);
			buf_puts(&c->json, ",\"plan\":");
			buf_put(&c->json, pj.p, pj.len);
			buf_free(&pj);
			put_memstream(&c->text, plan_text, &o);
		}
	} else {
		buf_printf(&c->text, "%s holds errors: no plan.\n", path);
	}
	buf_puts(&c->json, ",\"findings\":");
	struct buf findings = BUF_INIT;
	put_findings(&diags, &target, &c->json, &findings);
	if (diags.len)
		buf_put(&c->text, findings.p, findings.len);
	buf_free(&findings);
	buf_putc(&c->json, '}');
	jobspec_close(&js);
	tco_free(tco);
	diag_list_free(&diags);
	source_free(js.src);
}
