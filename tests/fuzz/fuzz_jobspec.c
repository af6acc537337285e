/* The whole job spec path, as `trainforge lint --kind jobspec` runs it:
 * the lint pipeline with the generator's spec and plan checks as its
 * job spec hook (what cli/jobspec.c installs), then the plan printers
 * and the report, with comparisons and a deadline, when the plan was
 * derived. */
#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "fuzz.h"
#include "jobspec_hook.h"
#include "lint.h"

/* Spec and plan checks, and the plan printed as `trainforge plan` does. */
static void check_and_print(struct source *src, const yamldoc *doc,
			    struct diag_list *diags)
{
	struct spec spec;
	struct plan plan;
	if (fuzz_jobspec_check(src, doc, &spec, &plan, diags)) {
		FUZZ_CHECK(spec.job != NULL);
		FILE *null = fuzz_devnull();
		plan_print_text(&plan, null, 0);
		plan_print_text(&plan, null, 288);
		plan_print_json(&plan, null, 288);
		/* the full report, compared with a type of each accelerator
		 * kind: the layout search at the same peak, and at a deadline */
		const struct instance_type *types[] = {
			plan.it, catalog_find("p5.48xlarge", 11), catalog_find("trn2.48xlarge", 13),
		};
		struct plan_request rq = { .types = types, .ntypes = 3, .spec = &spec };
		plan_report_text(&plan, &rq, null);
		rq.same = SAME_NODES;
		plan_report_json(&plan, &rq, null);
		rq.deadline_days = 30;
		plan_report_text(&plan, &rq, null);
		plan_report_svg(&plan, &rq, null);
		fflush(null);
	}
	spec_free(&spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lint_options opt;
	lint_options_init(&opt);
	opt.kind = KIND_JOBSPEC;
	opt.check_jobspec = check_and_print;
	opt.shellcheck = SHELLCHECK_OFF;
	struct lint_run run;
	lint_run_init(&run, &opt);
	lint_text(&run, "job.yaml", (const char *)data, size, true);
	lint_run_finish(&run);
	diag_list_sort(&run.diags);
	for (size_t i = 0; i < run.diags.len; i++)
		FUZZ_CHECK(run.diags.v[i].line >= 1 && run.diags.v[i].col >= 1);
	lint_run_fini(&run);
	return 0;
}
