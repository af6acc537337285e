/* trainforge plan SPEC [--hours N] [--format text|json] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "format.h"
#include "jobspec.h"

static const char plan_usage[] =
	"usage: trainforge plan SPEC [--hours N] [--format text|json]\n"
	"  prints the derived layout, invariants, pipeline bubble and cost; writes nothing\n";

int cmd_plan(int argc, char **argv)
{
	const char *path = NULL, *fmt = "text";
	double hours = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(plan_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(argv[i], "--hours") && i + 1 < argc) {
			char *end;
			hours = strtod(argv[++i], &end);
			if (*end || hours <= 0) {
				fprintf(stderr, "trainforge: invalid value '%s' for --hours\n", argv[i]);
				return EXIT_TROUBLE;
			}
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			fmt = argv[++i];
			if (strcmp(fmt, "text") && strcmp(fmt, "json")) {
				fprintf(stderr, "trainforge: invalid value '%s' for --format\n", fmt);
				return EXIT_TROUBLE;
			}
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
	struct diag_list diags = { 0 };
	struct jobspec js;
	if (!jobspec_open(&js, path, &diags))
		return EXIT_TROUBLE;
	diag_list_sort(&diags);
	format_write(stderr, FMT_TEXT, &diags, false);
	int rc = js.ok ? EXIT_CLEAN : EXIT_FINDINGS;
	if (js.ok && !strcmp(fmt, "json"))
		plan_print_json(&js.plan, stdout, hours);
	else if (js.ok)
		plan_print_text(&js.plan, stdout, hours);
	jobspec_close(&js);
	diag_list_free(&diags);
	source_free(js.src);
	return rc;
}
