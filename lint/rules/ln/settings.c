/* LN30xx on trainforge's own settings file: a .trainforge.yaml named on
 * the command line (pre-commit passes it) or opened in an editor is
 * judged as discovery reads it, so that a typo is a finding on that file
 * and not only trouble for every other file's run. */
#include "ln.h"

/* LN3001 invalid-settings */
void ln_invalid_settings(struct diag_list *diags, struct source *src, struct yd_span at,
			 const char *msg, const char *help)
{
	struct diag *d = diag_add(diags, src, R_LN3001, at.line, at.col, at.end_line, at.end_col,
				  "%s", msg);
	diag_set_help(d, "%s", help ? help : "trainforge schema config prints what the file takes");
}
