/* trainforge plan SPEC [--compare TYPES] [--same nodes|peak|ranks] [--deadline DAYS]
 *                 [--hours N] [--tco FILE] [--format text|json] [--svg FILE] [--target T],
 * and trainforge plan CLUSTER.yaml [--format text|json] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "color.h"
#include "commands.h"
#include "format.h"
#include "fileio.h"
#include "issues.h"
#include "jobspec.h"
#include "cli_options.h"
#include "plan_cluster.h"
#include "prices_cli.h"
#include "targets.h"
#include "tco.h"
#include "trouble.h"

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
			char suggestion[96], sizes[200];
			/* a name EC2 could have is not corrected: the family's sizes instead */
			if (catalog_check_name(s, len, suggestion, sizeof suggestion) == CATALOG_UNKNOWN_PLAUSIBLE &&
			    catalog_family_sizes(s, len, sizes, sizeof sizes))
				fprintf(stderr, "trainforge: unknown instance type '%.*s' in --compare (the catalog's %.*s sizes: %s)\n",
					(int)len, s, (int)catalog_family_len(s, len), s, sizes);
			else
				fprintf(stderr, "trainforge: unknown instance type '%.*s' in --compare%s%s%s\n",
					(int)len, s, suggestion[0] ? " (did you mean " : "", suggestion,
					suggestion[0] ? "?)" : "; `trainforge instances` lists the catalog");
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
		format_write(stderr, FMT_TEXT, &diags, color_wanted(-1, STDERR_FILENO));
		rc = yamldoc_broken(doc) ? EXIT_FINDINGS : plan_cluster(src, doc, !strcmp(fmt, "json"));
		diag_list_free(&diags);
	}
	yamldoc_free(doc);
	source_free(src);
	return rc;
}

/* The markdown document: the summary and the bill as tables, with the
 * full text plan (the -v one, less its own summary) under them. */
static void plan_markdown(const struct plan *p, const struct plan_request *rq)
{
	char *full = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&full, &len);
	if (!mem) {
		plan_report_text(p, rq, stdout);
		return;
	}
	plan_report_text(p, rq, mem);
	fclose(mem);
	/* the text's own summary ends at its first blank line */
	const char *rest = strstr(full, "\n\n");
	plan_brief_markdown(p, rest ? rest + 2 : full, stdout);
	free(full);
}

int cmd_plan(int argc, char **argv)
{
	const char *path = NULL, *fmt = "text", *svg = NULL, *compare = NULL, *tco_path = NULL;
	const char *prices = NULL;
	bool isolated = false, verbose = false;
	double hours = 0, deadline = 0;
	enum plan_same same = SAME_PEAK;
	bool same_given = false;
	struct target_request req = { 0 };
	struct options p;
	options_init(&p, CMD_PLAN, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		const char *v = p.value;
		char *end;
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPTS_ERROR: return EXIT_TROUBLE;
		case OPT_HOURS:
			hours = strtod(v, &end);
			if (*end || !(hours > 0) || hours > 1e7)
				return options_bad_value(&p);
			break;
		case OPT_FORMAT:
			fmt = v;
			if (strcmp(fmt, "text") && strcmp(fmt, "json") && strcmp(fmt, "markdown"))
				return options_bad_value(&p);
			break;
		case OPT_VERBOSE: verbose = true; break;
		case OPT_DEADLINE:
			deadline = strtod(v, &end);
			if (*end || !(deadline > 0) || deadline > 36500) {
				fprintf(stderr, "trainforge: invalid value '%s' for --deadline (days, more than 0)\n", v);
				return EXIT_TROUBLE;
			}
			break;
		case OPT_SAME:
			if (!parse_same(v, &same)) {
				fprintf(stderr, "trainforge: invalid value '%s' for --same (peak, nodes or ranks)\n", v);
				return EXIT_TROUBLE;
			}
			same_given = true;
			break;
		case OPT_TCO: tco_path = v; break;
		case OPT_PRICES: prices = v; break;
		case OPT_ISOLATED: isolated = true; break;
		case OPT_COMPARE: compare = v; break;
		case OPT_SVG: svg = v; break;
		case OPT_TARGET:
			if (!targets_add(&req, v))
				return EXIT_TROUBLE;
			break;
		case OPTS_OPERAND:
			if (path) {
				options_usage(stderr, CMD_PLAN);
				return EXIT_TROUBLE;
			}
			path = v;
			break;
		}
	}
	if (!path) {
		options_usage(stderr, CMD_PLAN);
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
	if (!cli_prices_setup(prices, isolated))
		return EXIT_TROUBLE;
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
	format_write(stderr, FMT_TEXT, &diags, color_wanted(-1, STDERR_FILENO));
	int rc = js.ok ? EXIT_CLEAN : EXIT_FINDINGS;
	/* a layout the cluster checks refuse (one that does not fit) is
	 * still shown: the plan says why */
	if (js.ok || js.plan.derived) {
		types[ntypes++] = js.plan.it;
		for (size_t i = 0; i < nlisted; i++)
			if (listed[i] != js.plan.it)
				types[ntypes++] = listed[i];
		struct plan_request rq = { .hours = hours, .types = types, .ntypes = ntypes, .spec = &js.spec,
					   .same = same, .deadline_days = deadline, .tco = tco,
					   .verbose = verbose || !strcmp(fmt, "markdown") };
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
		else if (!strcmp(fmt, "markdown"))
			plan_markdown(&js.plan, &rq);
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
