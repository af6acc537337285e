/* trainforge rules [--where]: the rule table (core/report/rules.def). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cli_options.h"
#include "rules.h"

int cmd_rules(int argc, char **argv)
{
	bool where = false;
	struct options p;
	options_init(&p, CMD_RULES, argc, argv);
	for (int id; (id = options_next(&p)) != OPTS_DONE;) {
		switch (id) {
		case OPTS_HELP: return EXIT_CLEAN;
		case OPT_WHERE: where = true; break;
		default:
			if (id == OPTS_OPERAND) {
				fprintf(stderr, "trainforge: unexpected '%s'\n", p.value);
				options_usage(stderr, CMD_RULES);
			}
			return EXIT_TROUBLE;
		}
	}
	static const char *const fix_names[] = {
		[FIX_NONE] = "-", [FIX_SAFE] = "safe", [FIX_UNSAFE] = "unsafe",
	};
	if (where) {
		printf("%-7s %-36s %-28s %s\n", "ID", "NAME", "FILE", "AREA");
		for (int i = 0; i < RULE__COUNT; i++) {
			const struct area *a = &area_table[rule_area_of((enum rule_id)i)];
			printf("%-7s %-36s %-28s %s: %s\n", rule_table[i].id, rule_table[i].name,
			       a->file, a->family, a->title);
		}
		return EXIT_CLEAN;
	}
	printf("%-7s %-36s %-8s %-6s %s\n", "ID", "NAME", "LEVEL", "FIX", "SUMMARY");
	for (int i = 0; i < RULE__COUNT; i++)
		printf("%-7s %-36s %-8s %-6s %s\n", rule_table[i].id, rule_table[i].name,
		       severity_name(rule_table[i].level),
		       fix_names[rule_fixability((enum rule_id)i)], rule_table[i].summary);
	return EXIT_CLEAN;
}
