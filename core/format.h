/* Writes diagnostics in the formats users and tools read. */
#ifndef TF_FORMAT_H
#define TF_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"

enum format { FMT_TEXT, FMT_CONCISE, FMT_JSON };

/* Parses a --format value; -1 if unknown. */
int format_parse(const char *s);
/* The list must be sorted. color adds ANSI colour to text output. */
void format_write(FILE *out, enum format fmt, const struct diag_list *list,
		  bool color);

#endif
