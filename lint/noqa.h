/* Directives that accept findings as they stand: `lint --add-noqa`
 * writes one for each finding, and the editor's "disable for this line"
 * and "for this file" actions write one for the finding at hand. Each
 * is placed where suppress.c reads it as covering the finding: at the
 * end of a YAML line without a comment of its own, else on its own line
 * above (the finding's node); in a script, on its own line above the
 * command the finding is in (a trailing comment would end a line
 * continued by a backslash); `disable-file=` under the #! line. */
#ifndef TF_NOQA_H
#define TF_NOQA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "fix.h"

/* An insertion: text at byte offset `offset` of src (on 1-based line). */
struct noqa_edit {
	uint32_t line;
	size_t offset;
	char *text;
};

/* The edits that cover findings v[0..n) of src (each of src), one
 * directive per place with every ID that goes there; file_wide: one
 * `disable-file=` for them all. reason goes after the IDs (`# reason`).
 * Returns the count, edits in *out (sorted by offset; noqa_edits_free). */
size_t noqa_edits(struct source *src, bool yaml, const struct diag *const *v, size_t n,
		  bool file_wide, const char *reason, struct noqa_edit **out);
void noqa_edits_free(struct noqa_edit *e, size_t n);
/* src's text with the edits in, *len its length. */
char *noqa_apply(const struct source *src, const struct noqa_edit *e, size_t n, size_t *len);

/* --add-noqa: for each input file of a finished run with findings (of a
 * kind whose comments are '#': YAML and shell), its text with a
 * directive for every finding, as a fix result (fix_write writes it,
 * fix_diff shows it); out->fixes counts the directives. */
void noqa_run(const struct lint_run *run, const char *reason, struct fix_result *out);

#endif
