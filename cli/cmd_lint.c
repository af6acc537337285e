/* trainforge lint [OPTIONS] [PATH...], and trainforge diff OLD NEW: the
 * same run, with the old version of one cluster config given by a file
 * and only the change findings selected. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "commands.h"
#include "fileio.h"
#include "settings.h"
#include "fix.h"
#include "format.h"
#include "lint.h"
#include "jobspec.h"
#include "lint_cli.h"
#include "noqa.h"
#include "cli_options.h"
#include "selectors.h"
#include "prices_cli.h"
#include "targets.h"

struct lint_cli {
	struct lint_options opt;
	struct settings_flags flags;  /* select, ignore, fail level, --settings */
	enum format fmt;
	int color;          /* -1 auto, 0 never, 1 always */
	bool quiet, fix, unsafe_fixes, diff, add_noqa, statistics;
	bool diff_mode;     /* trainforge diff OLD NEW */
	const char *show_config;
	const char *prices;           /* --prices FILE */
	struct target base_target;    /* --target over the default, without files */
	char **paths;
	int n_paths;
	struct tmpl_defs defines;     /* --env-file, then --define over them */
	struct tmpl_defs env;         /* --env-file's, kept apart until the end */
};

/* A flag's word and what it sets, for the flags that take one of a few. */
struct choice {
	const char *word;
	int value;
};

static bool choose(const struct choice *c, const char *word, int *out)
{
	for (; c->word; c++)
		if (!strcmp(c->word, word)) {
			*out = c->value;
			return true;
		}
	return false;
}

static const struct choice kinds[] = {
	{ "auto", KIND_AUTO }, { "pcluster", KIND_PCLUSTER }, { "jobspec", KIND_JOBSPEC },
	{ "sbatch", KIND_SBATCH }, { "settings", KIND_SETTINGS }, { NULL, 0 },
};
static const struct choice shellcheck_modes[] = {
	{ "auto", SHELLCHECK_AUTO }, { "off", SHELLCHECK_OFF }, { "required", SHELLCHECK_REQUIRED },
	{ NULL, 0 },
};
static const struct choice colors[] = {
	{ "auto", -1 }, { "always", 1 }, { "never", 0 }, { NULL, 0 },
};

static int set_severity(struct lint_cli *c, const struct options *p)
{
	const char *arg = p->value;
	const char *eq = strchr(arg, '=');
	int level = eq ? severity_parse(eq + 1) : -1;
	int rule = eq ? rule_find(arg, (size_t)(eq - arg)) : -1;
	if (rule < 0 || level < 0)
		return options_bad_value(p);
	c->opt.level[rule] = level;
	return EXIT_CLEAN;
}

static int read_env_file(struct lint_cli *c, const char *v)
{
	size_t len;
	bool too_big;
	uint32_t bad = 0;
	char *text = file_read(v, TF_DEFAULT_MAX_BYTES, &len, &too_big);
	if (!text || too_big) {
		fprintf(stderr, "trainforge: --env-file %s: %s\n", v,
			text ? "too large" : strerror(errno));
		free(text);
		return EXIT_TROUBLE;
	}
	bool ok = tmpl_defs_read_env(&c->env, text, len, &bad);
	free(text);
	if (!ok) {
		fprintf(stderr, "trainforge: --env-file %s:%u: not NAME=VALUE, export NAME=VALUE, a # comment or blank\n",
			v, bad);
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static int set_option(struct lint_cli *c, const struct options *p, int id)
{
	const char *v = p->value;
	int n;
	switch (id) {
	case OPT_QUIET: c->quiet = true; break;
	case OPT_ISOLATED: c->flags.isolated = true; break;
	case OPT_PRICES: c->prices = v; break;
	case OPT_FIX: c->fix = true; break;
	case OPT_UNSAFE_FIXES: c->unsafe_fixes = true; break;
	case OPT_DIFF: c->diff = true; break;
	case OPT_NO_IGNORE: c->opt.no_ignore = true; break;
	case OPT_SKIP_UNKNOWN: c->opt.skip_unknown = true; break;
	case OPT_PAIR_TRACKED: c->opt.pair_tracked = true; break;
	case OPT_ADD_NOQA: c->add_noqa = true; break;
	case OPT_STATISTICS: c->statistics = true; break;
	case OPT_FORMAT:
		if ((n = format_parse(v)) < 0)
			return options_bad_value(p);
		c->fmt = (enum format)n;
		break;
	case OPT_KIND:
		if (!choose(kinds, v, &n))
			return options_bad_value(p);
		c->opt.kind = (enum file_kind)n;
		break;
	case OPT_CLUSTER: c->opt.cluster_path = v; break;
	case OPT_BASE:
		if (!v[0] || v[0] == '-')
			return options_bad_value(p);
		c->opt.base_rev = v;
		break;
	case OPT_SHELLCHECK:
		c->flags.shellcheck_set = true;
		if (choose(shellcheck_modes, v, &n)) {
			c->opt.shellcheck = (enum shellcheck_mode)n;
		} else if (strchr(v, '/')) {
			c->opt.shellcheck = SHELLCHECK_REQUIRED;
			c->opt.shellcheck_program = v;
		} else {
			return options_bad_value(p);
		}
		break;
	case OPT_SHELLCHECK_TIMEOUT: {
		char *end;
		double s = strtod(v, &end);
		if (*end || end == v || !(s > 0 && s <= SHELLCHECK_TIMEOUT_MAX))
			return options_bad_value(p);
		c->flags.shellcheck_timeout_set = true;
		c->opt.shellcheck_timeout = s;
		break;
	}
	case OPT_STDIN_FILENAME: c->opt.stdin_filename = v; break;
	case OPT_SELECT:
	case OPT_IGNORE: {
		bool scratch[RULE__COUNT];
		if (!selectors_apply(v, scratch, true))
			return EXIT_TROUBLE;
		*(id == OPT_SELECT ? &c->flags.select : &c->flags.ignore) = v;
		break;
	}
	case OPT_CONFIG: c->flags.config_path = v; break;
	case OPT_SHOW_CONFIG: c->show_config = v; break;
	case OPT_SEVERITY: return set_severity(c, p);
	case OPT_TARGET:
		if (!targets_add(&c->opt.target_flags, v))
			return EXIT_TROUBLE;
		break;
	case OPT_FAIL_LEVEL: {
		int l = severity_parse(v);
		if (l < 0 && strcmp(v, "never") != 0)
			return options_bad_value(p);
		c->flags.fail_level = l < 0 ? SEV_ERROR + 1 : l;
		break;
	}
	case OPT_MAX_FILE_SIZE: {
		char *end;
		unsigned long long size = strtoull(v, &end, 10);
		if (*end || !*v || size == 0)
			return options_bad_value(p);
		c->opt.max_bytes = (size_t)size;
		break;
	}
	case OPT_DEFINE: {
		const char *why;
		if (!tmpl_defs_parse(&c->defines, v, &why)) {
			fprintf(stderr, "trainforge: invalid value '%s' for --define: %s\n", v, why);
			return EXIT_TROUBLE;
		}
		break;
	}
	case OPT_ENV_FILE: return read_env_file(c, v);
	case OPT_COLOR:
		if (!choose(colors, v, &c->color))
			return options_bad_value(p);
		break;
	}
	return EXIT_CLEAN;
}

static int parse_args(struct lint_cli *c, enum command cmd, int argc, char **argv)
{
	struct options p;
	options_init(&p, cmd, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		if (id == OPTS_HELP)
			exit(EXIT_CLEAN);
		if (id == OPTS_ERROR)
			return EXIT_TROUBLE;
		if (id == OPTS_OPERAND) {
			c->paths[c->n_paths++] = (char *)p.value;
			continue;
		}
		int rc = set_option(c, &p, id);
		if (rc)
			return rc;
	}
	if (c->flags.isolated && c->flags.config_path) {
		fputs("trainforge: --isolated and --config cannot be used together\n", stderr);
		return EXIT_TROUBLE;
	}
	if (!cli_prices_setup(c->prices, c->flags.isolated))
		return EXIT_TROUBLE;
	/* --define wins over every --env-file */
	struct tmpl_defs both = { 0 };
	tmpl_defs_copy(&both, &c->env);
	tmpl_defs_copy(&both, &c->defines);
	tmpl_defs_free(&c->env);
	tmpl_defs_free(&c->defines);
	c->defines = both;
	if (c->defines.len)
		c->opt.defines = &c->defines;
	for (int i = 0; (c->fix || c->add_noqa) && !c->diff && i < c->n_paths; i++)
		if (!strcmp(c->paths[i], "-")) {
			fprintf(stderr, "trainforge: %s cannot rewrite stdin; use --diff\n",
				c->fix ? "--fix" : "--add-noqa");
			return EXIT_TROUBLE;
		}
	if (c->fix && c->add_noqa) {
		fputs("trainforge: --fix and --add-noqa cannot be used together: fix first, then accept what remains\n",
		      stderr);
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

/* What the directory walks left out, and why: a walk is never silent
 * about the files it did not lint. */
static void skipped_line(const struct lint_run *run, FILE *out)
{
	static const char *const why[SKIP__COUNT] = {
		[SKIP_NO_KIND] = "not a cluster config, job spec or batch script by name or content",
		[SKIP_LANGUAGE] = "in another language than sh or bash",
		[SKIP_IGNORED] = "ignored by .gitignore",
	};
	size_t total = 0;
	for (int k = 0; k < SKIP__COUNT; k++)
		total += run->skipped[k];
	if (!run->walks || !total)
		return;
	fprintf(out, "Skipped %zu file%s:", total, total == 1 ? "" : "s");
	const char *sep = " ";
	for (int k = 0; k < SKIP__COUNT; k++)
		if (run->skipped[k]) {
			fprintf(out, "%s%zu %s", sep, run->skipped[k], why[k]);
			sep = "; ";
		}
	fputs(".\n", out);
}

void lint_cli_summary(const struct lint_run *run, FILE *out)
{
	size_t count[3] = { 0 };
	skipped_line(run, out);
	if (run->walks && !run->files_checked && !run->diags.len) {
		fputs("Found nothing to lint: no cluster config, job spec or batch script in the directories given.\n",
		      out);
		return;
	}
	for (size_t i = 0; i < run->diags.len; i++)
		count[run->diags.v[i].sev]++;
	size_t total = run->diags.len;
	if (!total) {
		fprintf(out, "No problems found in %zu file%s.\n", run->files_checked,
			run->files_checked == 1 ? "" : "s");
		return;
	}
	fprintf(out, "Found %zu problem%s (%zu error%s, %zu warning%s, %zu info) in %zu file%s.\n",
		total, total == 1 ? "" : "s", count[SEV_ERROR], count[SEV_ERROR] == 1 ? "" : "s",
		count[SEV_WARNING], count[SEV_WARNING] == 1 ? "" : "s", count[SEV_INFO],
		run->files_checked, run->files_checked == 1 ? "" : "s");
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* What --fix or --diff leaves out, so that it is not a surprise. */
static void unsafe_hint(const struct lint_run *run, bool unsafe)
{
	size_t n = 0;
	bool safe;
	for (size_t i = 0; !unsafe && i < run->diags.len; i++)
		n += fix_available(&run->diags.v[i], &safe) && !safe;
	if (n)
		fprintf(stderr, "%zu more %s available with --unsafe-fixes.\n", n, plural(n, "fix is", "fixes are"));
}

size_t lint_cli_targets(const struct lint_run *run, const struct target *base,
			struct format_target *out, size_t cap)
{
	size_t n = 0;
	struct target seen[16];
	for (size_t i = 0; i <= run->n_files && n < cap && n < 16; i++) {
		const struct target *t;
		if (i < run->n_files && run->files[i]->input && run->files[i]->kind != KIND_UNKNOWN)
			t = &lint_options_of(run, run->files[i]->src)->target;
		else if (i == run->n_files && n == 0)
			t = base;
		else
			continue;
		bool dup = false;
		for (size_t k = 0; k < n && !dup; k++)
			dup = target_equal(&seen[k], t);
		if (dup)
			continue;
		seen[n] = *t;
		snprintf(out[n].parallelcluster, sizeof out[n].parallelcluster, "%s", PC_TEXT(t->pc));
		snprintf(out[n].slurm, sizeof out[n].slurm, "%s", SLURM_TEXT(t->slurm));
		n++;
	}
	return n;
}

const char *lint_cli_docs_url(const struct lint_run *run)
{
	for (size_t i = 0; i < run->n_files; i++)
		if (run->files[i]->input)
			return lint_options_of(run, run->files[i]->src)->docs_url;
	return run->opt->docs_url;
}

static void lint_all(struct lint_run *run, const struct lint_cli *c);

/* --statistics: each rule's count (shellcheck's codes each their own),
 * most first, then by ID; a rule with a fix is marked, as ruff marks its
 * fixable rules. */
struct stat_row {
	char id[8];
	size_t count;
	enum rule_id rule;
};

static int by_count(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;
	return x->count != y->count ? (x->count < y->count ? 1 : -1) : strcmp(x->id, y->id);
}

static void statistics(const struct lint_run *run, FILE *out)
{
	struct stat_row *rows = calloc(run->diags.len ? run->diags.len : 1, sizeof *rows);
	size_t n = 0;
	for (size_t i = 0; rows && i < run->diags.len; i++) {
		char buf[8];
		const char *id = diag_id(&run->diags.v[i], buf);
		size_t k = 0;
		while (k < n && strcmp(rows[k].id, id))
			k++;
		if (k == n) {
			snprintf(rows[n].id, sizeof rows[n].id, "%s", id);
			rows[n++].rule = run->diags.v[i].rule;
		}
		rows[k].count++;
	}
	qsort(rows, n, sizeof *rows, by_count);
	for (size_t i = 0; i < n; i++) {
		const struct rule *r = &rule_table[rows[i].rule];
		fprintf(out, "%6zu  %s  %-8s %s%s\n", rows[i].count, rows[i].id,
			severity_name(r->level), r->name,
			r->fix != FIX_NONE ? " [fix]" : "");
	}
	free(rows);
}

/* After --fix or --add-noqa wrote files, the report comes from a fresh
 * run over what they hold now. */
static int relint(struct lint_cli *c, struct lint_run *run, struct fix_result *res, int rc)
{
	if (!c->diff && res->len && rc != EXIT_TROUBLE) {
		lint_run_fini(run);
		lint_all(run, c);
	}
	fix_result_free(res);
	return rc;
}

/* --add-noqa: a directive for each finding, written (or shown with
 * --diff); the report after it comes from a fresh run. */
static int add_noqa(struct lint_cli *c, struct lint_run *run)
{
	struct fix_result res;
	noqa_run(run, "accepted (trainforge lint --add-noqa)", &res);
	int rc = EXIT_CLEAN;
	if (c->diff) { /* as --fix --diff: 1 when there is something to add */
		fix_diff(&res, stdout);
		rc = res.len ? EXIT_FINDINGS : EXIT_CLEAN;
	} else if (!fix_write(&res, &run->trouble)) {
		trouble_flush(&run->trouble, stderr);
		rc = EXIT_TROUBLE;
	}
	if (!c->quiet)
		fprintf(stderr, "%s %zu %s to %zu %s.\n", c->diff ? "Would add" : "Added", res.fixes,
			plural(res.fixes, "directive", "directives"), res.len, plural(res.len, "file", "files"));
	return relint(c, run, &res, rc);
}

static void lint_all(struct lint_run *run, const struct lint_cli *c)
{
	lint_run_init(run, &c->opt);
	for (int i = 0; i < c->n_paths; i++)
		lint_path(run, c->paths[i]);
	lint_run_finish(run);
}

/* --fix and --diff: 0 when nothing was (or would be) fixed, 1 when
 * something was, 2 when the fixes did not settle or could not be
 * written. The report after --fix comes from a fresh run. */
static int fix(struct lint_cli *c, struct lint_run *run)
{
	struct fix_result res;
	fix_run(&c->opt, run, c->unsafe_fixes, &res);
	int rc = res.len ? EXIT_FINDINGS : EXIT_CLEAN;
	if (!res.converged) {
		fprintf(stderr, "trainforge: the fixes did not settle after %d passes; nothing was written\n",
			FIX_MAX_PASSES);
		rc = EXIT_TROUBLE;
	} else if (c->diff) {
		fix_diff(&res, stdout);
		if (!c->quiet)
			fprintf(stderr, "Would fix %zu %s in %zu %s.\n", res.fixes,
				plural(res.fixes, "problem", "problems"), res.len, plural(res.len, "file", "files"));
	} else if (!fix_write(&res, &run->trouble)) {
		trouble_flush(&run->trouble, stderr);
		rc = EXIT_TROUBLE;
	} else if (!c->quiet && res.len) {
		fprintf(stderr, "Fixed %zu %s in %zu %s.\n", res.fixes,
			plural(res.fixes, "problem", "problems"), res.len, plural(res.len, "file", "files"));
	}
	return relint(c, run, &res, rc);
}

/* diff OLD NEW lints NEW with OLD as its old version. Its findings are
 * the change's (and NEW's input problems) unless --select says else. */
static int diff_paths(struct lint_cli *c, const struct lint_mode *mode)
{
	if (c->n_paths != 2) {
		fputs("trainforge: diff takes two files, OLD and NEW\n", stderr);
		options_usage(stderr, CMD_DIFF);
		return EXIT_TROUBLE;
	}
	if (!strcmp(c->paths[0], "-")) {
		fputs("trainforge: diff reads OLD from a file; NEW may be - (stdin)\n", stderr);
		return EXIT_TROUBLE;
	}
	c->opt.base_path = c->paths[0];
	c->paths[0] = c->paths[1];
	c->n_paths = 1;
	if (!c->flags.select)
		c->flags.select = mode->select;
	return EXIT_CLEAN;
}

int lint_command(int argc, char **argv, const struct lint_mode *mode)
{
	struct lint_cli c = { .fmt = FMT_TEXT, .color = -1 };
	c.flags.fail_level = -1;
	lint_options_init(&c.opt);
	c.opt.check_jobspec_at = jobspec_lint_at;
	c.diff_mode = mode && mode->diff;
	char *paths[argc + 1];
	c.paths = paths;
	int rc = parse_args(&c, c.diff_mode ? CMD_DIFF : CMD_LINT, argc, argv);
	if (!rc && c.diff_mode)
		rc = diff_paths(&c, mode);
	if (rc) {
		tmpl_defs_free(&c.defines);
		tmpl_defs_free(&c.env);
		return rc;
	}
	if (!c.n_paths)
		paths[c.n_paths++] = ".";
	/* settings files report to the CLI, which prints before the findings */
	struct trouble trouble = { 0 };
	settings *cfg = settings_new(&c.opt, &c.flags, &trouble);
	if (!cfg) {
		trouble_flush(&trouble, stderr);
		trouble_free(&trouble);
		tmpl_defs_free(&c.defines);
		return EXIT_TROUBLE;
	}
	c.opt.options_for = settings_options_for;
	c.opt.options_ctx = cfg;
	if (c.show_config) {
		rc = settings_show(cfg, c.show_config, stdout) ? EXIT_CLEAN : EXIT_TROUBLE;
		trouble_flush(&trouble, stderr);
		trouble_free(&trouble);
		settings_free(cfg);
		tmpl_defs_free(&c.defines);
		return rc;
	}
	struct lint_run run;
	lint_all(&run, &c);
	trouble_flush(&trouble, stderr);
	trouble_flush(&run.trouble, stderr);
	int fixed = c.add_noqa ? add_noqa(&c, &run) : c.fix || c.diff ? fix(&c, &run) : EXIT_CLEAN;
	trouble_flush(&trouble, stderr);
	trouble_flush(&run.trouble, stderr);
	rc = EXIT_CLEAN;
	if (c.diff) {
		rc = fixed;
	} else if (c.statistics) {
		diag_list_sort(&run.diags);
		statistics(&run, stdout);
		fflush(stdout);
		if (!c.quiet && !(run.io_failed || settings_failed(cfg)))
			lint_cli_summary(&run, stderr);
		for (size_t i = 0; i < run.diags.len; i++)
			if ((int)run.diags.v[i].sev >= settings_fail_level(cfg, run.diags.v[i].src->path))
				rc = EXIT_FINDINGS;
	} else {
		diag_list_sort(&run.diags);
		struct format_target targets[16];
		c.base_target = target_apply(target_default(), &c.opt.target_flags);
		struct format_run props = { targets, lint_cli_targets(&run, &c.base_target, targets, 16),
					    lint_cli_docs_url(&run) };
		format_write_run(stdout, c.fmt, &run.diags, color_wanted(c.color, STDOUT_FILENO),
				 &props);
		fflush(stdout);
		/* after trouble (exit 2) no line may read as success */
		bool trouble = run.io_failed || run.shellcheck_failed || settings_failed(cfg) ||
			       fixed == EXIT_TROUBLE;
		if (!c.quiet && !(trouble && !run.diags.len))
			lint_cli_summary(&run, stderr);
		for (size_t i = 0; i < run.diags.len; i++)
			if ((int)run.diags.v[i].sev >= settings_fail_level(cfg, run.diags.v[i].src->path))
				rc = EXIT_FINDINGS;
		if (fixed == EXIT_TROUBLE)
			rc = EXIT_TROUBLE;
	}
	if ((c.fix || c.diff) && !c.add_noqa && !c.quiet)
		unsafe_hint(&run, c.unsafe_fixes);
	if (run.io_failed || run.shellcheck_failed || settings_failed(cfg))
		rc = EXIT_TROUBLE;
	lint_run_fini(&run);
	settings_free(cfg);
	trouble_free(&trouble);
	tmpl_defs_free(&c.defines);
	return rc;
}

int cmd_lint(int argc, char **argv)
{
	return lint_command(argc, argv, NULL);
}
