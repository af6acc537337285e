/* trainforge gen SPEC [-o DIR] [--force] [--check] [--templates DIR] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "format.h"
#include "jobspec.h"
#include "lint.h"
#include "output.h"
#include "render.h"
#include "targets.h"

static const char gen_usage[] =
	"usage: trainforge gen SPEC [-o DIR] [--force] [--check] [--templates DIR] [--target T]\n"
	"  writes NAME-cluster.yaml and NAME.sbatch (and NAME-spot-watcher.sh for a mixed fleet)\n"
	"  into DIR (default .) and prints the plan\n"
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
	struct stat st;
	if (stat(a->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "trainforge: %s: not a directory\n", a->dir);
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

/* A generated file that does not lint clean is a bug in trainforge: say
 * so rather than hand it to the user. */
static bool lint_generated(const struct gen_files *files, const char *dir,
			   const struct target *target)
{
	struct lint_options opt;
	lint_options_init(&opt);
	opt.target = *target;
	opt.shellcheck = SHELLCHECK_OFF; /* the tests run shellcheck on every output */
	struct lint_run run;
	lint_run_init(&run, &opt);
	/* the config first, so that the script pairs with it */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < files->len; i++) {
			if ((strcmp(files->v[i].kind, "pcluster") == 0) != (pass == 0))
				continue;
			/* The spot watcher is a plain shell script (no job, no
			 * cluster): shellcheck is its linter, in the tests. */
			if (strcmp(files->v[i].kind, "script") == 0)
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", dir, files->v[i].name);
			lint_text(&run, path, files->v[i].text, files->v[i].len, true);
		}
	lint_run_finish(&run);
	diag_list_sort(&run.diags);
	/* notes (an instance type newer than the catalog) are not defects */
	bool clean = true;
	for (size_t i = 0; i < run.diags.len; i++)
		clean &= run.diags.v[i].sev < SEV_WARNING;
	if (!clean)
		fputs("trainforge: the generated files have findings; this is a trainforge bug:\n", stderr);
	if (run.diags.len)
		format_write(stderr, FMT_CONCISE, &run.diags, false);
	lint_run_fini(&run);
	return clean;
}

static int write_files(const struct gen_args *a, const struct gen_files *files)
{
	int rc = EXIT_CLEAN;
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
	diag_list_sort(&diags);
	format_write(stderr, FMT_TEXT, &diags, false);
	rc = js.ok ? EXIT_CLEAN : EXIT_FINDINGS;
	struct gen_files files = { 0 };
	char err[512];
	if (js.ok && !render_all(&js.plan, &js.spec, a.spec, a.templates, &files, err, sizeof err)) {
		fprintf(stderr, "trainforge: template error: %s\n", err);
		rc = EXIT_TROUBLE;
	} else if (js.ok && !lint_generated(&files, a.dir, &a.target)) {
		rc = EXIT_TROUBLE;
	} else if (js.ok) {
		rc = write_files(&a, &files);
		if (!a.check)
			plan_print_text(&js.plan, stdout, 0);
	}
	gen_files_free(&files);
	jobspec_close(&js);
	diag_list_free(&diags);
	source_free(js.src);
	return rc;
}
