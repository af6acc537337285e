/* What the format writers share; only core/format*.c include this. */
#ifndef TF_FORMAT_INTERNAL_H
#define TF_FORMAT_INTERNAL_H

#include "buf.h"
#include "diag.h"
#include "format.h"


/* Appends s as a quoted JSON string ("null" for NULL); bytes that are not
 * UTF-8 become U+FFFD so the output is always valid JSON. */
void format_json_str(struct buf *b, const char *s);
void format_sarif(struct buf *b, const struct diag_list *list, const struct format_run *run);
/* "target":{...},"targets":[...] (no braces around): the run properties. */
void format_run_properties(struct buf *b, const struct format_run *run);
void format_github(struct buf *b, const struct diag_list *list);
void format_checkstyle(struct buf *b, const struct diag_list *list);
void format_gitlab(struct buf *b, const struct diag_list *list);

#endif
