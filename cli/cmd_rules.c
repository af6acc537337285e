#include <stdio.h>

#include "commands.h"
#include "rules.h"

int cmd_rules(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fputs("usage: trainforge rules\n", stderr);
		return EXIT_TROUBLE;
	}
	static const char *const fix_names[] = {
		[FIX_NONE] = "-", [FIX_SAFE] = "safe", [FIX_UNSAFE] = "unsafe",
	};
	printf("%-7s %-36s %-8s %-6s %s\n", "ID", "NAME", "LEVEL", "FIX", "SUMMARY");
	for (int i = 0; i < RULE__COUNT; i++)
		printf("%-7s %-36s %-8s %-6s %s\n", rule_table[i].id, rule_table[i].name,
		       severity_name(rule_table[i].level),
		       fix_names[rule_fixability((enum rule_id)i)], rule_table[i].summary);
	return EXIT_CLEAN;
}
