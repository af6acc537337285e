/* Writes diagnostics in the formats users and tools read. */
#ifndef TF_FORMAT_H
#define TF_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"

enum format {
	FMT_TEXT,       /* concise line, source excerpt with carets, help */
	FMT_CONCISE,    /* PATH:LINE:COL: SEVERITY: MESSAGE [ID] */
	FMT_JSON,       /* one object, schemaVersion 1 */
	FMT_JSONL,      /* one diagnostic object of `json` per line */
	FMT_SARIF,      /* SARIF 2.1.0 for GitHub code scanning */
	FMT_GITHUB,     /* GitHub Actions workflow commands */
	FMT_CHECKSTYLE, /* Checkstyle 4.3 XML */
	FMT_GITLAB,     /* GitLab Code Quality (a subset of Code Climate's issues) */
};

/* What the files of a run were checked against (target.h), for the run
 * properties of json and sarif: every distinct target, printed. */
struct format_target {
	char parallelcluster[16], slurm[16];
};
struct format_run {
	const struct format_target *targets;
	size_t n_targets;
	const char *docs_url;  /* where rule links point (rule_url); NULL: the build's */
};

/* Parses a --format value; -1 if unknown. */
int format_parse(const char *s);
/* The list must be sorted. color adds ANSI colour to the human formats
 * (text and concise); the machine formats are never coloured. */
void format_write(FILE *out, enum format fmt, const struct diag_list *list,
		  bool color);
/* The same with the run's properties (run may be NULL): json and sarif
 * carry "properties": {"target": {...}} when the run had one target, and
 * "targets": [...] always. */
void format_write_run(FILE *out, enum format fmt, const struct diag_list *list,
		      bool color, const struct format_run *run);

#endif
