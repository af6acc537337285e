/* What cli/jobspec.c's jobspec_lint does, without linking cli/: the
 * generator's spec and plan checks on an already parsed document. Only a
 * document without issues is bound, as in the CLI. */
#ifndef TF_FUZZ_JOBSPEC_HOOK_H
#define TF_FUZZ_JOBSPEC_HOOK_H

#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "plan.h"
#include "spec.h"
#include "yamldoc.h"

/* Returns true when spec and plan passed; *spec is loaded (free it). */
static inline bool fuzz_jobspec_check(struct source *src, const yamldoc *doc,
				      struct spec *spec, struct plan *plan,
				      struct diag_list *diags)
{
	memset(spec, 0, sizeof *spec);
	memset(plan, 0, sizeof *plan);
	if (yamldoc_issue_count(doc) || !spec_load(spec, src, doc, diags))
		return false;
	return plan_derive(plan, spec, diags);
}

static inline void fuzz_jobspec_lint(struct source *src, const yamldoc *doc,
				     struct diag_list *diags)
{
	struct spec spec;
	struct plan plan;
	fuzz_jobspec_check(src, doc, &spec, &plan, diags);
	spec_free(&spec);
}

#endif
