#include "jobspec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fileio.h"
#include "issues.h"
#include "suppress.h"
#include "xalloc.h"

/* Only a document without issues is bound: libcyaml would stop at the
 * first duplicate key that our loader has already reported. */
static bool check(struct source *src, const yamldoc *doc, const struct target *target,
		  struct spec *spec, struct plan *plan, struct diag_list *diags)
{
	memset(spec, 0, sizeof *spec);
	spec->target = target ? *target : target_default();
	if (yamldoc_issue_count(doc) || !spec_load(spec, src, doc, diags))
		return false;
	return plan_derive(plan, spec, diags);
}

bool jobspec_open(struct jobspec *js, const char *path, const struct target *target,
		  struct diag_list *diags)
{
	memset(js, 0, sizeof *js);
	size_t len;
	bool too_big;
	char *text = file_read(path, TF_DEFAULT_MAX_BYTES, &len, &too_big);
	if (text && too_big) {
		free(text);
		text = NULL;
		errno = EFBIG;
	}
	if (!text) {
		fprintf(stderr, "trainforge: %s: %s\n", path, strerror(errno ? errno : EIO));
		return false;
	}
	js->src = source_new(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len);
	js->src->kind = KIND_JOBSPEC;
	js->doc = yamldoc_parse(js->src->text, js->src->len, NULL);
	size_t before = diags->len;
	issues_report(diags, js->src, js->doc, KIND_JOBSPEC);
	js->ok = check(js->src, js->doc, target, &js->spec, &js->plan, diags);
	/* `# trainforge disable=` holds for gen and plan as it does for lint;
	 * a suppressed error still stops gen (check returned false). */
	static bool every_rule[RULE__COUNT];
	for (size_t i = 0; i < RULE__COUNT; i++)
		every_rule[i] = true;
	diag_collapse(diags, before, js->src, every_rule);
	suppress_apply(js->src, js->doc, diags, before, every_rule, !yamldoc_broken(js->doc));
	for (size_t i = before; i < diags->len; i++)
		js->ok &= diags->v[i].sev != SEV_ERROR;
	return true;
}

void jobspec_close(struct jobspec *js)
{
	spec_free(&js->spec);
	yamldoc_free(js->doc);
	/* the source outlives the spec: diagnostics point into it */
}

void jobspec_lint(struct source *src, const yamldoc *doc, struct diag_list *diags)
{
	jobspec_lint_at(src, doc, NULL, diags);
}

void jobspec_lint_at(struct source *src, const yamldoc *doc, const struct target *target,
		     struct diag_list *diags)
{
	struct spec spec;
	struct plan plan;
	check(src, doc, target, &spec, &plan, diags);
	spec_free(&spec);
}
