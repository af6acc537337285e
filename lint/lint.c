/* The pipeline: classify each input, run the rules of its kind, keep
 * cluster configs and batch scripts for the cross-checks that need both,
 * then suppressions and rule selection. Each file is parsed once per
 * run; the run owns every file and what was parsed of it. */
#include "lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lint_internal.h"
#include "ln.h"
#include "pcluster.h"
#include "sbatch.h"
#include "settings.h"
#include "suppress.h"
#include "xalloc.h"

void lint_options_init(struct lint_options *opt)
{
	memset(opt, 0, sizeof *opt);
	opt->kind = KIND_AUTO;
	opt->max_bytes = TF_DEFAULT_MAX_BYTES;
	opt->shellcheck = SHELLCHECK_AUTO;
	opt->shellcheck_timeout = SHELLCHECK_TIMEOUT;
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
		lint_template_free(f->tmpl);
		yamldoc_free(f->doc);
		yamldoc_free(f->as_written);
		tmpl_free(&f->yaml_tmpl);
		source_free(f->src);
		free(f);
	}
	free(run->files);
	lint_programs_free(run);
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

/* A file in another language is no batch script, whatever #SBATCH text
 * it holds (sbatch runs it with its own interpreter, which the model
 * does not read). */
static void not_shell(struct lint_run *run, struct lint_file *f, const char *why)
{
	if (run->opt->skip_unknown)
		return; /* not the hook's to report */
	size_t first = run->diags.len;
	char msg[192];
	snprintf(msg, sizeof msg,
		 "not a shell script: %s (trainforge reads sh and bash batch scripts); only input checks ran",
		 why);
	run->files_checked++;
	ln_unknown_kind(&run->diags, f->src, msg);
	lint_apply_selection(run, first);
}

/* Scripts wait for lint_run_finish, when every cluster config is known;
 * a shell script without #SBATCH waits to learn whether a batch script
 * starts it. False: the file is YAML (or judged as such). */
static bool take_as_script(struct lint_run *run, struct lint_file *f)
{
	const char *path = f->src->path;
	enum file_kind kind = run->opt->kind;
	char why[96];
	if (kind == KIND_AUTO && f->named && lint_python_name(path)) {
		/* read when a batch script starts it; the note otherwise
		 * (lint_run_finish) */
		f->program = true;
		return true;
	}
	/* sbatch reads the #SBATCH lines of a csh script as of any other;
	 * its body is csh's */
	if (kind != KIND_PCLUSTER && kind != KIND_JOBSPEC && !lint_yaml_name(path) &&
	    lint_csh(f->src) && lint_has_sbatch_line(f->src)) {
		run->files_checked++;
		f->kind = f->src->kind = KIND_SBATCH;
		f->csh = true;
		lint_parse_script(f);
		return true;
	}
	if (kind == KIND_AUTO && !lint_yaml_name(path) && lint_not_shell(f->src, why, sizeof why)) {
		if (f->named)
			not_shell(run, f, why);
		else
			run->skipped[SKIP_LANGUAGE]++; /* as every walked file of no kind */
		return true;
	}
	bool script = kind == KIND_SBATCH ||
		      (kind == KIND_AUTO && (lint_script_name(path) ||
					     (!lint_yaml_name(path) && lint_has_sbatch_line(f->src))));
	if (!script && kind == KIND_AUTO && lint_shell_name(path)) {
		f->shell = true;
		return true;
	}
	if (!script && !lint_yaml_name(path) && !f->named && kind == KIND_AUTO) {
		run->skipped[SKIP_NO_KIND]++; /* walked, neither YAML nor a script */
		return true;
	}
	if (!script)
		return false;
	run->files_checked++;
	f->kind = f->src->kind = KIND_SBATCH;
	lint_parse_script(f);
	return true;
}

void lint_parse_script(struct lint_file *f)
{
	if (f->csh) {
		char *masked = lint_csh_mask(f->src);
		f->model = sb_parse(masked, f->src->len, NULL);
		free(masked);
		f->complete = sb_complete(f->model);
		return;
	}
	f->tmpl = lint_template_new(f->src);
	lint_template_swap(f->tmpl, f->src);
	f->model = sb_parse(f->src->text, f->src->len, NULL);
	lint_template_swap(f->tmpl, f->src);
	/* an unterminated here-document is bash's warning, not a syntax
	 * error (docs/design.md, "Syntax errors cost one statement") */
	f->complete = sb_complete(f->model);
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

struct settings_report {
	struct diag_list *diags;
	struct source *src;
};

static void settings_problem(void *ctx, struct yd_span at, const char *msg, const char *help)
{
	struct settings_report *r = ctx;
	ln_invalid_settings(r->diags, r->src, at, msg, help);
}

/* A .trainforge.yaml is checked as discovery reads it (LN3001), not as
 * YAML of no kind: pre-commit passes it, and an editor opens it. */
static void check_settings(struct lint_run *run, struct lint_file *f, size_t first)
{
	struct source *src = f->src;
	run->files_checked++;
	f->kind = src->kind = KIND_SETTINGS;
	f->doc = yamldoc_parse(src->text, src->len, NULL);
	ln_yaml_issues(&run->diags, src, f->doc, KIND_SETTINGS, NULL);
	f->complete = !yamldoc_broken(f->doc);
	struct settings_report r = { &run->diags, src };
	if (f->complete)
		settings_check(src->path, src->text, src->len, f->doc, settings_problem, &r);
	const struct lint_options *opt = lint_options_of(run, src);
	suppress_apply(src, f->doc, NULL, &run->diags, first, opt->enabled, f->complete);
	lint_apply_selection(run, first);
}

static void check_yaml(struct lint_run *run, struct lint_file *f, size_t first)
{
	struct source *src = f->src;
	if (run->opt->kind == KIND_SETTINGS ||
	    (run->opt->kind == KIND_AUTO && lint_settings_name(src->path))) {
		check_settings(run, f, first);
		return;
	}
	enum file_kind kind = lint_parse_yaml(run, f, run->opt->kind);
	/* a part of a cluster config is checked from where its keys belong,
	 * found by a walk too; YAML of other shapes is no kind */
	if (kind == KIND_UNKNOWN && run->opt->kind == KIND_AUTO && lint_yaml_name(src->path) &&
	    !yamldoc_broken(f->doc) && (f->fragment = lint_fragment_of(f->doc)))
		yamldoc_set_pyyaml(f->doc, true); /* as ParallelCluster reads it */
	/* the hooks pass every file their pattern matches: one of no kind is
	 * not theirs to report (--skip-unknown) */
	if (kind == KIND_UNKNOWN && !f->fragment && (!f->named || run->opt->skip_unknown)) {
		run->skipped[SKIP_NO_KIND]++;
		return;
	}
	run->files_checked++;
	f->kind = src->kind = kind;
	/* text that is neither YAML by name nor any known kind is not judged
	 * as YAML: a named README gets the note, not syntax errors */
	bool yaml = kind != KIND_UNKNOWN || lint_yaml_name(src->path) || run->opt->kind != KIND_AUTO;
	if (yaml)
		ln_yaml_issues(&run->diags, src, f->doc, kind, &f->yaml_tmpl);
	f->complete = !yamldoc_broken(f->doc) || !yaml;
	const struct lint_options *opt = lint_options_of(run, src);
	if ((kind != KIND_UNKNOWN || f->fragment) && f->complete)
		ln_template_placeholders(&run->diags, src, &f->yaml_tmpl);
	bool reviewed = false;
	if (kind == KIND_PCLUSTER && f->complete) {
		const struct pc_reading how = { &f->yaml_tmpl, f->as_written };
		struct pc_settings set = { &opt->target, opt->idle_cost_warning, &how };
		f->cluster = cluster_of(src, f->doc);
		pcluster_lint_with(src, f->doc, &set, &run->diags);
		reviewed = lint_review(run, src, f->doc);
	} else if (kind == KIND_JOBSPEC && f->complete && run->opt->check_jobspec_at) {
		run->opt->check_jobspec_at(src, f->doc, &opt->target, &run->diags);
	} else if (kind == KIND_JOBSPEC && f->complete && run->opt->check_jobspec) {
		run->opt->check_jobspec(src, f->doc, &run->diags);
	} else if (f->fragment && f->complete) {
		pcluster_lint_fragment(src, f->doc, f->fragment, &opt->target, &run->diags);
	} else if (kind == KIND_UNKNOWN && f->complete) {
		ln_unknown_kind(&run->diags, src,
				"not a ParallelCluster config, job spec or batch script; only input checks ran");
	}
	diag_collapse(&run->diags, first, src, opt->enabled);
	if (kind == KIND_PCLUSTER && f->complete) {
		/* PC2220 needs the run's scripts: suppressions wait for it */
		f->first_diag = first;
		f->deferred = true;
		f->reviewed = reviewed;
	} else {
		bool rules[RULE__COUNT];
		suppress_apply(src, f->doc, f->model, &run->diags, first,
			       directive_rules(opt->enabled, reviewed, rules), f->complete);
	}
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
	if (take_as_script(run, f))
		return;
	/* with shellcheck on, the YAML checks wait until it runs: it is
	 * most of a run's time, and its start does not wait for them */
	if (lint_options_of(run, f->src)->shellcheck != SHELLCHECK_OFF) {
		f->yaml_waits = true;
		f->first_diag = first;
		return;
	}
	check_yaml(run, f, first);
}

static void check_waiting_yaml(struct lint_run *run)
{
	for (size_t i = 0; i < run->n_files; i++)
		if (run->files[i]->yaml_waits) {
			run->files[i]->yaml_waits = false;
			check_yaml(run, run->files[i], run->files[i]->first_diag);
		}
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

static bool same_shellcheck(const struct lint_options *a, const struct lint_options *b)
{
	return a->shellcheck == b->shellcheck && a->shellcheck_timeout == b->shellcheck_timeout &&
	       same_program(a->shellcheck_program, b->shellcheck_program);
}

/* A shellcheck run per distinct setting (configs may differ), over the
 * scripts whose shellcheck findings are wanted: per-file-ignores of
 * SC0000 keep a file away from shellcheck. The runs start before
 * trainforge's own checks of the scripts and are waited for after them,
 * so that a run with shellcheck takes about as long as shellcheck. */
struct shellcheck_group {
	const struct lint_options *o;
	struct shellcheck_batches *batches;
};

struct shellcheck_groups {
	struct shellcheck_group *v;
	size_t n;
};

static struct shellcheck_groups start_shellcheck(struct lint_run *run, struct lint_file **scripts,
						 size_t n)
{
	struct shellcheck_groups g = { xcalloc(n ? n : 1, sizeof *g.v), 0 };
	bool *done = xcalloc(n ? n : 1, sizeof *done);
	struct source **group = xcalloc(n ? n : 1, sizeof *group);
	for (size_t i = 0; i < n; i++)
		done[i] = scripts[i]->csh || !shellcheck_wanted(lint_options_of(run, scripts[i]->src)->enabled);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		const struct lint_options *o = lint_options_of(run, scripts[i]->src);
		size_t m = 0;
		for (size_t k = i; k < n; k++)
			if (!done[k] && same_shellcheck(lint_options_of(run, scripts[k]->src), o)) {
				done[k] = true;
				group[m++] = scripts[k]->src;
			}
		struct shellcheck_setup how = {
			o->shellcheck, o->shellcheck_program, o->shellcheck_timeout, 0,
		};
		g.v[g.n++] = (struct shellcheck_group){ o, shellcheck_start(group, m, &how) };
	}
	free(group);
	free(done);
	return g;
}

static void finish_shellcheck(struct lint_run *run, struct shellcheck_groups *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct lint_options *o = g->v[i].o;
		size_t unfinished;
		bool ran = shellcheck_finish(g->v[i].batches, &run->diags, &run->trouble, &unfinished);
		if (o->shellcheck != SHELLCHECK_REQUIRED)
			continue;
		if (!ran && !run->shellcheck_failed)
			trouble_add(&run->trouble,
				    "trainforge: shellcheck is required (--shellcheck or the config), but shellcheck could not run");
		else if (unfinished)
			trouble_add(&run->trouble,
				    "trainforge: shellcheck is required (--shellcheck or the config), but it did not finish on %zu script%s within its time or memory bound (LN2001; --shellcheck-timeout)",
				    unfinished, unfinished == 1 ? "" : "s");
		run->shellcheck_failed |= !ran || unfinished;
	}
	free(g->v);
}

static size_t count_input_clusters(const struct lint_run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->n_files; i++)
		n += run->files[i]->input && run->files[i]->kind == KIND_PCLUSTER &&
		     run->files[i]->complete;
	return n;
}

/* The checks of each cluster config that need the batch scripts paired
 * with it, then the config's suppressions over all its findings; in the
 * reverse order of reading, so that a removal does not move the start of
 * a config not yet done. */
static void finish_clusters(struct lint_run *run, struct lint_file **scripts,
			    const struct cluster **paired, size_t n)
{
	yd_node *queues = xcalloc(n ? n : 1, sizeof *queues);
	bool *exclusive = xcalloc(n ? n : 1, sizeof *exclusive);
	const char **names = xcalloc(n ? n : 1, sizeof *names);
	for (size_t i = 0; i < run->n_files; i++) {
		struct lint_file *f = run->files[i];
		if (!f->deferred || !f->input)
			continue;
		struct pc_pairing pair = { 0, queues, exclusive, names };
		for (size_t k = 0; k < n; k++) {
			if (paired[k] != &f->cluster || scripts[k]->shell)
				continue;
			queues[pair.n] = sbatch_job_queue(scripts[k]->model, &f->cluster, &exclusive[pair.n]);
			names[pair.n++] = scripts[k]->src->path;
		}
		size_t first = run->diags.len;
		pcluster_lint_sharing_at(f->src, f->doc, &lint_options_of(run, f->src)->target, &pair,
					 &run->diags);
		lint_apply_selection(run, first);
	}
	for (size_t i = run->n_files; i-- > 0;) {
		struct lint_file *f = run->files[i];
		if (!f->deferred)
			continue;
		f->deferred = false;
		bool rules[RULE__COUNT];
		suppress_apply(f->src, f->doc, NULL, &run->diags, f->first_diag,
			       directive_rules(lint_options_of(run, f->src)->enabled, f->reviewed, rules),
			       f->complete);
	}
	free(queues);
	free(exclusive);
	free(names);
}

struct program_ctx {
	struct lint_run *run;
	const char *script;
};

static const struct py_args *find_program(void *ctx, const char *entry, const char **path)
{
	struct program_ctx *pc = ctx;
	return lint_program_find(pc->run, pc->script, entry, path);
}

struct tagged {
	struct lint_file **v;
	size_t n;
};

static bool outside_tags(struct diag *d, void *ctx)
{
	const struct tagged *t = ctx;
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i]->src == d->src)
			return !lint_template_covers(t->v[i]->tmpl,
						     source_offset(d->src, d->line, d->col));
	return true;
}

/* LN1010 for a script with tags or placeholders: once per file, naming
 * them (docs/design.md, "Real files are messy"). */
static void script_placeholders(struct lint_run *run, struct lint_file *f)
{
	size_t n = lint_template_count(f->tmpl);
	if (!n)
		return;
	struct tmpl_ph *ph = xcalloc(n, sizeof *ph);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t a, b;
		uint32_t line, col, end_line, end_col;
		lint_template_at(f->tmpl, i, &a, &b);
		const char *t = f->src->text + a;
		if (t[0] == '{' && (t[1] == '%' || t[1] == '#'))
			continue; /* a statement or a comment: no value stands there */
		source_locate(f->src, a, &line, &col);
		source_locate(f->src, b, &end_line, &end_col);
		ph[k++] = (struct tmpl_ph){ (uint32_t)a, (uint32_t)b, line, col,
					    end_line == line ? end_col : col + 1, 0, 0, TMPL_TAG, false };
	}
	if (k)
		ln_script_placeholders(&run->diags, f->src, ph, k);
	free(ph);
}

/* A finding that starts in a template tag is about its stand-in
 * (template.c): what the tag renders to is unknown. */
static void drop_tag_findings(struct lint_run *run, struct lint_file **scripts, size_t n,
			      size_t first)
{
	struct tagged t = { xcalloc(n ? n : 1, sizeof *t.v), 0 };
	for (size_t i = 0; i < n; i++)
		if (scripts[i]->tmpl)
			t.v[t.n++] = scripts[i];
	if (t.n)
		diag_list_filter(&run->diags, first, outside_tags, &t);
	free(t.v);
}

/* A batch script hears how it was paired when nothing named its config,
 * and which checks did not run when nothing paired it (LN3002, LN3003). */
static void say_pairing(struct lint_run *run, struct lint_file *script,
			const struct lint_pairing *how)
{
	static const enum ln_pairing said[] = {
		[PAIR_ONLY_INPUT] = LN_PAIRED_ONLY_INPUT, [PAIR_PARTITION] = LN_PAIRED_PARTITION,
		[PAIR_TRACKED] = LN_PAIRED_TRACKED,
	};
	if (how->by == PAIR_NONE)
		ln_script_not_paired(&run->diags, script->src,
				     lint_options_of(run, script->src)->enabled);
	else if (how->by != PAIR_NAMED && how->config)
		ln_script_paired(&run->diags, script->src, said[how->by], how->config, how->partition);
}

void lint_run_finish(struct lint_run *run)
{
	lint_adopt_shells(run);
	/* batch scripts first, then the shell scripts they start, as read */
	size_t n = 0, n_files = run->n_files;
	struct lint_file **scripts = xcalloc(n_files ? n_files : 1, sizeof *scripts);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n_files; i++)
			if (run->files[i]->kind == KIND_SBATCH && run->files[i]->shell == (pass == 1))
				scripts[n++] = run->files[i];
	for (size_t i = 0; i < n; i++)
		lint_template_swap(scripts[i]->tmpl, scripts[i]->src);
	struct shellcheck_groups checking = start_shellcheck(run, scripts, n);
	for (size_t i = 0; i < n; i++)
		lint_template_swap(scripts[i]->tmpl, scripts[i]->src);
	check_waiting_yaml(run);
	size_t first = run->diags.len;
	size_t known_clusters = count_input_clusters(run);
	const struct cluster **paired = xcalloc(n ? n : 1, sizeof *paired);
	for (size_t i = 0; i < n; i++) {
		bool by_name;
		const struct lint_file *caller = lint_caller_of(run, scripts, n, scripts[i], &by_name);
		const char *entry;
		struct sb_span at;
		if (caller && by_name &&
		    sbatch_calls_by_basename(caller->model, scripts[i]->src->path, &entry, &at))
			sbatch_report_paired_by_basename(caller->src, at, entry, scripts[i]->src->path,
							 &run->diags);
		struct lint_pairing how;
		paired[i] = lint_pair(run, scripts[i], known_clusters, &how);
		if (!scripts[i]->shell && !scripts[i]->launch)
			say_pairing(run, scripts[i], &how);
		/* a launch script nothing among the inputs starts runs on each
		 * node as if started there: its own allocation, none */
		const sb_model *on_nodes = caller ? caller->model
					 : scripts[i]->launch ? scripts[i]->model : NULL;
		struct program_ctx pc = { run, scripts[i]->src->path };
		struct sb_programs progs = { find_program, &pc };
		struct lint_world *lw = lint_world_new(scripts[i]->src->path, scripts[i]->model);
		struct sb_world world = lint_world_of(lw);
		lint_template_swap(scripts[i]->tmpl, scripts[i]->src);
		if (scripts[i]->csh)
			sbatch_lint_directives(scripts[i]->src, scripts[i]->model, paired[i],
					       &lint_options_of(run, scripts[i]->src)->target, &run->diags);
		else
			sbatch_lint_in(scripts[i]->src, scripts[i]->model, paired[i], on_nodes,
				       &lint_options_of(run, scripts[i]->src)->target, &progs, &world,
				       &run->diags);
		lint_template_swap(scripts[i]->tmpl, scripts[i]->src);
		lint_world_free(lw);
	}
	for (size_t i = 0; i < n; i++)
		lint_template_swap(scripts[i]->tmpl, scripts[i]->src);
	finish_shellcheck(run, &checking);
	for (size_t i = 0; i < n; i++)
		lint_template_swap(scripts[i]->tmpl, scripts[i]->src);
	drop_tag_findings(run, scripts, n, first);
	for (size_t i = 0; i < n; i++)
		script_placeholders(run, scripts[i]);
	for (size_t i = 0; i < n; i++) {
		const bool *enabled = lint_options_of(run, scripts[i]->src)->enabled;
		diag_collapse(&run->diags, first, scripts[i]->src, enabled);
		suppress_apply(scripts[i]->src, NULL, scripts[i]->model, &run->diags, first, enabled,
			       scripts[i]->complete);
	}
	lint_apply_selection(run, first);
	for (size_t i = 0; i < run->n_files; i++) {
		struct lint_file *f = run->files[i];
		char why[96];
		if (!f->program)
			continue;
		if (lint_program_was_read(run, f->src->path))
			run->files_checked++;
		else if (lint_not_shell(f->src, why, sizeof why))
			not_shell(run, f, why);
	}
	finish_clusters(run, scripts, paired, n);
	free(paired);
	free(scripts);
}
