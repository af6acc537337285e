/* trainforge lint [OPTIONS] [PATH...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "format.h"
#include "lint.h"
#include "jobspec.h"
#include "selectors.h"

struct lint_cli {
	struct lint_options opt;
	enum format fmt;
	int fail_level;     /* a severity, or SEV_ERROR + 1 for never */
	int color;          /* -1 auto, 0 never, 1 always */
	bool quiet;
	const char *select, *ignore;
	char **paths;
	int n_paths;
};

static const char lint_usage[] =
	"usage: trainforge lint [OPTIONS] [PATH...]\n"
	"  PATH: files, directories (walked recursively), or - for stdin (default: .)\n"
	"  -f, --format FMT       text (default), concise, json, jsonl, sarif, github, checkstyle\n"
	"                         sarif: SARIF 2.1.0 for GitHub code scanning (upload-sarif)\n"
	"      --kind KIND        auto (default), pcluster, jobspec, sbatch\n"
	"      --cluster FILE     the cluster config batch scripts run on (cross-checks)\n"
	"      --shellcheck MODE  auto (default), off, required, or a path to shellcheck\n"
	"      --stdin-filename P the path to report and classify stdin as\n"
	"      --select LIST      only these rules (IDs, names, prefixes, ALL)\n"
	"      --ignore LIST      not these rules\n"
	"      --severity ID=LEVEL  re-level a rule (error, warning, info)\n"
	"      --fail-level LEVEL exit 1 at or above: error, warning (default), info, never\n"
	"      --max-file-size N  input size limit in bytes (default 16 MiB)\n"
	"      --color WHEN       auto (default), always, never\n"
	"  -q, --quiet            no summary on stderr\n";

static int bad_value(const char *flag, const char *value)
{
	fprintf(stderr, "trainforge: invalid value '%s' for %s\n", value, flag);
	return EXIT_TROUBLE;
}

static int set_severity(struct lint_cli *c, const char *arg)
{
	const char *eq = strchr(arg, '=');
	int level = eq ? severity_parse(eq + 1) : -1;
	int rule = eq ? rule_find(arg, (size_t)(eq - arg)) : -1;
	if (rule < 0 || level < 0)
		return bad_value("--severity", arg);
	c->opt.level[rule] = level;
	return EXIT_CLEAN;
}

static int set_option(struct lint_cli *c, const char *flag, const char *v)
{
	if (!strcmp(flag, "-f") || !strcmp(flag, "--format")) {
		int f = format_parse(v);
		if (f < 0)
			return bad_value(flag, v);
		c->fmt = (enum format)f;
	} else if (!strcmp(flag, "--kind")) {
		if (!strcmp(v, "auto"))
			c->opt.kind = KIND_AUTO;
		else if (!strcmp(v, "pcluster"))
			c->opt.kind = KIND_PCLUSTER;
		else if (!strcmp(v, "jobspec"))
			c->opt.kind = KIND_JOBSPEC;
		else if (!strcmp(v, "sbatch"))
			c->opt.kind = KIND_SBATCH;
		else
			return bad_value(flag, v);
	} else if (!strcmp(flag, "--cluster")) {
		c->opt.cluster_path = v;
	} else if (!strcmp(flag, "--shellcheck")) {
		if (!strcmp(v, "auto"))
			c->opt.shellcheck = SHELLCHECK_AUTO;
		else if (!strcmp(v, "off"))
			c->opt.shellcheck = SHELLCHECK_OFF;
		else if (!strcmp(v, "required"))
			c->opt.shellcheck = SHELLCHECK_REQUIRED;
		else if (strchr(v, '/')) {
			c->opt.shellcheck = SHELLCHECK_REQUIRED;
			c->opt.shellcheck_program = v;
		} else
			return bad_value(flag, v);
	} else if (!strcmp(flag, "--stdin-filename")) {
		c->opt.stdin_filename = v;
	} else if (!strcmp(flag, "--select")) {
		c->select = v;
	} else if (!strcmp(flag, "--ignore")) {
		c->ignore = v;
	} else if (!strcmp(flag, "--severity")) {
		return set_severity(c, v);
	} else if (!strcmp(flag, "--fail-level")) {
		int l = severity_parse(v);
		if (l < 0 && strcmp(v, "never") != 0)
			return bad_value(flag, v);
		c->fail_level = l < 0 ? SEV_ERROR + 1 : l;
	} else if (!strcmp(flag, "--max-file-size")) {
		char *end;
		unsigned long long n = strtoull(v, &end, 10);
		if (*end || !*v || n == 0)
			return bad_value(flag, v);
		c->opt.max_bytes = (size_t)n;
	} else if (!strcmp(flag, "--color")) {
		if (!strcmp(v, "auto"))
			c->color = -1;
		else if (!strcmp(v, "always"))
			c->color = 1;
		else if (!strcmp(v, "never"))
			c->color = 0;
		else
			return bad_value(flag, v);
	} else {
		fprintf(stderr, "trainforge: unknown option '%s'\n%s", flag, lint_usage);
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static int parse_args(struct lint_cli *c, int argc, char **argv)
{
	bool only_paths = false;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (only_paths || a[0] != '-' || !strcmp(a, "-")) {
			c->paths[c->n_paths++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_paths = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(lint_usage, stdout);
			exit(EXIT_CLEAN);
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			c->quiet = true;
		} else {
			char *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
			const char *value;
			if (eq) {
				*eq = '\0';
				value = eq + 1;
			} else if (i + 1 < argc) {
				value = argv[++i];
			} else {
				fprintf(stderr, "trainforge: %s needs a value\n", a);
				return EXIT_TROUBLE;
			}
			int rc = set_option(c, a, value);
			if (rc)
				return rc;
		}
	}
	if (c->select) {
		bool none[RULE__COUNT] = { false };
		memcpy(c->opt.enabled, none, sizeof none);
		if (!selectors_apply(c->select, c->opt.enabled, true))
			return EXIT_TROUBLE;
	}
	if (c->ignore && !selectors_apply(c->ignore, c->opt.enabled, false))
		return EXIT_TROUBLE;
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

int cmd_lint(int argc, char **argv)
{
	struct lint_cli c = { .fmt = FMT_TEXT, .fail_level = SEV_WARNING, .color = -1 };
	lint_options_init(&c.opt);
	c.opt.check_jobspec = jobspec_lint;
	char *paths[argc + 1];
	c.paths = paths;
	int rc = parse_args(&c, argc, argv);
	if (rc)
		return rc;
	if (!c.n_paths)
		paths[c.n_paths++] = ".";
	struct lint_run run;
	lint_run_init(&run, &c.opt);
	for (int i = 0; i < c.n_paths; i++)
		lint_path(&run, paths[i]);
	lint_run_finish(&run);
	diag_list_sort(&run.diags);
	format_write(stdout, c.fmt, &run.diags, c.fmt == FMT_TEXT && want_color(c.color));
	fflush(stdout);
	if (!c.quiet)
		summary(&run);
	rc = EXIT_CLEAN;
	for (size_t i = 0; i < run.diags.len; i++)
		if ((int)run.diags.v[i].sev >= c.fail_level)
			rc = EXIT_FINDINGS;
	if (run.io_failed || run.shellcheck_failed)
		rc = EXIT_TROUBLE;
	lint_run_fini(&run);
	return rc;
}
