/* The pipeline: classify each input, run the rules of its kind, keep
 * cluster configs and batch scripts for the cross-checks that need both,
 * then suppressions and rule selection. Each file is parsed once per
 * run; the run owns every file and what was parsed of it. */
#include "lint.h"

#include <stdlib.h>
#include <string.h>

#include "lint_internal.h"
#include "ln.h"
#include "pcluster.h"
#include "sbatch.h"
#include "suppress.h"
#include "xalloc.h"

void lint_options_init(struct lint_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->kind = KIND_AUTO;
	opt->max_bytes = TF_DEFAULT_MAX_BYTES;
	opt->shellcheck = SHELLCHECK_AUTO;
	opt->idle_cost_warning = -1;
	opt->target = target_default();
	for (int i = 0; i < RULE__COUNT; i++) {
		opt->enabled[i] = true;
		opt->level[i] = -1;
	}
}

void lint_run_init(struct lint_run *run, const struct lint_options *opt)
{
	memset(run, 0, sizeof *run);
	run->opt = opt;
}

void lint_run_fini(struct lint_run *run)
{
	diag_list_free(&run->diags);
	trouble_free(&run->trouble);
	for (size_t i = 0; i < run->n_files; i++) {
		struct lint_file *f = run->files[i];
		sb_free(f->model);
		yamldoc_free(f->doc);
		yamldoc_free(f->as_written);
		tmpl_free(&f->tmpl);
		source_free(f->src);
		free(f);
	}
	free(run->files);
}

struct lint_file *lint_add_file(struct lint_run *run, const char *path, char *text, size_t len,
				bool named)
{
	struct lint_file *f = xcalloc(1, sizeof *f);
	f->src = source_new(path, text, len);
	f->named = named;
	f->input = true;
	run->files = xgrow(run->files, &run->cap_files, run->n_files + 1, sizeof *run->files);
	run->files[run->n_files++] = f;
	return f;
}

void lint_io_error(struct lint_run *run, const char *path, const char *why)
{
	trouble_add(&run->trouble, "trainforge: %s: %s", path, why);
	run->io_failed = true;
}

const struct lint_options *lint_options_of(const struct lint_run *run,
					   const struct source *src)
{
	const struct lint_options *opt = NULL;
	if (run->opt->options_for)
		opt = run->opt->options_for(run->opt->options_ctx, src->path);
	return opt ? opt : run->opt;
}

/* A diagnostic of an enabled rule, re-levelled by --severity. */
static bool selected(struct diag *d, void *ctx)
{
	const struct lint_options *opt = lint_options_of(ctx, d->src);
	if (!opt->enabled[d->rule])
		return false;
	if (opt->level[d->rule] >= 0 && !d->ext_code)
		d->sev = (enum severity)opt->level[d->rule];
	return true;
}

void lint_apply_selection(struct lint_run *run, size_t first)
{
	diag_list_filter(&run->diags, first, selected, run);
}

/* Scripts wait for lint_run_finish, when every cluster config is known;
 * a shell script without #SBATCH waits to learn whether a batch script
 * starts it. False: the file is YAML (or judged as such). */
static bool take_as_script(struct lint_run *run, struct lint_file *f)
{
	const char *path = f->src->path;
	enum file_kind kind = run->opt->kind;
	bool script = kind == KIND_SBATCH ||
		      (kind == KIND_AUTO && (lint_script_name(path) ||
					     (!lint_yaml_name(path) && lint_has_sbatch_line(f->src))));
	if (!script && kind == KIND_AUTO && lint_shell_name(path)) {
		f->shell = true;
		return true;
	}
	if (!script) /* a walked file that is neither YAML nor a script: skip */
		return !lint_yaml_name(path) && !f->named && kind == KIND_AUTO;
	run->files_checked++;
	f->kind = f->src->kind = KIND_SBATCH;
	f->model = sb_parse(f->src->text, f->src->len, NULL);
	f->complete = sb_problem_count(f->model) == 0;
	return true;
}

/* The rules a suppression directive of the file may be unused for: a
 * change rule has nothing to find without an old version, so its
 * directive, written for a review, is not reported unused (LN0001) by a
 * lint that did none. */
static const bool *directive_rules(const bool *enabled, bool reviewed, bool out[RULE__COUNT])
{
	if (reviewed)
		return enabled;
	for (int r = 0; r < RULE__COUNT; r++)
		out[r] = enabled[r] && rule_area_of((enum rule_id)r) != AREA_PC_UPDATE;
	return out;
}

static void check_yaml(struct lint_run *run, struct lint_file *f, size_t first)
{
	struct source *src = f->src;
	enum file_kind kind = lint_parse_yaml(run, f, run->opt->kind);
	if (kind == KIND_UNKNOWN && !f->named)
		return;
	run->files_checked++;
	f->kind = src->kind = kind;
	/* text that is neither YAML by name nor any known kind is not judged
	 * as YAML: a named README gets the note, not syntax errors */
	bool yaml = kind != KIND_UNKNOWN || lint_yaml_name(src->path) || run->opt->kind != KIND_AUTO;
	if (yaml)
		ln_yaml_issues(&run->diags, src, f->doc, kind, &f->tmpl);
	f->complete = !yamldoc_broken(f->doc) || !yaml;
	const struct lint_options *opt = lint_options_of(run, src);
	if (kind != KIND_UNKNOWN && f->complete)
		ln_template_placeholders(&run->diags, src, &f->tmpl);
	bool reviewed = false;
	if (kind == KIND_PCLUSTER && f->complete) {
		const struct pc_reading how = { &f->tmpl, f->as_written };
		struct pc_settings set = { &opt->target, opt->idle_cost_warning, &how };
		f->cluster = cluster_of(src, f->doc);
		pcluster_lint_with(src, f->doc, &set, &run->diags);
		reviewed = lint_review(run, src, f->doc);
	} else if (kind == KIND_JOBSPEC && f->complete && run->opt->check_jobspec_at) {
		run->opt->check_jobspec_at(src, f->doc, &opt->target, &run->diags);
	} else if (kind == KIND_JOBSPEC && f->complete && run->opt->check_jobspec) {
		run->opt->check_jobspec(src, f->doc, &run->diags);
	} else if (kind == KIND_UNKNOWN && f->complete) {
		ln_unknown_kind(&run->diags, src,
				"not a ParallelCluster config, job spec or batch script; only input checks ran");
	}
	diag_collapse(&run->diags, first, src, opt->enabled);
	bool rules[RULE__COUNT];
	suppress_apply(src, f->doc, &run->diags, first,
		       directive_rules(opt->enabled, reviewed, rules), f->complete);
	lint_apply_selection(run, first);
}

void lint_file_check(struct lint_run *run, struct lint_file *f)
{
	size_t first = run->diags.len;
	if (lint_options_of(run, f->src)->excluded)
		return;
	if (!ln_check_bytes(&run->diags, f->src, f->named)) {
		lint_apply_selection(run, first);
		return;
	}
	if (!take_as_script(run, f))
		check_yaml(run, f, first);
}

void lint_text(struct lint_run *run, const char *path, const char *text,
	       size_t len, bool named)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	lint_file_check(run, lint_add_file(run, path, copy, len, named));
}

/* ---- batch scripts, once every input is in ---------------------------- */

static bool same_program(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* One shellcheck process per distinct setting (configs may differ). */
static void run_shellcheck(struct lint_run *run, struct lint_file **scripts, size_t n)
{
	bool *done = xcalloc(n ? n : 1, sizeof *done);
	struct source **group = xcalloc(n ? n : 1, sizeof *group);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		const struct lint_options *o = lint_options_of(run, scripts[i]->src);
		size_t m = 0;
		for (size_t k = i; k < n; k++) {
			const struct lint_options *ok = lint_options_of(run, scripts[k]->src);
			if (!done[k] && ok->shellcheck == o->shellcheck &&
			    same_program(ok->shellcheck_program, o->shellcheck_program)) {
				done[k] = true;
				group[m++] = scripts[k]->src;
			}
		}
		if (!shellcheck_run(group, m, o->shellcheck, o->shellcheck_program, &run->diags,
				    &run->trouble) &&
		    o->shellcheck == SHELLCHECK_REQUIRED && !run->shellcheck_failed) {
			trouble_add(&run->trouble,
				    "trainforge: shellcheck is required (--shellcheck or the config), but shellcheck could not run");
			run->shellcheck_failed = true;
		}
	}
	free(group);
	free(done);
}

static size_t count_input_clusters(const struct lint_run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->n_files; i++)
		n += run->files[i]->input && run->files[i]->kind == KIND_PCLUSTER &&
		     run->files[i]->complete;
	return n;
}

void lint_run_finish(struct lint_run *run)
{
	lint_adopt_shells(run);
	size_t first = run->diags.len;
	size_t known_clusters = count_input_clusters(run);
	/* batch scripts first, then the shell scripts they start, as read */
	size_t n = 0, n_files = run->n_files;
	struct lint_file **scripts = xcalloc(n_files ? n_files : 1, sizeof *scripts);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n_files; i++)
			if (run->files[i]->kind == KIND_SBATCH && run->files[i]->shell == (pass == 1))
				scripts[n++] = run->files[i];
	for (size_t i = 0; i < n; i++) {
		const struct lint_file *caller = lint_caller_of(scripts, n, scripts[i]);
		sbatch_lint_at(scripts[i]->src, scripts[i]->model,
			       lint_pair(run, scripts[i], known_clusters), caller ? caller->model : NULL,
			       &lint_options_of(run, scripts[i]->src)->target, &run->diags);
	}
	run_shellcheck(run, scripts, n);
	for (size_t i = 0; i < n; i++) {
		const bool *enabled = lint_options_of(run, scripts[i]->src)->enabled;
		diag_collapse(&run->diags, first, scripts[i]->src, enabled);
		suppress_apply(scripts[i]->src, NULL, &run->diags, first, enabled,
			       scripts[i]->complete);
	}
	lint_apply_selection(run, first);
	free(scripts);
}
