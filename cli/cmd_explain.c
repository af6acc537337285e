/* trainforge explain [--format text|markdown] [--example bad|good|bad-old|good-old|cluster] ID|NAME */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "commands.h"
#include "explain.h"
#include "rules.h"

static const char explain_usage[] =
	"usage: trainforge explain [--format text|markdown] [--example WHICH] ID|NAME\n"
	"  prints a rule's page: what it checks, why it matters, a bad and a good\n"
	"  example, the ParallelCluster validator it mirrors, and how to suppress,\n"
	"  select or ignore it. IDs are case-insensitive (PC2101, pc2101); names\n"
	"  are as `trainforge rules` lists them (efa-without-placement-group).\n"
	"      --format FMT       text (default) or markdown\n"
	"      --example WHICH    print only the bad or good example, byte for byte,\n"
	"                         e.g. to save it as a file and lint it; 'cluster'\n"
	"                         prints the cluster config paired examples name;\n"
	"                         'bad-old' and 'good-old' the version a change rule's\n"
	"                         example changes (trainforge diff OLD NEW)\n";

int cmd_explain(int argc, char **argv)
{
	const char *name = NULL, *example = NULL;
	enum explain_format fmt = EXPLAIN_TEXT;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(explain_usage, stdout);
			return EXIT_CLEAN;
		} else if (!strcmp(a, "--format") && i + 1 < argc) {
			const char *v = argv[++i];
			if (!strcmp(v, "text"))
				fmt = EXPLAIN_TEXT;
			else if (!strcmp(v, "markdown"))
				fmt = EXPLAIN_MARKDOWN;
			else {
				fprintf(stderr, "trainforge: invalid value '%s' for --format\n", v);
				return EXIT_TROUBLE;
			}
		} else if (!strcmp(a, "--example") && i + 1 < argc) {
			example = argv[++i];
			if (strcmp(example, "bad") && strcmp(example, "good") && strcmp(example, "cluster") &&
			    strcmp(example, "bad-old") && strcmp(example, "good-old")) {
				fprintf(stderr, "trainforge: invalid value '%s' for --example\n", example);
				return EXIT_TROUBLE;
			}
		} else if (a[0] == '-') {
			fprintf(stderr, "trainforge: unknown option '%s'\n%s", a, explain_usage);
			return EXIT_TROUBLE;
		} else if (!name) {
			name = a;
		} else {
			fputs(explain_usage, stderr);
			return EXIT_TROUBLE;
		}
	}
	if (!name) {
		fputs(explain_usage, stderr);
		return EXIT_TROUBLE;
	}
	int rule = rule_find(name, strlen(name));
	if (rule < 0) {
		fprintf(stderr, "trainforge: unknown rule '%s'; `trainforge rules` lists them\n", name);
		return EXIT_TROUBLE;
	}
	const struct explain *e = explain_find(rule);
	if (example) {
		if (!e) {
			fprintf(stderr, "trainforge: %s has no explanation yet\n", rule_table[rule].id);
			return EXIT_TROUBLE;
		}
		const char *text = e->good;
		size_t len = e->good_len;
		if (!strcmp(example, "bad")) {
			text = e->bad;
			len = e->bad_len;
		} else if (!strncmp(example, "bad-", 4) || !strncmp(example, "good-", 5)) {
			bool bad = example[0] == 'b';
			text = bad ? e->bad_old : e->good_old;
			len = bad ? e->bad_old_len : e->good_old_len;
			if (!text) {
				fprintf(stderr, "trainforge: %s's examples are not changes\n", rule_table[rule].id);
				return EXIT_TROUBLE;
			}
		} else if (!strcmp(example, "cluster") && !(text = explain_cluster(rule, &len))) {
			fprintf(stderr, "trainforge: %s's examples name no cluster config\n",
				rule_table[rule].id);
			return EXIT_TROUBLE;
		}
		fwrite(text, 1, len, stdout);
		return ferror(stdout) ? EXIT_TROUBLE : EXIT_CLEAN;
	}
	struct buf b = BUF_INIT;
	explain_write(&b, rule, fmt, 1);
	fwrite(b.p, 1, b.len, stdout);
	buf_free(&b);
	return ferror(stdout) ? EXIT_TROUBLE : EXIT_CLEAN;
}
