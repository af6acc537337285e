/* The references `trainforge docs TOPIC` prints, one writer per file. */
#ifndef TF_DOCS_H
#define TF_DOCS_H

#include "buf.h"

/* docs/versions-table.md (docs_versions.c). */
void docs_write_versions(struct buf *b);
/* docs/update-policy.md (docs_update_policy.c). */
void docs_write_update_policy(struct buf *b);
/* docs/trainforge.1, the manual page (docs_man.c). */
void docs_write_man(struct buf *b);
/* s as the text of a Markdown table cell, its Markdown characters escaped. */
void docs_put_cell(struct buf *b, const char *s);

#endif
