/* Where lint and gen meet: reading a job spec file into a checked spec
 * and plan, for `plan`, `gen` and `lint` of job specs. */
#ifndef TF_JOBSPEC_H
#define TF_JOBSPEC_H

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "plan.h"
#include "render.h"
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

/* Renders the spec's files (templates_dir may be NULL) and lints them
 * as gen would write them into dir, against target (NULL: the default).
 * A finding in a generated file that a spec value or a user template
 * line explains is reported there (JS4006) into diags; one that nothing
 * explains is left in internal (a trainforge bug). On a template error
 * writes it into err. files receives the rendered
 * files (the caller frees them); templates receives the sources of the
 * user templates findings point into (the caller frees them with
 * jobspec_templates_free). */
struct gen_files;
struct jobspec_templates { struct source *v[4]; size_t len; };
int jobspec_outputs_check(struct jobspec *js, const char *spec_path, const char *templates_dir,
			  const char *dir, const struct target *target, struct gen_files *files,
			  struct diag_list *diags, FILE *internal,
			  struct jobspec_templates *templates, char *err, size_t cap);
void jobspec_templates_free(struct jobspec_templates *t);
/* What gen makes of an opened spec (jobspec_generate). */
struct jobspec_output {
	struct gen_files files;           /* the rendered files */
	struct jobspec_templates templates;
	int unexplained;                  /* jobspec_outputs_check's answer; 0 when it did not run */
	char *bug;                        /* what no spec value explains (unexplained > 0) */
	size_t bug_len;
	char err[512];                    /* a template error (unexplained < 0) */
};
/* jobspec_outputs_check when js->ok, and js->ok false after a finding at
 * warning level or above in the files. Returns out->unexplained. */
int jobspec_generate(struct jobspec *js, const char *spec_path, const char *templates_dir,
		     const char *dir, const struct target *target, struct diag_list *diags,
		     struct jobspec_output *out);
void jobspec_output_free(struct jobspec_output *out);

#endif
