/* The pipeline: classify each input, run the rules of its kind, keep
 * cluster configs and batch scripts for the cross-checks that need both,
 * then suppressions and rule selection. */
#include "lint.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "lint_internal.h"
#include "pcluster.h"
#include "sbatch.h"
#include "suppress.h"
#include "text.h"
#include "xalloc.h"

void lint_options_init(struct lint_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->kind = KIND_AUTO;
	opt->max_bytes = 16u << 20;
	opt->shellcheck = SHELLCHECK_AUTO;
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
	for (size_t i = 0; i < run->n_clusters; i++)
		yamldoc_free(run->clusters[i].doc);
	for (size_t i = 0; i < run->n_sources; i++)
		source_free(run->sources[i]);
	free(run->clusters);
	free(run->inputs);
	free(run->scripts);
	free(run->shells);
	free(run->shells_named);
	free(run->sources);
}

struct source *lint_keep_source(struct lint_run *run, const char *path, char *text, size_t len)
{
	struct source *src = source_new(path, text, len);
	run->sources = xgrow(run->sources, &run->cap_sources, run->n_sources + 1,
			     sizeof *run->sources);
	run->sources[run->n_sources++] = src;
	return src;
}

void lint_io_error(struct lint_run *run, const char *path, const char *why)
{
	fprintf(stderr, "trainforge: %s: %s\n", path, why);
	run->io_failed = true;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static bool yaml_name(const char *path)
{
	return has_suffix(path, ".yaml") || has_suffix(path, ".yml");
}

static bool script_name(const char *path)
{
	return has_suffix(path, ".sbatch") || has_suffix(path, ".slurm");
}

bool lint_candidate(const char *path)
{
	return yaml_name(path) || script_name(path) || has_suffix(path, ".sh") ||
	       has_suffix(path, ".bash");
}

/* ---- classification -------------------------------------------------- */

/* A batch script is a shell script with #SBATCH lines, or any file with a
 * batch-script name (DESIGN.md, Kinds). */
static bool has_sbatch_line(const struct source *src)
{
	const char *p = src->text, *end = src->text + src->len;
	while (p < end) {
		if (end - p >= 7 && memcmp(p, "#SBATCH", 7) == 0)
			return true;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl ? nl + 1 : end;
	}
	return false;
}

/* DESIGN.md's kinds: a cluster config has top-level HeadNode and
 * Scheduling; a job spec has `trainforge:` (its format version). */
static enum lint_kind classify_yaml(const yamldoc *doc)
{
	yd_node root = yd_root(doc);
	if (yd_kind(doc, root) != YD_MAPPING)
		return KIND_UNKNOWN;
	if (yd_get_key(doc, root, "HeadNode") && yd_get_key(doc, root, "Scheduling"))
		return KIND_PCLUSTER;
	if (yd_get_key(doc, root, "trainforge"))
		return KIND_JOBSPEC;
	return KIND_UNKNOWN;
}

static const char *const kind_names[] = {
	[KIND_AUTO] = NULL, [KIND_PCLUSTER] = "pcluster", [KIND_JOBSPEC] = "jobspec",
	[KIND_SBATCH] = "sbatch", [KIND_UNKNOWN] = NULL,
};

static const enum rule_id issue_rule[] = {
	[YD_ISSUE_SYNTAX] = R_LN1001,
	[YD_ISSUE_DUPLICATE_KEY] = R_PC0001,
	[YD_ISSUE_DEPTH] = R_LN1006,
	[YD_ISSUE_ALIAS_BUDGET] = R_LN1007,
	[YD_ISSUE_MULTI_DOC] = R_LN1009,
};

static void report_issues(struct lint_run *run, struct source *src,
			  const yamldoc *doc, enum lint_kind kind)
{
	for (size_t i = 0; i < yamldoc_issue_count(doc); i++) {
		const struct yd_issue *is = yamldoc_issue(doc, i);
		enum rule_id rule = issue_rule[is->code];
		if (is->code == YD_ISSUE_DUPLICATE_KEY && kind == KIND_JOBSPEC)
			rule = R_JS0001;
		else if (is->code == YD_ISSUE_DUPLICATE_KEY && kind != KIND_PCLUSTER)
			continue;
		struct diag *d = diag_add(&run->diags, src, rule,
					  is->span.line, is->span.col,
					  is->span.end_line, is->span.end_col, "%s%s",
					  is->code == YD_ISSUE_SYNTAX ? "YAML syntax error: " : "",
					  is->msg);
		if (is->code == YD_ISSUE_DUPLICATE_KEY)
			diag_set_help(d, "%s", kind == KIND_PCLUSTER
				      ? "ParallelCluster rejects duplicate keys; keep one"
				      : "a YAML loader keeps only one of them; keep one");
	}
}

/* Checks that apply to bytes before any parse; false stops the file. */
static bool check_bytes(struct lint_run *run, struct source *src, bool named)
{
	size_t where;
	enum input_problem p = text_check_input(src->text, src->len, &where);
	uint32_t line, col;
	if (p == INPUT_OK) {
		size_t i = 0;
		while (i < src->len && strchr(" \t\r\n", src->text[i]))
			i++;
		if (i < src->len)
			return true;
		if (named)
			diag_add(&run->diags, src, R_LN1004, 1, 1, 1, 1, "the file is empty");
		return false;
	}
	if (!named)
		return false;
	source_locate(src, where, &line, &col);
	if (p == INPUT_BINARY)
		diag_add(&run->diags, src, R_LN1003, line, col, line, col + 1,
			 "NUL byte at offset %zu: this is a binary file, not text", where);
	else
		diag_add(&run->diags, src, R_LN1002, line, col, line, col + 1,
			 "invalid UTF-8 byte 0x%02x at offset %zu",
			 (unsigned char)src->text[where], where);
	return false;
}

const struct lint_options *lint_options_of(const struct lint_run *run,
					   const struct source *src)
{
	const struct lint_options *opt = NULL;
	if (run->opt->options_for)
		opt = run->opt->options_for(run->opt->options_ctx, src->path);
	return opt ? opt : run->opt;
}

void lint_apply_selection(struct lint_run *run, size_t first)
{
	for (size_t i = first; i < run->diags.len;) {
		struct diag *d = &run->diags.v[i];
		const struct lint_options *opt = lint_options_of(run, d->src);
		if (!opt->enabled[d->rule]) {
			diag_remove(&run->diags, i);
			continue;
		}
		if (opt->level[d->rule] >= 0 && !d->ext_code)
			d->sev = (enum severity)opt->level[d->rule];
		i++;
	}
}

static void keep_cluster(struct lint_run *run, struct source *src, yamldoc *doc)
{
	run->clusters = xgrow(run->clusters, &run->cap_clusters, run->n_clusters + 1,
			      sizeof *run->clusters);
	run->clusters[run->n_clusters++] = (struct lint_cluster){ cluster_of(src, doc), doc };
}

static void keep_script(struct lint_run *run, struct source *src)
{
	run->scripts = xgrow(run->scripts, &run->cap_scripts, run->n_scripts + 1,
			     sizeof *run->scripts);
	run->scripts[run->n_scripts++] = src;
}

/* Scripts wait for lint_run_finish, when every cluster config is known. */
static bool lint_as_script(struct lint_run *run, struct source *src, bool named)
{
	enum lint_kind kind = run->opt->kind;
	bool script = kind == KIND_SBATCH ||
		      (kind == KIND_AUTO && (script_name(src->path) ||
					     (!yaml_name(src->path) && has_sbatch_line(src))));
	if (!script && kind == KIND_AUTO && (has_suffix(src->path, ".sh") || has_suffix(src->path, ".bash"))) {
		/* a per-node script: checked if a batch script starts it */
		size_t cap = run->cap_shells;
		run->shells = xgrow(run->shells, &run->cap_shells, run->n_shells + 1, sizeof *run->shells);
		run->shells_named = xgrow(run->shells_named, &cap, run->n_shells + 1,
					  sizeof *run->shells_named);
		run->shells_named[run->n_shells] = named;
		run->shells[run->n_shells++] = src;
		return true;
	}
	if (!script) /* a walked file that is neither YAML nor a script: skip */
		return !yaml_name(src->path) && !named && kind == KIND_AUTO;
	run->files_checked++;
	src->kind = kind_names[KIND_SBATCH];
	keep_script(run, src);
	return true;
}

void lint_source(struct lint_run *run, struct source *src, bool named)
{
	size_t first = run->diags.len;
	run->inputs = xgrow(run->inputs, &run->cap_inputs, run->n_inputs + 1, sizeof *run->inputs);
	run->inputs[run->n_inputs++] = (struct lint_input){ src, named };
	if (lint_options_of(run, src)->excluded)
		return;
	if (!check_bytes(run, src, named)) {
		lint_apply_selection(run, first);
		return;
	}
	if (lint_as_script(run, src, named))
		return;
	enum lint_kind kind = run->opt->kind;
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	if (kind == KIND_AUTO)
		kind = classify_yaml(doc);
	if (kind == KIND_UNKNOWN && !named) {
		yamldoc_free(doc);
		return;
	}
	run->files_checked++;
	src->kind = kind_names[kind];
	/* text that is neither YAML by name nor any known kind is not judged
	 * as YAML: a named README gets the note, not syntax errors */
	bool yaml = kind != KIND_UNKNOWN || yaml_name(src->path) || run->opt->kind != KIND_AUTO;
	if (yaml)
		report_issues(run, src, doc, kind);
	bool whole = !yamldoc_broken(doc) || !yaml;
	if (kind == KIND_PCLUSTER && whole)
		pcluster_lint(src, doc, &run->diags);
	else if (kind == KIND_JOBSPEC && whole && run->opt->check_jobspec)
		run->opt->check_jobspec(src, doc, &run->diags);
	else if (kind == KIND_UNKNOWN && whole)
		diag_add(&run->diags, src, R_LN1008, 1, 1, 1, 1,
			 "not a ParallelCluster config, job spec or batch script; only input checks ran");
	suppress_apply(src, doc, &run->diags, first, lint_options_of(run, src)->enabled);
	lint_apply_selection(run, first);
	if (kind == KIND_PCLUSTER && whole)
		keep_cluster(run, src, doc);
	else
		yamldoc_free(doc);
}

void lint_text(struct lint_run *run, const char *path, const char *text,
	       size_t len, bool named)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	lint_source(run, lint_keep_source(run, path, copy, len), named);
}

/* ---- batch scripts, once every input is in ---------------------------- */

/* Reads the cluster config a script names; NULL (and SB3005) when it
 * cannot be used. Relative paths are relative to the script. */
static const struct cluster *load_cluster(struct lint_run *run, const char *path,
					  const char *relative_to)
{
	char full[4096];
	if (path[0] != '/' && relative_to) {
		char *copy = xstrdup(relative_to);
		snprintf(full, sizeof full, "%s/%s", dirname(copy), path);
		free(copy);
	} else {
		snprintf(full, sizeof full, "%s", path);
	}
	for (size_t i = 0; i < run->n_clusters; i++)
		if (strcmp(run->clusters[i].model.src->path, full) == 0)
			return &run->clusters[i].model;
	FILE *f = fopen(full, "rb");
	if (!f)
		return NULL;
	struct buf b = BUF_INIT;
	char chunk[16384];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len <= run->opt->max_bytes)
		buf_put(&b, chunk, n);
	fclose(f);
	size_t len = b.len;
	struct source *src = lint_keep_source(run, full, buf_detach(&b), len);
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	if (yamldoc_broken(doc) || classify_yaml(doc) != KIND_PCLUSTER) {
		yamldoc_free(doc);
		return NULL;
	}
	src->kind = kind_names[KIND_PCLUSTER];
	keep_cluster(run, src, doc);
	return &run->clusters[run->n_clusters - 1].model;
}

/* DESIGN.md's pairing: --cluster, then a `# trainforge cluster=PATH`
 * comment, then `cluster:` in the config, then the only cluster config
 * among the inputs. */
static const struct cluster *pair(struct lint_run *run, struct source *script,
				       size_t known_clusters)
{
	char named[4096];
	const struct lint_options *opt = lint_options_of(run, script);
	if (opt->cluster_path)
		return load_cluster(run, opt->cluster_path, NULL);
	if (sbatch_cluster_directive(script, named, sizeof named)) {
		const struct cluster *c = load_cluster(run, named, script->path);
		if (!c)
			sbatch_report_unreadable_cluster(script, named, &run->diags);
		return c;
	}
	if (opt->cluster_fallback) {
		const struct cluster *c = load_cluster(run, opt->cluster_fallback, NULL);
		if (!c)
			sbatch_report_unreadable_cluster(script, opt->cluster_fallback, &run->diags);
		return c;
	}
	return known_clusters == 1 ? &run->clusters[0].model : NULL;
}

static bool same_program(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* One shellcheck process per distinct setting (configs may differ). */
static void run_shellcheck(struct lint_run *run)
{
	bool *done = xcalloc(run->n_scripts ? run->n_scripts : 1, sizeof *done);
	struct source **group = xcalloc(run->n_scripts ? run->n_scripts : 1, sizeof *group);
	for (size_t i = 0; i < run->n_scripts; i++) {
		if (done[i])
			continue;
		const struct lint_options *o = lint_options_of(run, run->scripts[i]);
		size_t n = 0;
		for (size_t k = i; k < run->n_scripts; k++) {
			const struct lint_options *ok = lint_options_of(run, run->scripts[k]);
			if (!done[k] && ok->shellcheck == o->shellcheck &&
			    same_program(ok->shellcheck_program, o->shellcheck_program)) {
				done[k] = true;
				group[n++] = run->scripts[k];
			}
		}
		if (!shellcheck_run(group, n, o->shellcheck, o->shellcheck_program, &run->diags) &&
		    o->shellcheck == SHELLCHECK_REQUIRED && !run->shellcheck_failed) {
			fputs("trainforge: shellcheck is required (--shellcheck or the config), but shellcheck could not run\n",
			      stderr);
			run->shellcheck_failed = true;
		}
	}
	free(group);
	free(done);
}

/* Shell scripts among the inputs that a batch script starts with srun are
 * checked as scripts; the others, when named, get the note. */
static void adopt_shells(struct lint_run *run)
{
	size_t batch = run->n_scripts;
	for (size_t i = 0; i < run->n_shells; i++) {
		struct source *sh = run->shells[i];
		bool called = false;
		for (size_t k = 0; k < batch && !called; k++) {
			sb_model *m = sb_parse(run->scripts[k]->text, run->scripts[k]->len, NULL);
			called = sbatch_calls_with_srun(m, run->scripts[k]->path, sh->path);
			sb_free(m);
		}
		if (called) {
			run->files_checked++;
			sh->kind = kind_names[KIND_SBATCH];
			keep_script(run, sh);
		} else if (run->shells_named[i]) {
			size_t first = run->diags.len;
			run->files_checked++;
			diag_add(&run->diags, sh, R_LN1008, 1, 1, 1, 1,
				 "a shell script without #SBATCH lines that no batch script among the inputs starts with srun; only input checks ran");
			lint_apply_selection(run, first);
		}
	}
}

void lint_run_finish(struct lint_run *run)
{
	adopt_shells(run);
	size_t first = run->diags.len;
	size_t known_clusters = run->n_clusters;
	sb_model **models = xcalloc(run->n_scripts ? run->n_scripts : 1, sizeof *models);
	for (size_t i = 0; i < run->n_scripts; i++)
		models[i] = sb_parse(run->scripts[i]->text, run->scripts[i]->len, NULL);
	for (size_t i = 0; i < run->n_scripts; i++) {
		/* a per-node script started by another input runs under its srun */
		const sb_model *caller = NULL;
		for (size_t k = 0; k < run->n_scripts && !caller; k++)
			if (k != i && sbatch_calls_with_srun(models[k], run->scripts[k]->path,
							     run->scripts[i]->path))
				caller = models[k];
		sbatch_lint(run->scripts[i], models[i], pair(run, run->scripts[i], known_clusters),
			    caller, &run->diags);
	}
	for (size_t i = 0; i < run->n_scripts; i++)
		sb_free(models[i]);
	free(models);
	run_shellcheck(run);
	for (size_t i = 0; i < run->n_scripts; i++)
		suppress_apply(run->scripts[i], NULL, &run->diags, first,
			       lint_options_of(run, run->scripts[i])->enabled);
	lint_apply_selection(run, first);
}
