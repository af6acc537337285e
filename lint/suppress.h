/* `# trainforge disable=ID[,ID] # reason` directives: on its own line it
 * covers the next YAML node with its children (in a script, the next
 * command with its continuation lines); trailing, its own line;
 * `disable-file=` the whole file. Directives that suppress nothing, name
 * no rule or cannot be parsed are findings themselves (LN rules). */
#ifndef TF_SUPPRESS_H
#define TF_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "script.h"
#include "yamldoc.h"

/* Filters the diagnostics of src from index `first` on (others are left
 * alone). doc gives own-line directives their YAML node's extent; NULL
 * for scripts, whose model (script, when it was parsed) says which '#'
 * starts a comment: a directive's text inside a quoted string is none. enabled tells which rules ran, so a directive for a rule
 * that was switched off is not called unused. complete: every check ran
 * (the file parsed), so an unused directive is truly stale and its fix
 * may remove it; in a file that does not parse, every directive looks
 * unused. */
void suppress_apply(struct source *src, const yamldoc *doc, const sb_model *script,
		    struct diag_list *diags, size_t first, const bool *enabled, bool complete);

#endif
