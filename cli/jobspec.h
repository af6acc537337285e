/* Where lint and gen meet: reading a job spec file into a checked spec
 * and plan, for `plan`, `gen` and `lint` of job specs. */
#ifndef TF_JOBSPEC_H
#define TF_JOBSPEC_H

#include <stdbool.h>

#include "diag.h"
#include "plan.h"
#include "spec.h"
#include "yamldoc.h"

struct jobspec {
	struct source *src;
	yamldoc *doc;
	struct spec spec;
	struct plan plan;
	bool ok;          /* spec and plan without errors */
};

/* Reads path ("-" for stdin) and checks it against target (NULL: the
 * default). Returns false (message on stderr) only when the file cannot
 * be read; findings go to diags. */
bool jobspec_open(struct jobspec *js, const char *path, const struct target *target,
		  struct diag_list *diags);
void jobspec_close(struct jobspec *js);
/* The lint hook: spec and plan checks on an already parsed document. */
void jobspec_lint(struct source *src, const yamldoc *doc, struct diag_list *diags);
void jobspec_lint_at(struct source *src, const yamldoc *doc, const struct target *target,
		     struct diag_list *diags);

#endif
