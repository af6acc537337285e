/* What the files of the lint pipeline share (input.c reads, lint.c
 * classifies and runs the rules). Not an API. */
#ifndef TF_LINT_INTERNAL_H
#define TF_LINT_INTERNAL_H

#include <stdbool.h>

#include "lint.h"

struct source *lint_keep_source(struct lint_run *run, const char *path, char *text, size_t len);
void lint_io_error(struct lint_run *run, const char *path, const char *why);
/* Classifies and lints one input; named: given on the command line. */
void lint_source(struct lint_run *run, struct source *src, bool named);
/* Drops disabled rules and applies --severity from diagnostic first on. */
void lint_apply_selection(struct lint_run *run, size_t first);
/* The PC5 review of a cluster config against its old version, when the
 * options name one (review.c). */
void lint_review(struct lint_run *run, struct source *src, const yamldoc *doc);
/* A file a directory walk should look at: YAML or a batch script name. */
bool lint_candidate(const char *path);

#endif
