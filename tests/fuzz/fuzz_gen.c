/* `trainforge gen` without the file writes: a job spec that passes the
 * spec and plan checks is rendered with the built-in templates, and it
 * must render without a template error, and every finding in what it
 * renders must be one a spec value explains (gen reports it as JS4006
 * and writes nothing); a finding nothing explains is a trainforge bug,
 * which cmd_gen prints as one and so does this target. */
#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "fuzz.h"
#include "jobspec.h"
#include "jobspec_hook.h"
#include "render.h"
#include "xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	struct jobspec js = { .src = source_new("job.yaml", text, size) };
	js.src->kind = KIND_JOBSPEC;
	js.doc = yamldoc_parse(js.src->text, js.src->len, NULL);
	struct diag_list diags = { 0 };
	bool ok = fuzz_jobspec_check(js.src, js.doc, &js.spec, &js.plan, &diags);
	for (size_t i = 0; i < diags.len; i++)
		ok &= diags.v[i].sev != SEV_ERROR;
	if (ok) {
		struct gen_files files = { 0 };
		struct jobspec_templates templates;
		char err[512] = "";
		size_t before = diags.len;
		int unexplained = jobspec_outputs_check(&js, "job.yaml", NULL, ".", NULL, &files,
							&diags, stderr, &templates, err, sizeof err);
		if (unexplained < 0)
			fprintf(stderr, "template error on a valid spec: %s\n", err);
		FUZZ_CHECK(unexplained == 0);
		/* what a spec value explains is the spec's finding, in the spec */
		for (size_t i = before; i < diags.len; i++)
			FUZZ_CHECK(diags.v[i].rule == R_JS4006 && diags.v[i].src == js.src);
		gen_files_free(&files);
		jobspec_templates_free(&templates);
	}
	spec_free(&js.spec);
	diag_list_free(&diags);
	yamldoc_free(js.doc);
	source_free(js.src);
	return 0;
}
