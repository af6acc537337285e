/* trainforge gen SPEC [-o DIR] [--force] [--check] [--templates DIR] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "fileio.h"
#include "format.h"
#include "jobspec.h"
#include "lint.h"
#include "output.h"
#include "render.h"
#include "targets.h"

static const char gen_usage[] =
	"usage: trainforge gen SPEC [-o DIR] [--force] [--check] [--templates DIR] [--target T]\n"
	"  writes NAME-cluster.yaml and NAME.sbatch (and NAME-spot-watcher.sh for a mixed fleet)\n"
	"  into DIR (default .; made with its parents when missing) and prints the plan\n"
	"  --force          overwrite files that differ\n"
	"  --check          write nothing; exit 1 when a file is missing or differs\n"
	"  --templates DIR  use DIR/<template> instead of the built-in one of that name\n"
	"  --target T       parallelcluster=V or slurm=V (repeatable): the versions the files\n"
	"                   are for; the spec and the files are checked against them\n"
	"                   (default: ParallelCluster 3.16 and the Slurm it ships, 25.11)\n";

struct gen_args {
	const char *spec, *dir, *templates;
	bool force, check;
	struct target target;
};

static int parse(struct gen_args *a, int argc, char **argv)
{
	struct target_request req = { 0 };
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			fputs(gen_usage, stdout);
			exit(EXIT_CLEAN);
		} else if (!strcmp(s, "--force")) {
			a->force = true;
		} else if (!strcmp(s, "--check")) {
			a->check = true;
		} else if ((!strcmp(s, "-o") || !strcmp(s, "--output")) && i + 1 < argc) {
			a->dir = argv[++i];
		} else if (!strcmp(s, "--templates") && i + 1 < argc) {
			a->templates = argv[++i];
		} else if ((!strcmp(s, "--target") && i + 1 < argc) || !strncmp(s, "--target=", 9)) {
			if (!targets_add(&req, s[8] == '=' ? s + 9 : argv[++i]))
				return EXIT_TROUBLE;
		} else if (s[0] == '-' && strcmp(s, "-")) {
			fprintf(stderr, "trainforge: unknown option '%s'\n%s", s, gen_usage);
			return EXIT_TROUBLE;
		} else if (!a->spec) {
			a->spec = s;
		} else {
			fputs(gen_usage, stderr);
			return EXIT_TROUBLE;
		}
	}
	if (!a->spec) {
		fputs(gen_usage, stderr);
		return EXIT_TROUBLE;
	}
	a->target = target_apply(target_default(), &req);
	/* A missing DIR is made when there is something to write (the
	 * README's tour runs gen -o out/ first); another kind of file is not. */
	struct stat st;
	if (stat(a->dir, &st) == 0 ? !S_ISDIR(st.st_mode) : errno != ENOENT) {
		fprintf(stderr, "trainforge: %s: not a directory\n", a->dir);
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static int write_files(const struct gen_args *a, const struct gen_files *files)
{
	int rc = EXIT_CLEAN;
	if (!a->check && !dir_make(a->dir)) {
		fprintf(stderr, "trainforge: %s: %s\n", a->dir, strerror(errno));
		return EXIT_TROUBLE;
	}
	for (size_t i = 0; i < files->len; i++) {
		const struct gen_file *f = &files->v[i];
		enum output_result r = output_write(a->dir, f->name, f->text, f->len, a->force, a->check);
		const char *what = NULL;
		switch (r) {
		case OUTPUT_WRITTEN: what = "wrote"; break;
		case OUTPUT_UNCHANGED: what = "unchanged"; break;
		case OUTPUT_DRIFT:
			what = "differs from the spec (run trainforge gen)";
			if (rc == EXIT_CLEAN)
				rc = EXIT_FINDINGS;
			break;
		case OUTPUT_EXISTS:
			what = "exists and differs; not overwritten without --force";
			rc = EXIT_TROUBLE;
			break;
		case OUTPUT_FAILED:
			perror(f->name);
			rc = EXIT_TROUBLE;
			continue;
		}
		fprintf(stderr, "%s/%s: %s\n", a->dir, f->name, what);
	}
	return rc;
}

int cmd_gen(int argc, char **argv)
{
	struct gen_args a = { .dir = "." };
	int rc = parse(&a, argc, argv);
	if (rc)
		return rc;
	struct diag_list diags = { 0 };
	struct jobspec js;
	if (!jobspec_open(&js, a.spec, &a.target, &diags))
		return EXIT_TROUBLE;
	struct gen_files files = { 0 };
	struct jobspec_templates templates = { 0 };
	char err[512];
	/* What a spec value or a user template causes in a generated file is
	 * the user's finding (JS4006), and nothing is written; what nothing
	 * explains is trainforge's bug, on stderr after the findings. */
	char *bug = NULL;
	size_t bug_len = 0;
	FILE *internal = js.ok ? open_memstream(&bug, &bug_len) : NULL;
	int unexplained = 0;
	size_t before = diags.len;
	if (js.ok)
		unexplained = jobspec_outputs_check(&js, a.spec, a.templates, a.dir, &a.target, &files,
						    &diags, internal, &templates, err, sizeof err);
	if (internal)
		fclose(internal);
	for (size_t i = before; i < diags.len; i++)
		js.ok &= diags.v[i].sev < SEV_WARNING;
	diag_list_sort(&diags);
	format_write(stderr, FMT_TEXT, &diags, false);
	rc = js.ok ? EXIT_CLEAN : EXIT_FINDINGS;
	if (unexplained < 0) {
		fprintf(stderr, "trainforge: template error: %s\n", err);
		rc = EXIT_TROUBLE;
	} else if (unexplained > 0) {
		fputs(bug, stderr);
		rc = EXIT_TROUBLE;
	} else if (js.ok) {
		rc = write_files(&a, &files);
		if (!a.check)
			plan_print_text(&js.plan, stdout, 0);
	}
	free(bug);
	gen_files_free(&files);
	jobspec_templates_free(&templates);
	jobspec_close(&js);
	diag_list_free(&diags);
	source_free(js.src);
	return rc;
}
