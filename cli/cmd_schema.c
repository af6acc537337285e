/* trainforge schema jobspec|parallelcluster|tco: prints an embedded JSON
 * Schema, for editors (yaml-language-server) and other validators. */
#include <stdio.h>
#include <string.h>

#include "assets.h"
#include "commands.h"

static const char schema_usage[] =
	"usage: trainforge schema jobspec|parallelcluster|tco\n"
	"  Prints the JSON Schema (draft 2020-12) of a job spec, a ParallelCluster 3\n"
	"  config or the cost inputs of plan --tco,\n"
	"  e.g. trainforge schema parallelcluster > parallelcluster.schema.json\n";

static const struct {
	const char *name, *asset;
} schemas[] = {
	{ "jobspec", "jobspec.schema.json" },
	{ "parallelcluster", "parallelcluster.schema.json" },
	{ "tco", "tco.schema.json" },
};

int cmd_schema(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(schema_usage, stdout);
		return EXIT_CLEAN;
	}
	if (argc != 2) {
		fputs(schema_usage, stderr);
		return EXIT_TROUBLE;
	}
	for (size_t i = 0; i < sizeof schemas / sizeof schemas[0]; i++) {
		if (strcmp(argv[1], schemas[i].name) != 0)
			continue;
		const struct asset *a = asset_find(schemas[i].asset);
		if (!a) {
			fprintf(stderr, "trainforge: the %s schema is not built in\n", argv[1]);
			return EXIT_TROUBLE;
		}
		if (fwrite(a->text, 1, a->len, stdout) != a->len || fflush(stdout) != 0) {
			perror("trainforge: writing the schema");
			return EXIT_TROUBLE;
		}
		return EXIT_CLEAN;
	}
	fprintf(stderr, "trainforge: unknown schema '%s' (jobspec, parallelcluster, tco)\n%s",
		argv[1], schema_usage);
	return EXIT_TROUBLE;
}
