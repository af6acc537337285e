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
};

/* Parses a --format value; -1 if unknown. */
int format_parse(const char *s);
/* The list must be sorted. color adds ANSI colour to text output; the
 * machine formats are never coloured. */
void format_write(FILE *out, enum format fmt, const struct diag_list *list,
		  bool color);

#endif
