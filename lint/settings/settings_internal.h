/* What config.c (reading one .trainforge.yaml) and config_resolve.c
 * (discovery, precedence, --show-config) share. Not an API. */
#ifndef TF_CONFIG_INTERNAL_H
#define TF_CONFIG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "settings.h"

/* A selector or glob as written, with the line it is on. */
struct cfg_item {
	char *text;
	uint32_t line;
};

struct cfg_pfi {             /* one per-file-ignores entry */
	char *glob;
	struct cfg_item *rules;
	size_t n_rules;
	uint32_t line;
};

struct cfg_sev {
	int rule, level;
	uint32_t line;
};

/* One config file as read; values are unset where the file is silent. */
struct cfg_file {
	char *abs;                   /* absolute path: the cache key */
	char *path;                  /* as shown to the user */
	char *dir;                   /* absolute: globs and paths start here */
	bool ok;                     /* read and valid, and so is its parent */
	bool loading;                /* on the extends chain being read: a cycle */
	struct cfg_file *parent;     /* extends */
	bool has_select;
	uint32_t select_line;
	struct cfg_item *select, *ignore, *exclude;
	size_t n_select, n_ignore, n_exclude;
	struct cfg_sev *sev;
	size_t n_sev;
	struct cfg_pfi *pfi;
	size_t n_pfi;
	int fail_level;              /* a severity, SEV_ERROR + 1 for never, -1 unset */
	uint32_t fail_line;
	char *cluster;               /* resolved against dir; NULL unset */
	uint32_t cluster_line;
	int shellcheck;              /* enum shellcheck_mode, -1 unset */
	char *shellcheck_program;
	uint32_t shellcheck_line;
};

struct cfg_files {
	struct cfg_file **v;
	size_t len, cap;
};

/* Reads the file at abs (and its extends chain), once per run: a file
 * already in files is returned as it is. Errors go to stderr with
 * file:line:col and leave ->ok false. */
struct cfg_file *cfg_file_load(struct cfg_files *files, const char *abs, unsigned depth);
void cfg_files_free(struct cfg_files *files);

/* Paths: absolute (lexically normalised, directories through realpath
 * when they exist) and shown (relative to the working directory when
 * under it). Both return strings the caller frees. */
char *cfg_absolute(const char *path);
char *cfg_shown(const char *abs);
/* dir + "/" + rel, or rel when it is absolute. */
char *cfg_join(const char *dir, const char *rel);

/* Does the glob (relative to dir) match the absolute path abs? */
bool cfg_glob_match(const char *dir, const char *glob, const char *abs);

#endif
