/* trainforge gen SPEC [-o DIR] [--force] [--check] [--templates DIR] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "buf.h"
#include "color.h"
#include "commands.h"
#include "fileio.h"
#include "format.h"
#include "jobspec.h"
#include "lint.h"
#include "cli_options.h"
#include "output.h"
#include "render.h"
#include "prices_cli.h"
#include "targets.h"

struct gen_args {
	const char *spec, *dir, *templates, *prices;
	bool force, check, isolated;
	struct target target;
};

static int parse(struct gen_args *a, int argc, char **argv)
{
	struct target_request req = { 0 };
	struct options p;
	options_init(&p, CMD_GEN, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: exit(EXIT_CLEAN);
		case OPTS_ERROR: return EXIT_TROUBLE;
		case OPT_FORCE: a->force = true; break;
		case OPT_CHECK: a->check = true; break;
		case OPT_OUTPUT: a->dir = p.value; break;
		case OPT_TEMPLATES: a->templates = p.value; break;
		case OPT_PRICES: a->prices = p.value; break;
		case OPT_ISOLATED: a->isolated = true; break;
		case OPT_TARGET:
			if (!targets_add(&req, p.value))
				return EXIT_TROUBLE;
			break;
		case OPTS_OPERAND:
			if (a->spec) {
				options_usage(stderr, CMD_GEN);
				return EXIT_TROUBLE;
			}
			a->spec = p.value;
			break;
		}
	}
	if (!a->spec) {
		options_usage(stderr, CMD_GEN);
		return EXIT_TROUBLE;
	}
	a->target = target_apply(target_default(), &req);
	if (!cli_prices_setup(a->prices, a->isolated))
		return EXIT_TROUBLE;
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
		case OUTPUT_MISSING:
			what = r == OUTPUT_DRIFT ? "differs from the spec (run trainforge gen)"
						 : "missing (run trainforge gen)";
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
		struct buf path = BUF_INIT;
		output_path(&path, a->dir, f->name);
		fprintf(stderr, "%s: %s\n", path.p, what);
		buf_free(&path);
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
	/* What a spec value or a user template causes in a generated file is
	 * the user's finding (JS4006), and nothing is written; what nothing
	 * explains is trainforge's bug, on stderr after the findings. */
	struct jobspec_output out;
	jobspec_generate(&js, a.spec, a.templates, a.dir, &a.target, &diags, &out);
	diag_list_sort(&diags);
	format_write(stderr, FMT_TEXT, &diags, color_wanted(-1, STDERR_FILENO));
	rc = js.ok ? EXIT_CLEAN : EXIT_FINDINGS;
	if (out.unexplained < 0) {
		fprintf(stderr, "trainforge: template error: %s\n", out.err);
		rc = EXIT_TROUBLE;
	} else if (out.unexplained > 0) {
		fputs(out.bug, stderr);
		rc = EXIT_TROUBLE;
	} else if (js.ok) {
		rc = write_files(&a, &out.files);
		if (!a.check && rc == EXIT_CLEAN) {
			struct buf steps = BUF_INIT;
			plan_print_text(&js.plan, stdout, 0);
			plan_next_steps(&js.plan, a.dir, a.spec, &steps);
			fputs(steps.p, stdout);
			buf_free(&steps);
		}
	}
	jobspec_output_free(&out);
	jobspec_close(&js);
	diag_list_free(&diags);
	source_free(js.src);
	return rc;
}
