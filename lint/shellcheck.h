/* shellcheck on batch scripts: general shell mistakes are its job, not
 * ours. One shellcheck process for every script of a run; its findings
 * come back as diagnostics under their own SC codes. */
#ifndef TF_SHELLCHECK_H
#define TF_SHELLCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "trouble.h"

enum shellcheck_mode { SHELLCHECK_AUTO, SHELLCHECK_OFF, SHELLCHECK_REQUIRED };

/* Runs shellcheck (program, or "shellcheck" from PATH) on the scripts'
 * texts as linted. Returns false when it could not run; in AUTO mode a
 * one-line notice goes to trouble, as a silent skip would make local and
 * CI results disagree. */
bool shellcheck_run(struct source *const *scripts, size_t n, enum shellcheck_mode mode,
		    const char *program, struct diag_list *diags, struct trouble *trouble);

#endif
