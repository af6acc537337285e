/* LN2xxx: what the linter finds about the tools it runs on an input,
 * when one of them could not do its part. */
#include "ln.h"

/* LN2001 shellcheck-timeout */
void ln_shellcheck_timeout(struct diag_list *diags, struct source *src, double bound,
			   size_t batch)
{
	struct diag *d = batch == 1
		? diag_add(diags, src, R_LN2001, 1, 1, 1, 1,
			   "shellcheck did not finish on this script within %.3g s, so its findings are missing",
			   bound)
		: diag_add(diags, src, R_LN2001, 1, 1, 1, 1,
			   "shellcheck did not finish within %.3g s on the %zu scripts it checked together, this one among them, so its findings for this script are missing",
			   bound, batch);
	diag_set_help(d, "raise the bound (--shellcheck-timeout SECONDS, or shellcheck-timeout: in .trainforge.yaml), or keep shellcheck off this file (per-file-ignores: {FILE: [SC0000]})");
}
