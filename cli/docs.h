/* The references `trainforge docs TOPIC` prints, one writer per file. */
#ifndef TF_DOCS_H
#define TF_DOCS_H

#include "buf.h"

/* docs/versions-table.md (docs_versions.c). */
void docs_write_versions(struct buf *b);

#endif
