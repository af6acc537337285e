/* The whole lint pipeline on one input: as a cluster config, as YAML of
 * no known kind, as a job spec, as a batch script (kinds forced), and
 * classified automatically as if found in a directory walk; then the
 * run's cross-file checks (the script against the config) and every
 * output format, written to /dev/null. shellcheck is off. The target is
 * one of a few (chosen by the input's size, so a crash still
 * reproduces), so that the version checks run for old and new releases. */
#include <stdbool.h>
#include <string.h>

#include "diag.h"
#include "format.h"
#include "fuzz.h"
#include "jobspec_hook.h"
#include "lint.h"

/* By name, so that formats added later are covered without an edit and
 * names this build does not know are skipped. */
static const char *const formats[] = {
	"text", "concise", "json", "jsonl", "sarif", "github", "checkstyle",
};

static void check_diags(const struct diag_list *l)
{
	for (size_t i = 0; i < l->len; i++) {
		const struct diag *d = &l->v[i];
		FUZZ_CHECK(d->src != NULL && d->msg != NULL);
		FUZZ_CHECK((unsigned)d->rule < RULE__COUNT);
		FUZZ_CHECK(d->sev <= SEV_ERROR);
		FUZZ_CHECK(d->line >= 1 && d->col >= 1);
	}
}

/* SARIF carries every rule's full explanation, whatever the input, and
 * would take most of the run: it is written for one input size in
 * sixteen (chosen by the input, so a crash still reproduces); the same
 * for coloured text, in four. */
static void write_all(const struct diag_list *l, size_t size)
{
	FILE *null = fuzz_devnull();
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		int f = format_parse(formats[i]);
		if (f < 0 || (strcmp(formats[i], "sarif") == 0 && size % 16 != 5))
			continue;
		struct format_target t = { "3.16", "25.11.8" };
		struct format_run props = { &t, 1, NULL };
		format_write_run(null, (enum format)f, l, false, &props);
		if (f == FMT_TEXT && size % 4 == 1)
			format_write(null, FMT_TEXT, l, true);
	}
	fflush(null);
}

static struct target target_for(size_t size)
{
	static const char *const targets[][2] = {
		{ NULL, NULL }, { "parallelcluster=3.11", NULL }, { "parallelcluster=3.13", "slurm=22.05" },
		{ "slurm=23.11", NULL }, { "parallelcluster=3.14", NULL }, { "slurm=26.05", NULL },
	};
	const char *const *pick = targets[size % (sizeof targets / sizeof targets[0])];
	struct target_request req = { 0 };
	char err[512];
	for (int i = 0; i < 2; i++)
		FUZZ_CHECK(!pick[i] || target_parse_arg(pick[i], &req, err, sizeof err));
	return target_apply(target_default(), &req);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct {
		enum file_kind kind;
		const char *path;
		bool named;
	} runs[] = {
		{ KIND_PCLUSTER, "cluster.yaml", true },
		{ KIND_UNKNOWN, "other.yaml", true },
		{ KIND_JOBSPEC, "job.yaml", true },
		{ KIND_SBATCH, "job.sbatch", true },
		{ KIND_AUTO, "dir/found.yaml", false }, /* as if found in a walk */
	};
	/* One run holds the five files, as a multi-file lint does, so the
	 * formats (SARIF is the costly one) run once per input. */
	struct lint_options opts[sizeof runs / sizeof runs[0]];
	struct lint_run run;
	lint_run_init(&run, &opts[0]);
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		lint_options_init(&opts[i]);
		opts[i].kind = runs[i].kind;
		opts[i].check_jobspec = fuzz_jobspec_lint;
		opts[i].shellcheck = SHELLCHECK_OFF; /* no process per input */
		opts[i].target = target_for(size);
		run.opt = &opts[i];
		lint_text(&run, runs[i].path, (const char *)data, size, runs[i].named);
	}
	/* the script is checked against the cluster config of the run */
	lint_run_finish(&run);
	diag_list_sort(&run.diags);
	check_diags(&run.diags);
	write_all(&run.diags, size);
	lint_run_fini(&run);
	return 0;
}
