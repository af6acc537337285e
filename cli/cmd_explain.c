/* trainforge explain [--format text|markdown] [--example bad|good|bad-old|good-old|cluster] ID|NAME */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "commands.h"
#include "explain.h"
#include "cli_options.h"
#include "rules.h"

int cmd_explain(int argc, char **argv)
{
	const char *name = NULL, *example = NULL;
	enum explain_format fmt = EXPLAIN_TEXT;
	struct options p;
	options_init(&p, CMD_EXPLAIN, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPTS_ERROR: return EXIT_TROUBLE;
		case OPT_FORMAT:
			if (!strcmp(p.value, "text"))
				fmt = EXPLAIN_TEXT;
			else if (!strcmp(p.value, "markdown"))
				fmt = EXPLAIN_MARKDOWN;
			else
				return options_bad_value(&p);
			break;
		case OPT_EXAMPLE:
			example = p.value;
			if (strcmp(example, "bad") && strcmp(example, "good") && strcmp(example, "cluster") &&
			    strcmp(example, "bad-old") && strcmp(example, "good-old"))
				return options_bad_value(&p);
			break;
		case OPTS_OPERAND:
			if (name) {
				options_usage(stderr, CMD_EXPLAIN);
				return EXIT_TROUBLE;
			}
			name = p.value;
			break;
		}
	}
	if (!name) {
		options_usage(stderr, CMD_EXPLAIN);
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
