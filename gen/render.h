/* Renders the generated files from the templates: embedded in the
 * binary, or overridden by name from a directory. */
#ifndef TF_RENDER_H
#define TF_RENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

struct gen_file {
	char *name;     /* file name in the output directory */
	char *text;
	size_t len;
	const char *kind; /* "pcluster", "sbatch", "script" (the spot watcher, Pyxis's
			   * set-up) or "image" (a pcluster build-image config) */
	const char *template; /* the template's name, e.g. batch.sbatch.mustache */
};

#define GEN_FILES_MAX 8
struct gen_files {
	struct gen_file v[GEN_FILES_MAX];
	size_t len;
};

/* Renders every output for the plan. templates_dir may be NULL. On a
 * template error writes "template:line:col: message" into err (cap
 * bytes) and returns false. */
bool render_all(const struct plan *p, const struct spec *spec, const char *spec_path,
		const char *templates_dir, struct gen_files *out, char *err, size_t cap);
void gen_files_free(struct gen_files *files);

#endif
