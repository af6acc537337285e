/* trainforge init [--force] [DIR]: a commented .trainforge.yaml and a
 * starter job spec, never over a file that differs without --force; the
 * pre-commit stanza goes to stderr. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "commands.h"
#include "fileio.h"
#include "cli_options.h"
#include "output.h"

static const char config_text[] =
	"# trainforge lint settings for this directory and everything below it, up\n"
	"# to the next .trainforge.yaml. Command-line flags win over this file;\n"
	"# `trainforge lint --show-config FILE` prints what applies to FILE and why.\n"
	"# Rules are named by ID (PC2101), name (efa-without-placement-group), ID\n"
	"# prefix (PC2) or ALL; `trainforge rules` lists them.\n"
	"\n"
	"# Start from another config file (relative to this one); keys here win.\n"
	"# extends: ../.trainforge.yaml\n"
	"\n"
	"# The rules to run (replaces the inherited set) and the rules not to run.\n"
	"select: [ALL]\n"
	"ignore: []\n"
	"\n"
	"# Re-level rules: error, warning or info.\n"
	"severity: {}\n"
	"#  LN0001: warning\n"
	"\n"
	"# Exit 1 when a finding is at or above: error, warning, info or never.\n"
	"fail-level: warning\n"
	"\n"
	"# Files never linted, even when named (pre-commit names them): globs\n"
	"# relative to this file; ** spans directories, a directory covers all in it.\n"
	"exclude: []\n"
	"#  - build/**\n"
	"\n"
	"# Rules not run on some files: glob -> rules.\n"
	"per-file-ignores: {}\n"
	"#  \"clusters/test-*.yaml\": [PC2101]\n"
	"\n"
	"# The cluster config that batch scripts are checked against when neither\n"
	"# --cluster nor a `# trainforge cluster=PATH` comment names one.\n"
	"# cluster: cluster.yaml\n"
	"\n"
	"# shellcheck on batch scripts: auto (when installed), off, required, or a path.\n"
	"shellcheck: auto\n"
	"# Seconds shellcheck may take on a batch of scripts (one per core), plus\n"
	"# 1 s per 8 KiB of them; a batch it does not finish gets LN2001.\n"
	"shellcheck-timeout: 10\n"
	"\n"
	"# Also review each cluster config's change since this git revision, as\n"
	"# `pcluster update-cluster` will judge it (PC5 rules; --base REV wins), in\n"
	"# lint and in the editor.\n"
	"# base: main\n"
	"\n"
	"# Where rule links (editor, SARIF) point: a fork's or a mirror's copy of\n"
	"# trainforge's repository; they go to DOCS-URL/docs/rules.md#ID-NAME.\n"
	"# docs-url: https://git.example.com/tools/trainforge/blob/main\n"
	"\n"
	"# USD per hour: above it, the idle cost of a config's static nodes\n"
	"# (MinCount above zero) is a warning (PC6001), not an info.\n"
	"# idle-cost-warning: 100\n"
	"\n"
	"# The versions findings are judged against (default: the newest\n"
	"# ParallelCluster, 3.16, and the Slurm it ships). Naming ParallelCluster\n"
	"# brings its Slurm; naming Slurm alone keeps ParallelCluster at the default.\n"
	"# target:\n"
	"#   parallelcluster: \"3.13\"\n"
	"#   slurm: \"24.05\"\n";

static const char job_text[] =
	"# A starter job spec. `trainforge plan job.yaml` shows the layout and cost;\n"
	"# `trainforge gen job.yaml -o out/` writes the cluster config and batch\n"
	"# script; `trainforge lint job.yaml` checks this file. Every key is described\n"
	"# in schemas/jobspec.schema.json; examples/jobs/ has larger jobs.\n"
	"trainforge: 1\n"
	"name: my-job\n"
	"instance: g5.48xlarge              # EC2 instance type of the compute nodes\n"
	"nodes: 2\n"
	"entry:\n"
	"  script: /shared/code/train.py    # what every worker runs\n"
	"  args: [--epochs, \"3\", --lr, \"1e-4\"]\n"
	"cluster:\n"
	"  region: us-west-2\n"
	"  subnet: subnet-xxxxxxxxxxxxxxxxx   # replace: the subnet of the compute nodes\n"
	"  ssh_key: my-key-pair             # replace: an EC2 key pair in this region\n"
	"  head_node: c5.2xlarge\n"
	"storage: {type: ebs, mount: /shared, size_gib: 500}\n"
	"env: {NCCL_DEBUG: WARN, TOKENIZERS_PARALLELISM: \"false\"}\n";

static const char stanza[] =
	"To lint on every commit, add this to .pre-commit-config.yaml (trainforge\n"
	"must be on PATH; the trainforge repository's .pre-commit-hooks.yaml has the\n"
	"same hooks for `repo: URL, rev: TAG`), then run `pre-commit install`.\n"
	"require_serial keeps every file of a commit in one run, so that a batch\n"
	"script is checked against the cluster config committed with it:\n"
	"repos:\n"
	"  - repo: local\n"
	"    hooks:\n"
	"      - id: trainforge\n"
	"        name: trainforge lint\n"
	"        entry: trainforge lint --skip-unknown --pair-tracked\n"
	"        language: system\n"
	"        files: '\\.(ya?ml|sbatch|slurm|sh|bash)$'\n"
	"        require_serial: true\n"
	"      - id: trainforge-update-check\n"
	"        name: trainforge update check\n"
	"        entry: sh -c 'git rev-parse -q --verify HEAD >/dev/null || exit 0; exec trainforge lint --base HEAD --select PC5 \"$@\"' -\n"
	"        language: system\n"
	"        files: '\\.ya?ml$'\n"
	"        require_serial: true\n"
	"Then:\n"
	"  pre-commit install\n";

static const struct {
	const char *name, *text;
	size_t len;
} files[] = {
	{ ".trainforge.yaml", config_text, sizeof config_text - 1 },
	{ "job.yaml", job_text, sizeof job_text - 1 },
};

enum { N_FILES = sizeof files / sizeof files[0] };

/* 1: the file holds exactly text, 0: it differs, -1: it is not there. */
static int compare(const char *dir, const char *name, const char *text, size_t len)
{
	struct buf path = BUF_INIT;
	buf_printf(&path, "%s/%s", dir, name);
	struct stat st;
	int r = -1;
	if (stat(path.p, &st) == 0) {
		size_t have;
		bool too_big;
		char *p = file_read(path.p, len, &have, &too_big);
		r = p && !too_big && have == len && memcmp(p, text, len) == 0;
		free(p);
	}
	buf_free(&path);
	return r;
}

int cmd_init(int argc, char **argv)
{
	const char *dir = NULL;
	bool force = false;
	struct options p;
	options_init(&p, CMD_INIT, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPTS_ERROR: return EXIT_TROUBLE;
		case OPT_FORCE: force = true; break;
		case OPTS_OPERAND:
			if (dir || !strcmp(p.value, "-")) { /* - is no directory to write into */
				fprintf(stderr, "trainforge: unexpected argument '%s'\n", p.value);
				options_usage(stderr, CMD_INIT);
				return EXIT_TROUBLE;
			}
			dir = p.value;
			break;
		}
	}
	dir = dir ? dir : ".";
	struct stat st;
	if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0) {
		fprintf(stderr, "trainforge: %s: %s\n", dir, strerror(errno));
		return EXIT_TROUBLE;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "trainforge: %s: not a directory\n", dir);
		return EXIT_TROUBLE;
	}
	int state[N_FILES], conflicts = 0;
	for (int i = 0; i < N_FILES; i++) {
		state[i] = compare(dir, files[i].name, files[i].text, files[i].len);
		if (state[i] == 0 && !force) {
			fprintf(stderr, "trainforge: %s/%s exists and differs; not overwritten without --force\n",
				dir, files[i].name);
			conflicts++;
		}
	}
	if (conflicts)
		return EXIT_TROUBLE;
	for (int i = 0; i < N_FILES; i++) {
		if (state[i] == 1) {
			fprintf(stderr, "%s/%s: unchanged\n", dir, files[i].name);
			continue;
		}
		if (output_write(dir, files[i].name, files[i].text, files[i].len, true, false) !=
		    OUTPUT_WRITTEN) {
			fprintf(stderr, "trainforge: %s/%s: %s\n", dir, files[i].name, strerror(errno));
			return EXIT_TROUBLE;
		}
		fprintf(stderr, "%s/%s: wrote\n", dir, files[i].name);
	}
	fputs(stanza, stderr);
	return EXIT_CLEAN;
}
