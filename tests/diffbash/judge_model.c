/* The model's verdict: the file linted in memory as the CLI lints it
 * with --isolated --shellcheck off, and an SB0005 finding looked for. */
#include "judge.h"

#include <stdio.h>
#include <string.h>

#include "lint.h"

void dbj_model(const char *path, const char *text, size_t len, bool kind_auto,
	       struct dbj_verdict *v)
{
	struct lint_options opt;
	lint_options_init(&opt);
	opt.kind = kind_auto ? KIND_AUTO : KIND_SBATCH;
	opt.shellcheck = SHELLCHECK_OFF;
	struct lint_run run;
	lint_run_init(&run, &opt);
	lint_text(&run, path, text, len, true);
	lint_run_finish(&run);
	memset(v, 0, sizeof *v);
	const char *kind = run.n_inputs ? run.inputs[0].src->kind : NULL;
	v->script = kind && strcmp(kind, "sbatch") == 0;
	for (size_t i = 0; i < run.diags.len; i++) {
		const struct diag *d = &run.diags.v[i];
		if (d->rule != R_SB0005)
			continue;
		if (!v->reject) {
			const char *tail = strstr(d->msg, "; the checks");
			int n = tail ? (int)(tail - d->msg) : (int)strlen(d->msg);
			snprintf(v->why, sizeof v->why, "%.*s", n, d->msg);
		}
		v->reject = true;
	}
	lint_run_fini(&run);
}
