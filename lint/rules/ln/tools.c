/* LN2xxx: what the linter finds about the tools it runs on an input,
 * when one of them could not do its part. */
#include "ln.h"

/* LN2001 shellcheck-timeout */
void ln_shellcheck_timeout(struct diag_list *diags, struct source *src, double bound,
			   size_t memory)
{
	/* a stalled batch of several is run again a script at a time
	 * (lint/shellcheck.c), so the finding is always this script's own */
	struct diag *d;
	if (memory) {
		d = diag_add(diags, src, R_LN2001, 1, 1, 1, 1,
			     "shellcheck ran out of its %zu MiB of memory on this script, so its findings are missing",
			     memory >> 20);
		diag_set_help(d, "keep shellcheck off this file (per-file-ignores: {FILE: [SC0000]}); shellcheck's memory on a script grows with how deeply its $( ) nest");
		return;
	}
	d = diag_add(diags, src, R_LN2001, 1, 1, 1, 1,
		     "shellcheck did not finish on this script within %.3g s, so its findings are missing",
		     bound);
	diag_set_help(d, "raise the bound (--shellcheck-timeout SECONDS, or shellcheck-timeout: in .trainforge.yaml), or keep shellcheck off this file (per-file-ignores: {FILE: [SC0000]})");
}
