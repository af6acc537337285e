#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "rules.h"

static const char rules_usage[] =
	"usage: trainforge rules [--where]\n"
	"  lists every rule: ID, name, default level, fix and summary;\n"
	"  --where: the area and the file that implements each rule instead\n";

int cmd_rules(int argc, char **argv)
{
	bool where = argc == 2 && strcmp(argv[1], "--where") == 0;
	if (argc > 2 || (argc == 2 && !where)) {
		fputs(rules_usage, stderr);
		return EXIT_TROUBLE;
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
