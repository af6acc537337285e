/* `trainforge gen` without the file writes: a job spec that passes the
 * spec and plan checks is rendered with the built-in templates, and it
 * must render without a template error and what it renders must lint
 * clean, config and batch script (cmd_gen calls either a trainforge
 * bug). */
#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "format.h"
#include "fuzz.h"
#include "jobspec_hook.h"
#include "lint.h"
#include "render.h"
#include "xalloc.h"

/* TF_FUZZ_SKIP=PC1001,... leaves findings of those rules out of the
 * check (see fuzz.h). */
static bool skipped(const struct diag *d)
{
	return fuzz_skip(rule_table[d->rule].id);
}

/* As cli/cmd_gen.c does: both files in one run, the config first so
 * that the script pairs with it; a finding at warning or above is a
 * defect, a note (an instance type newer than the catalog) is not. */
static void lint_generated(const struct gen_files *files)
{
	struct lint_options opt;
	lint_options_init(&opt);
	opt.shellcheck = SHELLCHECK_OFF;
	struct lint_run run;
	lint_run_init(&run, &opt);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < files->len; i++)
			if ((strcmp(files->v[i].kind, "pcluster") == 0) == (pass == 0))
				lint_text(&run, files->v[i].name, files->v[i].text,
					  files->v[i].len, true);
	lint_run_finish(&run);
	diag_list_sort(&run.diags);
	bool clean = true;
	for (size_t i = 0; i < run.diags.len; i++)
		clean &= run.diags.v[i].sev < SEV_WARNING || skipped(&run.diags.v[i]);
	if (!clean) {
		fputs("generated files with findings:\n", stderr);
		format_write(stderr, FMT_CONCISE, &run.diags, false);
		for (size_t i = 0; i < files->len; i++)
			fprintf(stderr, "---- %s\n%s\n", files->v[i].name, files->v[i].text);
	}
	FUZZ_CHECK(clean);
	lint_run_fini(&run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	struct source *src = source_new("job.yaml", text, size);
	src->kind = KIND_JOBSPEC;
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	struct diag_list diags = { 0 };
	struct spec spec;
	struct plan plan;
	bool ok = fuzz_jobspec_check(src, doc, &spec, &plan, &diags);
	for (size_t i = 0; i < diags.len; i++)
		ok &= diags.v[i].sev != SEV_ERROR;
	if (ok) {
		struct gen_files files = { 0 };
		char err[512] = "";
		bool rendered = render_all(&plan, &spec, "job.yaml", NULL, &files, err, sizeof err);
		if (!rendered)
			fprintf(stderr, "template error on a valid spec: %s\n", err);
		FUZZ_CHECK(rendered);
		lint_generated(&files);
		gen_files_free(&files);
	}
	spec_free(&spec);
	diag_list_free(&diags);
	yamldoc_free(doc);
	source_free(src);
	return 0;
}
