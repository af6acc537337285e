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

#include "commands.h"
#include "fileio.h"
#include "issues.h"
#include "jobspec.h"
#include "lint.h"
#include "mcp.h"
#include "output.h"
#include "plan_cluster.h"
#include "render.h"

/* The findings of a spec as a report; run stands in for a lint run. */
static void put_findings(const struct diag_list *diags, const struct target *target,
			 struct buf *json, struct buf *text)
{
	struct lint_options opt;
	lint_options_init(&opt);
	struct lint_run run;
	memset(&run, 0, sizeof run);
	run.opt = &opt;
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

/* What the user does with the files, in order: the steps gen prints
 * (plan_next_steps), one string each, after writing the files when this
 * call did not. */
static void next_steps(const struct plan *p, const char *spec, const char *dir, bool written,
		       struct buf *json, struct buf *text)
{
	struct buf all = BUF_INIT;
	plan_next_steps(p, dir, spec, &all);
	buf_puts(json, "[");
	buf_puts(text, "\nNext steps:\n");
	bool first = true;
	if (!written) {
		char write[640];
		snprintf(write, sizeof write,
			 "write the files into %s (the gen_write tool, or trainforge gen SPEC -o %s)", dir, dir);
		json_put_str(json, write, strlen(write));
		buf_printf(text, "  %s\n", write);
		first = false;
	}
	/* each step starts at a line "  N. "; its commands follow it */
	const char *s = all.p ? all.p : "";
	while ((s = strstr(s, "  ")) != NULL) {
		const char *num = s + 2;
		while (*num >= '0' && *num <= '9')
			num++;
		if (num == s + 2 || strncmp(num, ". ", 2)) {
			s++;
			continue;
		}
		const char *end = num, *next;
		for (next = strchr(end, '\n'); next; next = strchr(next + 1, '\n')) {
			const char *n2 = next + 1;
			if (n2[0] == ' ' && n2[1] == ' ' && n2[2] >= '0' && n2[2] <= '9')
				break;
		}
		end = next ? next : s + strlen(s);
		if (!first)
			buf_puts(json, ",");
		first = false;
		size_t len = (size_t)(end - num - 2);
		while (len && num[2 + len - 1] == '\n')
			len--;
		json_put_str(json, num + 2, len);
		s = *end ? end + 1 : end;
	}
	buf_puts(text, all.p ? all.p : "");
	buf_puts(json, "]");
	buf_free(&all);
}

static const char *language(const char *kind)
{
	return !strcmp(kind, "pcluster") ? "yaml" : "bash";
}

/* gen_write: each file written as gen writes it, its status into json
 * (the members of "written") and text; false when one is not there as
 * generated (it differs and force was not given, or it failed). */
static bool write_files(const struct mcp_call *c, const char *dir, const struct gen_files *files,
			struct buf *json, struct buf *text)
{
	static const char *const status[] = {
		[OUTPUT_WRITTEN] = "written", [OUTPUT_UNCHANGED] = "unchanged",
		[OUTPUT_EXISTS] = "exists", [OUTPUT_DRIFT] = "exists", [OUTPUT_FAILED] = "failed",
	};
	bool ok = true;
	for (size_t i = 0; i < files->len; i++) {
		const struct gen_file *f = &files->v[i];
		enum output_result r = output_write(dir, f->name, f->text, f->len, mcp_arg_bool(c, "force"), false);
		const char *why = r == OUTPUT_FAILED ? strerror(errno) : NULL;
		struct buf path = BUF_INIT;
		buf_printf(&path, "%s/%s", dir, f->name);
		buf_puts(json, i ? ",{\"path\":" : "{\"path\":");
		json_put_str(json, path.p, path.len);
		buf_printf(json, ",\"status\":\"%s\"", status[r]);
		if (why) {
			buf_puts(json, ",\"error\":");
			json_put_str(json, why, strlen(why));
		}
		buf_putc(json, '}');
		buf_printf(text, "%s: %s\n", path.p, r == OUTPUT_EXISTS ? "exists and differs; not overwritten "
			   "without force" : why ? why : status[r]);
		buf_free(&path);
		ok &= r == OUTPUT_WRITTEN || r == OUTPUT_UNCHANGED;
	}
	return ok;
}

/* "files": each with its path in dir and its content. */
static void put_files(const char *dir, const struct gen_files *files, struct buf *b)
{
	buf_puts(b, ",\"files\":[");
	for (size_t i = 0; i < files->len; i++) {
		const struct gen_file *f = &files->v[i];
		struct buf path = BUF_INIT;
		buf_printf(&path, "%s/%s", dir, f->name);
		buf_puts(b, i ? ",{\"name\":" : "{\"name\":");
		json_put_str(b, f->name, strlen(f->name));
		buf_puts(b, ",\"path\":");
		json_put_str(b, path.p, path.len);
		buf_printf(b, ",\"kind\":\"%s\",\"content\":", f->kind);
		json_put_str(b, f->text, f->len);
		buf_putc(b, '}');
		buf_free(&path);
	}
	buf_putc(b, ']');
}

/* "plan" as plan --format json prints the spec's own; its summary, as
 * gen prints it, into text. */
static void put_plan(struct jobspec *js, struct buf *b, struct buf *text)
{
	const struct instance_type *types[1] = { js->plan.it };
	struct plan_request rq = { .types = types, .ntypes = 1, .spec = &js->spec, .same = SAME_PEAK };
	struct plan_out o = { &js->plan, &rq };
	struct buf pj = BUF_INIT;
	put_memstream(&pj, plan_json, &o);
	strip_newline(&pj);
	buf_puts(b, ",\"plan\":");
	buf_put(b, pj.p, pj.len);
	buf_free(&pj);
	put_memstream(text, plan_summary, &o);
}

/* The result of gen (write NULL) or gen_write (write: the directory). */
static void put_generated(struct mcp_call *c, struct jobspec *js, const struct jobspec_output *out,
			  const struct diag_list *diags, const struct target *target, const char *spec,
			  const char *dir, const char *write)
{
	struct buf *b = &c->json, *t = &c->text;
	struct buf written = BUF_INIT, findings = BUF_INIT, steps = BUF_INIT;
	bool ok = js->ok;
	if (ok && write)
		ok = write_files(c, dir, &out->files, &written, t);
	const char *name = js->ok && js->spec.job ? js->spec.job->name : NULL;
	buf_printf(b, "{\"ok\":%s,\"name\":", ok ? "true" : "false");
	if (name)
		json_put_str(b, name, strlen(name));
	else
		buf_puts(b, "null");
	buf_puts(b, ",\"directory\":");
	json_put_str(b, dir, strlen(dir));
	put_files(dir, &out->files, b);
	if (write)
		buf_printf(b, ",\"written\":[%s]", written.p ? written.p : "");
	if (js->ok)
		put_plan(js, b, t);
	else
		buf_printf(t, "%s holds errors: nothing was generated.\n", spec);
	for (size_t i = 0; !write && i < out->files.len; i++)
		buf_printf(t, "\n%s/%s:\n```%s\n%.*s```\n", dir, out->files.v[i].name,
			   language(out->files.v[i].kind), (int)out->files.v[i].len, out->files.v[i].text);
	buf_puts(b, ",\"findings\":");
	put_findings(diags, target, b, &findings);
	if (diags->len)
		buf_printf(t, "\nFindings in the spec:\n%s", findings.p);
	buf_puts(b, ",\"nextSteps\":");
	if (js->ok)
		next_steps(&js->plan, spec, dir, write != NULL, b, &steps);
	else
		buf_puts(b, "[]");
	buf_put(t, steps.p, steps.len);
	buf_putc(b, '}');
	buf_free(&written);
	buf_free(&findings);
	buf_free(&steps);
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
	if (write && (!mcp_path_ok(c, "directory", dir, true) ||
		      (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode) && !mcp_fail(c, "%s: not a directory", dir))))
		return;
	struct target target = target_apply(target_default(), &req);
	struct diag_list diags = { 0 };
	struct jobspec js;
	if (!jobspec_open(&js, spec, &target, &diags)) {
		mcp_fail(c, "%s: %s", spec, strerror(errno ? errno : EIO));
		return;
	}
	struct jobspec_output out;
	jobspec_generate(&js, spec, NULL, dir, &target, &diags, &out);
	diag_list_sort(&diags);
	if (out.unexplained < 0)
		mcp_fail(c, "template error: %s", out.err);
	else if (out.unexplained > 0)
		mcp_fail(c, "trainforge made files that do not lint clean, which no spec value explains "
			 "(a bug in trainforge):\n%.*s", (int)out.bug_len, out.bug);
	else if (js.ok && write && !dir_make(dir))
		mcp_fail(c, "%s: %s", dir, strerror(errno));
	else
		put_generated(c, &js, &out, &diags, &target, spec, dir, write);
	jobspec_output_free(&out);
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

/* The flags of `trainforge plan` the arguments stand for; strings live
 * in keep. */
static void plan_argv(const struct mcp_call *c, const char *path, const char *tco, bool json,
		      char **argv, int *argc, struct buf *keep)
{
	static const char *const numbers[] = { "hours", "deadline" };
	size_t at[16];
	int n = 0;
	*argc = 0;
	argv[(*argc)++] = "plan";
	if (json) {
		argv[(*argc)++] = "--format";
		argv[(*argc)++] = "json";
	}
	/* each value into keep, NUL-separated; pointers are taken at the end */
	yd_node compare = mcp_arg(c, "compare");
	if (compare) {
		argv[(*argc)++] = "--compare";
		at[n++] = keep->len;
		for (size_t i = 0; i < yd_len(c->doc, compare); i++)
			buf_printf(keep, "%s%s", i ? "," : "", yd_str(c->doc, yd_item(c->doc, compare, i), NULL));
		buf_putc(keep, '\0');
		argv[(*argc)++] = NULL;
	}
	for (size_t i = 0; i < 2; i++) {
		const char *v = yd_str(c->doc, mcp_arg(c, numbers[i]), NULL);
		if (!v)
			continue;
		argv[(*argc)++] = i ? "--deadline" : "--hours";
		at[n++] = keep->len;
		buf_printf(keep, "%.17g", strtod(v, NULL));
		buf_putc(keep, '\0');
		argv[(*argc)++] = NULL;
	}
	yd_node target = mcp_arg(c, "target");
	for (size_t i = 0; target && i < yd_len(c->doc, target) && n < 12; i++) {
		argv[(*argc)++] = "--target";
		at[n++] = keep->len;
		buf_printf(keep, "%s=%s", yd_str(c->doc, yd_key(c->doc, target, i), NULL),
			   yd_str(c->doc, yd_value(c->doc, target, i), NULL));
		buf_putc(keep, '\0');
		argv[(*argc)++] = NULL;
	}
	const char *same = mcp_arg_str(c, "same");
	if (same) {
		argv[(*argc)++] = "--same";
		argv[(*argc)++] = (char *)same;
	}
	if (tco) {
		argv[(*argc)++] = "--tco";
		argv[(*argc)++] = (char *)tco;
	}
	argv[(*argc)++] = "--";
	argv[(*argc)++] = (char *)path;
	argv[*argc] = NULL;
	for (int i = 0, k = 0; i < *argc; i++)
		if (!argv[i])
			argv[i] = keep->p + at[k++];
}

/* The findings plan reports in a spec or a cluster config, as a report
 * into json and text; *cluster tells which the file is. */
static bool plan_findings(struct mcp_call *c, const char *path, bool *cluster, struct buf *json,
			  struct buf *text)
{
	size_t len;
	bool too_big;
	struct diag_list diags = { 0 };
	struct target_request req = { 0 };
	if (!mcp_target(c, &req))
		return false;
	struct target target = target_apply(target_default(), &req);
	char *body = file_read(path, TF_DEFAULT_MAX_BYTES, &len, &too_big);
	*cluster = false;
	if (body && !too_big) {
		struct source *src = source_new(path, body, len);
		yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
		if ((*cluster = plan_cluster_is(doc))) { /* as plan reads a cluster config */
			src->kind = KIND_PCLUSTER;
			issues_report(&diags, src, doc, KIND_PCLUSTER);
		}
		yamldoc_free(doc);
		if (*cluster) {
			diag_list_sort(&diags);
			put_findings(&diags, &target, json, diags.len ? text : NULL);
		}
		diag_list_free(&diags);
		source_free(src);
	} else {
		free(body);
	}
	struct jobspec js;
	if (!*cluster && jobspec_open(&js, path, &target, &diags)) {
		diag_list_sort(&diags);
		put_findings(&diags, &target, json, diags.len ? text : NULL);
		jobspec_close(&js);
		source_free(js.src);
	}
	diag_list_free(&diags);
	return json->len > 0 || mcp_fail(c, "%s: cannot be read", path);
}

/* `trainforge plan` itself, with the arguments as its flags: its JSON
 * and its text; its messages when it refuses them. */
void tool_plan(struct mcp_call *c)
{
	const char *path, *tco = NULL;
	if (!mcp_take_file(c, "spec", mcp_arg(c, "spec"), &path) ||
	    (mcp_arg(c, "tco") && !mcp_take_file(c, "tco", mcp_arg(c, "tco"), &tco)))
		return;
	char *argv[48];
	int argc;
	bool cluster;
	struct buf keep = BUF_INIT, plan = BUF_INIT, err = BUF_INIT, fjson = BUF_INIT, ftext = BUF_INIT;
	plan_argv(c, path, tco, true, argv, &argc, &keep);
	int rc = mcp_capture(cmd_plan, argc, argv, &plan, &err);
	if (rc != EXIT_CLEAN && rc != EXIT_FINDINGS) {
		mcp_fail(c, "%s", err.len ? err.p : "plan could not run");
	} else if (plan_findings(c, path, &cluster, &fjson, &ftext)) {
		buf_printf(&c->json, "{\"ok\":%s,\"kind\":\"%s\"", rc == EXIT_CLEAN ? "true" : "false",
			   cluster ? "pcluster" : "jobspec");
		if (rc == EXIT_CLEAN) {
			strip_newline(&plan);
			buf_puts(&c->json, ",\"plan\":");
			buf_put(&c->json, plan.p, plan.len);
			buf_reset(&keep);
			plan_argv(c, path, tco, false, argv, &argc, &keep);
			mcp_capture(cmd_plan, argc, argv, &c->text, &err);
		} else {
			buf_printf(&c->text, "%s holds errors: no plan.\n", path);
		}
		buf_puts(&c->json, ",\"findings\":");
		buf_put(&c->json, fjson.p, fjson.len);
		buf_putc(&c->json, '}');
		buf_put(&c->text, ftext.p, ftext.len);
	}
	buf_free(&keep);
	buf_free(&plan);
	buf_free(&err);
	buf_free(&fjson);
	buf_free(&ftext);
}
