/* trainforge lint [OPTIONS] [PATH...], and trainforge diff OLD NEW: the
 * same run, with the old version of one cluster config given by a file
 * and only the change findings selected. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "fileio.h"
#include "settings.h"
#include "fix.h"
#include "format.h"
#include "lint.h"
#include "jobspec.h"
#include "lint_cli.h"
#include "cli_options.h"
#include "selectors.h"
#include "prices_cli.h"
#include "targets.h"

struct lint_cli {
	struct lint_options opt;
	struct settings_flags flags;  /* select, ignore, fail level, --settings */
	enum format fmt;
	int color;          /* -1 auto, 0 never, 1 always */
	bool quiet, fix, unsafe_fixes, diff;
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
	{ "sbatch", KIND_SBATCH }, { NULL, 0 },
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
	for (int i = 0; c->fix && !c->diff && i < c->n_paths; i++)
		if (!strcmp(c->paths[i], "-")) {
			fputs("trainforge: --fix cannot rewrite stdin; use --diff\n", stderr);
			return EXIT_TROUBLE;
		}
	return EXIT_CLEAN;
}

static bool want_color(int setting)
{
	if (setting >= 0)
		return setting;
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
	return isatty(1) && !(no && *no) && !(term && !strcmp(term, "dumb"));
}

static void summary(const struct lint_run *run)
{
	size_t count[3] = { 0 };
	for (size_t i = 0; i < run->diags.len; i++)
		count[run->diags.v[i].sev]++;
	size_t total = run->diags.len;
	if (!total) {
		fprintf(stderr, "No problems found in %zu file%s.\n", run->files_checked,
			run->files_checked == 1 ? "" : "s");
		return;
	}
	fprintf(stderr, "Found %zu problem%s (%zu error%s, %zu warning%s, %zu info) in %zu file%s.\n",
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

/* The distinct targets of the run's files (the command line's when it
 * linted none), for the json and sarif run properties. */
static size_t run_targets(const struct lint_run *run, const struct lint_cli *c,
			  struct format_target *out, size_t cap)
{
	size_t n = 0;
	struct target seen[16];
	for (size_t i = 0; i <= run->n_files && n < cap && n < 16; i++) {
		const struct target *t;
		if (i < run->n_files && run->files[i]->input && run->files[i]->kind != KIND_UNKNOWN)
			t = &lint_options_of(run, run->files[i]->src)->target;
		else if (i == run->n_files && n == 0)
			t = &c->base_target;
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
	if (!c->diff && res.len && rc != EXIT_TROUBLE) {
		lint_run_fini(run);
		lint_all(run, c);
	}
	fix_result_free(&res);
	return rc;
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
	int fixed = c.fix || c.diff ? fix(&c, &run) : EXIT_CLEAN;
	trouble_flush(&trouble, stderr);
	trouble_flush(&run.trouble, stderr);
	rc = EXIT_CLEAN;
	if (c.diff) {
		rc = fixed;
	} else {
		diag_list_sort(&run.diags);
		struct format_target targets[16];
		c.base_target = target_apply(target_default(), &c.opt.target_flags);
		struct format_run props = { targets, run_targets(&run, &c, targets, 16) };
		format_write_run(stdout, c.fmt, &run.diags, c.fmt == FMT_TEXT && want_color(c.color),
				 &props);
		fflush(stdout);
		if (!c.quiet)
			summary(&run);
		for (size_t i = 0; i < run.diags.len; i++)
			if ((int)run.diags.v[i].sev >= settings_fail_level(cfg, run.diags.v[i].src->path))
				rc = EXIT_FINDINGS;
		if (fixed == EXIT_TROUBLE)
			rc = EXIT_TROUBLE;
	}
	if ((c.fix || c.diff) && !c.quiet)
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
