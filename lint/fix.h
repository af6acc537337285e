/* Autofix: byte-range edits on the original text (YAML is never
 * re-serialised, so comments, anchors, order and quoting survive).
 *
 * Each rule builds its own fix when it reports (the text and the range
 * it replaces); rules.def says which rules have one and whether it is
 * safe: a fix is safe when it cannot change what ParallelCluster, sbatch
 * or bash will do beyond the finding itself (a look-alike character to
 * ASCII, a stale suppression removed); the others need --unsafe-fixes. */
#ifndef TF_FIX_H
#define TF_FIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lint.h"

enum { FIX_MAX_PASSES = 10 };

struct fix_file {
	const char *path;       /* as the run names it */
	char *before, *after;   /* the text as read and as fixed */
	size_t before_len, after_len;
	size_t fixes;           /* edits applied, over every pass */
};

struct fix_result {
	struct fix_file *v;     /* the inputs that changed */
	size_t len;
	size_t fixes;
	bool converged;         /* false: still fixing after FIX_MAX_PASSES */
};

/* Applies the fixes of `first` (a finished run with options opt), lints
 * the fixed text again the same way, and repeats until nothing is left
 * to fix. Writes nothing; `first` must outlive the result. */
void fix_run(const struct lint_options *opt, const struct lint_run *first, bool unsafe,
	     struct fix_result *out);
void fix_result_free(struct fix_result *r);

/* Writes each changed file through a temporary file in its directory and
 * a rename, keeping its mode. False (a message in trouble) if one failed. */
bool fix_write(const struct fix_result *r, struct trouble *trouble);

/* A unified diff of every changed file (a/PATH, b/PATH: patch -p1). */
void fix_diff(const struct fix_result *r, FILE *out);

/* Whether diagnostic d has a fix, and whether --fix does all it can
 * (false when it needs --unsafe-fixes, or has an unsafe one beside). */
bool fix_available(const struct diag *d, bool *safe);

/* Which fix of d a pass applies (with unsafe fixes or not). */
enum fix_choice { FIX_CHOSEN_NONE, FIX_CHOSEN_OWN, FIX_CHOSEN_ALT /* d->alt */ };
enum fix_choice fix_chosen(const struct diag *d, bool unsafe);

/* Unified diff of two texts under one path (fix_diff.c). */
void fix_diff_texts(const char *path, const char *a, size_t alen, const char *b, size_t blen,
		    FILE *out);

#endif
