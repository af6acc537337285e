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
	const struct lint_file *f = run.n_files ? run.files[0] : NULL;
	v->script = f && f->input && !f->shell && f->kind == KIND_SBATCH;
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
