/* trainforge plan SPEC [--compare TYPES] [--same nodes|peak|ranks] [--deadline DAYS]
 *                 [--hours N] [--tco FILE] [--format text|json] [--svg FILE] [--target T],
 * and trainforge plan CLUSTER.yaml [--format text|json] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "commands.h"
#include "format.h"
#include "fileio.h"
#include "issues.h"
#include "jobspec.h"
#include "plan_cluster.h"
#include "targets.h"
#include "tco.h"
#include "trouble.h"

static const char plan_usage[] =
	"usage: trainforge plan SPEC [--compare TYPE,TYPE,...] [--same peak|nodes|ranks] [--deadline DAYS]\n"
	"                            [--hours N] [--tco FILE] [--format text|json] [--svg FILE] [--target T]\n"
	"  prints the derived layout, invariants, memory fit, time, network share and cost,\n"
	"  each figure with its source; writes nothing but the --svg chart\n"
	"  --compare TYPES  also estimate these instance types (the spec's own comes first)\n"
	"  --same MODE      size compared types by the same peak dense BF16 (default), the\n"
	"                   same nodes or the same ranks; each gets the nearest valid layout\n"
	"  --deadline DAYS  size each type by the fewest nodes that finish within DAYS\n"
	"  --hours N        price a run of N hours instead of the estimated run time\n"
	"  --tco FILE       owned cluster against the spec's cloud fleet over years (a YAML\n"
	"                   file, schema: trainforge schema tco)\n"
	"  --svg FILE       write a chart: run cost against run time per type, or with\n"
	"                   --tco the cumulative cost of each option over months\n"
	"  --target T       parallelcluster=V or slurm=V (repeatable): the versions the spec\n"
	"                   is checked against (default: ParallelCluster 3.16, Slurm 25.11)\n"
	"usage: trainforge plan CLUSTER.yaml [--format text|json]\n"
	"  prints, per queue and compute resource of a ParallelCluster config, the cost\n"
	"  by the hour at MinCount (billed while idle) and at MaxCount (the ceiling), at\n"
	"  the catalog's prices with their region and date\n";

#define MAX_TYPES 64

/* Adds the comma-separated types of list to types (no duplicates).
 * Returns false, with a message, on an unknown or empty type. */
static bool parse_compare(const char *list, const struct instance_type **types, size_t *n)
{
	const char *s = list;
	for (;;) {
		size_t len = strcspn(s, ",");
		const struct instance_type *it = catalog_find(s, len);
		if (!it) {
			char suggestion[96];
			catalog_check_name(s, len, suggestion, sizeof suggestion);
			fprintf(stderr, "trainforge: unknown instance type '%.*s' in --compare%s%s%s\n",
				(int)len, s, suggestion[0] ? " (did you mean " : "", suggestion,
				suggestion[0] ? "?)" : "; `trainforge plan --help` lists how to compare");
			return false;
		}
		bool dup = false;
		for (size_t i = 0; i < *n; i++)
			dup |= types[i] == it;
		if (!dup && *n < MAX_TYPES)
			types[(*n)++] = it;
		if (!s[len])
			return true;
		s += len + 1;
	}
}

static int write_svg(const char *path, const struct plan *p, const struct plan_request *rq)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "trainforge: cannot write %s: ", path);
		perror(NULL);
		return EXIT_TROUBLE;
	}
	plan_report_svg(p, rq, f);
	if (fclose(f) != 0) {
		fprintf(stderr, "trainforge: cannot write %s\n", path);
		return EXIT_TROUBLE;
	}
	return EXIT_CLEAN;
}

static bool parse_same(const char *s, enum plan_same *same)
{
	static const struct { const char *name; enum plan_same same; } modes[] = {
		{ "peak", SAME_PEAK }, { "nodes", SAME_NODES }, { "ranks", SAME_RANKS },
	};
	for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (!strcmp(s, modes[i].name)) {
			*same = modes[i].same;
			return true;
		}
	return false;
}

static struct tco_spec *read_tco(const char *path)
{
	struct trouble t = { 0 };
	struct tco_spec *spec = tco_load(path, &t);
	trouble_flush(&t, stderr);
	trouble_free(&t);
	if (spec && !catalog_find(spec->owned->like_instance, strlen(spec->owned->like_instance))) {
		fprintf(stderr, "trainforge: %s: owned.like_instance %s is not in the instance catalog\n", path,
			spec->owned->like_instance);
		tco_free(spec);
		return NULL;
	}
	return spec;
}

/* A cluster config gets its cost plan; -1: the file is not one (or is
 * stdin, which cannot be read twice), so it is read as a job spec. */
static int plan_if_cluster(const char *path, const char *fmt, bool spec_flags)
{
	size_t len;
	bool too_big;
	if (!strcmp(path, "-"))
		return -1;
	char *text = file_read(path, TF_DEFAULT_MAX_BYTES, &len, &too_big);
	if (!text || too_big) {
		free(text);
		return -1; /* the job spec path says why */
	}
	struct source *src = source_new(path, text, len);
	yamldoc *doc = yamldoc_parse(src->text, src->len, NULL);
	int rc = -1;
	if (plan_cluster_is(doc) && spec_flags) {
		fputs("trainforge: --hours, --compare, --same, --deadline, --tco and --svg plan a job spec, not a cluster config\n", stderr);
		rc = EXIT_TROUBLE;
	} else if (plan_cluster_is(doc)) {
		struct diag_list diags = { 0 };
		src->kind = KIND_PCLUSTER;
		issues_report(&diags, src, doc, KIND_PCLUSTER);
		diag_list_sort(&diags);
		format_write(stderr, FMT_TEXT, &diags, false);
		rc = yamldoc_broken(doc) ? EXIT_FINDINGS : plan_cluster(src, doc, !strcmp(fmt, "json"));
		diag_list_free(&diags);
	}
	yamldoc_free(doc);
	source_free(src);
	return rc;
}

int cmd_plan(int argc, char **argv)
{
	const char *path = NULL, *fmt = "text", *svg = NULL, *compare = NULL, *tco_path = NULL;
	double hours = 0, deadline = 0;
	enum plan_same same = SAME_PEAK;
	bool same_given = false;
	struct target_request req = { 0 };
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(plan_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(argv[i], "--hours") && i + 1 < argc) {
			char *end;
			hours = strtod(argv[++i], &end);
			if (*end || !(hours > 0) || hours > 1e7) {
				fprintf(stderr, "trainforge: invalid value '%s' for --hours\n", argv[i]);
				return EXIT_TROUBLE;
			}
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			fmt = argv[++i];
			if (strcmp(fmt, "text") && strcmp(fmt, "json")) {
				fprintf(stderr, "trainforge: invalid value '%s' for --format\n", fmt);
				return EXIT_TROUBLE;
			}
		} else if (!strcmp(argv[i], "--deadline") && i + 1 < argc) {
			char *end;
			deadline = strtod(argv[++i], &end);
			if (*end || !(deadline > 0) || deadline > 36500) {
				fprintf(stderr, "trainforge: invalid value '%s' for --deadline (days, more than 0)\n", argv[i]);
				return EXIT_TROUBLE;
			}
		} else if (!strcmp(argv[i], "--same") && i + 1 < argc) {
			if (!parse_same(argv[++i], &same)) {
				fprintf(stderr, "trainforge: invalid value '%s' for --same (peak, nodes or ranks)\n", argv[i]);
				return EXIT_TROUBLE;
			}
			same_given = true;
		} else if (!strcmp(argv[i], "--tco") && i + 1 < argc) {
			tco_path = argv[++i];
		} else if (!strcmp(argv[i], "--compare") && i + 1 < argc) {
			compare = argv[++i];
		} else if (!strcmp(argv[i], "--svg") && i + 1 < argc) {
			svg = argv[++i];
		} else if ((!strcmp(argv[i], "--target") && i + 1 < argc) ||
			   !strncmp(argv[i], "--target=", 9)) {
			if (!targets_add(&req, argv[i][8] == '=' ? argv[i] + 9 : argv[++i]))
				return EXIT_TROUBLE;
		} else if (argv[i][0] == '-' && strcmp(argv[i], "-")) {
			fprintf(stderr, "trainforge: unknown option '%s'\n%s", argv[i], plan_usage);
			return EXIT_TROUBLE;
		} else if (!path) {
			path = argv[i];
		} else {
			fputs(plan_usage, stderr);
			return EXIT_TROUBLE;
		}
	}
	if (!path) {
		fputs(plan_usage, stderr);
		return EXIT_TROUBLE;
	}
	if (same_given && deadline > 0) {
		fputs("trainforge: --same and --deadline size the compared types in two different ways: give one\n", stderr);
		return EXIT_TROUBLE;
	}
	if (hours > 0 && deadline > 0) {
		fputs("trainforge: --deadline sizes types by their estimated run time; --hours would replace it\n", stderr);
		return EXIT_TROUBLE;
	}
	int handled = plan_if_cluster(path, fmt, hours > 0 || svg || compare || tco_path || deadline > 0 || same_given);
	if (handled >= 0)
		return handled;
	struct target target = target_apply(target_default(), &req);
	const struct instance_type *types[MAX_TYPES + 1];
	size_t ntypes = 0;
	/* the spec's own type is added first once the spec is read */
	const struct instance_type *listed[MAX_TYPES];
	size_t nlisted = 0;
	if (compare && !parse_compare(compare, listed, &nlisted))
		return EXIT_TROUBLE;

	struct tco_spec *tco = NULL;
	if (tco_path && !(tco = read_tco(tco_path)))
		return EXIT_TROUBLE;

	struct diag_list diags = { 0 };
	struct jobspec js;
	if (!jobspec_open(&js, path, &target, &diags)) {
		tco_free(tco);
		return EXIT_TROUBLE;
	}
	diag_list_sort(&diags);
	format_write(stderr, FMT_TEXT, &diags, false);
	int rc = js.ok ? EXIT_CLEAN : EXIT_FINDINGS;
	if (js.ok) {
		types[ntypes++] = js.plan.it;
		for (size_t i = 0; i < nlisted; i++)
			if (listed[i] != js.plan.it)
				types[ntypes++] = listed[i];
		struct plan_request rq = { .hours = hours, .types = types, .ntypes = ntypes, .spec = &js.spec,
					   .same = same, .deadline_days = deadline, .tco = tco };
		struct plan_est own;
		plan_estimate(&js.plan, js.plan.it, 0, &own);
		if (deadline > 0 && !(own.total_flops > 0)) {
			fprintf(stderr, "trainforge: --deadline needs the run's FLOPs: give model.parameters and model.tokens in %s\n",
				path);
			rc = EXIT_TROUBLE;
			goto done;
		}
		if (!strcmp(fmt, "json"))
			plan_report_json(&js.plan, &rq, stdout);
		else
			plan_report_text(&js.plan, &rq, stdout);
		if (svg)
			rc = write_svg(svg, &js.plan, &rq);
	}
done:
	jobspec_close(&js);
	tco_free(tco);
	diag_list_free(&diags);
	source_free(js.src);
	return rc;
}
