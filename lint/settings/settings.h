/* .trainforge.yaml: per-project lint settings.
 *
 * Discovery, per input file: the file's directory, then each parent up
 * to the repository root (the directory holding .git); the closest
 * .trainforge.yaml (or .trainforge.yml) wins. Without one, the user file
 * $XDG_CONFIG_HOME/trainforge/config.yaml (~/.config/...). Files are not
 * merged implicitly: `extends: PATH` starts from another file.
 *
 * Precedence, highest first: command-line flags, --config FILE (no
 * discovery), the closest project file with its extends chain (the child
 * over its parent), the user file, the defaults. Each layer is applied
 * over the one below: select replaces the enabled set, ignore removes
 * from it, severity re-levels per rule, scalars replace. --select
 * replaces the set the files made; per-file-ignores (of every file of the
 * chain) and --ignore remove from it last. Globs and paths in a file are
 * relative to its directory. */
#ifndef TF_SETTINGS_H
#define TF_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lint.h"

/* What the command line said; it wins over every file. */
struct settings_flags {
	const char *config_path;  /* --config: this file for every input */
	bool isolated;            /* --isolated: no config file at all */
	const char *select;       /* --select LIST, or NULL */
	const char *ignore;       /* --ignore LIST, or NULL */
	int fail_level;           /* --fail-level (SEV_ERROR + 1: never), -1 unset */
	bool shellcheck_set;      /* --shellcheck: the base options' mode wins */
	bool shellcheck_timeout_set; /* --shellcheck-timeout: the base options' bound wins */
	bool lenient;             /* an invalid settings file is set aside, its files get
				     the defaults (the editor: the trouble still says why) */
};

typedef struct settings settings;

/* base holds the options the flags set (kind, limits, --cluster,
 * --shellcheck, --severity in level[]); every file's options start from
 * a copy of it. Errors in settings files go to trouble (which must
 * outlive the settings). Returns NULL (a message in trouble) when
 * --config names a file that cannot be read or is invalid. */
settings *settings_new(const struct lint_options *base, const struct settings_flags *flags,
		       struct trouble *trouble);
void settings_free(settings *cfg);

/* A lint_options_fn (ctx is the config): the options for one input
 * path. When its config file is invalid (message in trouble, once) the
 * answer has `excluded` set and settings_failed() turns true. */
const struct lint_options *settings_options_for(void *cfg, const char *path);
/* The fail level for an input path (after settings_options_for). */
int settings_fail_level(settings *cfg, const char *path);
bool settings_failed(const settings *cfg);

/* --show-config: the settings for path and the origin of each, as YAML
 * with the origins in comments. False when a config file is invalid. */
bool settings_show(settings *cfg, const char *path, FILE *out);

/* Checks the text of a settings file (at path, which its relative paths
 * start from) as discovery reads it, each problem to report as a finding
 * rather than trouble: how `trainforge lint .trainforge.yaml` judges the
 * file, and how an editor shows a broken one. YAML errors are left to
 * the caller (doc's issues). */
typedef void (*settings_report_fn)(void *ctx, struct yd_span at, const char *msg,
				   const char *help);
void settings_check(const char *path, const char *text, size_t len, const yamldoc *doc,
		    settings_report_fn report, void *ctx);

/* One rule selector: an ID (PC2101, pc2101), a name, an ID prefix (PC,
 * PC2, PC21) or ALL. Sets mark[i] = value for each rule it selects;
 * false when it selects none. */
bool settings_select(const char *s, size_t len, bool *mark, bool value);

#endif
