/* What config.c (reading one .trainforge.yaml) and config_resolve.c
 * (discovery, precedence, --show-config) share. Not an API. */
#ifndef TF_SETTINGS_INTERNAL_H
#define TF_SETTINGS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"
#include "tmpl.h"

/* A selector or glob as written, with the line it is on. */
struct settings_item {
	char *text;
	uint32_t line;
};

struct settings_pfi {             /* one per-file-ignores entry */
	char *glob;
	struct settings_item *rules;
	size_t n_rules;
	uint32_t line;
};

struct settings_sev {
	int rule, level;
	uint32_t line;
};

/* One config file as read; values are unset where the file is silent. */
struct settings_file {
	char *abs;                   /* absolute path: the cache key */
	char *path;                  /* as shown to the user */
	char *dir;                   /* absolute: globs and paths start here */
	bool ok;                     /* read and valid, and so is its parent */
	bool loading;                /* on the extends chain being read: a cycle */
	struct settings_file *parent;     /* extends */
	bool has_select;
	uint32_t select_line;
	struct settings_item *select, *ignore, *exclude;
	size_t n_select, n_ignore, n_exclude;
	struct settings_sev *sev;
	size_t n_sev;
	struct settings_pfi *pfi;
	size_t n_pfi;
	int fail_level;              /* a severity, SEV_ERROR + 1 for never, -1 unset */
	uint32_t fail_line;
	char *cluster;               /* resolved against dir; NULL unset */
	char *cluster_shown;         /* the same relative to the working directory when
					under it: what messages about it say */
	uint32_t cluster_line;
	int shellcheck;              /* enum shellcheck_mode, -1 unset */
	char *shellcheck_program;
	uint32_t shellcheck_line;
	struct tmpl_defs defines;    /* env-file, then define over it */
	uint32_t *define_lines;      /* where each of defines was set */
	double shellcheck_timeout;   /* seconds; 0 unset (the schema wants more) */
	uint32_t shellcheck_timeout_line;
	char *base;                  /* a git revision; NULL unset */
	uint32_t base_line;
	char *docs_url;              /* where rule links point; NULL unset */
	uint32_t docs_url_line;
	double idle_cost_warning;    /* USD per hour; < 0 unset */
	uint32_t idle_cost_line;
	struct target_request target; /* target: parts unset when absent */
	uint32_t target_pc_line, target_slurm_line;
	uint32_t target_fw_line[FW__COUNT];
};

struct settings_files {
	struct settings_file **v;
	size_t len, cap;
	struct trouble *trouble; /* where reading errors go */
};

/* Reads the file at abs (and its extends chain), once per run: a file
 * already in files is returned as it is. Errors go to files->trouble with
 * file:line:col and leave ->ok false. */
struct settings_file *settings_file_load(struct settings_files *files, const char *abs, unsigned depth);
void settings_files_free(struct settings_files *files);

/* Paths: absolute (lexically normalised, directories through realpath
 * when they exist) and shown (relative to the working directory when
 * under it). Both return strings the caller frees. */
char *settings_absolute(const char *path);
char *settings_shown(const char *abs);
/* abs relative to the working directory, with ../ where it is above it
 * (absolute when they share only the root): how a message names a file
 * a settings file names. */
char *settings_relative(const char *abs);
/* dir + "/" + rel, or rel when it is absolute. */
char *settings_join(const char *dir, const char *rel);

/* Does the glob (relative to dir) match the absolute path abs? */
bool settings_glob_match(const char *dir, const char *glob, const char *abs);

#endif
