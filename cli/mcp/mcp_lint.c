/* The lint, fix and diff tools: `trainforge lint` and `trainforge diff`
 * as the CLI runs them (the settings that apply to each file, the
 * job spec checks gen makes, shellcheck bounded as the CLI bounds it),
 * with the arguments of the call in place of flags and the result in
 * the JSON format's shape. Files given by content are overlays
 * (core/fileio.h): lint reads them where it would read the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "format.h"
#include "jobspec.h"
#include "lint.h"
#include "lint_cli.h"
#include "mcp.h"
#include "settings.h"

/* A lint run as the call's arguments set it up. */
struct linting {
	struct lint_options opt;
	struct settings_flags flags;
	struct buf select, ignore;
	struct tmpl_defs defines;
	struct trouble trouble;       /* from the settings files */
	settings *cfg;
	const char **paths;
	size_t n_paths;
	struct lint_run run;
	bool ran;
};

static void linting_free(struct linting *l)
{
	if (l->ran)
		lint_run_fini(&l->run);
	settings_free(l->cfg);
	trouble_free(&l->trouble);
	tmpl_defs_free(&l->defines);
	buf_free(&l->select);
	buf_free(&l->ignore);
	free(l->paths);
}

/* The selectors at key, checked one by one, joined as --select takes them. */
static bool selectors(struct mcp_call *c, const char *key, struct buf *out)
{
	yd_node list = mcp_arg(c, key);
	for (size_t i = 0; list && i < yd_len(c->doc, list); i++) {
		size_t len;
		const char *sel = yd_str(c->doc, yd_item(c->doc, list, i), &len);
		bool scratch[RULE__COUNT];
		if (!sel || memchr(sel, ',', len) || !settings_select(sel, len, scratch, true))
			return mcp_fail(c, "%s: unknown rule selector '%s' (an ID such as PC2101, a name, "
					"an ID prefix such as PC2, or ALL)", key, sel ? sel : "");
		buf_printf(out, "%s%.*s", out->len ? "," : "", (int)len, sel);
	}
	return true;
}

static bool severities(struct mcp_call *c, struct lint_options *opt)
{
	yd_node m = mcp_arg(c, "severity");
	for (size_t i = 0; m && i < yd_len(c->doc, m); i++) {
		size_t len;
		const char *id = yd_str(c->doc, yd_key(c->doc, m, i), &len);
		int rule = id ? rule_find(id, len) : -1;
		if (rule < 0)
			return mcp_fail(c, "severity: unknown rule '%s'", id ? id : "");
		opt->level[rule] = severity_parse(yd_str(c->doc, yd_value(c->doc, m, i), NULL));
	}
	return true;
}

static bool defines(struct mcp_call *c, struct tmpl_defs *defs)
{
	yd_node m = mcp_arg(c, "define");
	for (size_t i = 0; m && i < yd_len(c->doc, m); i++) {
		const char *name = yd_str(c->doc, yd_key(c->doc, m, i), NULL);
		const char *value = yd_str(c->doc, yd_value(c->doc, m, i), NULL);
		struct buf arg = BUF_INIT;
		buf_printf(&arg, "%s=%s", name ? name : "", value ? value : "");
		const char *why = NULL;
		bool ok = tmpl_defs_parse(defs, arg.p, &why);
		buf_free(&arg);
		if (!ok)
			return mcp_fail(c, "define: %s: %s", name ? name : "", why ? why : "not NAME=VALUE");
	}
	return true;
}

static const struct {
	const char *word;
	int value;
} shellchecks[] = {
	{ "auto", SHELLCHECK_AUTO }, { "off", SHELLCHECK_OFF }, { "required", SHELLCHECK_REQUIRED },
}, kinds[] = {
	{ "auto", KIND_AUTO }, { "pcluster", KIND_PCLUSTER }, { "jobspec", KIND_JOBSPEC },
	{ "sbatch", KIND_SBATCH },
};

/* The options, the files and the settings; false: a tool error is set.
 * base: diff's old version (the settings copy the options it is in). */
static bool linting_setup(struct mcp_call *c, struct linting *l, const char *default_select,
			  const char *base)
{
	memset(l, 0, sizeof *l);
	lint_options_init(&l->opt);
	l->opt.base_path = base;
	l->opt.check_jobspec_at = jobspec_lint_at;
	l->opt.shellcheck = c->s->shellcheck;
	l->opt.shellcheck_program = c->s->shellcheck_program;
	l->flags.fail_level = -1;
	l->flags.isolated = mcp_arg_bool(c, "isolated");
	const char *sc = mcp_arg_str(c, "shellcheck"), *kind = mcp_arg_str(c, "kind");
	for (size_t i = 0; sc && i < sizeof shellchecks / sizeof shellchecks[0]; i++)
		if (!strcmp(sc, shellchecks[i].word)) {
			l->opt.shellcheck = (enum shellcheck_mode)shellchecks[i].value;
			l->flags.shellcheck_set = true;
		}
	for (size_t i = 0; kind && i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kind, kinds[i].word))
			l->opt.kind = (enum file_kind)kinds[i].value;
	if (!selectors(c, "select", &l->select) || !selectors(c, "ignore", &l->ignore) ||
	    !severities(c, &l->opt) || !defines(c, &l->defines) || !mcp_target(c, &l->opt.target_flags))
		return false;
	if (l->select.len || default_select)
		l->flags.select = l->select.len ? l->select.p : default_select;
	if (l->ignore.len)
		l->flags.ignore = l->ignore.p;
	if (l->defines.len)
		l->opt.defines = &l->defines;
	yd_node files = mcp_arg(c, "files");
	size_t n = files ? yd_len(c->doc, files) : 0;
	l->paths = calloc(n ? n : 1, sizeof *l->paths);
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		ok &= mcp_take_file(c, "file", yd_item(c->doc, files, i), &l->paths[l->n_paths++]);
	const char *cluster = mcp_arg_str(c, "cluster");
	if (cluster && mcp_path_ok(c, "cluster", cluster, false))
		l->opt.cluster_path = cluster;
	if (!ok || c->error.len)
		return false;
	l->cfg = settings_new(&l->opt, &l->flags, &l->trouble);
	if (!l->cfg) {
		for (size_t i = 0; i < l->trouble.len; i++)
			mcp_fail(c, "%s", l->trouble.msgs[i]);
		return false;
	}
	l->opt.options_for = settings_options_for;
	l->opt.options_ctx = l->cfg;
	return true;
}

static void linting_run(struct linting *l)
{
	lint_run_init(&l->run, &l->opt);
	l->ran = true;
	for (size_t i = 0; i < l->n_paths; i++)
		lint_path(&l->run, l->paths[i]);
	lint_run_finish(&l->run);
	diag_list_sort(&l->run.diags);
}

static void put_report(const struct linting *l, const struct lint_run *run, struct buf *json,
		       struct buf *text)
{
	struct target base = target_apply(target_default(), &l->opt.target_flags);
	mcp_report(run, &base, &l->trouble, json, text);
}

void tool_lint(struct mcp_call *c)
{
	struct linting l;
	if (linting_setup(c, &l, NULL, NULL)) {
		linting_run(&l);
		put_report(&l, &l.run, &c->json, &c->text);
	}
	linting_free(&l);
}

void tool_diff(struct mcp_call *c)
{
	struct linting l;
	memset(&l, 0, sizeof l);
	const char *old_path, *new_path;
	if (mcp_take_file(c, "old", mcp_arg(c, "old"), &old_path) &&
	    mcp_take_file(c, "new", mcp_arg(c, "new"), &new_path) &&
	    linting_setup(c, &l, "LN1,PC5", old_path)) { /* what trainforge diff selects */
		l.paths[l.n_paths++] = new_path;
		linting_run(&l);
		put_report(&l, &l.run, &c->json, &c->text);
	}
	linting_free(&l);
}

/* ---- fix ------------------------------------------------------------- */

static void put_applied(const struct lint_run *run, bool unsafe, struct buf *b)
{
	bool first = true;
	for (size_t i = 0; i < run->diags.len; i++) {
		const struct diag *d = &run->diags.v[i];
		enum fix_choice ch = fix_chosen(d, unsafe);
		if (ch == FIX_CHOSEN_NONE)
			continue;
		bool alt = ch == FIX_CHOSEN_ALT;
		char id[8];
		buf_puts(b, first ? "{\"path\":" : ",{\"path\":");
		first = false;
		json_put_str(b, d->src->path, strlen(d->src->path));
		buf_printf(b, ",\"rule\":\"%s\",\"applicability\":\"%s\",\"line\":%u,\"column\":%u,"
			   "\"endLine\":%u,\"endColumn\":%u,\"content\":", diag_id(d, id),
			   alt || !d->fix_safe ? "unsafe" : "safe",
			   alt ? d->alt->line : d->fix_line, alt ? d->alt->col : d->fix_col,
			   alt ? d->alt->end_line : d->fix_end_line, alt ? d->alt->end_col : d->fix_end_col);
		const char *text = alt ? d->alt->text : d->fix;
		json_put_str(b, text, strlen(text));
		buf_putc(b, '}');
	}
}

/* The run again over the fixed text: what is left. */
static void lint_fixed(const struct linting *l, const struct fix_result *res, struct lint_run *again)
{
	lint_run_init(again, &l->opt);
	for (size_t i = 0; i < l->run.n_files; i++) {
		const struct lint_file *f = l->run.files[i];
		if (!f->input)
			continue;
		const char *text = f->src->text;
		size_t len = f->src->len;
		for (size_t k = 0; k < res->len; k++)
			if (!strcmp(res->v[k].path, f->src->path))
				text = res->v[k].after, len = res->v[k].after_len;
		lint_text(again, f->src->path, text, len, f->named);
	}
	lint_run_finish(again);
	diag_list_sort(&again->diags);
}

void tool_fix(struct mcp_call *c)
{
	struct linting l;
	if (!linting_setup(c, &l, NULL, NULL)) {
		linting_free(&l);
		return;
	}
	bool unsafe = mcp_arg_bool(c, "unsafe");
	linting_run(&l);
	struct fix_result res;
	fix_run(&l.opt, &l.run, unsafe, &res);
	if (!res.converged) /* as --fix: nothing, rather than half */
		fix_result_free(&res);
	struct buf *b = &c->json;
	buf_puts(b, "{\"files\":[");
	for (size_t i = 0; i < res.len; i++) {
		buf_puts(b, i ? ",{\"path\":" : "{\"path\":");
		json_put_str(b, res.v[i].path, strlen(res.v[i].path));
		buf_puts(b, ",\"content\":");
		json_put_str(b, res.v[i].after, res.v[i].after_len);
		buf_printf(b, ",\"fixes\":%zu}", res.v[i].fixes);
	}
	char *diff = NULL;
	size_t diff_len = 0;
	FILE *f = open_memstream(&diff, &diff_len);
	fix_diff(&res, f);
	fclose(f);
	buf_printf(b, "],\"fixes\":%zu,\"converged\":%s,\"diff\":", res.fixes,
		   res.converged ? "true" : "false");
	json_put_str(b, diff, diff_len);
	buf_puts(b, ",\"applied\":[");
	if (res.converged)
		put_applied(&l.run, unsafe, b);
	size_t more = 0;
	bool safe;
	for (size_t i = 0; !unsafe && i < l.run.diags.len; i++)
		more += fix_available(&l.run.diags.v[i], &safe) && !safe;
	buf_printf(b, "],\"unsafeFixesAvailable\":%zu,\"remaining\":", more);
	struct lint_run again;
	lint_fixed(&l, &res, &again);
	struct buf remaining_text = BUF_INIT;
	put_report(&l, &again, b, &remaining_text);
	buf_putc(b, '}');

	struct buf *t = &c->text;
	if (!res.converged)
		buf_printf(t, "The fixes did not settle after %d passes: nothing to apply.\n", FIX_MAX_PASSES);
	else if (!res.len)
		buf_puts(t, "Nothing to fix.\n");
	else
		buf_printf(t, "%zu fix%s in %zu file%s (nothing is written; the diff applies with patch -p1):\n%.*s",
			   res.fixes, res.fixes == 1 ? "" : "es", res.len, res.len == 1 ? "" : "s",
			   (int)diff_len, diff);
	if (more)
		buf_printf(t, "%zu more fix%s available with unsafe: true.\n", more, more == 1 ? " is" : "es are");
	buf_puts(t, "\nWhat remains:\n");
	buf_put(t, remaining_text.p, remaining_text.len);
	buf_free(&remaining_text);
	free(diff);
	lint_run_fini(&again);
	fix_result_free(&res);
	linting_free(&l);
}
