/* The lint command's run, shared with `trainforge diff`, which is a lint
 * of NEW against OLD with the change rules selected. */
#ifndef TF_LINT_CLI_H
#define TF_LINT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct lint_mode {
	bool diff;                /* trainforge diff: its flags, two paths, OLD and NEW */
	const char *select;       /* the rules when --select is not given */
};

/* argv[0] is the command; mode NULL is plain lint. */
int lint_command(int argc, char **argv, const struct lint_mode *mode);

struct lint_run;
struct target;
struct format_target;
/* What the walks skipped, and "Found 3 problems (1 error, 2 warnings,
 * 0 info) in 2 files." */
void lint_cli_summary(const struct lint_run *run, FILE *out);
/* Where the run's rule links point: the first input's docs-url. */
const char *lint_cli_docs_url(const struct lint_run *run);
/* The distinct targets of the run's files (base when it linted none),
 * for the json and sarif run properties. */
size_t lint_cli_targets(const struct lint_run *run, const struct target *base,
			struct format_target *out, size_t cap);

#endif
