/* The model's verdict: the file linted in memory as the CLI lints it
 * with --isolated --shellcheck off, and an SB0005 finding looked for. A
 * placeholder in angles in a command (<YOUR_NAME>) is not a syntax
 * error to the linter, which reads it as a word of unknown value, but
 * the linter knows bash reads its < as a redirection: the LN1010 that
 * names one at a command is a rejection too. */
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
		size_t at = f && d->rule == R_LN1010 ? source_offset(f->src, d->line, d->col) : 0;
		if (d->rule == R_LN1010 && f && at < f->src->len && f->src->text[at] == '<' &&
		    sb_line_kind(f->model, d->line) == SB_LINE_CODE) {
			if (!v->reject)
				snprintf(v->why, sizeof v->why, "a placeholder in angles bash reads as a redirection");
			v->reject = true;
			continue;
		}
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
